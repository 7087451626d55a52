/* omp-target-resident's regions and loop, written once for both
 * precisions (heat2d_real.h). The schedules, and why each is as it is, are
 * omp_target_resident.c's. */
#include "omp_target_resident.h"
#include "omp_target_solve.h"
#include "omp_target_stencil.h"
#include "column_lanes.h"
#include "ping_pong_run.h"
#include "zero_edges.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>

HEAT2D_REAL_SOLVERS(omp_target_resident_solve);

/* collapse(2) over the interior; u and v (mapped) are the region's
 * arguments. */
static void FN(interior_collapse)(size_t nx, size_t ny, REAL alpha, const REAL *restrict u,
                                  REAL *restrict v, int threads)
{
#pragma omp target teams distribute parallel for simd collapse(2) thread_limit(threads)
    for (size_t j = 1; j < ny - 1; ++j) {
        for (size_t i = 1; i < nx - 1; ++i) {
            const size_t k = j * nx + i;
            v[k] =
                FN(heat2d_omp_target_update)(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

/* A row a team, its cells over the team's lanes; arguments mapped. */
static void FN(interior_rows)(size_t nx, size_t ny, REAL alpha, const REAL *restrict u,
                              REAL *restrict v, int teams, int threads)
{
#pragma omp target teams distribute num_teams(teams) thread_limit(threads)
    for (size_t j = 1; j < ny - 1; ++j) {
#pragma omp parallel for simd
        for (size_t i = 1; i < nx - 1; ++i) {
            const size_t k = j * nx + i;
            v[k] =
                FN(heat2d_omp_target_update)(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

/* The arguments of the argument-free regions, in device memory (see
 * omp_target_resident.c): written once per run by a region in
 * omp_target_resident_loop, and on the host, whose copy has the same grid
 * (should a compiler evaluate a loop's bounds there). */
typedef struct FN(omp_target_args) {
    REAL *array[2]; /* the device addresses of u and v */
    size_t nx, ny;
    unsigned columns_across; /* interior columns (columns) */
    unsigned pairs;          /* pairs of columns across (columns2) */
    unsigned column_lanes;   /* columns' lanes: strips x columns_across */
    unsigned pair_lanes;     /* columns2's: strips x pairs */
    unsigned strips;         /* strips of OMP_TARGET_COLUMN_ROWS rows (bare) */
    unsigned blocks_across;  /* teams across the grid (bare) */
    unsigned quad_strips;    /* strips of BARE_QUAD_ROWS rows (bare, quads) */
    unsigned quad_blocks_across;
    REAL alpha;
} FN(omp_target_args);
#ifdef OMP_TARGET_BARE
/* Four cells of REAL, for the quads' aligned loads (column_lanes.h). */
typedef REAL FN(omp_target_real4) __attribute__((ext_vector_type(4)));
#define LANE_REAL4     FN(omp_target_real4)
#define LANE_QUAD_ROWS BARE_QUAD_ROWS
#endif
#pragma omp declare target
static FN(omp_target_args) FN(resident_args);
#pragma omp end declare target

#define PASS_HEADER "omp_target_pass.h"
#include "ping_pong_passes.h"
#undef PASS_HEADER
#ifdef OMP_TARGET_BARE
#undef LANE_REAL4
#undef LANE_QUAD_ROWS
#endif

/* The four edges of v set to 0. */
static void FN(zero_edges)(size_t nx, size_t ny, REAL *restrict v)
{
    const size_t longest = nx > ny ? nx : ny;
#pragma omp target teams distribute parallel for simd
    for (size_t k = 0; k < longest; ++k)
        HEAT2D_ZERO_EDGE_CELLS(k, nx, ny, v);
}

/* One step from `from` into `to`. `step` counts from 0. */
static void FN(omp_target_resident_step)(size_t step, size_t nx, size_t ny, REAL alpha,
                                         const REAL *restrict from, REAL *restrict to)
{
    const int teams = heat2d_omp_target_teams_for(nx, ny);
    const int threads = heat2d_omp_target_threads_for();
    switch (heat2d_omp_target_resident_schedule()) {
    case SCHEDULE_SEED:
        FN(heat2d_omp_target_step)(nx, ny, alpha, from, to);
        return;
    case SCHEDULE_COLLAPSE:
        FN(interior_collapse)(nx, ny, alpha, from, to, threads);
        break;
    case SCHEDULE_ROWS:
        FN(interior_rows)(nx, ny, alpha, from, to, teams, threads);
        break;
    case SCHEDULE_ARGS_ROWS:
        BY_DIRECTION(args_rows, teams, threads);
        break;
    case SCHEDULE_COLUMNS:
        BY_DIRECTION(args_columns, teams, threads);
        break;
    case SCHEDULE_COLUMNS2:
    case SCHEDULE_COUNT:
        BY_DIRECTION(args_columns2, teams, threads);
        break;
#ifdef OMP_TARGET_BARE
    case SCHEDULE_BARE:
        if (heat2d_omp_target_bare_quads(nx, sizeof(REAL)))
            BY_DIRECTION(bare_quads, heat2d_omp_target_bare_teams(nx, ny, sizeof(REAL)));
        else
            BY_DIRECTION(bare, heat2d_omp_target_bare_teams(nx, ny, sizeof(REAL)));
        break;
#endif
    }
    if (step < 2)
        FN(zero_edges)(nx, ny, to);
}

#undef BY_DIRECTION

/* A snapshot's invariants where the field is (on the device when
 * offloaded), by reductions before it comes down, so that the host need
 * not scan it: one a region (STATS_REDUCE in omp_target_resident.c), as a
 * snapshot is rare. */
static heat2d_field_stats FN(snapshot_stats)(const REAL *field, size_t n)
{
    double sum = 0.0, lo = INFINITY, hi = -INFINITY;
    unsigned long long nonfinite = 0, first = ULLONG_MAX;
    STATS_REDUCE(+, sum, sum += x);
    STATS_REDUCE(min, lo, lo = x < lo ? x : lo);
    STATS_REDUCE(max, hi, hi = x > hi ? x : hi);
    STATS_REDUCE(+, nonfinite, nonfinite += !isfinite(x));
    if (nonfinite > 0)
        STATS_REDUCE(min, first, first = !isfinite(x) && k < first ? k : first);
    return heat2d_field_stats_found(sum, lo, hi, nonfinite, first);
}

/* A snapshot before the last step's read-back: the field comes down into
 * its host array, the loop goes on. */
static int FN(omp_target_resident_snapshot)(void *run, size_t done, heat2d_error *err)
{
    FN(heat2d_ping_pong_run) *r = run;
    const size_t n = r->cfg->nx * r->cfg->ny;
    REAL *from = r->from;
    const double t_wait = heat2d_now();
    const heat2d_field_stats stats = FN(snapshot_stats)(from, n);
#pragma omp target update from(from [0:n])
    r->rep->snapshot_wait_s += heat2d_now() - t_wait;
    return heat2d_hand_snapshot(r->cfg, done, from, &stats, r->rep, err);
}

/* The argument-free regions' arguments: even steps read array[0] (u) and
 * write array[1] (v), odd steps the other way round. A region writes the
 * device's copy (the one the regions read); the host keeps the same. */
static void FN(write_args)(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v)
{
    FN(omp_target_args)
    args = {
        .nx = cfg->nx,
        .ny = cfg->ny,
        .columns_across = (unsigned)heat2d_omp_target_lanes_across(cfg->nx, 1),
        .pairs = (unsigned)heat2d_omp_target_lanes_across(cfg->nx, 2),
        .column_lanes = (unsigned)(heat2d_omp_target_column_strips(cfg->ny) *
                                   heat2d_omp_target_lanes_across(cfg->nx, 1)),
        .pair_lanes = (unsigned)(heat2d_omp_target_column_strips(cfg->ny) *
                                 heat2d_omp_target_lanes_across(cfg->nx, 2)),
        .strips = (unsigned)heat2d_omp_target_column_strips(cfg->ny),
        .blocks_across = (unsigned)heat2d_omp_target_bare_blocks_across(cfg->nx, 1),
        .quad_strips = (unsigned)heat2d_omp_target_quad_strips(cfg->ny),
        .quad_blocks_across = (unsigned)heat2d_omp_target_bare_blocks_across(cfg->nx, 4),
        .alpha = alpha,
    };
#pragma omp target data use_device_ptr(u, v)
    {
        args.array[0] = u;
        args.array[1] = v;
    }
#pragma omp target map(to : args)
    {
        FN(resident_args) = args;
    }
    FN(resident_args) = args;
}

static REAL *FN(omp_target_resident_loop)(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v,
                                          heat2d_report *rep, heat2d_error *err)
{
    const size_t n = cfg->nx * cfg->ny;
    const double t0 = heat2d_now();
#pragma omp target enter data map(to : u [0:n]) map(alloc : v [0:n])
    FN(write_args)(cfg, alpha, u, v);
    const double t_enter = heat2d_now();

    FN(heat2d_ping_pong_run)
    run = {.cfg = cfg,
           .rep = rep,
           .alpha = alpha,
           .from = u,
           .to = v,
           .step = FN(omp_target_resident_step)};
    if (heat2d_run_segments(cfg, FN(heat2d_ping_pong_advance), FN(omp_target_resident_snapshot),
                            &run, err) != 0) {
#pragma omp target exit data map(delete : u [0:n], v [0:n])
        return NULL;
    }
    REAL *from = run.from;
    const double t_loop = heat2d_now();

    /* After an odd number of steps the result is in v, after an even number
     * in u: fetch only that one. It is the last snapshot. */
    heat2d_field_stats stats = {0};
    if (cfg->output_every > 0)
        stats = FN(snapshot_stats)(from, n);
#pragma omp target update from(from [0:n])
    const double t_back = heat2d_now();
    if (cfg->output_every > 0 &&
        heat2d_hand_snapshot(cfg, cfg->steps, from, &stats, rep, err) != 0) {
#pragma omp target exit data map(delete : u [0:n], v [0:n])
        return NULL;
    }

#pragma omp target exit data map(delete : u [0:n], v [0:n])
    const double t_end = heat2d_now();

    heat2d_report_phase(rep, "ENTER_S", t_enter - t0);
    heat2d_report_phase(rep, "GPU_LOOP_S", t_loop - t_enter);
    heat2d_report_phase(rep, "READBACK_S", t_back - t_loop);
    heat2d_report_phase(rep, "EXIT_S", t_end - t_back);
    return from;
}

int FN(omp_target_resident_solve)(const heat2d_config *cfg, REAL *u, REAL *v, REAL **result,
                                  heat2d_report *rep, heat2d_error *err)
{
    return FN(heat2d_omp_target_solve)(FN(omp_target_resident_loop), cfg, u, v, result, rep, err);
}
