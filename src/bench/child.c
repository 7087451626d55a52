/* heat2d bench: its children stop with it. */
#include "child.h"

volatile sig_atomic_t bench_interrupted;

int bench_spawn(char *const argv[], char *const envp[], double timeout_s, heat2d_child_result *res,
                heat2d_error *err)
{
    const heat2d_child_spec spec = {
        .argv = argv, .envp = envp, .timeout_s = timeout_s, .stop = &bench_interrupted};
    return heat2d_child_run(&spec, res, err);
}
