/* heat2d bench: the result folder's files. trials.csv is the record; the
 * summary is recomputed from it, so that several runs into one folder (for
 * example a long size run with fewer methods after the main ladder) end up in
 * one set of tables. */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void bench_add_note(bench_run_info *info, const char *fmt, ...)
{
    if (info->n_notes >= BENCH_MAX_NOTES)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(info->notes[info->n_notes], sizeof info->notes[0], fmt, args);
    va_end(args);
    info->n_notes++;
}

void bench_size_text(const bench_size *s, char sep, char *buf, size_t size)
{
    snprintf(buf, size, "%zux%zu%c%zu", s->nx, s->ny, sep, s->steps);
}

/* ---- trials.csv ------------------------------------------------------------ */

typedef enum column_kind {
    COL_METHOD,
    COL_TRIAL,
    COL_NX,
    COL_NY,
    COL_STEPS,
    COL_KEY,
    COL_PROCESS,
    COL_RUN
} column_kind;

typedef struct column {
    const char *name;
    column_kind kind;
    bench_key key;
} column;

/* The original's columns first, in its order, then heat2d's. Fixed: a reader
 * may index them by position. */
static const column columns[] = {
    {"method", COL_METHOD, 0},
    {"trial", COL_TRIAL, 0},
    {"nx", COL_NX, 0},
    {"ny", COL_NY, 0},
    {"steps", COL_STEPS, 0},
    {"total_s", COL_KEY, BK_TOTAL_S},
    {"mass", COL_KEY, BK_MASS},
    {"centre", COL_KEY, BK_CENTRE},
    {"enter_s", COL_KEY, BK_ENTER_S},
    {"gpu_loop_s", COL_KEY, BK_GPU_LOOP_S},
    {"readback_s", COL_KEY, BK_READBACK_S},
    {"exit_s", COL_KEY, BK_EXIT_S},
    {"step_regions_s", COL_KEY, BK_STEP_REGIONS_S},
    {"cpu_loop_s", COL_KEY, BK_CPU_LOOP_S},
    {"process_s", COL_PROCESS, 0},
    {"device", COL_KEY, BK_DEVICE},
    {"h2d_count", COL_KEY, BK_H2D_COUNT},
    {"h2d_bytes", COL_KEY, BK_H2D_BYTES},
    {"d2h_count", COL_KEY, BK_D2H_COUNT},
    {"d2h_bytes", COL_KEY, BK_D2H_BYTES},
    {"h2d_s", COL_KEY, BK_H2D_S},
    {"d2h_s", COL_KEY, BK_D2H_S},
    {"context_s", COL_KEY, BK_CONTEXT_S},
    {"device_loop_s", COL_KEY, BK_DEVICE_LOOP_S},
    {"gcells_per_s", COL_KEY, BK_GCELLS_PER_S},
    {"transfers", COL_KEY, BK_TRANSFERS},
    {"run", COL_RUN, 0},
    /* Added with --ranks, after every earlier column so that positions stay:
     * what a distributed method reported, blank for the others. */
    {"ranks", COL_KEY, BK_RANKS},
    {"decomp", COL_KEY, BK_DECOMP},
    {"halo_bytes_per_step", COL_KEY, BK_HALO_BYTES_PER_STEP},
    /* Added with --precision, after every earlier column: f64 or f32. */
    {"precision", COL_KEY, BK_PRECISION},
};
enum {
    N_COLUMNS = sizeof columns / sizeof columns[0],
    /* The columns before precision: result folders written before
     * --precision have only these (and every row is f64). */
    N_RANKS_COLUMNS = N_COLUMNS - 1,
    /* The columns before ranks: result folders written before --ranks
     * (results/NVIDIA-H200, results/vm-*) have only these. */
    N_OLD_COLUMNS = N_RANKS_COLUMNS - 3
};

static int column_index(const char *name)
{
    for (int k = 0; k < N_COLUMNS; ++k)
        if (strcmp(columns[k].name, name) == 0)
            return k;
    return -1;
}

static void header_text(char *buf, size_t size, size_t n_columns)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n_columns; ++k)
        used += (size_t)snprintf(buf + used, used < size ? size - used : 0, "%s%s", k ? "," : "",
                                 columns[k].name);
}

static void csv_field(FILE *f, const char *text)
{
    if (strpbrk(text, ",\"\n\r") == NULL) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *p = text; *p != '\0'; ++p) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
    }
    fputc('"', f);
}

static void join_path(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
}

FILE *bench_csv_open(const char *dir, heat2d_error *err)
{
    char path[4200], header[1024], old_header[1024], ranks_header[1024];
    join_path(path, sizeof path, dir, "trials.csv");
    header_text(header, sizeof header, N_COLUMNS);
    header_text(old_header, sizeof old_header, N_OLD_COLUMNS);
    header_text(ranks_header, sizeof ranks_header, N_RANKS_COLUMNS);

    bool is_new = true;
    FILE *old = fopen(path, "r");
    if (old != NULL) {
        char first[1024] = "";
        if (fgets(first, sizeof first, old) != NULL) {
            is_new = false;
            first[strcspn(first, "\r\n")] = '\0';
            /* Appending rows of more columns under the old header would make
             * a file no CSV reader takes. */
            if (strcmp(first, old_header) == 0) {
                fclose(old);
                heat2d_fail(err,
                            "%s has the columns of a heat2d before --ranks (no ranks, decomp, "
                            "halo_bytes_per_step); choose another --out",
                            path);
                return NULL;
            }
            if (strcmp(first, ranks_header) == 0) {
                fclose(old);
                heat2d_fail(err,
                            "%s has the columns of a heat2d before --precision (no precision); "
                            "choose another --out",
                            path);
                return NULL;
            }
            if (strcmp(first, header) != 0) {
                fclose(old);
                heat2d_fail(err,
                            "%s has other columns (another heat2d version?); choose another "
                            "--out",
                            path);
                return NULL;
            }
        }
        fclose(old);
    }
    FILE *csv = fopen(path, "ae");
    if (csv == NULL) {
        heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    if (is_new)
        fprintf(csv, "%s\n", header);
    if (fflush(csv) != 0 || ferror(csv)) {
        heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
        fclose(csv);
        return NULL;
    }
    return csv;
}

int bench_csv_append(FILE *csv, const bench_run_info *info, const char *method, size_t trial,
                     const bench_size *size, const bench_result *res, double process_s,
                     heat2d_error *err)
{
    for (size_t k = 0; k < N_COLUMNS; ++k) {
        if (k > 0)
            fputc(',', csv);
        switch (columns[k].kind) {
        case COL_METHOD:
            csv_field(csv, method);
            break;
        case COL_TRIAL:
            fprintf(csv, "%zu", trial);
            break;
        case COL_NX:
            fprintf(csv, "%zu", size->nx);
            break;
        case COL_NY:
            fprintf(csv, "%zu", size->ny);
            break;
        case COL_STEPS:
            fprintf(csv, "%zu", size->steps);
            break;
        case COL_KEY:
            csv_field(csv, res->value[columns[k].key]);
            break;
        case COL_PROCESS:
            fprintf(csv, "%.9f", process_s);
            break;
        case COL_RUN:
            csv_field(csv, info->run_id);
            break;
        }
    }
    fputc('\n', csv);
    if (fflush(csv) != 0 || ferror(csv))
        return heat2d_fail(err, "cannot write %s/trials.csv: %s", info->dir, strerror(errno));
    return 0;
}

/* ---- environment.txt ------------------------------------------------------ */

/* Runs a tool and hands back its stdout, or NULL with a reason. */
static char *tool_output(char *const argv[], char *why, size_t why_size)
{
    bench_capture cap;
    heat2d_error err = {{0}};
    if (bench_spawn(argv, &cap, &err) != 0) {
        snprintf(why, why_size, "%s", err.message);
        return NULL;
    }
    if (!bench_capture_ok(&cap)) {
        bench_capture_why(&cap, why, why_size);
        bench_capture_free(&cap);
        return NULL;
    }
    free(cap.err);
    return cap.out;
}

int bench_write_limits(const bench_run_info *info, const char *self_exe, heat2d_error *err)
{
    char *const argv[] = {(char *)self_exe, "info", "--bandwidth", NULL};
    char why[600];
    char *text = tool_output(argv, why, sizeof why);
    if (text == NULL)
        return heat2d_fail(err, "cannot measure the bandwidth limits: %s", why);
    char path[4200];
    join_path(path, sizeof path, info->dir, "bandwidth.txt");
    FILE *f = fopen(path, "we");
    if (f == NULL) {
        free(text);
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    }
    fprintf(f, "# heat2d info --bandwidth, run %s (%s)\n", info->run_id, info->date);
    /* Only the measurements; the build and machine are in environment.txt. */
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"))
        if (strstr(line, "_GBS=") != NULL || strncmp(line, "HOST_COPY_THREADS=", 18) == 0 ||
            strncmp(line, "GPU_BANDWIDTH=", 14) == 0)
            fprintf(f, "%s\n", line);
    free(text);
    int rc = 0;
    if (fflush(f) != 0 || ferror(f))
        rc = heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    if (fclose(f) != 0 && rc == 0)
        rc = heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    return rc;
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

int bench_write_environment(const bench_run_info *info, const char *self_exe, heat2d_error *err)
{
    char path[4200];
    join_path(path, sizeof path, info->dir, "environment.txt");
    FILE *f = fopen(path, "ae");
    if (f == NULL)
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    if (ftell(f) > 0)
        fputc('\n', f); /* a blank line between the blocks of several runs */

    fprintf(f, "RUN=%s\nDATE=%s\nHOSTNAME=%s\n", info->run_id, info->date, info->hostname);
    char why[600];
    char *info_argv[] = {(char *)self_exe, "info", NULL};
    char *text = tool_output(info_argv, why, sizeof why);
    if (text != NULL)
        fputs(text, f);
    else
        fprintf(f, "HEAT2D_INFO=failed: %s\n", why);
    free(text);

    /* Numbers from different GPUs and drivers must never be mixed. */
    char *smi_argv[] = {"nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                        "--format=csv,noheader", NULL};
    text = tool_output(smi_argv, why, sizeof why);
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
        if (value != NULL)
            fprintf(f, "ENV_%s=%s\n", env_names[k], value);
    }
    /* A busy machine explains noisy numbers. */
    FILE *load = fopen("/proc/loadavg", "r");
    char loadavg[128];
    if (load != NULL && fgets(loadavg, sizeof loadavg, load) != NULL) {
        loadavg[strcspn(loadavg, "\n")] = '\0';
        fprintf(f, "LOADAVG=%s\n", loadavg);
    }
    if (load != NULL)
        fclose(load);

    fputs("BENCH_METHODS=", f);
    for (size_t k = 0; k < info->n_targets; ++k)
        fprintf(f, "%s%s", k ? "," : "", info->targets[k].label);
    fputs("\nBENCH_SIZES=", f);
    for (size_t k = 0; k < info->n_sizes; ++k) {
        char s[96];
        bench_size_text(&info->sizes[k], ':', s, sizeof s);
        fprintf(f, "%s%s", k ? "," : "", s);
    }
    fprintf(f, "\nBENCH_WARMUPS=%zu\nBENCH_REPEATS=%zu\n", info->warmups, info->repeats);
    for (size_t k = 0; k < info->n_notes; ++k)
        fprintf(f, "BENCH_NOTE=%s\n", info->notes[k]);

    if (fflush(f) != 0 || ferror(f)) {
        int saved = errno;
        fclose(f);
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(saved));
    }
    if (fclose(f) != 0)
        return heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* ---- reading trials.csv back ---------------------------------------------- */

typedef struct trial_row {
    /* the method column, with -pRANKS when ranks is set and -f32 when the
     * precision is f32 */
    char label[56];
    char method[48];
    char base[56];     /* method, with -f32 when the precision is f32 */
    size_t cell_bytes; /* of one cell: 8 (f64, and every older row) or 4 */
    size_t ranks;      /* 0: not a distributed run (or an old CSV) */
    char decomp[32];
    unsigned long long halo_bytes;
    char device[128];
    char transfers[16];
    char run[32];
    bench_size size;
    double total_s;
    /* The time loop alone, without entering or leaving the device: the
     * device's events where the method has them, else its host-timed loop
     * phase; negative when the method reports none. */
    double loop_s;
    unsigned long long h2d_count, h2d_bytes, d2h_count, d2h_bytes;
} trial_row;

/* Splits one CSV line in place into fields (RFC 4180 quoting); returns the
 * number of fields. */
static size_t split_csv(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return max + 1;
        char *w = p;
        fields[n++] = w;
        if (*p == '"') {
            p++;
            for (;;) {
                if (*p == '\0')
                    break;
                if (*p == '"' && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *w++ = *p++;
                }
            }
        } else {
            while (*p != '\0' && *p != ',')
                *w++ = *p++;
        }
        if (*p == ',') {
            *w = '\0';
            p++;
            continue;
        }
        *w = '\0';
        return n;
    }
}

static unsigned long long to_count(const char *text)
{
    return text[0] != '\0' ? strtoull(text, NULL, 10) : 0;
}

static int read_trials(const char *dir, trial_row **rows_out, size_t *n_out, size_t *skipped,
                       heat2d_error *err)
{
    char path[4200];
    join_path(path, sizeof path, dir, "trials.csv");
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return heat2d_fail(err, "cannot read %s: %s", path, strerror(errno));
    trial_row *rows = NULL;
    size_t n = 0, cap = 0;
    *skipped = 0;
    char *line = NULL;
    size_t line_cap = 0;
    bool first = true;
    while (getline(&line, &line_cap, f) >= 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (first) { /* the header: ours, or one before --precision or --ranks */
            first = false;
            continue;
        }
        char *fields[N_COLUMNS + 1];
        size_t nf = split_csv(line, fields, N_COLUMNS);
        trial_row r;
        memset(&r, 0, sizeof r);
        /* A row cut short by an interrupted write is left out, not trusted. */
        char *end = NULL;
        if ((nf != N_COLUMNS && nf != N_RANKS_COLUMNS && nf != N_OLD_COLUMNS) ||
            heat2d_parse_size(fields[column_index("nx")], "nx", &r.size.nx, NULL) != 0 ||
            heat2d_parse_size(fields[column_index("ny")], "ny", &r.size.ny, NULL) != 0 ||
            heat2d_parse_size(fields[column_index("steps")], "steps", &r.size.steps, NULL) != 0 ||
            (r.total_s = strtod(fields[column_index("total_s")], &end), *end != '\0') ||
            fields[column_index("total_s")][0] == '\0') {
            (*skipped)++;
            continue;
        }
        snprintf(r.method, sizeof r.method, "%s", fields[column_index("method")]);
        snprintf(r.label, sizeof r.label, "%s", r.method);
        if (nf >= N_RANKS_COLUMNS && fields[column_index("ranks")][0] != '\0') {
            r.ranks = (size_t)to_count(fields[column_index("ranks")]);
            snprintf(r.decomp, sizeof r.decomp, "%s", fields[column_index("decomp")]);
            r.halo_bytes = to_count(fields[column_index("halo_bytes_per_step")]);
            /* One cell per rank count in the tables. */
            snprintf(r.label, sizeof r.label, "%.30s-p%zu", r.method, r.ranks);
        }
        /* f32 rows are rows of their own, as -pinned and -pP. */
        bool f32 = nf == N_COLUMNS && strcmp(fields[column_index("precision")], "f32") == 0;
        r.cell_bytes = heat2d_precision_bytes(f32 ? HEAT2D_F32 : HEAT2D_F64);
        snprintf(r.base, sizeof r.base, "%s%s", r.method, f32 ? "-f32" : "");
        if (f32) {
            size_t len = strlen(r.label);
            snprintf(r.label + len, sizeof r.label - len, "-f32");
        }
        snprintf(r.device, sizeof r.device, "%s", fields[column_index("device")]);
        snprintf(r.transfers, sizeof r.transfers, "%s", fields[column_index("transfers")]);
        snprintf(r.run, sizeof r.run, "%s", fields[column_index("run")]);
        r.loop_s = -1.0;
        static const char *const loop_columns[] = {"device_loop_s", "gpu_loop_s", "cpu_loop_s",
                                                   "step_regions_s"};
        for (size_t k = 0; k < sizeof loop_columns / sizeof loop_columns[0]; ++k) {
            const char *text = fields[column_index(loop_columns[k])];
            if (text[0] != '\0') {
                r.loop_s = strtod(text, NULL);
                break;
            }
        }
        r.h2d_count = to_count(fields[column_index("h2d_count")]);
        r.h2d_bytes = to_count(fields[column_index("h2d_bytes")]);
        r.d2h_count = to_count(fields[column_index("d2h_count")]);
        r.d2h_bytes = to_count(fields[column_index("d2h_bytes")]);
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            trial_row *grown = realloc(rows, cap * sizeof *rows);
            if (grown == NULL) {
                free(rows);
                free(line);
                fclose(f);
                return heat2d_fail(err, "out of memory reading %s", path);
            }
            rows = grown;
        }
        rows[n++] = r;
    }
    free(line);
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(rows);
        return heat2d_fail(err, "cannot read %s", path);
    }
    *rows_out = rows;
    *n_out = n;
    return 0;
}

/* ---- the tables ------------------------------------------------------------- */

/* One method at one size, pooled over every row of trials.csv. */
typedef struct cell {
    const char *label;
    const char *device; /* of the last row */
    const trial_row *last;
    double *totals; /* sorted */
    double *loops;  /* sorted; n_loops of them */
    size_t n_loops;
    size_t n;
    bool transfers_vary;
    heat2d_style style;
    bool style_known;
    bool overlaps_copies;
} cell;

typedef struct size_group {
    bench_size size;
    cell *cells;
    size_t n_cells;
} size_group;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
    const bench_size *x = &((const size_group *)a)->size, *y = &((const size_group *)b)->size;
    unsigned long long cx = (unsigned long long)x->nx * x->ny,
                       cy = (unsigned long long)y->nx * y->ny;
    if (cx != cy)
        return (cx > cy) - (cx < cy);
    if (x->steps != y->steps)
        return (x->steps > y->steps) - (x->steps < y->steps);
    return (x->nx > y->nx) - (x->nx < y->nx);
}

static bool same_size(const bench_size *a, const bench_size *b)
{
    return a->nx == b->nx && a->ny == b->ny && a->steps == b->steps;
}

/* The median as Python's statistics.median: the mean of the middle two for
 * an even count. */
static double median(const double *sorted, size_t n)
{
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

/* Style from the method table; a "-pinned" twin has its base's style. */
static const heat2d_method *label_method(const char *label)
{
    char base[48];
    snprintf(base, sizeof base, "%s", label);
    const heat2d_method *m = heat2d_method_find(base);
    size_t len = strlen(base);
    if (m == NULL && len > 7 && strcmp(base + len - 7, "-pinned") == 0) {
        base[len - 7] = '\0';
        m = heat2d_method_find(base);
    }
    return m;
}

/* Family of a label: "acc" for acc-each, "cuda" for cuda-each-pinned. */
static size_t family_len(const char *label)
{
    return strcspn(label, "-");
}

static bool same_family(const char *a, const char *b)
{
    size_t n = family_len(a);
    return n == family_len(b) && strncmp(a, b, n) == 0;
}

static bool on_host(const char *device)
{
    return strncmp(device, "host", 4) == 0;
}

static void human_bytes(unsigned long long bytes, char *buf, size_t size)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    double x = (double)bytes;
    size_t u = 0;
    while (x >= 1000.0 && u + 1 < sizeof units / sizeof units[0]) {
        x /= 1000.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%llu B", bytes);
    else
        snprintf(buf, size, "%.3g %s", x, units[u]);
}

static void transfer_text(const cell *c, bool h2d, char *buf, size_t size)
{
    unsigned long long count = h2d ? c->last->h2d_count : c->last->d2h_count;
    unsigned long long bytes = h2d ? c->last->h2d_bytes : c->last->d2h_bytes;
    if (c->style_known && c->style != HEAT2D_STYLE_HOST &&
        strcmp(c->last->transfers, "measured") != 0) {
        snprintf(buf, size, "not measured");
        return;
    }
    if (count == 0 && bytes == 0) {
        snprintf(buf, size, "0");
        return;
    }
    char human[32];
    human_bytes(bytes, human, sizeof human);
    snprintf(buf, size, "%llu (%s)%s", count, human, c->transfers_vary ? " varies" : "");
}

static const cell *find_cell(const size_group *g, const char *label)
{
    for (size_t k = 0; k < g->n_cells; ++k)
        if (strcmp(g->cells[k].label, label) == 0)
            return &g->cells[k];
    return NULL;
}

/* Three significant digits, never "0.00" (a 1000x slower method is 0.001)
 * and never an exponent for a big number. */
static void ratio_text(double ratio, char *buf, size_t size)
{
    if (ratio >= 1000.0)
        snprintf(buf, size, "%.0f", ratio);
    else if (ratio >= 10.0 || ratio < 0.1)
        snprintf(buf, size, "%.3g", ratio);
    else
        snprintf(buf, size, "%.2f", ratio);
}

static void speedup_text(const cell *base, const cell *c, char *buf, size_t size)
{
    if (base == NULL)
        snprintf(buf, size, "no cpu run");
    else
        ratio_text(median(base->totals, base->n) / median(c->totals, c->n), buf, size);
}

/* The limits measured by `heat2d info --bandwidth` (bandwidth.txt in the
 * results folder); zero where not measured. */
typedef struct limits {
    double host_copy_gbs;
    double device_copy_gbs;
    double h2d_gbs[2]; /* [0] pageable, [1] pinned */
    double d2h_gbs[2];
    double both_gbs; /* pinned, per direction, both directions at once */
} limits;

static void read_limits(const char *dir, limits *lim)
{
    memset(lim, 0, sizeof *lim);
    char path[4200];
    join_path(path, sizeof path, dir, "bandwidth.txt");
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    static const struct {
        const char *key;
        size_t offset;
    } keys[] = {
        {"HOST_COPY_GBS=", offsetof(limits, host_copy_gbs)},
        {"DEVICE_COPY_GBS=", offsetof(limits, device_copy_gbs)},
        {"H2D_PAGEABLE_GBS=", offsetof(limits, h2d_gbs)},
        {"H2D_PINNED_GBS=", offsetof(limits, h2d_gbs) + sizeof(double)},
        {"D2H_PAGEABLE_GBS=", offsetof(limits, d2h_gbs)},
        {"D2H_PINNED_GBS=", offsetof(limits, d2h_gbs) + sizeof(double)},
        {"BOTH_PINNED_GBS=", offsetof(limits, both_gbs)},
    };
    char line[256];
    while (fgets(line, sizeof line, f) != NULL)
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
            if (strncmp(line, keys[k].key, strlen(keys[k].key)) == 0)
                *(double *)((char *)lim + keys[k].offset) =
                    strtod(line + strlen(keys[k].key), NULL);
    fclose(f);
}

static bool ends_with(const char *text, const char *suffix)
{
    size_t a = strlen(text), b = strlen(suffix);
    return a >= b && strcmp(text + a - b, suffix) == 0;
}

/* One row of the limits table; a bound of 0 was not measured. */
static void emit_limits_row(FILE *f, const char *label, double per_step, const char *gcells,
                            const char *what, double bound)
{
    if (bound > 0.0)
        fprintf(f, "| %s | %.4g ms | %s | %s | %.4g ms | %.0f%% |\n", label, per_step * 1e3, gcells,
                what, bound * 1e3, 100.0 * bound / per_step);
    else
        fprintf(f, "| %s | %.4g ms | %s | %s | not measured | |\n", label, per_step * 1e3, gcells,
                what);
}

/* Each method's time loop against the limit that bounds it: memory
 * bandwidth for a method that keeps its arrays where it computes (2 cells a
 * cell-step, read u and write v: 16 bytes in f64, 8 in f32), the
 * host<->device copies for a method that moves both arrays every step. */
static void emit_limits_table(FILE *f, const size_group *g, const limits *lim)
{
    const bench_size *s = &g->size;
    double cells = (double)s->nx * (double)s->ny;
    fputs("Against the limits measured in bandwidth.txt (loop: the time loop without entering "
          "or leaving the device):\n\n"
          "| method | loop per step | loop Gcell/s | bound | bound per step | % of bound |\n"
          "|---|--:|--:|---|--:|--:|\n",
          f);
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        if (c->n_loops == 0 || !c->style_known)
            continue;
        double per_step = median(c->loops, c->n_loops) / (double)s->steps;
        size_t cell_bytes = c->last->cell_bytes;
        double array_gb = cells * (double)cell_bytes / 1e9;
        double step_bytes = cells * 2.0 * (double)cell_bytes;
        double bound = 0.0;
        char what[96];
        /* A per-step method whose copies run both directions at once. */
        const bool overlapped =
            c->style == HEAT2D_STYLE_EACH && !on_host(c->device) && c->overlaps_copies;
        if (overlapped) {
            /* Both directions at once, from page-locked memory. */
            if (lim->h2d_gbs[1] > 0.0 && lim->d2h_gbs[1] > 0.0) {
                double up = array_gb / lim->h2d_gbs[1], down = array_gb / lim->d2h_gbs[1];
                bound = up > down ? up : down;
            }
            snprintf(what, sizeof what, "max(S up, S down), pinned, overlapped");
        } else if (c->style == HEAT2D_STYLE_EACH && !on_host(c->device)) {
            int pinned = ends_with(c->last->method, "-pinned");
            if (lim->h2d_gbs[pinned] > 0.0 && lim->d2h_gbs[pinned] > 0.0)
                bound = array_gb / lim->h2d_gbs[pinned] + array_gb / lim->d2h_gbs[pinned];
            snprintf(what, sizeof what, "S up + S down, %s", pinned ? "pinned" : "pageable");
        } else if (on_host(c->device)) {
            if (lim->host_copy_gbs > 0.0)
                bound = step_bytes / 1e9 / lim->host_copy_gbs;
            snprintf(what, sizeof what, "host memory, %zu B/cell", 2 * cell_bytes);
        } else {
            /* A distributed GPU method says how many GPUs its ranks used
             * ("... on 2 GPUs, ..."): they stream through their own memories
             * at once, so the bound is one GPU's over that many. */
            unsigned gpus = 1;
            const char *on = strstr(c->device, " on ");
            if (on == NULL || sscanf(on, " on %u GPU", &gpus) != 1 || gpus == 0)
                gpus = 1;
            if (lim->device_copy_gbs > 0.0)
                bound = step_bytes / 1e9 / (lim->device_copy_gbs * gpus);
            if (gpus > 1)
                snprintf(what, sizeof what, "%u device memories, %zu B/cell", gpus, 2 * cell_bytes);
            else
                snprintf(what, sizeof what, "device memory, %zu B/cell", 2 * cell_bytes);
        }
        char gcells[32];
        ratio_text(cells / per_step / 1e9, gcells, sizeof gcells);
        emit_limits_row(f, c->label, per_step, gcells, what, bound);
        if (overlapped) {
            /* The same step against what the link carries in each direction
             * while the other is busy too: the floor that overlap can reach. */
            emit_limits_row(f, c->label, per_step, gcells,
                            "S at the rate of both directions at once, pinned",
                            lim->both_gbs > 0.0 ? array_gb / lim->both_gbs : 0.0);
        }
    }
    fputc('\n', f);
}

static void emit_size_table(FILE *f, const size_group *g)
{
    const bench_size *s = &g->size;
    fprintf(f, "## %zux%zu, %zu steps\n\n", s->nx, s->ny, s->steps);
    fputs("| method | device | trials | median TOTAL_S [s] (min–max) | speedup over cpu | Gcell/s "
          "| GB/s | H2D per run | D2H per run |\n"
          "|---|---|--:|--:|--:|--:|--:|--:|--:|\n",
          f);
    double cell_steps = (double)s->nx * (double)s->ny * (double)s->steps;
    const cell *cpu = find_cell(g, "cpu");
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        double med = median(c->totals, c->n);
        char speedup[32], h2d[64], d2h[64], gcells[32], gbytes[32];
        speedup_text(cpu, c, speedup, sizeof speedup);
        ratio_text(cell_steps / med / 1e9, gcells, sizeof gcells);
        ratio_text(cell_steps * 2.0 * (double)c->last->cell_bytes / med / 1e9, gbytes,
                   sizeof gbytes);
        transfer_text(c, true, h2d, sizeof h2d);
        transfer_text(c, false, d2h, sizeof d2h);
        fprintf(f, "| %s | %s | %zu | %.4g (%.4g–%.4g) | %s | %s | %s | %s | %s |\n", c->label,
                c->device, c->n, med, c->totals[0], c->totals[c->n - 1], speedup, gcells, gbytes,
                h2d, d2h);
    }
    fputc('\n', f);

    /* The article's speedups: a host method over a per-step and a resident
     * method, and per-step over resident within one family. */
    bool any = false;
    for (size_t a = 0; a < g->n_cells; ++a) {
        const cell *ca = &g->cells[a];
        for (size_t b = 0; b < g->n_cells; ++b) {
            const cell *cb = &g->cells[b];
            /* Within one precision: f32 over f64 is not the article's pair. */
            if (!ca->style_known || !cb->style_known ||
                ca->last->cell_bytes != cb->last->cell_bytes)
                continue;
            /* The article's names: cpu/each, cpu/resident, each/resident. */
            char pair[80];
            if (ca->style == HEAT2D_STYLE_HOST && cb->style == HEAT2D_STYLE_EACH)
                snprintf(pair, sizeof pair, "%s/each", ca->label);
            else if (ca->style == HEAT2D_STYLE_HOST && cb->style == HEAT2D_STYLE_RESIDENT)
                snprintf(pair, sizeof pair, "%s/resident", ca->label);
            else if (ca->style == HEAT2D_STYLE_EACH && cb->style == HEAT2D_STYLE_RESIDENT &&
                     same_family(ca->label, cb->label))
                snprintf(pair, sizeof pair, "each/resident");
            else
                continue;
            if (!any)
                fputs("Speedups, median over median:\n\n", f);
            any = true;
            char ratio[32];
            ratio_text(median(ca->totals, ca->n) / median(cb->totals, cb->n), ratio, sizeof ratio);
            fprintf(f, "- %s: %s / %s = %s\n", pair, ca->label, cb->label, ratio);
        }
    }
    if (any)
        fputc('\n', f);

    /* An OpenACC method that fell back to the host is the article's host
     * mode, not a GPU number; say so where the number is. */
    char host_acc[256] = "";
    size_t used = 0;
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        if (c->style_known && c->style != HEAT2D_STYLE_HOST && on_host(c->device))
            used += (size_t)snprintf(host_acc + used,
                                     used < sizeof host_acc ? sizeof host_acc - used : 0, "%s%s",
                                     used ? ", " : "", c->label);
    }
    if (used > 0)
        fprintf(f,
                "Ran on the host, not a GPU: %s (this build's OpenACC has no offload: the "
                "article's host mode; nothing crosses to a device).\n\n",
                host_acc);
}

/* Strong scaling of each distributed method at this size: the same grid on
 * P ranks. Speedup T1/TP and efficiency T1/(P*TP) take the medians, with T1
 * the same method's one-rank cell; without one there is nothing to divide
 * by, and the table says so rather than pick another baseline. */
static void emit_scaling(FILE *f, const size_group *g)
{
    for (size_t a = 0; a < g->n_cells; ++a) {
        const cell *ca = &g->cells[a];
        if (ca->last->ranks == 0)
            continue;
        /* Once per method: at its first cell. */
        bool seen = false;
        for (size_t b = 0; b < a && !seen; ++b)
            seen =
                g->cells[b].last->ranks > 0 && strcmp(g->cells[b].last->base, ca->last->base) == 0;
        if (seen)
            continue;
        const char *method = ca->last->base;
        const cell *one = NULL;
        size_t n_p = 0;
        for (size_t b = 0; b < g->n_cells; ++b) {
            bool same = g->cells[b].last->ranks > 0 && strcmp(g->cells[b].last->base, method) == 0;
            n_p += same;
            if (same && g->cells[b].last->ranks == 1)
                one = &g->cells[b];
        }
        /* One rank count alone (a --weak grid) scales nothing here. */
        if (n_p < 2)
            continue;
        fprintf(f, "### Scaling of %s at %zux%zu, %zu steps\n\n", method, g->size.nx, g->size.ny,
                g->size.steps);
        fputs("Strong scaling, the same grid on P ranks: speedup T1/TP, efficiency T1/(P*TP), "
              "medians of TOTAL_S.\n\n"
              "| P | decomposition | median TOTAL_S [s] | halo bytes per step | speedup | "
              "efficiency |\n|--:|---|--:|--:|--:|--:|\n",
              f);
        /* Ascending P: a few cells, so a selection pass per row is enough. */
        size_t last_p = 0;
        for (;;) {
            const cell *next = NULL;
            for (size_t b = 0; b < g->n_cells; ++b) {
                const cell *cb = &g->cells[b];
                if (cb->last->ranks > last_p && strcmp(cb->last->base, method) == 0 &&
                    (next == NULL || cb->last->ranks < next->last->ranks))
                    next = cb;
            }
            if (next == NULL)
                break;
            last_p = next->last->ranks;
            double tp = median(next->totals, next->n);
            char speedup[32] = "no P=1 run", eff[32] = "no P=1 run";
            if (one != NULL && tp > 0.0) {
                double t1 = median(one->totals, one->n);
                ratio_text(t1 / tp, speedup, sizeof speedup);
                snprintf(eff, sizeof eff, "%.3f", t1 / ((double)last_p * tp));
            }
            fprintf(f, "| %zu | %s | %.4g | %llu | %s | %s |\n", last_p, next->last->decomp, tp,
                    next->last->halo_bytes, speedup, eff);
        }
        fputc('\n', f);
    }
}

/* Weak scaling: the same cells per rank on P ranks, so the grid grows with P
 * (bench --weak). Found from the rows themselves: every cell of a method at
 * P ranks whose grid is P times a one-rank cell's, at the same steps. The
 * efficiency is T1/TP: ideally the time stays. */
static void emit_weak(FILE *f, const size_group *groups, size_t n_groups)
{
    for (size_t g1 = 0; g1 < n_groups; ++g1)
        for (size_t c1 = 0; c1 < groups[g1].n_cells; ++c1) {
            const cell *one = &groups[g1].cells[c1];
            if (one->last->ranks != 1)
                continue;
            const bench_size *s1 = &groups[g1].size;
            double per_rank = (double)s1->nx * (double)s1->ny;
            double t1 = median(one->totals, one->n);
            bool any = false;
            size_t last_p = 1;
            for (;;) {
                /* The next larger P: a few cells, a selection pass each. */
                const cell *next = NULL;
                const bench_size *next_size = NULL;
                for (size_t g = 0; g < n_groups; ++g)
                    for (size_t c = 0; c < groups[g].n_cells; ++c) {
                        const cell *cc = &groups[g].cells[c];
                        const bench_size *sz = &groups[g].size;
                        size_t p = cc->last->ranks;
                        if (p > last_p && (next == NULL || p < next->last->ranks) &&
                            strcmp(cc->last->base, one->last->base) == 0 &&
                            sz->steps == s1->steps &&
                            (double)sz->nx * (double)sz->ny == per_rank * (double)p) {
                            next = cc;
                            next_size = sz;
                        }
                    }
                if (next == NULL)
                    break;
                if (!any) {
                    fprintf(f,
                            "### Weak scaling of %s, %zux%zu cells per rank, %zu steps\n\n"
                            "The grid grows with P, the cells per rank stay: efficiency T1/TP, "
                            "medians of TOTAL_S.\n\n"
                            "| P | grid | decomposition | median TOTAL_S [s] | halo bytes per "
                            "step | efficiency |\n|--:|---|---|--:|--:|--:|\n"
                            "| 1 | %zux%zu | %s | %.4g | %llu | 1.000 |\n",
                            one->last->base, s1->nx, s1->ny, s1->steps, s1->nx, s1->ny,
                            one->last->decomp, t1, one->last->halo_bytes);
                    any = true;
                }
                last_p = next->last->ranks;
                double tp = median(next->totals, next->n);
                char eff[32] = "n/a";
                if (tp > 0.0)
                    snprintf(eff, sizeof eff, "%.3f", t1 / tp);
                fprintf(f, "| %zu | %zux%zu | %s | %.4g | %llu | %s |\n", last_p, next_size->nx,
                        next_size->ny, next->last->decomp, tp, next->last->halo_bytes, eff);
            }
            if (any)
                fputc('\n', f);
        }
}

static const size_group *headline_group(const size_group *groups, size_t n, bool *exact)
{
    const bench_size article = {2048, 2048, 500};
    *exact = false;
    for (size_t k = 0; k < n; ++k)
        if (same_size(&groups[k].size, &article)) {
            *exact = true;
            return &groups[k];
        }
    /* Otherwise the largest grid (the groups are sorted by cells, then
     * steps). */
    return n > 0 ? &groups[n - 1] : NULL;
}

static void emit_headline(FILE *f, const size_group *groups, size_t n)
{
    bool exact;
    const size_group *g = headline_group(groups, n, &exact);
    if (g == NULL)
        return;
    const bench_size *s = &g->size;
    fprintf(f, "## Headline: %zux%zu, %zu steps\n\n", s->nx, s->ny, s->steps);
    if (!exact)
        fprintf(f, "The article's headline size, 2048x2048/500, was not run; this is the largest "
                   "size that was. Full ladder: `heat2d bench --sizes "
                   "128x128:50,512x512:200,1024x1024:300,2048x2048:500`.\n\n");
    fputs("| method | device | median TOTAL_S [s] | speedup over cpu |\n|---|---|--:|--:|\n", f);
    const cell *cpu = find_cell(g, "cpu");
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        char speedup[32];
        speedup_text(cpu, c, speedup, sizeof speedup);
        fprintf(f, "| %s | %s | %.4g | %s |\n", c->label, c->device, median(c->totals, c->n),
                speedup);
    }
    fputc('\n', f);
}

static void emit_summary(FILE *f, const bench_run_info *info, const size_group *groups,
                         size_t n_groups, size_t n_rows, size_t n_runs, size_t skipped)
{
    fprintf(f, "# heat2d bench on %s\n\n", info->hostname);
    fprintf(f,
            "Run %s (%s): %zu method(s) x %zu size(s), %zu warm-up(s) and %zu trial(s) each, "
            "every trial a fresh `heat2d run` process; the order of methods rotates each "
            "trial. Times are TOTAL_S, the timed loop including data movement. Build and machine: "
            "environment.txt; every trial: trials.csv.\n\n",
            info->run_id, info->date, info->n_targets, info->n_sizes, info->warmups, info->repeats);
    if (n_runs > 1)
        fprintf(f,
                "trials.csv in this folder holds %zu trials from %zu runs; the tables pool "
                "them.\n\n",
                n_rows, n_runs);
    if (skipped > 0)
        fprintf(f, "%zu incomplete row(s) of trials.csv (an interrupted write) are left out.\n\n",
                skipped);
    for (size_t k = 0; k < info->n_notes; ++k)
        fprintf(f, "- %s\n%s", info->notes[k], k + 1 == info->n_notes ? "\n" : "");
    if (n_groups == 0) {
        fputs("No trial finished: nothing to tabulate.\n", f);
        return;
    }
    fputs("Gcell/s is nx*ny*steps / median. GB/s counts the 16 bytes per cell-step that one "
          "fp64 step must move at least (read u, write v): nx*ny*steps*16 / median; it can "
          "exceed the memory's bandwidth only while the grid fits in cache.\n\n",
          f);
    bool any_f32 = false;
    for (size_t k = 0; k < n_groups; ++k)
        for (size_t c = 0; c < groups[k].n_cells; ++c)
            any_f32 = any_f32 || groups[k].cells[c].last->cell_bytes != 8;
    if (any_f32)
        fputs("A -f32 row computed in single precision (bench --precision): its GB/s and "
              "limits count 8 bytes per cell-step (4-byte cells).\n\n",
              f);
    static const char *const plots[][2] = {
        {"time_per_step.png", "time per step against grid size"},
        {"headline.png", "headline"},
        {"field.png", "final field"},
        {"scaling.png", "scaling efficiency over ranks"},
    };
    for (size_t k = 0; k < sizeof plots / sizeof plots[0]; ++k) {
        char path[4200];
        join_path(path, sizeof path, info->dir, plots[k][0]);
        if (access(path, R_OK) == 0)
            fprintf(f, "![%s](%s)\n", plots[k][1], plots[k][0]);
    }
    fputc('\n', f);
    limits lim;
    read_limits(info->dir, &lim);
    for (size_t k = 0; k < n_groups; ++k) {
        emit_size_table(f, &groups[k]);
        emit_limits_table(f, &groups[k], &lim);
        emit_scaling(f, &groups[k]);
    }
    emit_weak(f, groups, n_groups);
    emit_headline(f, groups, n_groups);
}

int bench_write_summary(const bench_run_info *info, FILE *echo, heat2d_error *err)
{
    trial_row *rows = NULL;
    size_t n_rows = 0, skipped = 0;
    if (read_trials(info->dir, &rows, &n_rows, &skipped, err) != 0)
        return -1;

    /* Group rows by size, then by method in order of first appearance. */
    size_group *groups = calloc(n_rows ? n_rows : 1, sizeof *groups);
    cell *cells = calloc(n_rows ? n_rows : 1, sizeof *cells);
    double *totals = calloc(n_rows ? n_rows : 1, sizeof *totals);
    double *loops = calloc(n_rows ? n_rows : 1, sizeof *loops);
    if (groups == NULL || cells == NULL || totals == NULL || loops == NULL) {
        free(loops);
        free(groups);
        free(cells);
        free(totals);
        free(rows);
        return heat2d_fail(err, "out of memory summarising trials.csv");
    }
    size_t n_groups = 0;
    for (size_t r = 0; r < n_rows; ++r) {
        size_t g = 0;
        while (g < n_groups && !same_size(&groups[g].size, &rows[r].size))
            g++;
        if (g == n_groups)
            groups[n_groups++].size = rows[r].size;
    }
    qsort(groups, n_groups, sizeof *groups, cmp_size);
    size_t used_cells = 0, used_totals = 0;
    for (size_t g = 0; g < n_groups; ++g) {
        groups[g].cells = cells + used_cells;
        for (size_t r = 0; r < n_rows; ++r) {
            if (!same_size(&groups[g].size, &rows[r].size))
                continue;
            size_t c = 0;
            while (c < groups[g].n_cells && strcmp(groups[g].cells[c].label, rows[r].label) != 0)
                c++;
            if (c == groups[g].n_cells) {
                cell *fresh = &groups[g].cells[groups[g].n_cells++];
                used_cells++;
                fresh->label = rows[r].label;
                const heat2d_method *m = label_method(rows[r].method);
                fresh->style_known = m != NULL;
                fresh->style = m != NULL ? m->style : HEAT2D_STYLE_HOST;
                fresh->overlaps_copies = m != NULL && m->overlaps_copies;
                /* Its totals are contiguous: count them first. */
                size_t count = 0;
                for (size_t q = r; q < n_rows; ++q)
                    count += same_size(&groups[g].size, &rows[q].size) &&
                             strcmp(rows[q].label, rows[r].label) == 0;
                fresh->totals = totals + used_totals;
                fresh->loops = loops + used_totals;
                used_totals += count;
            }
            cell *ce = &groups[g].cells[c];
            if (ce->last != NULL && (ce->last->h2d_count != rows[r].h2d_count ||
                                     ce->last->h2d_bytes != rows[r].h2d_bytes ||
                                     ce->last->d2h_count != rows[r].d2h_count ||
                                     ce->last->d2h_bytes != rows[r].d2h_bytes))
                ce->transfers_vary = true;
            ce->totals[ce->n++] = rows[r].total_s;
            if (rows[r].loop_s >= 0.0)
                ce->loops[ce->n_loops++] = rows[r].loop_s;
            ce->last = &rows[r];
            ce->device = rows[r].device;
        }
        for (size_t c = 0; c < groups[g].n_cells; ++c) {
            qsort(groups[g].cells[c].totals, groups[g].cells[c].n, sizeof(double), cmp_double);
            qsort(groups[g].cells[c].loops, groups[g].cells[c].n_loops, sizeof(double), cmp_double);
        }
    }
    size_t n_runs = 0;
    for (size_t r = 0; r < n_rows; ++r) {
        bool seen = false;
        for (size_t q = 0; q < r && !seen; ++q)
            seen = strcmp(rows[q].run, rows[r].run) == 0;
        n_runs += !seen;
    }

    char path[4200];
    join_path(path, sizeof path, info->dir, "summary.md");
    int rc = 0;
    FILE *f = fopen(path, "we");
    if (f == NULL) {
        rc = heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    } else {
        emit_summary(f, info, groups, n_groups, n_rows, n_runs, skipped);
        if (fflush(f) != 0 || ferror(f))
            rc = heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
        if (fclose(f) != 0 && rc == 0)
            rc = heat2d_fail(err, "cannot write %s: %s", path, strerror(errno));
    }
    if (rc == 0 && echo != NULL)
        emit_summary(echo, info, groups, n_groups, n_rows, n_runs, skipped);
    free(groups);
    free(cells);
    free(totals);
    free(loops);
    free(rows);
    return rc;
}
