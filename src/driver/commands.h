/* The heat2d subcommands. Each takes the arguments after its name (argv[0]
 * is the subcommand) and returns the process exit status. */
#ifndef HEAT2D_COMMANDS_H
#define HEAT2D_COMMANDS_H

#include "heat2d.h"
#include "methods.h"
#include "process.h"

int heat2d_cmd_run(int argc, char **argv);
int heat2d_cmd_compare(int argc, char **argv);
int heat2d_cmd_check(int argc, char **argv);
int heat2d_cmd_info(int argc, char **argv);
int heat2d_cmd_bench(int argc, char **argv);
int heat2d_cmd_methods(int argc, char **argv);
int heat2d_cmd_plot(int argc, char **argv);

/* A command's usage text into stream; -1 for a command that has none here
 * (bench keeps its own). */
int heat2d_usage(const char *command, FILE *stream);
/* heat2d's own, every command in a line or two. */
void heat2d_usage_main(FILE *stream);

#endif
