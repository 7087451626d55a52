/* heat2d bench: trials.csv's rows appended and read back, its columns those
 * of the trial schema (trials_ledger.c opens it). */
#define _GNU_SOURCE
#include "file_replace.h"
#include "trials_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A field as RFC 4180 has it: quoted where it holds a comma, a quote or a
 * line break, its quotes doubled, its line breaks kept (a path may hold
 * one), which every CSV reader reads back as they were. */
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
        fputc(*p, f);
    }
    fputc('"', f);
}

int bench_csv_append(FILE *csv, const bench_run_info *info, const bench_target *target,
                     size_t trial, const bench_size *size, const heat2d_trial_values *res,
                     double process_s, heat2d_error *err)
{
    /* The bench's own fields; the child's as it printed them. A run under
     * mpirun keeps its method's name and a precision its name without -f32:
     * the ranks and precision columns tell those apart. */
    heat2d_trial_values row = *res;
    if (target->kind == BENCH_PROGRAM) {
        snprintf(row.value[HEAT2D_FIELD_METHOD], sizeof row.value[0], "%s", target->program->name);
        /* A path longer than the column keeps its end, the program's name. */
        const char *path = target->program->path;
        const size_t len = strlen(path), room = sizeof row.value[0] - 1;
        if (len > room)
            snprintf(row.value[HEAT2D_FIELD_PROGRAM], sizeof row.value[0], "...%s",
                     path + len - (room - 3));
        else
            memcpy(row.value[HEAT2D_FIELD_PROGRAM], path, len + 1);
    } else {
        heat2d_method_label(row.value[HEAT2D_FIELD_METHOD], sizeof row.value[0],
                            target->method->name, target->value, ~(1u << HEAT2D_OPTION_PINNED));
    }
    snprintf(row.value[HEAT2D_FIELD_TRIAL], sizeof row.value[0], "%zu", trial);
    snprintf(row.value[HEAT2D_FIELD_NX], sizeof row.value[0], "%zu", size->nx);
    snprintf(row.value[HEAT2D_FIELD_NY], sizeof row.value[0], "%zu", size->ny);
    snprintf(row.value[HEAT2D_FIELD_STEPS], sizeof row.value[0], "%zu", size->steps);
    snprintf(row.value[HEAT2D_FIELD_PROCESS_S], sizeof row.value[0], "%.9f", process_s);
    snprintf(row.value[HEAT2D_FIELD_RUN], sizeof row.value[0], "%s", info->run_id);
    snprintf(row.value[HEAT2D_FIELD_LABEL], sizeof row.value[0], "%s", target->label);
    /* The row is made whole in memory, then handed to the ledger in one
     * write that a full disk cuts back off (trials_ledger.c). */
    char *text = NULL;
    size_t len = 0;
    FILE *line = open_memstream(&text, &len);
    if (line == NULL)
        return heat2d_fail(err, "cannot write %s/trials.csv: out of memory", info->dir);
    bool first = true;
    for (size_t k = 0; k < HEAT2D_N_FIELDS; ++k) {
        if (heat2d_trial_fields[k].column == NULL)
            continue;
        if (!first)
            fputc(',', line);
        first = false;
        csv_field(line, row.value[k]);
    }
    fputc('\n', line);
    if (fclose(line) != 0) {
        free(text);
        return heat2d_fail(err, "cannot write %s/trials.csv: out of memory", info->dir);
    }
    int rc = bench_ledger_append(csv, info->dir, text, len, err);
    free(text);
    return rc;
}

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

/* Where each schema field stands in the file's header, -1 where it is
 * missing (a folder of an older heat2d, read for its summary). */
static void map_columns(char *header, int position[HEAT2D_N_FIELDS])
{
    char *fields[HEAT2D_N_FIELDS + 64];
    const size_t max = sizeof fields / sizeof fields[0];
    size_t nf = split_csv(header, fields, max);
    if (nf > max)
        nf = max;
    for (size_t k = 0; k < HEAT2D_N_FIELDS; ++k) {
        position[k] = -1;
        for (size_t c = 0; c < nf && heat2d_trial_fields[k].column != NULL; ++c)
            if (strcmp(fields[c], heat2d_trial_fields[k].column) == 0)
                position[k] = (int)c;
    }
}

/* A row's text for a field, "" where its column is missing. */
static const char *field_of(char **fields, const int position[HEAT2D_N_FIELDS], heat2d_field_id id)
{
    return position[id] >= 0 ? fields[position[id]] : "";
}

/* A field as a number, negative when it is absent. */
static double seconds_of(char **fields, const int pos[HEAT2D_N_FIELDS], heat2d_field_id id)
{
    const char *text = field_of(fields, pos, id);
    return text[0] != '\0' ? strtod(text, NULL) : -1.0;
}

/* Where a row's TOTAL_S went (trial_row's phase_*), from its phases. */
static void split_phases(char **fields, const int pos[HEAT2D_N_FIELDS], trial_row *r)
{
    const double enter = seconds_of(fields, pos, HEAT2D_FIELD_ENTER_S);
    const double readback = seconds_of(fields, pos, HEAT2D_FIELD_READBACK_S);
    const double regions = seconds_of(fields, pos, HEAT2D_FIELD_STEP_REGIONS_S);
    const double h2d = seconds_of(fields, pos, HEAT2D_FIELD_H2D_S);
    const double d2h = seconds_of(fields, pos, HEAT2D_FIELD_D2H_S);
    double up = 0.0, loop = r->loop_s > 0.0 ? r->loop_s : 0.0, back = 0.0;
    if (regions >= 0.0) {
        /* Per step: the copies are inside the loop. */
        up = h2d > 0.0 ? h2d : 0.0;
        back = d2h > 0.0 ? d2h : 0.0;
        loop = regions - up - back > 0.0 ? regions - up - back : 0.0;
    } else {
        up = enter > 0.0 ? enter : 0.0;
        back = readback > 0.0 ? readback : 0.0;
    }
    const double other = r->total_s - up - loop - back;
    r->phase_upload_s = up;
    r->phase_loop_s = loop;
    r->phase_readback_s = back;
    r->phase_other_s = other > 0.0 ? other : 0.0;
}

/* A program's style from the phases its row holds (trial_row). */
static void program_style(char **fields, const int pos[HEAT2D_N_FIELDS], trial_row *r)
{
    static const struct {
        heat2d_field_id phase;
        heat2d_style style;
    } phases[] = {{HEAT2D_FIELD_STEP_REGIONS_S, HEAT2D_STYLE_EACH},
                  {HEAT2D_FIELD_ENTER_S, HEAT2D_STYLE_RESIDENT},
                  {HEAT2D_FIELD_GPU_LOOP_S, HEAT2D_STYLE_RESIDENT},
                  {HEAT2D_FIELD_CPU_LOOP_S, HEAT2D_STYLE_HOST}};
    r->program = field_of(fields, pos, HEAT2D_FIELD_PROGRAM)[0] != '\0';
    for (size_t k = 0; r->program && k < sizeof phases / sizeof phases[0]; ++k)
        if (field_of(fields, pos, phases[k].phase)[0] != '\0') {
            r->program_style_known = true;
            r->program_style = phases[k].style;
            return;
        }
}

/* One complete row into r; false for a row that an interrupted write cut
 * short (or a TOTAL_S no run of ours reports: not finite, negative), which
 * is left out rather than trusted. */
static bool parse_row(char **fields, const int pos[HEAT2D_N_FIELDS], trial_row *r)
{
    memset(r, 0, sizeof *r);
    char *end = NULL;
    const char *total = field_of(fields, pos, HEAT2D_FIELD_TOTAL_S);
    if (heat2d_parse_size(field_of(fields, pos, HEAT2D_FIELD_NX), "nx", &r->size.nx, NULL) != 0 ||
        heat2d_parse_size(field_of(fields, pos, HEAT2D_FIELD_NY), "ny", &r->size.ny, NULL) != 0 ||
        heat2d_parse_size(field_of(fields, pos, HEAT2D_FIELD_STEPS), "steps", &r->size.steps,
                          NULL) != 0 ||
        total[0] == '\0' || (r->total_s = strtod(total, &end), *end != '\0') ||
        !isfinite(r->total_s) || r->total_s < 0.0)
        return false;
    snprintf(r->method, sizeof r->method, "%s", field_of(fields, pos, HEAT2D_FIELD_METHOD));
    r->ranks = (size_t)to_count(field_of(fields, pos, HEAT2D_FIELD_RANKS));
    snprintf(r->decomp, sizeof r->decomp, "%s", field_of(fields, pos, HEAT2D_FIELD_DECOMP));
    r->halo_bytes = to_count(field_of(fields, pos, HEAT2D_FIELD_HALO_BYTES_PER_STEP));
    /* The run options the row's columns record, plain where blank; its
     * method column holds NAME[-pinned] already. */
    heat2d_option_values values = {0};
    for (size_t k = 0; k < HEAT2D_N_OPTIONS; ++k) {
        const heat2d_option_def *o = &heat2d_run_options[k];
        const bool own = o->column != HEAT2D_FIELD_METHOD && o->column < HEAT2D_N_FIELDS;
        const char *text = own ? field_of(fields, pos, o->column) : "";
        if (text[0] != '\0' && o->parse(o, text, &values[k], NULL) != 0)
            values[k] = 0;
    }
    const heat2d_precision precision = (heat2d_precision)values[HEAT2D_OPTION_PRECISION];
    r->cell_bytes = heat2d_precision_bytes(precision);
    r->halo_depth = values[HEAT2D_OPTION_HALO_DEPTH];
    r->output_every = values[HEAT2D_OPTION_OUTPUT_EVERY];
    snprintf(r->snapshot_copy, sizeof r->snapshot_copy, "%s",
             field_of(fields, pos, HEAT2D_FIELD_SNAPSHOT_COPY));
    /* A folder from before the writer column wrote no snapshot. */
    const char *writer = field_of(fields, pos, HEAT2D_FIELD_SNAPSHOT_WRITER);
    snprintf(r->snapshot_writer, sizeof r->snapshot_writer, "%s",
             writer[0] != '\0' ? writer : heat2d_snapshot_writer_name(HEAT2D_WRITER_NONE));
    r->snapshots = to_count(field_of(fields, pos, HEAT2D_FIELD_SNAPSHOTS));
    r->snapshot_bytes = to_count(field_of(fields, pos, HEAT2D_FIELD_SNAPSHOT_BYTES_WRITTEN));
    const unsigned snapshots = 1u << HEAT2D_OPTION_OUTPUT_EVERY |
                               1u << HEAT2D_OPTION_SNAPSHOT_COPY |
                               1u << HEAT2D_OPTION_SNAPSHOT_WRITER;
    heat2d_method_label(r->base, sizeof r->base, r->method, values,
                        snapshots | 1u << HEAT2D_OPTION_RANKS);
    heat2d_method_label(r->family, sizeof r->family, r->method, values, snapshots);
    const char *label = field_of(fields, pos, HEAT2D_FIELD_LABEL);
    if (label[0] != '\0')
        snprintf(r->label, sizeof r->label, "%s", label);
    else /* a folder from before the label column (and before deep halos) */
        heat2d_method_label(r->label, sizeof r->label, r->method, values,
                            snapshots | 1u << HEAT2D_OPTION_HALO_DEPTH);
    snprintf(r->device, sizeof r->device, "%s", field_of(fields, pos, HEAT2D_FIELD_DEVICE));
    snprintf(r->transfers, sizeof r->transfers, "%s",
             field_of(fields, pos, HEAT2D_FIELD_TRANSFERS));
    snprintf(r->run, sizeof r->run, "%s", field_of(fields, pos, HEAT2D_FIELD_RUN));
    const char *readback = field_of(fields, pos, HEAT2D_FIELD_READBACK_S);
    r->readback_s = readback[0] != '\0' ? strtod(readback, NULL) : -1.0;
    r->loop_s = -1.0;
    static const heat2d_field_id loop_fields[] = {HEAT2D_FIELD_DEVICE_LOOP_S,
                                                  HEAT2D_FIELD_GPU_LOOP_S, HEAT2D_FIELD_CPU_LOOP_S,
                                                  HEAT2D_FIELD_STEP_REGIONS_S};
    for (size_t k = 0; k < sizeof loop_fields / sizeof loop_fields[0]; ++k) {
        const char *text = field_of(fields, pos, loop_fields[k]);
        if (text[0] != '\0') {
            r->loop_s = strtod(text, NULL);
            break;
        }
    }
    split_phases(fields, pos, r);
    program_style(fields, pos, r);
    r->h2d_count = to_count(field_of(fields, pos, HEAT2D_FIELD_H2D_COUNT));
    r->h2d_bytes = to_count(field_of(fields, pos, HEAT2D_FIELD_H2D_BYTES));
    r->d2h_count = to_count(field_of(fields, pos, HEAT2D_FIELD_D2H_COUNT));
    r->d2h_bytes = to_count(field_of(fields, pos, HEAT2D_FIELD_D2H_BYTES));
    r->pass_steps = (unsigned)to_count(field_of(fields, pos, HEAT2D_FIELD_PASS_STEPS));
    r->fp_ops_per_cell = (unsigned)to_count(field_of(fields, pos, HEAT2D_FIELD_FP_OPS_PER_CELL));
    return true;
}

/* Appends r to *rows; -1 when out of memory. */
static int keep_row(trial_row **rows, size_t *n, size_t *cap, const trial_row *r)
{
    if (*n == *cap) {
        size_t bigger = *cap ? 2 * *cap : 64;
        trial_row *grown = realloc(*rows, bigger * sizeof **rows);
        if (grown == NULL)
            return -1;
        *rows = grown;
        *cap = bigger;
    }
    (*rows)[(*n)++] = *r;
    return 0;
}

/* The end of the record that starts at line: its first line break outside
 * quotes (each quote, a doubled one too, flips whether the text is quoted);
 * NULL when it has none. */
static char *record_end(char *line, size_t n)
{
    bool quoted = false;
    for (size_t k = 0; k < n; ++k) {
        if (line[k] == '"')
            quoted = !quoted;
        else if (line[k] == '\n' && !quoted)
            return line + k;
    }
    return NULL;
}

int bench_parse_trials(const char *name, const char *data, size_t size, trial_row **rows_out,
                       size_t *n_out, size_t *skipped, heat2d_error *err)
{
    *rows_out = NULL;
    *n_out = 0;
    *skipped = 0;
    /* A copy to cut into NUL-terminated lines in place. */
    char *text = malloc(size + 1);
    if (text == NULL)
        return heat2d_fail(err, "out of memory reading %s", name);
    if (size > 0)
        memcpy(text, data, size);
    text[size] = '\0';
    trial_row *rows = NULL;
    size_t n = 0, cap = 0, header_fields = 0;
    int position[HEAT2D_N_FIELDS];
    bool first = true;
    for (size_t begin = 0; begin < size;) {
        char *line = text + begin;
        char *eol = first ? memchr(line, '\n', size - begin) : record_end(line, size - begin);
        const size_t len = eol != NULL ? (size_t)(eol - line) : size - begin;
        begin += len + 1;
        /* A record without its newline, or with a NUL in it, is a write cut
         * short or not text we wrote: left out rather than trusted. The
         * header alone is read either way (it holds no numbers). */
        const bool whole = eol != NULL && memchr(line, '\0', len) == NULL;
        line[len] = '\0';
        if (first)
            line[strcspn(line, "\r")] = '\0';
        else if (len > 0 && line[len - 1] == '\r')
            line[len - 1] = '\0'; /* a CRLF file's */
        if (first) {
            first = false;
            header_fields = 1;
            for (const char *p = line; *p != '\0'; ++p)
                header_fields += *p == ',';
            map_columns(line, position);
            continue;
        }
        char *fields[HEAT2D_N_FIELDS + 64];
        const size_t max = sizeof fields / sizeof fields[0];
        trial_row r;
        if (!whole || split_csv(line, fields, max) != header_fields ||
            !parse_row(fields, position, &r)) {
            (*skipped)++;
            continue;
        }
        if (keep_row(&rows, &n, &cap, &r) != 0) {
            free(rows);
            free(text);
            *skipped = 0;
            return heat2d_fail(err, "out of memory reading %s", name);
        }
    }
    free(text);
    *rows_out = rows;
    *n_out = n;
    return 0;
}

int bench_read_trials(const char *dir, trial_row **rows_out, size_t *n_out, size_t *skipped,
                      heat2d_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trials.csv", dir);
    /* A FIFO put in its place would hang the read. */
    if (heat2d_file_check_regular(path, err) != 0)
        return -1;
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return heat2d_fail(err, "cannot read %s: %s", path, strerror(errno));
    /* Read whole, but no more than BENCH_TRIALS_MAX_BYTES (one byte past it
     * says the file is bigger: its size is not trusted, it may grow). */
    size_t cap = 64 * 1024, size = 0;
    char *data = malloc(cap);
    bool bad = data == NULL;
    while (!bad && size <= BENCH_TRIALS_MAX_BYTES) {
        if (size == cap) {
            char *grown = realloc(data, 2 * cap);
            if (grown == NULL) {
                bad = true;
                break;
            }
            data = grown;
            cap *= 2;
        }
        size_t want = cap - size;
        if (want > BENCH_TRIALS_MAX_BYTES + 1 - size)
            want = BENCH_TRIALS_MAX_BYTES + 1 - size;
        size_t got = fread(data + size, 1, want, f);
        size += got;
        if (got < want)
            break;
    }
    const bool unreadable = ferror(f) != 0;
    fclose(f);
    int rc;
    if (bad)
        rc = heat2d_fail(err, "out of memory reading %s", path);
    else if (unreadable)
        rc = heat2d_fail(err, "cannot read %s", path);
    else if (size > BENCH_TRIALS_MAX_BYTES)
        rc = heat2d_fail(err, "%s is over %d MiB, more than a summary reads; choose another --out",
                         path, BENCH_TRIALS_MAX_BYTES >> 20);
    else
        rc = bench_parse_trials(path, data, size, rows_out, n_out, skipped, err);
    free(data);
    return rc;
}
