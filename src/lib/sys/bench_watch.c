/* A trial of heat2d bench dies with its bench, even one that a launcher
 * started (mpirun's ranks are its children, not the bench's, and lead
 * process groups of their own, so neither the bench's parent-death signal
 * nor its group kill reaches them). The bench names itself in
 * HEAT2D_BENCH_PID; a process below it asks the kernel for SIGKILL when its
 * own parent dies, so that the death runs down the chain. It is the trial's
 * side, not the bench's: every program (heat2d, cpu_reference ...) calls it
 * as it starts (heat2d_process_start), so it lives in the library they all
 * link. */
#define _GNU_SOURCE
#include "ancestry.h"
#include "process_guard.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

void heat2d_die_with_bench(void)
{
#ifdef __linux__
    const char *text = getenv("HEAT2D_BENCH_PID");
    if (text == NULL || text[0] == '\0')
        return;
    char *end;
    errno = 0;
    long bench = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || bench <= 1 || (long)(pid_t)bench != bench) {
        fprintf(stderr,
                "heat2d: HEAT2D_BENCH_PID=%.40s is not a process id (heat2d bench sets it for its "
                "trials)\n",
                text);
        exit(HEAT2D_EXIT_FAILURE);
    }
    if ((pid_t)bench == getpid())
        return; /* the bench itself */
    /* Set first, looked at second: a parent that died in between has
     * already left us to another, and the look sees that. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (heat2d_has_ancestor((pid_t)bench))
        return;
    if (kill((pid_t)bench, 0) != 0 && errno == ESRCH) {
        fprintf(stderr, "heat2d: the bench that started this trial (pid %ld) is gone\n", bench);
        exit(HEAT2D_EXIT_FAILURE);
    }
    /* A bench elsewhere, not ours (an inherited variable): no tie to it. */
    prctl(PR_SET_PDEATHSIG, 0);
#endif
}
