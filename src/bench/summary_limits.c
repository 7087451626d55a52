/* heat2d bench: each method's time loop set against the limit that bounds
 * it, from the bandwidths that the same run measured (bandwidth.txt). */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "summary_tables.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void summary_read_limits(const char *dir, limits *lim)
{
    memset(lim, 0, sizeof *lim);
    char path[4200];
    snprintf(path, sizeof path, "%s/bandwidth.txt", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    static const struct {
        const char *key;
        size_t offset;
    } keys[] = {
        {"HOST_COPY_GBS=", offsetof(limits, host_copy_gbs)},
        {"HOST_COPY_CPU_SHARE=", offsetof(limits, host_cpu_share)},
        {"HOST_CACHE_BYTES=", offsetof(limits, host_cache_bytes)},
        {"DEVICE_COPY_GBS=", offsetof(limits, device_copy_gbs)},
        {"H2D_PAGEABLE_GBS=", offsetof(limits, h2d_gbs)},
        {"H2D_PINNED_GBS=", offsetof(limits, h2d_gbs) + sizeof(double)},
        {"D2H_PAGEABLE_GBS=", offsetof(limits, d2h_gbs)},
        {"D2H_PINNED_GBS=", offsetof(limits, d2h_gbs) + sizeof(double)},
        {"BOTH_PINNED_GBS=", offsetof(limits, both_gbs)},
        {"FP64_FMA_TFLOPS=", offsetof(limits, fp_tflops)},
        {"FP32_FMA_TFLOPS=", offsetof(limits, fp_tflops) + sizeof(double)},
        {"SCRATCH_WRITE_GBS=", offsetof(limits, scratch_write_gbs)},
        {"SCRATCH_WRITE_BYTES=", offsetof(limits, scratch_bytes)},
    };
    static const struct {
        const char *key;
        size_t offset, size;
    } texts[] = {
        {"SCRATCH_DIR=", offsetof(limits, scratch_dir), sizeof lim->scratch_dir},
        {"SCRATCH_FS=", offsetof(limits, scratch_fs), sizeof lim->scratch_fs},
    };
    char line[1024];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k)
            if (strncmp(line, keys[k].key, strlen(keys[k].key)) == 0)
                *(double *)((char *)lim + keys[k].offset) =
                    strtod(line + strlen(keys[k].key), NULL);
        for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k)
            if (strncmp(line, texts[k].key, strlen(texts[k].key)) == 0) {
                /* A value longer than its field is cut. */
                const char *value = line + strlen(texts[k].key);
                const size_t n = strnlen(value, texts[k].size - 1);
                memcpy((char *)lim + texts[k].offset, value, n);
                ((char *)lim)[texts[k].offset + n] = '\0';
            }
    }
    fclose(f);
}

/* Below this share of its threads' time on a CPU, the host probe ran
 * beside other work, and its bound is low. */
#define BUSY_PROBE_SHARE 0.8

/* Why a figure passes 100% (bits), each said once under the table. */
enum { OVER_CACHE = 1, OVER_BUSY = 2, OVER_PROBE = 4 };

/* One row of the limits table; a bound of 0 was not measured. A figure
 * over 100% names its reasons (over); returns them, 0 for a figure that
 * does not pass 100%. */
static unsigned emit_limits_row(FILE *f, const char *label, double per_step, const char *gcells,
                                const char *what, double bound, unsigned over)
{
    if (bound <= 0.0) {
        fprintf(f, "| %s | %.4g ms | %s | %s | not measured | |\n", label, per_step * 1e3, gcells,
                what);
        return 0;
    }
    const double percent = 100.0 * bound / per_step;
    char mark[64] = "";
    if (percent > 100.5)
        snprintf(mark, sizeof mark, " (%s%s%s)", over & OVER_CACHE ? "in cache" : "",
                 over & OVER_BUSY ? (over & OVER_CACHE ? ", busy probe" : "busy probe") : "",
                 over & OVER_PROBE ? "over the probe" : "");
    fprintf(f, "| %s | %.4g ms | %s | %s | %.4g ms | %.0f%%%s |\n", label, per_step * 1e3, gcells,
            what, bound * 1e3, percent, mark);
    return percent > 100.5 ? over : 0;
}

/* Why a host row's loop can run faster than the host's memory bound: its
 * two arrays fit in the last-level cache, the probe had the cores only
 * part of the time, or neither. */
static unsigned host_over(const limits *lim, double step_bytes)
{
    unsigned over = 0;
    if (lim->host_cache_bytes > 0.0 && step_bytes <= lim->host_cache_bytes)
        over |= OVER_CACHE;
    if (lim->host_cpu_share > 0.0 && lim->host_cpu_share < BUSY_PROBE_SHARE)
        over |= OVER_BUSY;
    return over != 0 ? over : OVER_PROBE;
}

/* Under the table, what each reason that a row gave means. */
static void emit_over_reasons(FILE *f, unsigned used, const limits *lim)
{
    if (used & OVER_CACHE)
        fprintf(f,
                "- in cache: both arrays fit in the host's last-level cache (%.3g MB), which "
                "serves them faster than the memory the bound was measured on.\n",
                lim->host_cache_bytes / 1e6);
    if (used & OVER_BUSY)
        fprintf(f,
                "- busy probe: the host's bandwidth was measured while other work held its "
                "cores (the probe's threads were on a CPU %.0f%% of the time), so its bound is "
                "low; on a quiet machine, `heat2d info --bandwidth` measures it again.\n",
                100.0 * lim->host_cpu_share);
    if (used & OVER_PROBE)
        fputs("- over the probe: the loop moved its bytes faster than the probe's copy did "
              "(a cache that holds the arrays, or a copy that uses the memory less well than "
              "the loop): the bound is an estimate, not a ceiling.\n",
              f);
    if (used != 0)
        fputc('\n', f);
}

/* A method that keeps its arrays on the GPU: the tighter of two bounds.
 * Memory: read u and write v once a pass, a pass doing pass_steps steps.
 * Arithmetic: the FP instructions a cell-update issues, at the measured FMA
 * rate (an add or a multiply issues as fast as a fused multiply-add, which
 * the rate counts as 2 FLOP); on GPUs with slow FP64 this one binds. */
static double device_bound(const limits *lim, const trial_row *r, double cells, unsigned gpus,
                           char *what, size_t what_size)
{
    const size_t cell_bytes = r->cell_bytes;
    const unsigned pass = r->pass_steps > 0 ? r->pass_steps : 1;
    const unsigned ops = r->fp_ops_per_cell > 0 ? r->fp_ops_per_cell : 7;
    const double tflops = lim->fp_tflops[cell_bytes == 4 ? 1 : 0];
    const double memory =
        lim->device_copy_gbs > 0.0
            ? cells * 2.0 * (double)cell_bytes / (double)pass / 1e9 / (lim->device_copy_gbs * gpus)
            : 0.0;
    const double arithmetic =
        tflops > 0.0 ? cells * (double)ops / (tflops * 1e12 / 2.0) / (double)gpus : 0.0;
    char where[48] = "device memory";
    if (gpus > 1)
        snprintf(where, sizeof where, "%u device memories", gpus);
    if (arithmetic > memory) {
        snprintf(what, what_size, "%s arithmetic, %u instructions/cell",
                 cell_bytes == 4 ? "FP32" : "FP64", ops);
        return arithmetic;
    }
    if (pass > 1)
        snprintf(what, what_size, "%s, %zu B/cell a %u-step pass", where, 2 * cell_bytes, pass);
    else
        snprintf(what, what_size, "%s, %zu B/cell", where, 2 * cell_bytes);
    return memory;
}

/* Where rows of this size wrote their snapshots (bench --snapshot-writer),
 * the rate that bounds the writing: the folder's file system as
 * bandwidth.txt measured it. */
static void emit_write_limit(FILE *f, const size_group *g, const limits *lim)
{
    bool writes = false;
    for (size_t k = 0; k < g->n_cells && !writes; ++k)
        writes = g->cells[k].last->output_every > 0 &&
                 strcmp(g->cells[k].last->snapshot_writer,
                        heat2d_snapshot_writer_name(HEAT2D_WRITER_NONE)) != 0;
    if (!writes)
        return;
    if (lim->scratch_write_gbs > 0.0)
        fprintf(f,
                "The snapshot writers' folder, %s (%s), took files of %.3g MB at %.3g GB/s "
                "(written and closed, no fsync, as the writers write).\n\n",
                lim->scratch_dir, lim->scratch_fs, lim->scratch_bytes / 1e6,
                lim->scratch_write_gbs);
    else
        fputs("The snapshot writers' folder: its write rate was not measured here.\n\n", f);
}

/* Each method's time loop against the limit that bounds it: for a method
 * that keeps its arrays on the GPU the tighter of memory and arithmetic, on
 * the host its memory (read u, write v: 16 bytes a cell in f64, 8 in f32),
 * and the host<->device copies for a method that moves both arrays every
 * step. */
void summary_emit_limits(FILE *f, const size_group *g, const limits *lim)
{
    const bench_size *s = &g->size;
    double cells = (double)s->nx * (double)s->ny;
    const bool busy = lim->host_cpu_share > 0.0 && lim->host_cpu_share < BUSY_PROBE_SHARE;
    fputs("Against the limits measured in bandwidth.txt (loop: the time loop without entering "
          "or leaving the device). % of bound is the bound per step over the loop's: 100% "
          "runs at the limit; a figure over 100% ran faster than the limit as measured, and "
          "says why in brackets (below the table).\n\n"
          "| method | loop per step | loop Gcell/s | bound | bound per step | % of bound |\n"
          "|---|--:|--:|---|--:|--:|\n",
          f);
    unsigned used = 0;
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        if (c->n_loops == 0 || !c->style_known)
            continue;
        unsigned over = OVER_PROBE;
        double per_step = summary_median(c->loops, c->n_loops) / (double)s->steps;
        size_t cell_bytes = c->last->cell_bytes;
        double array_gb = cells * (double)cell_bytes / 1e9;
        double step_bytes = cells * 2.0 * (double)cell_bytes;
        double bound = 0.0;
        char what[96];
        /* A per-step method whose copies run both directions at once. */
        const bool overlapped =
            c->style == HEAT2D_STYLE_EACH && !summary_on_host(c->device) && c->overlaps_copies;
        if (overlapped) {
            /* Both directions at once, from page-locked memory. */
            if (lim->h2d_gbs[1] > 0.0 && lim->d2h_gbs[1] > 0.0) {
                double up = array_gb / lim->h2d_gbs[1], down = array_gb / lim->d2h_gbs[1];
                bound = up > down ? up : down;
            }
            snprintf(what, sizeof what, "max(S up, S down), pinned, overlapped");
        } else if (c->style == HEAT2D_STYLE_EACH && !summary_on_host(c->device)) {
            bool twin = false;
            heat2d_label_method(c->last->method, &twin);
            const int pinned = twin;
            if (lim->h2d_gbs[pinned] > 0.0 && lim->d2h_gbs[pinned] > 0.0)
                bound = array_gb / lim->h2d_gbs[pinned] + array_gb / lim->d2h_gbs[pinned];
            snprintf(what, sizeof what, "S up + S down, %s", pinned ? "pinned" : "pageable");
        } else if (summary_on_host(c->device)) {
            if (lim->host_copy_gbs > 0.0)
                bound = step_bytes / 1e9 / lim->host_copy_gbs;
            snprintf(what, sizeof what, "host memory, %zu B/cell%s", 2 * cell_bytes,
                     busy ? ", measured on a busy machine" : "");
            over = host_over(lim, step_bytes);
        } else {
            /* A distributed GPU method says how many GPUs its ranks used
             * ("... on 2 GPUs, ..."): they work at once, so the bound is one
             * GPU's over that many. */
            unsigned gpus = 1;
            const char *on = strstr(c->device, " on ");
            if (on == NULL || sscanf(on, " on %u GPU", &gpus) != 1 || gpus == 0)
                gpus = 1;
            bound = device_bound(lim, c->last, cells, gpus, what, sizeof what);
        }
        char gcells[32];
        summary_ratio_text(cells / per_step / 1e9, gcells, sizeof gcells);
        used |= emit_limits_row(f, c->label, per_step, gcells, what, bound, over);
        if (overlapped) {
            /* The same step against what the link carries in each direction
             * while the other is busy too: the floor that overlap can reach. */
            used |= emit_limits_row(
                f, c->label, per_step, gcells, "S at the rate of both directions at once, pinned",
                lim->both_gbs > 0.0 ? array_gb / lim->both_gbs : 0.0, OVER_PROBE);
        }
    }
    fputc('\n', f);
    emit_over_reasons(f, used, lim);
    emit_write_limit(f, g, lim);
}
