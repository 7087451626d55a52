/* acc-resident: the arrays live on the device for the whole loop. One
 * upload on entry, ping-pong between the two device arrays, one download of
 * the final one. */
#include "acc_runtime.h"
#include "acc_stencil.h"

static int acc_resident_prepare(const heat2d_config *cfg, heat2d_report *rep, heat2d_error *err)
{
    return heat2d_acc_prepare("acc-resident", cfg, rep, err);
}

static int acc_resident_solve(const heat2d_config *cfg, double *u, double *v, double **result,
                              heat2d_report *rep, heat2d_error *err)
{
    size_t n = cfg->nx * cfg->ny;
    if (heat2d_acc_transfers_start(err) != 0)
        return -1;
    double t0 = heat2d_now();
#pragma acc enter data copyin(u [0:n]) create(v [0:n])
    double t_enter = heat2d_now();

    /* The host pointers name the device copies; swapping them swaps which
     * device array is read and which is written, without moving data. */
    double *from = u;
    double *to = v;
    for (size_t step = 0; step < cfg->steps; ++step) {
        heat2d_acc_step(cfg->nx, cfg->ny, cfg->alpha, from, to);
        double *swap = from;
        from = to;
        to = swap;
    }
#pragma acc wait
    double t_loop = heat2d_now();

    /* After an odd number of steps the result is in v, after an even number
     * in u: fetch only that one. */
#pragma acc update self(from [0:n])
#pragma acc wait
    double t_back = heat2d_now();

#pragma acc exit data delete (u [0:n], v [0:n])
    double t_end = heat2d_now();

    if (heat2d_acc_transfers_stop(rep, n * sizeof(double), err) != 0)
        return -1;
    heat2d_report_phase(rep, "ENTER_S", t_enter - t0);
    heat2d_report_phase(rep, "GPU_LOOP_S", t_loop - t_enter);
    heat2d_report_phase(rep, "READBACK_S", t_back - t_loop);
    heat2d_report_phase(rep, "EXIT_S", t_end - t_back);
    *result = from;
    return 0;
}

const heat2d_method heat2d_method_acc_resident = {
    .name = "acc-resident",
    .seed_name = "ACC_PERSISTENT",
    .style = HEAT2D_STYLE_RESIDENT,
    .prepare = acc_resident_prepare,
    .solve = acc_resident_solve,
};
