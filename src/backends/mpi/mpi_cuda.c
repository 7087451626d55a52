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

static int mpi_cuda_solve(const heat2d_config *cfg, const double *initial, double **field,
                          double *total_s, heat2d_report *rep, heat2d_error *err)
{
    *field = NULL;
    *total_s = 0.0;
    heat2d_mpi_layout l;
    if (heat2d_mpi_layout_open(WHO, cfg, &l, rep, err) != 0)
        return -1;
    rep->transfers_measured = true;

    int status = -1;
    state st;
    memset(&st, 0, sizeof st);
    edge edges[4];
    const size_t n_edges = heat2d_mpi_cuda_edges(&l, edges);
    size_t halo_cells = 0;
    for (size_t k = 0; k < n_edges; ++k)
        halo_cells += edges[k].count;
    const bool aware = heat2d_mpi_cuda_aware();
    if (heat2d_mpi_agree(&l, heat2d_mpi_cuda_setup(&l, halo_cells, aware, &st, err), err) != 0)
        goto done;
    /* From here on a rank that fails may leave others blocked: `failed`
     * ends the job. */
    const heat2d_precision precision = cfg->precision;
    const size_t cb = l.cell_bytes;
    if (initial != NULL) {
        /* In f32 rank 0 rounds the field to float and scatters that. */
        const void *from = initial;
        if (st.full32 != NULL) {
            for (size_t c = 0; c < cfg->nx * cfg->ny; ++c)
                st.full32[c] = (float)initial[c];
            from = st.full32;
        }
        if (heat2d_mpi_scatter(&l, from, st.host, err) != 0)
            goto failed;
    } else {
        heat2d_mpi_initial_block(&l, st.host);
    }

    const size_t s = l.stride;
    const size_t lx = l.lx;
    const size_t ly = l.ly;
    const size_t block_bytes = lx * ly * cb;
    const size_t halo_bytes = halo_cells * cb;
    char *send = aware ? st.dev_send : st.host_send;
    char *recv = aware ? st.dev_recv : st.host_recv;
    double halo_wait = 0.0, snapshot_s = 0.0;
    int cur = 0;
    bool joined = true; /* the streams joined after the last step */

    HEAT2D_MPI_CHECK_GOTO(err, MPI_Barrier(l.comm), failed);
    const double t_enter = heat2d_now();
    HEAT2D_CUDA_CHECK_GOTO(err, copy_block(&l, st.dev[0], st.host, cudaMemcpyHostToDevice), failed);
    rep->h2d_count += 1;
    rep->h2d_bytes += block_bytes;
    HEAT2D_CUDA_CHECK_GOTO(err, cudaDeviceSynchronize(), failed);
    const double t_loop = heat2d_now();

    for (size_t step = 0; step < cfg->steps; ++step) {
        char *u = st.dev[cur];
        char *v = st.dev[1 - cur];
        /* No kernel writes the global boundary (the rectangles leave it
         * out), so v's keeps what it had: 0 in dev[1] from setup, the
         * initial field's in dev[0] until it is zeroed in step 1. After
         * that a rank with no neighbours has nothing for the halo stream,
         * and its steps are one kernel after another, each launched
         * dependent on the one before, as cuda-resident's are. */
        const bool boundary_to_zero = step < 2;
        const bool halo_work = n_edges > 0 || boundary_to_zero;
        for (size_t k = 0; k < n_edges; ++k) {
            const edge *e = &edges[k];
            if (e->column)
                HEAT2D_CUDA_CHECK_GOTO(
                    err,
                    heat2d_mpi_cuda_pack_column(precision, AT(u, e->send_at, cb), s, e->count,
                                                AT(st.dev_send, e->offset, cb), st.halo),
                    failed);
            else
                HEAT2D_CUDA_CHECK_GOTO(err,
                                       cudaMemcpyAsync(AT(st.dev_send, e->offset, cb),
                                                       AT(u, e->send_at, cb), e->count * cb,
                                                       cudaMemcpyDeviceToDevice, st.halo),
                                       failed);
        }
        if (!aware && n_edges > 0)
            HEAT2D_CUDA_CHECK_GOTO(err,
                                   stage_halos(st.host_send, st.dev_send, halo_bytes,
                                               cudaMemcpyDeviceToHost, st.halo, rep),
                                   failed);
        /* Inner cells: read no halo, so they need not wait for the
         * exchange. */
        HEAT2D_CUDA_CHECK_GOTO(err,
                               update(&l, precision, u, v, 1, lx > 1 ? lx - 1 : 1, 1,
                                      ly > 1 ? ly - 1 : 1, cfg->alpha, !joined, st.inner),
                               failed);
        if (n_edges > 0) {
            /* The edges must have landed before MPI reads them. */
            HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamSynchronize(st.halo), failed);
            int n_req = 0;
            for (size_t k = 0; k < n_edges; ++k)
                HEAT2D_MPI_CHECK_GOTO(err,
                                      MPI_Irecv(AT(recv, edges[k].offset, cb), (int)edges[k].count,
                                                l.cell, edges[k].peer, edges[k].recv_tag, l.comm,
                                                &st.req[n_req++]),
                                      failed);
            for (size_t k = 0; k < n_edges; ++k) {
                HEAT2D_MPI_CHECK_GOTO(err,
                                      MPI_Isend(AT(send, edges[k].offset, cb), (int)edges[k].count,
                                                l.cell, edges[k].peer, edges[k].send_tag, l.comm,
                                                &st.req[n_req++]),
                                      failed);
                rep->halo_bytes_per_step += edges[k].count * cb;
            }
            const double tw = heat2d_now();
            HEAT2D_MPI_CHECK_GOTO(err, MPI_Waitall(n_req, st.req, MPI_STATUSES_IGNORE), failed);
            halo_wait += heat2d_now() - tw;
            if (!aware)
                HEAT2D_CUDA_CHECK_GOTO(err,
                                       stage_halos(st.dev_recv, st.host_recv, halo_bytes,
                                                   cudaMemcpyHostToDevice, st.halo, rep),
                                       failed);
            for (size_t k = 0; k < n_edges; ++k) {
                const edge *e = &edges[k];
                if (e->column)
                    HEAT2D_CUDA_CHECK_GOTO(
                        err,
                        heat2d_mpi_cuda_unpack_column(precision, AT(st.dev_recv, e->offset, cb),
                                                      AT(u, e->recv_at, cb), s, e->count, st.halo),
                        failed);
                else
                    HEAT2D_CUDA_CHECK_GOTO(
                        err,
                        cudaMemcpyAsync(AT(u, e->recv_at, cb), AT(st.dev_recv, e->offset, cb),
                                        e->count * cb, cudaMemcpyDeviceToDevice, st.halo),
                        failed);
            }
        }
        /* The rim, as mpi-cpu cuts it: each cell once. */
        HEAT2D_CUDA_CHECK_GOTO(
            err, update(&l, precision, u, v, 0, lx, 0, 1, cfg->alpha, false, st.halo), failed);
        if (ly > 1)
            HEAT2D_CUDA_CHECK_GOTO(
                err, update(&l, precision, u, v, 0, lx, ly - 1, ly, cfg->alpha, false, st.halo),
                failed);
        if (ly > 2) {
            HEAT2D_CUDA_CHECK_GOTO(
                err, update(&l, precision, u, v, 0, 1, 1, ly - 1, cfg->alpha, false, st.halo),
                failed);
            if (lx > 1)
                HEAT2D_CUDA_CHECK_GOTO(
                    err,
                    update(&l, precision, u, v, lx - 1, lx, 1, ly - 1, cfg->alpha, false, st.halo),
                    failed);
        }
        /* The global boundary is 0 after every step, as in cpu (the
         * initial field passed to check may have other values there). */
        if (boundary_to_zero && l.y0 == 0)
            HEAT2D_CUDA_CHECK_GOTO(err, cudaMemsetAsync(AT(v, s + 1, cb), 0, lx * cb, st.halo),
                                   failed);
        if (boundary_to_zero && l.y0 + ly == l.ny)
            HEAT2D_CUDA_CHECK_GOTO(err, cudaMemsetAsync(AT(v, ly * s + 1, cb), 0, lx * cb, st.halo),
                                   failed);
        if (boundary_to_zero && l.x0 == 0)
            HEAT2D_CUDA_CHECK_GOTO(
                err, heat2d_mpi_cuda_zero_column(precision, AT(v, s + 1, cb), s, ly, st.halo),
                failed);
        if (boundary_to_zero && l.x0 + lx == l.nx)
            HEAT2D_CUDA_CHECK_GOTO(
                err, heat2d_mpi_cuda_zero_column(precision, AT(v, s + lx, cb), s, ly, st.halo),
                failed);
        /* Join: the next step packs and updates from the whole of v. */
        if (halo_work) {
            HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(st.halo_done, st.halo), failed);
            HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamWaitEvent(st.inner, st.halo_done, 0), failed);
            HEAT2D_CUDA_CHECK_GOTO(err, cudaEventRecord(st.inner_done, st.inner), failed);
            HEAT2D_CUDA_CHECK_GOTO(err, cudaStreamWaitEvent(st.halo, st.inner_done, 0), failed);
        }
        joined = halo_work;
        cur = 1 - cur;
        /* A snapshot before the last step's read-back: each block down into
         * its host buffer and gathered to rank 0, timed apart from the
         * loop. */
        const size_t done = step + 1;
        if (cfg->output_every > 0 && done % cfg->output_every == 0 && done < cfg->steps) {
            const double ts = heat2d_now();
            HEAT2D_CUDA_CHECK_GOTO(err, cudaDeviceSynchronize(), failed);
            HEAT2D_CUDA_CHECK_GOTO(
                err, copy_block(&l, st.host, st.dev[cur], cudaMemcpyDeviceToHost), failed);
            rep->d2h_count += 1;
            rep->d2h_bytes += block_bytes;
            if (heat2d_mpi_snapshot(&l, cfg, done, st.host,
                                    st.full32 != NULL ? (void *)st.full32 : (void *)st.full, rep,
                                    err) != 0)
                goto failed;
            snapshot_s += heat2d_now() - ts;
        }
    }
    /* Kernel faults surface here. */
    HEAT2D_CUDA_CHECK_GOTO(err, cudaDeviceSynchronize(), failed);
    const double t_readback = heat2d_now();
    HEAT2D_CUDA_CHECK_GOTO(err, copy_block(&l, st.host, st.dev[cur], cudaMemcpyDeviceToHost),
                           failed);
    rep->d2h_count += 1;
    rep->d2h_bytes += block_bytes;
    const double t_end = heat2d_now();
    rep->halo_bytes_per_step /= cfg->steps;

    /* TOTAL_S holds the snapshots' cost; GPU_LOOP_S leaves it out. */
    double phases[5] = {t_end - t_enter, t_loop - t_enter, t_readback - t_loop - snapshot_s,
                        halo_wait, t_end - t_readback};
    if (reduce_report(&l, rep, phases, 5, err) != 0)
        goto failed;
    const double tg = heat2d_now();
    if (heat2d_mpi_gather(&l, st.host, st.full32 != NULL ? (void *)st.full32 : (void *)st.full,
                          err) != 0)
        goto failed;
    /* The last snapshot is the final gather. */
    if (cfg->output_every > 0 &&
        (l.rank == 0 ? heat2d_hand_snapshot(cfg, cfg->steps,
                                            st.full32 != NULL ? (void *)st.full32 : (void *)st.full,
                                            NULL, rep, err)
                     : (rep->snapshots++, 0)) != 0)
        goto failed;
    if (st.full32 != NULL) /* f32: widen, as every method returns doubles */
        for (size_t c = 0; c < cfg->nx * cfg->ny; ++c)
            st.full[c] = (double)st.full32[c];
    *total_s = phases[0];
    heat2d_report_phase(rep, "ENTER_S", phases[1]);
    heat2d_report_phase(rep, "GPU_LOOP_S", phases[2]);
    heat2d_report_phase(rep, "HALO_WAIT_S", phases[3]);
    heat2d_report_phase(rep, "READBACK_S", phases[4]);
    heat2d_report_phase(rep, "GATHER_S", heat2d_now() - tg);
    size_t bad_i, bad_j;
    if (st.full != NULL && heat2d_find_nonfinite(cfg->nx, cfg->ny, st.full, &bad_i, &bad_j)) {
        heat2d_fail_nonfinite(cfg->nx, cfg->ny, st.full, cfg->steps, err);
        goto done;
    }
    *field = st.full;
    st.full = NULL;
    status = 0;
    goto done;

failed:
    /* A failure inside the loop or its collectives leaves the other ranks
     * waiting: the program ends them after this rank's line. */
    rep->abort_peers = l.ranks > 1;
    if (rep->abort_peers)
        return -1;
done:
    heat2d_mpi_cuda_teardown(&st);
    heat2d_mpi_layout_close(&l);
    return status;
}

const heat2d_method heat2d_method_mpi_cuda = {
    .name = "mpi-cuda",
    .seed_name = "MPI_CUDA",
    .style = HEAT2D_STYLE_RESIDENT,
    .gpu_only = true,
    .has_pinned_variant = false,
    .checks_each_step = false,
    .has_snapshots = true,
    .prepare = heat2d_mpi_cuda_prepare,
    .solve = NULL,
    .distributed = true,
    .solve_distributed = mpi_cuda_solve,
};
