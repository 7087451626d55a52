/* heat2d run: one method, one size, the seed's KEY=VALUE protocol. The
 * command in its steps: the command line read (parse_run_args), checked
 * against itself and the method (check_request), the starting field
 * (load_initial), what the run writes checked before it starts and the
 * progress line (check_outputs), the snapshots' sink wired (wire_sink), the run itself
 * (run_and_close) and what it prints and saves (print_and_save). */
#define _GNU_SOURCE
#include "commands.h"
#include "field_format.h"
#include "heat2d_time_units.h"
#include "process_guard.h"
#include "run_netcdf.h"
#include "run_progress.h"
#include "same_file.h"
#include "series_folder.h"
#include "snapshot_sink.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What the command line asks for. */
typedef struct run_request {
    heat2d_config cfg;
    heat2d_option_values values;
    bool given[HEAT2D_N_OPTIONS];
    const char *method_name;
    const char *save_path;
    const char *save_every;
    const char *initial_path;
    bool shape_given;
    bool force;
    bool append;
    bool change_physics; /* --change-physics: the command line's over --initial's file's */
    /* A series' time units: --start-time's, or a continued series', else
     * "" (heat2d's default); the seconds one of them is. */
    char time_units[96];
    double time_unit_s;
    bool start_given; /* --start-time */
    heat2d_physical physical;
    /* Before getopt permutes argv: the history of a .nc file. */
    char command_line[2048];
} run_request;

/* The run's state from the starting field to the last file written. */
typedef struct run_state {
    const heat2d_method *method;
    heat2d_field initial_field;
    heat2d_initial initial;
    heat2d_netcdf_meta meta;
    bool nc_series; /* the snapshots go to one NetCDF series */
    /* --snapshot-writer's scratch folder (its slot -1 when none) and the
     * series in it. */
    char scratch[4096];
    char scratch_series[4200];
    int scratch_slot;
    heat2d_snapshot_sink sink;
    heat2d_run_progress progress;
    heat2d_outcome outcome;
    double *storage[2];
    const double *field;
} run_state;

/* run's own options around the run options of the table (getopt's value:
 * the option's id past kTableBase), in the order that a message naming
 * several lists them. */
enum { kTableBase = 256 };
static const struct option options_before[] = {
    HEAT2D_OPTION_ARG("method", 'm'), HEAT2D_OPTION_ARG("nx", 'x'),
    HEAT2D_OPTION_ARG("ny", 'y'),     HEAT2D_OPTION_ARG("steps", 's'),
    HEAT2D_OPTION_ARG("alpha", 'a'),  HEAT2D_OPTION_ARG("save", 'o'),
};
static const struct option options_after[] = {
    HEAT2D_OPTION_ARG("save-every", 'S'),
    HEAT2D_OPTION_ARG("initial", 'i'),
    HEAT2D_OPTION_FLAG("append", 'A'),
    HEAT2D_OPTION_ARG("dx", 'X'),
    HEAT2D_OPTION_ARG("dt", 'T'),
    HEAT2D_OPTION_ARG("diffusivity", 'D'),
    HEAT2D_OPTION_FLAG("force", 'f'),
    HEAT2D_OPTION_FLAG("change-physics", 'P'),
    HEAT2D_OPTION_ARG("start-time", 'Z'),
    HEAT2D_OPTION_FLAG("help", 'h'),
    {NULL, 0, NULL, 0},
};
#define N_BEFORE      (sizeof options_before / sizeof options_before[0])
#define N_AFTER       (sizeof options_after / sizeof options_after[0])
#define N_RUN_OPTIONS (N_BEFORE + HEAT2D_N_OPTIONS + N_AFTER)

static void build_options(struct option options[N_RUN_OPTIONS])
{
    memcpy(options, options_before, sizeof options_before);
    size_t n = N_BEFORE;
    n += heat2d_options_getopt(options + n, false, kTableBase);
    memcpy(options + n, options_after, sizeof options_after);
}

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

/* A file or folder name that may not be empty: 0, or the usage error. */
static int name_given(const char *text, const char *what)
{
    if (text[0] != '\0')
        return 0;
    return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", what);
}

/* One option getopt returned (its argument arg) into r: 0, -1 when it is
 * not one of run's, else the exit status, having said why. */
static int take_option(int opt, const char *arg, run_request *r)
{
    heat2d_error err = {{0}};
    int rc = 0;
    switch (opt) {
    case 'm':
        r->method_name = arg;
        return 0;
    case 'x':
    case 'y':
        rc = heat2d_parse_size(arg, opt == 'x' ? "--nx" : "--ny",
                               opt == 'x' ? &r->cfg.nx : &r->cfg.ny, &err);
        r->shape_given = true;
        break;
    case 's':
        rc = heat2d_parse_size(arg, "--steps", &r->cfg.steps, &err);
        break;
    case 'a':
        rc = heat2d_parse_alpha(arg, "--alpha", &r->cfg.alpha, &err);
        r->physical.alpha_given = true;
        break;
    case 'X':
        rc = heat2d_parse_physical(arg, "--dx", &r->physical.dx, &err);
        break;
    case 'T':
        rc = heat2d_parse_physical(arg, "--dt", &r->physical.dt, &err);
        break;
    case 'D':
        rc = heat2d_parse_physical(arg, "--diffusivity", &r->physical.diffusivity, &err);
        break;
    case 'A':
        r->append = true;
        return 0;
    case 'o':
        r->save_path = arg;
        return name_given(arg, "--save needs a file name");
    case 'S':
        r->save_every = arg;
        return name_given(arg, "--save-every needs a folder");
    case 'i':
        r->initial_path = arg;
        return name_given(arg, "--initial needs a file name");
    case 'f':
        r->force = true;
        return 0;
    case 'P':
        r->change_physics = true;
        return 0;
    case 'Z':
        r->start_given = true;
        r->time_unit_s = 1.0;
        if (heat2d_time_units_from_start(arg, r->time_units, sizeof r->time_units) == 0)
            return 0;
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: --start-time %s: not an ISO 8601 date and time "
                                   "(YYYY-MM-DD[Thh:mm[:ss]][Z|+hh:mm], UTC when no zone is given)",
                                   arg);
    default:
        if (opt < kTableBase || opt >= kTableBase + HEAT2D_N_OPTIONS)
            return -1;
        rc = parse_run_option((heat2d_option_id)(opt - kTableBase), arg, r->values, &err);
        r->given[opt - kTableBase] = true;
        break;
    }
    return rc != 0 ? heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message) : 0;
}

/* The command line into r. Returns -1 to go on, else the exit status
 * (0 after --help). */
static int parse_run_args(int argc, char **argv, run_request *r)
{
    struct option options[N_RUN_OPTIONS];
    build_options(options);
    *r = (run_request){.cfg = {.nx = 256, .ny = 256, .steps = 80, .alpha = HEAT2D_ALPHA}};
    heat2d_run_command_line(argc, argv, r->command_line, sizeof r->command_line);
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (opt == 'h') {
            heat2d_usage("run", stdout);
            return EXIT_SUCCESS;
        }
        const int rc = take_option(opt, optarg, r);
        if (rc < 0)
            return heat2d_report_bad_option("run", argc, argv, options, NULL);
        if (rc != 0)
            return rc;
    }
    if (optind < argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: unexpected argument '%s'",
                                   argv[optind]);
    return -1;
}

/* The method, the options it takes and what each option needs, and the
 * options into r->cfg. Returns 0, else the exit status. */
static int check_request(run_request *r, const heat2d_method **method)
{
    heat2d_error err = {{0}};
    if (r->method_name == NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --method is required");
    *method = heat2d_method_find(r->method_name);
    if (*method == NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: unknown method '%s' (heat2d methods lists them)",
                                   r->method_name);
    /* An option the method does not take is a usage error (exit 2). */
    if (heat2d_method_takes(*method, r->values, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_id needs = heat2d_run_options[k].needs;
        if (r->given[k] && needs != HEAT2D_OPTION_NONE &&
            heat2d_run_options[needs].run_help != NULL && !r->given[needs])
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --%s needs --%s",
                                       heat2d_run_options[k].name, heat2d_run_options[needs].name);
    }
    heat2d_options_to_config(r->values, &r->cfg);
    if (heat2d_physical_resolve(&r->physical, &r->cfg, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    r->cfg.save_path = r->save_path;
    r->cfg.save_every_path = r->save_every;
    r->cfg.force = r->force;
    /* --snapshot-writer writes to a scratch folder of its own: beside
     * --save-every's place it would say nothing; netcdf needs a build with
     * NetCDF, refused as a choice this build cannot make (exit 2). */
    if (r->cfg.snapshot_writer != HEAT2D_WRITER_NONE && r->save_every != NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: --snapshot-writer writes to a scratch folder and "
                                   "--save-every to %s: give one of them",
                                   r->save_every);
    if (r->cfg.snapshot_writer == HEAT2D_WRITER_NETCDF &&
        heat2d_netcdf_check_built("--snapshot-writer", "netcdf", &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    return 0;
}

/* A continued series' clock: its time units (their origin, --start-time's
 * in the run that made it) are the run's, unless --start-time gives
 * another, refused unless --change-physics. 0, or -1 having said why. */
static int take_file_clock(run_request *r, const heat2d_netcdf_facts *facts)
{
    double unit_s, origin_s;
    if (facts->time_units[0] == '\0' ||
        heat2d_time_units_parse(facts->time_units, &unit_s, &origin_s) != 0)
        return 0;
    if (!r->start_given) {
        snprintf(r->time_units, sizeof r->time_units, "%s", facts->time_units);
        r->time_unit_s = unit_s;
        return 0;
    }
    if (r->change_physics || heat2d_time_units_equal(facts->time_units, r->time_units))
        return 0;
    heat2d_report_error(HEAT2D_EXIT_USAGE,
                        "run: --initial %s holds time in \"%s\", the command line gives \"%s\" "
                        "(--start-time): leave it out to continue the file's clock, or give "
                        "--change-physics to run with the command line's",
                        r->initial_path, facts->time_units, r->time_units);
    return -1;
}

/* What --initial's file says of the run that wrote it, made the run's:
 * its physics and precision where the command line gives none, refused
 * where it gives others, unless --change-physics. Returns 0, else the exit
 * status. */
static int take_file_physics(run_request *r, const heat2d_netcdf_facts *facts)
{
    heat2d_error err = {{0}};
    heat2d_config *cfg = &r->cfg;
    /* A heat2d file's dx, else its coordinates' spacing in metres. */
    const heat2d_physics file = {facts->alpha, facts->dx > 0.0 ? facts->dx : facts->spacing,
                                 facts->dt, facts->diffusivity};
    if (heat2d_physical_continue(&r->physical, &file, r->change_physics, r->initial_path, cfg,
                                 &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    if (take_file_clock(r, facts) != 0)
        return HEAT2D_EXIT_USAGE;
    if (!facts->has_precision || facts->precision == cfg->precision)
        return 0;
    if (!r->given[HEAT2D_OPTION_PRECISION]) {
        cfg->precision = facts->precision;
        return 0;
    }
    if (r->change_physics)
        return 0;
    return heat2d_report_error(HEAT2D_EXIT_USAGE,
                               "run: --initial %s holds precision = %s, the command line gives "
                               "precision = %s (--precision): leave it out to continue with the "
                               "file's, or give --change-physics to run with the command line's",
                               r->initial_path, heat2d_precision_name(facts->precision),
                               heat2d_precision_name(cfg->precision));
}

/* No file the run writes is the one --initial reads: --save, or a step
 * file or the manifest of a --save-every folder (a .nc --save-every is
 * heat2d_run_initial_check's). Returns 0, else the exit status. */
static int check_initial_outputs(const run_request *r)
{
    heat2d_netcdf_spec parsed;
    heat2d_error ignored;
    const char *input = heat2d_netcdf_spec_parse(r->initial_path, &parsed, &ignored) == 1
                            ? parsed.file
                            : r->initial_path;
    if (r->save_path != NULL && heat2d_same_file(r->save_path, input))
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: --save %s is the file that --initial %s reads; choose "
                                   "another name",
                                   r->save_path, r->initial_path);
    size_t step = 0;
    const int written = r->save_every != NULL && !heat2d_netcdf_path(r->save_every)
                            ? heat2d_series_writes(r->save_every, &r->cfg, input, &step)
                            : 0;
    if (written == 1)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: --save-every %s writes its step file of step %zu over "
                                   "the file that --initial %s reads; choose another folder",
                                   r->save_every, step, r->initial_path);
    if (written == 2)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "run: --save-every %s writes its manifest over the file that "
                                   "--initial %s reads; choose another folder",
                                   r->save_every, r->initial_path);
    return 0;
}

/* --initial FILE: the run starts from that field, of the run's shape (the
 * file's, when --nx and --ny are not given), refused up front. Returns 0,
 * else the exit status. */
static int load_initial(run_request *r, run_state *s)
{
    heat2d_error err = {{0}};
    const int checked = heat2d_run_initial_check(r->initial_path, r->save_every, r->append,
                                                 &r->cfg.first_step, &err);
    if (checked != 0)
        return heat2d_report_error(checked == -2 ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE,
                                   "run: %s", err.message);
    /* Before the file is read: first_step names the step files. */
    if (r->initial_path != NULL) {
        const int status = check_initial_outputs(r);
        if (status != 0)
            return status;
    }
    if (r->change_physics && (r->initial_path == NULL || r->append))
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   r->append ? "run: --change-physics cannot go with --append (a "
                                               "series continues with its own physics)"
                                             : "run: --change-physics needs --initial (it "
                                               "replaces the physics of the file's run)");
    if (r->initial_path == NULL)
        return 0;
    heat2d_field *field = &s->initial_field;
    heat2d_netcdf_facts facts;
    if (heat2d_field_load_facts(r->initial_path, field, &facts, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: --initial: %s", err.message);
    const int physics = take_file_physics(r, &facts);
    if (physics != 0)
        return physics;
    if (facts.has_step) /* a series of one record, named whole: its clock */
        r->cfg.first_step = facts.step;
    if (!r->shape_given) {
        r->cfg.nx = field->nx;
        r->cfg.ny = field->ny;
    }
    const bool shape_ok = field->nx == r->cfg.nx && field->ny == r->cfg.ny;
    if (!shape_ok)
        heat2d_fail(&err, "the field is %zux%zu, the run %zux%zu", field->nx, field->ny, r->cfg.nx,
                    r->cfg.ny);
    if (!shape_ok ||
        heat2d_initial_from(&s->initial, r->cfg.nx, r->cfg.ny, field->values, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: --initial %s: %s", r->initial_path,
                                   err.message);
    r->cfg.initial = &s->initial;
    return 0;
}

/* The grid, and every file the run will write, before it starts; under
 * mpirun the ranks agree first. Returns 0, else the exit status. */
static int check_outputs(run_request *r, run_state *s)
{
    heat2d_error err = {{0}};
    heat2d_config *cfg = &r->cfg;
    if (cfg->nx < HEAT2D_MIN_SIDE || cfg->ny < HEAT2D_MIN_SIDE)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: nx and ny must be >= %d",
                                   HEAT2D_MIN_SIDE);
    if (r->save_every != NULL && cfg->output_every == 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: --save-every needs --output-every");
    if (r->save_path != NULL && heat2d_field_check_writable(r->save_path, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    /* .nc files: this build's NetCDF, the series file, their metadata. */
    s->nc_series = r->save_every != NULL && heat2d_netcdf_path(r->save_every);
    const bool writer_nc = cfg->snapshot_writer == HEAT2D_WRITER_NETCDF;
    const int nc_checked = heat2d_run_netcdf_check(r->save_path, r->save_every, r->force, &err);
    if (nc_checked != 0)
        return heat2d_report_error(nc_checked == -2 ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE,
                                   "run: %s", err.message);
    if ((s->nc_series || writer_nc || (r->save_path != NULL && heat2d_netcdf_path(r->save_path))) &&
        heat2d_run_netcdf_meta(&s->meta, cfg, s->method->name, r->command_line, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    s->meta.time_units = r->time_units;
    s->meta.time_unit_s = r->time_unit_s;
    /* Under mpirun the ranks agree on their settings before anything is
     * made (a snapshot folder, a series), so that ranks that differ refuse
     * with nothing left behind. A method of one process would run once a
     * rank, each printing; part of an MPMD launch beside mpi-cpu it would
     * leave that one waiting in MPI. Every rank joins, agrees, and refuses
     * alike. */
    if (heat2d_process_count() > 1) {
        if (heat2d_process_join(s->method->name, cfg, &err) != 0)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
        if (!s->method->distributed)
            return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                       "run: %s runs as one process: start it without mpirun",
                                       s->method->name);
    }
    if (heat2d_run_progress_wire(&s->progress, cfg, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "run: %s", err.message);
    return 0;
}

/* --snapshot-writer: step files in a scratch folder, claimed and written as
 * --save-every's, or one series there, written as a .nc --save-every's;
 * removed on every way out once the sink is closed. Returns 0, else the
 * exit status. */
static int make_scratch(run_request *r, run_state *s)
{
    heat2d_config *cfg = &r->cfg;
    if (cfg->snapshot_writer == HEAT2D_WRITER_NONE) {
        /* SNAPSHOT_WRITER says what --save-every's snapshots are written as. */
        if (r->save_every != NULL)
            cfg->snapshot_writer = s->nc_series ? HEAT2D_WRITER_NETCDF : HEAT2D_WRITER_TEXT;
        return 0;
    }
    const char *tmp = heat2d_tmp_base();
    const int made = heat2d_scratch_make(tmp, "heat2d-snapshots", s->scratch, sizeof s->scratch,
                                         &s->scratch_slot);
    if (made != 0)
        return heat2d_report_error(
            HEAT2D_EXIT_FAILURE,
            "run: --snapshot-writer %s: cannot make a scratch folder in %s: %s",
            heat2d_snapshot_writer_name((heat2d_snapshot_writer)cfg->snapshot_writer), tmp,
            strerror(made));
    snprintf(s->scratch_series, sizeof s->scratch_series, "%s/snapshots.nc", s->scratch);
    s->nc_series = cfg->snapshot_writer == HEAT2D_WRITER_NETCDF;
    r->save_every = s->nc_series ? s->scratch_series : s->scratch;
    return 0;
}

/* A failure inside --snapshot-writer's scratch folder (a full TMPDIR)
 * names a file in a folder the run then removes: the line says so, and
 * where to turn, rather than send the user to look for it. */
static void note_scratch_gone(const run_state *s, heat2d_error *err)
{
    if (s->scratch_slot < 0 || strstr(err->message, s->scratch) == NULL)
        return;
    const heat2d_error was = *err;
    heat2d_fail(err,
                "%s (in --snapshot-writer's scratch folder, removed with the run; set TMPDIR "
                "to write it elsewhere)",
                was.message);
}

/* The snapshots' place (a scratch folder, the step files' folder and every
 * file written there, claimed before the run) and the sink that checks
 * and writes them. Returns 0, else the exit status. */
static int wire_sink(run_request *r, run_state *s)
{
    heat2d_error err = {{0}};
    heat2d_config *cfg = &r->cfg;
    int status = make_scratch(r, s);
    if (status != 0)
        return status;
    if (r->save_every != NULL && !s->nc_series) {
        const int claimed =
            heat2d_series_claim(r->save_every, cfg, s->method->name, r->save_path, &err);
        if (claimed != 0) {
            note_scratch_gone(s, &err);
            return heat2d_report_error(claimed == -2 ? HEAT2D_EXIT_USAGE : HEAT2D_EXIT_FAILURE,
                                       "run: %s", err.message);
        }
    }
    /* Snapshots: checked as the final field is, written with --save-every. */
    if (cfg->output_every == 0)
        return 0;
    const int opened = heat2d_snapshot_sink_open(&s->sink, cfg, r->save_every, &err);
    s->sink.scratch = s->scratch_slot >= 0;
    /* Rank 0 alone is handed snapshots, and alone writes them. */
    if (opened != 0 || (heat2d_process_rank() == 0 &&
                        heat2d_snapshot_sink_start(&s->sink, &s->meta, r->append, &err) != 0)) {
        note_scratch_gone(s, &err);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    }
    cfg->snapshot = heat2d_snapshot_sink_handle;
    cfg->snapshot_ctx = &s->sink;
    return 0;
}

/* One rank failed inside a distributed loop, where the others wait for
 * it: its line, then the whole job ends. */
static void abort_peers(const heat2d_error *err)
{
    heat2d_error line;
    heat2d_fail(&line, "run: %s", err->message);
    fprintf(stderr, "heat2d: %s\n", line.message);
    fflush(stderr);
    heat2d_process_abort(HEAT2D_EXIT_FAILURE);
}

/* The run, the sink closed (a series marked complete only when the run
 * is), what the snapshots' files hold measured before a scratch folder
 * goes. Returns 0, else the exit status. */
static int run_and_close(run_request *r, run_state *s)
{
    heat2d_error err = {{0}}, unmarked = {{0}};
    heat2d_report *rep = &s->outcome.report;
    s->progress.line.started = heat2d_now();
    const int ran = heat2d_run_method(s->method, &r->cfg, &s->outcome, s->storage, &s->field, &err);
    heat2d_progress_clear(&s->progress.line);
    const int finished = heat2d_snapshot_sink_finish(&s->sink, ran == 0, &unmarked);
    /* Rank 0 alone writes the snapshots' files. */
    if (ran == 0 && r->save_every != NULL && rep->rank == 0) {
        struct stat written;
        if (!s->nc_series)
            rep->snapshot_bytes_written = heat2d_series_bytes(r->save_every, &r->cfg);
        else if (stat(r->save_every, &written) == 0)
            rep->snapshot_bytes_written = (uint64_t)written.st_size;
    }
    note_scratch_gone(s, &err);
    note_scratch_gone(s, &unmarked);
    heat2d_scratch_drop(s->scratch, &s->scratch_slot);
    if (ran == 0 && finished != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", unmarked.message);
    if (ran != 0 && rep->abort_peers)
        abort_peers(&err);
    if (ran != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    return 0;
}

/* The KEY=VALUE lines, then --save's file. A distributed method's other
 * ranks computed their blocks; rank 0 holds the field, and it alone prints
 * and writes. Returns the exit status. */
static int print_and_save(const run_request *r, run_state *s)
{
    if (s->outcome.report.rank != 0)
        return EXIT_SUCCESS;
    heat2d_print_outcome(stdout, s->method, &r->cfg, &s->outcome);
    fflush(stdout);
    if (r->save_path == NULL)
        return EXIT_SUCCESS;
    heat2d_error err = {{0}};
    if (heat2d_field_save(r->save_path, r->cfg.nx, r->cfg.ny, s->field, &s->meta, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "run: %s", err.message);
    heat2d_print_name(stdout, "FIELD_FILE", r->save_path);
    return EXIT_SUCCESS;
}

int heat2d_cmd_run(int argc, char **argv)
{
    run_request r;
    int status = parse_run_args(argc, argv, &r);
    if (status >= 0)
        return status;
    run_state s = {.scratch_slot = -1};
    if ((status = check_request(&r, &s.method)) == 0 && (status = load_initial(&r, &s)) == 0 &&
        (status = check_outputs(&r, &s)) == 0) {
        status = wire_sink(&r, &s);
        if (status != 0)
            heat2d_scratch_drop(s.scratch, &s.scratch_slot);
        else if ((status = run_and_close(&r, &s)) == 0)
            status = print_and_save(&r, &s);
    }
    heat2d_free_pair(s.storage[0], s.storage[1]);
    heat2d_field_free(&s.initial_field);
    return status;
}
