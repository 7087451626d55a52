/* Host<->device copies as the CUDA driver performed them, read through
 * CUPTI's activity records: count, bytes and time of every copy, whichever
 * runtime (CUDA, GCC's or NVHPC's OpenACC, OpenMP target) asked for it. A
 * build without CUPTI has the same calls, which trace nothing
 * (transfer_trace_absent.c). */
#ifndef HEAT2D_TRANSFER_TRACE_H
#define HEAT2D_TRANSFER_TRACE_H

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start recording copies (idempotent registration, counters zeroed),
 * singling out those of exactly array_bytes: whole arrays, the quantity of
 * the transfer model. Not with HEAT2D_TRANSFER_TRACE=off (on is the
 * default): a profiler (Nsight Compute, Nsight Systems) holds CUPTI itself
 * and refuses a second subscriber, and the run then reports TRANSFERS=none
 * instead of failing. *tracing says whether it started; without CUPTI,
 * never. */
int heat2d_trace_begin(size_t array_bytes, bool *tracing, heat2d_error *err);

/* When tracing: flush, stop recording, and write into rep what crossed
 * (heat2d_copy_tally_to_report); else rep says nothing was measured. */
int heat2d_trace_end(bool tracing, heat2d_report *rep, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif
