/* acc-resident's argument-free kernels for one direction of the ping-pong:
 * acc_resident_real.h includes this file twice per precision, defining
 * PASS_FROM and PASS_TO (0 and 1, or 1 and 0: which of the device arrays in
 * FN(resident_args) is read and which written) and PASS(name) (the name for
 * that direction). Why the kernels take no arguments is in acc_resident.c.
 * No include guard, on purpose. */

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

/* A lane's arguments, read from FN(resident_args) into locals: the arrays
 * it reads and writes in this direction, the grid, alpha. */
#define PASS_ARGS                                                                                  \
    const REAL *restrict u = FN(resident_args).array[PASS_FROM];                                   \
    REAL *restrict v = FN(resident_args).array[PASS_TO];                                           \
    const size_t nx = FN(resident_args).nx;                                                        \
    const size_t ny = FN(resident_args).ny;                                                        \
    const REAL alpha = FN(resident_args).alpha

/* One lane's walk down its column from row j0 while row j is `more`, k at
 * cell (i, j0) and below and here the cells under and at it: each step
 * loads only the cell above, keeping the other two in registers. Reads u,
 * v, nx and alpha of the macro that uses it. */
#define PASS_WALK(k, j0, more, below, here)                                                        \
    do {                                                                                           \
        for (size_t j = (j0); (more); ++j, (k) += nx) {                                            \
            const REAL above = u[(k) + nx];                                                        \
            v[k] = FN(heat2d_acc_update)(here, u[(k)-1], u[(k) + 1], below, above, alpha);         \
            below = here;                                                                          \
            here = above;                                                                          \
        }                                                                                          \
    } while (0)

/* Columns: blocks of ACC_COLUMN_ROWS rows by ACC_COLUMN_WIDTH columns over
 * the gangs; each vector lane walks its column down the block's rows,
 * keeping the row below and its own cell in registers from one row to the
 * next, so that each row is read about once instead of three times
 * (docs/performance.md, "acc-resident"). One lane's column of the block at
 * strip (rows) and column i. */
#define PASS_COLUMN(strip, i)                                                                      \
    do {                                                                                           \
        PASS_ARGS;                                                                                 \
        const size_t j0 = 1 + (strip)*ACC_COLUMN_ROWS;                                             \
        if ((i) < nx - 1) {                                                                        \
            size_t k = j0 * nx + (i);                                                              \
            REAL below = u[k - nx];                                                                \
            REAL here = u[k];                                                                      \
            if (j0 + ACC_COLUMN_ROWS <= ny - 1) {                                                  \
                /* A whole block: every load first, then every store, in loops                     \
                 * of a constant trip count that the compiler unrolls into                         \
                 * registers; interleaved with the stores (which the GPU                           \
                 * cannot prove do not alias them) the loads would wait. */                        \
                REAL column[ACC_COLUMN_ROWS + 2], west[ACC_COLUMN_ROWS], east[ACC_COLUMN_ROWS];    \
                column[0] = below;                                                                 \
                column[1] = here;                                                                  \
                for (size_t r = 0; r < ACC_COLUMN_ROWS; ++r) {                                     \
                    column[r + 2] = u[k + (r + 1) * nx];                                           \
                    west[r] = u[k + r * nx - 1];                                                   \
                    east[r] = u[k + r * nx + 1];                                                   \
                }                                                                                  \
                for (size_t r = 0; r < ACC_COLUMN_ROWS; ++r)                                       \
                    v[k + r * nx] = FN(heat2d_acc_update)(column[r + 1], west[r], east[r],         \
                                                          column[r], column[r + 2], alpha);        \
            } else {                                                                               \
                PASS_WALK(k, j0, j < ny - 1, below, here);                                         \
            }                                                                                      \
        }                                                                                          \
    } while (0)

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
    PASS_BLOCKS(PASS_COLUMN(strip, 1 + block * ACC_COLUMN_WIDTH + lane));
}

/* The same, one gang a block (gangs = the blocks): no gang walks a second
 * block, which is faster than columns-fitted on a GPU (docs/performance.md,
 * "acc-resident"). A launch dimension is no mapped argument. */
static void PASS(args_columns)(int gangs)
{
#pragma acc parallel loop gang collapse(2) num_gangs(gangs) vector_length(ACC_COLUMN_WIDTH)        \
    async(HEAT2D_ACC_QUEUE)
    PASS_BLOCKS(PASS_COLUMN(strip, 1 + block * ACC_COLUMN_WIDTH + lane));
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
                    PASS_COLUMN(strip, 1 + block * ACC_COLUMN_WIDTH + warp * 32 + lane);
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
                PASS_COLUMN(strip, 1 + block * 32 + lane);
        }
    }
}

/* Lanes of `cols` adjacent columns and `rows` rows: the block at
 * strip (of `rows` rows) whose first column is i. A lane loads the cells
 * x[r][t] of rows j0 - 1 + r and columns i - 1 + t, neighbours included,
 * all before its first store, and updates the rows x cols cells inside
 * them: a row of cols cells costs cols + 2 loads instead of 3 * cols, and a
 * lane has cols times the bytes in flight of a one-column lane, which in
 * f32 is what a one-column lane lacks against f64. (GCC 12 splits a 64-bit
 * load of two floats, through a union or a vector type, back into two
 * 32-bit loads, so the cells are loaded one by one.) The grid's last
 * strip and last columns walk each column alone. */
#define PASS_LANES(strip, i, rows, cols)                                                           \
    do {                                                                                           \
        PASS_ARGS;                                                                                 \
        const size_t j0 = 1 + (strip) * (rows);                                                    \
        if ((i) + (cols) <= nx - 1 && j0 + (rows) <= ny - 1) {                                     \
            const size_t k0 = (j0 - 1) * nx + (i)-1;                                               \
            REAL x[(rows) + 2][(cols) + 2];                                                        \
            for (size_t r = 0; r < (rows) + 2; ++r)                                                \
                for (size_t t = 0; t < (cols) + 2; ++t)                                            \
                    x[r][t] = u[k0 + r * nx + t];                                                  \
            for (size_t r = 0; r < (rows); ++r)                                                    \
                for (size_t c = 0; c < (cols); ++c)                                                \
                    v[k0 + (r + 1) * nx + c + 1] =                                                 \
                        FN(heat2d_acc_update)(x[r + 1][c + 1], x[r + 1][c], x[r + 1][c + 2],       \
                                              x[r][c + 1], x[r + 2][c + 1], alpha);                \
        } else {                                                                                   \
            for (size_t c = 0; c < (cols) && (i) + c < nx - 1; ++c) {                              \
                size_t k = j0 * nx + (i) + c;                                                      \
                REAL below = u[k - nx];                                                            \
                REAL here = u[k];                                                                  \
                PASS_WALK(k, j0, j < j0 + (rows) && j < ny - 1, below, here);                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* Blocks of ACC_COLUMN_ROWS rows by ACC_COLUMN_WIDTH lanes of two columns
 * (columns2), one gang a block. */
static void PASS(args_columns2)(int gangs)
{
#pragma acc parallel loop gang collapse(2) num_gangs(gangs) vector_length(ACC_COLUMN_WIDTH)        \
    async(HEAT2D_ACC_QUEUE)
    PASS_BLOCKS(PASS_LANES(strip, 1 + (block * ACC_COLUMN_WIDTH + lane) * 2, ACC_COLUMN_ROWS, 2));
}

#undef PASS_LANES
#undef PASS_COLUMN
#undef PASS_WALK
#undef PASS_ARGS
#undef PASS_BLOCKS
