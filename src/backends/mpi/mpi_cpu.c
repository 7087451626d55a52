/* mpi-cpu: the reference's update on a 2-D Cartesian decomposition over MPI
 * ranks, bit-identical to cpu for any number of ranks and any grid.
 *
 * Each rank keeps its block and a one-cell halo (mpi_common.h). A step:
 *   1. start the halo exchange of u: the block's four edges go to the edge
 *      neighbours, their edges come into u's halo (persistent non-blocking
 *      requests, set up once for each of the two buffers; columns travel as
 *      a strided vector type, so nothing is packed by hand);
 *   2. update the inner cells, which read no halo, while the halos travel,
 *      testing the requests between bands of rows so that MPI makes progress
 *      without a progress thread;
 *   3. wait for the halos, update the rim (the block's first and last rows
 *      and columns);
 *   4. write 0 into the cells on the global boundary, as cpu does.
 * Every cell goes through heat2d_cpu_step_block, the loop that cpu's row
 * kernel runs, so each cell sees the same operations in the same order: the
 * decomposition changes which process computes a cell, never how.
 *
 * f32 (cfg->precision): the same loop on float blocks, halos and gather
 * (the layout's cell type), through the float build of the same kernel, so
 * the field is bit-identical to cpu's f32 run; rank 0 rounds a given
 * initial field to float before scattering it and widens the gathered one.
 *
 * Memory: a rank holds 2 x (lx+2)*(ly+2) cells; rank 0 also holds one full
 * nx*ny field, which it needs for the summary (MASS is summed in storage
 * order over the whole field, so that it is bit-identical to cpu's) and for
 * --save. It is allocated before the loop, so that a grid too large for
 * rank 0 fails at once rather than after the run.
 * Measurements: docs/performance.md, "mpi-cpu". */
#include "mpi_common.h"
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

/* The persistent requests that exchange the halos of one buffer: up to four
 * receives, then up to four sends (none towards the global boundary). */
typedef struct halo_set {
    MPI_Request req[8];
    int n;
    uint64_t send_bytes; /* what one exchange posts from this rank */
} halo_set;

/* Own cells (a, b) that are interior cells of the global grid: the update
 * covers these, the global boundary is written 0. */
typedef struct interior {
    size_t a_lo, a_hi;
    size_t b_lo, b_hi;
} interior;

static interior block_interior(const heat2d_mpi_layout *l)
{
    interior g;
    g.a_lo = l->x0 == 0 ? 1 : 0;
    g.a_hi = l->lx - (l->x0 + l->lx == l->nx ? 1 : 0);
    g.b_lo = l->y0 == 0 ? 1 : 0;
    g.b_hi = l->ly - (l->y0 + l->ly == l->ny ? 1 : 0);
    return g;
}

static int halo_init(const heat2d_mpi_layout *l, MPI_Datatype column, void *u, halo_set *h,
                     heat2d_error *err)
{
    const size_t s = l->stride;
    const size_t lx = l->lx;
    const size_t ly = l->ly;
    const int row = (int)lx;
    const uint64_t row_bytes = (uint64_t)lx * l->cell_bytes;
    const uint64_t column_bytes = (uint64_t)ly * l->cell_bytes;
    h->n = 0;
    h->send_bytes = 0;
    /* A halo is tagged with the direction it travels: what comes from the
     * west neighbour travels east. */
    if (l->west != MPI_PROC_NULL)
        HEAT2D_MPI_CHECK(err, MPI_Recv_init(cell_at(l, u, s), 1, column, l->west, HEAT2D_TAG_EAST,
                                            l->comm, &h->req[h->n++]));
    if (l->east != MPI_PROC_NULL)
        HEAT2D_MPI_CHECK(err, MPI_Recv_init(cell_at(l, u, s + lx + 1), 1, column, l->east,
                                            HEAT2D_TAG_WEST, l->comm, &h->req[h->n++]));
    if (l->south != MPI_PROC_NULL)
        HEAT2D_MPI_CHECK(err, MPI_Recv_init(cell_at(l, u, 1), row, l->cell, l->south,
                                            HEAT2D_TAG_NORTH, l->comm, &h->req[h->n++]));
    if (l->north != MPI_PROC_NULL)
        HEAT2D_MPI_CHECK(err, MPI_Recv_init(cell_at(l, u, (ly + 1) * s + 1), row, l->cell, l->north,
                                            HEAT2D_TAG_SOUTH, l->comm, &h->req[h->n++]));
    if (l->west != MPI_PROC_NULL) {
        HEAT2D_MPI_CHECK(err, MPI_Send_init(cell_at(l, u, s + 1), 1, column, l->west,
                                            HEAT2D_TAG_WEST, l->comm, &h->req[h->n++]));
        h->send_bytes += column_bytes;
    }
    if (l->east != MPI_PROC_NULL) {
        HEAT2D_MPI_CHECK(err, MPI_Send_init(cell_at(l, u, s + lx), 1, column, l->east,
                                            HEAT2D_TAG_EAST, l->comm, &h->req[h->n++]));
        h->send_bytes += column_bytes;
    }
    if (l->south != MPI_PROC_NULL) {
        HEAT2D_MPI_CHECK(err, MPI_Send_init(cell_at(l, u, s + 1), row, l->cell, l->south,
                                            HEAT2D_TAG_SOUTH, l->comm, &h->req[h->n++]));
        h->send_bytes += row_bytes;
    }
    if (l->north != MPI_PROC_NULL) {
        HEAT2D_MPI_CHECK(err, MPI_Send_init(cell_at(l, u, ly * s + 1), row, l->cell, l->north,
                                            HEAT2D_TAG_NORTH, l->comm, &h->req[h->n++]));
        h->send_bytes += row_bytes;
    }
    return 0;
}

static void halo_free(halo_set *h)
{
    for (int k = 0; k < h->n; ++k)
        if (h->req[k] != MPI_REQUEST_NULL)
            MPI_Request_free(&h->req[k]);
    h->n = 0;
}

/* Updates own cells [a0, a1) x [b0, b1), clipped to the global interior. */
static bool update(const heat2d_cpu_kernels *k, const heat2d_mpi_layout *l, const interior *g,
                   size_t a0, size_t a1, size_t b0, size_t b1, double alpha, const void *u, void *v)
{
    a0 = a0 > g->a_lo ? a0 : g->a_lo;
    a1 = a1 < g->a_hi ? a1 : g->a_hi;
    b0 = b0 > g->b_lo ? b0 : g->b_lo;
    b1 = b1 < g->b_hi ? b1 : g->b_hi;
    if (a0 >= a1 || b0 >= b1)
        return true;
    /* Own cell (a, b) is array cell (a+1, b+1). */
    return k->step_block(l->stride, a0 + 1, a1 + 1, b0 + 1, b1 + 1, alpha, u, v);
}

/* (0 is all zero bits in both precisions.) */
static void zero_global_boundary(const heat2d_mpi_layout *l, void *v)
{
    const size_t cb = l->cell_bytes;
    if (l->y0 == 0)
        memset(cell_at(l, v, heat2d_mpi_local(l, 0, 0)), 0, l->lx * cb);
    if (l->y0 + l->ly == l->ny)
        memset(cell_at(l, v, heat2d_mpi_local(l, 0, l->ly - 1)), 0, l->lx * cb);
    if (l->x0 == 0)
        for (size_t b = 0; b < l->ly; ++b)
            memset(cell_at(l, v, heat2d_mpi_local(l, 0, b)), 0, cb);
    if (l->x0 + l->lx == l->nx)
        for (size_t b = 0; b < l->ly; ++b)
            memset(cell_at(l, v, heat2d_mpi_local(l, l->lx - 1, b)), 0, cb);
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
    (void)cfg;
    if (heat2d_mpi_start(WHO, err) != 0)
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
    heat2d_mpi_layout l;
    if (heat2d_mpi_layout_open(WHO, cfg, &l, rep, err) != 0)
        return -1;

    int status = -1;
    const heat2d_cpu_kernels *kern = heat2d_cpu_kernels_for(cfg->precision);
    const bool f32 = cfg->precision == HEAT2D_F32;
    void *buf[2] = {NULL, NULL};
    double *full = NULL;
    /* f32 on rank 0: the field in float, between full and the blocks. */
    float *full32 = NULL;
    MPI_Datatype column = MPI_DATATYPE_NULL;
    halo_set halo[2] = {{.n = 0}, {.n = 0}};

    /* Everything that can fail on one rank alone, before the loop, is
     * agreed on, so that no rank is left waiting for one that gave up. */
    int rc = allocate(&l, buf, &full, &full32, err);
    if (rc == 0) {
        rc = MPI_Type_vector((int)l.ly, 1, (int)l.stride, l.cell, &column);
        if (rc == MPI_SUCCESS && (rc = MPI_Type_commit(&column)) == MPI_SUCCESS)
            rc = 0;
        else
            rc = heat2d_mpi_fail(err, __FILE__, __LINE__, "column type", rc);
    }
    for (int k = 0; k < 2 && rc == 0; ++k)
        rc = halo_init(&l, column, buf[k], &halo[k], err);
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

    const interior g = block_interior(&l);
    const size_t lx = l.lx;
    const size_t ly = l.ly;
    const double alpha = cfg->alpha;
    const size_t band = band_rows(lx);
    const size_t fault = cfg->fault_nan_step;
    const bool owns_fault_cell = l.x0 <= cfg->nx - 2 && cfg->nx - 2 < l.x0 + lx &&
                                 l.y0 <= cfg->ny - 2 && cfg->ny - 2 < l.y0 + ly;
    uint64_t posted = 0;
    double halo_wait = 0.0, snapshot_s = 0.0;
    size_t bad_after = SIZE_MAX;
    int cur = 0;

    HEAT2D_MPI_CHECK_GOTO(err, MPI_Barrier(l.comm), loop_failed);
    double t0 = heat2d_now();
    for (size_t step = 0; step < cfg->steps; ++step) {
        const void *u = buf[cur];
        void *v = buf[1 - cur];
        halo_set *h = &halo[cur];
        if (h->n > 0)
            HEAT2D_MPI_CHECK_GOTO(err, MPI_Startall(h->n, h->req), loop_failed);
        posted += h->send_bytes;

        /* Inner cells: (a, b) with 1 <= a < lx-1, 1 <= b < ly-1 read no
         * halo cell. */
        bool finite = true;
        int arrived = h->n == 0;
        for (size_t b = 1; b + 1 < ly; b += band) {
            size_t b_end = b + band < ly - 1 ? b + band : ly - 1;
            finite &= update(kern, &l, &g, 1, lx > 1 ? lx - 1 : 1, b, b_end, alpha, u, v);
            if (!arrived)
                HEAT2D_MPI_CHECK_GOTO(err, MPI_Testall(h->n, h->req, &arrived, MPI_STATUSES_IGNORE),
                                      loop_failed);
        }
        if (!arrived) {
            double tw = heat2d_now();
            HEAT2D_MPI_CHECK_GOTO(err, MPI_Waitall(h->n, h->req, MPI_STATUSES_IGNORE), loop_failed);
            halo_wait += heat2d_now() - tw;
        }
        /* The rim: first and last rows whole, then the first and last
         * columns between them (each cell once, however thin the block). */
        finite &= update(kern, &l, &g, 0, lx, 0, 1, alpha, u, v);
        if (ly > 1)
            finite &= update(kern, &l, &g, 0, lx, ly - 1, ly, alpha, u, v);
        if (ly > 2) {
            finite &= update(kern, &l, &g, 0, 1, 1, ly - 1, alpha, u, v);
            if (lx > 1)
                finite &= update(kern, &l, &g, lx - 1, lx, 1, ly - 1, alpha, u, v);
        }
        zero_global_boundary(&l, v);
        if (!finite) {
            /* u, the field after `step` steps, is not finite: stop here,
             * as cpu does, before its neighbours get the next halo. */
            bad_after = step;
            break;
        }
        if (step + 1 == fault && owns_fault_cell)
            kern->set(v, heat2d_mpi_local(&l, cfg->nx - 2 - l.x0, cfg->ny - 2 - l.y0), NAN);
        cur = 1 - cur;
        /* A snapshot before the last step's gather: timed apart from the
         * loop. */
        const size_t done = step + 1;
        if (cfg->output_every > 0 && done % cfg->output_every == 0 && done < cfg->steps) {
            const double ts = heat2d_now();
            if (heat2d_mpi_snapshot(&l, cfg, done, buf[cur], f32 ? (void *)full32 : full, rep,
                                    err) != 0)
                goto loop_failed;
            snapshot_s += heat2d_now() - ts;
        }
    }
    double loop_s = heat2d_now() - t0 - snapshot_s;
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
        (l.rank == 0 ? heat2d_hand_snapshot(cfg, cfg->steps, f32 ? (void *)full32 : full, rep, err)
                     : (rep->snapshots++, 0)) != 0)
        goto loop_failed;
    if (full32 != NULL)
        for (size_t c = 0; c < cfg->nx * cfg->ny; ++c)
            full[c] = (double)full32[c];

    *total_s = times[2];
    rep->halo_bytes_per_step = posted / cfg->steps;
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
        halo_free(&halo[k]);
    if (column != MPI_DATATYPE_NULL)
        MPI_Type_free(&column);
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
    .solve_distributed = mpi_cpu_solve,
};
