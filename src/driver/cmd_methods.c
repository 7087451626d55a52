/* heat2d methods: the methods of this build, and whether each runs here.
 * A method that needs a device is asked to open it (its prepare, on a
 * tiny grid): a machine without a GPU, or a build that offloads a model
 * to a GPU it cannot find, is named with the method's own reason, which
 * says how to ask for the host where the model has a way. */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

/* Whether m can run here: "here", or "not here: WHY". A distributed
 * method starts MPI in its prepare, which a listing must not: it shares
 * the verdict of the first single-process method of its family (same
 * on_host_here; CUDA's none) when it needs a GPU, and otherwise runs under
 * mpirun. */
static void here_text(const heat2d_method *m, char *buf, size_t size)
{
    const heat2d_method *asked = m;
    if (m->distributed) {
        asked = NULL;
        for (size_t k = 0; k < heat2d_method_count() && asked == NULL && m->gpu_only; ++k) {
            const heat2d_method *o = heat2d_method_at(k);
            if (!o->distributed && o->gpu_only && o->on_host_here == m->on_host_here)
                asked = o;
        }
        if (asked == NULL) {
            snprintf(buf, size, "here, under mpirun -np P (docs/mpi.md)");
            return;
        }
    }
    const heat2d_config cfg = {.nx = 8, .ny = 8, .steps = 1, .alpha = HEAT2D_ALPHA};
    heat2d_report rep;
    memset(&rep, 0, sizeof rep);
    heat2d_error err = {{0}};
    if (asked->prepare != NULL && asked->prepare(&cfg, &rep, &err) != 0) {
        /* The row names the method: its reason without its name. */
        const size_t len = strlen(asked->name);
        const char *why = err.message;
        if (strncmp(why, asked->name, len) == 0 && strncmp(why + len, ": ", 2) == 0)
            why += len + 2;
        snprintf(buf, size, "not here: %s%s%s%s", why, asked != m ? " (as " : "",
                 asked != m ? asked->name : "", asked != m ? ")" : "");
    } else if (m->distributed)
        snprintf(buf, size, "here, under mpirun -np P (docs/mpi.md)");
    else if (heat2d_method_on_host_here(m))
        snprintf(buf, size, "here, on the %s", rep.device);
    else
        snprintf(buf, size, "here");
}

int heat2d_cmd_methods(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return heat2d_usage("methods", stdout) == 0 ? EXIT_SUCCESS : HEAT2D_EXIT_FAILURE;
    if (argc > 1)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "methods: unexpected argument '%s'", argv[1]);
    static const char *const style_names[] = {"host", "each", "resident"};
    /* Columns as wide as the table's longest name and seed name. */
    int name_width = 0, seed_width = 0;
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        name_width = (int)strlen(m->name) > name_width ? (int)strlen(m->name) : name_width;
        seed_width =
            (int)strlen(m->seed_name) > seed_width ? (int)strlen(m->seed_name) : seed_width;
    }
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        char here[HEAT2D_MESSAGE_ROOM + 16];
        here_text(m, here, sizeof here);
        printf("%-*s %-*s %-8s %s\n", name_width, m->name, seed_width, m->seed_name,
               style_names[m->style], here);
    }
    return EXIT_SUCCESS;
}
