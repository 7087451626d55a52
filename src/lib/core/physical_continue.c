/* heat2d_physical.h: the physics of a run continued from a file. The
 * file's values are the run's unless the user asks for others
 * (--change-physics): a restart that silently took the command line's
 * defaults would compute another problem and restart its clock. */
#include "heat2d_error.h"
#include "heat2d_physical.h"
#include "real_format.h"

#include <stdio.h>
#include <stdlib.h>

/* The command line's value of one quantity against the file's. */
static int refuse(const char *from, const char *what, double theirs, const char *option,
                  double mine, heat2d_error *err)
{
    char a[32], b[32];
    heat2d_format_shortest(theirs, a, sizeof a);
    heat2d_format_shortest(mine, b, sizeof b);
    return heat2d_fail(err,
                       "--initial %s holds %s = %s, the command line gives %s = %s (%s): leave "
                       "it out to continue with the file's, or give --change-physics to run "
                       "with the command line's",
                       from, what, a, what, b, option);
}

/* Each value the command line gives held to the file's, where it holds one. */
static int same_as_file(const heat2d_physical *p, const heat2d_physics *file, const char *from,
                        const heat2d_config *cfg, heat2d_error *err)
{
    const bool alpha_given = p->alpha_given || p->diffusivity > 0.0;
    if (alpha_given && file->alpha > 0.0 && cfg->alpha != file->alpha)
        return refuse(from, "alpha", file->alpha, p->alpha_given ? "--alpha" : "D*dt/dx^2",
                      cfg->alpha, err);
    const struct {
        const char *what, *option;
        double mine, theirs;
    } keys[] = {{"dx", "--dx", p->dx, file->dx},
                {"dt", "--dt", p->dt, file->dt},
                {"diffusivity", "--diffusivity", p->diffusivity, file->diffusivity}};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; ++k)
        if (keys[k].mine > 0.0 && keys[k].theirs > 0.0 && keys[k].mine != keys[k].theirs)
            return refuse(from, keys[k].what, keys[k].theirs, keys[k].option, keys[k].mine, err);
    return 0;
}

int heat2d_physical_continue(const heat2d_physical *p, const heat2d_physics *file, bool change,
                             const char *from, heat2d_config *cfg, heat2d_error *err)
{
    if (!change && same_as_file(p, file, from, cfg, err) != 0)
        return -1;
    const bool alpha_given = p->alpha_given || p->diffusivity > 0.0;
    heat2d_physical merged = {.dx = p->dx > 0.0 ? p->dx : file->dx,
                              .dt = p->dt > 0.0 ? p->dt : file->dt,
                              /* --alpha replaces the file's D: the two are one number. */
                              .diffusivity = p->diffusivity > 0.0 ? p->diffusivity
                                             : p->alpha_given     ? 0.0
                                                                  : file->diffusivity,
                              .alpha_given = p->alpha_given};
    if (!change || (!alpha_given && merged.dx == file->dx && merged.dt == file->dt)) {
        /* The file's alpha itself, bit for bit: recomputed from D it could
         * differ in its last bit. */
        if (file->alpha > 0.0 && !(change && alpha_given))
            cfg->alpha = file->alpha;
        cfg->dx = merged.dx;
        cfg->dt = merged.dt;
        cfg->diffusivity = p->diffusivity > 0.0 ? p->diffusivity : file->diffusivity;
        if (!(cfg->diffusivity > 0.0) && cfg->dx > 0.0 && cfg->dt > 0.0)
            cfg->diffusivity = cfg->alpha * cfg->dx * cfg->dx / cfg->dt;
        return 0;
    }
    if (!p->alpha_given && file->alpha > 0.0)
        cfg->alpha = file->alpha;
    return heat2d_physical_resolve(&merged, cfg, err);
}
