/* Whether MPI starts here: the build's MPI method on a tiny grid in a
 * child process (child_process.h), whose output is read for the reason
 * when it fails. The process that asks never starts MPI itself, so a
 * failure costs it nothing. */
#define _GNU_SOURCE
#include "child_process.h"
#include "mpi_probe.h"
#include "process.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* How long MPI may take to start on a tiny grid before the probe gives up
 * on it: a healthy singleton start takes well under a second. */
#define PROBE_TIMEOUT_S 60

/* How long the output of a failed probe is read after the child ended. */
#define PROBE_GRACE_S 5

const heat2d_method *heat2d_mpi_probe_method(void)
{
    const heat2d_method *first = NULL;
    for (size_t k = 0; k < heat2d_method_count(); ++k) {
        const heat2d_method *m = heat2d_method_at(k);
        if (!m->distributed)
            continue;
        if (!m->gpu_only)
            return m; /* a GPU method's own needs are not MPI's */
        first = first != NULL ? first : m;
    }
    return first;
}

/* The probe itself, in the child: the method on 8x8 for one step, MPI
 * started and ended as a run does. Its failure is its last line. */
static int probe_child(void *ctx)
{
    const heat2d_method *m = ctx;
    heat2d_config cfg = {.nx = 8, .ny = 8, .steps = 1, .alpha = HEAT2D_ALPHA};
    heat2d_outcome out;
    double *storage[2] = {NULL, NULL};
    const double *field = NULL;
    heat2d_error err = {{0}};
    int rc = heat2d_run_method(m, &cfg, &out, storage, &field, &err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err.message);
    else
        heat2d_free_pair(storage[0], storage[1]);
    heat2d_process_finalize();
    fflush(NULL);
    return rc == 0 ? 0 : 1;
}

/* A line that says something: not blank, not a rule of dashes, not
 * OpenMPI's "***" abort banner, not a "[host:pid] ..." log line (file and
 * line numbers of where the error passed, not what it was). */
static bool meaningful(const char *line, size_t len)
{
    bool word = false;
    for (size_t k = 0; k < len; ++k)
        word = word || isalnum((unsigned char)line[k]);
    return word && line[0] != '[' && strncmp(line, "***", len < 3 ? len : 3) != 0;
}

/* The reason in the child's output: its last meaningful line, joined to the
 * one before it when it is OpenMPI's "--> Returned ..." (which explains
 * that line), blanks trimmed. */
static bool last_reason(const char *text, char *reason, size_t size)
{
    const char *last = NULL, *before = NULL;
    size_t last_len = 0, before_len = 0;
    for (const char *line = text; *line != '\0';) {
        const char *nl = strchr(line, '\n');
        const char *next = nl ? nl + 1 : line + strlen(line);
        const char *end = nl ? nl : next;
        while (line < end && isspace((unsigned char)*line))
            ++line;
        while (end > line && isspace((unsigned char)end[-1]))
            --end;
        if (meaningful(line, (size_t)(end - line))) {
            before = last;
            before_len = last_len;
            last = line;
            last_len = (size_t)(end - line);
        }
        line = next;
    }
    if (last == NULL)
        return false;
    if (strncmp(last, "-->", 3) == 0 && before != NULL) {
        last += 3;
        last_len -= 3;
        while (last_len > 0 && *last == ' ')
            ++last, --last_len;
        snprintf(reason, size, "%.*s: %.*s", (int)before_len, before, (int)last_len, last);
    } else {
        snprintf(reason, size, "%.*s", (int)last_len, last);
    }
    return true;
}

/* What to do: OpenMPI starts a daemon even for a single process (a
 * singleton's orted), through its remote launcher, which needs ssh or rsh
 * on PATH unless told to start it in place (plm isolated); its report then
 * names the launcher's agent (plm_rsh_agent, plm_ssh_agent in PRRTE) or
 * the component that failed (plm/rsh, plm/ssh). Anything else: MPI's own
 * report, which a run prints whole. */
static void fix_for(const char *output, const heat2d_method *m, char *fix, size_t size)
{
    static const char *const remote_launcher[] = {"plm_rsh_agent", "plm_ssh_agent", "plm/rsh",
                                                  "plm/ssh"};
    for (size_t k = 0; k < sizeof remote_launcher / sizeof remote_launcher[0]; ++k)
        if (strstr(output, remote_launcher[k]) != NULL) {
            snprintf(fix, size, "with OpenMPI and no ssh/rsh, set OMPI_MCA_plm=isolated");
            return;
        }
    snprintf(fix, size,
             "`heat2d run --method %s --nx 8 --ny 8 --steps 1` prints MPI's whole report", m->name);
}

/* Why the child failed, from its output and how it ended, into p's
 * reason and fix. */
static void describe_failure(const heat2d_method *m, const heat2d_child_result *res,
                             heat2d_mpi_probe *p)
{
    fix_for(res->out, m, p->fix, sizeof p->fix);
    if (res->timed_out)
        snprintf(p->reason, sizeof p->reason, "%s gave no answer in %d s", m->name,
                 PROBE_TIMEOUT_S);
    else if (!last_reason(res->out, p->reason, sizeof p->reason) && res->term_signal != 0)
        snprintf(p->reason, sizeof p->reason, "%s was killed by signal %d (%s)", m->name,
                 res->term_signal, strsignal(res->term_signal));
    else if (p->reason[0] == '\0')
        snprintf(p->reason, sizeof p->reason, "%s exited with status %d", m->name,
                 res->exit_status);
}

static void probe_once(heat2d_mpi_probe *p)
{
    *p = (heat2d_mpi_probe){.starts = true};
    const heat2d_method *m = heat2d_mpi_probe_method();
    if (m == NULL)
        return; /* no MPI method: nothing to start */
    /* Its output is read until it ends, not until the pipe closes
     * (child_process.h): OpenMPI's singleton hands its messages to the
     * daemon it started, which holds the pipe after it and prints a
     * failure's reason as it goes, hence the linger. */
    char *name[] = {"the MPI probe", NULL};
    const heat2d_child_spec spec = {.argv = name,
                                    .body = probe_child,
                                    .ctx = (void *)m,
                                    .timeout_s = PROBE_TIMEOUT_S,
                                    .merge_stderr = true,
                                    .linger_s = PROBE_GRACE_S};
    heat2d_child_result res;
    heat2d_error err = {{0}};
    p->starts = false;
    if (heat2d_child_run(&spec, &res, &err) != 0) {
        snprintf(p->reason, sizeof p->reason, "it could not be tried: %.360s", err.message);
        fix_for("", m, p->fix, sizeof p->fix);
        return;
    }
    p->starts = heat2d_child_ok(&res);
    if (!p->starts)
        describe_failure(m, &res, p);
    heat2d_child_result_free(&res);
}

void heat2d_mpi_probe_run(heat2d_mpi_probe *p)
{
    static heat2d_mpi_probe answer;
    static bool asked = false;
    if (!asked) {
        probe_once(&answer);
        asked = true;
    }
    *p = answer;
}

void heat2d_mpi_skip_text(const heat2d_mpi_probe *p, const char *names, char *buf, size_t size)
{
    snprintf(buf, size, "MPI could not start (%s): the MPI methods (%s) are skipped; %s", p->reason,
             names, p->fix);
}
