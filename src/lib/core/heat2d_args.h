/* Clocks, numbers from a command line, and the seed programs' arguments. */
#ifndef HEAT2D_ARGS_H
#define HEAT2D_ARGS_H

#include "heat2d_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic wall time in seconds. */
double heat2d_now(void);

/* Strict positive integer: all of text, digits only, no sign, no overflow. */
int heat2d_parse_size(const char *text, const char *what, size_t *value, heat2d_error *err);

/* Non-negative finite real: all of text, no leading blanks. */
int heat2d_parse_nonneg_real(const char *text, const char *what, double *value, heat2d_error *err);

/* A diffusion number the explicit update is stable with: finite, > 0 and
 * <= HEAT2D_MAX_ALPHA, with the reason in the message when not. */
int heat2d_parse_alpha(const char *text, const char *what, double *value, heat2d_error *err);

/* getopt_long's entry for the option NAME, returning VAL: one that takes
 * an argument, and one that does not (<getopt.h> where they are used). The
 * commands' tables of their own options are written with these. */
#define HEAT2D_OPTION_ARG(name, val)                                                               \
    {                                                                                              \
        name, required_argument, NULL, val                                                         \
    }
#define HEAT2D_OPTION_FLAG(name, val)                                                              \
    {                                                                                              \
        name, no_argument, NULL, val                                                               \
    }

/* The seed-compatible programs' arguments, `[nx [ny [steps [field_path]]]]`
 * after argv[0], into cfg (defaults 256 256 80, alpha HEAT2D_ALPHA) and
 * *field_path (NULL when absent). Only parses: touches no file. */
int heat2d_seed_args(int argc, char *const *argv, heat2d_config *cfg, const char **field_path,
                     heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_ARGS_H */
