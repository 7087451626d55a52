/* heat2d: one program, several subcommands, all built on libheat2d. */
#define _POSIX_C_SOURCE 200809L /* SIGXFSZ */
#include "commands.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int cmd_methods(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    static const char *const style_names[] = {"host", "each", "resident"};
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        printf("%-14s %-16s %s\n", m->name, m->seed_name, style_names[m->style]);
    }
    return EXIT_SUCCESS;
}

static void usage(FILE *stream)
{
    fputs("usage: heat2d COMMAND [options]\n"
          "\n"
          "  run      --method M [--nx N] [--ny N] [--steps N] [--alpha A] [--save FILE]\n"
          "           [--pinned]\n"
          "  compare  REF CAND... [--atol A] [--rtol R]\n"
          "  check    [--gpu] [--keep DIR]\n"
          "  bench    [--methods LIST] [--sizes NXxNY:STEPS,...] [--warmups K] [--repeats K]\n"
          "           [--out DIR] [--pinned-too]   (heat2d bench --help)\n"
          "  methods  list the methods in this build\n"
          "  info     [--bandwidth] how this build was made, the machine, its limits\n"
          "\n"
          "Every command prints KEY=VALUE lines; every failure exits non-zero with one\n"
          "line on stderr.\n",
          stream);
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
        {"run", heat2d_cmd_run},  {"compare", heat2d_cmd_compare}, {"check", heat2d_cmd_check},
        {"methods", cmd_methods}, {"info", heat2d_cmd_info},       {"bench", heat2d_cmd_bench},
    };
    if (argc < 2) {
        usage(stderr);
        return HEAT2D_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
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
