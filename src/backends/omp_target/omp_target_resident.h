/* What omp-target-resident's two files share: omp_target_resident.c
 * chooses the schedule, teams and threads (once, in prepare) and holds the
 * method; omp_target_resident_real.c holds its regions and loop, in each
 * precision. */
#ifndef HEAT2D_OMP_TARGET_RESIDENT_H
#define HEAT2D_OMP_TARGET_RESIDENT_H

#if defined(__clang__)
/* Clang's ompx_bare regions: CUDA's grid, no OpenMP runtime in the kernel
 * (the bare schedule, omp_target_pass.h). */
#define OMP_TARGET_BARE
#include <ompx.h>
#endif
#if defined(__clang__) && defined(__NVPTX__)
/* Clang's device pass: the lanes read u through the read-only data cache,
 * as cuda-resident's __ldg does (the field does not change during a
 * region). A pointer read from a structure is generic, and Clang would
 * otherwise emit generic loads. */
/* (A float read this way is widened to double and back, exactly.) */
#define LANE_LOAD(p)                                                                               \
    (sizeof *(p) == sizeof(double) ? __nvvm_ldg_d((const double *)(p))                             \
                                   : (double)__nvvm_ldg_f((const float *)(p)))
/* The quads' four floats (the f32 lanes alone take them: PASS(bare_quads)). */
typedef float heat2d_lane_f4 __attribute__((ext_vector_type(4)));
#define LANE_LOAD4(to, p)                                                                          \
    do {                                                                                           \
        const heat2d_lane_f4 four_ =                                                               \
            __nvvm_ldg_f4((const heat2d_lane_f4 *)__builtin_assume_aligned((p), 16));              \
        __builtin_memcpy(&(to), &four_, sizeof four_);                                             \
    } while (0)
#endif

#include <stdbool.h>
#include <stddef.h>

typedef enum omp_target_schedule {
    SCHEDULE_SEED,      /* the original's region, every cell: the baseline */
    SCHEDULE_COLLAPSE,  /* collapse(2) over the interior, arguments mapped */
    SCHEDULE_ROWS,      /* a row a team, its cells over the lanes; arguments mapped */
    SCHEDULE_ARGS_ROWS, /* rows, the arguments in device memory */
    SCHEDULE_COLUMNS,   /* one loop over the lanes of every strip, a column a lane */
    SCHEDULE_COLUMNS2,  /* columns, two adjacent columns a lane */
#ifdef OMP_TARGET_BARE
    SCHEDULE_BARE, /* cuda-resident's grid, a thread a lane (Clang's ompx_bare) */
#endif
    SCHEDULE_COUNT
} omp_target_schedule;

/* The column schedules' block: rows walked by each lane, and lanes a
 * team. */
#ifndef OMP_TARGET_COLUMN_ROWS
#define OMP_TARGET_COLUMN_ROWS 8
#endif
#define COLUMN_WIDTH 128
#if defined(__clang__)
#define LANES_PER_THREAD 1 /* an OpenMP thread is a CUDA thread */
#else
#define LANES_PER_THREAD   32 /* GCC: an OpenMP thread is a warp, simd its lanes */
/* GCC 12's libgomp starts each team's threads at every launch (gomp_nvptx_
 * main, GOMP_parallel), at a cost that grows with the teams: about 0.9 ms
 * a launch for 132 teams on the H200, 2 ms for 396 of 4 warps. The column
 * schedules therefore launch one team of 8 warps a multiprocessor (the
 * most that their 150 registers a lane let one hold), each lane taking
 * many iterations: the fastest shape measured (docs/performance.md,
 * "omp-target"). */
#define GCC_COLUMN_THREADS 8
#endif

/* The bare schedule's team, cuda-resident's block: BARE_WIDTH columns
 * by BARE_HEIGHT strips, a thread a lane; a strip of the quads (f32, four
 * cells a lane) is BARE_QUAD_ROWS rows, as cuda-resident's f32 kernel. */
#define BARE_WIDTH     128
#define BARE_HEIGHT    2
#define BARE_QUAD_ROWS 4

/* The schedule, and the teams and thread_limit of its regions, that
 * omp_target_resident_prepare chose for this run (omp_target_resident.c
 * says why each). */
omp_target_schedule heat2d_omp_target_resident_schedule(void);
int heat2d_omp_target_teams_for(size_t nx, size_t ny);
int heat2d_omp_target_threads_for(void);

/* The strips of OMP_TARGET_COLUMN_ROWS rows down the interior, the lanes
 * across it of `columns` columns each, and the bare schedule's blocks
 * across and strips of quads. */
size_t heat2d_omp_target_column_strips(size_t ny);
size_t heat2d_omp_target_lanes_across(size_t nx, size_t columns);
size_t heat2d_omp_target_bare_blocks_across(size_t nx, size_t cells);
size_t heat2d_omp_target_quad_strips(size_t ny);

#ifdef OMP_TARGET_BARE
/* Whether the bare schedule takes four cells a lane, and its teams. */
bool heat2d_omp_target_bare_quads(size_t nx, size_t bytes);
int heat2d_omp_target_bare_teams(size_t nx, size_t ny, size_t bytes);
#endif

/* A snapshot's reduction VAR over the n cells of field, one target region
 * (omp_target_resident_real.c's snapshot_stats). */
#define STATS_PRAGMA(text) _Pragma(#text)
#define STATS_REDUCE(op, var, update)                                                              \
    do {                                                                                           \
        STATS_PRAGMA(omp target map(tofrom : var))                                                 \
        STATS_PRAGMA(omp teams distribute parallel for simd reduction(op : var))                   \
        for (size_t k = 0; k < n; ++k) {                                                           \
            const double x = (double)field[k];                                                     \
            update;                                                                                \
        }                                                                                          \
    } while (0)

#endif
