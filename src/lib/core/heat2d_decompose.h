/* How the distributed methods cut a grid over ranks. */
#ifndef HEAT2D_DECOMPOSE_H
#define HEAT2D_DECOMPOSE_H

#include "heat2d_error.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Chooses PX x PY = ranks for an nx x ny grid: among the factorisations
 * with PX <= nx and PY <= ny (every block at least one cell) the one that
 * cuts the fewest cells, (PX-1)*ny + (PY-1)*nx, since that is the halo
 * traffic per step; on a tie the one with fewer ranks along i, whose halos
 * are contiguous rows instead of strided columns. MPI_Dims_create is not
 * used: it balances PX and PY whatever the grid's shape (a 101x7 grid on 4
 * ranks would be cut 2x2, 108 cells, instead of 4x1, 21). Fails when no
 * factorisation fits, e.g. 7 ranks on a 5x5 grid. */
int heat2d_decompose(const char *who, size_t nx, size_t ny, int ranks, int dims[2],
                     heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif
