/* MPI services shared by the distributed methods: errors, the Cartesian
 * decomposition, blocks, gathers and reductions. */
#include "mpi_common.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int heat2d_mpi_fail(heat2d_error *err, const char *file, int line, const char *expr, int rc)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    const char *slash = strrchr(file, '/');
    return heat2d_fail(err, "%s:%d: %s: %s", slash != NULL ? slash + 1 : file, line, expr, text);
}

/* ---- decomposition ------------------------------------------------------ */

void heat2d_mpi_split(size_t n, int parts, int c, size_t *first, size_t *count)
{
    size_t base = n / (size_t)parts;
    size_t extra = n % (size_t)parts;
    size_t k = (size_t)c;
    *first = k * base + (k < extra ? k : extra);
    *count = base + (k < extra ? 1 : 0);
}

/* ---- the layout ----------------------------------------------------------- */

int heat2d_mpi_layout_open(const char *who, const heat2d_config *cfg, heat2d_mpi_layout *l,
                           heat2d_report *rep, heat2d_error *err)
{
    return heat2d_mpi_layout_open_halo(who, cfg, 1, l, rep, err);
}

/* The rank at (cx+dx, cy+dy), MPI_PROC_NULL off the grid of ranks. */
static int neighbour(const heat2d_mpi_layout *l, int dx, int dy, int *rank, heat2d_error *err)
{
    const int cx = l->cx + dx, cy = l->cy + dy;
    *rank = MPI_PROC_NULL;
    if (cx < 0 || cy < 0 || cx >= l->dims[0] || cy >= l->dims[1])
        return 0;
    int coords[2] = {cy, cx};
    HEAT2D_MPI_CHECK(err, MPI_Cart_rank(l->comm, coords, rank));
    return 0;
}

int heat2d_mpi_layout_open_halo(const char *who, const heat2d_config *cfg, size_t depth,
                                heat2d_mpi_layout *l, heat2d_report *rep, heat2d_error *err)
{
    memset(l, 0, sizeof *l);
    l->comm = MPI_COMM_NULL;
    l->block = MPI_DATATYPE_NULL;
    l->cell = cfg->precision == HEAT2D_F32 ? MPI_FLOAT : MPI_DOUBLE;
    l->cell_of = heat2d_cells_of(cfg->precision);
    l->cell_bytes = l->cell_of->bytes;
    l->nx = cfg->nx;
    l->ny = cfg->ny;
    /* MPI counts, strides and subarray sizes are int; the local stride is
     * lx + 2. */
    if (cfg->nx > (size_t)INT_MAX - 2 || cfg->ny > (size_t)INT_MAX - 2)
        return heat2d_fail(err,
                           "%s: grid %zux%zu is too large for MPI's int counts (at most %d "
                           "cells a side)",
                           who, cfg->nx, cfg->ny, INT_MAX - 2);
    int ranks = 1;
    HEAT2D_MPI_CHECK(err, MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    if (heat2d_decompose(who, cfg->nx, cfg->ny, ranks, l->dims, err) != 0 ||
        heat2d_halo_check_depth(cfg->nx, cfg->ny, l->dims, depth, err) != 0)
        return -1;
    int cart_dims[2] = {l->dims[1], l->dims[0]};
    int periods[2] = {0, 0};
    HEAT2D_MPI_CHECK(err, MPI_Cart_create(MPI_COMM_WORLD, 2, cart_dims, periods, 0, &l->comm));
    int coords[2] = {0, 0};
    HEAT2D_MPI_CHECK_GOTO(err, MPI_Comm_rank(l->comm, &l->rank), fail);
    HEAT2D_MPI_CHECK_GOTO(err, MPI_Comm_size(l->comm, &l->ranks), fail);
    HEAT2D_MPI_CHECK_GOTO(err, MPI_Cart_coords(l->comm, l->rank, 2, coords), fail);
    l->cy = coords[0];
    l->cx = coords[1];
    HEAT2D_MPI_CHECK_GOTO(err, MPI_Cart_shift(l->comm, 1, 1, &l->west, &l->east), fail);
    HEAT2D_MPI_CHECK_GOTO(err, MPI_Cart_shift(l->comm, 0, 1, &l->south, &l->north), fail);
    if (neighbour(l, -1, -1, &l->south_west, err) != 0 ||
        neighbour(l, 1, -1, &l->south_east, err) != 0 ||
        neighbour(l, -1, 1, &l->north_west, err) != 0 ||
        neighbour(l, 1, 1, &l->north_east, err) != 0)
        goto fail;
    heat2d_mpi_split(l->nx, l->dims[0], l->cx, &l->x0, &l->lx);
    heat2d_mpi_split(l->ny, l->dims[1], l->cy, &l->y0, &l->ly);
    heat2d_halo_block_init(&l->halo, l->nx, l->ny, l->x0, l->y0, l->lx, l->ly, depth);
    /* MPI's int sizes hold the array: a margin is at most a block's side. */
    if (l->halo.stride > (size_t)INT_MAX || l->halo.rows > (size_t)INT_MAX) {
        heat2d_fail(err, "%s: rank %d: a %zux%zu local array is too large for MPI's int counts",
                    who, l->rank, l->halo.stride, l->halo.rows);
        goto fail;
    }
    l->stride = l->halo.stride;
    l->cells = l->stride * l->halo.rows;
    int sizes[2] = {(int)l->halo.rows, (int)l->halo.stride};
    int sub[2] = {(int)l->ly, (int)l->lx};
    int starts[2] = {(int)l->halo.margin_s, (int)l->halo.margin_w};
    HEAT2D_MPI_CHECK_GOTO(
        err, MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, l->cell, &l->block),
        fail);
    HEAT2D_MPI_CHECK_GOTO(err, MPI_Type_commit(&l->block), fail);
    rep->ranks = l->ranks;
    rep->rank = l->rank;
    rep->dims[0] = l->dims[0];
    rep->dims[1] = l->dims[1];
    return 0;
fail:
    heat2d_mpi_layout_close(l);
    return -1;
}

void heat2d_mpi_layout_close(heat2d_mpi_layout *l)
{
    if (l->block != MPI_DATATYPE_NULL)
        MPI_Type_free(&l->block);
    if (l->comm != MPI_COMM_NULL)
        MPI_Comm_free(&l->comm);
}

int heat2d_mpi_agree_comm(MPI_Comm comm, int rc, heat2d_error *err)
{
    int rank = 0;
    int ranks = 1;
    HEAT2D_MPI_CHECK(err, MPI_Comm_rank(comm, &rank));
    HEAT2D_MPI_CHECK(err, MPI_Comm_size(comm, &ranks));
    int first = rc != 0 ? rank : ranks;
    HEAT2D_MPI_CHECK(err, MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
    if (first == ranks)
        return 0;
    HEAT2D_MPI_CHECK(err, MPI_Bcast(err->message, (int)sizeof err->message, MPI_CHAR, first, comm));
    return -1;
}

int heat2d_mpi_agree(const heat2d_mpi_layout *l, int rc, heat2d_error *err)
{
    return heat2d_mpi_agree_comm(l->comm, rc, err);
}

void heat2d_mpi_initial_block(const heat2d_mpi_layout *l, void *local)
{
    memset(local, 0, l->cells * l->cell_bytes);
    size_t c = heat2d_centre_index(l->nx, l->ny);
    size_t i = c % l->nx;
    size_t j = c / l->nx;
    if (i >= l->x0 && i < l->x0 + l->lx && j >= l->y0 && j < l->y0 + l->ly) {
        l->cell_of->set(local, heat2d_mpi_local(l, i - l->x0, j - l->y0), 1.0);
    }
}

/* Rank r's block as a subarray of the full nx x ny field. */
static int full_block_type(const heat2d_mpi_layout *l, int r, MPI_Datatype *type, heat2d_error *err)
{
    int coords[2] = {0, 0};
    HEAT2D_MPI_CHECK(err, MPI_Cart_coords(l->comm, r, 2, coords));
    size_t x0, lx, y0, ly;
    heat2d_mpi_split(l->nx, l->dims[0], coords[1], &x0, &lx);
    heat2d_mpi_split(l->ny, l->dims[1], coords[0], &y0, &ly);
    int sizes[2] = {(int)l->ny, (int)l->nx};
    int sub[2] = {(int)ly, (int)lx};
    int starts[2] = {(int)y0, (int)x0};
    HEAT2D_MPI_CHECK(err,
                     MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, l->cell, type));
    int rc = MPI_Type_commit(type);
    if (rc != MPI_SUCCESS) {
        MPI_Type_free(type);
        return heat2d_mpi_fail(err, __FILE__, __LINE__, "MPI_Type_commit(type)", rc);
    }
    return 0;
}

int heat2d_mpi_snapshot(const heat2d_mpi_layout *l, const heat2d_config *cfg, size_t step,
                        const void *local, void *full, heat2d_report *rep, heat2d_error *err)
{
    const double t0 = heat2d_now();
    if (heat2d_mpi_gather(l, local, full, err) != 0)
        return -1;
    rep->snapshot_wait_s += heat2d_now() - t0;
    if (l->rank != 0) {
        rep->snapshots++;
        return 0;
    }
    return heat2d_hand_snapshot(cfg, step, full, NULL, rep, err);
}

int heat2d_mpi_first_field(const heat2d_mpi_layout *l, const double *initial, float *full32,
                           void *local, heat2d_error *err)
{
    if (initial == NULL) {
        heat2d_mpi_initial_block(l, local);
        return 0;
    }
    if (full32 != NULL)
        l->cell_of->narrow(full32, initial, l->nx * l->ny);
    return heat2d_mpi_scatter(l, full32 != NULL ? (const void *)full32 : initial, local, err);
}

int heat2d_mpi_last_snapshot(const heat2d_mpi_layout *l, const heat2d_config *cfg, const void *full,
                             heat2d_report *rep, heat2d_error *err)
{
    if (cfg->output_every == 0)
        return 0;
    if (l->rank != 0) {
        rep->snapshots++;
        return 0;
    }
    return heat2d_hand_snapshot(cfg, cfg->steps, full, NULL, rep, err);
}

int heat2d_mpi_take_field(const heat2d_config *cfg, double **full, const float *full32,
                          double **field, heat2d_error *err)
{
    if (*full == NULL)
        return 0;
    if (full32 != NULL)
        heat2d_cells_of(cfg->precision)->widen(*full, full32, cfg->nx * cfg->ny);
    size_t bad_i, bad_j;
    if (heat2d_find_nonfinite(cfg->nx, cfg->ny, *full, &bad_i, &bad_j))
        return heat2d_fail_nonfinite(cfg->nx, cfg->ny, *full, cfg->steps, err);
    *field = *full;
    *full = NULL;
    return 0;
}

/* Rank 0 takes the blocks one rank after the other, with no buffer to
 * allocate (so nothing that could fail after the other ranks have started
 * sending): the copies all end in rank 0's memory anyway, whose bandwidth
 * bounds the gather, and it runs after the timed loop. Its own block goes
 * through MPI_Sendrecv to itself, which cannot deadlock. */
int heat2d_mpi_gather(const heat2d_mpi_layout *l, const void *local, void *full, heat2d_error *err)
{
    if (l->rank != 0) {
        HEAT2D_MPI_CHECK(err, MPI_Send(local, 1, l->block, 0, HEAT2D_TAG_FIELD, l->comm));
        return 0;
    }
    for (int r = 0; r < l->ranks; ++r) {
        MPI_Datatype type;
        if (full_block_type(l, r, &type, err) != 0)
            return -1;
        int rc = r == 0 ? MPI_Sendrecv(local, 1, l->block, 0, HEAT2D_TAG_FIELD, full, 1, type, 0,
                                       HEAT2D_TAG_FIELD, l->comm, MPI_STATUS_IGNORE)
                        : MPI_Recv(full, 1, type, r, HEAT2D_TAG_FIELD, l->comm, MPI_STATUS_IGNORE);
        MPI_Type_free(&type);
        if (rc != MPI_SUCCESS)
            return heat2d_mpi_fail(err, __FILE__, __LINE__, "receiving a block", rc);
    }
    return 0;
}

int heat2d_mpi_scatter(const heat2d_mpi_layout *l, const void *full, void *local, heat2d_error *err)
{
    if (l->rank != 0) {
        HEAT2D_MPI_CHECK(
            err, MPI_Recv(local, 1, l->block, 0, HEAT2D_TAG_FIELD, l->comm, MPI_STATUS_IGNORE));
        return 0;
    }
    for (int r = 0; r < l->ranks; ++r) {
        MPI_Datatype type;
        if (full_block_type(l, r, &type, err) != 0)
            return -1;
        int rc = r == 0 ? MPI_Sendrecv(full, 1, type, 0, HEAT2D_TAG_FIELD, local, 1, l->block, 0,
                                       HEAT2D_TAG_FIELD, l->comm, MPI_STATUS_IGNORE)
                        : MPI_Send(full, 1, type, r, HEAT2D_TAG_FIELD, l->comm);
        MPI_Type_free(&type);
        if (rc != MPI_SUCCESS)
            return heat2d_mpi_fail(err, __FILE__, __LINE__, "sending a block", rc);
    }
    return 0;
}

int heat2d_mpi_max(const heat2d_mpi_layout *l, double *values, int n, heat2d_error *err)
{
    /* MPI_IN_PLACE is for the root only; elsewhere the receive buffer is
     * not used, and must not alias the send buffer. */
    const void *send = l->rank == 0 ? MPI_IN_PLACE : values;
    void *recv = l->rank == 0 ? values : NULL;
    HEAT2D_MPI_CHECK(err, MPI_Reduce(send, recv, n, MPI_DOUBLE, MPI_MAX, 0, l->comm));
    return 0;
}

int heat2d_mpi_sum(const heat2d_mpi_layout *l, uint64_t *value, heat2d_error *err)
{
    const void *send = l->rank == 0 ? MPI_IN_PLACE : value;
    void *recv = l->rank == 0 ? value : NULL;
    HEAT2D_MPI_CHECK(err, MPI_Reduce(send, recv, 1, MPI_UINT64_T, MPI_SUM, 0, l->comm));
    return 0;
}
