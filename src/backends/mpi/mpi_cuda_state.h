/* What one mpi-cuda rank holds on its GPU and beside it: the two blocks,
 * the halo buffers (device, and pinned host ones without CUDA-aware MPI),
 * the two streams and their events, and the edges it exchanges
 * (mpi_cuda_state.c). */
#ifndef HEAT2D_MPI_CUDA_STATE_H
#define HEAT2D_MPI_CUDA_STATE_H

#include <cuda_runtime_api.h>

#include "mpi_common.h"

/* Cell k of a byte pointer to cells of cell_bytes. */
#define AT(base, k, cell_bytes) ((base) + (size_t)(k) * (cell_bytes))

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

/* The rank's edges that have a neighbour (at most four), into e; how many. */
size_t heat2d_mpi_cuda_edges(const heat2d_mpi_layout *l, edge e[4]);

/* Allocates and creates everything in st for layout l, halos of
 * halo_cells cells, staged through host memory unless aware; 0, or -1 with
 * err (what was made is released by heat2d_mpi_cuda_teardown). */
int heat2d_mpi_cuda_setup(const heat2d_mpi_layout *l, size_t halo_cells, bool aware, state *st,
                          heat2d_error *err);

/* Releases whatever st holds. */
void heat2d_mpi_cuda_teardown(state *st);

#endif /* HEAT2D_MPI_CUDA_STATE_H */
