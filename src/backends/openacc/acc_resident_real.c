/* acc-resident's kernels and loop, written once for both precisions
 * (heat2d_real.h). The schedules, and why each is as it is, are
 * acc_resident.c's. */
#include "acc_resident.h"
#include "acc_solve.h"
#include "acc_stencil.h"
#include "column_lanes.h"
#include "ping_pong_run.h"
#include "zero_edges.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>

HEAT2D_REAL_SOLVERS(acc_resident_solve);

static void FN(interior_collapse)(size_t nx, size_t ny, REAL alpha, const REAL *restrict u,
                                  REAL *restrict v)
{
    size_t n = nx * ny;
#pragma acc parallel loop collapse(2) present(u [0:n], v [0:n]) async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
        for (size_t i = 1; i < nx - 1; ++i) {
            FN(heat2d_acc_update_cell)(u, v, nx, j * nx + i, alpha);
        }
    }
}

static void FN(interior_gang_vector)(size_t nx, size_t ny, REAL alpha, const REAL *restrict u,
                                     REAL *restrict v)
{
    size_t n = nx * ny;
    int gangs = heat2d_acc_gangs_for(ny - 2, 1);
#pragma acc parallel loop gang num_gangs(gangs) vector_length(128) present(u [0:n], v [0:n])       \
    async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
#pragma acc loop vector
        for (size_t i = 1; i < nx - 1; ++i) {
            FN(heat2d_acc_update_cell)(u, v, nx, j * nx + i, alpha);
        }
    }
}

static void FN(interior_gang_worker)(size_t nx, size_t ny, REAL alpha, const REAL *restrict u,
                                     REAL *restrict v)
{
    size_t n = nx * ny;
    int gangs = heat2d_acc_gangs_for(ny - 2, 8);
#pragma acc parallel loop gang worker num_gangs(gangs) num_workers(8) vector_length(32)            \
    present(u [0:n], v [0:n]) async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
#pragma acc loop vector
        for (size_t i = 1; i < nx - 1; ++i) {
            FN(heat2d_acc_update_cell)(u, v, nx, j * nx + i, alpha);
        }
    }
}

/* The launch arguments of the argument-free kernels, in device memory (see
 * acc_resident.c): written once per run by a kernel in acc_resident_loop.
 * Only the device's copy holds them; the host's stays zero on a GPU. */
typedef struct FN(acc_resident_args) {
    REAL *array[2]; /* the device addresses of u and v */
    size_t nx, ny;
    size_t strips, blocks; /* the column schedules' gangs: rows and columns */
    REAL alpha;
} FN(acc_resident_args);
static FN(acc_resident_args) FN(resident_args);
#pragma acc declare create(FN(resident_args))

#define PASS_HEADER "acc_resident_pass.h"
#include "ping_pong_passes.h"
#undef PASS_HEADER

/* The column schedules' blocks (gang iterations) for nx x ny. */
static size_t FN(column_blocks)(size_t nx, size_t ny)
{
    return heat2d_acc_column_strips(ny) * heat2d_acc_column_blocks_across(nx);
}

/* The four edges of v set to 0, on the same queue. */
static void FN(zero_edges)(size_t nx, size_t ny, REAL *restrict v)
{
    size_t n = nx * ny;
    size_t longest = nx > ny ? nx : ny;
#pragma acc parallel loop present(v [0:n]) async(HEAT2D_ACC_QUEUE)
    for (size_t k = 0; k < longest; ++k)
        HEAT2D_ZERO_EDGE_CELLS(k, nx, ny, v);
}

/* One step from `from` into `to`, queued (or, for the seed schedule, run
 * and waited for). `step` counts from 0. */
static void FN(acc_resident_step)(size_t step, size_t nx, size_t ny, REAL alpha,
                                  const REAL *restrict from, REAL *restrict to)
{
    switch (heat2d_acc_resident_schedule()) {
    case SCHEDULE_SEED:
        FN(heat2d_acc_step)(nx, ny, alpha, from, to);
        return;
    case SCHEDULE_COLLAPSE:
        FN(interior_collapse)(nx, ny, alpha, from, to);
        break;
    case SCHEDULE_GANG_VECTOR:
        FN(interior_gang_vector)(nx, ny, alpha, from, to);
        break;
    case SCHEDULE_GANG_WORKER:
        FN(interior_gang_worker)(nx, ny, alpha, from, to);
        break;
    case SCHEDULE_ARGS_GANG_VECTOR:
        BY_DIRECTION(args_gang_vector, heat2d_acc_gangs_for(ny - 2, 1));
        break;
    case SCHEDULE_COLUMNS_FITTED:
        BY_DIRECTION(args_columns_fitted);
        break;
    case SCHEDULE_WORKER_COLUMNS:
        BY_DIRECTION(args_worker_columns);
        break;
    case SCHEDULE_WARP_COLUMNS:
        BY_DIRECTION(args_warp_columns);
        break;
    case SCHEDULE_COLUMNS2:
        BY_DIRECTION(args_columns2, heat2d_acc_gangs_for(FN(column_blocks)(nx, ny), 1));
        break;
    case SCHEDULE_COLUMNS:
    case SCHEDULE_COUNT:
        BY_DIRECTION(args_columns, heat2d_acc_gangs_for(FN(column_blocks)(nx, ny), 1));
        break;
    }
    if (step < 2)
        FN(zero_edges)(nx, ny, to);
}

#undef BY_DIRECTION

/* A snapshot's invariants where the field is (on the device when
 * offloaded), by one reduction before it comes down, so that the host need
 * not scan it: a kernel with data clauses, as a snapshot is rare. */
static heat2d_field_stats FN(snapshot_stats)(const REAL *field, size_t n)
{
    double sum = 0.0, lo = INFINITY, hi = -INFINITY;
    unsigned long long nonfinite = 0, first = ULLONG_MAX;
#pragma acc parallel loop present(field [0:n]) reduction(+ : sum, nonfinite)                       \
    reduction(min : lo, first) reduction(max : hi)
    for (size_t k = 0; k < n; ++k) {
        const double x = (double)field[k];
        sum += x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        if (!isfinite(x)) {
            nonfinite += 1;
            first = k < first ? k : first;
        }
    }
    return heat2d_field_stats_found(sum, lo, hi, nonfinite, first);
}

/* The loop's state is ping_pong_run.h's. The kernels already queued keep
 * the device addresses they were given when the pointers swap. */

/* A snapshot before the last step's read-back: the loop stops, the field
 * comes down into its host array, the loop goes on. */
static int FN(acc_resident_snapshot)(void *run, size_t done, heat2d_error *err)
{
    FN(heat2d_ping_pong_run) *r = run;
    const size_t n = r->cfg->nx * r->cfg->ny;
    REAL *from = r->from;
    const double t_wait = heat2d_now();
#pragma acc wait
    const heat2d_field_stats stats = FN(snapshot_stats)(from, n);
#pragma acc update self(from [0:n])
    r->rep->snapshot_wait_s += heat2d_now() - t_wait;
    return heat2d_hand_snapshot(r->cfg, done, from, &stats, r->rep, err);
}

static REAL *FN(acc_resident_loop)(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v,
                                   heat2d_report *rep, heat2d_error *err)
{
    size_t n = cfg->nx * cfg->ny;
    double t0 = heat2d_now();
#pragma acc enter data copyin(u [0:n]) create(v [0:n])
    /* The argument-free kernels' arguments: even steps read array[0] (u)
     * and write array[1] (v), odd steps the other way round. A kernel writes
     * them into the device's copy, the one the kernels read (an `update
     * device` of the declared variable left the kernels reading zeros with
     * GCC 12). */
    const FN(acc_resident_args) args = {
        .array = {acc_deviceptr(u), acc_deviceptr(v)},
        .nx = cfg->nx,
        .ny = cfg->ny,
        .strips = heat2d_acc_column_strips(cfg->ny),
        .blocks = heat2d_acc_column_blocks_across(cfg->nx),
        .alpha = alpha,
    };
#pragma acc parallel num_gangs(1) vector_length(32) copyin(args) async(HEAT2D_ACC_QUEUE)
    FN(resident_args) = args;
    double t_enter = heat2d_now();

    FN(heat2d_ping_pong_run)
    run = {
        .cfg = cfg, .rep = rep, .alpha = alpha, .from = u, .to = v, .step = FN(acc_resident_step)};
    if (heat2d_run_segments(cfg, FN(heat2d_ping_pong_advance), FN(acc_resident_snapshot), &run,
                            err) != 0) {
#pragma acc exit data delete (u [0:n], v [0:n])
        return NULL;
    }
    REAL *from = run.from;
#pragma acc wait
    double t_loop = heat2d_now();

    /* After an odd number of steps the result is in v, after an even number
     * in u: fetch only that one. It is the last snapshot. */
    heat2d_field_stats stats = {0};
    if (cfg->output_every > 0)
        stats = FN(snapshot_stats)(from, n);
#pragma acc update self(from [0:n])
#pragma acc wait
    double t_back = heat2d_now();
    if (cfg->output_every > 0 &&
        heat2d_hand_snapshot(cfg, cfg->steps, from, &stats, rep, err) != 0) {
#pragma acc exit data delete (u [0:n], v [0:n])
        return NULL;
    }

#pragma acc exit data delete (u [0:n], v [0:n])
    double t_end = heat2d_now();

    heat2d_report_phase(rep, "ENTER_S", t_enter - t0);
    heat2d_report_phase(rep, "GPU_LOOP_S", t_loop - t_enter);
    heat2d_report_phase(rep, "READBACK_S", t_back - t_loop);
    heat2d_report_phase(rep, "EXIT_S", t_end - t_back);
    return from;
}

int FN(acc_resident_solve)(const heat2d_config *cfg, REAL *u, REAL *v, REAL **result,
                           heat2d_report *rep, heat2d_error *err)
{
    return FN(heat2d_acc_solve)(FN(acc_resident_loop), cfg, u, v, result, rep, err);
}
