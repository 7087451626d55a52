/* Host<->device copies as the CUDA driver performed them, read through
 * CUPTI's activity records: count, bytes and time of every copy, whichever
 * runtime (CUDA, GCC's or NVHPC's OpenACC) asked for it. */
#ifndef HEAT2D_TRANSFER_TRACE_H
#define HEAT2D_TRANSFER_TRACE_H

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start recording copies (idempotent registration, counters zeroed),
 * singling out those of exactly array_bytes: whole arrays, the quantity of
 * the transfer model. */
int heat2d_trace_start(size_t array_bytes, heat2d_error *err);

/* Flush, stop recording, and write into rep what crossed
 * (heat2d_copy_tally_to_report). */
int heat2d_trace_stop(heat2d_report *rep, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif
