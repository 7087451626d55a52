/* heat2d: one program, several subcommands, all built on libheat2d. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "build_info.h"
#include "commands.h"
#include "process_guard.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The exit status once everything is printed: output that went nowhere
 * (a full disk, a closed stream, a reader that left) is a failure. */
static int written(void)
{
    heat2d_error err;
    if (heat2d_stdout_status(&err) != 0)
        return heat2d_report_error(HEAT2D_EXIT_FAILURE, "%s", err.message);
    return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    heat2d_process_start();
    heat2d_report_quiet(heat2d_process_rank() != 0);
    heat2d_cleanup_quiet(heat2d_process_count() > 1);
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"run", heat2d_cmd_run},     {"compare", heat2d_cmd_compare},
        {"check", heat2d_cmd_check}, {"methods", heat2d_cmd_methods},
        {"info", heat2d_cmd_info},   {"bench", heat2d_cmd_bench},
        {"plot", heat2d_cmd_plot},
    };
    if (argc < 2) {
        heat2d_usage_main(stderr);
        return HEAT2D_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        (strcmp(argv[1], "help") == 0 && argc == 2)) {
        heat2d_usage_main(stdout);
        return written();
    }
    /* heat2d help CMD: that command's own --help. */
    char help_flag[] = "--help";
    char *help_argv[4] = {NULL};
    if (strcmp(argv[1], "help") == 0) {
        if (argc > 3)
            return heat2d_report_error(HEAT2D_EXIT_USAGE, "help: unexpected argument '%s'",
                                       argv[3]);
        help_argv[0] = argv[0];
        help_argv[1] = argv[2];
        help_argv[2] = help_flag;
        argc = 3;
        argv = help_argv;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("heat2d %s (%s)\n", heat2d_build_version(), heat2d_build_revision());
        return written();
    }
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; ++k)
        if (strcmp(argv[1], commands[k].name) == 0) {
            int status = commands[k].run(argc - 1, argv + 1);
            /* Output that went nowhere (stdout closed, or a pipe whose
             * reader left) is a failure, reported after the files are
             * written. */
            heat2d_error err;
            if (heat2d_stdout_status(&err) != 0 && status == EXIT_SUCCESS)
                status = heat2d_report_error(HEAT2D_EXIT_FAILURE, "%s", err.message);
            /* MPI_Finalize, when a distributed method started MPI. */
            heat2d_process_finalize();
            /* Under a launcher every rank refuses alike, and only rank 0
             * says why; the launcher ends the job at the first rank that
             * fails, and had ended rank 0 before its line was out (seen
             * under load, --nx 4 on 4 ranks). The others leave a moment
             * later. */
            if (status != EXIT_SUCCESS && heat2d_process_rank() != 0)
                nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 300000000}, NULL);
            return status;
        }
    /* A typo names the command nearest to it. */
    const char *near = NULL;
    size_t nearest = heat2d_typo_distance(strlen(argv[1])) + 1;
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; ++k) {
        const size_t d = heat2d_edit_distance(argv[1], commands[k].name);
        if (d < nearest) {
            nearest = d;
            near = commands[k].name;
        }
    }
    if (near != NULL)
        return heat2d_report_error(HEAT2D_EXIT_USAGE,
                                   "unknown command '%s' (did you mean heat2d %s?)", argv[1], near);
    return heat2d_report_error(HEAT2D_EXIT_USAGE, "unknown command '%s' (try heat2d --help)",
                               argv[1]);
}
