/* heat2d bench: the realistic middle between the article's two extremes.
 * A method run with a snapshot every K steps (bench --output-every), each
 * copy and writer (--snapshot-writer) a row, against K, beside the same
 * method without snapshots, each set against the bound max(its loop
 * without snapshots, the snapshots' bytes over the link, the bytes written
 * inside the measured time at the writers' folder's rate). */
#include "summary_tables.h"

#include <stdlib.h>
#include <string.h>

enum { kMaxColumns = 16 };

/* The distinct K of the group's cells, ascending. */
static size_t group_ks(const size_group *g, size_t *ks)
{
    size_t n = 0;
    for (size_t c = 0; c < g->n_cells; ++c) {
        const size_t k = g->cells[c].last->output_every;
        bool seen = k == 0;
        for (size_t q = 0; q < n && !seen; ++q)
            seen = ks[q] == k;
        if (!seen && n < kMaxColumns)
            ks[n++] = k;
    }
    for (size_t a = 1; a < n; ++a) /* insertion sort: a few columns */
        for (size_t b = a; b > 0 && ks[b - 1] > ks[b]; --b) {
            const size_t t = ks[b];
            ks[b] = ks[b - 1];
            ks[b - 1] = t;
        }
    return n;
}

/* The cell of family (a label without -kK-COPY-WRITER) at K in copy with
 * writer, or at K 0 (the run without snapshots). */
static const cell *find_variant(const size_group *g, const char *family, size_t k,
                                const trial_row *like)
{
    for (size_t c = 0; c < g->n_cells; ++c) {
        const trial_row *r = g->cells[c].last;
        if (strcmp(r->family, family) == 0 && r->output_every == k &&
            (k == 0 || (strcmp(r->snapshot_copy, like->snapshot_copy) == 0 &&
                        strcmp(r->snapshot_writer, like->snapshot_writer) == 0)) &&
            g->cells[c].n_throughs > 0)
            return &g->cells[c];
    }
    return NULL;
}

/* Whether row r wrote its snapshots (a writer other than none). */
static bool writes(const trial_row *r)
{
    return strcmp(r->snapshot_writer, heat2d_snapshot_writer_name(HEAT2D_WRITER_NONE)) != 0;
}

/* Of a row's records, those written inside its loop and read-back, the
 * time the table measures: a method that reports READBACK_S hands the last
 * over after it; one without (cpu, omp) hands over every one inside its loop; a
 * distributed method's loop leaves its snapshots out. */
static double records_timed(const trial_row *r, double records)
{
    if (r->ranks > 0)
        return 0.0;
    return r->readback_s >= 0.0 && records > 0.0 ? records - 1.0 : records;
}

/* The bytes a row's files hold per record, 0 when not reported. */
static double record_bytes(const trial_row *r)
{
    return r->snapshots > 0 ? (double)r->snapshot_bytes / (double)r->snapshots : 0.0;
}

/* Seconds of a row's snapshot copies at the link: each at the pinned D2H
 * rate, but for a method that reports READBACK_S the last, which is the
 * read-back into the run's own host array: at the pageable rate unless the
 * row is a -pinned twin. 0 where a rate was not measured. */
static double copy_seconds(const trial_row *r, double records, double bytes, const limits *lim)
{
    bool pinned = false;
    heat2d_label_method(r->method, &pinned);
    const double last = r->readback_s >= 0.0 && records > 0.0 ? 1.0 : 0.0;
    const double last_rate = lim->d2h_gbs[pinned ? 1 : 0];
    if (lim->d2h_gbs[1] <= 0.0 || (last > 0.0 && last_rate <= 0.0))
        return 0.0;
    return (records - last) * bytes / (lim->d2h_gbs[1] * 1e9) +
           (last > 0.0 ? bytes / (last_rate * 1e9) : 0.0);
}

static double per_step(const cell *c, size_t steps)
{
    return summary_median(c->throughs, c->n_throughs) / (double)steps;
}

void summary_emit_snapshots(FILE *f, const size_group *g, const limits *lim)
{
    size_t ks[kMaxColumns];
    const size_t n_ks = group_ks(g, ks);
    if (n_ks == 0)
        return;
    const bench_size *s = &g->size;
    const double link = lim->d2h_gbs[1], disk = lim->scratch_write_gbs;
    bool any_writer = false;
    for (size_t c = 0; c < g->n_cells; ++c)
        any_writer = any_writer || (g->cells[c].last->output_every > 0 && writes(g->cells[c].last));
    fprintf(f, "### Snapshots at %zux%zu, %zu steps\n\n", s->nx, s->ny, s->steps);
    fprintf(f,
            "Time per step with the field on the host every K steps: the loop and the "
            "read-back (the last snapshot), median, over the steps. In brackets, that over the "
            "bound, the greatest of: the same method's loop and read-back without snapshots; "
            "ceil(steps/K) snapshots of S at the pinned D2H rate, the last at the pageable "
            "rate where it is the read-back into a pageable host array (all but -pinned rows "
            "of methods that report READBACK_S)%s",
            link > 0.0 ? "" : " (not measured here)");
    if (any_writer)
        fprintf(f,
                "; the records written inside the measured time, each of the bytes its files "
                "hold (SNAPSHOT_BYTES_WRITTEN / SNAPSHOTS; per cell in the writer column), at "
                "the write rate of the writers' folder%s. Written inside: every record but the "
                "last for a method that reports READBACK_S (it hands the last over after the "
                "read-back), every record for one that does not (cpu, omp), none for a distributed "
                "method (its loop leaves its snapshots out).\n\n",
                disk > 0.0 ? "" : " (not measured here)");
    else
        fputs(".\n\n", f);
    fputs("| method | copy | writer |", f);
    for (size_t k = 0; k < n_ks; ++k)
        fprintf(f, " K=%zu |", ks[k]);
    fputs(" no snapshots |\n|---|---|---|", f);
    for (size_t k = 0; k <= n_ks; ++k)
        fputs("--:|", f);
    fputc('\n', f);
    /* One row per family, copy and writer, in the order they first come. */
    for (size_t c = 0; c < g->n_cells; ++c) {
        const trial_row *r = g->cells[c].last;
        if (r->output_every == 0)
            continue;
        bool first = true; /* of its family, copy and writer */
        for (size_t q = 0; q < c && first; ++q) {
            const trial_row *o = g->cells[q].last;
            first = !(o->output_every > 0 && strcmp(o->family, r->family) == 0 &&
                      strcmp(o->snapshot_copy, r->snapshot_copy) == 0 &&
                      strcmp(o->snapshot_writer, r->snapshot_writer) == 0);
        }
        if (!first)
            continue;
        const cell *none = find_variant(g, r->family, 0, r);
        const double loop = none != NULL ? per_step(none, s->steps) : 0.0;
        const double cells = (double)s->nx * (double)s->ny;
        const double bytes = cells * (double)r->cell_bytes;
        fprintf(f, "| %s | %s | %s", r->family, r->snapshot_copy, r->snapshot_writer);
        if (writes(r) && record_bytes(r) > 0.0)
            fprintf(f, ", %.3g B/cell", record_bytes(r) / cells);
        fputs(" |", f);
        for (size_t k = 0; k < n_ks; ++k) {
            const cell *at = find_variant(g, r->family, ks[k], r);
            if (at == NULL) {
                fputs(" |", f);
                continue;
            }
            const double t = per_step(at, s->steps);
            const double snaps = (double)((s->steps + ks[k] - 1) / ks[k]);
            const double copies = copy_seconds(at->last, snaps, bytes, lim) / (double)s->steps;
            const double written = writes(at->last) && disk > 0.0
                                       ? records_timed(at->last, snaps) * record_bytes(at->last) /
                                             (disk * 1e9) / (double)s->steps
                                       : 0.0;
            double bound = loop > copies ? loop : copies;
            bound = written > bound ? written : bound;
            if (bound > 0.0)
                fprintf(f, " %.4g ms (%.2f) |", t * 1e3, t / bound);
            else
                fprintf(f, " %.4g ms |", t * 1e3);
        }
        if (none != NULL)
            fprintf(f, " %.4g ms |\n", loop * 1e3);
        else
            fputs(" not run |\n", f);
    }
    fputc('\n', f);
}
