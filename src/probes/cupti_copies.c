/* CUPTI's activity records of host<->device copies, counted into one tally:
 * the buffer-completed callback runs inside cuptiActivityFlushAll or on
 * CUPTI's own thread, so the tally is under a lock. */
#include "cupti_copies.h"

#include <pthread.h>
#include <stdlib.h>

static heat2d_copy_tally tally;
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
static bool registered;

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
    pthread_mutex_lock(&tally_lock);
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_MEMCPY)
            continue;
        const CUpti_ActivityMemcpy6 *copy = (const CUpti_ActivityMemcpy6 *)record;
        const bool up = copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
        if (up || copy->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH)
            heat2d_copy_tally_add(&tally, up, copy->bytes, copy->end - copy->start);
    }
    pthread_mutex_unlock(&tally_lock);
    free(buffer);
}

CUptiResult heat2d_cupti_copies_start(uint64_t array_size, const char **call)
{
    CUptiResult rc;
    if (!registered) {
        *call = "cuptiActivityRegisterCallbacks";
        rc = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
        if (rc != CUPTI_SUCCESS)
            return rc;
        registered = true;
    }
    pthread_mutex_lock(&tally_lock);
    heat2d_copy_tally_reset(&tally, array_size);
    pthread_mutex_unlock(&tally_lock);
    *call = "cuptiActivityEnable";
    return cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
}

CUptiResult heat2d_cupti_copies_flush(void)
{
    return cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

CUptiResult heat2d_cupti_copies_stop(heat2d_copy_tally *out, const char **call)
{
    *call = "cuptiActivityFlushAll";
    CUptiResult rc = heat2d_cupti_copies_flush();
    if (rc != CUPTI_SUCCESS)
        return rc;
    *call = "cuptiActivityDisable";
    rc = cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    pthread_mutex_lock(&tally_lock);
    *out = tally;
    pthread_mutex_unlock(&tally_lock);
    return rc;
}
