/* heat2d: one program, several subcommands, all built on libheat2d. */
#define _POSIX_C_SOURCE 200809L /* SIGXFSZ */
#include "build_info.h"
#include "commands.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int heat2d_cmd_methods(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return heat2d_usage("methods", stdout) == 0 ? EXIT_SUCCESS : HEAT2D_EXIT_FAILURE;
    if (argc > 1)
        return heat2d_report_error(HEAT2D_EXIT_USAGE, "methods: unexpected argument '%s'", argv[1]);
    static const char *const style_names[] = {"host", "each", "resident"};
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        printf("%-14s %-16s %s\n", m->name, m->seed_name, style_names[m->style]);
    }
    return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    /* Past a file size limit (ulimit -f) write() fails with EFBIG, which
     * the field writer reports and cleans up after, instead of the process
     * being killed by SIGXFSZ with a half-written temporary file left. */
    signal(SIGXFSZ, SIG_IGN);
    heat2d_report_quiet(heat2d_process_rank() != 0);
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"run", heat2d_cmd_run},     {"compare", heat2d_cmd_compare},
        {"check", heat2d_cmd_check}, {"methods", heat2d_cmd_methods},
        {"info", heat2d_cmd_info},   {"bench", heat2d_cmd_bench},
    };
    if (argc < 2) {
        heat2d_usage_main(stderr);
        return HEAT2D_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        heat2d_usage_main(stdout);
        return EXIT_SUCCESS;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("heat2d %s (%s)\n", heat2d_build_version(), heat2d_build_revision());
        return EXIT_SUCCESS;
    }
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; ++k)
        if (strcmp(argv[1], commands[k].name) == 0) {
            int status = commands[k].run(argc - 1, argv + 1);
            if (fflush(stdout) != 0 || ferror(stdout))
                status =
                    heat2d_report_error(HEAT2D_EXIT_FAILURE, "cannot write to standard output");
            /* MPI_Finalize, when a distributed method started MPI. */
            heat2d_process_finalize();
            return status;
        }
    return heat2d_report_error(HEAT2D_EXIT_USAGE, "unknown command '%s' (try heat2d --help)",
                               argv[1]);
}
