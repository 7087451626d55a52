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

#endif
