/* One mpi-cuda rank's buffers, streams and edges: made before the clock
 * starts, released on every exit. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "mpi_cuda_device.h"
#include "mpi_cuda_kernels.h"
#include "mpi_cuda_state.h"

size_t heat2d_mpi_cuda_edges(const heat2d_mpi_layout *l, edge e[4])
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
int heat2d_mpi_cuda_setup(const heat2d_mpi_layout *l, size_t halo_cells, bool aware, state *st,
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

void heat2d_mpi_cuda_teardown(state *st)
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
