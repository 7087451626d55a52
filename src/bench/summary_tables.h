/* heat2d bench: the summary's tables, computed from trials.csv. Rows are
 * grouped by size, then by label in order of first appearance; each group
 * of one label at one size is a cell, pooled over every run in the folder. */
#ifndef HEAT2D_SUMMARY_TABLES_H
#define HEAT2D_SUMMARY_TABLES_H

#include "trials_csv.h"

#include <stdio.h>

/* One method at one size, pooled over every row of trials.csv. */
typedef struct cell {
    const char *label;
    const char *device; /* of the last row */
    const trial_row *last;
    double *totals; /* sorted */
    double *loops;  /* sorted; n_loops of them */
    size_t n_loops;
    double *throughs; /* loop plus read-back, sorted; n_throughs of them */
    size_t n_throughs;
    /* Summed over its n trials: upload, loop, read-back, other
     * (trial_row's phase_*). */
    double phase_sum[4];
    size_t n;
    bool transfers_vary;
    heat2d_style style;
    bool style_known;
    bool overlaps_copies;
} cell;

typedef struct size_group {
    bench_size size;
    cell *cells;
    size_t n_cells;
} size_group;

/* The rows grouped: groups sorted by cells, then steps; the storage of the
 * cells and their sorted totals and loop times. Release with
 * summary_groups_free. */
typedef struct summary_groups {
    size_group *groups;
    size_t n_groups;
    cell *cells;
    double *totals;
    double *loops;
    double *throughs;
    size_t n_runs; /* distinct run ids among the rows */
} summary_groups;

int summary_group_rows(const trial_row *rows, size_t n_rows, summary_groups *out,
                       heat2d_error *err);
void summary_groups_free(summary_groups *s);

/* The median as Python's statistics.median: the mean of the middle two for
 * an even count. sorted must be in ascending order, n > 0. */
double summary_median(const double *sorted, size_t n);
/* Three significant digits, never "0.00" and never an exponent for a big
 * number. */
void summary_ratio_text(double ratio, char *buf, size_t size);
/* cpu's median over c's ("no cpu run" without a cpu cell). */
void summary_speedup_text(const cell *base, const cell *c, char *buf, size_t size);
const cell *summary_find_cell(const size_group *g, const char *label);
bool summary_same_size(const bench_size *a, const bench_size *b);
bool summary_same_family(const char *a, const char *b);
bool summary_on_host(const char *device);
/* "COUNT (BYTES)" of a cell's copies one way, or why there is no count. */
void summary_transfer_text(const cell *c, bool h2d, char *buf, size_t size);
/* Bytes in B, kB, MB, ... with three digits. */
void summary_bytes_text(unsigned long long bytes, char *buf, size_t size);

/* The limits measured by `heat2d info --bandwidth` (bandwidth.txt in the
 * results folder); zero where not measured. */
typedef struct limits {
    double host_copy_gbs;
    /* The share of its threads' time the host probe had a CPU (0: not
     * recorded) and the host's last-level cache (0: unknown). */
    double host_cpu_share;
    double host_cache_bytes;
    double device_copy_gbs;
    double h2d_gbs[2]; /* [0] pageable, [1] pinned */
    double d2h_gbs[2];
    double both_gbs;     /* pinned, per direction, both directions at once */
    double fp_tflops[2]; /* FMA throughput: [0] FP64, [1] FP32 */
    /* The snapshot writers' folder, its file system and the rate at which
     * it took files of scratch_bytes (write and close, no fsync). */
    double scratch_write_gbs;
    double scratch_bytes;
    char scratch_dir[512];
    char scratch_fs[64];
} limits;

void summary_read_limits(const char *dir, limits *lim);

/* The tables, each for one size group (scaling: every group). */
void summary_emit_limits(FILE *f, const size_group *g, const limits *lim);
void summary_emit_scaling(FILE *f, const size_group *g);
void summary_emit_weak(FILE *f, const size_group *groups, size_t n_groups);
/* Each distributed method run at more than one halo depth (bench
 * --halo-depth): its time at each depth K and rank count P against K = 1,
 * and the best K at each P. */
void summary_emit_halo_depths(FILE *f, const size_group *g);
/* Time per step against K for the methods run with snapshots (bench
 * --output-every), each copy and writer (--snapshot-writer) a row, against
 * the bound max(loop, snapshot bytes / link, bytes written / write rate). */
void summary_emit_snapshots(FILE *f, const size_group *g, const limits *lim);
/* The programs' copies (bench --program) against the article's estimate
 * for the style their phases say: per step 2SN (N up and N down of the
 * array, S bytes), resident 2S, a host loop nothing. */
void summary_emit_program_transfers(FILE *f, const size_group *g);

#endif /* HEAT2D_SUMMARY_TABLES_H */
