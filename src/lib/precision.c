/* Precision: the names, the f32 error bound, and the one place that turns
 * an f32 run's float arrays into the doubles every caller works with. */
#include "heat2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *heat2d_precision_name(heat2d_precision p)
{
    return p == HEAT2D_F32 ? "f32" : "f64";
}

int heat2d_parse_precision(const char *text, heat2d_precision *p, heat2d_error *err)
{
    if (strcmp(text, "f64") == 0) {
        *p = HEAT2D_F64;
        return 0;
    }
    if (strcmp(text, "f32") == 0) {
        *p = HEAT2D_F32;
        return 0;
    }
    return heat2d_fail(err, "precision '%s' is not one of f64, f32", text);
}

size_t heat2d_precision_bytes(heat2d_precision p)
{
    return p == HEAT2D_F32 ? sizeof(float) : sizeof(double);
}

double heat2d_f32_error_bound(size_t steps, double max_abs)
{
    return (1.0 + 7.0 * (double)steps) * ldexp(1.0, -24) * max_abs;
}

double heat2d_precision_slack(heat2d_precision p, size_t steps)
{
    return p == HEAT2D_F32 ? heat2d_f32_error_bound(steps, 1.0) : 0.0;
}

/* f32: the initial state rounded into float arrays (allocated here, outside
 * the clock), the float solve timed, the result widened into u. */
static int solve_f32(const heat2d_method *m, const heat2d_config *cfg, double *u, double *v,
                     double **result, double *seconds, heat2d_report *rep, heat2d_error *err)
{
    if (m->solve_f32 == NULL)
        return heat2d_fail(err, "%s has no f32 path", m->name);
    const size_t n = cfg->nx * cfg->ny;
    float *uf = malloc(n * sizeof(float));
    float *vf = malloc(n * sizeof(float));
    if (uf == NULL || vf == NULL) {
        free(uf);
        free(vf);
        return heat2d_fail(err, "cannot allocate 2 x %zu bytes of float for a %zux%zu grid",
                           n * sizeof(float), cfg->nx, cfg->ny);
    }
    for (size_t k = 0; k < n; ++k) {
        uf[k] = (float)u[k];
        vf[k] = (float)v[k];
    }
    float *out = NULL;
    const double t0 = heat2d_now();
    const int rc = m->solve_f32(cfg, uf, vf, &out, rep, err);
    *seconds = heat2d_now() - t0;
    if (rc == 0) {
        for (size_t k = 0; k < n; ++k)
            u[k] = (double)out[k];
        *result = u;
    }
    free(uf);
    free(vf);
    return rc;
}

int heat2d_solve(const heat2d_method *m, const heat2d_config *cfg, double *u, double *v,
                 double **result, double *seconds, heat2d_report *rep, heat2d_error *err)
{
    *result = NULL;
    *seconds = 0.0;
    if (cfg->precision == HEAT2D_F32)
        return solve_f32(m, cfg, u, v, result, seconds, rep, err);
    const double t0 = heat2d_now();
    const int rc = m->solve(cfg, u, v, result, rep, err);
    *seconds = heat2d_now() - t0;
    return rc;
}
