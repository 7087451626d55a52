/* The frame of an OpenACC method's solve, written once for both
 * precisions (heat2d_real.h, acc_solve.h). */
#include "acc_solve.h"

int FN(heat2d_acc_solve)(FN(heat2d_acc_loop) loop, const heat2d_config *cfg, REAL *u, REAL *v,
                         REAL **result, heat2d_report *rep, heat2d_error *err)
{
    if (heat2d_acc_transfers_start(cfg->nx * cfg->ny * sizeof(REAL), err) != 0)
        return -1;
    REAL *last = loop(cfg, (REAL)cfg->alpha, u, v, rep, err);
    heat2d_error stop_err;
    if (heat2d_acc_transfers_stop(rep, last ? err : &stop_err) != 0 || last == NULL)
        return -1;
    *result = last;
    return 0;
}
