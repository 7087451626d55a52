/* omp-target-resident's argument-free regions for one direction of the
 * ping-pong: omp_target_resident_real.h includes this file twice per
 * precision, defining PASS_FROM and PASS_TO (0 and 1, or 1 and 0: which of
 * the device arrays in FN(resident_args) is read and which written) and
 * PASS(name) (the name for that direction). Why the regions take no
 * arguments is in omp_target_resident.c. No include guard, on purpose. */

/* The lanes' work (column_lanes.h): from this direction's arguments in
 * FN(resident_args), the update of omp_target_stencil.h, strips of
 * OMP_TARGET_COLUMN_ROWS rows. */
#define LANE_ARGS                  LANE_ARGS_OF(FN(resident_args), PASS_FROM, PASS_TO)
#define LANE_UPDATE(c, w, e, s, n) FN(heat2d_omp_target_update)(c, w, e, s, n, alpha)
#define LANE_ROWS                  OMP_TARGET_COLUMN_ROWS

/* A row a team (teams of them), its cells over the team's lanes. */
static void PASS(args_rows)(int teams, int threads)
{
#pragma omp target teams distribute num_teams(teams) thread_limit(threads)
    for (size_t j = 1; j < FN(resident_args).ny - 1; ++j) {
#pragma omp parallel for simd
        for (size_t i = 1; i < FN(resident_args).nx - 1; ++i) {
            LANE_ARGS;
            (void)ny;
            const size_t k = j * nx + i;
            v[k] = LANE_UPDATE(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx]);
        }
    }
}

/* acc-resident's columns shape: a block of OMP_TARGET_COLUMN_ROWS rows by
 * COLUMN_WIDTH columns a team iteration, a parallel loop over its lanes,
 * a column each. */
static void PASS(args_blocks)(int teams, int threads)
{
#pragma omp target teams distribute collapse(2) num_teams(teams) thread_limit(threads)
    for (size_t strip = 0; strip < FN(resident_args).strips; ++strip) {
        for (size_t block = 0; block < FN(resident_args).blocks; ++block) {
#pragma omp parallel for simd
            for (size_t lane = 0; lane < COLUMN_WIDTH; ++lane)
                LANE_COLUMN(strip, 1 + block * COLUMN_WIDTH + lane);
        }
    }
}

/* One combined loop over the strips and the interior's columns, a column
 * of a strip an iteration (a lane). */
static void PASS(args_columns)(int teams, int threads)
{
#pragma omp target teams distribute parallel for simd collapse(2) num_teams(teams)                 \
    thread_limit(threads)
    for (size_t strip = 0; strip < FN(resident_args).strips; ++strip) {
        for (size_t c = 0; c < FN(resident_args).nx - 2; ++c)
            LANE_COLUMN(strip, 1 + c);
    }
}

/* The same, two adjacent columns an iteration (columns2). */
static void PASS(args_columns2)(int teams, int threads)
{
#pragma omp target teams distribute parallel for simd collapse(2) num_teams(teams)                 \
    thread_limit(threads)
    for (size_t strip = 0; strip < FN(resident_args).strips; ++strip) {
        for (size_t pair = 0; pair < FN(resident_args).pairs; ++pair)
            LANE_CELLS(strip, 1 + 2 * pair, OMP_TARGET_COLUMN_ROWS, 2);
    }
}

#undef LANE_ROWS
#undef LANE_UPDATE
#undef LANE_ARGS
