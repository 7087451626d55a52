/* The timed part of a run: a method's solve in its precision, in working
 * arrays of that precision (page-locked where the method keeps them so),
 * and the hand-over of each snapshot to the caller, timed apart. */
#include "heat2d_run.h"
#include "heat2d_args.h"
#include "heat2d_cells.h"

#include <stdlib.h>

/* Working arrays of n cells of the run's precision: page-locked by the
 * method's runtime for a pinned run of a method that keeps its host arrays
 * so (the seconds that cost go to PIN_S), else malloc'd. */
typedef struct work_arrays {
    void *u, *v;
    bool pinned;
} work_arrays;

static void work_free(const heat2d_method *m, work_arrays *w)
{
    if (w->pinned) {
        m->free_pinned(w->u);
        m->free_pinned(w->v);
    } else {
        free(w->u);
        free(w->v);
    }
}

static int work_alloc(const heat2d_method *m, const heat2d_config *cfg, size_t bytes,
                      work_arrays *w, heat2d_report *rep, heat2d_error *err)
{
    *w = (work_arrays){.pinned = cfg->pinned && m->alloc_pinned != NULL};
    const double t0 = heat2d_now();
    w->u = w->pinned ? m->alloc_pinned(bytes) : malloc(bytes);
    w->v = w->pinned ? m->alloc_pinned(bytes) : malloc(bytes);
    if (w->pinned)
        heat2d_report_phase(rep, "PIN_S", heat2d_now() - t0);
    if (w->u == NULL || w->v == NULL) {
        work_free(m, w); /* the one that was allocated; freeing NULL is nothing */
        return heat2d_fail(err, "cannot allocate 2 x %zu bytes%s for a %zux%zu grid", bytes,
                           w->pinned ? " of page-locked memory" : "", cfg->nx, cfg->ny);
    }
    return 0;
}

int heat2d_solve(const heat2d_method *m, const heat2d_config *cfg, double *u, double *v,
                 double **result, double *seconds, heat2d_report *rep, heat2d_error *err)
{
    *result = NULL;
    *seconds = 0.0;
    const bool f32 = cfg->precision == HEAT2D_F32;
    if (f32 && m->solve_f32 == NULL)
        return heat2d_fail(err, "%s has no f32 path", m->name);
    const bool pinned = cfg->pinned && m->alloc_pinned != NULL;
    if (!f32 && !pinned) {
        const double t0 = heat2d_now();
        const int rc = m->solve(cfg, u, v, result, rep, err);
        *seconds = heat2d_now() - t0;
        return rc;
    }
    /* The initial state into the working arrays (rounded to float in f32),
     * the solve timed, the result back into u as doubles; all but the solve
     * outside the clock, as the allocation of u and v is. */
    const size_t n = cfg->nx * cfg->ny;
    const heat2d_cells *cells = heat2d_cells_of(cfg->precision);
    work_arrays w;
    if (work_alloc(m, cfg, n * cells->bytes, &w, rep, err) != 0)
        return -1;
    cells->narrow(w.u, u, n);
    cells->narrow(w.v, v, n);
    void *out = NULL;
    const double t0 = heat2d_now();
    int rc;
    if (f32) {
        float *out_f = NULL;
        rc = m->solve_f32(cfg, w.u, w.v, &out_f, rep, err);
        out = out_f;
    } else {
        double *out_d = NULL;
        rc = m->solve(cfg, w.u, w.v, &out_d, rep, err);
        out = out_d;
    }
    *seconds = heat2d_now() - t0;
    if (rc == 0) {
        cells->widen(u, out, n);
        *result = u;
    }
    work_free(m, &w);
    return rc;
}

int heat2d_hand_snapshot(const heat2d_config *cfg, size_t step, const void *field,
                         const heat2d_field_stats *stats, heat2d_report *rep, heat2d_error *err)
{
    rep->snapshots++;
    if (cfg->snapshot == NULL)
        return 0;
    const double t0 = heat2d_now();
    const int rc = cfg->snapshot(cfg->snapshot_ctx, step, field, stats, err);
    rep->snapshot_callback_s += heat2d_now() - t0;
    return rc;
}
