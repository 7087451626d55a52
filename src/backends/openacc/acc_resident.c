/* acc-resident: the arrays live on the device for the whole loop. One
 * upload on entry, ping-pong between the two device arrays, one download of
 * the final one.
 *
 * What makes it fast, in standard OpenACC (it builds with NVHPC too):
 *
 * - Every step's kernel goes onto one async queue and the host waits once,
 *   after the loop. A queue runs in order, so step k+1 still reads what step
 *   k wrote; but the host no longer waits for each kernel before it launches
 *   the next. With GCC the wait is costly: libgomp's synchronous launch
 *   allocates device memory for the kernel's arguments, copies them,
 *   launches, synchronises the stream and frees that memory, every step.
 *
 * - The loop schedule (HEAT2D_ACC_SCHEDULE, below). GCC 12 maps the
 *   original's `parallel loop collapse(2)` to one gang-vector loop over all
 *   cells and recovers i and j from the flat index with a 64-bit division
 *   and remainder per cell, a long software sequence on the GPU; a row per
 *   gang (or per worker) with its cells over vector lanes needs neither.
 *
 * - Only the interior is computed after the second step. The boundary
 *   cells are written 0 in steps 1 and 2, as the original writes them every
 *   step: step 1 writes v's and step 2 u's, and nothing writes them again,
 *   so from then on both arrays hold 0 there, exactly what rewriting them
 *   would store. (v is created on the device, not copied, so its boundary
 *   starts as whatever the allocation held; step 1 reads only u's, as the
 *   original does.) */
#include "acc_runtime.h"
#include "acc_stencil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The async queue of the time loop. */
#define HEAT2D_ACC_QUEUE 1

typedef enum acc_schedule {
    SCHEDULE_SEED,        /* the original kernel, synchronous: the baseline */
    SCHEDULE_COLLAPSE,    /* collapse(2) over the interior */
    SCHEDULE_GANG_VECTOR, /* a row per gang, its cells over 128 vector lanes */
    SCHEDULE_GANG_WORKER, /* a row per worker (a warp), 8 per gang, cells over 32 lanes */
    SCHEDULE_TILE,        /* tile(32,4): 32 cells of 4 rows per gang */
    SCHEDULE_COUNT
} acc_schedule;

static const char *const schedule_names[SCHEDULE_COUNT] = {"seed", "collapse", "gang-vector",
                                                           "gang-worker", "tile"};

/* The default until the GPU sweep (tools/issue5_acc_device.sh) says which
 * is fastest: no division per cell, and with 32 lanes GCC hands a row's
 * bounds to a warp's lanes by shuffles, without the block-wide barriers it
 * needs for longer vectors. */
#define DEFAULT_SCHEDULE SCHEDULE_GANG_WORKER

/* Chosen by acc_resident_prepare, read by acc_resident_solve. */
static acc_schedule schedule = DEFAULT_SCHEDULE;

static void interior_collapse(size_t nx, size_t ny, double alpha, const double *restrict u,
                              double *restrict v)
{
    size_t n = nx * ny;
#pragma acc parallel loop collapse(2) present(u [0:n], v [0:n]) async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
        for (size_t i = 1; i < nx - 1; ++i) {
            size_t k = j * nx + i;
            v[k] = heat2d_acc_update(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

/* Gangs for `rows` rows, `per_gang` rows each. Left to itself, libgomp
 * launches a number of gangs fitted to the device, not to the loop (tens of
 * thousands on an H200), and most of them find no row. */
static int gangs_for(size_t rows, size_t per_gang)
{
    size_t gangs = (rows + per_gang - 1) / per_gang;
    return gangs < INT_MAX ? (int)gangs : INT_MAX;
}

static void interior_gang_vector(size_t nx, size_t ny, double alpha, const double *restrict u,
                                 double *restrict v)
{
    size_t n = nx * ny;
    int gangs = gangs_for(ny - 2, 1);
#pragma acc parallel loop gang num_gangs(gangs) vector_length(128) present(u [0:n], v [0:n])       \
    async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
#pragma acc loop vector
        for (size_t i = 1; i < nx - 1; ++i) {
            size_t k = j * nx + i;
            v[k] = heat2d_acc_update(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

static void interior_gang_worker(size_t nx, size_t ny, double alpha, const double *restrict u,
                                 double *restrict v)
{
    size_t n = nx * ny;
    int gangs = gangs_for(ny - 2, 8);
#pragma acc parallel loop gang worker num_gangs(gangs) num_workers(8) vector_length(32)            \
    present(u [0:n], v [0:n]) async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
#pragma acc loop vector
        for (size_t i = 1; i < nx - 1; ++i) {
            size_t k = j * nx + i;
            v[k] = heat2d_acc_update(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

static void interior_tile(size_t nx, size_t ny, double alpha, const double *restrict u,
                          double *restrict v)
{
    size_t n = nx * ny;
    /* The first size is the innermost loop's: 32 cells along i, 4 rows. */
#pragma acc parallel loop tile(32, 4) vector_length(128) present(u [0:n], v [0:n])                 \
    async(HEAT2D_ACC_QUEUE)
    for (size_t j = 1; j < ny - 1; ++j) {
        for (size_t i = 1; i < nx - 1; ++i) {
            size_t k = j * nx + i;
            v[k] = heat2d_acc_update(u[k], u[k - 1], u[k + 1], u[k - nx], u[k + nx], alpha);
        }
    }
}

/* The four edges of v set to 0, on the same queue. */
static void zero_edges(size_t nx, size_t ny, double *restrict v)
{
    size_t n = nx * ny;
    size_t longest = nx > ny ? nx : ny;
#pragma acc parallel loop present(v [0:n]) async(HEAT2D_ACC_QUEUE)
    for (size_t k = 0; k < longest; ++k) {
        if (k < nx) {
            v[k] = 0.0;
            v[(ny - 1) * nx + k] = 0.0;
        }
        if (k < ny) {
            v[k * nx] = 0.0;
            v[k * nx + nx - 1] = 0.0;
        }
    }
}

/* One step from `from` into `to`, queued (or, for the seed schedule, run
 * and waited for). `step` counts from 0. */
static void acc_resident_step(size_t step, size_t nx, size_t ny, double alpha,
                              const double *restrict from, double *restrict to)
{
    switch (schedule) {
    case SCHEDULE_SEED:
        heat2d_acc_step(nx, ny, alpha, from, to);
        return;
    case SCHEDULE_COLLAPSE:
        interior_collapse(nx, ny, alpha, from, to);
        break;
    case SCHEDULE_GANG_VECTOR:
        interior_gang_vector(nx, ny, alpha, from, to);
        break;
    case SCHEDULE_GANG_WORKER:
        interior_gang_worker(nx, ny, alpha, from, to);
        break;
    case SCHEDULE_TILE:
    case SCHEDULE_COUNT:
        interior_tile(nx, ny, alpha, from, to);
        break;
    }
    if (step < 2)
        zero_edges(nx, ny, to);
}

/* HEAT2D_ACC_SCHEDULE, unset or empty for the default. */
static int choose_schedule(heat2d_error *err)
{
    const char *text = getenv("HEAT2D_ACC_SCHEDULE");
    if (text == NULL || text[0] == '\0') {
        schedule = DEFAULT_SCHEDULE;
        return 0;
    }
    for (int k = 0; k < SCHEDULE_COUNT; ++k) {
        if (strcmp(text, schedule_names[k]) == 0) {
            schedule = (acc_schedule)k;
            return 0;
        }
    }
    return heat2d_fail(err,
                       "acc-resident: HEAT2D_ACC_SCHEDULE=%s is not a schedule (seed, collapse, "
                       "gang-vector, gang-worker, tile)",
                       text);
}

static int acc_resident_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    if (choose_schedule(err) != 0)
        return -1;
    if (heat2d_acc_prepare("acc-resident", cfg, rep, err) != 0)
        return -1;
    /* Say which schedule ran, where it matters: on a GPU. (On the host the
     * device stays exactly "host", which callers test for.) */
    if (strcmp(rep->device, "host") != 0) {
        size_t used = strlen(rep->device);
        snprintf(rep->device + used, sizeof rep->device - used, " (ACC_SCHEDULE=%s)",
                 schedule_names[schedule]);
    }
    return 0;
}

static int acc_resident_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                              heat2d_report *rep, heat2d_error *err)
{
    size_t n = cfg->nx * cfg->ny;
    if (heat2d_acc_transfers_start(err) != 0)
        return -1;
    double t0 = heat2d_now();
#pragma acc enter data copyin(u [0:n]) create(v [0:n])
    double t_enter = heat2d_now();

    /* The host pointers name the device copies; swapping them swaps which
     * device array is read and which is written, without moving data. The
     * kernels already queued keep the device addresses they were given. */
    double *from = u;
    double *to = v;
    for (size_t step = 0; step < cfg->steps; ++step) {
        acc_resident_step(step, cfg->nx, cfg->ny, cfg->alpha, from, to);
        double *swap = from;
        from = to;
        to = swap;
    }
#pragma acc wait
    double t_loop = heat2d_now();

    /* After an odd number of steps the result is in v, after an even number
     * in u: fetch only that one. */
#pragma acc update self(from [0:n])
#pragma acc wait
    double t_back = heat2d_now();

#pragma acc exit data delete (u [0:n], v [0:n])
    double t_end = heat2d_now();

    if (heat2d_acc_transfers_stop(rep, n * sizeof(double), err) != 0)
        return -1;
    heat2d_report_phase(rep, "ENTER_S", t_enter - t0);
    heat2d_report_phase(rep, "GPU_LOOP_S", t_loop - t_enter);
    heat2d_report_phase(rep, "READBACK_S", t_back - t_loop);
    heat2d_report_phase(rep, "EXIT_S", t_end - t_back);
    *result = from;
    return 0;
}

const heat2d_method heat2d_method_acc_resident = {
    .name = "acc-resident",
    .seed_name = "ACC_PERSISTENT",
    .style = HEAT2D_STYLE_RESIDENT,
    .prepare = acc_resident_prepare,
    .solve = acc_resident_solve,
};
