/* heat2d check: the command. Its options, the environment checked before
 * anything starts, a scratch folder removed on every exit, then the cases
 * of src/check/ (every method of the build, or with --program the
 * programs given) and the verdict. */
#define _GNU_SOURCE
#include "ancestry.h"
#include "check.h"
#include "commands.h"
#include "process_guard.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The most --program a check takes. */
#define CHECK_MAX_PROGRAMS 16
/* A program's run on the check's small grids takes well under a second. */
#define CHECK_PROGRAM_TIMEOUT_S 60.0

/* What the command line asks for. */
typedef struct check_request {
    check_state st;
    const char *keep;
    bool precision_given;
    heat2d_program programs[CHECK_MAX_PROGRAMS];
    check_programs_spec spec;
} check_request;

/* One option getopt returned into r: 0, -1 with err, or -2 for one that is
 * not check's. */
static int take_option(int opt, const char *arg, check_request *r, heat2d_error *err)
{
    switch (opt) {
    case 'g':
        r->st.gpu = true;
        return 0;
    case 'k':
        r->keep = arg;
        return 0;
    case 'P':
        r->precision_given = true;
        return heat2d_parse_precision(arg, "--precision", &r->st.precision, err);
    case 'p':
        return heat2d_program_add("--program", arg, r->programs, &r->spec.n, CHECK_MAX_PROGRAMS,
                                  err);
    case 'T':
        return heat2d_parse_tolerance("--program-tolerance", arg, &r->spec.tol, err);
    case 'L':
        return heat2d_parse_timeout("--program-timeout", arg, &r->spec.timeout_s, err);
    default:
        return -2;
    }
}

/* The command line into r. Returns -1 to go on, else the exit status
 * (0 after --help). */
static int parse_check_args(int argc, char **argv, check_request *r)
{
    static const struct option options[] = {
        HEAT2D_OPTION_FLAG("gpu", 'g'),
        HEAT2D_OPTION_ARG("keep", 'k'),
        HEAT2D_OPTION_ARG("precision", 'P'),
        HEAT2D_OPTION_ARG("program", 'p'),
        HEAT2D_OPTION_ARG("program-tolerance", 'T'),
        HEAT2D_OPTION_ARG("program-timeout", 'L'),
        HEAT2D_OPTION_FLAG("help", 'h'),
        {NULL, 0, NULL, 0},
    };
    memset(r, 0, sizeof *r);
    r->spec = (check_programs_spec){.programs = r->programs,
                                    .tol = {HEAT2D_DEFAULT_ATOL, HEAT2D_DEFAULT_RTOL},
                                    .timeout_s = CHECK_PROGRAM_TIMEOUT_S};
    heat2d_error err = {{0}};
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (opt == 'h')
            return heat2d_usage("check", stdout) == 0 ? EXIT_SUCCESS : HEAT2D_EXIT_FAILURE;
        const int rc = take_option(opt, optarg, r, &err);
        if (rc == -2)
            return heat2d_report_bad_option("check", argc, argv, options, NULL);
        if (rc != 0)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "check: %s", err.message);
    }
    if (optind < argc)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "check: unexpected argument '%s'",
                                   argv[optind]);
    if (r->spec.n > 0 && (r->st.gpu || r->precision_given))
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "check: --program checks the programs alone, against cpu in "
                                   "f64: drop --%s",
                                   r->st.gpu ? "gpu" : "precision");
    return -1;
}

/* The environment first, before any method, program or MPI starts: a
 * usable TMPDIR (*tmp_base), a --keep folder that can be written. Returns
 * 0, else the exit status. */
static int check_environment(const check_request *r, const char **tmp_base)
{
    heat2d_error err = {{0}};
    /* Every method is run in this process, the distributed ones with one
     * rank (their P > 1 runs are tests/test_mpi.sh's): under mpirun each
     * rank would run the whole check, and only rank 0 would get fields.
     * As the one rank of mpirun -np 1 it would start MPI twice with that
     * rank's identity (its probe's child, then itself), which MPI refuses
     * with pages and an abort: refused alike, before anything is made. */
    if (heat2d_process_count() > 1 || heat2d_launched_as_rank())
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "check: runs as one process; start it without mpirun");
    if (check_tmpdir(tmp_base, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "check: %s", err.message);
    if (r->keep != NULL && access(r->keep, W_OK) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "check: cannot write to '%s': %s", r->keep,
                                   strerror(errno));
    return 0;
}

/* The targets of the method check: --gpu fails only for a GPU method that
 * should run on a GPU here and does not, or computes wrongly; a build with
 * none (no CUDA, OpenACC built for the host) is checked on the host, and
 * says so. MPI's methods where MPI starts (else left out, mpi_note says
 * why). The number of targets. */
static size_t choose_targets(check_state *st, check_target *targets, size_t capacity,
                             char *mpi_note, size_t note_size)
{
    size_t n = check_collect_targets(st->gpu, st->precision, targets, capacity);
    if (st->gpu && !check_any_needs_gpu(targets, n)) {
        char on_host[256];
        check_host_targets_text(targets, n, on_host, sizeof on_host);
        printf("NOTE: check --gpu: no method of this build runs on a GPU (%s); checking every "
               "method on the host\n",
               on_host);
        st->gpu = false;
        n = check_collect_targets(st->gpu, st->precision, targets, capacity);
    }
    check_skip_mpi_if_down(targets, &n, mpi_note, note_size);
    return n;
}

/* The field files' folder: --keep's, else a scratch folder (removed by a
 * fatal signal too: *slot). Returns 0, else the exit status. */
static int field_folder(check_request *r, const char *tmp_base, char *dir, size_t size, int *slot)
{
    if (r->keep != NULL) {
        r->st.dir = r->keep;
        return 0;
    }
    const int made = heat2d_scratch_make(tmp_base, "heat2d-check", dir, size, slot);
    if (made != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "check: cannot create a temporary directory in '%s': %s",
                                   tmp_base, strerror(made));
    r->st.dir = dir;
    return 0;
}

/* The verdict line, or the failure's: the exit status. */
static int verdict(const check_state *st, const char *name)
{
    if (st->failures > 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "%s=FAIL: %zu failure(s)", name,
                                   st->failures);
    printf("%s=PASS\n", name);
    return EXIT_SUCCESS;
}

/* The cases of every method (or of every program), in the folder. */
static int run_cases(check_request *r, const char *tmp_base)
{
    check_state *st = &r->st;
    heat2d_error err = {{0}};
    check_target targets[24];
    size_t n = 0;
    char mpi_note[1024] = "";
    if (r->spec.n == 0)
        n = choose_targets(st, targets, sizeof targets / sizeof targets[0], mpi_note,
                           sizeof mpi_note);
    /* --keep's folder: no field file the check writes there can hang it
     * (a FIFO) or be refused at the end (read-only). */
    st->dir = r->keep;
    if (r->keep != NULL && (r->spec.n > 0 ? check_programs_keep_ready(st, &r->spec, &err)
                                          : check_keep_ready(st, targets, n, &err)) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "check: %s", err.message);
    /* Room left under PATH_MAX for a file name of 255 bytes. */
    char tmp_dir[3072] = "";
    int slot = -1;
    const int status = field_folder(r, tmp_base, tmp_dir, sizeof tmp_dir, &slot);
    if (status != 0)
        return status;
    if (r->spec.n > 0)
        check_programs(st, &r->spec);
    else
        check_run(st, targets, n);
    heat2d_scratch_drop(tmp_dir, &slot); /* only the field files this check wrote */
    if (mpi_note[0] != '\0')
        printf("NOTE: check: %s\n", mpi_note);
    return verdict(st, r->spec.n > 0 ? "PROGRAM_CHECK" : st->gpu ? "GPU_CHECK" : "CPU_CHECK");
}

int heat2d_cmd_check(int argc, char **argv)
{
    static check_request r;
    int status = parse_check_args(argc, argv, &r);
    if (status >= 0)
        return status;
    const char *tmp_base = NULL;
    if ((status = check_environment(&r, &tmp_base)) != 0)
        return status;
    return run_cases(&r, tmp_base);
}
