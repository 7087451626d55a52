/* What the OpenMP target methods share: where their regions run (a GPU, or
 * the host when asked for by OMP_TARGET_OFFLOAD=DISABLED, never by a
 * fallback nobody asked for), the transfer counters (the driver's copies,
 * through CUPTI), and the solve that counts them around a method's loop. */
#ifndef HEAT2D_OMP_TARGET_RUNTIME_H
#define HEAT2D_OMP_TARGET_RUNTIME_H

#include "heat2d.h"

/* Whether this run puts the target regions on the host: asked for by
 * OMP_TARGET_OFFLOAD=DISABLED (a build of these methods always offloads). */
bool heat2d_omp_target_on_host_here(void);

/* Untimed: open the GPU, run one target region that asks
 * omp_is_initial_device where it runs, and fill rep->device and
 * rep->context_s. Regions that ran on the host without being asked to are
 * an error, and so is a grid whose two arrays do not fit in the device's
 * free memory. */
int heat2d_omp_target_prepare(const char *method, const heat2d_config *cfg, heat2d_report *rep,
                              heat2d_error *err);

/* The compiler that built the OpenMP target methods, with its version
 * ("Clang 19.1.7", "GCC 12.2.0"), for the device a result names: the two
 * compilers' offload runtimes differ far more than their host code. */
const char *heat2d_omp_target_compiler(void);

/* The GPU's multiprocessors once prepared, where CUDA is built in to say;
 * 0 where not known. */
int heat2d_omp_target_multiprocessors(void);

/* Zero the counters and start listening to the driver's copy records
 * (CUPTI) when the regions run on a GPU. Copies of array_bytes are the
 * arrays; other copies (libgomp's table of each launch's arguments) are
 * counted apart. */
int heat2d_omp_target_transfers_start(size_t array_bytes, heat2d_error *err);

/* Stop listening; write what crossed into rep: the driver's records on a
 * GPU; on the host, the transfer model's count (nothing crosses: the host
 * device maps nothing), marked as such, since the OpenMP runtime has no
 * interface (OMPT) that counts them. */
int heat2d_omp_target_transfers_stop(heat2d_report *rep, heat2d_error *err);

#endif
