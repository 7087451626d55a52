/* The halo exchange of a host buffer (mpi-cpu): persistent non-blocking
 * requests, set up once, that send a block's edge strips (halo_plan.h) to
 * its neighbours and receive theirs into its halo, with a vector type per
 * strip so that nothing is packed by hand. Internal to src/backends/mpi. */
#ifndef HEAT2D_MPI_HALO_H
#define HEAT2D_MPI_HALO_H

#include "mpi_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One strip shape per direction (west, east, south, north, then the four
 * diagonals), shared by the two buffers of a Jacobi pair: a strip sent and
 * the halo it fills on the other side have the same shape.
 * MPI_DATATYPE_NULL where there is no neighbour, and for the diagonals at
 * depth 1, where a 5-point step reads no corner. */
typedef struct heat2d_mpi_strips {
    MPI_Datatype type[8];
} heat2d_mpi_strips;

int heat2d_mpi_strips_create(const heat2d_mpi_layout *l, heat2d_mpi_strips *s, heat2d_error *err);
void heat2d_mpi_strips_free(heat2d_mpi_strips *s);

/* The requests that exchange the halos of one buffer: the receives, then the
 * sends, none towards the global boundary. */
typedef struct heat2d_mpi_halo {
    MPI_Request req[16];
    int n;
    uint64_t send_bytes; /* what one exchange posts from this rank */
} heat2d_mpi_halo;

/* Not collective. On failure the requests made so far stay in h, for
 * heat2d_mpi_halo_free. */
int heat2d_mpi_halo_init(const heat2d_mpi_layout *l, const heat2d_mpi_strips *s, void *u,
                         heat2d_mpi_halo *h, heat2d_error *err);
void heat2d_mpi_halo_free(heat2d_mpi_halo *h);

/* The halo cells one exchange fills: up to 8 rectangles of the local array
 * (halo_plan.h's receive strips, one per neighbour). Returns how many. */
size_t heat2d_mpi_halo_filled(const heat2d_mpi_layout *l, heat2d_halo_rect out[8]);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_MPI_HALO_H */
