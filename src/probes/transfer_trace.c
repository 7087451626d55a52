/* The CUPTI trace of host<->device copies in heat2d's own process: every
 * copy the CUDA driver made, whichever runtime asked for it, counted,
 * summed and timed (cupti_copies.c, the same code the injection library
 * runs in other programs). */
#include "transfer_trace.h"
#include "cupti_copies.h"

#include <stdlib.h>
#include <string.h>

static int cupti_fail(heat2d_error *err, const char *call, CUptiResult rc)
{
    const char *text = NULL;
    cuptiGetResultString(rc, &text);
    return heat2d_fail(err, "transfer trace: %s: %s", call, text ? text : "unknown CUPTI error");
}

/* HEAT2D_TRANSFER_TRACE: on (or unset, or empty) or off. */
static int trace_wanted(bool *wanted, heat2d_error *err)
{
    const char *text = getenv("HEAT2D_TRANSFER_TRACE");
    *wanted = text == NULL || text[0] == '\0' || strcmp(text, "on") == 0;
    if (*wanted || strcmp(text, "off") == 0)
        return 0;
    return heat2d_fail(err, "HEAT2D_TRANSFER_TRACE=%s is not on or off", text);
}

int heat2d_trace_begin(size_t array_bytes, bool *tracing, heat2d_error *err)
{
    if (trace_wanted(tracing, err) != 0)
        return -1;
    if (!*tracing)
        return 0;
    const char *call = "";
    const CUptiResult rc = heat2d_cupti_copies_start(array_bytes, &call);
    return rc == CUPTI_SUCCESS ? 0 : cupti_fail(err, call, rc);
}

int heat2d_trace_end(bool tracing, heat2d_report *rep, heat2d_error *err)
{
    if (!tracing) {
        rep->transfers_measured = false;
        return 0;
    }
    heat2d_copy_tally tally;
    const char *call = "";
    const CUptiResult rc = heat2d_cupti_copies_stop(&tally, &call);
    if (rc != CUPTI_SUCCESS)
        return cupti_fail(err, call, rc);
    heat2d_copy_tally_to_report(&tally, rep);
    return 0;
}
