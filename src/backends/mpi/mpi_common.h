/* What the MPI methods share: starting MPI, choosing the decomposition, the
 * geometry of a rank's block, failing together, and moving a whole field
 * between rank 0 and the blocks. Internal to src/backends/mpi.
 *
 * A rank owns the cells (i, j) with x0 <= i < x0+lx and y0 <= j < y0+ly and
 * keeps them in a local array of (lx+2) x (ly+2) doubles, i fastest, with a
 * one-cell halo all round: own cell (a, b) (0-based within the block) lives
 * at (b+1)*stride + (a+1), stride = lx+2. The 5-point stencil reads no
 * corner, so halos come from the four edge neighbours only.
 *
 * heat2d_mpi_layout_open_halo keeps deep halos instead (halo_plan.h): K cells
 * towards each neighbour, one at the global boundary, and for K > 1 the
 * diagonal neighbours' corner cells too; K = 1 is the layout above. */
#ifndef HEAT2D_MPI_COMMON_H
#define HEAT2D_MPI_COMMON_H

#include <mpi.h>

#include "halo_plan.h"
#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Message tags: a halo is tagged with the direction it travels, so that a
 * rank with the same neighbour on two sides (PX = 2 and no periodicity
 * cannot give that, but a later periodic variant could) never mixes them. */
enum {
    HEAT2D_TAG_EAST = 1,
    HEAT2D_TAG_WEST = 2,
    HEAT2D_TAG_NORTH = 3,
    HEAT2D_TAG_SOUTH = 4,
    HEAT2D_TAG_FIELD = 5,
    /* Corner strips of deep halos, to the diagonal neighbours. */
    HEAT2D_TAG_NORTH_EAST = 6,
    HEAT2D_TAG_NORTH_WEST = 7,
    HEAT2D_TAG_SOUTH_EAST = 8,
    HEAT2D_TAG_SOUTH_WEST = 9,
};

/* Starts MPI unless it runs already (MPI_Init: under mpirun the job's
 * rank, without it a singleton of one rank), and makes MPI errors return
 * codes instead of aborting, so that they become one-line messages. */
int heat2d_mpi_start(const char *who, heat2d_error *err);

/* Right after heat2d_mpi_start, on every rank: refuses, on every rank
 * alike, a job whose ranks were started with different settings (grid,
 * steps, alpha, method, precision, halo depth, snapshots, and what rank 0
 * writes: --save, --save-every, --snapshot-writer), naming the first
 * difference (mpi_settings.c). */
int heat2d_mpi_settings_agree(const char *who, const heat2d_config *cfg, heat2d_error *err);

/* Part c of `parts` of a side of n cells: the first `n % parts` parts get one
 * cell more, so sizes differ by at most one. */
void heat2d_mpi_split(size_t n, int parts, int c, size_t *first, size_t *count);

typedef struct heat2d_mpi_layout {
    /* Cartesian, not periodic, dims {PY, PX} and no reordering: rank
     * r = cy*PX + cx, so ranks follow the storage order of the blocks and
     * rank 0 holds the corner (0, 0). */
    MPI_Comm comm;
    int rank;
    int ranks;
    int dims[2]; /* PX, PY */
    int cx;
    int cy;
    /* Edge neighbours, MPI_PROC_NULL on the global boundary. */
    int west;
    int east;
    int south;
    int north;
    size_t nx;
    size_t ny;
    size_t x0;
    size_t y0;
    size_t lx;
    size_t ly;
    size_t stride; /* halo.stride: lx + 2 with one-cell halos */
    size_t cells;  /* halo.stride * halo.rows: (lx+2)*(ly+2) */
    /* The cell type of cfg->precision: MPI_DOUBLE and 8 bytes, or
     * MPI_FLOAT and 4; local arrays, halos and gathered fields hold it. */
    MPI_Datatype cell;
    size_t cell_bytes;
    const heat2d_cells *cell_of; /* the run's precision's cells */
    /* The own cells of a local array, for moving whole fields. */
    MPI_Datatype block;
    /* The local array's geometry: depth 1 (the margins above) unless opened
     * by heat2d_mpi_layout_open_halo. */
    heat2d_halo_block halo;
    /* Diagonal neighbours, MPI_PROC_NULL where either edge neighbour is. */
    int south_west;
    int south_east;
    int north_west;
    int north_east;
} heat2d_mpi_layout;

/* Collective: decomposition, communicator, this rank's block; the ranks,
 * this rank and the decomposition also go into rep. Every rank reaches the
 * same verdict, so a refusal needs no agreement. */
int heat2d_mpi_layout_open(const char *who, const heat2d_config *cfg, heat2d_mpi_layout *l,
                           heat2d_report *rep, heat2d_error *err);
void heat2d_mpi_layout_close(heat2d_mpi_layout *l);

/* The same with halos `depth` cells deep (1: heat2d_mpi_layout_open's),
 * refusing, as every rank does alike, a depth that a block cut by the
 * decomposition is too narrow to send (heat2d_halo_check_depth). */
int heat2d_mpi_layout_open_halo(const char *who, const heat2d_config *cfg, size_t depth,
                                heat2d_mpi_layout *l, heat2d_report *rep, heat2d_error *err);

/* Own cell (a, b)'s index in the local array; inline, as the per-cell
 * loops that copy a block call it for every cell. */
static inline size_t heat2d_mpi_local(const heat2d_mpi_layout *l, size_t a, size_t b)
{
    return (b + l->halo.margin_s) * l->stride + (a + l->halo.margin_w);
}

/* Collective: returns 0 when rc == 0 on every rank; otherwise -1 on every
 * rank, with err holding the message of the lowest rank that failed, so
 * that rank 0 (the one that prints) can say what went wrong elsewhere. */
int heat2d_mpi_agree(const heat2d_mpi_layout *l, int rc, heat2d_error *err);
int heat2d_mpi_agree_comm(MPI_Comm comm, int rc, heat2d_error *err);

/* The standard initial state of this block, in cells of l->cell_bytes: all
 * 0, halos too, and 1 at the centre cell when this block owns it. */
void heat2d_mpi_initial_block(const heat2d_mpi_layout *l, void *local);

/* Collective: every rank's own cells of `local` into `full` (nx*ny, rank 0
 * only; NULL elsewhere), one subarray type per block, so nothing is packed
 * by hand. Both hold cells of l->cell. */
int heat2d_mpi_gather(const heat2d_mpi_layout *l, const void *local, void *full, heat2d_error *err);

/* A snapshot after `step` steps: every rank's block (local, in the layout's
 * precision, in host memory) gathered into full on rank 0, which hands it
 * to cfg->snapshot; the gather's seconds go to rep->snapshot_wait_s, the
 * handler's to rep->snapshot_callback_s. Collective. */
int heat2d_mpi_snapshot(const heat2d_mpi_layout *l, const heat2d_config *cfg, size_t step,
                        const void *local, void *full, heat2d_report *rep, heat2d_error *err);

/* Collective: the first field of `local` (cells of l->cell): initial (the
 * full field on rank 0, boundary included) scattered, in f32 rounded to
 * float into full32 (rank 0's nx*ny floats) first; or, with initial NULL,
 * the standard initial state, which each rank builds for its block. */
int heat2d_mpi_first_field(const heat2d_mpi_layout *l, const double *initial, float *full32,
                           void *local, heat2d_error *err);

/* The snapshot after the last step, which is the final gather into full
 * (rank 0 hands it over, the other ranks count it); nothing without
 * snapshots. */
int heat2d_mpi_last_snapshot(const heat2d_mpi_layout *l, const heat2d_config *cfg, const void *full,
                             heat2d_report *rep, heat2d_error *err);

/* Rank 0's gathered field as the run's result: in f32 widened from full32
 * into *full, as every method returns doubles, then checked whole (the
 * last step's field, which no step read) with cpu's message; on success
 * *field takes *full. Other ranks (*full NULL) get nothing. */
int heat2d_mpi_take_field(const heat2d_config *cfg, double **full, const float *full32,
                          double **field, heat2d_error *err);

/* Collective: the reverse, `full` on rank 0 into every rank's own cells. */
int heat2d_mpi_scatter(const heat2d_mpi_layout *l, const void *full, void *local,
                       heat2d_error *err);

/* Collective: the largest of `n` values over the ranks, on rank 0. */
int heat2d_mpi_max(const heat2d_mpi_layout *l, double *values, int n, heat2d_error *err);

/* Collective: the sum over the ranks, on rank 0. */
int heat2d_mpi_sum(const heat2d_mpi_layout *l, uint64_t *value, heat2d_error *err);

/* Fills err from a failed MPI call (file, line, expression, MPI's text) and
 * returns -1. */
int heat2d_mpi_fail(heat2d_error *err, const char *file, int line, const char *expr, int rc);

/* Evaluates expr once; on failure fills err and returns -1 (_GOTO: jumps
 * to label, where the caller releases what it holds). */
#define HEAT2D_MPI_CHECK(err, expr)                                                                \
    HEAT2D_CALL_CHECK(int, MPI_SUCCESS, heat2d_mpi_fail, err, expr, #expr)
#define HEAT2D_MPI_CHECK_GOTO(err, expr, label)                                                    \
    HEAT2D_CALL_CHECK_GOTO(int, MPI_SUCCESS, heat2d_mpi_fail, err, expr, #expr, label)

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_MPI_COMMON_H */
