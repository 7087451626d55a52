/* heat2d bench: the final field that field.png shows, and the plotting
 * script (matplotlib) run over the folder. Plots are an extra: without them
 * the numbers stand on their own, and a note says how to get the pictures. */
#define _GNU_SOURCE
#include "plot_helper.h"
#include "process_guard.h"
#include "run_state.h"

#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The final field that field.png shows: cpu, 256x256, 400 steps. */
/* The field file lives in a scratch folder of the bench's own (removed by
 * bench_drop_field, or by a fatal signal), never in the results folder,
 * where a file of that name may be the user's (or a link to one). */
static char field_dir[4096];
static int field_slot = -1;

int bench_save_field(bench_state *st, char *path, size_t size)
{
    const char *tmp = heat2d_tmp_base();
    const int made =
        heat2d_scratch_make(tmp, "heat2d-field", field_dir, sizeof field_dir, &field_slot);
    if (made != 0) {
        const char *why = strerror(made);
        bench_say(st, "the field for field.png failed: cannot create a folder in %s: %s", tmp, why);
        bench_add_note(st->info,
                       "FAILED: the cpu run for field.png: cannot create a folder in %s: %s", tmp,
                       why);
        st->failures++;
        return -1;
    }
    snprintf(path, size, "%s/field_%d.dat", field_dir, BENCH_FIELD_SIDE);
    char nx[16], steps[16];
    snprintf(nx, sizeof nx, "%d", BENCH_FIELD_SIDE);
    snprintf(steps, sizeof steps, "%d", BENCH_FIELD_STEPS);
    char *argv[] = {BENCH_SELF_EXE, "run", "--method", "cpu", "--nx", nx, "--ny", nx,
                    "--steps",      steps, "--save",   path,  NULL};
    heat2d_child_result cap;
    heat2d_error err = {{0}};
    char why[HEAT2D_MESSAGE_ROOM];
    if (bench_spawn(argv, NULL, 0.0, &cap, &err) != 0) {
        snprintf(why, sizeof why, "%s", err.message);
    } else {
        bool ok = heat2d_child_ok(&cap);
        if (!ok)
            heat2d_child_why(&cap, why, sizeof why);
        heat2d_child_result_free(&cap);
        if (ok)
            return 0;
    }
    if (bench_interrupted)
        return -1; /* ended with the bench on purpose: no failure */
    bench_say(st, "the field for field.png failed: %s", why);
    bench_add_note(st->info, "FAILED: the cpu run for field.png: %s", why);
    st->failures++;
    return -1;
}

void bench_drop_field(void)
{
    /* The folder holds only the field this bench wrote. */
    heat2d_scratch_drop(field_dir, &field_slot);
    field_dir[0] = '\0';
}

/* The pictures every bench asks the script for (field.png when it hands
 * it the field) that its output does not report as made, as "exited 0
 * without making A, B" into why; "" when it made them all. */
static void missing_pictures(const char *dir, bool have_field, const char *out, char *why,
                             size_t size)
{
    static const char *const asked[] = {"time_per_step.png", "headline.png", "phases.png",
                                        "field.png"};
    size_t used = 0;
    why[0] = '\0';
    for (size_t k = 0; k < sizeof asked / sizeof asked[0] - !have_field; ++k) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, asked[k]);
        if (used < size && !bench_plot_reported(out, path))
            used += (size_t)snprintf(why + used, size - used, "%s%s",
                                     used ? ", " : "exited 0 without making ", asked[k]);
    }
}

/* Plots are an extra: without matplotlib the numbers stand on their own,
 * and the note says how to get the pictures. */
void bench_make_plots(bench_state *st, bool have_field, const char *field_path, char **plot_out)
{
    const char *dir = st->info->dir;
    char tried[256], script[PATH_MAX + 64];
    const char *hung = NULL;
    double limit = 0.0;
    if (!bench_find_plot_script(script, sizeof script)) {
        bench_say(st, "plots skipped: plot_bench.py not found (set HEAT2D_PLOT_SCRIPT)");
        bench_add_note(st->info, "Plots skipped: plot_bench.py not found (neither installed "
                                 "beside heat2d nor in its source tree).");
        return;
    }
    /* The probes after the script is found: without it they were for
     * nothing. */
    const char *python = bench_find_python(tried, sizeof tried, &hung, &limit);
    if (bench_interrupted)
        return; /* a probe was ended with the bench: its answer means nothing */
    if (hung != NULL) {
        bench_say(st, "plots skipped: %s -c 'import matplotlib' timed out after %g s", hung, limit);
        bench_add_note(st->info,
                       "Plots skipped: %s -c 'import matplotlib' timed out after %g s (its "
                       "process group was killed; HEAT2D_PLOT_TIMEOUT sets the limit). Then: "
                       "python3 %s %s",
                       hung, limit, script, dir);
        return;
    }
    if (python == NULL) {
        bench_add_note(st->info,
                       "Plots skipped (time_per_step.png, headline.png, field.png): no python "
                       "with matplotlib (tried %s). Install: apt-get install python3-matplotlib; "
                       "then: python3 %s %s",
                       tried, script, dir);
        bench_progress_clear(st);
        printf("NOTE: %s\n", st->info->notes[st->info->n_notes - 1]);
        return;
    }
    char *argv[] = {(char *)python, script, (char *)dir, have_field ? (char *)field_path : NULL,
                    NULL};
    heat2d_child_result cap;
    heat2d_error err = {{0}};
    char why[HEAT2D_MESSAGE_ROOM];
    limit = bench_plot_limit(BENCH_PLOT_TIMEOUT_S);
    if (bench_spawn(argv, NULL, limit, &cap, &err) != 0) {
        snprintf(why, sizeof why, "%s", err.message);
    } else if (cap.timed_out) {
        heat2d_child_result_free(&cap);
        bench_say(st, "plots skipped: %s %s timed out after %g s", python, script, limit);
        bench_add_note(st->info,
                       "Plots skipped: %s %s timed out after %g s (its process group was killed; "
                       "HEAT2D_PLOT_TIMEOUT sets the limit). Then: %s %s %s",
                       python, script, limit, python, script, dir);
        return;
    } else if (bench_interrupted) {
        /* Ended with the bench on purpose: not a failure of the script. */
        heat2d_child_result_free(&cap);
        bench_add_note(st->info, "Plots skipped: interrupted by signal %d. Then: %s %s %s",
                       (int)bench_interrupted, python, script, dir);
        return;
    } else if (!heat2d_child_ok(&cap)) {
        heat2d_child_why(&cap, why, sizeof why);
        heat2d_child_result_free(&cap);
    } else {
        char bad[PATH_MAX];
        *plot_out = bench_plot_lines(cap.out, bad, sizeof bad);
        if (bad[0] != '\0')
            snprintf(why, sizeof why, "it reported %s, which is not an image", bad);
        else
            missing_pictures(dir, have_field, cap.out, why, sizeof why);
        heat2d_child_result_free(&cap);
        if (why[0] == '\0')
            return;
    }
    bench_say(st, "plots failed: %s", why);
    bench_add_note(st->info, "FAILED: %s %s: %s", python, script, why);
    st->failures++;
}
