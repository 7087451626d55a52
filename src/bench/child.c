/* heat2d bench: its children stop with it, and a trial's child is
 * watched for the progress line. */
#include "child.h"

volatile sig_atomic_t bench_interrupted;

static void (*watch_tick)(void *ctx, double elapsed_s);
static void *watch_ctx;

void bench_watch_children(void (*tick)(void *ctx, double elapsed_s), void *ctx)
{
    watch_tick = tick;
    watch_ctx = ctx;
}

int bench_spawn(char *const argv[], char *const envp[], double timeout_s, heat2d_child_result *res,
                heat2d_error *err)
{
    const heat2d_child_spec spec = {.argv = argv,
                                    .envp = envp,
                                    .timeout_s = timeout_s,
                                    .stop = &bench_interrupted,
                                    .tick = watch_tick,
                                    .tick_ctx = watch_ctx};
    return heat2d_child_run(&spec, res, err);
}
