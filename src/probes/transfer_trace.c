/* The CUPTI trace of host<->device copies: every copy the CUDA driver made,
 * whichever runtime asked for it, counted, summed and timed. */
#include "transfer_trace.h"

#include <cupti.h>
#include <stdlib.h>

/* Filled by CUPTI's buffer-completed callback, which runs inside
 * cuptiActivityFlushAll or on CUPTI's own thread; the caller reads them only
 * after the flush has returned. */
static uint64_t copies[2], bytes_moved[2], copy_ns[2];
/* Copies of exactly the array size, set by the caller before the flush. */
static uint64_t array_size, array_copies[2], array_bytes_moved[2];
static bool registered;

enum { UP = 0, DOWN = 1 };
enum { TRACE_BUFFER_BYTES = 1 << 20, TRACE_ALIGN = 8 };

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(TRACE_ALIGN, TRACE_BUFFER_BYTES);
    *size = *buffer ? TRACE_BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer,
                                      size_t size, size_t valid)
{
    (void)context;
    (void)stream;
    (void)size;
    CUpti_Activity *record = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_MEMCPY)
            continue;
        const CUpti_ActivityMemcpy6 *copy = (const CUpti_ActivityMemcpy6 *)record;
        int way = -1;
        if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD)
            way = UP;
        else if (copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
            way = DOWN;
        if (way < 0)
            continue;
        copies[way]++;
        bytes_moved[way] += copy->bytes;
        if (copy->bytes == array_size) {
            array_copies[way]++;
            array_bytes_moved[way] += copy->bytes;
        }
        copy_ns[way] += copy->end - copy->start;
    }
    free(buffer);
}

static int cupti_fail(heat2d_error *err, const char *call, CUptiResult rc)
{
    const char *text = NULL;
    cuptiGetResultString(rc, &text);
    return heat2d_fail(err, "transfer trace: %s: %s", call, text ? text : "unknown CUPTI error");
}

int heat2d_trace_start(heat2d_error *err)
{
    CUptiResult rc;
    if (!registered) {
        rc = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
        if (rc != CUPTI_SUCCESS)
            return cupti_fail(err, "cuptiActivityRegisterCallbacks", rc);
        registered = true;
    }
    for (int way = UP; way <= DOWN; ++way)
        copies[way] = bytes_moved[way] = copy_ns[way] = 0;
    for (int way = UP; way <= DOWN; ++way)
        array_copies[way] = array_bytes_moved[way] = 0;
    rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    if (rc != CUPTI_SUCCESS)
        return cupti_fail(err, "cuptiActivityEnable", rc);
    return 0;
}

int heat2d_trace_stop(heat2d_report *rep, size_t array_bytes, heat2d_error *err)
{
    array_size = array_bytes;
    CUptiResult rc = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (rc != CUPTI_SUCCESS)
        return cupti_fail(err, "cuptiActivityFlushAll", rc);
    rc = cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    if (rc != CUPTI_SUCCESS)
        return cupti_fail(err, "cuptiActivityDisable", rc);
    rep->transfers_measured = true;
    rep->h2d_count = array_copies[UP];
    rep->h2d_bytes = array_bytes_moved[UP];
    rep->d2h_count = array_copies[DOWN];
    rep->d2h_bytes = array_bytes_moved[DOWN];
    rep->h2d_other_count = copies[UP] - array_copies[UP];
    rep->h2d_other_bytes = bytes_moved[UP] - array_bytes_moved[UP];
    rep->d2h_other_count = copies[DOWN] - array_copies[DOWN];
    rep->d2h_other_bytes = bytes_moved[DOWN] - array_bytes_moved[DOWN];
    rep->h2d_s = 1e-9 * (double)copy_ns[UP];
    rep->d2h_s = 1e-9 * (double)copy_ns[DOWN];
    return 0;
}
