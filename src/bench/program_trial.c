/* heat2d bench: a program's trials (programs.h). Its field and cpu's are
 * written to a scratch folder of the bench's own, never the results
 * folder; cpu's field is computed once a size, by `heat2d run --method cpu`
 * as every trial is, and kept for the size's trials. */
#define _GNU_SOURCE
#include "copy_tally.h"
#include "transfer_record.h"
#include "process_guard.h"
#include "programs.h"
#include "run_state.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/* The injection library's name; where it lies from the heat2d binary: a
 * build tree's lib/ beside bin/, an installed tree's library folder. */
#define INJECT_LIBRARY "libheat2d_inject.so"

static struct {
    char scratch[4096];
    int slot;
    heat2d_tolerance tol;
    double timeout_s;
    bool traced;
    char inject[PATH_MAX];
    /* cpu's field at the size of the last program trial. */
    bench_size size;
    heat2d_field reference;
    /* Where notes go, and the size at which each program was last said to
     * have left processes running (one note a program and size). */
    bench_run_info *info;
    struct {
        const heat2d_program *program;
        bench_size size;
    } left_noted[BENCH_MAX_PROGRAMS];
} programs = {.slot = -1};

/* Whether name is a method's, or the label of a target already listed:
 * the tables group rows by label. */
static bool name_taken(const char *name, const bench_target *targets, size_t n)
{
    if (heat2d_method_find(name) != NULL || heat2d_label_method(name, NULL) != NULL)
        return true;
    for (size_t k = 0; k < n; ++k)
        if (strcmp(targets[k].label, name) == 0)
            return true;
    return false;
}

int bench_programs_check(const bench_options *opt, const bench_target *targets, size_t n)
{
    for (size_t k = 0; k < opt->n_programs; ++k)
        if (name_taken(opt->programs[k].name, targets, n))
            return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                       "bench: --program %s: a method of heat2d has that name; "
                                       "choose another NAME",
                                       opt->programs[k].name);
    return 0;
}

void bench_programs_add(const bench_options *opt, bench_target *targets, size_t *n)
{
    for (size_t k = 0; k < opt->n_programs; ++k) {
        const heat2d_program *p = &opt->programs[k];
        bench_target *t = &targets[(*n)++];
        *t = (bench_target){.kind = BENCH_PROGRAM, .program = p};
        bench_target_label(t);
    }
}

/* The injection library for this heat2d, into path: false when none. */
static bool find_inject(char *path, size_t size)
{
    char exe[PATH_MAX];
    const ssize_t len = readlink(BENCH_SELF_EXE, exe, sizeof exe - 1);
    if (len <= 0)
        return false;
    exe[len] = '\0';
    const char *bin = dirname(exe);
    static const char *const from_bin[] = {"../lib", HEAT2D_INJECT_FROM_BIN};
    for (size_t k = 0; k < sizeof from_bin / sizeof from_bin[0]; ++k) {
        char guess[PATH_MAX + 128];
        snprintf(guess, sizeof guess, "%s/%s/" INJECT_LIBRARY, bin, from_bin[k]);
        if (access(guess, R_OK) == 0 && realpath(guess, path) != NULL && strlen(path) < size)
            return true;
    }
    return false;
}

/* Whether nvidia-smi lists a GPU here. */
static bool gpu_listed(void)
{
    char *argv[] = {"nvidia-smi", "-L", NULL};
    heat2d_child_result res;
    if (bench_spawn(argv, NULL, 10.0, &res, NULL) != 0)
        return false;
    const bool listed = heat2d_child_ok(&res) && strncmp(res.out, "GPU ", 4) == 0;
    heat2d_child_result_free(&res);
    return listed;
}

/* Whether the programs' copies are traced, and the note that says so. */
static void choose_trace(bool gpu_seen, bench_run_info *info)
{
    const bool gpu = gpu_seen || gpu_listed();
    const bool library = find_inject(programs.inject, sizeof programs.inject);
    programs.traced = gpu && library;
    if (programs.traced)
        bench_add_note(info,
                       "Transfers of the programs: every host<->device copy counted by the CUDA "
                       "driver's activity records (CUPTI), loaded into each trial through "
                       "CUDA_INJECTION64_PATH=%s.",
                       programs.inject);
    else if (!gpu)
        bench_add_note(info, "Transfers of the programs: not measured (no GPU here, nothing to "
                             "trace).");
    else
        bench_add_note(info,
                       "Transfers of the programs: not measured: this heat2d has no %s beside it "
                       "(a build with CUDA's CUPTI makes it; heat2d info's LEFT_OUT lines say "
                       "why not).",
                       INJECT_LIBRARY);
}

int bench_programs_start(const bench_options *opt, bool gpu_seen, bench_run_info *info,
                         heat2d_error *err)
{
    if (opt->n_programs == 0)
        return 0;
    programs.tol = opt->program_tol;
    programs.timeout_s = opt->program_timeout_s;
    programs.info = info;
    const char *tmp = heat2d_tmp_base();
    const int made = heat2d_scratch_make(tmp, "heat2d-programs", programs.scratch,
                                         sizeof programs.scratch, &programs.slot);
    if (made != 0)
        return heat2d_fail(err, "--program: cannot make a scratch folder in %s: %s", tmp,
                           strerror(made));
    choose_trace(gpu_seen, info);
    return 0;
}

void bench_programs_end(void)
{
    heat2d_scratch_drop(programs.scratch, &programs.slot);
    heat2d_field_free(&programs.reference);
    programs.size = (bench_size){0};
}

/* cpu's field at s, once a size: `heat2d run --method cpu --save` into the
 * scratch folder, read back, the file removed. The name is made free
 * first and read back only as a regular file: a program's trial had the
 * folder (a FIFO it left there would be written as a stream, for ever).
 * 0, or -1 with why. */
static int reference_at(const bench_size *s, heat2d_error *why)
{
    if (programs.reference.values != NULL && programs.size.nx == s->nx &&
        programs.size.ny == s->ny && programs.size.steps == s->steps)
        return 0;
    heat2d_field_free(&programs.reference);
    programs.size = (bench_size){0};
    char nx[32], ny[32], steps[32], path[4200];
    snprintf(nx, sizeof nx, "%zu", s->nx);
    snprintf(ny, sizeof ny, "%zu", s->ny);
    snprintf(steps, sizeof steps, "%zu", s->steps);
    snprintf(path, sizeof path, "%s/cpu.dat", programs.scratch);
    char *argv[] = {BENCH_SELF_EXE, "run", "--method", "cpu", "--nx", nx, "--ny", ny,
                    "--steps",      steps, "--save",   path,  NULL};
    heat2d_child_result res;
    heat2d_error err = {{0}};
    if (unlink(path) != 0 && errno != ENOENT)
        return heat2d_fail(why, "cpu's field to compare with: cannot remove %s: %s", path,
                           strerror(errno));
    int rc = bench_spawn(argv, NULL, 0.0, &res, &err);
    if (rc == 0) {
        if (!heat2d_child_ok(&res)) {
            heat2d_child_why(&res, err.message, sizeof err.message);
            rc = -1;
        }
        heat2d_child_result_free(&res);
    }
    if (rc == 0 && heat2d_field_read_regular(path, &programs.reference, &err) != 0)
        rc = -1;
    unlink(path);
    if (rc != 0)
        return heat2d_fail(why, "cpu's field to compare with: %s", err.message);
    programs.size = *s;
    return 0;
}

/* A traced trial's environment: ours, less any injection set already,
 * with the library, its record file (unlinked first: records left from
 * another trial must not count; each process appends its own), the array's bytes (the copies of the
 * transfer model), and heat2d's own in-process trace off (CUPTI's callbacks are one per process:
 * heat2d's programs would trace against the injected one). Release with free (the strings live in
 * vars). */
enum { kTraceVars = 4 };
static char **trace_env(const char *file, const bench_size *s, char vars[kTraceVars][4400])
{
    static const char *const ours[kTraceVars] = {
        "CUDA_INJECTION64_PATH=", "HEAT2D_TRANSFER_FILE=", "HEAT2D_TRANSFER_ARRAY_BYTES=",
        "HEAT2D_TRANSFER_TRACE="};
    size_t n_env = 0;
    while (environ[n_env] != NULL)
        n_env++;
    char **env = calloc(n_env + kTraceVars + 1, sizeof *env);
    if (env == NULL)
        return NULL;
    size_t n = 0;
    for (size_t k = 0; k < n_env; ++k) {
        bool replaced = false;
        for (size_t v = 0; v < kTraceVars && !replaced; ++v)
            replaced = strncmp(environ[k], ours[v], strlen(ours[v])) == 0;
        if (!replaced)
            env[n++] = environ[k];
    }
    /* nx*ny*8 fits: the size was checked against the host's memory. */
    snprintf(vars[0], sizeof vars[0], "%s%s", ours[0], programs.inject);
    snprintf(vars[1], sizeof vars[1], "%s%s", ours[1], file);
    snprintf(vars[2], sizeof vars[2], "%s%zu", ours[2], s->nx * s->ny * sizeof(double));
    snprintf(vars[3], sizeof vars[3], "%soff", ours[3]);
    for (size_t v = 0; v < kTraceVars; ++v)
        env[n++] = vars[v];
    env[n] = NULL;
    unlink(file);
    return env;
}

/* The bench's fields of a program's trial: where it ran and what it moved,
 * as far as the trace can tell (transfer_record.h). No record file, or
 * only processes that never initialised CUDA: "none"; a CUDA process
 * that left no count (it ended in _exit, a signal or exec) or could not
 * trace: "not recorded", never a sum of the others; untraced: "not
 * traced". 0, or -1 with why. */
static int transfer_fields(const char *file, heat2d_trial_values *res, heat2d_error *why)
{
    char(*v)[sizeof res->value[0]] = res->value;
    if (!programs.traced) {
        snprintf(v[HEAT2D_FIELD_TRANSFERS], sizeof v[0], "not traced");
        snprintf(v[HEAT2D_FIELD_DEVICE], sizeof v[0], "host (no GPU here)");
        return 0;
    }
    heat2d_transfer_records r;
    char bad[512];
    const int rc = heat2d_transfer_records_read(file, &r, bad, sizeof bad);
    if (rc < 0)
        return heat2d_fail(why, "its transfer count: %s", bad);
    const unsigned cuda = r.processes - r.ended[HEAT2D_TRANSFER_NO_CUDA];
    if (rc == 1 || cuda == 0) {
        snprintf(v[HEAT2D_FIELD_TRANSFERS], sizeof v[0], "none");
        snprintf(v[HEAT2D_FIELD_DEVICE], sizeof v[0], "host (no CUDA call traced)");
        return 0;
    }
    if (r.unrecorded + r.ended[HEAT2D_TRANSFER_UNTRACED] > 0) {
        snprintf(v[HEAT2D_FIELD_TRANSFERS], sizeof v[0], "not recorded");
        snprintf(v[HEAT2D_FIELD_DEVICE], sizeof v[0],
                 "GPU (%u of %u CUDA processes left no count: %s)",
                 r.unrecorded + r.ended[HEAT2D_TRANSFER_UNTRACED], cuda,
                 r.unrecorded > 0 ? "_exit, a signal or exec" : "the trace could not start");
        return 0;
    }
    heat2d_report rep;
    heat2d_report_init(&rep);
    heat2d_copy_tally_to_report(&r.tally, &rep);
    snprintf(v[HEAT2D_FIELD_TRANSFERS], sizeof v[0], "measured");
    snprintf(v[HEAT2D_FIELD_DEVICE], sizeof v[0], "GPU (its copies traced)");
    snprintf(v[HEAT2D_FIELD_H2D_COUNT], sizeof v[0], "%llu", (unsigned long long)rep.h2d_count);
    snprintf(v[HEAT2D_FIELD_H2D_BYTES], sizeof v[0], "%llu", (unsigned long long)rep.h2d_bytes);
    snprintf(v[HEAT2D_FIELD_D2H_COUNT], sizeof v[0], "%llu", (unsigned long long)rep.d2h_count);
    snprintf(v[HEAT2D_FIELD_D2H_BYTES], sizeof v[0], "%llu", (unsigned long long)rep.d2h_bytes);
    snprintf(v[HEAT2D_FIELD_H2D_S], sizeof v[0], "%.9f", rep.h2d_s);
    snprintf(v[HEAT2D_FIELD_D2H_S], sizeof v[0], "%.9f", rep.d2h_s);
    return 0;
}

/* A note, once a program and size, when its run left processes running
 * (its group was ended: they would have slowed the trials after it, which
 * the summary would have blamed on other work). */
static void note_left_running(const heat2d_program *p, const bench_size *s, size_t left)
{
    size_t k = 0;
    while (k < BENCH_MAX_PROGRAMS && programs.left_noted[k].program != NULL &&
           programs.left_noted[k].program != p)
        k++;
    if (left == 0 || k == BENCH_MAX_PROGRAMS)
        return;
    const bench_size *was = &programs.left_noted[k].size;
    if (programs.left_noted[k].program == p && was->nx == s->nx && was->ny == s->ny &&
        was->steps == s->steps)
        return;
    programs.left_noted[k].program = p;
    programs.left_noted[k].size = *s;
    char size_text[96];
    bench_size_text(s, '/', size_text, sizeof size_text);
    bench_add_note(programs.info,
                   "%s at %s left %zu process(es) running when it exited; heat2d ended them "
                   "(its process group), so that they could not slow the trials after it.",
                   p->name, size_text, left);
}

/* The run and its verdicts; 0, or -1 with why. */
static int run_program(const bench_target *t, const bench_size *s, heat2d_trial_values *res,
                       double *process_s, heat2d_error *why)
{
    char field[4200], file[4200], vars[kTraceVars][4400];
    snprintf(field, sizeof field, "%s/%s.dat", programs.scratch, t->program->name);
    snprintf(file, sizeof file, "%s/%s.transfers", programs.scratch, t->program->name);
    if (reference_at(s, why) != 0)
        return -1;
    char **env = NULL;
    if (programs.traced && (env = trace_env(file, s, vars)) == NULL)
        return heat2d_fail(why, "out of memory");
    unlink(field);
    const heat2d_program_run run = {.nx = s->nx,
                                    .ny = s->ny,
                                    .steps = s->steps,
                                    .field_path = field,
                                    .envp = env,
                                    .timeout_s = programs.timeout_s,
                                    .stop = &bench_interrupted};
    heat2d_program_ended ended;
    int rc = heat2d_program_start(t->program, &run, res, &ended, why);
    free(env);
    *process_s = ended.wall_s;
    if (!bench_interrupted)
        note_left_running(t->program, s, ended.left_running);
    if (rc == 0)
        rc = heat2d_program_field_check(field, s->nx, s->ny, programs.reference.values,
                                        programs.tol, NULL, why);
    unlink(field);
    if (rc == 0)
        rc = transfer_fields(file, res, why);
    unlink(file);
    return rc;
}

int bench_program_trial(const bench_target *t, const bench_size *s, heat2d_trial_values *res,
                        double *process_s, char *why, size_t why_size)
{
    heat2d_error err = {{0}};
    *process_s = 0.0;
    memset(res, 0, sizeof *res);
    if (run_program(t, s, res, process_s, &err) != 0) {
        snprintf(why, why_size, "%s", err.message);
        return -1;
    }
    return 0;
}
