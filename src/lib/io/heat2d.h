/* heat2d: the library every heat2d program links.
 *
 * The problem (explicit 2-D diffusion, 5-point stencil, Jacobi double buffer),
 * the backend interface that every method implements, and the shared services
 * around it: sizes, initial state, summary checks, field files, comparison,
 * clocks and errors. Storage is i fastest: cell (i, j) lives at j*nx + i.
 */
#ifndef HEAT2D_H
#define HEAT2D_H

/* One header a job; this one brings them all. */
#include "heat2d_error.h"
#include "heat2d_field_stats.h"
#include "heat2d_config.h"
#include "heat2d_cells.h"
#include "heat2d_report.h"
#include "heat2d_method.h"
#include "heat2d_schedule.h"
#include "heat2d_run.h"
#include "heat2d_field.h"
#include "heat2d_compare.h"
#include "heat2d_args.h"
#include "heat2d_memory.h"
#include "heat2d_decompose.h"
#include "heat2d_physical.h"
#include "heat2d_progress.h"

#endif /* HEAT2D_H */
