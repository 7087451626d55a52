/* heat2d_physical.h: dx, dt and D into the diffusion number, and the
 * refusals that keep the two forms of a run (physical, or alpha) apart. */
#include "heat2d_physical.h"
#include "heat2d_error.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

int heat2d_parse_physical(const char *text, const char *what, double *value, heat2d_error *err)
{
    char *end = NULL;
    const double parsed =
        (text == NULL || isspace((unsigned char)text[0])) ? NAN : strtod(text, &end);
    if (end == NULL || end == text || *end != '\0' || !isfinite(parsed) || !(parsed > 0.0))
        return heat2d_fail(err, "%s must be a positive number, got '%s'", what, text ? text : "");
    *value = parsed;
    return 0;
}

int heat2d_physical_resolve(const heat2d_physical *p, heat2d_config *cfg, heat2d_error *err)
{
    cfg->dx = p->dx;
    cfg->dt = p->dt;
    cfg->diffusivity = p->diffusivity;
    if (!(p->diffusivity > 0.0)) {
        /* The article's form: alpha as given, dx and dt its labels. */
        if (p->dx > 0.0 && p->dt > 0.0)
            cfg->diffusivity = cfg->alpha * p->dx * p->dx / p->dt;
        return 0;
    }
    if (p->alpha_given)
        return heat2d_fail(err, "--alpha and --diffusivity are two forms of one number (alpha = "
                                "D*dt/dx^2): give one");
    if (!(p->dx > 0.0) || !(p->dt > 0.0))
        return heat2d_fail(err, "--diffusivity needs --dx and --dt (alpha = D*dt/dx^2)");
    const double alpha = p->diffusivity * p->dt / (p->dx * p->dx);
    const double dt_max = p->dx * p->dx / (4.0 * p->diffusivity);
    if (!(alpha <= HEAT2D_MAX_ALPHA))
        return heat2d_fail(err,
                           "--diffusivity %g --dx %g --dt %g: alpha = D*dt/dx^2 = %g is unstable "
                           "(explicit 5-point diffusion needs alpha <= 1/4): the largest stable "
                           "dt is dx^2/(4 D) = %g s",
                           p->diffusivity, p->dx, p->dt, alpha, dt_max);
    if (!(alpha > 0.0) || !isfinite(alpha))
        return heat2d_fail(err,
                           "--diffusivity %g --dx %g --dt %g: alpha = D*dt/dx^2 = %g, not a "
                           "positive number",
                           p->diffusivity, p->dx, p->dt, alpha);
    cfg->alpha = alpha;
    return 0;
}
