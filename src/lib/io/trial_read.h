/* A run's KEY=VALUE lines read back, field by field as the trial schema
 * lists them (trial_schema.h): what heat2d run prints, and what a program
 * of the user's that speaks the original's protocol prints. The bench
 * records them, the check and the bench hold them to CHECK=PASS and a
 * TOTAL_S. */
#ifndef HEAT2D_TRIAL_READ_H
#define HEAT2D_TRIAL_READ_H

#include "heat2d_error.h"
#include "trial_schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One trial's fields, each as text as the child printed it or as the bench
 * set it, blanks trimmed; "" when absent. Kept as text so that the CSV
 * holds the child's full precision. */
typedef struct heat2d_trial_values {
    char value[HEAT2D_N_FIELDS][128];
    double total_s;
} heat2d_trial_values;

/* Whose output it is: heat2d run's, or a program's (the original's
 * protocol: only its keys are taken, NX, NY, TOTAL_S, MASS, CENTRE, MIN,
 * MAX and the phases, every other line ignored; its reals in any form the
 * field reader takes, the Fortran originals' "1.0-271" and 'D' exponents
 * too, each rewritten as C prints it; PRECISION f64). */
typedef enum heat2d_trial_source { HEAT2D_FROM_RUN, HEAT2D_FROM_PROGRAM } heat2d_trial_source;

/* Reads the KEY=VALUE lines of one run into res and checks them: CHECK=PASS
 * ("no CHECK=PASS in its output"), a TOTAL_S ("no TOTAL_S in its output")
 * that is a finite non-negative number, every field of the schema well
 * formed for its type ("KEY=TEXT is not a finite number", "... not a
 * count"), and NX/NY/STEPS, where printed, equal to what was asked ("it
 * reported NX=8, asked for 16"). 0, or -1 with err. */
int heat2d_trial_read(const char *text, size_t nx, size_t ny, size_t steps,
                      heat2d_trial_source source, heat2d_trial_values *res, heat2d_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_TRIAL_READ_H */
