/* omp-target-resident's argument-free regions for one direction of the
 * ping-pong: omp_target_resident_real.c includes this file twice
 * (ping_pong_passes.h), defining PASS_FROM and PASS_TO (0 and 1, or 1 and 0: which of
 * the device arrays in FN(resident_args) is read and which written) and
 * PASS(name) (the name for that direction). Why the regions take no
 * arguments is in omp_target_resident.c. Regions in a header because each
 * direction is its own kernel of the same body, made where the includer's
 * device variable is: no include guard, on purpose. */

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

/* One loop over the lanes of every strip, a column of a strip a lane:
 * iteration `it` is column 1 + it % columns_across of strip it /
 * columns_across. One flat loop, not collapse(2) over strips and columns:
 * GCC 12 spreads a collapsed simd loop over no lanes (one lane of each
 * warp works; the PTX reads no %laneid) and gives its body 254 registers,
 * which every region of the program then launches with (docs/
 * performance.md, "omp-target"). 32-bit: prepare refuses grids of more
 * lanes. */
static void PASS(args_columns)(int teams, int threads)
{
#pragma omp target teams distribute parallel for simd num_teams(teams) thread_limit(threads)
    for (unsigned it = 0; it < FN(resident_args).column_lanes; ++it) {
        const unsigned across = FN(resident_args).columns_across;
        const unsigned strip = it / across;
        LANE_COLUMN((size_t)strip, 1 + (size_t)(it - strip * across));
    }
}

/* The same, two adjacent columns a lane (columns2). */
static void PASS(args_columns2)(int teams, int threads)
{
#pragma omp target teams distribute parallel for simd num_teams(teams) thread_limit(threads)
    for (unsigned it = 0; it < FN(resident_args).pair_lanes; ++it) {
        const unsigned pairs = FN(resident_args).pairs;
        const unsigned strip = it / pairs;
        LANE_CELLS((size_t)strip, 1 + 2 * (size_t)(it - strip * pairs), OMP_TARGET_COLUMN_ROWS, 2);
    }
}

#ifdef OMP_TARGET_BARE
/* cuda-resident's kernel in OpenMP (Clang): an ompx_bare region is a CUDA
 * grid, with no OpenMP runtime in it (no team or thread state, no
 * worksharing loop), and each CUDA thread one lane of the columns
 * schedule: a column of a strip of OMP_TARGET_COLUMN_ROWS rows, threads
 * BARE_WIDTH x BARE_HEIGHT a team, the team's blocks across first, as
 * cuda-resident's grid. Clang 19 takes a one-dimensional grid: the team's
 * number and the thread's are split here. */
static void PASS(bare)(int teams)
{
#pragma omp target teams ompx_bare num_teams(teams) thread_limit(BARE_WIDTH *BARE_HEIGHT)
    {
        const unsigned block = (unsigned)ompx_block_id_x();
        const unsigned thread = (unsigned)ompx_thread_id_x();
        const unsigned across = FN(resident_args).blocks_across;
        const unsigned strip = block / across * BARE_HEIGHT + thread / BARE_WIDTH;
        const unsigned lane = block % across * BARE_WIDTH + thread % BARE_WIDTH;
        if (strip < FN(resident_args).strips)
            LANE_COLUMN((size_t)strip, 1 + (size_t)lane);
    }
}

/* The same grid of four adjacent cells a thread (cuda-resident's f32
 * kernel; nx a multiple of 4): LANE_QUADS. */
static void PASS(bare_quads)(int teams)
{
#pragma omp target teams ompx_bare num_teams(teams) thread_limit(BARE_WIDTH *BARE_HEIGHT)
    {
        const unsigned block = (unsigned)ompx_block_id_x();
        const unsigned thread = (unsigned)ompx_thread_id_x();
        const unsigned across = FN(resident_args).quad_blocks_across;
        const unsigned strip = block / across * BARE_HEIGHT + thread / BARE_WIDTH;
        const unsigned quad = block % across * BARE_WIDTH + thread % BARE_WIDTH;
        /* f32 alone: the f64 kernel is empty (bare_quads). */
        if (sizeof(REAL) == 4 && strip < FN(resident_args).quad_strips)
            LANE_QUADS((size_t)strip, (size_t)quad);
    }
}
#endif

#undef LANE_ROWS
#undef LANE_UPDATE
#undef LANE_ARGS
