/* The CUPTI trace of host<->device copies in heat2d's own process: every
 * copy the CUDA driver made, whichever runtime asked for it, counted,
 * summed and timed (cupti_copies.c, the same code the injection library
 * runs in other programs). */
#include "transfer_trace.h"
#include "cupti_copies.h"

static int cupti_fail(heat2d_error *err, const char *call, CUptiResult rc)
{
    const char *text = NULL;
    cuptiGetResultString(rc, &text);
    return heat2d_fail(err, "transfer trace: %s: %s", call, text ? text : "unknown CUPTI error");
}

int heat2d_trace_start(size_t array_bytes, heat2d_error *err)
{
    const char *call = "";
    const CUptiResult rc = heat2d_cupti_copies_start(array_bytes, &call);
    return rc == CUPTI_SUCCESS ? 0 : cupti_fail(err, call, rc);
}

int heat2d_trace_stop(heat2d_report *rep, heat2d_error *err)
{
    heat2d_copy_tally tally;
    const char *call = "";
    const CUptiResult rc = heat2d_cupti_copies_stop(&tally, &call);
    if (rc != CUPTI_SUCCESS)
        return cupti_fail(err, call, rc);
    heat2d_copy_tally_to_report(&tally, rep);
    return 0;
}
