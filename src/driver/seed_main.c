/* The seed-compatible programs (cpu_reference, acc_each_step,
 * acc_persistent): `prog [nx [ny [steps [field_path]]]]`, KEY=VALUE on
 * stdout, one line on stderr and exit 1 on any error. The same source is
 * built once per method; HEAT2D_SEED_METHOD names it. */
#include "heat2d.h"

#include <stdlib.h>

#ifndef HEAT2D_SEED_METHOD
#error "HEAT2D_SEED_METHOD must name the method"
#endif

static int die(const char *program, const char *message)
{
    fprintf(stderr, "%s: %s\n", program, message);
    return EXIT_FAILURE;
}

int main(int argc, char **argv)
{
    const char *program = argv[0];
    heat2d_error err = {{0}};
    heat2d_config cfg = {.nx = 256, .ny = 256, .steps = 80, .alpha = HEAT2D_ALPHA};
    const char *field_path = NULL;

    if (argc > 5) {
        fprintf(stderr, "usage: %s [nx [ny [steps [field_path]]]]\n", program);
        return EXIT_FAILURE;
    }
    if ((argc > 1 && heat2d_parse_size(argv[1], "nx", &cfg.nx, &err) != 0) ||
        (argc > 2 && heat2d_parse_size(argv[2], "ny", &cfg.ny, &err) != 0) ||
        (argc > 3 && heat2d_parse_size(argv[3], "steps", &cfg.steps, &err) != 0))
        return die(program, err.message);
    if (argc > 4) {
        if (argv[4][0] == '\0')
            return die(program, "field_path must not be empty");
        field_path = argv[4];
    }
    if (field_path != NULL && heat2d_field_check_writable(field_path, &err) != 0)
        return die(program, err.message);
    if (cfg.nx < HEAT2D_MIN_SIDE || cfg.ny < HEAT2D_MIN_SIDE)
        return die(program, "nx and ny must be >= 5, steps must be >= 1");

    const heat2d_method *method = heat2d_method_find(HEAT2D_SEED_METHOD);
    if (method == NULL)
        return die(program, "method " HEAT2D_SEED_METHOD " is not in this build");

    heat2d_outcome outcome;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    if (heat2d_run_method(method, &cfg, &outcome, storage, &field, &err) != 0)
        return die(program, err.message);
    heat2d_print_outcome(stdout, method, &cfg, &outcome);
    fflush(stdout);

    int status = EXIT_SUCCESS;
    if (field_path != NULL) {
        if (heat2d_field_write(field_path, cfg.nx, cfg.ny, field, &err) != 0)
            status = die(program, err.message);
        else
            printf("FIELD_FILE=%s\n", field_path);
    }
    heat2d_free_pair(storage[0], storage[1]);
    if (fflush(stdout) != 0 || ferror(stdout))
        return die(program, "cannot write to standard output");
    return status;
}
