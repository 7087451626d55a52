/* acc-resident's argument-free kernels for one direction of the ping-pong:
 * acc_resident_real.c includes this file twice (ping_pong_passes.h), defining
 * PASS_FROM and PASS_TO (0 and 1, or 1 and 0: which of the device arrays in
 * FN(resident_args) is read and which written) and PASS(name) (the name for
 * that direction). Why the kernels take no arguments is in acc_resident.c.
 * Kernels in a header because each direction is its own kernel of the same
 * body, made where the includer's device variable is: no include guard, on
 * purpose. */

/* gang-vector, reading everything it needs from FN(resident_args). */
static void PASS(args_gang_vector)(int gangs)
{
#pragma acc parallel loop gang num_gangs(gangs) vector_length(128) async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < FN(resident_args).ny - 1; ++j) {
#pragma acc loop vector
        for (size_t i = 1; i < FN(resident_args).nx - 1; ++i) {
            const REAL *restrict u = FN(resident_args).array[PASS_FROM];
            REAL *restrict v = FN(resident_args).array[PASS_TO];
            const size_t nx = FN(resident_args).nx;
            const size_t k = j * nx + i;
            v[k] = FN(heat2d_acc_update)(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx],
                                         FN(resident_args).alpha);
        }
    }
}

/* The lanes' work (column_lanes.h): from this direction's arguments in
 * FN(resident_args), the update of acc_stencil.h, strips of ACC_COLUMN_ROWS
 * rows. */
#define LANE_ARGS                  LANE_ARGS_OF(FN(resident_args), PASS_FROM, PASS_TO)
#define LANE_UPDATE(c, w, e, s, n) FN(heat2d_acc_update)(c, w, e, s, n, alpha)
#define LANE_ROWS                  ACC_COLUMN_ROWS

/* The column schedules' loop nest under a gang loop's pragma: the blocks
 * (strips of rows by blocks of ACC_COLUMN_WIDTH lanes) collapsed over the
 * gangs, the lanes of a block over its vector lanes, LANE the work of lane
 * `lane` of block (strip, block). */
#define PASS_BLOCKS(LANE)                                                                          \
    for (size_t strip = 0; strip < FN(resident_args).strips; ++strip) {                            \
        for (size_t block = 0; block < FN(resident_args).blocks; ++block) {                        \
            _Pragma("acc loop vector") for (size_t lane = 0; lane < ACC_COLUMN_WIDTH; ++lane)      \
                LANE;                                                                              \
        }                                                                                          \
    }

/* A block of 128 columns a gang, over 128 vector lanes, as many gangs as
 * libgomp fits to the device (columns-fitted: each gang walks several
 * blocks in turn). */
static void PASS(args_columns_fitted)(void)
{
#pragma acc parallel loop gang collapse(2) vector_length(ACC_COLUMN_WIDTH) async(HEAT2D_ACC_QUEUE)
    PASS_BLOCKS(LANE_COLUMN(strip, 1 + block * ACC_COLUMN_WIDTH + lane));
}

/* The same, one gang a block (gangs = the blocks): no gang walks a second
 * block, which is faster than columns-fitted on a GPU (docs/performance.md,
 * "acc-resident"). A launch dimension is no mapped argument. */
static void PASS(args_columns)(int gangs)
{
#pragma acc parallel loop gang collapse(2) num_gangs(gangs) vector_length(ACC_COLUMN_WIDTH)        \
    async(HEAT2D_ACC_QUEUE)
    PASS_BLOCKS(LANE_COLUMN(strip, 1 + block * ACC_COLUMN_WIDTH + lane));
}

/* The same blocks over 4 workers of 32 lanes (one warp each): with
 * vector_length(32), GCC hands the gang's values to the lanes by warp
 * shuffles rather than through shared memory behind a block barrier. */
static void PASS(args_worker_columns)(void)
{
#pragma acc parallel loop gang collapse(2) num_workers(ACC_COLUMN_WIDTH / 32) vector_length(32)    \
    async(HEAT2D_ACC_QUEUE)
    for (size_t strip = 0; strip < FN(resident_args).strips; ++strip) {
        for (size_t block = 0; block < FN(resident_args).blocks; ++block) {
#pragma acc loop worker
            for (size_t warp = 0; warp < ACC_COLUMN_WIDTH / 32; ++warp) {
#pragma acc loop vector
                for (size_t lane = 0; lane < 32; ++lane)
                    LANE_COLUMN(strip, 1 + block * ACC_COLUMN_WIDTH + warp * 32 + lane);
            }
        }
    }
}

/* Blocks of 32 columns, a gang each of one warp (vector_length(32)). */
static void PASS(args_warp_columns)(void)
{
#pragma acc parallel loop gang collapse(2) vector_length(32) async(HEAT2D_ACC_QUEUE)
    for (size_t strip = 0; strip < FN(resident_args).strips; ++strip) {
        for (size_t block = 0; block < FN(resident_args).blocks * (ACC_COLUMN_WIDTH / 32);
             ++block) {
#pragma acc loop vector
            for (size_t lane = 0; lane < 32; ++lane)
                LANE_COLUMN(strip, 1 + block * 32 + lane);
        }
    }
}

/* Blocks of ACC_COLUMN_ROWS rows by ACC_COLUMN_WIDTH lanes of two columns
 * (columns2), one gang a block. */
static void PASS(args_columns2)(int gangs)
{
#pragma acc parallel loop gang collapse(2) num_gangs(gangs) vector_length(ACC_COLUMN_WIDTH)        \
    async(HEAT2D_ACC_QUEUE)
    PASS_BLOCKS(LANE_CELLS(strip, 1 + (block * ACC_COLUMN_WIDTH + lane) * 2, ACC_COLUMN_ROWS, 2));
}

#undef LANE_ROWS
#undef LANE_UPDATE
#undef LANE_ARGS
#undef PASS_BLOCKS
