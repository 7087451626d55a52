/* Deep halos as geometry: where a block's cells lie in its local array, which
 * strips an exchange moves, and which cells each step of an exchange period
 * updates. Pure functions of sizes, no MPI, so that any distributed method
 * (mpi-cpu today, mpi-cuda later) follows the same plan and a unit test
 * (tests/unit/test_halo_plan.c) checks it on its own.
 *
 * With depth K a block keeps K halo cells towards each neighbour. One
 * exchange fills them; then a period of len <= K steps runs without a
 * message: step s of the period (0-based) updates the own cells and the halo
 * cells within len-1-s of them, so the updated region shrinks by one cell a
 * step and the last step updates the own cells alone. Each step reads one
 * cell further out than it writes, which the step before (or the exchange)
 * made exact, so after the period the own cells are what cpu computes; the
 * halo cells computed on the way are redundant copies of the neighbours'.
 * Regions are clipped to the global interior: the global boundary is 0 and
 * not updated, as in cpu, and no halo exists beyond it. K = 1 is the
 * one-cell halo exchanged every step. */
#ifndef HEAT2D_HALO_PLAN_H
#define HEAT2D_HALO_PLAN_H

#include "heat2d.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One block and its local array. The array holds the own cells (global
 * (x0+a, y0+b) for 0 <= a < lx, 0 <= b < ly) at (margin_w + a, margin_s + b),
 * i fastest, rows of `stride` cells, `rows` rows. A margin is `depth` cells
 * on a side with a neighbour (a cut) and one cell on the global boundary,
 * so depth 1 gives mpi_common.h's one-cell halo all round. */
typedef struct heat2d_halo_block {
    size_t nx, ny; /* the global grid */
    size_t x0, y0;
    size_t lx, ly;
    size_t depth;
    size_t margin_w, margin_e, margin_s, margin_n;
    size_t stride; /* margin_w + lx + margin_e */
    size_t rows;   /* margin_s + ly + margin_n */
} heat2d_halo_block;

/* Array cells [i0, i1) x [j0, j1); empty when i0 >= i1 or j0 >= j1. */
typedef struct heat2d_halo_rect {
    size_t i0, i1;
    size_t j0, j1;
} heat2d_halo_rect;

void heat2d_halo_block_init(heat2d_halo_block *b, size_t nx, size_t ny, size_t x0, size_t y0,
                            size_t lx, size_t ly, size_t depth);

bool heat2d_halo_rect_empty(heat2d_halo_rect r);
size_t heat2d_halo_rect_cells(heat2d_halo_rect r);

/* Cell (i, j)'s index in the block's local array; inline, as the strips'
 * loops call it for every row they move. */
static inline size_t heat2d_halo_index(const heat2d_halo_block *b, size_t i, size_t j)
{
    return j * b->stride + i;
}

/* Refuses a depth larger than a side that a cut crosses, since a halo must
 * come from the edge neighbour alone: with PX > 1 the narrowest block,
 * nx / PX cells, bounds K; with PY > 1, ny / PY. (An uncut side sets no
 * bound: there is no halo across it.) dims: PX, PY. */
int heat2d_halo_check_depth(size_t nx, size_t ny, const int dims[2], size_t depth,
                            heat2d_error *err);

/* Steps of the period that starts after `done` of `steps` steps: K, fewer
 * at the end of the run, and fewer where a snapshot is due (output_every >
 * 0), so that every snapshot step ends a period and finds the own cells
 * exact. */
size_t heat2d_halo_period(size_t done, size_t steps, size_t depth, size_t output_every);

/* What step `sub` (0 <= sub < len) of a period of `len` (<= depth) steps
 * updates: the own cells extended by len-1-sub cells towards each
 * neighbour, clipped to the global interior. */
heat2d_halo_rect heat2d_halo_region(const heat2d_halo_block *b, size_t len, size_t sub);

/* The own cells in the global interior (the region of a period's last
 * step). */
heat2d_halo_rect heat2d_halo_own(const heat2d_halo_block *b);

/* The own cells whose update reads no halo cell (the own region less one
 * cell towards each neighbour): updated while the exchange is in flight. */
heat2d_halo_rect heat2d_halo_inner(const heat2d_halo_block *b);

/* outer less inner as at most 4 disjoint rectangles into out (full-width
 * bands below and above inner, then the columns beside it); inner lies in
 * outer or is empty (then outer is the one piece). Returns how many. */
size_t heat2d_halo_ring(heat2d_halo_rect outer, heat2d_halo_rect inner, heat2d_halo_rect out[4]);

/* The strips one exchange moves with the neighbour in direction (dx, dy),
 * each of dx, dy in {-1, 0, 1}, not both 0 (-1: west or south): the own
 * cells it needs (K wide across the cut, the block's extent along it, K x K
 * for a diagonal neighbour) and the halo cells it fills. Only for a side
 * with a neighbour. Diagonal neighbours matter only for depth > 1: a
 * 5-point step reads no corner, but with K > 1 the first steps of a period
 * update halo cells next to the corner halo. */
heat2d_halo_rect heat2d_halo_send(const heat2d_halo_block *b, int dx, int dy);
heat2d_halo_rect heat2d_halo_recv(const heat2d_halo_block *b, int dx, int dy);

/* The array cells on the global boundary (its first and last rows and
 * columns, where they fall inside the array and the grid): written 0 after
 * every step, own and halo alike, as cpu writes the boundary. Up to 4
 * rectangles, which may share their corner cells. Returns how many. */
size_t heat2d_halo_boundary(const heat2d_halo_block *b, heat2d_halo_rect out[4]);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_HALO_PLAN_H */
