/* omp: the reference's update on every core. Each thread takes a band of
 * rows and runs the same vectorised row kernel as cpu, so every cell sees
 * the same operations in the same order and the field is bit-identical to
 * cpu's, its snapshots (the library's schedule, heat2d_schedule.h) too.
 * One parallel region spans the steps between two snapshots (without
 * snapshots, the whole loop); threads meet at one barrier per step instead
 * of being forked and joined each step.
 *
 * A field larger than the caches makes every step a pass through memory,
 * where streaming stores for v (heat2d_cpu_step_rows_stream) cut the
 * traffic from 24 bytes a cell to 16. HEAT2D_OMP_STORES chooses: plain (the
 * default), stream, or auto (stream when the two arrays exceed the
 * machine's last-level caches); DEVICE says when streaming stores ran.
 * Plain stays the default: streaming gains only on a field larger than
 * the caches and loses on one that fits, where auto keeps plain stores.
 * Measurements: docs/performance.md, "omp".
 *
 * Where the pages are: the library writes the initial state on the main
 * thread before solve, so on a machine with several NUMA nodes every page
 * of both arrays sits on the main thread's node, and the other nodes'
 * threads read and write across the interconnect. Placing them would mean
 * touching them first from the threads that use them, which must happen
 * before the arrays are written, in the library, not here. Run such a
 * machine with OMP_PROC_BIND=spread OMP_PLACES=cores at least, so that
 * the threads stay where their bands' cache lines are. */
#include "heat2d.h"
#include "host_bandwidth.h"
#include "stencil_cpu.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At least this many cells per thread: below it, a step is shorter than
 * the barrier that ends it, and more threads only wait longer (on a busy
 * machine, much longer). 16k cells is 128 KiB per array and thread. */
enum { MIN_CELLS_PER_THREAD = 16384 };

static int omp_threads_for(const heat2d_config *cfg)
{
    size_t cells = cfg->nx * cfg->ny;
    size_t useful = cells / MIN_CELLS_PER_THREAD;
    size_t most = (size_t)omp_get_max_threads();
    /* Each thread needs a band of at least one row. */
    most = most < cfg->ny ? most : cfg->ny;
    return (int)(useful < 1 ? 1 : useful < most ? useful : most);
}

/* Chosen by omp_prepare, read by omp_solve. */
static bool stream_stores;

/* HEAT2D_OMP_STORES: plain, stream, or auto (unset or empty: plain). */
static int choose_stores(const heat2d_config *cfg, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_OMP_STORES");
    if (text == NULL || text[0] == '\0' || strcmp(text, "plain") == 0) {
        stream_stores = false;
    } else if (strcmp(text, "auto") == 0) {
        /* Unknown cache size: assume 32 MiB, a common last-level cache. */
        size_t llc = heat2d_host_llc_bytes();
        llc = llc > 0 ? llc : (size_t)32 << 20;
        stream_stores = 2 * cfg->nx * cfg->ny * heat2d_precision_bytes(cfg->precision) > llc;
    } else if (strcmp(text, "stream") == 0) {
        stream_stores = true;
    } else {
        return heat2d_fail(err, "omp: HEAT2D_OMP_STORES=%s is not plain, stream or auto", text);
    }
    /* Without SSE2 the streaming kernel is the plain one: say so. */
    stream_stores = stream_stores && heat2d_cpu_stream_stores();
    return 0;
}

static int omp_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    if (choose_stores(cfg, err) != 0)
        return -1;
    const int threads = omp_threads_for(cfg);
    snprintf(rep->device, sizeof rep->device, "host (%d thread%s%s)", threads,
             threads == 1 ? "" : "s", stream_stores ? ", streaming stores" : "");
    return 0;
}

/* A run in either precision: u and v hold cells of k->cell_bytes, u the
 * field after `done` steps. */
typedef struct omp_run {
    const heat2d_cpu_kernels *k;
    const heat2d_config *cfg;
    heat2d_report *rep;
    bool (*step_rows)(size_t, size_t, size_t, size_t, double, const void *, void *);
    void *u, *v;
    size_t done;
    /* The last step's field was found not finite (reported after the last
     * snapshot, as cpu reports it). */
    bool last_bad;
} omp_run;

/* count steps in one parallel region; 1 when the field after `done` steps
 * is not finite. The threads meet at one barrier per step instead of being
 * forked and joined each step; a run without snapshots is one region. */
static int omp_advance(void *run, size_t count, heat2d_error *err)
{
    (void)err;
    omp_run *r = run;
    const heat2d_config *cfg = r->cfg;
    const size_t nx = cfg->nx;
    const size_t ny = cfg->ny;
    const size_t first = r->done;
    const bool last = first + count == cfg->steps;
    const double alpha = cfg->alpha;
    const size_t fault_step = cfg->fault_nan_step;
    const size_t fault_cell = heat2d_cpu_fault_cell(nx, ny);
    const heat2d_cpu_kernels *k = r->k;
    bool (*const step_rows)(size_t, size_t, size_t, size_t, double, const void *, void *) =
        r->step_rows;
    /* 1 + the steps of this segment done when some thread found a
     * non-finite field; 0: none yet. Written by any thread, read by all
     * after the barrier. */
    size_t seen = 0;
    bool last_bad = false;
    void *u = r->u, *v = r->v;
#pragma omp parallel firstprivate(u, v) num_threads(omp_threads_for(cfg))
    {
        /* A fixed band per thread: the same rows stay in the same core's
         * cache and on the same NUMA node step after step. */
        size_t threads = (size_t)omp_get_num_threads();
        size_t me = (size_t)omp_get_thread_num();
        size_t begin = ny * me / threads;
        size_t end = ny * (me + 1) / threads;
        bool stopped = false;
        for (size_t step = 0; step < count; ++step) {
            if (!step_rows(nx, ny, begin, end, alpha, u, v)) {
#pragma omp atomic write
                seen = step + 1;
            }
            /* Only the band's owner writes the cell: no race with the
             * thread that computed it. */
            if (first + step + 1 == fault_step && fault_cell >= begin * nx && fault_cell < end * nx)
                k->set(v, fault_cell, NAN);
#pragma omp barrier
            /* A thread already in the next step may record step + 2 while a
             * slower one reads here; it is ignored until every thread has
             * passed the next barrier, so all leave at the same step. */
            size_t s;
#pragma omp atomic read
            s = seen;
            if (s != 0 && s <= step + 1) {
                stopped = true;
                break;
            }
            void *swap = u;
            u = v;
            v = swap;
        }
        /* The run's last field: each thread checks the rows it wrote
         * itself, so no barrier is needed before reading them. */
        if (!stopped && last && !k->rows_finite(nx, begin, end, u)) {
#pragma omp atomic write
            last_bad = true;
        }
    }
    /* Every thread swapped once a step done; u is the field after them. */
    const size_t swaps = seen != 0 ? seen - 1 : count;
    if (swaps % 2 != 0) {
        void *swap = r->u;
        r->u = r->v;
        r->v = swap;
    }
    r->done = first + swaps;
    r->last_bad = last_bad;
    return seen != 0 ? 1 : 0;
}

/* A snapshot is the field itself: nothing to copy. */
static int omp_snapshot(void *run, size_t done, heat2d_error *err)
{
    omp_run *r = run;
    return heat2d_hand_snapshot(r->cfg, done, r->u, NULL, r->rep, err) != 0 ? -1 : 0;
}

static int omp_loop(const heat2d_config *cfg, void *u, void *v, void **result, heat2d_report *rep,
                    heat2d_error *err)
{
    const heat2d_cpu_kernels *k = heat2d_cpu_kernels_for(cfg->precision);
    omp_run r = {.k = k,
                 .cfg = cfg,
                 .rep = rep,
                 .step_rows = stream_stores ? k->step_rows_stream : k->step_rows,
                 .u = u,
                 .v = v};
    double t0 = heat2d_now();
    int rc = heat2d_run_segments(cfg, omp_advance, omp_snapshot, &r, err);
    if (rc == 0 && cfg->output_every > 0)
        rc = omp_snapshot(&r, cfg->steps, err);
    heat2d_report_phase(rep, "CPU_LOOP_S", heat2d_now() - t0);
    if (rc < 0)
        return -1;
    if (rc > 0 || r.last_bad)
        return heat2d_cpu_fail_nonfinite(k, cfg->nx, cfg->ny, r.u, r.done, err);
    *result = r.u;
    return 0;
}

HEAT2D_PRECISION_METHOD(heat2d_method_omp, omp_loop, .name = "omp", .seed_name = "CPU_OPENMP",
                        .style = HEAT2D_STYLE_HOST, .checks_each_step = true, .has_snapshots = true,
                        .prepare = omp_prepare);
