/* heat2d's own snapshot handler (heat2d run --output-every): every snapshot
 * is held to the final field's invariants (found on the device by a method
 * that hands them over, else here) and, given a folder, written as a
 * field file in the original's format, named by its step so that the files
 * sort by it, or given a .nc file appended to its series as a record. A
 * scan here runs on every core, in row blocks. */
#define _POSIX_C_SOURCE 200809L
#include "snapshot_sink.h"
#include "heat2d_cells.h"
#include "process_guard.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kMaxThreads = 32 };

/* One thread's rows of a snapshot, and what it found there. */
typedef struct block_scan {
    const heat2d_snapshot_sink *sink;
    const void *field;
    size_t begin, end; /* cells */
    heat2d_field_stats stats;
} block_scan;

/* The sum, least and greatest of the block (heat2d_cells' scan, at memory
 * speed). A NaN or an infinity leaves the sum non-finite, which sends it
 * to count the non-finite cells. */
static void *scan_block(void *arg)
{
    block_scan *b = arg;
    const heat2d_cells *cells = heat2d_cells_of(b->sink->cfg->precision);
    b->stats = heat2d_field_stats_empty();
    cells->scan(&b->stats, b->field, b->begin, b->end);
    if (isfinite(b->stats.sum))
        return NULL;
    /* Rare: count the non-finite cells, if any (a finite field whose sum
     * overflowed has none, and fails the bounds instead). */
    heat2d_field_stats again = heat2d_field_stats_empty();
    cells->stats_add(&again, b->field, b->begin, b->end);
    b->stats.nonfinite = again.nonfinite;
    b->stats.first_nonfinite = again.first_nonfinite;
    return NULL;
}

/* The field's invariants on every core, the mass summed by blocks in a
 * fixed order (so that a run gives the same numbers every time). */
static heat2d_field_stats scan_snapshot(const heat2d_snapshot_sink *sink, const void *field)
{
    const heat2d_config *cfg = sink->cfg;
    const size_t n = cfg->nx * cfg->ny;
    size_t threads = sink->threads;
    if (threads > n / 65536 + 1)
        threads = n / 65536 + 1; /* small fields: no threads worth starting */
    block_scan blocks[kMaxThreads];
    pthread_t ids[kMaxThreads];
    bool started[kMaxThreads] = {false};
    for (size_t t = 0; t < threads; ++t) {
        blocks[t] = (block_scan){.sink = sink,
                                 .field = field,
                                 .begin = n / threads * t,
                                 .end = t + 1 == threads ? n : n / threads * (t + 1)};
        started[t] = t > 0 && pthread_create(&ids[t], NULL, scan_block, &blocks[t]) == 0;
        if (t > 0 && !started[t])
            scan_block(&blocks[t]);
    }
    scan_block(&blocks[0]);
    heat2d_field_stats all = heat2d_field_stats_empty();
    for (size_t t = 0; t < threads; ++t) {
        if (started[t])
            pthread_join(ids[t], NULL);
        heat2d_field_stats_merge(&all, &blocks[t].stats);
    }
    return all;
}

/* The invariants of heat2d_summarise_run: from the device where the method
 * found them there, else from a scan here. */
static int check_snapshot(const heat2d_snapshot_sink *sink, size_t step, const void *field,
                          const heat2d_field_stats *stats, heat2d_error *err)
{
    if (stats != NULL)
        return heat2d_snapshot_verdict(sink->cfg, step, stats, err);
    const heat2d_field_stats scanned = scan_snapshot(sink, field);
    return heat2d_snapshot_verdict(sink->cfg, step, &scanned, err);
}

int heat2d_snapshot_sink_open(heat2d_snapshot_sink *sink, const heat2d_config *cfg,
                              const char *path, heat2d_error *err)
{
    *sink = (heat2d_snapshot_sink){.cfg = cfg, .series_path = path};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    sink->threads = cores < 1 ? 1 : cores > kMaxThreads ? kMaxThreads : (size_t)cores;
    if (path == NULL)
        return 0;
    sink->format = heat2d_series_format_writing(path, err);
    return sink->format != NULL ? 0 : -1;
}

/* The run's initial state in its precision (an f32 run's rounded once, as
 * the method rounds it), appended as the series' first record. Made here,
 * at the first snapshot, not before the run: the run's own memory checks
 * come first, and an initial state given as doubles is written as it is. */
static int append_initial_record(heat2d_snapshot_sink *sink, heat2d_error *err)
{
    const heat2d_config *cfg = sink->cfg;
    const double *values = cfg->initial != NULL ? cfg->initial->values : NULL;
    sink->initial_pending = false;
    if (values != NULL && cfg->precision == HEAT2D_F64)
        return sink->format->append(sink->series, cfg->first_step, values, err);
    const size_t cells = cfg->nx * cfg->ny;
    const size_t bytes = cells * heat2d_precision_bytes(cfg->precision);
    void *record = malloc(bytes);
    if (record == NULL)
        return heat2d_fail(err, "--save-every: cannot allocate %zu bytes for the initial record",
                           bytes);
    const heat2d_cells *of = heat2d_cells_of(cfg->precision);
    if (values != NULL) {
        of->narrow(record, values, cells);
    } else {
        memset(record, 0, bytes);
        of->set(record, heat2d_centre_index(cfg->nx, cfg->ny), 1.0);
    }
    const int rc = sink->format->append(sink->series, cfg->first_step, record, err);
    free(record);
    return rc;
}

int heat2d_snapshot_sink_handle(void *ctx, size_t step, const void *field,
                                const heat2d_field_stats *stats, heat2d_error *err)
{
    heat2d_snapshot_sink *sink = ctx;
    if (check_snapshot(sink, step, field, stats, err) != 0)
        return -1;
    sink->handled++;
    if (sink->series == NULL)
        return 0;
    const size_t at = sink->cfg->first_step + step;
    /* Records in the run's own precision: no widening. The initial state
     * first, once every check of the run has passed. */
    if (sink->initial_pending && append_initial_record(sink, err) != 0)
        return -1;
    if (sink->format->append(sink->series, at, field, err) != 0)
        return -1;
    /* A stop signal's line says what stays (escaped as every message):
     * nothing of a scratch folder, which the signal removes. */
    if (!sink->scratch) {
        heat2d_error kept = {{0}};
        heat2d_fail(&kept, "%s keeps the %s up to step %zu", sink->series_path, sink->format->keeps,
                    at);
        heat2d_cleanup_kept(kept.message);
    }
    return 0;
}

int heat2d_snapshot_sink_start(heat2d_snapshot_sink *sink, const heat2d_netcdf_meta *meta,
                               bool append, heat2d_error *err)
{
    if (sink->format == NULL)
        return 0;
    sink->initial_pending = sink->format->initial_record && !append && !sink->scratch;
    return sink->format->open(&sink->series, sink->series_path, sink->cfg, meta, append, err);
}

int heat2d_snapshot_sink_finish(heat2d_snapshot_sink *sink, bool complete, heat2d_error *err)
{
    if (sink->series == NULL)
        return 0;
    const int rc = sink->format->close(sink->series, complete, err);
    sink->series = NULL;
    return rc;
}

void heat2d_snapshot_sink_close(heat2d_snapshot_sink *sink)
{
    heat2d_snapshot_sink_finish(sink, false, NULL);
}
