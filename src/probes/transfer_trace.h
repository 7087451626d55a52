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

/* Flush, stop recording, and write into rep what crossed: copies of exactly
 * array_bytes (whole arrays, the quantity of the transfer model) in h2d_* and
 * d2h_*, every other copy (a runtime's own, such as GCC's per-launch
 * kernel-argument tables) in h2d_other_* and d2h_other_*, and the summed
 * duration of all copies in h2d_s and d2h_s. */
int heat2d_trace_stop(heat2d_report *rep, size_t array_bytes, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif
