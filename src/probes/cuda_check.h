/* Checking CUDA runtime calls.
 *
 * Every CUDA runtime call of the probes and the GPU methods goes through one
 * of these macros, so that a failure names the file, line and expression that
 * failed together with the runtime's own text, in the one-line heat2d_error
 * the driver prints: heat2d_error.h's HEAT2D_CALL_CHECK, the shape
 * mpi_common.h's HEAT2D_MPI_CHECK shares for MPI's calls.
 */
#ifndef HEAT2D_CUDA_CHECK_H
#define HEAT2D_CUDA_CHECK_H

#include <cuda_runtime_api.h>

#include "heat2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills err from a failed call and returns -1. Only the file's base name is
 * kept: the build passes absolute paths, which would swamp the message. */
int heat2d_cuda_fail(heat2d_error *err, const char *file, int line, const char *expr,
                     cudaError_t rc);

#ifdef __cplusplus
}
#endif

/* Evaluates expr once; on failure fills err and returns -1 from the caller.
 * For functions that own nothing that needs releasing. */
#define HEAT2D_CUDA_CHECK(err, expr)                                                               \
    HEAT2D_CALL_CHECK(cudaError_t, cudaSuccess, heat2d_cuda_fail, err, expr, #expr)

/* Same, but jumps to label, where the caller releases what it holds and
 * returns -1; err already says what failed. */
#define HEAT2D_CUDA_CHECK_GOTO(err, expr, label)                                                   \
    HEAT2D_CALL_CHECK_GOTO(cudaError_t, cudaSuccess, heat2d_cuda_fail, err, expr, #expr, label)

/* Releases handle, when it is not NULL, by call (cudaFree(handle),
 * cudaEventDestroy(handle), ...) and clears it. With err, a failure fills
 * err and returns -1 from the caller, the handle kept for a later best
 * effort; with err NULL, the best effort itself: failures are ignored. */
#define HEAT2D_CUDA_RELEASE(err, handle, call)                                                     \
    do {                                                                                           \
        if ((handle) != NULL) {                                                                    \
            const cudaError_t heat2d_cuda_rc_ = (call);                                            \
            if (heat2d_cuda_rc_ != cudaSuccess && (err) != NULL)                                   \
                return heat2d_cuda_fail((err), __FILE__, __LINE__, #call, heat2d_cuda_rc_);        \
            (handle) = NULL;                                                                       \
        }                                                                                          \
    } while (0)

#endif /* HEAT2D_CUDA_CHECK_H */
