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

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif

#define WHO "mpi-cuda"

/* Whether MPI takes device pointers. The header's MPIX_CUDA_AWARE_SUPPORT
 * says what the headers were built with; the library found at run time may
 * differ, so it is asked. HEAT2D_MPI_CUDA_AWARE=0 stages the halos through
 * host memory anyway, to measure what CUDA-aware MPI buys. */
static bool cuda_aware_mpi(void)
{
    const char *force = getenv("HEAT2D_MPI_CUDA_AWARE");
    if (force != NULL && strcmp(force, "0") == 0)
        return false;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    int supported = 0;
    return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) == MPI_SUCCESS &&
           supported != 0;
#else
    return false;
#endif
}

/* Opens the GPU of this node-local rank: device, context, kernels, all
 * before any clock. */
static int open_device(int local_rank, int local_ranks, int *node_gpus, heat2d_report *rep,
                       heat2d_error *err)
{
    const double t0 = heat2d_now();
    int count = 0;
    const cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess)
        return heat2d_fail(err, WHO ": no CUDA device: %s", cudaGetErrorString(rc));
    if (count <= 0)
        return heat2d_fail(err, WHO ": no CUDA device: the runtime found none");
    const int device = local_rank % count;
    *node_gpus = local_ranks < count ? local_ranks : count;
    HEAT2D_CUDA_CHECK(err, cudaSetDevice(device));
    HEAT2D_CUDA_CHECK(err, cudaFree(NULL));
    char code[96];
    if (heat2d_cuda_code_for(WHO, device, code, sizeof code, err) != 0)
        return -1;
    HEAT2D_CUDA_CHECK(err, heat2d_mpi_cuda_load_kernels());
    rep->context_s = heat2d_now() - t0;
    struct cudaDeviceProp prop;
    HEAT2D_CUDA_CHECK(err, cudaGetDeviceProperties(&prop, device));
    snprintf(rep->device, sizeof rep->device, "%.60s", prop.name);
    rep->pass_steps = 1;
    rep->fp_ops_per_cell = 7;
    return 0;
}

static int mpi_cuda_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    (void)cfg;
    if (heat2d_mpi_start(WHO, err) != 0)
        return -1;
    MPI_Comm node = MPI_COMM_NULL;
    int local_rank = 0;
    HEAT2D_MPI_CHECK(
        err, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int local_ranks = 1;
    int rc = MPI_Comm_rank(node, &local_rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(node, &local_ranks);
    MPI_Comm_free(&node);
    if (rc != MPI_SUCCESS)
        return heat2d_mpi_fail(err, __FILE__, __LINE__, "MPI_Comm_rank(node)", rc);
    /* A rank without a GPU must not leave the others waiting in the solve's
     * first collective: agree, and let rank 0 say which rank failed. */
    int node_gpus = 0;
    if (heat2d_mpi_agree_comm(MPI_COMM_WORLD,
                              open_device(local_rank, local_ranks, &node_gpus, rep, err), err) != 0)
        return -1;
    /* The GPUs in use over all nodes (ranks beyond a node's GPUs share
     * them), for the device column and the bench's bound: P ranks on P
     * GPUs have P times one GPU's bandwidth. */
    int mine = local_rank == 0 ? node_gpus : 0, gpus = 0, ranks = 1;
    HEAT2D_MPI_CHECK(err, MPI_Allreduce(&mine, &gpus, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    HEAT2D_MPI_CHECK(err, MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    char name[64];
    snprintf(name, sizeof name, "%.60s", rep->device);
    snprintf(rep->device, sizeof rep->device, "%s (%d rank%s on %d GPU%s, %s)", name, ranks,
             ranks == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s",
             cuda_aware_mpi() ? "CUDA-aware MPI" : "halos via pinned host");
    return 0;
}

/* One edge of the block that has a neighbour: where its cells are in the
 * local array (send_at: the block's own edge; recv_at: the halo beyond it),
 * how many, and where they sit in the packed buffers. */
typedef struct edge {
    int peer;
    int send_tag;
    int recv_tag;
    bool column;
    size_t count;
    size_t send_at;
    size_t recv_at;
    size_t offset;
} edge;

typedef struct state {
    /* Byte pointers to cells of l->cell_bytes (cfg->precision): offsets
     * below are cell counts times cell_bytes (AT). */
    char *dev[2];
    char *dev_send;
    char *dev_recv;
    char *host_send; /* pinned; NULL with CUDA-aware MPI */
    char *host_recv;
    char *host;    /* the local array on the host: initial state, result */
    double *full;  /* rank 0: the gathered field, as every method returns it */
    float *full32; /* rank 0 in f32: the field in float, gathered or to scatter */
    cudaStream_t inner;
    cudaStream_t halo;
    cudaEvent_t inner_done;
    cudaEvent_t halo_done;
    MPI_Request req[8];
} state;

static size_t edges_of(const heat2d_mpi_layout *l, edge e[4])
{
    const size_t s = l->stride;
    size_t n = 0;
    size_t offset = 0;
    const struct {
        int peer;
        int send_tag;
        int recv_tag;
        bool column;
        size_t send_at;
        size_t recv_at;
    } all[4] = {
        {l->west, HEAT2D_TAG_WEST, HEAT2D_TAG_EAST, true, s + 1, s},
        {l->east, HEAT2D_TAG_EAST, HEAT2D_TAG_WEST, true, s + l->lx, s + l->lx + 1},
        {l->south, HEAT2D_TAG_SOUTH, HEAT2D_TAG_NORTH, false, s + 1, 1},
        {l->north, HEAT2D_TAG_NORTH, HEAT2D_TAG_SOUTH, false, l->ly * s + 1, (l->ly + 1) * s + 1},
    };
    for (int k = 0; k < 4; ++k) {
        if (all[k].peer == MPI_PROC_NULL)
            continue;
        e[n].peer = all[k].peer;
        e[n].send_tag = all[k].send_tag;
        e[n].recv_tag = all[k].recv_tag;
        e[n].column = all[k].column;
        e[n].count = all[k].column ? l->ly : l->lx;
        e[n].send_at = all[k].send_at;
        e[n].recv_at = all[k].recv_at;
        e[n].offset = offset;
        offset += e[n].count;
        n++;
    }
    return n;
}

/* Allocations and streams; what fails is reported, the caller agrees. */
static int setup(const heat2d_mpi_layout *l, size_t halo_cells, bool aware, state *st,
                 heat2d_error *err)
{
    const size_t bytes = l->cells * l->cell_bytes;
    const size_t halo_bytes = (halo_cells > 0 ? halo_cells : 1) * l->cell_bytes;
    const bool f32 = l->cell_bytes == sizeof(float);
    size_t free_bytes = 0, total_bytes = 0;
    HEAT2D_CUDA_CHECK(err, cudaMemGetInfo(&free_bytes, &total_bytes));
    if ((double)bytes * 2.0 + 2.0 * (double)halo_bytes > (double)free_bytes)
        return heat2d_fail(err,
                           WHO ": rank %d: block %zux%zu needs 2 x %.3g GB of device memory, more "
                               "than the %.3g GB free",
                           l->rank, l->lx, l->ly, (double)bytes / 1e9, (double)free_bytes / 1e9);
    if (l->rank == 0) {
        st->full = malloc(l->nx * l->ny * sizeof(double));
        if (f32)
            st->full32 = malloc(l->nx * l->ny * sizeof(float));
    }
    if (l->rank == 0 && (st->full == NULL || (f32 && st->full32 == NULL)))
        return heat2d_fail(err, WHO ": rank %d cannot allocate its host arrays", l->rank);
    /* The block's host copy page-locked (before the clock, like every
     * allocation): the upload and read-back inside TOTAL_S then run at the
     * link's speed on every rank at once, where pageable copies go through
     * the driver's staging buffers and the ranks contend for the host's
     * memory bandwidth, which cost weak scaling several percent
     * (docs/performance.md, "mpi-cuda"). */
    HEAT2D_CUDA_CHECK(err, cudaMallocHost((void **)&st->host, bytes));
    memset(st->host, 0, bytes);
    for (int k = 0; k < 2; ++k) {
        HEAT2D_CUDA_CHECK(err, cudaMalloc((void **)&st->dev[k], bytes));
        /* Halos and the global boundary start at 0, as in cpu's arrays. */
        HEAT2D_CUDA_CHECK(err, cudaMemset(st->dev[k], 0, bytes));
    }
    HEAT2D_CUDA_CHECK(err, cudaMalloc((void **)&st->dev_send, halo_bytes));
    HEAT2D_CUDA_CHECK(err, cudaMalloc((void **)&st->dev_recv, halo_bytes));
    if (!aware) {
        HEAT2D_CUDA_CHECK(err, cudaMallocHost((void **)&st->host_send, halo_bytes));
        HEAT2D_CUDA_CHECK(err, cudaMallocHost((void **)&st->host_recv, halo_bytes));
    }
    /* The halo stream at the highest priority: its pack, copies and rim
     * kernels are queued behind the inner update, which fills every SM;
     * at equal priority the block scheduler would run them only when the
     * inner update drains, putting the whole exchange on the critical
     * path of every step instead of under the inner update. */
    int least = 0, greatest = 0;
    HEAT2D_CUDA_CHECK(err, cudaDeviceGetStreamPriorityRange(&least, &greatest));
    HEAT2D_CUDA_CHECK(err, cudaStreamCreateWithPriority(&st->inner, cudaStreamNonBlocking, least));
    HEAT2D_CUDA_CHECK(err,
                      cudaStreamCreateWithPriority(&st->halo, cudaStreamNonBlocking, greatest));
    HEAT2D_CUDA_CHECK(err, cudaEventCreateWithFlags(&st->inner_done, cudaEventDisableTiming));
    HEAT2D_CUDA_CHECK(err, cudaEventCreateWithFlags(&st->halo_done, cudaEventDisableTiming));
    return 0;
}

static void teardown(state *st)
{
    /* Best effort: err already holds the first failure, if any. */
    if (st->inner_done != NULL)
        (void)cudaEventDestroy(st->inner_done);
    if (st->halo_done != NULL)
        (void)cudaEventDestroy(st->halo_done);
    if (st->inner != NULL)
        (void)cudaStreamDestroy(st->inner);
    if (st->halo != NULL)
        (void)cudaStreamDestroy(st->halo);
    (void)cudaFreeHost(st->host_send);
    (void)cudaFreeHost(st->host_recv);
    (void)cudaFree(st->dev_send);
    (void)cudaFree(st->dev_recv);
    (void)cudaFree(st->dev[0]);
    (void)cudaFree(st->dev[1]);
    (void)cudaFreeHost(st->host);
    free(st->full);
    free(st->full32);
}

/* Cell k of a byte pointer to cells of cell_bytes. */
#define AT(base, k, cell_bytes) ((base) + (size_t)(k) * (cell_bytes))

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
    const size_t n_edges = edges_of(&l, edges);
    size_t halo_cells = 0;
    for (size_t k = 0; k < n_edges; ++k)
        halo_cells += edges[k].count;
    const bool aware = cuda_aware_mpi();
    if (heat2d_mpi_agree(&l, setup(&l, halo_cells, aware, &st, err), err) != 0)
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
                                            rep, err)
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
    teardown(&st);
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
    .prepare = mpi_cuda_prepare,
    .solve = NULL,
    .distributed = true,
    .solve_distributed = mpi_cuda_solve,
};
