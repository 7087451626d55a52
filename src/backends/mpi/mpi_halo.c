/* The persistent halo requests of a host buffer (mpi_halo.h). */
#include "mpi_halo.h"

/* The eight directions, edges first. A strip is tagged with the direction
 * it travels: what this rank sends west travels west, what it receives from
 * the west travels east. */
static const struct {
    int dx, dy;
    int tag_out, tag_in;
} directions[8] = {
    {-1, 0, HEAT2D_TAG_WEST, HEAT2D_TAG_EAST},
    {1, 0, HEAT2D_TAG_EAST, HEAT2D_TAG_WEST},
    {0, -1, HEAT2D_TAG_SOUTH, HEAT2D_TAG_NORTH},
    {0, 1, HEAT2D_TAG_NORTH, HEAT2D_TAG_SOUTH},
    {-1, -1, HEAT2D_TAG_SOUTH_WEST, HEAT2D_TAG_NORTH_EAST},
    {1, -1, HEAT2D_TAG_SOUTH_EAST, HEAT2D_TAG_NORTH_WEST},
    {-1, 1, HEAT2D_TAG_NORTH_WEST, HEAT2D_TAG_SOUTH_EAST},
    {1, 1, HEAT2D_TAG_NORTH_EAST, HEAT2D_TAG_SOUTH_WEST},
};

static int peer(const heat2d_mpi_layout *l, int k)
{
    const int peers[8] = {l->west,       l->east,       l->south,      l->north,
                          l->south_west, l->south_east, l->north_west, l->north_east};
    /* Corners only for deep halos: a 5-point step reads none. */
    if (k >= 4 && l->halo.depth == 1)
        return MPI_PROC_NULL;
    return peers[k];
}

int heat2d_mpi_strips_create(const heat2d_mpi_layout *l, heat2d_mpi_strips *s, heat2d_error *err)
{
    for (int k = 0; k < 8; ++k)
        s->type[k] = MPI_DATATYPE_NULL;
    for (int k = 0; k < 8; ++k) {
        if (peer(l, k) == MPI_PROC_NULL)
            continue;
        const heat2d_halo_rect r = heat2d_halo_send(&l->halo, directions[k].dx, directions[k].dy);
        /* Rows of the strip, each a run of contiguous cells. Every size
         * is at most a side of the local array, which fits an int. */
        HEAT2D_MPI_CHECK(err, MPI_Type_vector((int)(r.j1 - r.j0), (int)(r.i1 - r.i0),
                                              (int)l->stride, l->cell, &s->type[k]));
        HEAT2D_MPI_CHECK(err, MPI_Type_commit(&s->type[k]));
    }
    return 0;
}

void heat2d_mpi_strips_free(heat2d_mpi_strips *s)
{
    for (int k = 0; k < 8; ++k)
        if (s->type[k] != MPI_DATATYPE_NULL)
            MPI_Type_free(&s->type[k]);
}

static void *cell_at(const heat2d_mpi_layout *l, void *base, heat2d_halo_rect r)
{
    return (char *)base + heat2d_halo_index(&l->halo, r.i0, r.j0) * l->cell_bytes;
}

int heat2d_mpi_halo_init(const heat2d_mpi_layout *l, const heat2d_mpi_strips *s, void *u,
                         heat2d_mpi_halo *h, heat2d_error *err)
{
    h->n = 0;
    h->send_bytes = 0;
    for (int k = 0; k < 16; ++k)
        h->req[k] = MPI_REQUEST_NULL;
    for (int k = 0; k < 8; ++k) {
        const int p = peer(l, k);
        if (p == MPI_PROC_NULL)
            continue;
        const heat2d_halo_rect r = heat2d_halo_recv(&l->halo, directions[k].dx, directions[k].dy);
        HEAT2D_MPI_CHECK(err, MPI_Recv_init(cell_at(l, u, r), 1, s->type[k], p,
                                            directions[k].tag_in, l->comm, &h->req[h->n++]));
    }
    for (int k = 0; k < 8; ++k) {
        const int p = peer(l, k);
        if (p == MPI_PROC_NULL)
            continue;
        const heat2d_halo_rect r = heat2d_halo_send(&l->halo, directions[k].dx, directions[k].dy);
        HEAT2D_MPI_CHECK(err, MPI_Send_init(cell_at(l, u, r), 1, s->type[k], p,
                                            directions[k].tag_out, l->comm, &h->req[h->n++]));
        h->send_bytes += (uint64_t)heat2d_halo_rect_cells(r) * l->cell_bytes;
    }
    return 0;
}

void heat2d_mpi_halo_free(heat2d_mpi_halo *h)
{
    for (int k = 0; k < h->n; ++k)
        if (h->req[k] != MPI_REQUEST_NULL)
            MPI_Request_free(&h->req[k]);
    h->n = 0;
}

size_t heat2d_mpi_halo_filled(const heat2d_mpi_layout *l, heat2d_halo_rect out[8])
{
    size_t n = 0;
    for (int k = 0; k < 8; ++k)
        if (peer(l, k) != MPI_PROC_NULL)
            out[n++] = heat2d_halo_recv(&l->halo, directions[k].dx, directions[k].dy);
    return n;
}
