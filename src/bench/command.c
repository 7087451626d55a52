/* heat2d bench: the command. Everything a command line can get wrong is
 * checked before anything is created or run; then the folder, the record of
 * the machine and its limits, every size, the field, the plots and the
 * summary. */
#define _GNU_SOURCE
#include "ancestry.h"
#include "environment.h"
#include "file_replace.h"
#include "options.h"
#include "plan.h"
#include "process.h"
#include "run_state.h"
#include "summary.h"
#include "trials_csv.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int make_dirs(const char *dir, heat2d_error *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return heat2d_fail(err, "--out path is too long");
    for (char *p = path + 1;; ++p) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return heat2d_fail(err, "cannot create %s: %s", path, strerror(errno));
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            return heat2d_fail(err, "cannot create %s: %s", dir,
                               stat(path, &st) != 0 ? strerror(errno) : "Not a directory");
        *p = saved;
        if (saved == '\0')
            break;
    }
    if (access(dir, W_OK | X_OK) != 0)
        return heat2d_fail(err, "cannot write into %s: %s", dir, strerror(errno));
    return 0;
}

static void sanitize(char *text)
{
    for (char *p = text; *p != '\0'; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '.' || *p == '_'))
            *p = '-';
}

/* The signals that stop the benchmark: ^C, kill's default, a closed
 * terminal, ^\. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Ends the running child's process group at once (the wait for it then
 * sees its pipes close and gives it SIGKILL should it linger); the trial
 * loop stops at the flag. kill is async-signal-safe. */
static void on_stop_signal(int signo)
{
    bench_interrupted = signo;
    const pid_t group = (pid_t)bench_child_group;
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

/* The files a bench writes into its folder. */
static const char *const bench_files[] = {
    "trials.csv",    "trials.torn.csv", "summary.md",    "environment.txt",
    "bandwidth.txt", "field.png",       "headline.png",  "time_per_step.png",
    "phases.png",    "scaling.png",     "snapshots.png",
};
#define N_BENCH_FILES (sizeof bench_files / sizeof bench_files[0])

/* A bench writes only into a folder of its own: a new one, an empty one,
 * or one with a trials.csv (whose header the ledger then holds to ours).
 * Any other folder is the user's: refused, naming a file the bench would
 * have replaced there (else the first thing in it). */
static int folder_is_ours(const char *dir, heat2d_error *err)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0; /* not there yet (or not a folder: make_dirs says so) */
    char first[256] = "";
    bool has_trials = false, any = false;
    const char *touched = NULL;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        any = true;
        has_trials = has_trials || strcmp(e->d_name, "trials.csv") == 0;
        if (first[0] == '\0' || strcmp(e->d_name, first) < 0)
            snprintf(first, sizeof first, "%s", e->d_name);
        for (size_t k = 0; k < N_BENCH_FILES && touched == NULL; ++k)
            if (strcmp(e->d_name, bench_files[k]) == 0)
                touched = bench_files[k];
    }
    closedir(d);
    if (!any || has_trials)
        return 0;
    return heat2d_fail(err,
                       "--out %s is not a heat2d bench folder: it holds %s%s and no trials.csv; "
                       "choose a new or empty folder",
                       dir, touched != NULL ? touched : first,
                       touched != NULL ? ", which the bench would replace," : "");
}

/* The files a bench writes into its folder, by the rules every heat2d
 * writer follows: one the user made read-only is refused before anything
 * runs, not at the end. Each must be a regular file: the bench reads its
 * own back, and a FIFO among them would hang it. */
static int outputs_writable(const char *dir, heat2d_error *err)
{
    const char *const *names = bench_files;
    char path[4200];
    for (size_t k = 0; k < N_BENCH_FILES; ++k) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        if (heat2d_file_check_regular(path, err) != 0 ||
            heat2d_file_check_replaceable(path, "bench file", err) != 0)
            return -1;
    }
    return 0;
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

/* All sizes, then the field, the plots and the summary. */
static int run_bench(bench_run_info *info, FILE *csv)
{
    bench_state st = {
        .info = info,
        .csv = csv,
        .tty = isatty(STDERR_FILENO) == 1,
        .at = calloc(info->n_targets + 1, sizeof(target_at_size)),
        .stats = calloc(info->n_targets + 1, sizeof(target_stats)),
        .runs_total = (info->n_targets * info->n_sizes + bench_weak_runs(info)) *
                      (info->warmups + info->repeats),
        .started = heat2d_now(),
    };
    int status = EXIT_SUCCESS;
    if (st.at == NULL || st.stats == NULL)
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
    bool ledger_full = false; /* trials.csv took no more rows (a full disk) */
    for (size_t s = 0;
         s < info->n_sizes && status == EXIT_SUCCESS && !ledger_full && !bench_interrupted; ++s) {
        st.size_index = s;
        ledger_full = bench_trials_size(&st, &info->sizes[s]) != 0;
    }
    if (status == EXIT_SUCCESS && !ledger_full && !bench_interrupted)
        ledger_full = bench_trials_weak(&st) != 0;
    free(st.at);
    free(st.stats);
    if (ledger_full)
        return finish_ledger_full(info, &st);
    if (status != EXIT_SUCCESS)
        return status;
    if (bench_interrupted)
        return finish_interrupted(info, &st);

    char field_path[4200];
    bool have_field = bench_save_field(&st, field_path, sizeof field_path) == 0;
    char *plot_out = NULL;
    if (bench_interrupted)
        ; /* the field's run was ended: no plots, said below */
    else if (st.rows > 0)
        bench_make_plots(&st, have_field, field_path, &plot_out);
    else
        bench_add_note(info, "Plots skipped: no trial finished.");
    bench_drop_field();
    if (bench_interrupted) {
        free(plot_out);
        return finish_interrupted(info, &st);
    }
    bench_progress_clear(&st);
    heat2d_error err = {{0}};
    size_t read_back = 0;
    if (bench_write_summary(info, stdout, &read_back, &err) != 0) {
        free(plot_out);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    }
    /* The tables are what a reader takes away: trials that ran but are not
     * in them (a row that did not read back) must not pass for success. */
    if (read_back != st.rows) {
        free(plot_out);
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: %s/trials.csv gives back %zu of the %zu trial(s) this "
                                   "run wrote: the summary leaves out the others",
                                   info->dir, read_back, st.rows);
    }
    char path[4200];
    heat2d_print_name(stdout, "RESULTS", info->dir);
    snprintf(path, sizeof path, "%s/trials.csv", info->dir);
    heat2d_print_name(stdout, "CSV", path);
    snprintf(path, sizeof path, "%s/summary.md", info->dir);
    heat2d_print_name(stdout, "SUMMARY", path);
    if (plot_out != NULL)
        fputs(plot_out, stdout);
    free(plot_out);
    printf("BENCH_WALL_S=%.1f\n", heat2d_now() - st.started);
    fflush(stdout);
    if (st.failures > 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: %zu failure(s), listed at the top of %s/summary.md",
                                   st.failures, info->dir);
    return EXIT_SUCCESS;
}

int bench_command(int argc, char **argv)
{
    bench_options opt;
    int status = bench_parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    /* Under mpirun every rank would run the whole bench, into one folder;
     * each refuses alike, and rank 0 alone says so. The one rank of
     * mpirun -np 1 too: its trials and its MPI probe would each start MPI
     * with that rank's identity, which MPI refuses. */
    if (heat2d_process_count() > 1 || heat2d_launched_as_rank())
        return heat2d_report_error(HEAT2D_EXIT_FAILURE,
                                   "bench: runs as one process (it starts mpirun itself for "
                                   "--ranks); start it without mpirun");
    /* Every process below the bench, mpirun's ranks included, dies with it
     * (heat2d_die_with_bench); set before mpirun's environment is copied. */
    char bench_pid[32];
    snprintf(bench_pid, sizeof bench_pid, "%ld", (long)getpid());
    setenv("HEAT2D_BENCH_PID", bench_pid, 1);

    /* Everything a command line can get wrong is checked before anything is
     * created or run. */
    target_list all = {0}, chosen = {0}, runnable = {0};
    bench_size *sizes = NULL, *weak = NULL;
    size_t n_sizes = 0;
    FILE *csv = NULL;
    status = EXIT_SUCCESS;
    if (bench_all_targets(&all) != 0 ||
        (runnable.items = calloc(all.n + 1, sizeof *runnable.items)) == NULL) {
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: out of memory");
        goto done;
    }
    if (opt.methods != NULL &&
        (status = bench_parse_methods(opt.methods, &all, opt.pinned_too, &chosen)) != 0)
        goto done;
    if (opt.sizes != NULL && (status = bench_parse_sizes(opt.sizes, &sizes, &n_sizes)) != 0)
        goto done;
    if (opt.weak != NULL) {
        if (opt.list[HEAT2D_OPTION_RANKS] == NULL) {
            status = heat2d_report_error(HEAT2D_EXIT_USAGE,
                                         "bench: --weak needs --ranks (the rank counts to scale "
                                         "over)");
            goto done;
        }
        if (strchr(opt.weak, ',') != NULL) {
            status = heat2d_report_error(
                HEAT2D_EXIT_USAGE, "bench: --weak takes one size per rank, got '%s'", opt.weak);
            goto done;
        }
        size_t n_weak = 0;
        if ((status = bench_parse_sizes(opt.weak, &weak, &n_weak)) != 0)
            goto done;
    }
    if ((status = bench_expand_lists(&opt, &all, &chosen, &runnable)) != 0)
        goto done;

    heat2d_error env_err = {{0}};
    if (bench_sizes_fit(sizes, n_sizes, weak, &chosen, &env_err) != 0) {
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", env_err.message);
        goto done;
    }
    if (bench_ranks_fit(sizes, n_sizes, &chosen, &env_err) != 0) {
        status = heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", env_err.message);
        goto done;
    }
    if (bench_check_plot_env(&env_err) != 0) {
        status = heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", env_err.message);
        goto done;
    }
    /* MPI last: its probe starts MPI, which no refusal above waits for. */
    if ((status = bench_skip_mpi_if_down(opt.methods != NULL ? &chosen : &all,
                                         opt.methods != NULL)) != 0)
        goto done;

    static bench_run_info info;
    memset(&info, 0, sizeof info);
    info.loadavg = -1.0;
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
    snprintf(info.run_id, sizeof info.run_id, "%s-%ld-%04lx", stamp, (long)getpid(),
             ((unsigned long)now.tv_nsec >> 10) & 0xffffUL);
    strftime(info.date, sizeof info.date, "%Y-%m-%d %H:%M:%S %z", &local);
    if (gethostname(info.hostname, sizeof info.hostname - 1) != 0)
        snprintf(info.hostname, sizeof info.hostname, "unknown-host");
    info.warmups = opt.warmups;
    info.repeats = opt.repeats;
    info.budget_s = opt.budget_s;
    info.weak = weak;

    /* The folder next: a benchmark that cannot keep its numbers should not
     * start. */
    static char default_dir[512];
    if (opt.out == NULL) {
        char host[256];
        snprintf(host, sizeof host, "%s", info.hostname);
        sanitize(host);
        snprintf(default_dir, sizeof default_dir, "results/%s-%s", host, info.run_id);
        opt.out = default_dir;
    }
    info.dir = opt.out;
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    if (folder_is_ours(opt.out, &err) != 0 || make_dirs(opt.out, &err) != 0 ||
        outputs_writable(opt.out, &err) != 0 ||
        (csv = bench_csv_open(opt.out, &repair, &err)) == NULL) {
        status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
        goto done;
    }
    if (repair.torn_header)
        bench_add_note(&info,
                       "Set aside: trials.csv held only a header cut short (1 line, %zu bytes, "
                       "a write that did not finish); it is appended to %s/trials.torn.csv, "
                       "and trials.csv begins anew.",
                       repair.torn_bytes, opt.out);
    else if (repair.torn_bytes > 0)
        bench_add_note(&info,
                       "Set aside: the last line of trials.csv was cut short (1 line, %zu bytes, "
                       "a write that did not finish); it is appended to %s/trials.torn.csv, and "
                       "this run's rows follow the last whole row.",
                       repair.torn_bytes, opt.out);

    bool has_gpu;
    bench_choose_runnable(opt.methods != NULL ? &chosen : &all, opt.methods != NULL, &runnable,
                          &has_gpu, &info);
    bench_expand_notes(&info);
    if (opt.methods == NULL)
        bench_note_left_out(&info, BENCH_SELF_EXE);
    if (opt.sizes == NULL) {
        if ((status = bench_parse_sizes(has_gpu ? BENCH_GPU_LADDER : BENCH_CPU_LADDER, &sizes,
                                        &n_sizes)) != 0)
            goto done;
        if (bench_sizes_fit(sizes, n_sizes, NULL, NULL, &err) != 0) {
            status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
            goto done;
        }
        if (bench_ranks_fit(sizes, n_sizes, &runnable, &err) != 0) {
            status = heat2d_report_error(HEAT2D_EXIT_USAGE, "bench: %s", err.message);
            goto done;
        }
        if (!has_gpu)
            bench_add_note(&info, "No GPU here: the ladder is cut to finish in about a minute "
                                  "(" BENCH_CPU_CUT_TEXT "). Full ladder: "
                                  "heat2d bench --sizes " BENCH_FULL_LADDER);
    }
    info.targets = runnable.items;
    info.n_targets = runnable.n;
    info.sizes = sizes;
    info.n_sizes = n_sizes;
    for (size_t k = 0; k < info.n_notes; ++k)
        printf("NOTE: %s\n", info.notes[k]);
    fflush(stdout);

    catch_stop_signals();
    if (bench_write_environment(&info, BENCH_SELF_EXE, &err) != 0 ||
        bench_write_limits(&info, BENCH_SELF_EXE, &err) != 0)
        /* A probe ended by a stop signal failed on purpose: no failure. */
        status = bench_interrupted
                     ? finish_interrupted(&info, NULL)
                     : heat2d_report_error(HEAT2D_EXIT_FAILURE, "bench: %s", err.message);
    else if (bench_interrupted)
        status = finish_interrupted(&info, NULL);
    else
        status = run_bench(&info, csv);

done:
    if (csv != NULL)
        fclose(csv);
    free(sizes);
    free(weak);
    free(all.items);
    free(chosen.items);
    free(runnable.items);
    bench_plan_release();
    if (bench_interrupted)
        die_by((int)bench_interrupted);
    return status;
}
