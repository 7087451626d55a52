/* heat2d bench: the benchmark command, which lives in the bench library
 * (src/bench) so that the unit tests can link its parts. */
#include "bench.h"
#include "commands.h"

int heat2d_cmd_bench(int argc, char **argv)
{
    return bench_command(argc, argv);
}
