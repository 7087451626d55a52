/* mpi-cuda: mpi-cpu's decomposition with each rank's block resident on a
 * GPU, bit-identical to cpu (the kernels are built with --fmad=false).
 *
 * One GPU per rank: the rank's index among the ranks of its node
 * (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED) modulo the node's GPUs, so
 * that `mpirun -np 8` on an 8-GPU node gives every rank its own device.
 *
 * A step, on two streams:
 *   halo stream:  pack u's four edges into one device buffer (columns by a
 *                 kernel, rows by a device copy); without CUDA-aware MPI,
 *                 one copy of that buffer to pinned host memory;
 *   inner stream: update the inner cells, which read no halo;
 *   host:         once the edges are packed, MPI_Irecv/MPI_Isend with the
 *                 neighbours, from and into device buffers when MPI is
 *                 CUDA-aware (MPIX_Query_cuda_support at run time), pinned
 *                 host buffers otherwise; wait;
 *   halo stream:  (one copy up from pinned memory,) unpack into u's halo,
 *                 update the rim, write 0 into the global boundary;
 *   then the two streams wait for each other, so the next step sees the
 *   whole of v.
 * The inner update runs on the GPU while the host moves the halos. It is
 * cuda-resident's step kernel over a rectangle (heat2d_cuda_step_rectangle),
 * so a rank with no neighbours runs at cuda-resident's speed: from its
 * third step on it queues that kernel alone, dependent on the one before.
 *
 * TOTAL_S is the resident methods' measure, over all ranks: from a barrier,
 * the upload of each block, the loop and the download of each block, to the
 * slowest rank's end; the gather to rank 0 (GATHER_S) is outside it.
 * H2D/D2H_COUNT and _BYTES are the blocks' uploads and downloads summed over
 * the ranks (with one rank, cuda-resident's 1 + 1 of nx*ny*8 bytes); halos
 * staged through host memory are counted apart, as H2D/D2H_OTHER.
 * Measurements: docs/performance.md, "mpi-cuda". */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "cuda_check.h"
#include "cuda_device.h"
#include "mpi_common.h"
#include "cuda_kernels.h"
#include "mpi_cuda_kernels.h"
#include "mpi_cuda_device.h"
#include "mpi_cuda_state.h"

/* Own cells (a, b) of the global interior, as array cells [i0,i1)x[j0,j1)
 * clipped from own-cell rectangle [a0,a1)x[b0,b1). */
static cudaError_t update(const heat2d_mpi_layout *l, heat2d_precision precision, const void *u,
                          void *v, size_t a0, size_t a1, size_t b0, size_t b1, double alpha,
                          bool dependent, cudaStream_t stream)
{
    const size_t a_lo = l->x0 == 0 ? 1 : 0;
    const size_t a_hi = l->lx - (l->x0 + l->lx == l->nx ? 1 : 0);
    const size_t b_lo = l->y0 == 0 ? 1 : 0;
    const size_t b_hi = l->ly - (l->y0 + l->ly == l->ny ? 1 : 0);
    a0 = a0 > a_lo ? a0 : a_lo;
    a1 = a1 < a_hi ? a1 : a_hi;
    b0 = b0 > b_lo ? b0 : b_lo;
    b1 = b1 < b_hi ? b1 : b_hi;
    if (a0 >= a1 || b0 >= b1)
        return cudaSuccess;
    return heat2d_cuda_step_rectangle(precision, u, v, l->stride, a0 + 1, a1 + 1, b0 + 1, b1 + 1,
                                      alpha, dependent, stream);
}

/* Without CUDA-aware MPI: the packed halos between the device buffer and
 * the pinned host one (down before the exchange, up after it), queued on
 * stream and counted as the other transfers they are. */
static cudaError_t stage_halos(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                               cudaStream_t stream, heat2d_report *rep)
{
    const cudaError_t rc = cudaMemcpyAsync(dst, src, bytes, kind, stream);
    if (rc != cudaSuccess)
        return rc;
    if (kind == cudaMemcpyDeviceToHost) {
        rep->d2h_other_count += 1;
        rep->d2h_other_bytes += bytes;
    } else {
        rep->h2d_other_count += 1;
        rep->h2d_other_bytes += bytes;
    }
    return cudaSuccess;
}

/* The own cells between the host's local array and a device array. */
static cudaError_t copy_block(const heat2d_mpi_layout *l, char *dst, const char *src,
                              enum cudaMemcpyKind kind)
{
    const size_t cb = l->cell_bytes;
    const size_t pitch = l->stride * cb;
    const size_t first = heat2d_mpi_local(l, 0, 0);
    return cudaMemcpy2D(AT(dst, first, cb), pitch, AT(src, first, cb), pitch, l->lx * cb, l->ly,
                        kind);
}

/* The transfer counters and phase times of all ranks, on rank 0. */
static int reduce_report(const heat2d_mpi_layout *l, heat2d_report *rep, double *phases, int n,
                         heat2d_error *err)
{
    if (heat2d_mpi_max(l, phases, n, err) != 0)
        return -1;
    uint64_t *counters[] = {
        &rep->h2d_count,       &rep->h2d_bytes,       &rep->d2h_count,
        &rep->d2h_bytes,       &rep->h2d_other_count, &rep->h2d_other_bytes,
        &rep->d2h_other_count, &rep->d2h_other_bytes, &rep->halo_bytes_per_step};
    for (size_t k = 0; k < sizeof counters / sizeof counters[0]; ++k)
        if (heat2d_mpi_sum(l, counters[k], err) != 0)
            return -1;
    return 0;
}

/* A rank's run: its layout, what it holds on its GPU and beside it, the
 * edges it exchanges, and where the loop stands. */
typedef struct mpi_cuda_run {
    const heat2d_config *cfg;
    heat2d_report *rep;
    heat2d_mpi_layout l;
    state st;
    edge edges[4];
    size_t n_edges;
    bool aware;        /* MPI takes device pointers */
    size_t halo_bytes; /* of all edges, packed */
    size_t step;
    int cur;     /* st.dev[cur] holds the field after `step` steps */
    bool joined; /* the streams joined after the last step */
    double halo_wait, snapshot_s;
} mpi_cuda_run;

/* The halo stream packs u's edges into one device buffer (columns by a
 * kernel, rows by a device copy) and, without CUDA-aware MPI, copies it to
 * pinned host memory. */
static int pack_edges(mpi_cuda_run *r, char *u, heat2d_error *err)
{
    const heat2d_precision precision = r->cfg->precision;
    const size_t cb = r->l.cell_bytes;
    state *st = &r->st;
    for (size_t k = 0; k < r->n_edges; ++k) {
        const edge *e = &r->edges[k];
        if (e->column)
            HEAT2D_CUDA_CHECK(err, heat2d_mpi_cuda_pack_column(
                                       precision, AT(u, e->send_at, cb), r->l.stride, e->count,
                                       AT(st->dev_send, e->offset, cb), st->halo));
        else
            HEAT2D_CUDA_CHECK(err, cudaMemcpyAsync(AT(st->dev_send, e->offset, cb),
                                                   AT(u, e->send_at, cb), e->count * cb,
                                                   cudaMemcpyDeviceToDevice, st->halo));
    }
    if (!r->aware && r->n_edges > 0)
        HEAT2D_CUDA_CHECK(err, stage_halos(st->host_send, st->dev_send, r->halo_bytes,
                                           cudaMemcpyDeviceToHost, st->halo, r->rep));
    return 0;
}

/* Once the edges are packed, the host exchanges them with the neighbours
 * (from and into device buffers with CUDA-aware MPI, pinned host ones
 * otherwise) and waits; the halo stream (copies them up and) unpacks them
 * into u's halo. */
static int exchange_halos(mpi_cuda_run *r, char *u, heat2d_error *err)
{
    const heat2d_precision precision = r->cfg->precision;
    const size_t cb = r->l.cell_bytes;
    state *st = &r->st;
    char *send = r->aware ? st->dev_send : st->host_send;
    char *recv = r->aware ? st->dev_recv : st->host_recv;
    /* The edges must have landed before MPI reads them. */
    HEAT2D_CUDA_CHECK(err, cudaStreamSynchronize(st->halo));
    int n_req = 0;
    for (size_t k = 0; k < r->n_edges; ++k) {
        const edge *e = &r->edges[k];
        HEAT2D_MPI_CHECK(err, MPI_Irecv(AT(recv, e->offset, cb), (int)e->count, r->l.cell, e->peer,
                                        e->recv_tag, r->l.comm, &st->req[n_req++]));
    }
    for (size_t k = 0; k < r->n_edges; ++k) {
        const edge *e = &r->edges[k];
        HEAT2D_MPI_CHECK(err, MPI_Isend(AT(send, e->offset, cb), (int)e->count, r->l.cell, e->peer,
                                        e->send_tag, r->l.comm, &st->req[n_req++]));
        r->rep->halo_bytes_per_step += e->count * cb;
    }
    const double tw = heat2d_now();
    HEAT2D_MPI_CHECK(err, MPI_Waitall(n_req, st->req, MPI_STATUSES_IGNORE));
    r->halo_wait += heat2d_now() - tw;
    if (!r->aware)
        HEAT2D_CUDA_CHECK(err, stage_halos(st->dev_recv, st->host_recv, r->halo_bytes,
                                           cudaMemcpyHostToDevice, st->halo, r->rep));
    for (size_t k = 0; k < r->n_edges; ++k) {
        const edge *e = &r->edges[k];
        if (e->column)
            HEAT2D_CUDA_CHECK(err, heat2d_mpi_cuda_unpack_column(
                                       precision, AT(st->dev_recv, e->offset, cb),
                                       AT(u, e->recv_at, cb), r->l.stride, e->count, st->halo));
        else
            HEAT2D_CUDA_CHECK(err, cudaMemcpyAsync(AT(u, e->recv_at, cb),
                                                   AT(st->dev_recv, e->offset, cb), e->count * cb,
                                                   cudaMemcpyDeviceToDevice, st->halo));
    }
    return 0;
}

/* The rim, as mpi-cpu cuts it (each cell once), on the halo stream. */
static int update_rim(mpi_cuda_run *r, const char *u, char *v, heat2d_error *err)
{
    const heat2d_mpi_layout *l = &r->l;
    const heat2d_precision precision = r->cfg->precision;
    const double alpha = r->cfg->alpha;
    const size_t lx = l->lx, ly = l->ly;
    cudaStream_t halo = r->st.halo;
    HEAT2D_CUDA_CHECK(err, update(l, precision, u, v, 0, lx, 0, 1, alpha, false, halo));
    if (ly > 1)
        HEAT2D_CUDA_CHECK(err, update(l, precision, u, v, 0, lx, ly - 1, ly, alpha, false, halo));
    if (ly > 2) {
        HEAT2D_CUDA_CHECK(err, update(l, precision, u, v, 0, 1, 1, ly - 1, alpha, false, halo));
        if (lx > 1)
            HEAT2D_CUDA_CHECK(
                err, update(l, precision, u, v, lx - 1, lx, 1, ly - 1, alpha, false, halo));
    }
    return 0;
}

/* The global boundary is 0 after every step, as in cpu (the initial field
 * passed to check may have other values there); no kernel writes it, so
 * zeroing v's in the first two steps is enough. */
static int zero_boundary(mpi_cuda_run *r, char *v, heat2d_error *err)
{
    const heat2d_mpi_layout *l = &r->l;
    const heat2d_precision precision = r->cfg->precision;
    const size_t cb = l->cell_bytes, s = l->stride, lx = l->lx, ly = l->ly;
    cudaStream_t halo = r->st.halo;
    if (l->y0 == 0)
        HEAT2D_CUDA_CHECK(err, cudaMemsetAsync(AT(v, s + 1, cb), 0, lx * cb, halo));
    if (l->y0 + ly == l->ny)
        HEAT2D_CUDA_CHECK(err, cudaMemsetAsync(AT(v, ly * s + 1, cb), 0, lx * cb, halo));
    if (l->x0 == 0)
        HEAT2D_CUDA_CHECK(err,
                          heat2d_mpi_cuda_zero_column(precision, AT(v, s + 1, cb), s, ly, halo));
    if (l->x0 + lx == l->nx)
        HEAT2D_CUDA_CHECK(err,
                          heat2d_mpi_cuda_zero_column(precision, AT(v, s + lx, cb), s, ly, halo));
    return 0;
}

/* One step from st.dev[cur]. No kernel writes the global boundary (the
 * rectangles leave it out), so v's keeps what it had: 0 in dev[1] from
 * setup, the initial field's in dev[0] until it is zeroed in step 1. After
 * that a rank with no neighbours has nothing for the halo stream, and its
 * steps are one kernel after another, each launched dependent on the one
 * before, as cuda-resident's are. */
static int cuda_step(mpi_cuda_run *r, heat2d_error *err)
{
    state *st = &r->st;
    char *u = st->dev[r->cur];
    char *v = st->dev[1 - r->cur];
    const size_t lx = r->l.lx, ly = r->l.ly;
    const bool boundary_to_zero = r->step < 2;
    const bool halo_work = r->n_edges > 0 || boundary_to_zero;
    if (pack_edges(r, u, err) != 0)
        return -1;
    /* Inner cells: read no halo, so they need not wait for the exchange. */
    HEAT2D_CUDA_CHECK(err, update(&r->l, r->cfg->precision, u, v, 1, lx > 1 ? lx - 1 : 1, 1,
                                  ly > 1 ? ly - 1 : 1, r->cfg->alpha, !r->joined, st->inner));
    if ((r->n_edges > 0 && exchange_halos(r, u, err) != 0) || update_rim(r, u, v, err) != 0 ||
        (boundary_to_zero && zero_boundary(r, v, err) != 0))
        return -1;
    /* Join: the next step packs and updates from the whole of v. */
    if (halo_work) {
        HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->halo_done, st->halo));
        HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(st->inner, st->halo_done, 0));
        HEAT2D_CUDA_CHECK(err, cudaEventRecord(st->inner_done, st->inner));
        HEAT2D_CUDA_CHECK(err, cudaStreamWaitEvent(st->halo, st->inner_done, 0));
    }
    r->joined = halo_work;
    r->cur = 1 - r->cur;
    r->step++;
    return 0;
}

static int run_advance(void *run, size_t count, heat2d_error *err)
{
    mpi_cuda_run *r = run;
    for (size_t k = 0; k < count; ++k)
        if (cuda_step(r, err) != 0)
            return -1;
    return 0;
}

/* A snapshot before the last step's read-back: each block down into its
 * host buffer and gathered to rank 0, timed apart from the loop. */
static int run_snapshot(void *run, size_t done, heat2d_error *err)
{
    mpi_cuda_run *r = run;
    const double ts = heat2d_now();
    HEAT2D_CUDA_CHECK(err, cudaDeviceSynchronize());
    HEAT2D_CUDA_CHECK(err,
                      copy_block(&r->l, r->st.host, r->st.dev[r->cur], cudaMemcpyDeviceToHost));
    r->rep->d2h_count += 1;
    r->rep->d2h_bytes += r->l.lx * r->l.ly * r->l.cell_bytes;
    void *full = r->st.full32 != NULL ? (void *)r->st.full32 : (void *)r->st.full;
    if (heat2d_mpi_snapshot(&r->l, r->cfg, done, r->st.host, full, r->rep, err) != 0)
        return -1;
    r->snapshot_s += heat2d_now() - ts;
    return 0;
}

/* The resident run from a barrier: each block up, the loop, each block
 * down. phases: TOTAL_S, ENTER_S, GPU_LOOP_S (without the snapshots),
 * HALO_WAIT_S, READBACK_S. */
static int run_resident(mpi_cuda_run *r, double phases[5], heat2d_error *err)
{
    const size_t block_bytes = r->l.lx * r->l.ly * r->l.cell_bytes;
    HEAT2D_MPI_CHECK(err, MPI_Barrier(r->l.comm));
    const double t_enter = heat2d_now();
    HEAT2D_CUDA_CHECK(err, copy_block(&r->l, r->st.dev[0], r->st.host, cudaMemcpyHostToDevice));
    r->rep->h2d_count += 1;
    r->rep->h2d_bytes += block_bytes;
    HEAT2D_CUDA_CHECK(err, cudaDeviceSynchronize());
    const double t_loop = heat2d_now();
    if (heat2d_run_segments(r->cfg, run_advance, run_snapshot, r, err) != 0)
        return -1;
    /* Kernel faults surface here. */
    HEAT2D_CUDA_CHECK(err, cudaDeviceSynchronize());
    const double t_readback = heat2d_now();
    HEAT2D_CUDA_CHECK(err,
                      copy_block(&r->l, r->st.host, r->st.dev[r->cur], cudaMemcpyDeviceToHost));
    r->rep->d2h_count += 1;
    r->rep->d2h_bytes += block_bytes;
    const double t_end = heat2d_now();
    r->rep->halo_bytes_per_step /= r->cfg->steps;
    phases[0] = t_end - t_enter;
    phases[1] = t_loop - t_enter;
    phases[2] = t_readback - t_loop - r->snapshot_s;
    phases[3] = r->halo_wait;
    phases[4] = t_end - t_readback;
    return 0;
}

/* After the loop: the counters and phases over the ranks, the field
 * gathered to rank 0 (the last snapshot), the phases reported. */
static int run_finish(mpi_cuda_run *r, double phases[5], double *total_s, heat2d_error *err)
{
    if (reduce_report(&r->l, r->rep, phases, 5, err) != 0)
        return -1;
    void *full = r->st.full32 != NULL ? (void *)r->st.full32 : (void *)r->st.full;
    const double tg = heat2d_now();
    if (heat2d_mpi_gather(&r->l, r->st.host, full, err) != 0 ||
        heat2d_mpi_last_snapshot(&r->l, r->cfg, full, r->rep, err) != 0)
        return -1;
    *total_s = phases[0];
    heat2d_report_phase(r->rep, "ENTER_S", phases[1]);
    heat2d_report_phase(r->rep, "GPU_LOOP_S", phases[2]);
    heat2d_report_phase(r->rep, "HALO_WAIT_S", phases[3]);
    heat2d_report_phase(r->rep, "READBACK_S", phases[4]);
    heat2d_report_phase(r->rep, "GATHER_S", heat2d_now() - tg);
    return 0;
}

static int mpi_cuda_solve(const heat2d_config *cfg, const double *initial, double **field,
                          double *total_s, heat2d_report *rep, heat2d_error *err)
{
    *field = NULL;
    *total_s = 0.0;
    mpi_cuda_run r = {.cfg = cfg, .rep = rep, .joined = true};
    if (heat2d_mpi_layout_open(WHO, cfg, &r.l, rep, err) != 0)
        return -1;
    rep->transfers_measured = true;
    r.n_edges = heat2d_mpi_cuda_edges(&r.l, r.edges);
    size_t halo_cells = 0;
    for (size_t k = 0; k < r.n_edges; ++k)
        halo_cells += r.edges[k].count;
    r.halo_bytes = halo_cells * r.l.cell_bytes;
    r.aware = heat2d_mpi_cuda_aware();
    int status = -1;
    if (heat2d_mpi_agree(&r.l, heat2d_mpi_cuda_setup(&r.l, halo_cells, r.aware, &r.st, err), err) ==
        0) {
        double phases[5];
        if (heat2d_mpi_first_field(&r.l, initial, r.st.full32, r.st.host, err) != 0 ||
            run_resident(&r, phases, err) != 0 || run_finish(&r, phases, total_s, err) != 0) {
            /* A failure inside the loop or its collectives leaves the other
             * ranks waiting: the program ends them after this rank's
             * line. */
            rep->abort_peers = r.l.ranks > 1;
            if (rep->abort_peers)
                return -1;
        } else {
            status = heat2d_mpi_take_field(cfg, &r.st.full, r.st.full32, field, err);
        }
    }
    heat2d_mpi_cuda_teardown(&r.st);
    heat2d_mpi_layout_close(&r.l);
    return status;
}

/* Distributed: solve_distributed in place of solve and solve_f32. */
HEAT2D_METHOD(heat2d_method_mpi_cuda, NULL, NULL, .name = "mpi-cuda", .seed_name = "MPI_CUDA",
              .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true, .has_snapshots = true,
              .prepare = heat2d_mpi_cuda_prepare, .distributed = true,
              .solve_distributed = mpi_cuda_solve);
