/* heat2d compare: full-field comparison of candidates against a reference,
 * with the original tool's semantics and output, and where a person looks
 * first: the worst cell as (i, j), both values there and the RMS difference. */
#define _GNU_SOURCE
#include "commands.h"
#include "field_netcdf.h"

#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* One field read on a thread of its own. */
typedef struct field_job {
    const char *path;
    heat2d_field field;
    heat2d_error err;
    int rc;
} field_job;

static void *read_job(void *arg)
{
    field_job *job = arg;
    job->rc = heat2d_field_load(job->path, &job->field, &job->err);
    return NULL;
}

/* The command line's tolerances into *tol: -1 to go on (the files start
 * at optind), else the exit status. */
static int parse_compare_options(int argc, char **argv, heat2d_tolerance *tol)
{
    static const struct option options[] = {
        HEAT2D_OPTION_ARG("atol", 'a'),
        HEAT2D_OPTION_ARG("rtol", 'r'),
        HEAT2D_OPTION_FLAG("help", 'h'),
        {NULL, 0, NULL, 0},
    };
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        int rc = 0;
        if (opt == 'a')
            rc = heat2d_parse_nonneg_real(optarg, "--atol", &tol->atol, &err);
        else if (opt == 'r')
            rc = heat2d_parse_nonneg_real(optarg, "--rtol", &tol->rtol, &err);
        else if (opt == 'h')
            return heat2d_usage("compare", stdout) == 0 ? EXIT_SUCCESS : HEAT2D_EXIT_FAILURE;
        else
            return heat2d_report_bad_option("compare", argc, argv, options, NULL);
        if (rc != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "compare: %s", err.message);
    }
    if (argc - optind < 2)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "compare: usage: heat2d compare REF CAND... [--atol A] "
                                   "[--rtol R]");
    return -1;
}

/* The reference and the first candidate into *ref and *first; 0, or the
 * exit status after the one line that says why (nothing left to free). */
static int read_first_pair(const char *ref_path, const char *first_path, heat2d_field *ref,
                           heat2d_field *first)
{
    /* Parsing text is the whole cost of a comparison: the reference is read
     * on a second thread while this one reads the first candidate. */
    field_job ref_job = {.path = ref_path};
    field_job first_job = {.path = first_path};
    pthread_t ref_thread;
    /* Not for NetCDF: HDF5 keeps per-thread state that NetCDF readies on
     * the first thread alone, and the reading is cheap anyway. */
    const bool netcdf =
        heat2d_field_is_netcdf(ref_job.path) || heat2d_field_is_netcdf(first_job.path);
    bool threaded = !netcdf && pthread_create(&ref_thread, NULL, read_job, &ref_job) == 0;
    if (!threaded)
        read_job(&ref_job);
    read_job(&first_job);
    if (threaded)
        pthread_join(ref_thread, NULL);
    if (ref_job.rc != 0 || first_job.rc != 0) {
        const char *message = ref_job.rc != 0 ? ref_job.err.message : first_job.err.message;
        if (ref_job.rc == 0)
            heat2d_field_free(&ref_job.field);
        if (first_job.rc == 0)
            heat2d_field_free(&first_job.field);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "compare: %s", message);
    }
    *ref = ref_job.field;
    *first = first_job.field;
    return 0;
}

/* A value in the fewest digits that read back as it (at most 17). */
static void print_value(const char *key, double value)
{
    int digits = 6;
    char text[40];
    do
        snprintf(text, sizeof text, "%.*g", digits, value);
    while (digits++ < 17 && isfinite(value) && strtod(text, NULL) != value);
    printf(" %s=%s", key, text);
}

/* One candidate's line: the original's keys, then the worst cell as (i, j)
 * (0-based, as every cell heat2d names), the two values there and the RMS
 * difference. */
static void print_comparison(const char *name, const heat2d_field *ref, const heat2d_field *cand,
                             const heat2d_comparison *cmp)
{
    const size_t worst = cmp->worst_index;
    fputs("FILE=", stdout);
    heat2d_put_escaped(stdout, name);
    printf(" MAX_ABS_DIFF=%.6e WORST_INDEX=%zu FAILURES=%zu", cmp->max_abs_diff, worst,
           cmp->failures);
    printf(" WORST_I=%zu WORST_J=%zu", worst % ref->nx, worst / ref->nx);
    print_value("REF_VALUE", ref->values[worst]);
    print_value("CAND_VALUE", cand->values[worst]);
    printf(" RMS_DIFF=%.6e\n", cmp->rms_diff);
}

int heat2d_cmd_compare(int argc, char **argv)
{
    heat2d_tolerance tol = {.atol = HEAT2D_DEFAULT_ATOL, .rtol = HEAT2D_DEFAULT_RTOL};
    heat2d_error err = {{0}};
    int status = parse_compare_options(argc, argv, &tol);
    if (status >= 0)
        return status;
    heat2d_field reference, candidate;
    if ((status = read_first_pair(argv[optind], argv[optind + 1], &reference, &candidate)) != 0)
        return status;
    bool failed = false;
    for (int k = optind + 1; k < argc; ++k) {
        if (k > optind + 1 && heat2d_field_load(argv[k], &candidate, &err) != 0) {
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
        print_comparison(argv[k], &reference, &candidate, &cmp);
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
