/* What acc-resident's two files share: acc_resident.c chooses the
 * schedule (once, in prepare) and holds the method; acc_resident_real.c
 * holds its kernels and loop, in each precision. */
#ifndef HEAT2D_ACC_RESIDENT_H
#define HEAT2D_ACC_RESIDENT_H

#include <stddef.h>

/* The async queue of the time loop. */
#define HEAT2D_ACC_QUEUE 1

typedef enum acc_schedule {
    SCHEDULE_SEED,             /* the original kernel, synchronous: the baseline */
    SCHEDULE_COLLAPSE,         /* collapse(2) over the interior */
    SCHEDULE_GANG_VECTOR,      /* a row per gang, its cells over 128 vector lanes */
    SCHEDULE_GANG_WORKER,      /* a row per worker (a warp), 8 per gang, cells over 32 lanes */
    SCHEDULE_ARGS_GANG_VECTOR, /* gang-vector, its arguments in device memory */
    SCHEDULE_COLUMNS,          /* arguments in device memory; a block of rows by
                                  128 columns per gang, a column per lane, one
                                  gang a block */
    SCHEDULE_COLUMNS_FITTED,   /* columns, as many gangs as libgomp fits */
    SCHEDULE_WORKER_COLUMNS,   /* columns over 4 workers of 32 lanes */
    SCHEDULE_WARP_COLUMNS,     /* columns, 32 a gang of one warp */
    SCHEDULE_COLUMNS2,         /* columns, two adjacent columns a lane */
    SCHEDULE_COUNT
} acc_schedule;

/* The schedule acc_resident_prepare chose for this run. */
acc_schedule heat2d_acc_resident_schedule(void);

/* Gangs for `rows` rows, `per_gang` rows each. */
int heat2d_acc_gangs_for(size_t rows, size_t per_gang);

/* The columns schedule's block: rows walked by each lane, and lanes. */
#ifndef ACC_COLUMN_ROWS
#define ACC_COLUMN_ROWS 8
#endif
#define ACC_COLUMN_WIDTH 128

/* The column schedules' blocks: strips of rows down the interior, and
 * blocks of lanes across it. */
size_t heat2d_acc_column_strips(size_t ny);
size_t heat2d_acc_column_blocks_across(size_t nx);

#endif
