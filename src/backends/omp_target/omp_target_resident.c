/* omp-target-resident: acc-resident's port in OpenMP. The arrays are mapped
 * once around the loop (target enter data: u up, v allocated), the two
 * device buffers swap by parity as the article's do, and one target update
 * brings the final one down.
 *
 * Its schedules mirror acc-resident's (acc_resident.c says why each helps
 * there); what differs in OpenMP:
 *
 * - A team is a gang (a thread block); GCC runs each OpenMP thread of a
 *   team as one warp and a simd loop over its 32 lanes, Clang each thread
 *   as one CUDA thread. thread_limit is therefore counted in warps with
 *   GCC and in lanes with Clang: LANES_PER_THREAD below, so that a team
 *   has COLUMN_WIDTH lanes either way.
 *
 * - GCC 12's libgomp maps the arguments of every target region that names
 *   a host variable: it allocates a device block for the table of their
 *   addresses, uploads it and frees it after the region, for each launch.
 *   The args- and column schedules read everything from a `declare
 *   target` structure instead (FN(resident_args), written once per run),
 *   so that a launch maps nothing; each direction of the ping-pong is its
 *   own region (omp_target_pass.h).
 *
 * - The columns schedules are one combined construct (target teams
 *   distribute parallel for simd) over one flat loop of lanes, each a
 *   column of a strip walked down COLUMN_ROWS rows with the rows it has
 *   read kept in registers. Not collapse(2) over strips and columns, and
 *   not acc-resident's nested shape (teams over blocks, a parallel loop
 *   over a block's lanes): with GCC 12 the first used one lane a warp and
 *   both took 254 registers, and the nested one wrote outside its stack
 *   on the H200 (docs/performance.md, "omp-target").
 *
 * - GCC 12 runs every target region to its end before the host goes on
 *   (its nvptx plugin has no asynchronous launch), so there is no queue to
 *   keep full: the loop pays each launch's latency.
 *
 * - Only the interior is computed after the second step, as in
 *   acc-resident: steps 1 and 2 write v's and u's boundary 0, and nothing
 *   writes them again.
 *
 * Selectable for tuning: HEAT2D_OMP_TARGET_SCHEDULE (a schedule),
 * HEAT2D_OMP_TARGET_TEAMS (num_teams; default the schedule's: teams_for)
 * and HEAT2D_OMP_TARGET_THREADS (thread_limit; default threads_for's).
 * Measurements:
 * docs/performance.md, "omp-target". */
#include "omp_target_resident.h"
#include "omp_target_runtime.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const schedule_names[SCHEDULE_COUNT] = {
    "seed", "collapse", "rows", "args-rows", "columns", "columns2",
#ifdef OMP_TARGET_BARE
    "bare",
#endif
};

/* On a GPU, with GCC columns2, the fastest schedule on the H200 with GCC
 * 12, as it is acc-resident's; with Clang bare, cuda-resident's kernel
 * (docs/performance.md, "omp-target"). On the host
 * (OMP_TARGET_OFFLOAD=DISABLED), collapse: one parallel loop over the
 * interior (a bare region has no meaning there). */
#ifdef OMP_TARGET_BARE
#define DEFAULT_SCHEDULE SCHEDULE_BARE
#else
#define DEFAULT_SCHEDULE SCHEDULE_COLUMNS2
#endif
#define HOST_DEFAULT_SCHEDULE SCHEDULE_COLLAPSE

/* Chosen by omp_target_resident_prepare, read by the loop: the schedule,
 * the teams and thread_limit asked for (0: the schedule's), whether the
 * regions run on the host, and the bytes of a cell. */
static omp_target_schedule schedule = DEFAULT_SCHEDULE;
static int asked_teams, asked_threads;
static bool host_run;
static size_t real_bytes = sizeof(double);

omp_target_schedule heat2d_omp_target_resident_schedule(void)
{
    return schedule;
}

/* A count for num_teams or thread_limit, clamped to int. */
static int clamp_int(size_t count)
{
    return count < 1 ? 1 : count < INT_MAX ? (int)count : INT_MAX;
}

/* The strips of OMP_TARGET_COLUMN_ROWS rows down the interior, and the
 * iterations across it of a schedule whose lane takes `columns` columns. */
size_t heat2d_omp_target_column_strips(size_t ny)
{
    return (ny - 2 + OMP_TARGET_COLUMN_ROWS - 1) / OMP_TARGET_COLUMN_ROWS;
}
size_t heat2d_omp_target_lanes_across(size_t nx, size_t columns)
{
    return (nx - 2 + columns - 1) / columns;
}

static bool is_column_schedule(omp_target_schedule s)
{
    return s == SCHEDULE_COLUMNS || s == SCHEDULE_COLUMNS2;
}

/* The schedules whose regions count their lanes in 32 bits. */
static bool counts_lanes_in_32_bits(omp_target_schedule s)
{
#ifdef OMP_TARGET_BARE
    if (s == SCHEDULE_BARE)
        return true;
#endif
    return is_column_schedule(s);
}

/* The bare schedule's teams across nx: lanes of `cells` columns (1, or 4
 * for the quads, which cover the boundary columns too) over BARE_WIDTH. */
size_t heat2d_omp_target_bare_blocks_across(size_t nx, size_t cells)
{
    const size_t lanes = cells == 1 ? nx - 2 : nx / cells;
    return (lanes + BARE_WIDTH - 1) / BARE_WIDTH;
}
size_t heat2d_omp_target_quad_strips(size_t ny)
{
    return (ny - 2 + BARE_QUAD_ROWS - 1) / BARE_QUAD_ROWS;
}

#ifdef OMP_TARGET_BARE
/* Four cells a lane where they are 16 aligned bytes: f32, nx a multiple of
 * 4 (the arrays' device copies start at least 16-byte aligned). */
bool heat2d_omp_target_bare_quads(size_t nx, size_t bytes)
{
    return bytes == 4 && nx % 4 == 0;
}

/* The bare schedule's teams: its grid of blocks. */
int heat2d_omp_target_bare_teams(size_t nx, size_t ny, size_t bytes)
{
    if (heat2d_omp_target_bare_quads(nx, bytes))
        return clamp_int((heat2d_omp_target_quad_strips(ny) + BARE_HEIGHT - 1) / BARE_HEIGHT *
                         heat2d_omp_target_bare_blocks_across(nx, 4));
    return clamp_int((heat2d_omp_target_column_strips(ny) + BARE_HEIGHT - 1) / BARE_HEIGHT *
                     heat2d_omp_target_bare_blocks_across(nx, 1));
}
#endif

/* The teams a schedule launches for nx x ny: HEAT2D_OMP_TARGET_TEAMS, else
 * on a GPU a row a team (the row schedules) or COLUMN_WIDTH lanes a team
 * (the column schedules; with GCC, a team a multiprocessor where CUDA says
 * how many: GCC_COLUMN_THREADS above), else one: the host runs teams one after another, each a
 * parallel region of its own, whose start costs more than a small team's work. */
int heat2d_omp_target_teams_for(size_t nx, size_t ny)
{
    if (asked_teams > 0)
        return asked_teams;
    if (host_run)
        return 1;
#ifdef OMP_TARGET_BARE
    if (schedule == SCHEDULE_BARE)
        return heat2d_omp_target_bare_teams(nx, ny, real_bytes);
#endif
    if (schedule == SCHEDULE_ROWS || schedule == SCHEDULE_ARGS_ROWS)
        return clamp_int(ny - 2);
    const size_t columns = schedule == SCHEDULE_COLUMNS2 ? 2 : 1;
    const size_t blocks =
        (heat2d_omp_target_lanes_across(nx, columns) + COLUMN_WIDTH - 1) / COLUMN_WIDTH;
    const size_t teams = heat2d_omp_target_column_strips(ny) * blocks;
#ifdef GCC_COLUMN_THREADS
    const size_t per_multiprocessor = (size_t)heat2d_omp_target_multiprocessors();
    if (is_column_schedule(schedule) && per_multiprocessor > 0 && per_multiprocessor < teams)
        return clamp_int(per_multiprocessor);
#endif
    return clamp_int(teams);
}

int heat2d_omp_target_threads_for(void)
{
#ifdef OMP_TARGET_BARE
    if (schedule == SCHEDULE_BARE)
        return BARE_WIDTH * BARE_HEIGHT; /* the grid's block (prepare refuses another) */
#endif
    if (asked_threads > 0)
        return asked_threads;
#ifdef GCC_COLUMN_THREADS
    if (!host_run && is_column_schedule(schedule))
        return GCC_COLUMN_THREADS;
#endif
    return COLUMN_WIDTH / LANES_PER_THREAD;
}

/* The choices, from the table, for a refusal's message. */
static void schedule_choices(char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; k < SCHEDULE_COUNT; ++k) {
        const size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", k > 0 ? ", " : "", schedule_names[k]);
    }
}

/* A positive count of the environment's NAME into *value; unset or empty:
 * 0 (the schedule's own). */
static int read_count(const char *name, int *value, heat2d_error *err)
{
    const char *text = getenv(name);
    *value = 0;
    if (text == NULL || text[0] == '\0')
        return 0;
    char *end = NULL;
    errno = 0;
    const long count = strtol(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || count < 1 ||
        count > INT_MAX)
        return heat2d_fail(err, "omp-target-resident: %s=%s is not a positive integer", name, text);
    *value = (int)count;
    return 0;
}

/* HEAT2D_OMP_TARGET_SCHEDULE (unset or empty: SCHEDULE_COUNT, the
 * default), _TEAMS and _THREADS, read before the device is looked for, so
 * that a wrong setting is refused as such wherever it runs. */
static int read_settings(omp_target_schedule *asked, heat2d_error *err)
{
    if (read_count("HEAT2D_OMP_TARGET_TEAMS", &asked_teams, err) != 0 ||
        read_count("HEAT2D_OMP_TARGET_THREADS", &asked_threads, err) != 0)
        return -1;
    const char *text = getenv("HEAT2D_OMP_TARGET_SCHEDULE");
    *asked = SCHEDULE_COUNT;
    if (text == NULL || text[0] == '\0')
        return 0;
    for (int k = 0; k < SCHEDULE_COUNT; ++k) {
        if (strcmp(text, schedule_names[k]) == 0) {
            *asked = (omp_target_schedule)k;
            return 0;
        }
    }
    char choices[256];
    schedule_choices(choices, sizeof choices);
    return heat2d_fail(err,
                       "omp-target-resident: HEAT2D_OMP_TARGET_SCHEDULE=%s is not a schedule (%s)",
                       text, choices);
}

static int omp_target_resident_prepare(const heat2d_config *cfg, heat2d_report *rep,
                                       heat2d_error *err)
{
    omp_target_schedule asked;
    if (read_settings(&asked, err) != 0 ||
        heat2d_omp_target_prepare("omp-target-resident", cfg, rep, err) != 0)
        return -1;
    host_run = heat2d_device_is_host(rep->device);
    real_bytes = heat2d_precision_bytes(cfg->precision);
    schedule = asked != SCHEDULE_COUNT ? asked
               : host_run              ? HOST_DEFAULT_SCHEDULE
                                       : DEFAULT_SCHEDULE;
#ifdef OMP_TARGET_BARE
    /* On the host a bare region is one thread of one team: it would
     * compute one lane's cells. */
    if (host_run && schedule == SCHEDULE_BARE)
        return heat2d_fail(err,
                           "omp-target-resident: HEAT2D_OMP_TARGET_SCHEDULE=bare runs on a GPU "
                           "only (its regions are CUDA grids); unset it to run on the host");
    if (schedule == SCHEDULE_BARE && (asked_teams > 0 || asked_threads > 0))
        return heat2d_fail(err,
                           "omp-target-resident: HEAT2D_OMP_TARGET_TEAMS and _THREADS do not "
                           "apply to the bare schedule, whose grid is cuda-resident's; unset them");
#endif
    /* The columns schedules count their lanes in 32 bits (omp_target_pass.h). */
    const size_t lanes =
        heat2d_omp_target_column_strips(cfg->ny) * heat2d_omp_target_lanes_across(cfg->nx, 1);
    if (counts_lanes_in_32_bits(schedule) && lanes > UINT_MAX)
        return heat2d_fail(err,
                           "omp-target-resident: %zux%zu has %zu lanes, more than the %s schedule "
                           "counts (%u); HEAT2D_OMP_TARGET_SCHEDULE=args-rows runs it",
                           cfg->nx, cfg->ny, lanes, schedule_names[schedule], UINT_MAX);
    /* Say what ran, where it matters: on a GPU. */
    if (!host_run) {
        /* The seed's region names neither, collapse no num_teams: the
         * runtime's. */
        char teams[24] = "the runtime's", threads[24] = "the runtime's";
        if (schedule != SCHEDULE_SEED && schedule != SCHEDULE_COLLAPSE)
            snprintf(teams, sizeof teams, "%d", heat2d_omp_target_teams_for(cfg->nx, cfg->ny));
        if (schedule != SCHEDULE_SEED)
            snprintf(threads, sizeof threads, "%d", heat2d_omp_target_threads_for());
        const size_t used = strlen(rep->device);
        snprintf(rep->device + used, sizeof rep->device - used,
                 " (OMP_TARGET_SCHEDULE=%s, num_teams=%s, thread_limit=%s)",
                 schedule_names[schedule], teams, threads);
    }
    return 0;
}

/* Its solves, omp_target_resident_real.c's in each precision. */
HEAT2D_REAL_METHOD(heat2d_method_omp_target_resident, omp_target_resident_solve,
                   .name = "omp-target-resident", .seed_name = "OMP_TARGET_PERSISTENT",
                   .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true,
                   .on_host_here = heat2d_omp_target_on_host_here,
                   .prepare = omp_target_resident_prepare, .has_snapshots = true,
                   .device_snapshot_stats = true);
