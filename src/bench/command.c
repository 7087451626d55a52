/* heat2d bench: the command. Everything a command line can get wrong is
 * checked before anything is created or run; then the folder, the record of
 * the machine and its limits, every size, the field, the plots and the
 * summary. */
#define _GNU_SOURCE
#include "ancestry.h"
#include "environment.h"
#include "folder.h"
#include "options.h"
#include "plan.h"
#include "programs.h"
#include "process.h"
#include "run_state.h"
#include "summary.h"
#include "trials_csv.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The signals that stop the benchmark: ^C, kill's default, a closed
 * terminal, ^\. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Ends the running child's process group at once (the wait for it then
 * sees its pipes close and gives it SIGKILL should it linger); the trial
 * loop stops at the flag. kill is async-signal-safe. */
static void on_stop_signal(int signo)
{
    bench_interrupted = signo;
    const pid_t group = (pid_t)heat2d_child_group;
    if (group > 0)
        kill(-group, SIGTERM);
}

/* A stop signal ends the benchmark between trials (the running child is
 * ended and not recorded). No SA_RESTART: the wait for a child must return
 * so that it can be ended at once. */
static void catch_stop_signals(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (size_t k = 0; k < sizeof stop_signals / sizeof stop_signals[0]; ++k)
        sigaction(stop_signals[k], &action, NULL);
}

/* After the summary is written, die by the signal that stopped us, so that
 * a shell or a script's loop sees a process killed by it (and stops too)
 * rather than one that exited. */
static void die_by(int signo)
{
    struct sigaction plain;
    memset(&plain, 0, sizeof plain);
    plain.sa_handler = SIG_DFL;
    sigemptyset(&plain.sa_mask);
    sigaction(signo, &plain, NULL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signo);
    fflush(stdout);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    raise(signo);
}

/* A stop signal, wherever it landed (a trial, the limits' probe, the
 * field's run, the plots): keep what was measured, the summary of every
 * finished trial, and say so in one line; no new plots (they would take
 * seconds the user asked not to wait). Returns 128 + the signal. */
static int finish_interrupted(bench_run_info *info, bench_state *st)
{
    if (st != NULL)
        bench_progress_clear(st);
    const size_t rows = st != NULL ? st->rows : 0;
    heat2d_error err = {{0}};
    bench_add_note(info,
                   "Interrupted by signal %d after %zu trial(s); the tables hold "
                   "the trials that finished.",
                   (int)bench_interrupted, rows);
    if (bench_write_summary(info, NULL, NULL, &err) != 0)
        heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    heat2d_report_error(HEAT2D_EXIT_FAILURE,
                        "bench: interrupted by signal %d: %s/trials.csv keeps the %zu "
                        "trial(s) that finished",
                        (int)bench_interrupted, info->dir, rows);
    return 128 + (int)bench_interrupted;
}

/* trials.csv refused a row (a full disk, a size limit): the row was cut
 * back off, so the ledger ends at its last whole row. The summary is made
 * from those (where the disk still takes it) and the one line says what
 * was kept. */
static int finish_ledger_full(bench_run_info *info, bench_state *st)
{
    bench_progress_clear(st);
    bench_add_note(info,
                   "Stopped: %s. trials.csv keeps the %zu trial(s) of this run that finished "
                   "before, and ends at its last whole row.",
                   st->ledger_err.message, st->rows);
    heat2d_error err = {{0}};
    if (bench_write_summary(info, stdout, NULL, &err) != 0)
        heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                               "bench: %s; it keeps the %zu trial(s) that finished, cut back to "
                               "its last whole row",
                               st->ledger_err.message, st->rows);
}

/* Every size, then --weak's grids: EXIT_SUCCESS, or why the trials
 * stopped (*ledger_full: trials.csv took no more rows). */
static int run_sizes(bench_state *st, bool *ledger_full)
{
    const bench_run_info *info = st->info;
    *ledger_full = false;
    if (st->at == NULL || st->stats == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    for (size_t s = 0; s < info->n_sizes && !*ledger_full && !bench_interrupted; ++s) {
        st->size_index = s;
        *ledger_full = bench_trials_size(st, &info->sizes[s]) != 0;
    }
    if (!*ledger_full && !bench_interrupted)
        *ledger_full = bench_trials_weak(st) != 0;
    return EXIT_SUCCESS;
}

/* The summary on stdout and in the folder, then the files' names: the exit
 * status of a run that finished (a failure of any trial fails it). */
static int print_results(bench_run_info *info, bench_state *st, char *plot_out)
{
    heat2d_error err = {{0}};
    size_t read_back = 0;
    if (bench_write_summary(info, stdout, &read_back, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    /* The tables are what a reader takes away: trials that ran but are not
     * in them (a row that did not read back) must not pass for success. */
    if (read_back != st->rows)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: %s/trials.csv gives back %zu of the %zu trial(s) this "
                                   "run wrote: the summary leaves out the others",
                                   info->dir, read_back, st->rows);
    char path[4200];
    heat2d_print_name(stdout, "RESULTS", info->dir);
    snprintf(path, sizeof path, "%s/trials.csv", info->dir);
    heat2d_print_name(stdout, "CSV", path);
    snprintf(path, sizeof path, "%s/summary.md", info->dir);
    heat2d_print_name(stdout, "SUMMARY", path);
    if (plot_out != NULL)
        fputs(plot_out, stdout);
    printf("BENCH_WALL_S=%.1f\n", heat2d_now() - st->started);
    fflush(stdout);
    if (st->failures > 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: %zu failure(s), listed at the top of %s/summary.md",
                                   st->failures, info->dir);
    return EXIT_SUCCESS;
}

/* After the trials: the field, the plots, the summary. */
static int finish_run(bench_run_info *info, bench_state *st)
{
    char field_path[4200];
    bool have_field = bench_save_field(st, field_path, sizeof field_path) == 0;
    char *plot_out = NULL;
    if (bench_interrupted)
        ; /* the field's run was ended: no plots, said below */
    else if (st->rows > 0)
        bench_make_plots(st, have_field, field_path, &plot_out);
    else
        bench_add_note(info, "Plots skipped: no trial finished.");
    bench_drop_field();
    int status;
    if (bench_interrupted) {
        status = finish_interrupted(info, st);
    } else {
        bench_progress_clear(st);
        status = print_results(info, st, plot_out);
    }
    free(plot_out);
    return status;
}

/* All sizes, then the field, the plots and the summary. */
static int run_bench(bench_run_info *info, FILE *csv)
{
    bench_state st = {
        .info = info,
        .csv = csv,
        .at = calloc(info->n_targets + 1, sizeof(target_at_size)),
        .stats = calloc(info->n_targets + 1, sizeof(target_stats)),
        .runs_total = (info->n_targets * info->n_sizes + bench_weak_runs(info)) *
                      (info->warmups + info->repeats),
        .started = heat2d_now(),
    };
    heat2d_error err = {{0}};
    (void)heat2d_progress_begin(&st.line, &err); /* its setting checked before (check_fits) */
    bool ledger_full = false;
    const int status = run_sizes(&st, &ledger_full);
    free(st.at);
    free(st.stats);
    if (ledger_full)
        return finish_ledger_full(info, &st);
    if (status != EXIT_SUCCESS)
        return status;
    if (bench_interrupted)
        return finish_interrupted(info, &st);
    return finish_run(info, &st);
}

/* What a command line plans: its options, the targets (every one of the
 * build, those --methods chose, those that can run here), the sizes. */
typedef struct bench_request {
    bench_options opt;
    target_list all, chosen, runnable;
    bench_size *sizes, *weak;
    size_t n_sizes;
} bench_request;

static void request_free(bench_request *rq)
{
    free(rq->sizes);
    free(rq->weak);
    free(rq->all.items);
    free(rq->chosen.items);
    free(rq->runnable.items);
}

/* The candidates: those --methods chose, else every target of the build. */
static target_list *candidates(bench_request *rq)
{
    return rq->opt.methods != NULL ? &rq->chosen : &rq->all;
}

/* Under mpirun every rank would run the whole bench, into one folder; each
 * refuses alike, and rank 0 alone says so. The one rank of mpirun -np 1
 * too: its trials and its MPI probe would each start MPI with that rank's
 * identity, which MPI refuses. Then every process below the bench,
 * mpirun's ranks included, dies with it (heat2d_die_with_bench); set before
 * mpirun's environment is copied. Returns 0, else the exit status. */
static int claim_process(void)
{
    if (heat2d_process_count() > 1 || heat2d_launched_as_rank())
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: runs as one process (it starts mpirun itself for "
                                   "--ranks); start it without mpirun");
    char bench_pid[32];
    snprintf(bench_pid, sizeof bench_pid, "%ld", (long)getpid());
    setenv("HEAT2D_BENCH_PID", bench_pid, 1);
    return 0;
}

/* --weak SIZE: one size, and only with --ranks. Returns 0, else the exit
 * status. */
static int parse_weak(bench_request *rq)
{
    const char *weak = rq->opt.weak;
    if (weak == NULL)
        return 0;
    if (rq->opt.list[HEAT2D_OPTION_RANKS] == NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "bench: --weak needs --ranks (the rank counts to scale over)");
    if (strchr(weak, ',') != NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "bench: --weak takes one size per rank, got '%s'", weak);
    size_t n_weak = 0;
    return bench_parse_sizes(weak, &rq->weak, &n_weak);
}

/* Every size in memory, every rank count able to split every size, the
 * plotting helpers' and the progress line's settings. Returns 0, else the exit status. */
static int check_fits(bench_request *rq)
{
    heat2d_error err = {{0}};
    if (bench_sizes_fit(rq->sizes, rq->n_sizes, rq->weak, &rq->chosen, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    if (bench_ranks_fit(rq->sizes, rq->n_sizes, &rq->chosen, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
    if (bench_check_plot_env(&err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
    heat2d_progress_line line;
    if (heat2d_progress_begin(&line, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
    return 0;
}

/* Everything a command line can get wrong, checked before anything is
 * created or run. Returns 0, else the exit status. */
static int plan_request(bench_request *rq)
{
    const bench_options *opt = &rq->opt;
    int status;
    if (bench_all_targets(&rq->all) != 0 ||
        (rq->runnable.items = calloc(rq->all.n + 1, sizeof *rq->runnable.items)) == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    if (opt->methods != NULL &&
        (status = bench_parse_methods(opt->methods, &rq->all, opt->pinned_too, &rq->chosen)) != 0)
        return status;
    if (opt->sizes != NULL &&
        (status = bench_parse_sizes(opt->sizes, &rq->sizes, &rq->n_sizes)) != 0)
        return status;
    if ((status = parse_weak(rq)) != 0 ||
        (status = bench_expand_lists(opt, &rq->all, &rq->chosen, &rq->runnable)) != 0 ||
        (status = check_fits(rq)) != 0 ||
        (status = bench_programs_check(opt, candidates(rq)->items, candidates(rq)->n)) != 0)
        return status;
    /* MPI last: its probe starts MPI, which no refusal above waits for. */
    return bench_skip_mpi_if_down(candidates(rq), opt->methods != NULL);
}

/* The run's identity: its id, date, host and parameters. */
static void start_run_info(bench_run_info *info, const bench_request *rq)
{
    memset(info, 0, sizeof *info);
    info->loadavg = -1.0;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm local;
    localtime_r(&now.tv_sec, &local);
    /* The second alone is not unique: two benches started together (or one
     * right after another) would share an id, and the summary would count
     * their trials as one run. Our pid tells apart those alive at once, a
     * few bits of the nanoseconds a pid reused within the second. */
    char stamp[16];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    snprintf(info->run_id, sizeof info->run_id, "%s-%ld-%04lx", stamp, (long)getpid(),
             ((unsigned long)now.tv_nsec >> 10) & 0xffffUL);
    strftime(info->date, sizeof info->date, "%Y-%m-%d %H:%M:%S %z", &local);
    if (gethostname(info->hostname, sizeof info->hostname - 1) != 0)
        snprintf(info->hostname, sizeof info->hostname, "unknown-host");
    info->warmups = rq->opt.warmups;
    info->repeats = rq->opt.repeats;
    info->budget_s = rq->opt.budget_s;
    info->weak = rq->weak;
    info->program_tol = rq->opt.program_tol;
    info->program_timeout_s = rq->opt.program_timeout_s;
}

/* The folder next: a benchmark that cannot keep its numbers should not
 * start. trials.csv opened (*csv), a torn last line set aside and noted.
 * Returns 0, else the exit status. */
static int open_folder(bench_run_info *info, bench_request *rq, FILE **csv)
{
    static char default_dir[512];
    if (rq->opt.out == NULL) {
        bench_default_folder(info, default_dir, sizeof default_dir);
        rq->opt.out = default_dir;
    }
    const char *dir = info->dir = rq->opt.out;
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    if (bench_folder_ready(dir, &err) != 0 || (*csv = bench_csv_open(dir, &repair, &err)) == NULL)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    if (repair.torn_header)
        bench_add_note(info,
                       "Set aside: trials.csv held only a header cut short (1 line, %zu bytes, "
                       "a write that did not finish); it is appended to %s/trials.torn.csv, "
                       "and trials.csv begins anew.",
                       repair.torn_bytes, dir);
    else if (repair.torn_bytes > 0)
        bench_add_note(info,
                       "Set aside: the last line of trials.csv was cut short (1 line, %zu bytes, "
                       "a write that did not finish); it is appended to %s/trials.torn.csv, and "
                       "this run's rows follow the last whole row.",
                       repair.torn_bytes, dir);
    return 0;
}

/* Without --sizes, this machine's ladder (cut short without a GPU, and
 * said so), checked as --sizes is. Returns 0, else the exit status. */
static int default_ladder(bench_run_info *info, bench_request *rq, bool has_gpu)
{
    heat2d_error err = {{0}};
    int status =
        bench_parse_sizes(has_gpu ? BENCH_GPU_LADDER : BENCH_CPU_LADDER, &rq->sizes, &rq->n_sizes);
    if (status != 0)
        return status;
    if (bench_sizes_fit(rq->sizes, rq->n_sizes, NULL, NULL, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    if (bench_ranks_fit(rq->sizes, rq->n_sizes, &rq->runnable, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
    /* The sizes past the article's ladder are the GPU's (see gpu_sizes_from). */
    bench_size *article = NULL;
    size_t n_article = 0;
    if (has_gpu && bench_parse_sizes(BENCH_FULL_LADDER, &article, &n_article) == 0)
        info->gpu_sizes_from = n_article;
    free(article);
    if (!has_gpu)
        bench_add_note(info, "No GPU here: the ladder is cut to finish in about a minute "
                             "(" BENCH_CPU_CUT_TEXT "). Full ladder: "
                             "heat2d bench --sizes " BENCH_FULL_LADDER);
    return 0;
}

/* Which targets run here and at which sizes, into info, with the notes
 * that say what was left out. Returns 0, else the exit status. */
static int settle_targets(bench_run_info *info, bench_request *rq)
{
    const bool asked = rq->opt.methods != NULL;
    bool has_gpu;
    bench_choose_runnable(candidates(rq), asked, &rq->runnable, &has_gpu, info);
    bench_expand_notes(info);
    if (!asked)
        bench_note_left_out(info, BENCH_SELF_EXE);
    int status;
    info->gpu_sizes_from = SIZE_MAX;
    if (rq->opt.sizes == NULL && (status = default_ladder(info, rq, has_gpu)) != 0)
        return status;
    /* The programs after the methods, in the rotation with them. */
    if ((status = bench_grow_runnable(&rq->runnable, rq->runnable.n + rq->opt.n_programs)) != 0)
        return status;
    bench_programs_add(&rq->opt, rq->runnable.items, &rq->runnable.n);
    heat2d_error err = {{0}};
    if (bench_programs_start(&rq->opt, has_gpu, info, &err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    info->targets = rq->runnable.items;
    info->n_targets = rq->runnable.n;
    info->sizes = rq->sizes;
    info->n_sizes = rq->n_sizes;
    return 0;
}

/* The notes so far, then the record of the machine and its limits, then
 * the trials; a stop signal anywhere ends it with what was measured. */
static int measure(bench_run_info *info, FILE *csv)
{
    for (size_t k = 0; k < info->n_notes; ++k)
        printf("NOTE: %s\n", info->notes[k]);
    fflush(stdout);
    catch_stop_signals();
    heat2d_error err = {{0}};
    if (bench_write_environment(info, BENCH_SELF_EXE, &err) != 0 ||
        bench_write_limits(info, BENCH_SELF_EXE, &err) != 0)
        /* A probe ended by a stop signal failed on purpose: no failure. */
        return bench_interrupted
                   ? finish_interrupted(info, NULL)
                   : heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    if (bench_interrupted)
        return finish_interrupted(info, NULL);
    return run_bench(info, csv);
}

int bench_command(int argc, char **argv)
{
    bench_request rq = {0};
    int status = bench_parse_options(argc, argv, &rq.opt);
    if (status >= 0)
        return status;
    if ((status = claim_process()) != 0)
        return status;
    static bench_run_info info;
    FILE *csv = NULL;
    if ((status = plan_request(&rq)) == 0) {
        start_run_info(&info, &rq);
        if ((status = open_folder(&info, &rq, &csv)) == 0 &&
            (status = settle_targets(&info, &rq)) == 0)
            status = measure(&info, csv);
    }
    if (csv != NULL)
        fclose(csv);
    request_free(&rq);
    bench_plan_release();
    bench_programs_end();
    if (bench_interrupted)
        die_by((int)bench_interrupted);
    return status;
}
