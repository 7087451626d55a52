/* acc-resident: the arrays live on the device for the whole loop. One
 * upload on entry, ping-pong between the two device arrays, one download of
 * the final one.
 *
 * What makes it fast, in standard OpenACC (it builds with NVHPC too):
 *
 * - Every step's kernel goes onto one async queue and the host waits once,
 *   after the loop. A queue runs in order, so step k+1 still reads what step
 *   k wrote; but the host no longer waits for each kernel before it launches
 *   the next.
 *
 * - The default kernels take no arguments. For every launch that names a
 *   host variable (the arrays in present clauses, nx, alpha), GCC 12's
 *   libgomp maps the arguments afresh: it allocates device memory for the
 *   block of argument addresses, copies it up, and on an async queue adds a
 *   stream callback that frees it once the kernel is done, which costs more
 *   than a step's kernel at 2048x2048. So the arguments live in device
 *   memory instead (FN(resident_args), an `acc declare create` variable,
 *   written once per run by a kernel); each direction of the ping-pong is
 *   its own kernel, and a launch maps nothing, its cost hidden behind the
 *   kernel before it. Compilers that pass kernel arguments by value (NVHPC)
 *   gain nothing from this and lose nothing either.
 *
 * - The loop schedule (HEAT2D_ACC_SCHEDULE, below). GCC 12 maps the
 *   original's `parallel loop collapse(2)` to one gang-vector loop over all
 *   cells and recovers i and j from the flat index with a 64-bit division
 *   and remainder per cell, a long software sequence on the GPU; a row per
 *   gang (or per worker) with its cells over vector lanes needs neither, but
 *   reads each row three times (for itself and as its neighbours'
 *   neighbour). The columns schedule gives each vector lane a column of
 *   ACC_COLUMN_ROWS cells and keeps the rows it has read in registers, as
 *   cuda-resident's kernel does; columns2 gives a lane two adjacent
 *   columns, so that an f32 lane has as many bytes in flight as an f64
 *   one.
 *
 * - Only the interior is computed after the second step. The boundary
 *   cells are written 0 in steps 1 and 2, as the original writes them every
 *   step: step 1 writes v's and step 2 u's, and nothing writes them again,
 *   so from then on both arrays hold 0 there, exactly what rewriting them
 *   would store. (v is created on the device, not copied, so its boundary
 *   starts as whatever the allocation held; step 1 reads only u's, as the
 *   original does.)
 *
 * Measurements: docs/performance.md, "acc-resident". */
#include "acc_resident.h"
#include "acc_runtime.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const schedule_names[SCHEDULE_COUNT] = {
    "seed",    "collapse",       "gang-vector",    "gang-worker",  "args-gang-vector",
    "columns", "columns-fitted", "worker-columns", "warp-columns", "columns2"};

/* columns2, one gang a block of lanes of two adjacent columns, is the
 * fastest schedule on a GPU in both precisions: a lane shares its
 * neighbours' loads and has twice the bytes in flight of a columns lane,
 * and there are half the gangs. The other column schedules, the row
 * schedules, collapse and the seed's kernel stay selectable for comparison.
 * A tile(32,4) schedule was dropped: it computed a wrong field at 25x21/7.
 * Measurements: docs/performance.md, "acc-resident". */
#define DEFAULT_SCHEDULE SCHEDULE_COLUMNS2
/* Where the kernels run on the host (a build without offload), one thread
 * runs every gang and lane in turn, and a lane's walk down its column
 * reloads the arguments after every store (they might alias the field), so
 * columns runs slower there than gang-vector, whose rows the host compiler
 * vectorises like cpu's (docs/performance.md, "acc-resident"). */
#define HOST_DEFAULT_SCHEDULE SCHEDULE_GANG_VECTOR

/* Chosen by acc_resident_prepare, read by acc_resident_step. */
static acc_schedule schedule = DEFAULT_SCHEDULE;

acc_schedule heat2d_acc_resident_schedule(void)
{
    return schedule;
}

/* Gangs for `rows` rows, `per_gang` rows each. Left to itself, libgomp
 * launches a number of gangs fitted to the device, not to the loop (tens of
 * thousands on an H200), and most of them find no row. */
int heat2d_acc_gangs_for(size_t rows, size_t per_gang)
{
    size_t gangs = (rows + per_gang - 1) / per_gang;
    return gangs < INT_MAX ? (int)gangs : INT_MAX;
}

/* HEAT2D_ACC_SCHEDULE, unset or empty for the default. */
static int choose_schedule(bool on_host, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_ACC_SCHEDULE");
    if (text == NULL || text[0] == '\0') {
        schedule = on_host ? HOST_DEFAULT_SCHEDULE : DEFAULT_SCHEDULE;
        return 0;
    }
    for (int k = 0; k < SCHEDULE_COUNT; ++k) {
        if (strcmp(text, schedule_names[k]) == 0) {
            schedule = (acc_schedule)k;
            return 0;
        }
    }
    /* The choices, from the table, so that the message lists them all. */
    char choices[256] = "";
    for (int k = 0; k < SCHEDULE_COUNT; ++k) {
        size_t used = strlen(choices);
        snprintf(choices + used, sizeof choices - used, "%s%s", k > 0 ? ", " : "",
                 schedule_names[k]);
    }
    return heat2d_fail(err, "acc-resident: HEAT2D_ACC_SCHEDULE=%s is not a schedule (%s)", text,
                       choices);
}

static int acc_resident_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    if (heat2d_acc_prepare("acc-resident", cfg, rep, err) != 0)
        return -1;
    const bool on_host = heat2d_device_is_host(rep->device);
    if (choose_schedule(on_host, err) != 0)
        return -1;
    /* Say which schedule ran, where it matters: on a GPU. */
    if (!on_host) {
        size_t used = strlen(rep->device);
        snprintf(rep->device + used, sizeof rep->device - used, " (ACC_SCHEDULE=%s)",
                 schedule_names[schedule]);
    }
    return 0;
}

/* The column schedules' blocks: strips of rows (a lane's walk) down the
 * interior, and blocks of ACC_COLUMN_WIDTH lanes across it, each lane of
 * one column or, in columns2, of two. */
size_t heat2d_acc_column_strips(size_t ny)
{
    return (ny - 2 + ACC_COLUMN_ROWS - 1) / ACC_COLUMN_ROWS;
}
size_t heat2d_acc_column_blocks_across(size_t nx)
{
    const size_t lane_columns = schedule == SCHEDULE_COLUMNS2 ? 2 : 1;
    const size_t width = ACC_COLUMN_WIDTH * lane_columns;
    return (nx - 2 + width - 1) / width;
}

/* Its solves, acc_resident_real.c's in each precision. */
HEAT2D_REAL_METHOD(heat2d_method_acc_resident, acc_resident_solve, .name = "acc-resident",
                   .seed_name = "ACC_PERSISTENT", .style = HEAT2D_STYLE_RESIDENT, .gpu_only = true,
                   .on_host_here = heat2d_acc_on_host_here, .prepare = acc_resident_prepare,
                   .has_snapshots = true, .device_snapshot_stats = true);
