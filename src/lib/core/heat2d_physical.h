/* A run in physical units: the cell size dx (m), the time step dt (s) and
 * the diffusivity D (m^2/s), from which the diffusion number follows,
 * alpha = D*dt/dx^2; or the article's alpha alone, which dx and dt may
 * label. */
#ifndef HEAT2D_PHYSICAL_H
#define HEAT2D_PHYSICAL_H

#include "heat2d_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the command line gave: each value > 0, or 0 when not given. */
typedef struct heat2d_physical {
    double dx, dt, diffusivity;
    bool alpha_given; /* --alpha */
} heat2d_physical;

/* A length, a time or a diffusivity from the command line: a finite number
 * > 0 (what names the option in the message). */
int heat2d_parse_physical(const char *text, const char *what, double *value, heat2d_error *err);

/* cfg->alpha, cfg->dx, cfg->dt and cfg->diffusivity from p. With
 * --diffusivity: dx and dt are needed, alpha = D*dt/dx^2 (D*dt, then
 * divided by dx*dx), refused above 1/4 with the largest stable dt,
 * dx^2/(4 D), in the message, and refused beside --alpha (one form or the
 * other). Without it: cfg->alpha stays (--alpha or the default), dx and dt
 * label the file's coordinates and time, and D = alpha*dx^2/dt follows
 * when both are given. 0, or -1 with err (a usage error). */
int heat2d_physical_resolve(const heat2d_physical *p, heat2d_config *cfg, heat2d_error *err);

/* A run's physics: alpha, and dx, dt and D (0 where not known). */
typedef struct heat2d_physics {
    double alpha, dx, dt, diffusivity;
} heat2d_physics;

/* The physics of a run continued from a file (--initial) that holds
 * `file`'s (each 0 where it holds none): the file's wherever it holds one,
 * so that a restart keeps its physics with nothing typed again; the
 * command line's where the file holds none. A value the command line gives
 * (p, and cfg->alpha as heat2d_physical_resolve left it) that differs from
 * the file's is refused naming both, unless change (--change-physics):
 * then the command line's replace the file's, and alpha follows from D, dx
 * and dt where D is known. cfg's alpha, dx, dt and diffusivity are set.
 * from names the file in messages. 0, or -1 with err (a usage error). */
int heat2d_physical_continue(const heat2d_physical *p, const heat2d_physics *file, bool change,
                             const char *from, heat2d_config *cfg, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_PHYSICAL_H */
