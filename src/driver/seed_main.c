/* The seed-compatible programs (cpu_reference, acc_each_step,
 * acc_persistent): `prog [nx [ny [steps [field_path]]]]`, KEY=VALUE on
 * stdout, one line on stderr and exit 1 on any error. The same source is
 * built once per method; HEAT2D_SEED_METHOD names it. */
#include "methods.h"
#include "process_guard.h"

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
    heat2d_process_start();
    const char *program = argv[0];
    heat2d_error err = {{0}};
    heat2d_config cfg;
    const char *field_path = NULL;

    if (heat2d_seed_args(argc, argv, &cfg, &field_path, &err) != 0)
        return die(program, err.message);
    if (field_path != NULL && heat2d_field_check_writable(field_path, &err) != 0)
        return die(program, err.message);

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
            heat2d_print_name(stdout, "FIELD_FILE", field_path);
    }
    heat2d_free_pair(storage[0], storage[1]);
    if (heat2d_stdout_status(&err) != 0 && status == EXIT_SUCCESS)
        return die(program, err.message);
    return status;
}
