/* heat2d bench: what the summary's tables share: rows grouped into cells,
 * medians, ratios and the short texts of the tables. */
#include "summary_tables.h"

#include <stdlib.h>
#include <string.h>

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

bool summary_same_size(const bench_size *a, const bench_size *b)
{
    return a->nx == b->nx && a->ny == b->ny && a->steps == b->steps;
}

/* The median as Python's statistics.median: the mean of the middle two for
 * an even count. */
double summary_median(const double *sorted, size_t n)
{
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

/* Family of a label: "acc" for acc-each, "cuda" for cuda-each-pinned. */
static size_t family_len(const char *label)
{
    return strcspn(label, "-");
}

bool summary_same_family(const char *a, const char *b)
{
    size_t n = family_len(a);
    return n == family_len(b) && strncmp(a, b, n) == 0;
}

bool summary_on_host(const char *device)
{
    return strncmp(device, "host", 4) == 0;
}

void summary_bytes_text(unsigned long long bytes, char *buf, size_t size)
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

void summary_transfer_text(const cell *c, bool h2d, char *buf, size_t size)
{
    unsigned long long count = h2d ? c->last->h2d_count : c->last->d2h_count;
    unsigned long long bytes = h2d ? c->last->h2d_bytes : c->last->d2h_bytes;
    /* A program's copies are known where they were traced: "none" is a
     * program that never called CUDA, "not traced" one on a machine
     * without a GPU, "not recorded" one with a CUDA process that left no
     * count (its device column says which). */
    if (c->last->program && strcmp(c->last->transfers, "measured") != 0) {
        const bool none = strcmp(c->last->transfers, "none") == 0;
        const bool unrecorded = strcmp(c->last->transfers, "not recorded") == 0;
        snprintf(buf, size, "%s",
                 none         ? "none (no CUDA)"
                 : unrecorded ? "not recorded"
                              : "not measured");
        return;
    }
    const bool modelled = strcmp(c->last->transfers, "model") == 0;
    if (c->style_known && c->style != HEAT2D_STYLE_HOST &&
        strcmp(c->last->transfers, "measured") != 0 && !modelled) {
        snprintf(buf, size, "not measured");
        return;
    }
    if (modelled) {
        /* Where nothing could count them: the model's, said so. */
        snprintf(buf, size, "%llu (model, not measured)", count);
        return;
    }
    if (count == 0 && bytes == 0) {
        snprintf(buf, size, "0");
        return;
    }
    char human[32];
    summary_bytes_text(bytes, human, sizeof human);
    snprintf(buf, size, "%llu (%s)%s", count, human, c->transfers_vary ? " varies" : "");
}

const cell *summary_find_cell(const size_group *g, const char *label)
{
    for (size_t k = 0; k < g->n_cells; ++k)
        if (strcmp(g->cells[k].label, label) == 0)
            return &g->cells[k];
    return NULL;
}

/* Three significant digits, never "0.00" (a 1000x slower method is 0.001)
 * and never an exponent for a big number. */
void summary_ratio_text(double ratio, char *buf, size_t size)
{
    if (ratio >= 1000.0)
        snprintf(buf, size, "%.0f", ratio);
    else if (ratio >= 10.0 || ratio < 0.1)
        snprintf(buf, size, "%.3g", ratio);
    else
        snprintf(buf, size, "%.2f", ratio);
}

void summary_speedup_text(const cell *base, const cell *c, char *buf, size_t size)
{
    if (base == NULL)
        snprintf(buf, size, "no cpu run");
    else
        summary_ratio_text(summary_median(base->totals, base->n) / summary_median(c->totals, c->n),
                           buf, size);
}

int summary_group_rows(const trial_row *rows, size_t n_rows, summary_groups *out, heat2d_error *err)
{
    memset(out, 0, sizeof *out);
    /* Group rows by size, then by method in order of first appearance. */
    size_group *groups = calloc(n_rows ? n_rows : 1, sizeof *groups);
    cell *cells = calloc(n_rows ? n_rows : 1, sizeof *cells);
    double *totals = calloc(n_rows ? n_rows : 1, sizeof *totals);
    double *loops = calloc(n_rows ? n_rows : 1, sizeof *loops);
    double *throughs = calloc(n_rows ? n_rows : 1, sizeof *throughs);
    if (groups == NULL || cells == NULL || totals == NULL || loops == NULL || throughs == NULL) {
        free(throughs);
        free(loops);
        free(groups);
        free(cells);
        free(totals);
        return heat2d_fail(err, "out of memory summarising trials.csv");
    }
    size_t n_groups = 0;
    for (size_t r = 0; r < n_rows; ++r) {
        size_t g = 0;
        while (g < n_groups && !summary_same_size(&groups[g].size, &rows[r].size))
            g++;
        if (g == n_groups)
            groups[n_groups++].size = rows[r].size;
    }
    qsort(groups, n_groups, sizeof *groups, cmp_size);
    size_t used_cells = 0, used_totals = 0;
    for (size_t g = 0; g < n_groups; ++g) {
        groups[g].cells = cells + used_cells;
        for (size_t r = 0; r < n_rows; ++r) {
            if (!summary_same_size(&groups[g].size, &rows[r].size))
                continue;
            size_t c = 0;
            while (c < groups[g].n_cells && strcmp(groups[g].cells[c].label, rows[r].label) != 0)
                c++;
            if (c == groups[g].n_cells) {
                cell *fresh = &groups[g].cells[groups[g].n_cells++];
                used_cells++;
                fresh->label = rows[r].label;
                const heat2d_method *m =
                    rows[r].program ? NULL : heat2d_label_method(rows[r].method, NULL);
                fresh->style_known = m != NULL || rows[r].program_style_known;
                fresh->style = m != NULL ? m->style : rows[r].program_style;
                fresh->overlaps_copies = m != NULL && m->overlaps_copies;
                /* Its totals are contiguous: count them first. */
                size_t count = 0;
                for (size_t q = r; q < n_rows; ++q)
                    count += summary_same_size(&groups[g].size, &rows[q].size) &&
                             strcmp(rows[q].label, rows[r].label) == 0;
                fresh->totals = totals + used_totals;
                fresh->loops = loops + used_totals;
                fresh->throughs = throughs + used_totals;
                used_totals += count;
            }
            cell *ce = &groups[g].cells[c];
            if (ce->last != NULL && (ce->last->h2d_count != rows[r].h2d_count ||
                                     ce->last->h2d_bytes != rows[r].h2d_bytes ||
                                     ce->last->d2h_count != rows[r].d2h_count ||
                                     ce->last->d2h_bytes != rows[r].d2h_bytes))
                ce->transfers_vary = true;
            ce->totals[ce->n++] = rows[r].total_s;
            ce->phase_sum[0] += rows[r].phase_upload_s;
            ce->phase_sum[1] += rows[r].phase_loop_s;
            ce->phase_sum[2] += rows[r].phase_readback_s;
            ce->phase_sum[3] += rows[r].phase_other_s;
            if (rows[r].loop_s >= 0.0)
                ce->loops[ce->n_loops++] = rows[r].loop_s;
            /* The loop and the read-back: with snapshots, the read-back is
             * the last of them. */
            if (rows[r].loop_s >= 0.0)
                ce->throughs[ce->n_throughs++] =
                    rows[r].loop_s + (rows[r].readback_s > 0.0 ? rows[r].readback_s : 0.0);
            ce->last = &rows[r];
            ce->device = rows[r].device;
        }
        for (size_t c = 0; c < groups[g].n_cells; ++c) {
            qsort(groups[g].cells[c].totals, groups[g].cells[c].n, sizeof(double), cmp_double);
            qsort(groups[g].cells[c].loops, groups[g].cells[c].n_loops, sizeof(double), cmp_double);
            qsort(groups[g].cells[c].throughs, groups[g].cells[c].n_throughs, sizeof(double),
                  cmp_double);
        }
    }
    size_t n_runs = 0;
    for (size_t r = 0; r < n_rows; ++r) {
        bool seen = false;
        for (size_t q = 0; q < r && !seen; ++q)
            seen = strcmp(rows[q].run, rows[r].run) == 0;
        n_runs += !seen;
    }

    *out = (summary_groups){.groups = groups,
                            .n_groups = n_groups,
                            .cells = cells,
                            .totals = totals,
                            .loops = loops,
                            .throughs = throughs,
                            .n_runs = n_runs};
    return 0;
}

void summary_groups_free(summary_groups *s)
{
    free(s->groups);
    free(s->cells);
    free(s->totals);
    free(s->loops);
    free(s->throughs);
    memset(s, 0, sizeof *s);
}
