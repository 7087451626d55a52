/* The process hooks of a build without MPI: one process, rank 0 of 1. */
#include "process.h"

int heat2d_process_rank(void)
{
    return 0;
}

int heat2d_process_count(void)
{
    return 1;
}

void heat2d_process_finalize(void) {}

void heat2d_process_abort(int status)
{
    (void)status;
}

int heat2d_process_join(const char *method, const struct heat2d_config *cfg,
                        struct heat2d_error *err)
{
    (void)method;
    (void)cfg;
    (void)err;
    return 0;
}
