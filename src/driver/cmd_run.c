/* heat2d run: one method, one size, the seed's KEY=VALUE protocol. */
#define _GNU_SOURCE
#include "commands.h"
#include "snapshot_sink.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

int heat2d_cmd_run(int argc, char **argv)
{
    static const struct option options[] = {
        {"method", required_argument, NULL, 'm'},
        {"nx", required_argument, NULL, 'x'},
        {"ny", required_argument, NULL, 'y'},
        {"steps", required_argument, NULL, 's'},
        {"alpha", required_argument, NULL, 'a'},
        {"save", required_argument, NULL, 'o'},
        {"pinned", no_argument, NULL, 'p'},
        {"precision", required_argument, NULL, 'P'},
        {"output-every", required_argument, NULL, 'K'},
        {"snapshot-copy", required_argument, NULL, 'C'},
        {"save-every", required_argument, NULL, 'S'},
        {"halo-depth", required_argument, NULL, 'H'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    heat2d_config cfg = {.nx = 256, .ny = 256, .steps = 80, .alpha = HEAT2D_ALPHA};
    const char *method_name = NULL;
    const char *save_path = NULL;
    const char *save_every = NULL;
    bool copy_given = false;
    heat2d_error err = {{0}};

    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        int rc = 0;
        switch (opt) {
        case 'm':
            method_name = optarg;
            break;
        case 'x':
            rc = heat2d_parse_size(optarg, "--nx", &cfg.nx, &err);
            break;
        case 'y':
            rc = heat2d_parse_size(optarg, "--ny", &cfg.ny, &err);
            break;
        case 's':
            rc = heat2d_parse_size(optarg, "--steps", &cfg.steps, &err);
            break;
        case 'a':
            rc = heat2d_parse_alpha(optarg, "--alpha", &cfg.alpha, &err);
            break;
        case 'o':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --save needs a file name");
            save_path = optarg;
            break;
        case 'p':
            cfg.pinned = true;
            break;
        case 'P':
            rc = heat2d_parse_precision(optarg, &cfg.precision, &err);
            break;
        case 'K':
            rc = heat2d_parse_size(optarg, "--output-every", &cfg.output_every, &err);
            break;
        case 'C':
            copy_given = true;
            rc = heat2d_parse_snapshot_copy(optarg, &cfg.snapshot_copy, &err);
            break;
        case 'S':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --save-every needs a folder");
            save_every = optarg;
            break;
        case 'H':
            rc = heat2d_parse_size(optarg, "--halo-depth", &cfg.halo_depth, &err);
            break;
        case 'h':
            heat2d_usage("run", stdout);
            return EXIT_SUCCESS;
        default:
            return heat2d_report_bad_option("run", argc, argv, options, NULL);
        }
        if (rc != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    }
    if (optind < argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: unexpected argument '%s'",
                                   argv[optind]);
    if (method_name == NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --method is required");
    const heat2d_method *method = heat2d_method_find(method_name);
    if (method == NULL)
        return heat2d_report_error(
            HEAT2D_EXIT_USAGE, "run: unknown method '%s' (heat2d methods lists them)", method_name);
    if (cfg.pinned && !method->has_pinned_variant)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --pinned does not apply to %s",
                                   method_name);
    /* An option the method does not take is a usage error, as --pinned. */
    if (heat2d_method_takes(method, &cfg, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    if (copy_given && cfg.output_every == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --snapshot-copy needs --output-every");
    if (cfg.nx < HEAT2D_MIN_SIDE || cfg.ny < HEAT2D_MIN_SIDE)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: nx and ny must be >= %d",
                                   HEAT2D_MIN_SIDE);

    if (save_every != NULL && cfg.output_every == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --save-every needs --output-every");
    if (save_path != NULL && heat2d_field_check_writable(save_path, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    /* Snapshots: checked as the final field is, written with --save-every. */
    heat2d_snapshot_sink sink = {0};
    if (cfg.output_every > 0) {
        if (heat2d_snapshot_sink_open(&sink, &cfg, save_every, &err) != 0)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
        cfg.snapshot = heat2d_snapshot_sink_handle;
        cfg.snapshot_ctx = &sink;
    }

    heat2d_outcome outcome;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    const int ran = heat2d_run_method(method, &cfg, &outcome, storage, &field, &err);
    heat2d_snapshot_sink_close(&sink);
    if (ran != 0) {
        if (outcome.report.abort_peers) {
            /* One rank failed inside a distributed loop, where the others
             * wait for it: its line, then the whole job ends. */
            heat2d_error line;
            heat2d_fail(&line, "run: %s", err.message);
            fprintf(stderr, "heat2d: %s\n", line.message);
            fflush(stderr);
            heat2d_process_abort(HEAT2D_EXIT_FAILURE);
        }
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    }
    /* A distributed method's other ranks computed their blocks; rank 0
     * holds the field, and it alone prints and writes. */
    if (outcome.report.rank != 0)
        return EXIT_SUCCESS;
    heat2d_print_outcome(stdout, method, &cfg, &outcome);
    fflush(stdout);
    int status = EXIT_SUCCESS;
    if (save_path != NULL) {
        if (heat2d_field_write(save_path, cfg.nx, cfg.ny, field, &err) != 0)
            status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
        else
            printf("FIELD_FILE=%s\n", save_path);
    }
    heat2d_free_pair(storage[0], storage[1]);
    return status;
}
