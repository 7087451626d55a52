/* heat2d bench: summary.md, recomputed from every row of trials.csv: per
 * size the medians, speedups, rates and transfers, the limits, the scaling,
 * and the article's headline table. */
#include "file_replace.h"
#include "load.h"
#include "plot_helper.h"
#include "run_state.h"
#include "summary.h"
#include "summary_tables.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A row's device, and where other work kept cores busy while its size ran
 * and the row spread over several cores (threads or ranks), the warning:
 * such a method waits for its slowest core at every step. */
static void device_text(const bench_run_info *info, const size_group *g, const cell *c, char *buf,
                        size_t size)
{
    const bench_busy *busy = bench_load_busy_at(info, &g->size);
    unsigned threads = 0;
    const bool spread = c->style_known && c->style == HEAT2D_STYLE_HOST &&
                        ((sscanf(c->device, "host (%u thread", &threads) == 1 && threads > 1) ||
                         c->last->ranks > 1);
    if (busy != NULL && spread)
        snprintf(buf, size, "%s, **busy machine: other work on %.1f of %u cores**", c->device,
                 busy->other_cores, busy->cores);
    else
        snprintf(buf, size, "%s", c->device);
}

/* At the top: the sizes that ran while other work kept cores busy. */
static void emit_busy(FILE *f, const bench_run_info *info)
{
    if (info->n_busy == 0)
        return;
    fputs("**Busy machine**: other work kept cores busy while ", f);
    for (size_t k = 0; k < info->n_busy; ++k) {
        char size[96];
        bench_size_text(&info->busy[k].size, '/', size, sizeof size);
        fprintf(f, "%s%s ran (%.1f of %u cores, on average)", k == 0 ? "" : ", and while ", size,
                info->busy[k].other_cores, info->busy[k].cores);
    }
    if (info->loadavg >= 0.0)
        fprintf(f, "; the load average was %.2f when the bench started (environment.txt)",
                info->loadavg);
    fputs(". The times at those sizes are slower than this machine's best, most of all those "
          "of methods spread over several cores, whose rows say so: run the bench again on a "
          "quiet machine.\n\n",
          f);
}

static void emit_size_table(FILE *f, const bench_run_info *info, const size_group *g)
{
    const bench_size *s = &g->size;
    fprintf(f, "## %zux%zu, %zu steps\n\n", s->nx, s->ny, s->steps);
    fputs("| method | device | trials | median TOTAL_S [s] (min–max) | speedup over cpu | Gcell/s "
          "| GB/s | H2D per run | D2H per run |\n"
          "|---|---|--:|--:|--:|--:|--:|--:|--:|\n",
          f);
    double cell_steps = (double)s->nx * (double)s->ny * (double)s->steps;
    const cell *cpu = summary_find_cell(g, "cpu");
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        double med = summary_median(c->totals, c->n);
        char speedup[32], h2d[64], d2h[64], gcells[32], gbytes[32];
        summary_speedup_text(cpu, c, speedup, sizeof speedup);
        summary_ratio_text(cell_steps / med / 1e9, gcells, sizeof gcells);
        summary_ratio_text(cell_steps * 2.0 * (double)c->last->cell_bytes / med / 1e9, gbytes,
                           sizeof gbytes);
        summary_transfer_text(c, true, h2d, sizeof h2d);
        summary_transfer_text(c, false, d2h, sizeof d2h);
        char device[256];
        device_text(info, g, c, device, sizeof device);
        fprintf(f, "| %s | %s | %zu | %.4g (%.4g–%.4g) | %s | %s | %s | %s | %s |\n", c->label,
                device, c->n, med, c->totals[0], c->totals[c->n - 1], speedup, gcells, gbytes, h2d,
                d2h);
    }
    fputc('\n', f);

    /* The article's speedups: a host method over a per-step and a resident
     * method, and per-step over resident within one family. */
    bool any = false;
    for (size_t a = 0; a < g->n_cells; ++a) {
        const cell *ca = &g->cells[a];
        for (size_t b = 0; b < g->n_cells; ++b) {
            const cell *cb = &g->cells[b];
            /* Within one precision: f32 over f64 is not the article's pair. */
            if (!ca->style_known || !cb->style_known ||
                ca->last->cell_bytes != cb->last->cell_bytes)
                continue;
            /* The article's names: cpu/each, cpu/resident, each/resident. */
            char pair[80];
            if (ca->style == HEAT2D_STYLE_HOST && cb->style == HEAT2D_STYLE_EACH)
                snprintf(pair, sizeof pair, "%s/each", ca->label);
            else if (ca->style == HEAT2D_STYLE_HOST && cb->style == HEAT2D_STYLE_RESIDENT)
                snprintf(pair, sizeof pair, "%s/resident", ca->label);
            else if (ca->style == HEAT2D_STYLE_EACH && cb->style == HEAT2D_STYLE_RESIDENT &&
                     summary_same_family(ca->label, cb->label))
                snprintf(pair, sizeof pair, "each/resident");
            else
                continue;
            if (!any)
                fputs("Speedups, median over median:\n\n", f);
            any = true;
            char ratio[32];
            summary_ratio_text(summary_median(ca->totals, ca->n) /
                                   summary_median(cb->totals, cb->n),
                               ratio, sizeof ratio);
            fprintf(f, "- %s: %s / %s = %s\n", pair, ca->label, cb->label, ratio);
        }
    }
    if (any)
        fputc('\n', f);

    /* A GPU method whose kernels ran on the host is the article's host
     * mode, not a GPU number; say so where the number is, with the reason
     * its device gives ("host (OpenACC built for the host)"). */
    char host_acc[256] = "";
    const char *why = NULL;
    size_t used = 0;
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        if (c->style_known && c->style != HEAT2D_STYLE_HOST && summary_on_host(c->device)) {
            used += (size_t)snprintf(host_acc + used,
                                     used < sizeof host_acc ? sizeof host_acc - used : 0, "%s%s",
                                     used ? ", " : "", c->label);
            why = why != NULL ? why : c->device;
        }
    }
    if (used > 0) {
        const char *open = strchr(why, '(');
        int why_len = open != NULL ? (int)strcspn(open + 1, ")") : 0;
        fprintf(f,
                "Ran on the host, not a GPU: %s (%.*s: the article's host mode; nothing "
                "crosses to a device).\n\n",
                host_acc, open != NULL ? why_len : 16, open != NULL ? open + 1 : "no reason given");
    }
}

static const size_group *headline_group(const size_group *groups, size_t n, bool *exact)
{
    const bench_size article = {2048, 2048, 500};
    *exact = false;
    for (size_t k = 0; k < n; ++k)
        if (summary_same_size(&groups[k].size, &article)) {
            *exact = true;
            return &groups[k];
        }
    /* Otherwise the largest grid (the groups are sorted by cells, then
     * steps). */
    return n > 0 ? &groups[n - 1] : NULL;
}

static void emit_headline(FILE *f, const bench_run_info *info, const size_group *groups, size_t n)
{
    bool exact;
    const size_group *g = headline_group(groups, n, &exact);
    if (g == NULL)
        return;
    const bench_size *s = &g->size;
    fprintf(f, "## Headline: %zux%zu, %zu steps\n\n", s->nx, s->ny, s->steps);
    if (!exact)
        fprintf(f, "The article's headline size, 2048x2048/500, was not run; this is the largest "
                   "size that was. Full ladder: `heat2d bench --sizes "
                   "128x128:50,512x512:200,1024x1024:300,2048x2048:500`.\n\n");
    fputs("Where the time goes (means over the trials, in ms): the upload (a resident "
          "method's entry: allocation and the one upload; a per-step method's copies up, as "
          "the device timed them), the loop (a per-step method's without its copies), the "
          "read-back (the last step's, or a per-step method's copies down), the rest.\n\n"
          "| method | device | median TOTAL_S [s] | speedup over cpu | upload | loop | read-back "
          "| other |\n|---|---|--:|--:|--:|--:|--:|--:|\n",
          f);
    const cell *cpu = summary_find_cell(g, "cpu");
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        char speedup[32];
        summary_speedup_text(cpu, c, speedup, sizeof speedup);
        const double trials = (double)c->n;
        char device[256];
        device_text(info, g, c, device, sizeof device);
        fprintf(f, "| %s | %s | %.4g | %s | %.4g | %.4g | %.4g | %.4g |\n", c->label, device,
                summary_median(c->totals, c->n), speedup, c->phase_sum[0] / trials * 1e3,
                c->phase_sum[1] / trials * 1e3, c->phase_sum[2] / trials * 1e3,
                c->phase_sum[3] / trials * 1e3);
    }
    fputc('\n', f);
}

static const char *const headline_plots[][2] = {
    {"headline.png", "headline: TOTAL_S of every method"},
    {"phases.png", "headline: where the time goes"},
};
static const char *const ladder_plots[][2] = {
    {"time_per_step.png", "time per step against grid size"},
    {"field.png", "final field of cpu, a run of its own"},
    {"scaling.png", "scaling efficiency over ranks"},
    {"snapshots.png", "time per step against the steps between snapshots"},
};

/* The plots of the list that this run wrote, as images. */
static void emit_plots(FILE *f, const bench_run_info *info, const char *const plots[][2], size_t n)
{
    bool any = false;
    for (size_t k = 0; k < n; ++k) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", info->dir, plots[k][0]);
        if (bench_is_image(path)) {
            fprintf(f, "![%s](%s)\n", plots[k][1], plots[k][0]);
            /* The field is of a run no table holds: say which. */
            if (strcmp(plots[k][0], "field.png") == 0)
                fprintf(f,
                        "\n*field.png: cpu's final field on %dx%d after %d steps, a run made "
                        "for the picture alone (no table holds it): the heat spread from the "
                        "centre cell.*\n",
                        BENCH_FIELD_SIDE, BENCH_FIELD_SIDE, BENCH_FIELD_STEPS);
            any = true;
        }
    }
    if (any)
        fputc('\n', f);
}

static size_t count_failures(const bench_run_info *info)
{
    size_t n = 0;
    for (size_t k = 0; k < info->n_notes; ++k)
        n += bench_note_is_failure(info->notes[k]);
    return n;
}

/* The failures (failures true) or the other notes, as a list. */
static void emit_notes(FILE *f, const bench_run_info *info, bool failures)
{
    bool any = false;
    for (size_t k = 0; k < info->n_notes; ++k)
        if (bench_note_is_failure(info->notes[k]) == failures) {
            fprintf(f, "- %s\n", info->notes[k]);
            any = true;
        }
    if (!failures && info->n_notes_dropped > 0) {
        fprintf(f, "- %zu more notes were not kept: a bench keeps %d, failures first.\n",
                info->n_notes_dropped, BENCH_MAX_NOTES);
        any = true;
    }
    if (any)
        fputc('\n', f);
}

static bool any_on_gpu(const size_group *groups, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        for (size_t c = 0; c < groups[k].n_cells; ++c)
            if (!summary_on_host(groups[k].cells[c].device))
                return true;
    return false;
}

/* A machine without a GPU measures the host methods only: say so, and
 * where GPU numbers are (the results index beside the default folder, in
 * heat2d's source tree). */
static void emit_no_gpu(FILE *f, const bench_run_info *info)
{
    char index[4200];
    snprintf(index, sizeof index, "%s/../README.md", info->dir);
    fputs("**No GPU method was measured here**: no method ran on a GPU in this run (the notes "
          "say why). ",
          f);
    if (access(index, R_OK) == 0)
        fputs("The GPU runs committed with heat2d are listed in "
              "[results/README.md](../README.md).\n\n",
              f);
    else
        fputs("The GPU runs committed with heat2d are listed in results/README.md of its source "
              "tree.\n\n",
              f);
}

static void emit_summary(FILE *f, const bench_run_info *info, const size_group *groups,
                         size_t n_groups, size_t n_rows, size_t n_runs, size_t skipped)
{
    fprintf(f, "# heat2d bench on %s\n\n", info->hostname);
    fprintf(f,
            "Run %s (%s): %zu method(s) x %zu size(s), %zu warm-up(s) and %zu trial(s) each, "
            "every trial a fresh `heat2d run` process; the order of methods rotates each "
            "trial. Times are TOTAL_S, the timed loop including data movement. Build and machine: "
            "environment.txt; every trial: trials.csv.\n\n",
            info->run_id, info->date, info->n_targets, info->n_sizes, info->warmups, info->repeats);
    if (n_runs > 1)
        fprintf(f,
                "trials.csv in this folder holds %zu trials from %zu runs; the tables pool "
                "them.\n\n",
                n_rows, n_runs);
    if (skipped > 0)
        fprintf(f, "%zu incomplete row(s) of trials.csv (an interrupted write) are left out.\n\n",
                skipped);
    /* What a reader must see first: failures, whether a GPU was measured,
     * then the article's headline size; the other notes and the ladder
     * after. */
    emit_notes(f, info, true);
    emit_busy(f, info);
    if (n_groups == 0) {
        emit_notes(f, info, false);
        fputs("No trial finished: nothing to tabulate.\n", f);
        return;
    }
    if (!any_on_gpu(groups, n_groups))
        emit_no_gpu(f, info);
    emit_headline(f, info, groups, n_groups);
    emit_plots(f, info, headline_plots, sizeof headline_plots / sizeof headline_plots[0]);
    if (info->n_notes > count_failures(info))
        fputs("## Notes\n\n", f);
    emit_notes(f, info, false);
    fputs("Gcell/s is nx*ny*steps / median. GB/s counts the 16 bytes per cell-step that one "
          "fp64 step must move at least (read u, write v): nx*ny*steps*16 / median; it can "
          "exceed the memory's bandwidth only while the grid fits in cache.\n\n",
          f);
    bool any_f32 = false;
    for (size_t k = 0; k < n_groups; ++k)
        for (size_t c = 0; c < groups[k].n_cells; ++c)
            any_f32 = any_f32 || groups[k].cells[c].last->cell_bytes != 8;
    if (any_f32)
        fputs("A -f32 row computed in single precision (bench --precision): its GB/s and "
              "limits count 8 bytes per cell-step (4-byte cells).\n\n",
              f);
    emit_plots(f, info, ladder_plots, sizeof ladder_plots / sizeof ladder_plots[0]);
    limits lim;
    summary_read_limits(info->dir, &lim);
    for (size_t k = 0; k < n_groups; ++k) {
        emit_size_table(f, info, &groups[k]);
        summary_emit_limits(f, &groups[k], &lim);
        summary_emit_scaling(f, &groups[k]);
        summary_emit_halo_depths(f, &groups[k]);
        summary_emit_snapshots(f, &groups[k], &lim);
        summary_emit_program_transfers(f, &groups[k]);
    }
    summary_emit_weak(f, groups, n_groups);
}

typedef struct {
    const bench_run_info *info;
    const summary_groups *sg;
    size_t n_rows, skipped;
} summary_text;

static int write_summary(FILE *f, void *ctx)
{
    const summary_text *t = ctx;
    emit_summary(f, t->info, t->sg->groups, t->sg->n_groups, t->n_rows, t->sg->n_runs, t->skipped);
    return ferror(f) ? (errno ? errno : EIO) : 0;
}

int bench_write_summary(const bench_run_info *info, FILE *echo, size_t *own_rows, heat2d_error *err)
{
    trial_row *rows = NULL;
    size_t n_rows = 0, skipped = 0;
    if (bench_read_trials(info->dir, &rows, &n_rows, &skipped, err) != 0)
        return -1;
    if (own_rows != NULL) {
        *own_rows = 0;
        for (size_t k = 0; k < n_rows; ++k)
            *own_rows += strcmp(rows[k].run, info->run_id) == 0;
    }
    summary_groups sg;
    if (summary_group_rows(rows, n_rows, &sg, err) != 0) {
        free(rows);
        return -1;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.md", info->dir);
    summary_text text = {info, &sg, n_rows, skipped};
    int rc = heat2d_file_replace(path, "the summary", write_summary, &text, err);
    /* The tables reach the terminal even where summary.md cannot be
     * written (a full disk): the caller reports that. */
    if (echo != NULL)
        emit_summary(echo, info, sg.groups, sg.n_groups, n_rows, sg.n_runs, skipped);
    summary_groups_free(&sg);
    free(rows);
    return rc;
}
