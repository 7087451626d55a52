/* heat2d run: one method, one size, the seed's KEY=VALUE protocol. */
#define _GNU_SOURCE
#include "commands.h"
#include "process_guard.h"
#include "run_netcdf.h"
#include "series_folder.h"
#include "snapshot_sink.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One table option's value (a flag: 1) into values. */
static int parse_run_option(heat2d_option_id id, const char *text, size_t *values,
                            heat2d_error *err)
{
    const heat2d_option_def *o = &heat2d_run_options[id];
    if (o->parse == NULL) {
        values[id] = 1;
        return 0;
    }
    return o->parse(o, text, &values[id], err);
}

int heat2d_cmd_run(int argc, char **argv)
{
    /* run's own options around the run options of the table (getopt's
     * value: the option's id past kTableBase), in the order that a
     * message naming several lists them. */
    enum { kTableBase = 256 };
    static const struct option before[] = {
        {"method", required_argument, NULL, 'm'}, {"nx", required_argument, NULL, 'x'},
        {"ny", required_argument, NULL, 'y'},     {"steps", required_argument, NULL, 's'},
        {"alpha", required_argument, NULL, 'a'},  {"save", required_argument, NULL, 'o'},
    };
    static const struct option after[] = {
        {"save-every", required_argument, NULL, 'S'},
        {"initial", required_argument, NULL, 'i'},
        {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct option options[sizeof before / sizeof before[0] + HEAT2D_N_OPTIONS +
                          sizeof after / sizeof after[0]];
    memcpy(options, before, sizeof before);
    size_t n_options = sizeof before / sizeof before[0];
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        if (o->run_help != NULL)
            options[n_options++] =
                (struct option){o->name, o->arg != NULL ? required_argument : no_argument, NULL,
                                kTableBase + (int)k};
    }
    memcpy(options + n_options, after, sizeof after);
    heat2d_config cfg = {.nx = 256, .ny = 256, .steps = 80, .alpha = HEAT2D_ALPHA};
    heat2d_option_values values = {0};
    bool given[HEAT2D_N_OPTIONS] = {false};
    const char *method_name = NULL;
    const char *save_path = NULL;
    const char *save_every = NULL;
    const char *initial_path = NULL;
    bool shape_given = false;
    bool force = false;
    heat2d_error err = {{0}};
    /* Before getopt permutes argv: the history of a .nc file. */
    char command_line[2048];
    heat2d_run_command_line(argc, argv, command_line, sizeof command_line);

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
            shape_given = true;
            break;
        case 'y':
            rc = heat2d_parse_size(optarg, "--ny", &cfg.ny, &err);
            shape_given = true;
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
        case 'S':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --save-every needs a folder");
            save_every = optarg;
            break;
        case 'i':
            if (optarg[0] == '\0')
                return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --initial needs a file name");
            initial_path = optarg;
            break;
        case 'f':
            force = true;
            break;
        case 'h':
            heat2d_usage("run", stdout);
            return EXIT_SUCCESS;
        default:
            if (opt >= kTableBase && opt < kTableBase + HEAT2D_N_OPTIONS) {
                rc = parse_run_option((heat2d_option_id)(opt - kTableBase), optarg, values, &err);
                given[opt - kTableBase] = true;
                break;
            }
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
    /* An option the method does not take is a usage error (exit 2). */
    if (heat2d_method_takes(method, values, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_id needs = heat2d_run_options[k].needs;
        if (given[k] && needs != HEAT2D_OPTION_NONE && heat2d_run_options[needs].run_help != NULL &&
            !given[needs])
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --%s needs --%s",
                                       heat2d_run_options[k].name, heat2d_run_options[needs].name);
    }
    heat2d_options_to_config(values, &cfg);
    cfg.save_path = save_path;
    cfg.save_every_path = save_every;
    /* --snapshot-writer writes to a scratch folder of its own: beside
     * --save-every's place it would say nothing; netcdf needs a build with
     * NetCDF, refused as a choice this build cannot make (exit 2). */
    if (cfg.snapshot_writer != HEAT2D_WRITER_NONE && save_every != NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: --snapshot-writer writes to a scratch folder and "
                                   "--save-every to %s: give one of them",
                                   save_every);
    if (cfg.snapshot_writer == HEAT2D_WRITER_NETCDF &&
        heat2d_netcdf_check_built("--snapshot-writer", "netcdf", &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    /* --initial FILE: the run starts from that field, of the run's shape
     * (the file's, when --nx and --ny are not given), refused up front. */
    heat2d_field initial_field = {0};
    heat2d_initial initial;
    const int initial_checked = heat2d_run_initial_check(initial_path, save_every, &err);
    if (initial_checked != 0)
        return heat2d_report_error(initial_checked == -2 ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE,
                                   "run: %s", err.message);
    if (initial_path != NULL) {
        if (method->distributed)
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "run: %s starts from the standard initial state (--initial "
                                       "applies to the methods of one process)",
                                       method->name);
        if (heat2d_field_load(initial_path, &initial_field, &err) != 0)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: --initial: %s", err.message);
        if (!shape_given) {
            cfg.nx = initial_field.nx;
            cfg.ny = initial_field.ny;
        }
        if (initial_field.nx != cfg.nx || initial_field.ny != cfg.ny ||
            heat2d_initial_from(&initial, cfg.nx, cfg.ny, initial_field.values, &err) != 0) {
            if (initial_field.nx != cfg.nx || initial_field.ny != cfg.ny)
                heat2d_fail(&err, "the field is %zux%zu, the run %zux%zu", initial_field.nx,
                            initial_field.ny, cfg.nx, cfg.ny);
            heat2d_field_free(&initial_field);
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: --initial %s: %s", initial_path,
                                       err.message);
        }
        cfg.initial = &initial;
    }
    if (cfg.nx < HEAT2D_MIN_SIDE || cfg.ny < HEAT2D_MIN_SIDE)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: nx and ny must be >= %d",
                                   HEAT2D_MIN_SIDE);

    if (save_every != NULL && cfg.output_every == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --save-every needs --output-every");
    if (save_path != NULL && heat2d_field_check_writable(save_path, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    /* .nc files: this build's NetCDF, the series file, their metadata. */
    bool nc_series = save_every != NULL && heat2d_netcdf_path(save_every);
    const bool writer_nc = cfg.snapshot_writer == HEAT2D_WRITER_NETCDF;
    heat2d_netcdf_meta meta;
    const int nc_checked = heat2d_run_netcdf_check(save_path, save_every, force, &err);
    if (nc_checked != 0)
        return heat2d_report_error(nc_checked == -2 ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE,
                                   "run: %s", err.message);
    if ((nc_series || writer_nc || (save_path != NULL && heat2d_netcdf_path(save_path))) &&
        heat2d_run_netcdf_meta(&meta, &cfg, method->name, command_line, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    /* Under mpirun the ranks agree on their settings before anything is
     * made (a snapshot folder, a series), so that ranks that differ refuse
     * with nothing left behind. A method of one process would run once a
     * rank, each printing; part of an MPMD launch beside mpi-cpu it would
     * leave that one waiting in MPI. Every rank joins, agrees, and refuses
     * alike. */
    if (heat2d_process_count() > 1) {
        if (heat2d_process_join(method->name, &cfg, &err) != 0)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
        if (!method->distributed)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                       "run: %s runs as one process: start it without mpirun",
                                       method->name);
    }
    /* --snapshot-writer: step files in a scratch folder, claimed and
     * written as --save-every's, or one series there, written as a .nc
     * --save-every's; removed on every way out once the sink is closed. */
    char scratch[4096] = "", scratch_series[4200];
    int scratch_slot = -1;
    if (cfg.snapshot_writer != HEAT2D_WRITER_NONE) {
        const char *tmp = heat2d_tmp_base();
        const int made =
            heat2d_scratch_make(tmp, "heat2d-snapshots", scratch, sizeof scratch, &scratch_slot);
        if (made != 0)
            return heat2d_report_error(
                HEAT2D_EXIT_FAILURE,
                "run: --snapshot-writer %s: cannot make a scratch folder in %s: %s",
                heat2d_snapshot_writer_name((heat2d_snapshot_writer)cfg.snapshot_writer), tmp,
                strerror(made));
        snprintf(scratch_series, sizeof scratch_series, "%s/snapshots.nc", scratch);
        save_every = writer_nc ? scratch_series : scratch;
        nc_series = writer_nc;
    } else if (save_every != NULL) {
        /* SNAPSHOT_WRITER says what --save-every's snapshots are written as. */
        cfg.snapshot_writer = nc_series ? HEAT2D_WRITER_NETCDF : HEAT2D_WRITER_TEXT;
    }
    /* The step files' folder, and every file written there, before the run. */
    if (save_every != NULL && !nc_series) {
        const int claimed = heat2d_series_claim(save_every, &cfg, method->name, save_path, &err);
        if (claimed != 0) {
            heat2d_scratch_drop(scratch, &scratch_slot);
            return heat2d_report_error(claimed == -2 ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE,
                                       "run: %s", err.message);
        }
    }
    /* Snapshots: checked as the final field is, written with --save-every. */
    heat2d_snapshot_sink sink = {0};
    if (cfg.output_every > 0) {
        if (heat2d_snapshot_sink_open(&sink, &cfg, nc_series ? NULL : save_every, &err) != 0 ||
            /* Rank 0 alone is handed snapshots, and alone writes them. */
            (nc_series && heat2d_process_rank() == 0 &&
             heat2d_snapshot_sink_open_series(&sink, save_every, &meta, &err) != 0)) {
            heat2d_scratch_drop(scratch, &scratch_slot);
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
        }
        cfg.snapshot = heat2d_snapshot_sink_handle;
        cfg.snapshot_ctx = &sink;
        sink.scratch = scratch_slot >= 0;
    }

    heat2d_outcome outcome;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    const int ran = heat2d_run_method(method, &cfg, &outcome, storage, &field, &err);
    /* A series is marked complete only when the run is. */
    heat2d_error unmarked = {{0}};
    const int finished = heat2d_snapshot_sink_finish(&sink, ran == 0, &unmarked);
    /* What the snapshots' files hold, measured before a scratch folder goes
     * (rank 0 alone writes them). */
    if (ran == 0 && save_every != NULL && outcome.report.rank == 0) {
        struct stat written;
        if (!nc_series)
            outcome.report.snapshot_bytes_written = heat2d_series_bytes(save_every, &cfg);
        else if (stat(save_every, &written) == 0)
            outcome.report.snapshot_bytes_written = (uint64_t)written.st_size;
    }
    heat2d_scratch_drop(scratch, &scratch_slot);
    if (ran == 0 && finished != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", unmarked.message);
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
        const int wrote = heat2d_netcdf_path(save_path)
                              ? heat2d_netcdf_write_field(save_path, &meta, field, &err)
                              : heat2d_field_write(save_path, cfg.nx, cfg.ny, field, &err);
        if (wrote != 0)
            status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
        else
            heat2d_print_name(stdout, "FIELD_FILE", save_path);
    }
    heat2d_free_pair(storage[0], storage[1]);
    heat2d_field_free(&initial_field);
    return status;
}
