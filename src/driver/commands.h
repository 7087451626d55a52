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

/* Exit statuses: 1 for a failed run or check, 2 for a command line that
 * cannot be understood. */
enum { HEAT2D_EXIT_FAILURE = 1, HEAT2D_EXIT_USAGE = 2 };

/* Print "heat2d: <message>" on stderr and return status. */
int heat2d_report_error(int status, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

#endif
