/* The methods this build contains, and running one of them the way every
 * heat2d program does. The backends' front door: programs find methods only
 * here. */
#ifndef HEAT2D_METHODS_H
#define HEAT2D_METHODS_H

#include "heat2d.h"
#include "run_options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every method this build contains, in presentation order. */
size_t heat2d_method_count(void);
const heat2d_method *heat2d_method_at(size_t index);
const heat2d_method *heat2d_method_find(const char *name);

/* Whether this build, or this run's settings, put a GPU method's kernels on
 * the host (OpenACC built for the host, or ACC_DEVICE_TYPE=host); false for
 * host methods and for GPU methods that need a GPU. */
bool heat2d_method_on_host_here(const heat2d_method *m);

/* Whether m cannot run here without a GPU: a GPU method not put on the
 * host. */
bool heat2d_method_needs_gpu(const heat2d_method *m);

/* Whether m takes each run option that values asks for (above plain): 0,
 * or -1 with the option's refusal (its name and the methods that take it)
 * in err. A program refuses such a command line up front (exit 2). */
int heat2d_method_takes(const heat2d_method *m, const size_t *values, heat2d_error *err);

/* The method that a method column names (NAME or NAME-pinned), and whether
 * it is the -pinned twin; NULL when this build has no such method. */
const heat2d_method *heat2d_label_method(const char *method_column, bool *pinned);

/* The test hook HEAT2D_FAULT_NAN_AT_STEP=K, read, then allocate,
 * initialise, prepare, time solve, summarise. On success *field points at
 * the final field inside *storage (free with heat2d_free_pair on
 * storage[0], storage[1]). A distributed method allocates for itself, and
 * only rank 0 gets a field and a summary: on other ranks (out->report.rank
 * != 0) *field and storage are NULL and there is nothing to print. */
int heat2d_run_method(const heat2d_method *m, const heat2d_config *cfg, heat2d_outcome *out,
                      double *storage[2], const double **field, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_METHODS_H */
