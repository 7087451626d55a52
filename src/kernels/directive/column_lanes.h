/* A lane's work in the column schedules of the directive models'
 * resident methods (acc-resident, omp-target-resident), written once: each
 * lane walks a column (or a few adjacent columns) down a strip of rows,
 * keeping the rows it has read in registers, so that each row is read about
 * once instead of three times (docs/performance.md, "acc-resident").
 *
 * The includer defines, before a macro below is used:
 *   LANE_ARGS              declarations of the lane's u (const REAL *), v
 *                          (REAL *), nx, ny (size_t) and alpha (REAL)
 *   LANE_UPDATE(c, w, e, s, n)
 *                          the update of a cell from its centre and
 *                          neighbours (REAL values), using alpha
 *   LANE_ROWS              the rows of a strip
 * and REAL. Pure C: the pragmas that spread lanes over a GPU are the
 * includer's. */
#ifndef HEAT2D_COLUMN_LANES_H
#define HEAT2D_COLUMN_LANES_H

/* A read of u's cell at p: the includer may define it (on a GPU, a load
 * through the read-only data cache, as CUDA's __ldg); a plain read by
 * default. */
#ifndef LANE_LOAD
#define LANE_LOAD(p) (*(p))
#endif

/* A lane's arguments from the backend's structure ARGS (fields array[2],
 * nx, ny, alpha): the array it reads (array[FROM]) and the one it writes
 * (array[TO]), the grid, alpha; what a backend's LANE_ARGS may be. */
#define LANE_ARGS_OF(ARGS, FROM, TO)                                                               \
    const REAL *restrict u = (ARGS).array[FROM];                                                   \
    REAL *restrict v = (ARGS).array[TO];                                                           \
    const size_t nx = (ARGS).nx;                                                                   \
    const size_t ny = (ARGS).ny;                                                                   \
    const REAL alpha = (ARGS).alpha

/* One lane's walk down its column from row j0 while row j is `more`, k at
 * cell (i, j0) and below and here the cells under and at it: each step
 * loads only the cell above, keeping the other two in registers. Reads u,
 * v, nx and alpha of the macro that uses it. */
#define LANE_WALK(k, j0, more, below, here)                                                        \
    do {                                                                                           \
        for (size_t j = (j0); (more); ++j, (k) += nx) {                                            \
            const REAL above = LANE_LOAD(u + (k + nx));                                            \
            v[k] =                                                                                 \
                LANE_UPDATE(here, LANE_LOAD(u + (k - 1)), LANE_LOAD(u + (k + 1)), below, above);   \
            below = here;                                                                          \
            here = above;                                                                          \
        }                                                                                          \
    } while (0)

/* One lane's column: the cells of column i in the strip `strip` of
 * LANE_ROWS rows. */
#define LANE_COLUMN(strip, i)                                                                      \
    do {                                                                                           \
        LANE_ARGS;                                                                                 \
        const size_t j0 = 1 + (strip)*LANE_ROWS;                                                   \
        if ((i) < nx - 1) {                                                                        \
            size_t k = j0 * nx + (i);                                                              \
            REAL below = LANE_LOAD(u + (k - nx));                                                  \
            REAL here = LANE_LOAD(u + (k));                                                        \
            if (j0 + LANE_ROWS <= ny - 1) {                                                        \
                /* A whole strip: every load first, then every store, in                           \
                 * loops of a constant trip count that the compiler unrolls                        \
                 * into registers; interleaved with the stores (which the GPU                      \
                 * cannot prove do not alias them) the loads would wait. */                        \
                REAL column[LANE_ROWS + 2], west[LANE_ROWS], east[LANE_ROWS];                      \
                column[0] = below;                                                                 \
                column[1] = here;                                                                  \
                for (size_t r = 0; r < LANE_ROWS; ++r) {                                           \
                    column[r + 2] = LANE_LOAD(u + (k + (r + 1) * nx));                             \
                    west[r] = LANE_LOAD(u + (k + r * nx - 1));                                     \
                    east[r] = LANE_LOAD(u + (k + r * nx + 1));                                     \
                }                                                                                  \
                for (size_t r = 0; r < LANE_ROWS; ++r)                                             \
                    v[k + r * nx] =                                                                \
                        LANE_UPDATE(column[r + 1], west[r], east[r], column[r], column[r + 2]);    \
            } else {                                                                               \
                LANE_WALK(k, j0, j < ny - 1, below, here);                                         \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* A lane of `cols` adjacent columns and `rows` rows: the block at strip
 * (of `rows` rows) whose first column is i. A lane loads the cells x[r][t]
 * of rows j0 - 1 + r and columns i - 1 + t, neighbours included, all
 * before its first store, and updates the rows x cols cells inside them: a
 * row of cols cells costs cols + 2 loads instead of 3 * cols, and a lane
 * has cols times the bytes in flight of a one-column lane, which in f32 is
 * what a one-column lane lacks against f64. (GCC 12 splits a 64-bit load
 * of two floats, through a union or a vector type, back into two 32-bit
 * loads, so the cells are loaded one by one.) The grid's last strip and
 * last columns walk each column alone. */
#define LANE_CELLS(strip, i, rows, cols)                                                           \
    do {                                                                                           \
        LANE_ARGS;                                                                                 \
        const size_t j0 = 1 + (strip) * (rows);                                                    \
        if ((i) + (cols) <= nx - 1 && j0 + (rows) <= ny - 1) {                                     \
            const size_t k0 = (j0 - 1) * nx + (i)-1;                                               \
            REAL x[(rows) + 2][(cols) + 2];                                                        \
            for (size_t r = 0; r < (rows) + 2; ++r)                                                \
                for (size_t t = 0; t < (cols) + 2; ++t)                                            \
                    x[r][t] = LANE_LOAD(u + (k0 + r * nx + t));                                    \
            for (size_t r = 0; r < (rows); ++r)                                                    \
                for (size_t c = 0; c < (cols); ++c)                                                \
                    v[k0 + (r + 1) * nx + c + 1] =                                                 \
                        LANE_UPDATE(x[r + 1][c + 1], x[r + 1][c], x[r + 1][c + 2], x[r][c + 1],    \
                                    x[r + 2][c + 1]);                                              \
        } else {                                                                                   \
            for (size_t c = 0; c < (cols) && (i) + c < nx - 1; ++c) {                              \
                size_t k = j0 * nx + (i) + c;                                                      \
                REAL below = LANE_LOAD(u + (k - nx));                                              \
                REAL here = LANE_LOAD(u + (k));                                                    \
                LANE_WALK(k, j0, j < j0 + (rows) && j < ny - 1, below, here);                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* A lane of four adjacent cells (columns 4q to 4q + 3, boundary columns
 * included, which get 0) down the strip `strip` of LANE_QUAD_ROWS interior
 * rows: cuda-resident's f32 kernel. The rows above, at and below are read
 * as aligned vectors of four (16 bytes in f32: the includer's LANE_REAL4,
 * a Clang ext_vector_type, and nx a multiple of 4), W of the first cell
 * and E of the last singly; each row's cells are updated one by one, in the
 * same order of operations as every other lane, so the same bits. */
#ifndef LANE_LOAD4
#define LANE_LOAD4(to, p) __builtin_memcpy(&(to), __builtin_assume_aligned((p), 16), sizeof(to))
#endif
#define LANE_STORE4(p, val) __builtin_memcpy(__builtin_assume_aligned((p), 16), &(val), sizeof(val))
#define LANE_QUADS(strip, q)                                                                       \
    do {                                                                                           \
        LANE_ARGS;                                                                                 \
        const size_t i = 4 * (q);                                                                  \
        const size_t j0 = 1 + (strip)*LANE_QUAD_ROWS;                                              \
        if (i < nx) {                                                                              \
            size_t k = j0 * nx + i;                                                                \
            LANE_REAL4 below, here, above, out;                                                    \
            LANE_LOAD4(below, u + k - nx);                                                         \
            LANE_LOAD4(here, u + k);                                                               \
            for (size_t r = 0; r < LANE_QUAD_ROWS && j0 + r < ny - 1; ++r, k += nx) {              \
                LANE_LOAD4(above, u + k + nx);                                                     \
                const REAL west = i > 0 ? LANE_LOAD(u + (k - 1)) : (REAL)0;                        \
                const REAL east = i + 4 < nx ? LANE_LOAD(u + (k + 4)) : (REAL)0;                   \
                for (int t = 0; t < 4; ++t) {                                                      \
                    const REAL w = t == 0 ? west : here[t - 1];                                    \
                    const REAL e = t == 3 ? east : here[t + 1];                                    \
                    const bool edge = (t == 0 && i == 0) || (t == 3 && i + 4 == nx);               \
                    out[t] = edge ? (REAL)0 : LANE_UPDATE(here[t], w, e, below[t], above[t]);      \
                }                                                                                  \
                LANE_STORE4(v + k, out);                                                           \
                below = here;                                                                      \
                here = above;                                                                      \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#endif
