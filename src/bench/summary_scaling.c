/* heat2d bench: strong and weak scaling of the distributed methods over
 * their rank counts (bench --ranks, --weak), and their time against the
 * depth of their halos (--halo-depth). */
#include "summary_tables.h"

#include <string.h>

/* Strong scaling of each distributed method at this size: the same grid on
 * P ranks. Speedup T1/TP and efficiency T1/(P*TP) take the medians, with T1
 * the same method's one-rank cell; without one there is nothing to divide
 * by, and the table says so rather than pick another baseline. */
void summary_emit_scaling(FILE *f, const size_group *g)
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
            double tp = summary_median(next->totals, next->n);
            char speedup[32] = "no P=1 run", eff[32] = "no P=1 run";
            if (one != NULL && tp > 0.0) {
                double t1 = summary_median(one->totals, one->n);
                summary_ratio_text(t1 / tp, speedup, sizeof speedup);
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
void summary_emit_weak(FILE *f, const size_group *groups, size_t n_groups)
{
    for (size_t g1 = 0; g1 < n_groups; ++g1)
        for (size_t c1 = 0; c1 < groups[g1].n_cells; ++c1) {
            const cell *one = &groups[g1].cells[c1];
            if (one->last->ranks != 1)
                continue;
            const bench_size *s1 = &groups[g1].size;
            double per_rank = (double)s1->nx * (double)s1->ny;
            double t1 = summary_median(one->totals, one->n);
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
                double tp = summary_median(next->totals, next->n);
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

/* A distributed run of the same method and precision as row r, at any rank
 * count and halo depth. */
static bool same_method(const trial_row *r, const trial_row *s)
{
    return s->ranks > 0 && s->cell_bytes == r->cell_bytes && strcmp(s->method, r->method) == 0;
}

static size_t depth_of(const trial_row *r)
{
    return r->halo_depth > 1 ? r->halo_depth : 1;
}

void summary_emit_halo_depths(FILE *f, const size_group *g)
{
    for (size_t a = 0; a < g->n_cells; ++a) {
        const trial_row *ra = g->cells[a].last;
        if (ra->ranks == 0)
            continue;
        /* Once per method and precision: at its first cell, if any cell of
         * it has halos deeper than one. */
        bool seen = false, deep = false;
        for (size_t b = 0; b < g->n_cells; ++b) {
            const trial_row *rb = g->cells[b].last;
            const bool same = same_method(ra, rb);
            seen = seen || (same && b < a);
            deep = deep || (same && depth_of(rb) > 1);
        }
        if (seen || !deep)
            continue;
        fprintf(f,
                "### Halo depth of %s%s at %zux%zu, %zu steps\n\n"
                "Halos K cells deep, exchanged once every K steps: median TOTAL_S at each K "
                "against K = 1 on the same P ranks (T(K=1)/T(K), above 1 is faster).\n\n"
                "| P | K | median TOTAL_S [s] | against K = 1 | best K at this P |\n"
                "|--:|--:|--:|--:|---|\n",
                ra->method, ra->cell_bytes == 4 ? "-f32" : "", g->size.nx, g->size.ny,
                g->size.steps);
        /* Ascending P, then ascending K: a few cells, a selection pass a row. */
        size_t last_p = 0;
        for (;;) {
            size_t p = 0;
            for (size_t b = 0; b < g->n_cells; ++b) {
                const trial_row *rb = g->cells[b].last;
                if (rb->ranks > last_p && (p == 0 || rb->ranks < p) && same_method(ra, rb))
                    p = rb->ranks;
            }
            if (p == 0)
                break;
            last_p = p;
            const cell *one = NULL, *best = NULL;
            for (size_t b = 0; b < g->n_cells; ++b) {
                const cell *cb = &g->cells[b];
                if (cb->last->ranks != p || !same_method(ra, cb->last) || cb->n == 0)
                    continue;
                if (depth_of(cb->last) == 1)
                    one = cb;
                if (best == NULL ||
                    summary_median(cb->totals, cb->n) < summary_median(best->totals, best->n))
                    best = cb;
            }
            size_t last_k = 0;
            for (;;) {
                const cell *next = NULL;
                for (size_t b = 0; b < g->n_cells; ++b) {
                    const cell *cb = &g->cells[b];
                    if (cb->last->ranks == p && same_method(ra, cb->last) && cb->n > 0 &&
                        depth_of(cb->last) > last_k &&
                        (next == NULL || depth_of(cb->last) < depth_of(next->last)))
                        next = cb;
                }
                if (next == NULL)
                    break;
                last_k = depth_of(next->last);
                const double t = summary_median(next->totals, next->n);
                char against[32] = "no K=1 run";
                if (one != NULL && t > 0.0)
                    summary_ratio_text(summary_median(one->totals, one->n) / t, against,
                                       sizeof against);
                fprintf(f, "| %zu | %zu | %.4g | %s | %s |\n", p, last_k, t, against,
                        next == best ? "best" : "");
            }
        }
        fputc('\n', f);
    }
}
