/* heat2d_physical.h: dx, dt and D into the diffusion number, and the
 * refusals that keep the two forms of a run (physical, or alpha) apart. */
#include "heat2d_physical.h"
#include "heat2d_error.h"
#include "real_format.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
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

/* The check itself: alpha = D*dt/dx^2, as the run computes it, in (0, 1/4]. */
static bool stable(const heat2d_physical *p, double dt)
{
    const double alpha = p->diffusivity * dt / (p->dx * p->dx);
    return alpha > 0.0 && alpha <= HEAT2D_MAX_ALPHA;
}

/* The largest dt of six significant digits at or below dx^2/(4 D) that the
 * check takes when given back (a nearest rounding may land above the bound:
 * D 7, dx 1 gives 0.0357142857..., which %g prints as 0.0357143, unstable),
 * as printed into out; false when there is none (a bound of 0 or beyond
 * double's range). */
static bool stable_dt_text(const heat2d_physical *p, double bound, char *out, size_t size)
{
    if (!(bound > 0.0) || !isfinite(bound))
        return false;
    char text[32];
    snprintf(text, sizeof text, "%.5e", bound);
    /* Down one in the sixth digit until given back it is stable. */
    for (int tries = 0; tries < 8; ++tries) {
        const double dt = strtod(text, NULL);
        snprintf(out, size, "%.6g", dt);
        if (strtod(out, NULL) == dt && stable(p, dt))
            return true;
        long mantissa = 0;
        int exponent = 0;
        char point = 0;
        int lead = 0;
        if (sscanf(text, "%d%c%lde%d", &lead, &point, &mantissa, &exponent) != 4)
            return false;
        long digits = lead * 100000L + mantissa - 1;
        if (digits < 100000) {
            digits = 999999;
            exponent--;
        }
        snprintf(text, sizeof text, "%ld.%05lde%d", digits / 100000, digits % 100000, exponent);
    }
    return false;
}

/* Why dx^2/(4 D) is no number a dt can be: which part leaves double's range. */
static const char *bound_fault(const heat2d_physical *p)
{
    const double dx2 = p->dx * p->dx, d4 = 4.0 * p->diffusivity;
    if (!isfinite(d4))
        return "4 D overflows";
    if (!isfinite(dx2))
        return "dx^2 overflows";
    if (dx2 == 0.0)
        return "dx^2 underflows to 0";
    return "dx^2/(4 D) leaves double's range";
}

/* The refusal of an unstable alpha, with a dt that works when given back. */
static int refuse_unstable(const heat2d_physical *p, double alpha, heat2d_error *err)
{
    char d[32], dx[32], dt[32], a[32], best[32];
    heat2d_format_shortest(p->diffusivity, d, sizeof d);
    heat2d_format_shortest(p->dx, dx, sizeof dx);
    heat2d_format_shortest(p->dt, dt, sizeof dt);
    heat2d_format_shortest(alpha, a, sizeof a);
    const double bound = p->dx * p->dx / (4.0 * p->diffusivity);
    if (!stable_dt_text(p, bound, best, sizeof best))
        return heat2d_fail(err,
                           "--diffusivity %s --dx %s --dt %s: alpha = D*dt/dx^2 = %s is unstable, "
                           "and no dt is stable in double precision: the bound dx^2/(4 D) is "
                           "%g (%s); give dx and D in units nearer 1",
                           d, dx, dt, a, bound, bound_fault(p));
    return heat2d_fail(err,
                       "--diffusivity %s --dx %s --dt %s: alpha = D*dt/dx^2 = %s is unstable "
                       "(explicit 5-point diffusion needs alpha <= 1/4): the largest stable "
                       "dt is dx^2/(4 D) = %s s",
                       d, dx, dt, a, best);
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
    if (!(alpha <= HEAT2D_MAX_ALPHA))
        return refuse_unstable(p, alpha, err);
    if (!(alpha > 0.0) || !isfinite(alpha)) {
        char d[32], dx[32], dt[32];
        heat2d_format_shortest(p->diffusivity, d, sizeof d);
        heat2d_format_shortest(p->dx, dx, sizeof dx);
        heat2d_format_shortest(p->dt, dt, sizeof dt);
        return heat2d_fail(err,
                           "--diffusivity %s --dx %s --dt %s: alpha = D*dt/dx^2 = %g, not a "
                           "positive number in double precision; give dx, dt and D in units "
                           "nearer 1",
                           d, dx, dt, alpha);
    }
    cfg->alpha = alpha;
    return 0;
}
