/* Unit tests of the bench library: the statistics of the summary (medians,
 * ratios, speedups), trials.csv written and read back field for field, torn
 * rows left out, headers of other versions refused, the ledger (its lock, a
 * torn last line set aside), and the tables that summary.md draws from a CSV
 * whose numbers are known. */
#define _GNU_SOURCE /* mkdtemp */

#include "load.h"
#include "run_state.h"
#include "summary.h"
#include "summary_tables.h"
#include "trials_csv.h"
#include "unit_check.h"

#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_median_and_ratios(void)
{
    const double one[] = {7.0}, odd[] = {1.0, 2.0, 9.0}, even[] = {1.0, 2.0, 4.0, 100.0};
    check(summary_median(one, 1) == 7.0, "median of one value");
    check(summary_median(odd, 3) == 2.0, "median of an odd count: the middle one");
    check(summary_median(even, 4) == 3.0, "median of an even count: the mean of the middle two");
    static const struct {
        double ratio;
        const char *text;
    } cases[] = {{1234.4, "1234"}, {12.345, "12.3"},      {2.5, "2.50"},
                 {0.05, "0.05"},   {0.001234, "0.00123"}, {100.0, "100"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        char buf[32];
        summary_ratio_text(cases[k].ratio, buf, sizeof buf);
        check(strcmp(buf, cases[k].text) == 0, "ratio %g written '%s', want '%s'", cases[k].ratio,
              buf, cases[k].text);
    }
}

/* A result as a child would have printed it. */
static heat2d_trial_values result(const char *total, const char *loop_key, const char *loop,
                                  const char *device, const char *precision)
{
    heat2d_trial_values r;
    memset(&r, 0, sizeof r);
    snprintf(r.value[HEAT2D_FIELD_TOTAL_S], sizeof r.value[0], "%s", total);
    snprintf(r.value[HEAT2D_FIELD_MASS], sizeof r.value[0], "1.0000000000000000E+00");
    snprintf(r.value[HEAT2D_FIELD_DEVICE], sizeof r.value[0], "%s", device);
    snprintf(r.value[HEAT2D_FIELD_PRECISION], sizeof r.value[0], "%s", precision);
    snprintf(r.value[HEAT2D_FIELD_TRANSFERS], sizeof r.value[0], "none");
    snprintf(r.value[HEAT2D_FIELD_H2D_COUNT], sizeof r.value[0], "0");
    snprintf(r.value[HEAT2D_FIELD_D2H_BYTES], sizeof r.value[0], "0");
    for (size_t k = 0; k < HEAT2D_N_FIELDS; ++k)
        if (heat2d_trial_fields[k].key != NULL && strcmp(heat2d_trial_fields[k].key, loop_key) == 0)
            snprintf(r.value[k], sizeof r.value[0], "%s", loop);
    r.total_s = strtod(total, NULL);
    return r;
}

static bench_target target(const char *name, heat2d_precision precision)
{
    bench_target t = {.method = heat2d_method_find(name),
                      .value = {[HEAT2D_OPTION_PRECISION] = precision}};
    heat2d_method_label(t.label, sizeof t.label, name, t.value, 0);
    return t;
}

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static void test_csv_round_trip(const char *dir)
{
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    FILE *csv = bench_csv_open(dir, &repair, &err);
    if (!check(csv != NULL, "trials.csv opens in %s: %s", dir, err.message))
        return;
    bench_run_info info = {.dir = dir, .run_id = "20261201-000000", .hostname = "test"};
    const bench_target cpu = target("cpu", HEAT2D_F64), cpu32 = target("cpu", HEAT2D_F32);
    const bench_size size = {24, 20, 5};
    /* cpu: totals 3, 1, 2 (median 2); cpu-f32: 0.5 and 1 (median 0.75). */
    const char *totals[] = {"3", "1", "2"};
    for (size_t k = 0; k < 3; ++k) {
        heat2d_trial_values r = result(totals[k], "CPU_LOOP_S", "0.5", "host", "f64");
        check(bench_csv_append(csv, &info, &cpu, k + 1, &size, &r, 4.0, &err) == 0,
              "row %zu appended: %s", k, err.message);
    }
    const char *totals32[] = {"0.5", "1"};
    for (size_t k = 0; k < 2; ++k) {
        heat2d_trial_values r = result(totals32[k], "CPU_LOOP_S", "0.25", "host", "f32");
        check(bench_csv_append(csv, &info, &cpu32, k + 1, &size, &r, 1.5, &err) == 0,
              "f32 row %zu appended: %s", k, err.message);
    }
    fclose(csv);

    trial_row *rows = NULL;
    size_t n = 0, skipped = 0;
    if (!check(bench_read_trials(dir, &rows, &n, &skipped, &err) == 0, "read back: %s",
               err.message))
        return;
    check(n == 5 && skipped == 0, "5 rows read back, none skipped: %zu, %zu", n, skipped);
    if (n == 5) {
        const trial_row *a = &rows[0], *f = &rows[4];
        check(strcmp(a->label, "cpu") == 0 && strcmp(a->method, "cpu") == 0 &&
                  strcmp(a->base, "cpu") == 0,
              "f64 row: label %s, method %s, base %s", a->label, a->method, a->base);
        check(strcmp(f->label, "cpu-f32") == 0 && strcmp(f->method, "cpu") == 0 &&
                  strcmp(f->base, "cpu-f32") == 0,
              "f32 row: label %s, method %s, base %s", f->label, f->method, f->base);
        check(a->cell_bytes == 8 && f->cell_bytes == 4, "cell bytes 8 and 4: %zu, %zu",
              a->cell_bytes, f->cell_bytes);
        check(a->size.nx == 24 && a->size.ny == 20 && a->size.steps == 5, "size 24x20/5");
        check(a->total_s == 3.0 && rows[1].total_s == 1.0 && f->total_s == 1.0,
              "totals as written: %g %g %g", a->total_s, rows[1].total_s, f->total_s);
        check(a->loop_s == 0.5 && f->loop_s == 0.25, "loop from CPU_LOOP_S: %g %g", a->loop_s,
              f->loop_s);
        check(strcmp(a->device, "host") == 0 && strcmp(a->run, "20261201-000000") == 0 &&
                  a->ranks == 0,
              "device %s, run %s, ranks %zu", a->device, a->run, a->ranks);
    }
    free(rows);

    /* summary.md from those rows: medians, trials and the speedup over cpu. */
    info.n_targets = 2;
    info.n_sizes = 1;
    info.repeats = 3;
    size_t own = 0;
    check(bench_write_summary(&info, NULL, &own, &err) == 0, "summary written: %s", err.message);
    check(own == 5, "the run's 5 rows read back: %zu", own);
    char path[4200], line[1024];
    snprintf(path, sizeof path, "%s/summary.md", dir);
    FILE *f = fopen(path, "r");
    bool cpu_row = false, f32_row = false, headline = false;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        cpu_row = cpu_row || starts_with(line, "| cpu | host | 3 | 2 (1–3) | 1.00 |");
        f32_row = f32_row || starts_with(line, "| cpu-f32 | host | 2 | 0.75 (0.5–1) | 2.67 |");
        headline = headline || strcmp(line, "## Headline: 24x20, 5 steps\n") == 0;
    }
    if (f != NULL)
        fclose(f);
    check(cpu_row, "cpu: 3 trials, median 2 (1-3), speedup 1.00");
    check(f32_row, "cpu-f32: 2 trials, median 0.75 (0.5-1), speedup 2/0.75 = 2.67");
    check(headline, "headline at the largest size");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

/* A row cut short by an interrupted write is counted and left out. */
static void test_torn_row(const char *dir)
{
    char path[4200], header[4096] = "";
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    FILE *csv = bench_csv_open(dir, &repair, &err);
    if (!check(csv != NULL, "fresh trials.csv: %s", err.message))
        return;
    fclose(csv);
    snprintf(path, sizeof path, "%s/trials.csv", dir);
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        if (fgets(header, sizeof header, f) == NULL)
            header[0] = '\0';
        fclose(f);
    }
    char text[8192];
    snprintf(text, sizeof text, "%scpu,1,24,20,5,0.1", header);
    write_file(path, text);
    trial_row *rows = NULL;
    size_t n = 0, skipped = 0;
    check(bench_read_trials(dir, &rows, &n, &skipped, &err) == 0 && n == 0 && skipped == 1,
          "a torn row is skipped: %zu rows, %zu skipped", n, skipped);
    free(rows);
}

static size_t read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n = f != NULL ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f != NULL)
        fclose(f);
    return n;
}

/* The ledger: a second open while one is held is refused with the holder's
 * pid; a torn last line goes to trials.torn.csv and off the file. */
static void test_ledger(const char *dir)
{
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    FILE *held = bench_csv_open(dir, &repair, &err);
    if (!check(held != NULL, "trials.csv opens: %s", err.message))
        return;
    char want[4400];
    snprintf(want, sizeof want,
             "%s/trials.csv is in use by another bench (pid %ld); wait for it or choose another "
             "--out",
             dir, (long)getpid());
    FILE *second = bench_csv_open(dir, &repair, &err);
    check(second == NULL && strcmp(err.message, want) == 0, "a second open refused: '%s'",
          err.message);
    if (second != NULL)
        fclose(second);
    fputs("cpu,1", held); /* a row cut short */
    fclose(held);
    char path[4200], text[8192];
    snprintf(path, sizeof path, "%s/trials.csv", dir);
    const size_t whole = read_file(path, text, sizeof text) - 5;
    FILE *csv = bench_csv_open(dir, &repair, &err);
    check(csv != NULL && repair.torn_bytes == 5 && !repair.torn_header,
          "the torn line set aside: %zu bytes (%s)", repair.torn_bytes, err.message);
    if (csv != NULL)
        fclose(csv);
    check(read_file(path, text, sizeof text) == whole && text[whole - 1] == '\n',
          "trials.csv cut back to its last newline");
    snprintf(path, sizeof path, "%s/trials.torn.csv", dir);
    read_file(path, text, sizeof text);
    check(strcmp(text, "cpu,1\n") == 0, "trials.torn.csv holds the torn line: '%s'", text);
}

/* The parser on a buffer: of a whole row, a row whose TOTAL_S is nan, one
 * with a NUL byte, and the whole row again without its newline, only the
 * first is read; the other three are counted as left out. */
static void test_parse_buffer(const char *csv_dir)
{
    char path[4200], text[8192], buf[20000];
    snprintf(path, sizeof path, "%s/trials.csv", csv_dir);
    read_file(path, text, sizeof text);
    char *header_end = strchr(text, '\n');
    char *row_end = header_end != NULL ? strchr(header_end + 1, '\n') : NULL;
    if (!check(row_end != NULL, "a header and a row to start from"))
        return;
    const size_t header_len = (size_t)(header_end - text) + 1;
    const size_t row_len = (size_t)(row_end - header_end);
    const char *row = header_end + 1;
    /* TOTAL_S is the 6th column. */
    const char *total = row;
    for (int k = 0; k < 5; ++k)
        total = strchr(total, ',') + 1;
    const size_t before_total = (size_t)(total - row);
    const size_t total_len = strcspn(total, ",");
    memcpy(buf, text, header_len + row_len);
    size_t n = header_len + row_len;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%.*snan%.*s", (int)before_total, row,
                          (int)(row_len - before_total - total_len), total + total_len);
    memcpy(buf + n, row, row_len);
    buf[n + 3] = '\0';
    n += row_len;
    memcpy(buf + n, row, row_len - 1);
    n += row_len - 1;
    trial_row *rows = NULL;
    size_t got = 0, skipped = 0;
    heat2d_error err = {{0}};
    check(bench_parse_trials("buffer", buf, n, &rows, &got, &skipped, &err) == 0 && got == 1 &&
              skipped == 3,
          "one row read, three left out: %zu, %zu (%s)", got, skipped, err.message);
    free(rows);
}

/* A quoted field holding line breaks (RFC 4180, as the writer keeps a
 * path's): one record, its field read back as it was, and the ledger cuts
 * nothing of it off as torn. */
static void test_quoted_line_break(const char *csv_dir, const char *ledger_dir)
{
    char path[4200], text[8192], buf[20000];
    snprintf(path, sizeof path, "%s/trials.csv", csv_dir);
    read_file(path, text, sizeof text);
    char *header_end = strchr(text, '\n');
    char *row_end = header_end != NULL ? strchr(header_end + 1, '\n') : NULL;
    char *host = row_end != NULL ? strstr(header_end, ",host,") : NULL;
    if (!check(host != NULL && host < row_end, "a row on the host to start from"))
        return;
    const size_t n =
        (size_t)snprintf(buf, sizeof buf, "%.*s,\"ho\nst\r\n\"\"x\"\"\",%.*s", (int)(host - text),
                         text, (int)(row_end + 1 - (host + 6)), host + 6);
    trial_row *rows = NULL;
    size_t got = 0, skipped = 0;
    heat2d_error err = {{0}};
    const int rc = bench_parse_trials("buffer", buf, n, &rows, &got, &skipped, &err);
    check(rc == 0 && got == 1 && skipped == 0 && strcmp(rows[0].device, "ho\nst\r\n\"x\"") == 0,
          "a quoted line break: %zu row, %zu skipped, device '%s' (%s)", got, skipped,
          got == 1 ? rows[0].device : "", err.message);
    free(rows);
    snprintf(path, sizeof path, "%s/trials.csv", ledger_dir);
    write_file(path, buf);
    bench_csv_repair repair;
    FILE *csv = bench_csv_open(ledger_dir, &repair, &err);
    check(csv != NULL && repair.torn_bytes == 0, "the ledger keeps it whole: %zu torn (%s)",
          repair.torn_bytes, err.message);
    if (csv != NULL)
        fclose(csv);
    check(read_file(path, text, sizeof text) == n, "trials.csv as it was");
}

/* A header that is not this version's is refused, the older ones by name. */
static void test_other_headers(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trials.csv", dir);
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    write_file(path, "method,trial,nx\n");
    check(bench_csv_open(dir, &repair, &err) == NULL &&
              strstr(err.message, "older heat2d (no ny,") != NULL,
          "a prefix of the header: '%s'", err.message);
    write_file(path, "a,b,c\n");
    check(bench_csv_open(dir, &repair, &err) == NULL &&
              strstr(err.message, "has other columns") != NULL,
          "another header: '%s'", err.message);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* The limits table: a GPU-resident method against the tighter of memory
 * (per pass) and arithmetic (its FP instructions at the FMA rate). */
/* The build's first resident GPU method (the limits table's rows are GPU
 * methods'), or NULL with the line that says the build has none. */
static const heat2d_method *resident_gpu_method(void)
{
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        if (m->gpu_only && m->style == HEAT2D_STYLE_RESIDENT && !m->distributed)
            return m;
    }
    skip("the limits table: this build has no resident GPU method");
    return NULL;
}

/* The limits table's row for a resident GPU method's trial with pass and
 * ops against bandwidth.txt's text: "| METHOD | " and then want. */
static void test_limits(const char *dir, const char *bandwidth, const char *pass, const char *ops,
                        const char *want_after_name)
{
    const heat2d_method *gpu = resident_gpu_method();
    if (gpu == NULL)
        return;
    char want[256];
    snprintf(want, sizeof want, "| %s | %s", gpu->name, want_after_name);
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    char path[4200];
    snprintf(path, sizeof path, "%s/bandwidth.txt", dir);
    write_file(path, bandwidth);
    FILE *csv = bench_csv_open(dir, &repair, &err);
    if (!check(csv != NULL, "trials.csv opens: %s", err.message))
        return;
    bench_run_info info = {.dir = dir, .run_id = "20261201-000001", .hostname = "test"};
    bench_target t = target(gpu->name, HEAT2D_F64);
    const bench_size size = {100, 100, 10};
    heat2d_trial_values r = result("0.5", "GPU_LOOP_S", "2.8e-6", "NVIDIA Test GPU", "f64");
    snprintf(r.value[HEAT2D_FIELD_PASS_STEPS], sizeof r.value[0], "%s", pass);
    snprintf(r.value[HEAT2D_FIELD_FP_OPS_PER_CELL], sizeof r.value[0], "%s", ops);
    check(bench_csv_append(csv, &info, &t, 1, &size, &r, 1.0, &err) == 0, "row: %s", err.message);
    fclose(csv);
    info.n_targets = info.n_sizes = info.repeats = 1;
    check(bench_write_summary(&info, NULL, NULL, &err) == 0, "summary: %s", err.message);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    FILE *f = fopen(path, "r");
    char line[1024], seen[1024] = "none";
    bool found = false;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        found = found || starts_with(line, want);
        if (strstr(line, " ms | ") != NULL)
            snprintf(seen, sizeof seen, "%s", line);
    }
    if (f != NULL)
        fclose(f);
    check(found, "limits row '%s', got %s", want, seen);
}

/* One cpu row of a snapshot table: K (0: the run without snapshots), its
 * loop and read-back, and with K its snapshots and the bytes written. */
typedef struct snapshot_run {
    size_t every;
    const char *loop, *readback, *snapshots, *bytes;
} snapshot_run;

/* A folder with bandwidth (bandwidth.txt's text) and runs (writer the
 * snapshots' writer), and its summary written; false when either failed. */
static bool snapshot_summary(const char *dir, const char *bandwidth, const snapshot_run *runs,
                             size_t n_runs, heat2d_snapshot_writer writer)
{
    heat2d_error err = {{0}};
    bench_csv_repair repair;
    char path[4200];
    snprintf(path, sizeof path, "%s/bandwidth.txt", dir);
    write_file(path, bandwidth);
    FILE *csv = bench_csv_open(dir, &repair, &err);
    if (!check(csv != NULL, "trials.csv opens: %s", err.message))
        return false;
    bench_run_info info = {.dir = dir, .run_id = "20261201-000002", .hostname = "test"};
    const bench_size size = {100, 100, 10};
    for (size_t k = 0; k < n_runs; ++k) {
        bench_target t = target("cpu", HEAT2D_F64);
        t.value[HEAT2D_OPTION_OUTPUT_EVERY] = runs[k].every;
        t.value[HEAT2D_OPTION_SNAPSHOT_WRITER] = runs[k].every > 0 ? writer : 0;
        bench_target_label(&t);
        heat2d_trial_values r = result("1", "CPU_LOOP_S", runs[k].loop, "host", "f64");
        snprintf(r.value[HEAT2D_FIELD_READBACK_S], sizeof r.value[0], "%s", runs[k].readback);
        if (runs[k].every > 0) {
            snprintf(r.value[HEAT2D_FIELD_OUTPUT_EVERY], sizeof r.value[0], "%zu", runs[k].every);
            snprintf(r.value[HEAT2D_FIELD_SNAPSHOT_COPY], sizeof r.value[0], "plain");
            snprintf(r.value[HEAT2D_FIELD_SNAPSHOT_WRITER], sizeof r.value[0], "%s",
                     heat2d_snapshot_writer_name(writer));
            snprintf(r.value[HEAT2D_FIELD_SNAPSHOTS], sizeof r.value[0], "%s", runs[k].snapshots);
            snprintf(r.value[HEAT2D_FIELD_SNAPSHOT_BYTES_WRITTEN], sizeof r.value[0], "%s",
                     runs[k].bytes);
        }
        check(bench_csv_append(csv, &info, &t, 1, &size, &r, 1.0, &err) == 0, "row: %s",
              err.message);
    }
    fclose(csv);
    info.n_targets = info.n_sizes = info.repeats = 1;
    return check(bench_write_summary(&info, NULL, NULL, &err) == 0, "summary: %s", err.message);
}

/* Whether dir's summary.md has the line want; the line that starts like
 * it (up to its first number) into seen. */
static bool summary_has(const char *dir, const char *want, const char *prefix, char *seen,
                        size_t size)
{
    char path[4200], line[1024];
    snprintf(path, sizeof path, "%s/summary.md", dir);
    FILE *f = fopen(path, "r");
    bool found = false;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (prefix != NULL && starts_with(line, prefix))
            snprintf(seen, size, "%s", line);
        found = found || strcmp(line, want) == 0 || (prefix == NULL && starts_with(line, want));
    }
    if (f != NULL)
        fclose(f);
    return found;
}

/* The snapshot table's bound with a writer: a row that reports READBACK_S
 * wrote all but its last record inside the time measured, one that does
 * not wrote every one. 1e4 cells, 10 steps, files at 1 GB/s; the run
 * without snapshots takes 0.11 ms a step. K=2: 5 records of 0.8 MB, 4
 * inside: 3.2 ms / 10 = 0.32 ms a step, against 1.01 ms: 3.16 (3.2 ms with
 * all 5 would give 2.53). K=5: 2 records, both inside: 0.16 ms against
 * 0.48 ms: 3.00. */
static void test_snapshot_bound(const char *dir)
{
    const snapshot_run runs[] = {{0, "0.001", "0.0001", "", ""},
                                 {2, "0.01", "0.0001", "5", "4000000"},
                                 {5, "0.0048", "", "2", "1600000"}};
    if (!snapshot_summary(dir,
                          "SCRATCH_DIR=/dev/shm\nSCRATCH_FS=tmpfs\nSCRATCH_WRITE_GBS=1\n"
                          "SCRATCH_WRITE_BYTES=80000\n",
                          runs, 3, HEAT2D_WRITER_NETCDF))
        return;
    char seen[1024] = "";
    check(summary_has(dir,
                      "| cpu | plain | netcdf, 80 B/cell | 1.01 ms (3.16) | 0.48 ms (3.00) | "
                      "0.11 ms |\n",
                      "| cpu | plain | netcdf", seen, sizeof seen),
          "the snapshot table's netcdf row and its bounds: got %s", seen);
    check(summary_has(dir,
                      "The snapshot writers' folder, /dev/shm (tmpfs), took files of 0.08 MB at "
                      "1 GB/s",
                      NULL, seen, sizeof seen),
          "the limits name the writers' folder and its rate");
}

/* The snapshot table's copy bound: every record at the pinned D2H rate but
 * the last of a row that reports READBACK_S, which is the read-back into a
 * pageable host array. 1e4 cells of 8 B, 10 steps, pinned 4 GB/s, pageable
 * 1 GB/s. K=2: 4 records at 20 us and one at 80 us, 160 us, 0.016 ms a
 * step, above the 0.011 ms of the run without snapshots: 0.032 ms is 2.00
 * of it (every record pinned, 0.010 ms, would give 2.91). */
static void test_snapshot_link(const char *dir)
{
    const snapshot_run runs[] = {{0, "0.0001", "0.00001", "", ""},
                                 {2, "0.0003", "0.00002", "5", ""}};
    if (!snapshot_summary(dir, "D2H_PAGEABLE_GBS=1\nD2H_PINNED_GBS=4\n", runs, 2,
                          HEAT2D_WRITER_NONE))
        return;
    char seen[1024] = "";
    check(summary_has(dir, "| cpu | plain | none | 0.032 ms (2.00) | 0.011 ms |\n",
                      "| cpu | plain | none", seen, sizeof seen),
          "the snapshot table's copy bound, the last record pageable: got %s", seen);
}

/* A host row over its bound says why, in brackets, and the table's foot
 * says what that means: a probe that had the cores a fraction of the time
 * (busy), or arrays that fit in the cache. 1e4 cells of 8 B, 10 steps in 1
 * ms: 0.1 ms a step against 1.6e5 B at 1 GB/s, 0.16 ms: 160%. */
static void test_host_bound(const char *dir, const char *bandwidth, const char *want_row,
                            const char *want_reason)
{
    const snapshot_run runs[] = {{0, "0.001", "", "", ""}};
    if (!snapshot_summary(dir, bandwidth, runs, 1, HEAT2D_WRITER_NONE))
        return;
    char seen[1024] = "";
    check(summary_has(dir, want_row, "| cpu | 0.1 ms", seen, sizeof seen),
          "the host row over its bound: got %s", seen);
    check(summary_has(dir, want_reason, NULL, seen, sizeof seen), "the reason: '%s'", want_reason);
    check(summary_has(dir,
                      "Against the limits measured in bandwidth.txt (loop: the time loop "
                      "without entering or leaving the device). % of bound is the bound "
                      "per step over the loop's",
                      NULL, seen, sizeof seen),
          "the table says what %% of bound is");
}

/* Every label part in its place: NAME[-pinned][-hK][-pP][-f32][-kK-COPY]
 * [-WRITER]; depth 0 and 1 are one-cell halos, and the writer none, which
 * add nothing. */
static void test_labels(void)
{
    char buf[64];
    const heat2d_option_values every = {[HEAT2D_OPTION_HALO_DEPTH] = 3,
                                        [HEAT2D_OPTION_RANKS] = 4,
                                        [HEAT2D_OPTION_PRECISION] = HEAT2D_F32,
                                        [HEAT2D_OPTION_OUTPUT_EVERY] = 10};
    heat2d_method_label(buf, sizeof buf, "mpi-cpu", every, 0);
    check(strcmp(buf, "mpi-cpu-h3-p4-f32-k10-plain") == 0, "every part: got %s", buf);
    const heat2d_option_values depth1 = {[HEAT2D_OPTION_HALO_DEPTH] = 1, [HEAT2D_OPTION_RANKS] = 2};
    heat2d_method_label(buf, sizeof buf, "mpi-cpu", depth1, 0);
    check(strcmp(buf, "mpi-cpu-p2") == 0, "depth 1 adds nothing: got %s", buf);
    const heat2d_option_values snap = {[HEAT2D_OPTION_PINNED] = 1,
                                       [HEAT2D_OPTION_OUTPUT_EVERY] = 1,
                                       [HEAT2D_OPTION_SNAPSHOT_COPY] = HEAT2D_SNAPSHOT_OVERLAP};
    heat2d_method_label(buf, sizeof buf, "cuda-resident", snap, 0);
    check(strcmp(buf, "cuda-resident-pinned-k1-overlap") == 0, "pinned, snapshots: got %s", buf);
    /* Left out as if plain: the method column keeps -pinned alone; a copy
     * shows only with its K. */
    heat2d_method_label(buf, sizeof buf, "cuda-resident", snap, ~(1u << HEAT2D_OPTION_PINNED));
    check(strcmp(buf, "cuda-resident-pinned") == 0, "pinned alone: got %s", buf);
    heat2d_method_label(buf, sizeof buf, "mpi-cpu", every, 1u << HEAT2D_OPTION_OUTPUT_EVERY);
    check(strcmp(buf, "mpi-cpu-h3-p4-f32") == 0, "without snapshots: got %s", buf);
    heat2d_option_values written = {[HEAT2D_OPTION_OUTPUT_EVERY] = 100,
                                    [HEAT2D_OPTION_SNAPSHOT_COPY] = HEAT2D_SNAPSHOT_OVERLAP,
                                    [HEAT2D_OPTION_SNAPSHOT_WRITER] = HEAT2D_WRITER_NETCDF};
    heat2d_method_label(buf, sizeof buf, "cuda-tb", written, 0);
    check(strcmp(buf, "cuda-tb-k100-overlap-netcdf") == 0, "a writer last: got %s", buf);
    heat2d_method_label(buf, sizeof buf, "cuda-tb", written,
                        1u << HEAT2D_OPTION_OUTPUT_EVERY | 1u << HEAT2D_OPTION_SNAPSHOT_COPY |
                            1u << HEAT2D_OPTION_SNAPSHOT_WRITER);
    check(strcmp(buf, "cuda-tb") == 0, "a writer's family: got %s", buf);
    written[HEAT2D_OPTION_SNAPSHOT_WRITER] = HEAT2D_WRITER_NONE;
    heat2d_method_label(buf, sizeof buf, "cuda-tb", written, 0);
    check(strcmp(buf, "cuda-tb-k100-overlap") == 0, "writer none adds nothing: got %s", buf);
    /* Every row as the plot script needs it: a label part exactly where a
     * column records it, a bench list always labelled; each choice's names
     * read back as themselves. */
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        check((o->column >= HEAT2D_N_FIELDS) == (o->label == NULL), "--%s: label and column",
              o->name);
        check(!o->bench.is_list || o->label != NULL, "--%s: a bench list is labelled", o->name);
        for (size_t v = 0; o->parse == heat2d_option_choice && v < 2; ++v) {
            size_t back = 99;
            o->text(o, v, buf, sizeof buf);
            check(o->parse(o, buf, &back, NULL) == 0 && back == v, "--%s %s reads back as %zu",
                  o->name, buf, back);
        }
    }
}

/* The busy machine: /proc/stat's per-core lines read for the bench's cores
 * alone, and the verdict from two samples, quiet and busy, exactly. */
static void test_load(void)
{
    /* cpu (the sum) is skipped; cpu1 is not among the bench's cores. */
    static const char stat_text[] = "cpu  900 0 300 5000 0 0 0 0 0 0\n"
                                    "cpu0 100 10 40 2000 5 3 2 5 0 0\n"
                                    "cpu1 700 0 200 1000 0 0 0 0 0 0\n"
                                    "cpu2 60 0 20 2000 0 0 0 0\n"
                                    "intr 12345 0 0\nctxt 999\n";
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    CPU_SET(2, &set);
    double busy = 0.0;
    unsigned cores = 0;
    check(bench_load_parse(stat_text, &set, 0.01, &busy, &cores) && cores == 2 &&
              fabs(busy - (160.0 + 80.0) * 0.01) < 1e-12,
          "the bench's cores: user+nice+system+irq+softirq+steal, got %g s on %u", busy, cores);
    check(bench_load_parse(stat_text, NULL, 0.01, &busy, &cores) && cores == 3,
          "every core without a set: got %u", cores);
    CPU_ZERO(&set);
    CPU_SET(5, &set);
    check(!bench_load_parse(stat_text, &set, 0.01, &busy, &cores), "no core of the set: false");

    /* 10 s of 2 cores: the bench used 12 s of CPU, the cores were busy 13 s
     * (quiet: 0.1 of a core) or 30 s (busy: 1.8 cores). */
    const bench_load_sample a = {true, 100.0, 500.0, 40.0, 2};
    const bench_load_sample quiet = {true, 110.0, 513.0, 52.0, 2};
    const bench_load_sample busy_b = {true, 110.0, 530.0, 52.0, 2};
    const bench_load_sample short_b = {true, 100.3, 530.0, 41.0, 2};
    check(fabs(bench_load_other_cores(&a, &quiet) - 0.1) < 1e-9, "quiet: 0.1 core of other work");
    check(fabs(bench_load_other_cores(&a, &busy_b) - 1.8) < 1e-9, "busy: 1.8 cores of other work");
    check(bench_load_other_cores(&a, &short_b) < 0.0, "a span under BENCH_LOAD_MIN_S: not judged");
    static bench_run_info info;
    const bench_size s1 = {64, 64, 10}, s2 = {128, 128, 10};
    bench_load_judge(&info, &s1, &a, &quiet);
    check(info.n_busy == 0 && bench_load_busy_at(&info, &s1) == NULL, "quiet: no busy size");
    bench_load_judge(&info, &s2, &a, &busy_b);
    const bench_busy *b = bench_load_busy_at(&info, &s2);
    check(info.n_busy == 1 && b != NULL && fabs(b->other_cores - 1.8) < 1e-9 && b->cores == 2,
          "busy: the size recorded with 1.8 of 2 cores");
    check(bench_load_busy_at(&info, &s1) == NULL, "the quiet size stays quiet");
}

/* The time budget's note: a target cut names its trials, one that ran
 * every trial without its warm-up says so (never "5 of 5"), and a size
 * where nothing was cut says "No warm-up", not "Fewer trials". */
static void test_budget_note(void)
{
    bench_target targets[3] = {{.label = "cpu"}, {.label = "omp"}, {.label = "cuda-each"}};
    bench_run_info info = {.targets = targets, .n_targets = 3, .repeats = 5, .budget_s = 20};
    const bench_size s = {2048, 2048, 500};
    target_at_size at[3] = {{.cut = true, .no_warmup = true, .trials = 1},
                            {.cut = true, .trials = 2},
                            {.no_warmup = true, .trials = 5}};
    char note[700];
    bench_budget_note(&info, at, &s, note, sizeof note);
    check(strcmp(note, "Fewer trials at 2048x2048/500, where a method's runs would take more than "
                       "the 20 s budget a method and size: cpu 1 of 5 (no warm-up), omp 2 of 5, "
                       "cuda-each all 5, no warm-up. Every trial: heat2d bench --full.") == 0,
          "the budget's note, cut and warm-up alone: got '%s'", note);
    at[0] = at[1] = (target_at_size){.trials = 5};
    bench_budget_note(&info, at, &s, note, sizeof note);
    check(strcmp(note, "No warm-up at 2048x2048/500, where a method's runs would take more than "
                       "the 20 s budget a method and size: cuda-each all 5, no warm-up. Every "
                       "trial: heat2d bench --full.") == 0,
          "the budget's note, the warm-up alone: got '%s'", note);
    at[2] = (target_at_size){.trials = 5};
    bench_budget_note(&info, at, &s, note, sizeof note);
    check(note[0] == '\0', "the budget took nothing: no note ('%s')", note);
}

/* The sizes the default ladder adds for the GPU: the GPU methods this
 * build runs on the host sit them out, and only them, and only there. */
static void test_host_stand_ins(void)
{
    bench_target targets[3] = {{.label = "cpu"}, {.label = "acc-each"}, {.label = "cuda-each"}};
    targets[1].host_stand_in = true;
    const bench_size sizes[5] = {
        {128, 128, 50}, {512, 512, 200}, {1024, 1024, 300}, {2048, 2048, 500}, {8192, 8192, 500}};
    bench_run_info info = {
        .targets = targets, .n_targets = 3, .sizes = sizes, .n_sizes = 5, .gpu_sizes_from = 4};
    char list[64];
    check(bench_host_stand_ins_at(&info, 3, list, sizeof list) == 0 && list[0] == '\0',
          "the article's sizes: every method runs");
    check(bench_host_stand_ins_at(&info, 4, list, sizeof list) == 1 &&
              strcmp(list, "acc-each") == 0,
          "the GPU's size: the stand-in sits out, the others run ('%s')", list);
    targets[2].host_stand_in = true;
    check(bench_host_stand_ins_at(&info, 4, list, sizeof list) == 2 &&
              strcmp(list, "acc-each, cuda-each") == 0,
          "two stand-ins, both named ('%s')", list);
    info.gpu_sizes_from = SIZE_MAX; /* --sizes given, or no GPU */
    check(bench_host_stand_ins_at(&info, 4, list, sizeof list) == 0,
          "sizes asked for by name: every method runs");
}

/* The notes' list is bounded, but never at a failure's cost: past its
 * places a failure takes the newest other note's, and every note that
 * found no place is counted for the summary. */
static void test_notes_bound(void)
{
    static bench_run_info info;
    for (int k = 0; k < BENCH_MAX_NOTES + 5; ++k)
        bench_add_note(&info, "note %d", k);
    bench_add_note(&info, "FAILED: cuda-each at 64x64/5: it died");
    check(info.n_notes == BENCH_MAX_NOTES, "the list holds %d notes, got %zu", BENCH_MAX_NOTES,
          info.n_notes);
    check(info.n_notes_dropped == 6, "6 notes found no place, got %zu", info.n_notes_dropped);
    check(bench_note_is_failure(info.notes[BENCH_MAX_NOTES - 1]),
          "the failure took the newest note's place: got '%s'", info.notes[BENCH_MAX_NOTES - 1]);
    check(strcmp(info.notes[0], "note 0") == 0, "the first note kept: got '%s'", info.notes[0]);
}

int main(void)
{
    char base[] = "/tmp/heat2d-test-bench-XXXXXX";
    if (mkdtemp(base) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    const char *subs[] = {"csv",  "torn", "headers", "arith", "memory", "ledger",
                          "snap", "link", "busy",    "cache", "both"};
    char dirs[11][sizeof base + 16];
    for (size_t k = 0; k < 11; ++k) {
        snprintf(dirs[k], sizeof dirs[k], "%s/%s", base, subs[k]);
        if (mkdir(dirs[k], 0700) != 0) {
            perror(dirs[k]);
            return 1;
        }
    }
    test_median_and_ratios();
    test_labels();
    test_load();
    test_host_stand_ins();
    test_notes_bound();
    test_budget_note();
    test_csv_round_trip(dirs[0]);
    test_torn_row(dirs[1]);
    test_parse_buffer(dirs[0]);
    test_quoted_line_break(dirs[0], dirs[1]);
    test_other_headers(dirs[2]);
    test_ledger(dirs[5]);
    test_snapshot_bound(dirs[6]);
    test_snapshot_link(dirs[7]);
    test_host_bound(dirs[8], "HOST_COPY_GBS=1\nHOST_COPY_CPU_SHARE=0.3\nHOST_CACHE_BYTES=1000\n",
                    "| cpu | 0.1 ms | 0.10 | host memory, 16 B/cell, measured on a busy machine | "
                    "0.16 ms | 160% (busy probe) |\n",
                    "- busy probe: the host's bandwidth was measured while other work held its "
                    "cores (the probe's threads were on a CPU 30% of the time)");
    test_host_bound(
        dirs[9], "HOST_COPY_GBS=1\nHOST_COPY_CPU_SHARE=0.95\nHOST_CACHE_BYTES=1000000\n",
        "| cpu | 0.1 ms | 0.10 | host memory, 16 B/cell | 0.16 ms | 160% (in cache) |\n",
        "- in cache: both arrays fit in the host's last-level cache (1 MB)");
    test_host_bound(dirs[10],
                    "HOST_COPY_GBS=1\nHOST_COPY_CPU_SHARE=0.5\nHOST_CACHE_BYTES=1000000\n",
                    "| cpu | 0.1 ms | 0.10 | host memory, 16 B/cell, measured on a busy machine | "
                    "0.16 ms | 160% (in cache, busy probe) |\n",
                    "- busy probe: the host's bandwidth was measured while other work held its "
                    "cores (the probe's threads were on a CPU 50% of the time)");
    /* 1e4 cells, 7 instructions at 1 TFLOP/s (5e11 instructions/s): 1.4e-4
     * ms a step, half the loop's 2.8e-4 ms; memory 1.6e-5 ms at 10 TB/s. */
    test_limits(dirs[3], "DEVICE_COPY_GBS=10000\nFP64_FMA_TFLOPS=1\n", "1", "7",
                "0.00028 ms | 35.7 | FP64 arithmetic, 7 instructions/cell | "
                "0.00014 ms | 50% |");
    /* A 7-step pass at 1 GB/s: 1.6e-4 s / 7 = 2.286e-5 s = 0.02286 ms; the
     * arithmetic (5 instructions at 1000 TFLOP/s) is far below. */
    test_limits(dirs[4], "DEVICE_COPY_GBS=1\nFP64_FMA_TFLOPS=1000\n", "7", "5",
                "0.00028 ms | 35.7 | device memory, 16 B/cell a 7-step pass | "
                "0.02286 ms | 8163% (over the probe) |");
    if (nftw(base, remove_entry, 8, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "could not remove %s\n", base);
    return unit_finish("test_bench_lib");
}
