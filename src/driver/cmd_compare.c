/* heat2d compare: full-field comparison of candidates against a reference,
 * with the original tool's semantics and output. */
#define _GNU_SOURCE
#include "commands.h"

#include <getopt.h>
#include <stdlib.h>

int heat2d_cmd_compare(int argc, char **argv)
{
    static const struct option options[] = {
        {"atol", required_argument, NULL, 'a'},
        {"rtol", required_argument, NULL, 'r'},
        {NULL, 0, NULL, 0},
    };
    heat2d_tolerance tol = {.atol = HEAT2D_DEFAULT_ATOL, .rtol = HEAT2D_DEFAULT_RTOL};
    heat2d_error err = {{0}};

    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        int rc = 0;
        if (opt == 'a')
            rc = heat2d_parse_nonneg_real(optarg, "--atol", &tol.atol, &err);
        else if (opt == 'r')
            rc = heat2d_parse_nonneg_real(optarg, "--rtol", &tol.rtol, &err);
        else
            return heat2d_report_error(
                HEAT2D_EXIT_USAGE, "compare: unknown or incomplete option '%s'", argv[optind - 1]);
        if (rc != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "compare: %s", err.message);
    }
    if (argc - optind < 2)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "compare: usage: heat2d compare REF CAND... [--atol A] "
                                   "[--rtol R]");

    heat2d_field reference;
    if (heat2d_field_read(argv[optind], &reference, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "compare: %s", err.message);

    bool failed = false;
    for (int k = optind + 1; k < argc; ++k) {
        heat2d_field candidate;
        if (heat2d_field_read(argv[k], &candidate, &err) != 0) {
            heat2d_field_free(&reference);
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "compare: %s", err.message);
        }
        if (candidate.nx != reference.nx || candidate.ny != reference.ny) {
            heat2d_report_error(
                HEAT2D_EXIT_FAILURE, "compare: shape mismatch: %s is %zux%zu, %s is %zux%zu",
                argv[optind], reference.nx, reference.ny, argv[k], candidate.nx, candidate.ny);
            heat2d_field_free(&candidate);
            heat2d_field_free(&reference);
            return HEAT2D_EXIT_FAILURE;
        }
        heat2d_comparison cmp;
        heat2d_compare_arrays(reference.values, candidate.values, reference.nx * reference.ny, tol,
                              &cmp);
        printf("FILE=%s MAX_ABS_DIFF=%.6e WORST_INDEX=%zu FAILURES=%zu\n", argv[k],
               cmp.max_abs_diff, cmp.worst_index, cmp.failures);
        failed = failed || cmp.failures > 0;
        heat2d_field_free(&candidate);
    }
    heat2d_field_free(&reference);
    if (failed) {
        fflush(stdout);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "COMPARE=FAIL: full-field numerical differences");
    }
    printf("COMPARE=PASS\n");
    return EXIT_SUCCESS;
}
