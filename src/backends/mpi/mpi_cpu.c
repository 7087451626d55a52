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

static int mpi_cpu_solve(const heat2d_config *cfg, const double *initial, double **field,
                         double *total_s, heat2d_report *rep, heat2d_error *err)
{
    *field = NULL;
    *total_s = 0.0;
    const size_t depth = heat2d_halo_depth(cfg);
    heat2d_mpi_layout l;
    if (heat2d_mpi_layout_open_halo(WHO, cfg, depth, &l, rep, err) != 0)
        return -1;

    int status = -1;
    const heat2d_cpu_kernels *kern = heat2d_cpu_kernels_for(cfg->precision);
    const bool f32 = cfg->precision == HEAT2D_F32;
    void *buf[2] = {NULL, NULL};
    double *full = NULL;
    /* f32 on rank 0: the field in float, between full and the blocks. */
    float *full32 = NULL;
    heat2d_mpi_strips strips;
    heat2d_mpi_halo halo[2] = {{.n = 0}, {.n = 0}};

    /* Everything that can fail on one rank alone, before the loop, is
     * agreed on, so that no rank is left waiting for one that gave up. */
    int rc = allocate(&l, buf, &full, &full32, err);
    if (heat2d_mpi_strips_create(&l, &strips, err) != 0)
        rc = -1;
    for (int k = 0; k < 2 && rc == 0; ++k)
        rc = heat2d_mpi_halo_init(&l, &strips, buf[k], &halo[k], err);
    if (heat2d_mpi_agree(&l, rc, err) != 0)
        goto done;
    /* From here on a rank that fails may leave others blocked in a
     * point-to-point call: loop_failed ends the job. */
    if (initial != NULL) {
        /* In f32 rank 0 rounds the field to float and scatters that. */
        if (full32 != NULL)
            for (size_t c = 0; c < cfg->nx * cfg->ny; ++c)
                full32[c] = (float)initial[c];
        if (heat2d_mpi_scatter(&l, f32 ? (const void *)full32 : initial, buf[0], err) != 0)
            goto loop_failed;
    } else {
        heat2d_mpi_initial_block(&l, buf[0]);
    }

    const heat2d_halo_block *hb = &l.halo;
    const size_t lx = l.lx;
    const size_t ly = l.ly;
    const double alpha = cfg->alpha;
    /* The own cells: those that read no halo, and the rim around them. */
    const heat2d_halo_rect own = heat2d_halo_own(hb);
    const heat2d_halo_rect inner = heat2d_halo_inner(hb);
    heat2d_halo_rect rim[4], lines[4];
    const size_t n_rim = heat2d_halo_ring(own, inner, rim);
    const size_t n_lines = heat2d_halo_boundary(hb, lines);
    heat2d_halo_rect filled[8];
    const size_t n_filled = heat2d_mpi_halo_filled(&l, filled);
    const size_t band = band_rows(inner.i1 > inner.i0 ? inner.i1 - inner.i0 : 1);
    const size_t fault = cfg->fault_nan_step;
    const bool owns_fault_cell = l.x0 <= cfg->nx - 2 && cfg->nx - 2 < l.x0 + lx &&
                                 l.y0 <= cfg->ny - 2 && cfg->ny - 2 < l.y0 + ly;
    uint64_t posted = 0, exchanges = 0;
    double halo_wait = 0.0, snapshot_s = 0.0;
    size_t bad_after = SIZE_MAX;
    bool bad_halo = false;
    size_t step = 0;
    int cur = 0;

    HEAT2D_MPI_CHECK_GOTO(err, MPI_Barrier(l.comm), loop_failed);
    double t0 = heat2d_now();
    while (step < cfg->steps && bad_after == SIZE_MAX && !bad_halo) {
        const size_t len = heat2d_halo_period(step, cfg->steps, depth, cfg->output_every);
        heat2d_mpi_halo *h = &halo[cur];
        if (h->n > 0) {
            HEAT2D_MPI_CHECK_GOTO(err, MPI_Startall(h->n, h->req), loop_failed);
            exchanges++;
        }
        posted += h->send_bytes;
        for (size_t sub = 0; sub < len; ++sub, ++step) {
            const void *u = buf[cur];
            void *v = buf[1 - cur];
            bool finite = true;
            if (sub == 0) {
                /* The inner cells while the halos travel, then the rim. */
                int arrived = h->n == 0;
                for (size_t b = inner.j0; b < inner.j1; b += band) {
                    heat2d_halo_rect r = inner;
                    r.j0 = b;
                    r.j1 = b + band < inner.j1 ? b + band : inner.j1;
                    finite &= update(kern, &l, r, alpha, u, v);
                    if (!arrived)
                        HEAT2D_MPI_CHECK_GOTO(
                            err, MPI_Testall(h->n, h->req, &arrived, MPI_STATUSES_IGNORE),
                            loop_failed);
                }
                if (!arrived) {
                    double tw = heat2d_now();
                    HEAT2D_MPI_CHECK_GOTO(err, MPI_Waitall(h->n, h->req, MPI_STATUSES_IGNORE),
                                          loop_failed);
                    halo_wait += heat2d_now() - tw;
                }
                if (!rects_finite(kern, &l, filled, n_filled, u)) {
                    /* A neighbour's cell went non-finite. Its owner saw
                     * it at this step or before (a halo cell gets nothing
                     * that an owner did not check first) and ends the job
                     * with its line; going on would compute ahead, with
                     * no message to hold this rank back, and report the
                     * copies' own line. */
                    bad_halo = true;
                    break;
                }
                for (size_t k = 0; k < n_rim; ++k)
                    finite &= update(kern, &l, rim[k], alpha, u, v);
            } else {
                finite &= update(kern, &l, own, alpha, u, v);
            }
            /* The halo cells this step still needs: copies of the
             * neighbours' cells, whose finiteness is theirs to check. */
            heat2d_halo_rect extra[4];
            const size_t n_extra = heat2d_halo_ring(heat2d_halo_region(hb, len, sub), own, extra);
            for (size_t k = 0; k < n_extra; ++k)
                (void)update(kern, &l, extra[k], alpha, u, v);
            zero_global_boundary(&l, lines, n_lines, v);
            if (!finite) {
                /* u, the field after `step` steps, is not finite: stop
                 * here, as cpu does, before its neighbours get the next
                 * halo. */
                bad_after = step;
                break;
            }
            if (step + 1 == fault && owns_fault_cell)
                kern->set(v, heat2d_mpi_local(&l, cfg->nx - 2 - l.x0, cfg->ny - 2 - l.y0), NAN);
            cur = 1 - cur;
        }
        /* A snapshot ends a period (heat2d_halo_period), where the blocks
         * are exact; the one after the last step is the final gather. */
        if (bad_after == SIZE_MAX && !bad_halo && cfg->output_every > 0 &&
            step % cfg->output_every == 0 && step < cfg->steps) {
            const double ts = heat2d_now();
            if (heat2d_mpi_snapshot(&l, cfg, step, buf[cur], f32 ? (void *)full32 : full, rep,
                                    err) != 0)
                goto loop_failed;
            snapshot_s += heat2d_now() - ts;
        }
    }
    double loop_s = heat2d_now() - t0 - snapshot_s;
    if (bad_halo) {
        /* The owner's MPI_Abort ends this wait, which the owner never
         * joins. */
        HEAT2D_MPI_CHECK_GOTO(err, MPI_Barrier(l.comm), loop_failed);
        heat2d_fail(err, "non-finite value in a halo after step %zu", step);
        goto loop_failed;
    }
    if (bad_after != SIZE_MAX) {
        fail_nonfinite(kern, &l, buf[cur], bad_after, err);
        goto loop_failed;
    }

    /* The loop from the barrier to the slowest rank, and the longest wait
     * for halos, on rank 0. */
    /* TOTAL_S holds the snapshots' cost; CPU_LOOP_S leaves it out. */
    double times[3] = {loop_s, halo_wait, loop_s + snapshot_s};
    if (heat2d_mpi_max(&l, times, 3, err) != 0 || heat2d_mpi_sum(&l, &posted, err) != 0)
        goto loop_failed;
    double tg = heat2d_now();
    if (heat2d_mpi_gather(&l, buf[cur], f32 ? (void *)full32 : full, err) != 0)
        goto loop_failed;
    double gather_s = heat2d_now() - tg;
    /* The last snapshot is the final gather. */
    if (cfg->output_every > 0 &&
        (l.rank == 0
             ? heat2d_hand_snapshot(cfg, cfg->steps, f32 ? (void *)full32 : full, NULL, rep, err)
             : (rep->snapshots++, 0)) != 0)
        goto loop_failed;
    if (full32 != NULL)
        for (size_t c = 0; c < cfg->nx * cfg->ny; ++c)
            full[c] = (double)full32[c];

    *total_s = times[2];
    /* All bytes posted over the steps: a K-deep exchange counts once per
     * K steps. The rounds are rank 0's, which every rank shares. */
    rep->halo_bytes_per_step = posted / cfg->steps;
    rep->halo_exchanges = exchanges;
    heat2d_report_phase(rep, "CPU_LOOP_S", times[0]);
    heat2d_report_phase(rep, "HALO_WAIT_S", times[1]);
    heat2d_report_phase(rep, "GATHER_S", gather_s);
    /* The last step's field, which no further step read: checked whole on
     * rank 0, with cpu's message. */
    size_t bad_i, bad_j;
    if (full != NULL && heat2d_find_nonfinite(cfg->nx, cfg->ny, full, &bad_i, &bad_j)) {
        heat2d_fail_nonfinite(cfg->nx, cfg->ny, full, cfg->steps, err);
        goto done;
    }
    *field = full;
    full = NULL;
    status = 0;
    goto done;

loop_failed:
    /* This rank gives up inside the loop (or the collectives after it),
     * where the others may wait for it forever: the program ends them all
     * after printing this rank's line. Alone, it just returns. */
    rep->abort_peers = l.ranks > 1;
    if (rep->abort_peers) {
        /* No clean-up: the requests may be active, and the job ends now. */
        return -1;
    }
done:
    for (int k = 0; k < 2; ++k)
        heat2d_mpi_halo_free(&halo[k]);
    heat2d_mpi_strips_free(&strips);
    free(buf[0]);
    free(buf[1]);
    free(full);
    free(full32);
    heat2d_mpi_layout_close(&l);
    return status;
}

const heat2d_method heat2d_method_mpi_cpu = {
    .name = "mpi-cpu",
    .seed_name = "MPI_CPU",
    .style = HEAT2D_STYLE_HOST,
    .gpu_only = false,
    .has_pinned_variant = false,
    .checks_each_step = true,
    .has_snapshots = true,
    .prepare = mpi_cpu_prepare,
    .solve = NULL,
    .distributed = true,
    .deep_halos = true,
    .solve_distributed = mpi_cpu_solve,
};
