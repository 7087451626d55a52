/* heat2d bench: what a result folder records of the run besides its trials:
 * environment.txt (the build, the machine, the GPU, the settings, the plan)
 * and bandwidth.txt (the limits every result is a fraction of). */
#define _GNU_SOURCE
#include "environment.h"
#include "child.h"
#include "file_replace.h"
#include "process_guard.h"
#include "write_rate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Runs a tool and hands back its stdout, or NULL with a reason. */
static char *tool_output(char *const argv[], char *why, size_t why_size)
{
    heat2d_child_result cap;
    heat2d_error err = {{0}};
    if (bench_spawn(argv, NULL, 0.0, &cap, &err) != 0) {
        snprintf(why, why_size, "%s", err.message);
        return NULL;
    }
    if (!heat2d_child_ok(&cap)) {
        heat2d_child_why(&cap, why, why_size);
        heat2d_child_result_free(&cap);
        return NULL;
    }
    free(cap.err);
    return cap.out;
}

typedef struct {
    const bench_run_info *info;
    char *text; /* heat2d info --bandwidth's output, cut into lines here */
    const char *scratch;
    const heat2d_write_rate *write; /* NULL: not measured, why in write_why */
    const char *write_why;
} limits_text;

/* The largest field of the plan in f64, the size of a record a writer
 * writes (text: about three times that), at most 1 GiB: eight of them kept
 * are about what an 8192² run's records at K=100 pile up in its folder. */
static size_t record_bytes(const bench_run_info *info)
{
    const size_t cap = (size_t)1 << 30;
    size_t most = 0;
    for (size_t k = 0; k < info->n_sizes; ++k) {
        const bench_size *s = &info->sizes[k];
        const size_t cells = s->nx <= cap / s->ny ? s->nx * s->ny : cap;
        most = cells > most ? cells : most;
    }
    return most <= cap / sizeof(double) ? most * sizeof(double) : cap;
}

static int write_limits(FILE *f, void *ctx)
{
    const limits_text *t = ctx;
    fprintf(f, "# heat2d info --bandwidth, run %s (%s)\n", t->info->run_id, t->info->date);
    /* Only the measurements; the build and machine are in environment.txt. */
    for (char *line = strtok(t->text, "\n"); line != NULL; line = strtok(NULL, "\n"))
        if (strstr(line, "_GBS=") != NULL || strstr(line, "_TFLOPS=") != NULL ||
            strncmp(line, "HOST_", 5) == 0 || /* the threads, their CPU share, the cache */
            strncmp(line, "GPU_BANDWIDTH=", 14) == 0)
            fprintf(f, "%s\n", line);
    /* Where --snapshot-writer writes, and how fast: as the writers write,
     * with no fsync. */
    heat2d_print_name(f, "SCRATCH_DIR", t->scratch);
    if (t->write != NULL)
        fprintf(f,
                "SCRATCH_FS=%s\nSCRATCH_FS_MAGIC=0x%llx\nSCRATCH_WRITE_GBS=%.3f\n"
                "SCRATCH_WRITE_BYTES=%zu\nSCRATCH_WRITE_FILES=%zu\nSCRATCH_WRITE_TOTAL_BYTES=%zu\n"
                "SCRATCH_WRITE_SYNC=none\n",
                t->write->fs, t->write->magic, t->write->gbs, t->write->file_bytes, t->write->files,
                t->write->bytes);
    else
        fprintf(f, "SCRATCH_WRITE=none (%s)\n", t->write_why);
    return ferror(f) ? (errno ? errno : EIO) : 0;
}

int bench_write_limits(const bench_run_info *info, const char *self_exe, heat2d_error *err)
{
    char *const argv[] = {(char *)self_exe, "info", "--bandwidth", NULL};
    char why[HEAT2D_MESSAGE_ROOM];
    char *text = tool_output(argv, why, sizeof why);
    if (text == NULL)
        return heat2d_fail(err, "cannot measure the bandwidth limits: %s", why);
    /* The snapshot writers' folder: a probe that fails there is recorded,
     * and the runs that write there say what failed. */
    heat2d_write_rate write;
    heat2d_error write_err = {{0}};
    const char *scratch = heat2d_tmp_base();
    const bool wrote = heat2d_write_rate_probe(scratch, record_bytes(info), 4.0, &bench_interrupted,
                                               &write, &write_err) == 0;
    if (bench_interrupted) {
        free(text);
        return heat2d_fail(err, "stopped by signal %d", (int)bench_interrupted);
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/bandwidth.txt", info->dir);
    limits_text t = {info, text, scratch, wrote ? &write : NULL, write_err.message};
    int rc = heat2d_file_replace(path, "the limits", write_limits, &t, err);
    free(text);
    return rc;
}

/* The plan: the targets (a program's path too), the sizes, warm-ups,
 * repeats, budget and notes. */
static void write_plan(FILE *f, const bench_run_info *info)
{
    fputs("BENCH_METHODS=", f);
    for (size_t k = 0; k < info->n_targets; ++k)
        fprintf(f, "%s%s", k ? "," : "", info->targets[k].label);
    for (size_t k = 0; k < info->n_targets; ++k)
        if (info->targets[k].kind == BENCH_PROGRAM) {
            fprintf(f, "\nBENCH_PROGRAM=%s=", info->targets[k].program->name);
            heat2d_put_escaped(f, info->targets[k].program->path);
        }
    for (size_t k = 0; k < info->n_targets; ++k)
        if (info->targets[k].kind == BENCH_PROGRAM) {
            fprintf(f, "\nBENCH_PROGRAM_TOLERANCE=%g,%g\nBENCH_PROGRAM_TIMEOUT_S=%g",
                    info->program_tol.atol, info->program_tol.rtol, info->program_timeout_s);
            break;
        }
    fputs("\nBENCH_SIZES=", f);
    for (size_t k = 0; k < info->n_sizes; ++k) {
        char s[96];
        bench_size_text(&info->sizes[k], ':', s, sizeof s);
        fprintf(f, "%s%s", k ? "," : "", s);
    }
    fprintf(f, "\nBENCH_WARMUPS=%zu\nBENCH_REPEATS=%zu\nBENCH_BUDGET_S=%g\n", info->warmups,
            info->repeats, info->budget_s);
    for (size_t k = 0; k < info->n_notes; ++k)
        fprintf(f, "BENCH_NOTE=%s\n", info->notes[k]);
}

/* `heat2d info`'s output, run once a bench: the notes read its LEFT_OUT=
 * lines and environment.txt records it whole (on a GPU each run opens the
 * device). NULL with the reason in info_why when it failed. */
static char *info_text;
static char info_why[HEAT2D_MESSAGE_ROOM];
static bool info_ran;

static const char *build_info(const char *self_exe)
{
    if (!info_ran) {
        char *const argv[] = {(char *)self_exe, "info", NULL};
        info_text = tool_output(argv, info_why, sizeof info_why);
        info_ran = true;
    }
    return info_text;
}

void bench_note_left_out(bench_run_info *info, const char *self_exe)
{
    const char *text = build_info(self_exe);
    if (text == NULL)
        return; /* environment.txt records the failure */
    static const char key[] = "LEFT_OUT=";
    for (const char *line = text; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        if (len > sizeof key - 1 && strncmp(line, key, sizeof key - 1) == 0)
            bench_add_note(info, "Not in this build: %.*s.",
                           (int)(len - (sizeof key - 1) < 560 ? len - (sizeof key - 1) : 560),
                           line + sizeof key - 1);
        line += len + (line[len] == '\n');
    }
}

static void last_line(const char *text, char *buf, size_t size)
{
    size_t end = strlen(text);
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
        end--;
    size_t begin = end;
    while (begin > 0 && text[begin - 1] != '\n')
        begin--;
    snprintf(buf, size, "%.*s", (int)(end - begin), text + begin);
}

int bench_write_environment(bench_run_info *info, const char *self_exe, heat2d_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/environment.txt", info->dir);
    /* Appended to, but refused as any file heat2d would not replace. */
    if (heat2d_file_check_replaceable(path, "the environment", err) != 0)
        return -1;
    FILE *f = fopen(path, "ae");
    if (f == NULL)
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    if (ftell(f) > 0)
        fputc('\n', f); /* a blank line between the blocks of several runs */

    fprintf(f, "RUN=%s\nDATE=%s\nHOSTNAME=%s\n", info->run_id, info->date, info->hostname);
    char why[HEAT2D_MESSAGE_ROOM];
    const char *info_out = build_info(self_exe);
    if (info_out != NULL)
        fputs(info_out, f);
    else
        fprintf(f, "HEAT2D_INFO=failed: %s\n", info_why);

    /* Numbers from different GPUs and drivers must never be mixed. */
    char *smi_argv[] = {"nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                        "--format=csv,noheader", NULL};
    char *text = tool_output(smi_argv, why, sizeof why);
    if (text != NULL) {
        for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"))
            fprintf(f, "GPU=%s\n", line);
    } else {
        fprintf(f, "GPU=none (nvidia-smi: %s)\n", why);
    }
    free(text);
    char *nvcc_argv[] = {"nvcc", "--version", NULL};
    text = tool_output(nvcc_argv, why, sizeof why);
    if (text != NULL) {
        char line[512];
        last_line(text, line, sizeof line);
        fprintf(f, "NVCC=%s\n", line);
    } else {
        fprintf(f, "NVCC=none (%s)\n", why);
    }
    free(text);

    /* Settings that change where and how the methods run. */
    /* Every setting that changes what a method does or where it runs. */
    static const char *const env_names[] = {
        "ACC_DEVICE_TYPE",      "ACC_DEVICE_NUM",         "CUDA_VISIBLE_DEVICES",
        "OMP_NUM_THREADS",      "OMP_PROC_BIND",          "OMP_PLACES",
        "GOMP_DEBUG",           "HEAT2D_ACC_SCHEDULE",    "HEAT2D_OMP_STORES",
        "HEAT2D_CUDA_DEVICE",   "HEAT2D_CUDA_TB_VARIANT", "HEAT2D_OVERLAP_CHUNKS",
        "HEAT2D_MPI_CUDA_AWARE"};
    for (size_t k = 0; k < sizeof env_names / sizeof env_names[0]; ++k) {
        const char *value = getenv(env_names[k]);
        char key[64];
        snprintf(key, sizeof key, "ENV_%s", env_names[k]);
        if (value != NULL)
            heat2d_print_name(f, key, value);
    }
    /* A busy machine explains noisy numbers. */
    FILE *load = fopen("/proc/loadavg", "r");
    char loadavg[128];
    if (load != NULL && fgets(loadavg, sizeof loadavg, load) != NULL) {
        loadavg[strcspn(loadavg, "\n")] = '\0';
        fprintf(f, "LOADAVG=%s\n", loadavg);
        info->loadavg = strtod(loadavg, NULL);
    }
    if (load != NULL)
        fclose(load);

    write_plan(f, info);

    if (fflush(f) != 0 || ferror(f)) {
        int saved = errno;
        fclose(f);
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(saved));
    }
    if (fclose(f) != 0)
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}
