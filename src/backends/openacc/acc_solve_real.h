/* The frame of an OpenACC method's solve in one precision: heat2d_precisions.h
 * includes this file twice, defining REAL (double or float) and FN(name)
 * (the name in that precision). No include guard, on purpose. */

/* A method's timed loop: u holds the initial state, v the same; the loop
 * reports its phases into rep and returns whichever of u and v holds the
 * final field on the host, or NULL with err when a snapshot's handler
 * stopped it. alpha is cfg->alpha rounded to REAL. */
typedef REAL *(*FN(heat2d_acc_loop))(const heat2d_config *cfg, REAL alpha, REAL *u, REAL *v,
                                     heat2d_report *rep, heat2d_error *err);

/* A solve of heat2d_method's contract: loop, between
 * heat2d_acc_transfers_start and heat2d_acc_transfers_stop, which count what
 * crossed for arrays of nx*ny cells of REAL. */
static inline int FN(heat2d_acc_solve)(FN(heat2d_acc_loop) loop, const heat2d_config *cfg, REAL *u,
                                       REAL *v, REAL **result, heat2d_report *rep,
                                       heat2d_error *err)
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
