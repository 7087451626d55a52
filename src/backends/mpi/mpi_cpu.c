/* mpi-cpu: the reference's update on a 2-D Cartesian decomposition over MPI
 * ranks, bit-identical to cpu for any number of ranks, grid and halo depth.
 *
 * Each rank keeps its block and a halo K cells deep (--halo-depth, default
 * 1; halo_plan.h). The run goes in periods of K steps (fewer at the end and
 * before a snapshot, so that a snapshot always ends one). A period:
 *   1. start the halo exchange of u: K-wide strips of the block go to the
 *      edge neighbours and, for K > 1, K x K corners to the diagonal ones,
 *      theirs come into u's halo (persistent non-blocking requests set up
 *      once for each of the two buffers, mpi_halo.c); one round, since the
 *      corners come straight from the diagonal neighbours;
 *   2. first step: update the inner cells, which read no halo, while the
 *      halos travel, testing the requests between bands of rows so that
 *      MPI makes progress without a progress thread; wait; update the rim
 *      of the block, then the halo cells within K-1 of it;
 *   3. each further step updates one cell less far into the halo, the last
 *      the block alone, which is then exact (the halo cells on the way are
 *      redundant copies of the neighbours' cells);
 *   4. after every step write 0 into the cells on the global boundary, as
 *      cpu does.
 * K = 1 is the one-cell halo exchanged every step. Every cell goes through
 * heat2d_cpu_step_block, the loop that cpu's row kernel runs, so each cell
 * sees the same operations in the same order: the decomposition and the
 * depth change which process computes a cell, and how often, never how. A
 * rank checks the finiteness of its own cells only; its halo copies are
 * checked by their owners.
 *
 * f32 (cfg->precision): the same loop on float blocks, halos and gather
 * (the layout's cell type), through the float build of the same kernel, so
 * the field is bit-identical to cpu's f32 run; rank 0 rounds a given
 * initial field to float before scattering it and widens the gathered one.
 *
 * Memory: a rank holds 2 local arrays of (lx + 2K) x (ly + 2K) cells at
 * most (a margin of one cell, not K, at the global boundary); rank 0 also
 * holds one full nx*ny field, which it needs for the summary (MASS is summed
 * in storage order over the whole field, so that it is bit-identical to
 * cpu's) and for --save. It is allocated before the loop, so that a grid too
 * large for rank 0 fails at once rather than after the run.
 * Measurements: docs/performance.md, "mpi-cpu". */
#include "mpi_common.h"
#include "mpi_halo.h"
#include "stencil_cpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WHO "mpi-cpu"

/* Cell k of an array of l's cells. */
static void *cell_at(const heat2d_mpi_layout *l, const void *base, size_t k)
{
    return (char *)base + k * l->cell_bytes;
}

/* Updates array cells r of v from u; returns whether every centre value
 * read was finite. */
static bool update(const heat2d_cpu_kernels *k, const heat2d_mpi_layout *l, heat2d_halo_rect r,
                   double alpha, const void *u, void *v)
{
    if (heat2d_halo_rect_empty(r))
        return true;
    return k->step_block(l->stride, r.i0, r.i1, r.j0, r.j1, alpha, u, v);
}

/* The cells on the global boundary, own and halo: 0 after every step, so
 * that a later step of the period reads cpu's 0 there (only an initial
 * field could have put anything else). 0 is all zero bits in both
 * precisions. */
static void zero_global_boundary(const heat2d_mpi_layout *l, const heat2d_halo_rect *lines,
                                 size_t n_lines, void *v)
{
    const size_t cb = l->cell_bytes;
    for (size_t k = 0; k < n_lines; ++k)
        for (size_t j = lines[k].j0; j < lines[k].j1; ++j)
            memset(cell_at(l, v, heat2d_halo_index(&l->halo, lines[k].i0, j)), 0,
                   (lines[k].i1 - lines[k].i0) * cb);
}

/* Whether every cell of rectangles r of u is finite. */
static bool rects_finite(const heat2d_cpu_kernels *k, const heat2d_mpi_layout *l,
                         const heat2d_halo_rect *r, size_t n, const void *u)
{
    for (size_t q = 0; q < n; ++q)
        for (size_t j = r[q].j0; j < r[q].j1; ++j)
            if (!k->rows_finite(r[q].i1 - r[q].i0, 0, 1,
                                cell_at(l, u, heat2d_halo_index(&l->halo, r[q].i0, j))))
                return false;
    return true;
}

/* cpu's message (heat2d_fail_nonfinite) for the first non-finite own cell,
 * in global coordinates. */
static int fail_nonfinite(const heat2d_cpu_kernels *k, const heat2d_mpi_layout *l, const void *u,
                          size_t step, heat2d_error *err)
{
    for (size_t b = 0; b < l->ly; ++b)
        for (size_t a = 0; a < l->lx; ++a)
            if (!isfinite(k->get(u, heat2d_mpi_local(l, a, b)))) {
                if (step == 0)
                    return heat2d_fail(err,
                                       "non-finite value at cell (%zu, %zu) in the initial state",
                                       l->x0 + a, l->y0 + b);
                return heat2d_fail(err, "non-finite value at cell (%zu, %zu) after step %zu",
                                   l->x0 + a, l->y0 + b, step);
            }
    return heat2d_fail(err, "non-finite value after step %zu (cell not found)", step);
}

/* The two local buffers, and on rank 0 the full field, refusing up front
 * what this machine cannot hold (as heat2d_alloc_pair does for one
 * process). */
static int allocate(const heat2d_mpi_layout *l, void *buf[2], double **full, float **full32,
                    heat2d_error *err)
{
    if (l->cells > SIZE_MAX / sizeof(double) / 2)
        return heat2d_fail(err, WHO ": rank %d: block %zux%zu is too large", l->rank, l->lx, l->ly);
    const bool f32 = l->cell_bytes == sizeof(float);
    size_t local_bytes = l->cells * l->cell_bytes;
    size_t full_bytes =
        l->rank == 0 ? l->nx * l->ny * (sizeof(double) + (f32 ? sizeof(float) : 0)) : 0;
    const char *source = NULL;
    uint64_t memory = heat2d_memory_limit(&source);
    if (memory != 0 && (uint64_t)2 * local_bytes + full_bytes > memory / 2) {
        char limit[128];
        return heat2d_fail(err,
                           WHO ": rank %d needs %.3g GB (2 blocks of %zux%zu with halos%s), more "
                               "than %s",
                           l->rank, (double)(2 * local_bytes + full_bytes) / 1e9, l->lx, l->ly,
                           l->rank == 0 ? " and the gathered field" : "",
                           heat2d_memory_limit_text(limit, sizeof limit, memory, source));
    }
    buf[0] = calloc(l->cells, l->cell_bytes);
    buf[1] = calloc(l->cells, l->cell_bytes);
    if (l->rank == 0) {
        *full = malloc(l->nx * l->ny * sizeof(double));
        if (f32)
            *full32 = malloc(l->nx * l->ny * sizeof(float));
    }
    if (buf[0] == NULL || buf[1] == NULL ||
        (l->rank == 0 && (*full == NULL || (f32 && *full32 == NULL))))
        return heat2d_fail(err, WHO ": rank %d cannot allocate %.3g GB", l->rank,
                           (double)(2 * local_bytes + full_bytes) / 1e9);
    return 0;
}

/* Rows of the inner region between two tests of the halo requests: about
 * 32k cells, a few tens of microseconds of work. */
static size_t band_rows(size_t lx)
{
    size_t rows = (size_t)32768 / (lx > 0 ? lx : 1);
    return rows > 0 ? rows : 1;
}

static int mpi_cpu_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    if (heat2d_mpi_start(WHO, err) != 0 || heat2d_mpi_settings_agree(WHO, cfg, err) != 0)
        return -1;
    int ranks = 1;
    HEAT2D_MPI_CHECK(err, MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    snprintf(rep->device, sizeof rep->device, "host (%d rank%s)", ranks, ranks == 1 ? "" : "s");
    return 0;
}

/* A rank's run: its layout and memory, the block's fixed geometry, and
 * what the loop has done and found. */
typedef struct mpi_cpu_run {
    const heat2d_config *cfg;
    heat2d_report *rep;
    const heat2d_cpu_kernels *kern;
    size_t depth;
    heat2d_mpi_layout l;
    void *buf[2];
    double *full;
    float *full32; /* f32 on rank 0: the field in float, between full and the blocks */
    heat2d_mpi_strips strips;
    heat2d_mpi_halo halo[2];
    /* The own cells: those that read no halo, and the rim around them; the
     * global boundary's lines; the halo cells an exchange fills. */
    heat2d_halo_rect own, inner, rim[4], lines[4], filled[8];
    size_t n_rim, n_lines, n_filled;
    size_t band;
    bool owns_fault_cell;
    /* The loop: steps done, the buffer that holds them, the exchanges and
     * their bytes, the seconds waited, and a non-finite field found. */
    size_t step;
    int cur;
    uint64_t posted, exchanges;
    double halo_wait, snapshot_s;
    size_t bad_after; /* SIZE_MAX: none */
    bool bad_halo;
} mpi_cpu_run;

/* Everything that can fail on one rank alone, before the loop, agreed on,
 * so that no rank is left waiting for one that gave up. */
static int run_allocate(mpi_cpu_run *r, heat2d_error *err)
{
    int rc = allocate(&r->l, r->buf, &r->full, &r->full32, err);
    if (heat2d_mpi_strips_create(&r->l, &r->strips, err) != 0)
        rc = -1;
    for (int k = 0; k < 2 && rc == 0; ++k)
        rc = heat2d_mpi_halo_init(&r->l, &r->strips, r->buf[k], &r->halo[k], err);
    return heat2d_mpi_agree(&r->l, rc, err);
}

/* The block's geometry, fixed for the run. */
static void run_geometry(mpi_cpu_run *r)
{
    const heat2d_halo_block *hb = &r->l.halo;
    const heat2d_mpi_layout *l = &r->l;
    r->own = heat2d_halo_own(hb);
    r->inner = heat2d_halo_inner(hb);
    r->n_rim = heat2d_halo_ring(r->own, r->inner, r->rim);
    r->n_lines = heat2d_halo_boundary(hb, r->lines);
    r->n_filled = heat2d_mpi_halo_filled(l, r->filled);
    r->band = band_rows(r->inner.i1 > r->inner.i0 ? r->inner.i1 - r->inner.i0 : 1);
    const size_t fx = r->cfg->nx - 2, fy = r->cfg->ny - 2;
    r->owns_fault_cell = l->x0 <= fx && fx < l->x0 + l->lx && l->y0 <= fy && fy < l->y0 + l->ly;
}

/* The first step of a period: the inner cells while the halos travel,
 * testing the requests between bands of rows, then (once they arrived)
 * the rim. Sets *finite; 1 when a halo cell that arrived is not finite. */
static int first_step(mpi_cpu_run *r, heat2d_mpi_halo *h, const void *u, void *v, bool *finite,
                      heat2d_error *err)
{
    const heat2d_halo_rect inner = r->inner;
    int arrived = h->n == 0;
    for (size_t b = inner.j0; b < inner.j1; b += r->band) {
        heat2d_halo_rect band = inner;
        band.j0 = b;
        band.j1 = b + r->band < inner.j1 ? b + r->band : inner.j1;
        *finite &= update(r->kern, &r->l, band, r->cfg->alpha, u, v);
        if (!arrived)
            HEAT2D_MPI_CHECK(err, MPI_Testall(h->n, h->req, &arrived, MPI_STATUSES_IGNORE));
    }
    if (!arrived) {
        const double tw = heat2d_now();
        HEAT2D_MPI_CHECK(err, MPI_Waitall(h->n, h->req, MPI_STATUSES_IGNORE));
        r->halo_wait += heat2d_now() - tw;
    }
    if (!rects_finite(r->kern, &r->l, r->filled, r->n_filled, u)) {
        /* A neighbour's cell went non-finite. Its owner saw it at this step
         * or before (a halo cell gets nothing that an owner did not check
         * first) and ends the job with its line; going on would compute
         * ahead, with no message to hold this rank back, and report the
         * copies' own line. */
        r->bad_halo = true;
        return 1;
    }
    for (size_t k = 0; k < r->n_rim; ++k)
        *finite &= update(r->kern, &r->l, r->rim[k], r->cfg->alpha, u, v);
    return 0;
}

/* Step `sub` of a period of len steps: the own cells, the halo cells this
 * step still needs (copies of the neighbours' cells, whose finiteness is
 * theirs to check), then 0 on the global boundary. 1 when the field it
 * read was not finite (the run stops there, as cpu does, before the
 * neighbours get the next halo). */
static int period_step(mpi_cpu_run *r, heat2d_mpi_halo *h, size_t len, size_t sub,
                       heat2d_error *err)
{
    const void *u = r->buf[r->cur];
    void *v = r->buf[1 - r->cur];
    bool finite = true;
    if (sub == 0) {
        const int rc = first_step(r, h, u, v, &finite, err);
        if (rc != 0)
            return rc;
    } else {
        finite &= update(r->kern, &r->l, r->own, r->cfg->alpha, u, v);
    }
    heat2d_halo_rect extra[4];
    const size_t n_extra =
        heat2d_halo_ring(heat2d_halo_region(&r->l.halo, len, sub), r->own, extra);
    for (size_t k = 0; k < n_extra; ++k)
        (void)update(r->kern, &r->l, extra[k], r->cfg->alpha, u, v);
    zero_global_boundary(&r->l, r->lines, r->n_lines, v);
    if (!finite) {
        r->bad_after = r->step;
        return 1;
    }
    if (r->step + 1 == r->cfg->fault_nan_step && r->owns_fault_cell)
        r->kern->set(v, heat2d_mpi_local(&r->l, r->cfg->nx - 2 - r->l.x0, r->cfg->ny - 2 - r->l.y0),
                     NAN);
    r->cur = 1 - r->cur;
    r->step++;
    return 0;
}

/* A period of len steps: the halo exchange of u started, then its steps. */
static int run_period(mpi_cpu_run *r, size_t len, heat2d_error *err)
{
    heat2d_mpi_halo *h = &r->halo[r->cur];
    if (h->n > 0) {
        HEAT2D_MPI_CHECK(err, MPI_Startall(h->n, h->req));
        r->exchanges++;
    }
    r->posted += h->send_bytes;
    for (size_t sub = 0; sub < len; ++sub) {
        const int rc = period_step(r, h, len, sub, err);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* heat2d_run_segments' advance: count steps in periods of the halo depth
 * (fewer at the segment's end, so that a snapshot ends a period, where the
 * blocks are exact). */
static int run_advance(void *run, size_t count, heat2d_error *err)
{
    mpi_cpu_run *r = run;
    const size_t end = r->step + count;
    while (r->step < end) {
        const int rc = run_period(r, heat2d_halo_period(r->step, end, r->depth, 0), err);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* A snapshot before the last: the blocks gathered to rank 0, timed apart
 * from the loop. */
static int run_snapshot(void *run, size_t done, heat2d_error *err)
{
    mpi_cpu_run *r = run;
    const double ts = heat2d_now();
    if (heat2d_mpi_snapshot(&r->l, r->cfg, done, r->buf[r->cur],
                            r->full32 != NULL ? (void *)r->full32 : r->full, r->rep, err) != 0)
        return -1;
    r->snapshot_s += heat2d_now() - ts;
    return 0;
}

/* The loop from a barrier; in *loop_s its seconds without the snapshots'.
 * A non-finite field found (here or, for a halo, by its owner) fails it. */
static int run_loop(mpi_cpu_run *r, double *loop_s, heat2d_error *err)
{
    HEAT2D_MPI_CHECK(err, MPI_Barrier(r->l.comm));
    const double t0 = heat2d_now();
    const int rc = heat2d_run_segments(r->cfg, run_advance, run_snapshot, r, err);
    *loop_s = heat2d_now() - t0 - r->snapshot_s;
    if (rc < 0)
        return -1;
    if (r->bad_halo) {
        /* The owner's MPI_Abort ends this wait, which the owner never
         * joins. */
        HEAT2D_MPI_CHECK(err, MPI_Barrier(r->l.comm));
        return heat2d_fail(err, "non-finite value in a halo after step %zu", r->step);
    }
    if (r->bad_after != SIZE_MAX)
        return fail_nonfinite(r->kern, &r->l, r->buf[r->cur], r->bad_after, err);
    return 0;
}

/* After the loop: its times and bytes over the ranks, the field gathered
 * to rank 0 (the last snapshot), and the phases. */
static int run_finish(mpi_cpu_run *r, double loop_s, double *total_s, heat2d_error *err)
{
    /* The loop from the barrier to the slowest rank, and the longest wait
     * for halos, on rank 0. TOTAL_S holds the snapshots' cost; CPU_LOOP_S
     * leaves it out. */
    double times[3] = {loop_s, r->halo_wait, loop_s + r->snapshot_s};
    if (heat2d_mpi_max(&r->l, times, 3, err) != 0 || heat2d_mpi_sum(&r->l, &r->posted, err) != 0)
        return -1;
    void *full = r->full32 != NULL ? (void *)r->full32 : r->full;
    const double tg = heat2d_now();
    if (heat2d_mpi_gather(&r->l, r->buf[r->cur], full, err) != 0)
        return -1;
    const double gather_s = heat2d_now() - tg;
    if (heat2d_mpi_last_snapshot(&r->l, r->cfg, full, r->rep, err) != 0)
        return -1;
    *total_s = times[2];
    /* All bytes posted over the steps: a K-deep exchange counts once per
     * K steps. The rounds are rank 0's, which every rank shares. */
    r->rep->halo_bytes_per_step = r->posted / r->cfg->steps;
    r->rep->halo_exchanges = r->exchanges;
    heat2d_report_phase(r->rep, "CPU_LOOP_S", times[0]);
    heat2d_report_phase(r->rep, "HALO_WAIT_S", times[1]);
    heat2d_report_phase(r->rep, "GATHER_S", gather_s);
    return 0;
}

static void run_release(mpi_cpu_run *r)
{
    for (int k = 0; k < 2; ++k)
        heat2d_mpi_halo_free(&r->halo[k]);
    heat2d_mpi_strips_free(&r->strips);
    free(r->buf[0]);
    free(r->buf[1]);
    free(r->full);
    free(r->full32);
    heat2d_mpi_layout_close(&r->l);
}

static int mpi_cpu_solve(const heat2d_config *cfg, const double *initial, double **field,
                         double *total_s, heat2d_report *rep, heat2d_error *err)
{
    *field = NULL;
    *total_s = 0.0;
    mpi_cpu_run r = {.cfg = cfg,
                     .rep = rep,
                     .kern = heat2d_cpu_kernels_for(cfg->precision),
                     .depth = heat2d_halo_depth(cfg),
                     .halo = {{.n = 0}, {.n = 0}},
                     .bad_after = SIZE_MAX};
    if (heat2d_mpi_layout_open_halo(WHO, cfg, r.depth, &r.l, rep, err) != 0)
        return -1;
    int status = -1;
    if (run_allocate(&r, err) == 0) {
        run_geometry(&r);
        double loop_s = 0.0;
        if (heat2d_mpi_first_field(&r.l, initial, r.full32, r.buf[0], err) != 0 ||
            run_loop(&r, &loop_s, err) != 0 || run_finish(&r, loop_s, total_s, err) != 0) {
            /* This rank gives up inside the loop (or the collectives around
             * it), where the others may wait for it forever: the program
             * ends them all after printing this rank's line, with no
             * clean-up (the requests may be active). Alone, it just
             * returns. */
            rep->abort_peers = r.l.ranks > 1;
            if (rep->abort_peers)
                return -1;
        } else {
            status = heat2d_mpi_take_field(cfg, &r.full, r.full32, field, err);
        }
    }
    run_release(&r);
    return status;
}

/* Distributed: solve_distributed in place of solve and solve_f32. */
HEAT2D_METHOD(heat2d_method_mpi_cpu, NULL, NULL, .name = "mpi-cpu", .seed_name = "MPI_CPU",
              .style = HEAT2D_STYLE_HOST, .checks_each_step = true, .has_snapshots = true,
              .prepare = mpi_cpu_prepare, .distributed = true, .deep_halos = true,
              .solve_distributed = mpi_cpu_solve);
