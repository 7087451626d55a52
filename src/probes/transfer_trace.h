/* Host<->device copies as the CUDA driver performed them, read through
 * CUPTI's activity records: count, bytes and time of every copy, whichever
 * runtime (CUDA, GCC's or NVHPC's OpenACC) asked for it. */
#ifndef HEAT2D_TRANSFER_TRACE_H
#define HEAT2D_TRANSFER_TRACE_H

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start recording copies (idempotent registration, counters zeroed). */
int heat2d_trace_start(heat2d_error *err);

/* Flush, stop recording, and write counts, bytes and summed copy times into
 * rep (transfers_measured, h2d_*, d2h_*, h2d_s, d2h_s). */
int heat2d_trace_stop(heat2d_report *rep, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif
