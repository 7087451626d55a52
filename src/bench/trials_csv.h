/* heat2d bench: trials.csv, the record of every trial. Its columns are the
 * trial schema's (trial_schema.h); the summary is recomputed from it, so that
 * several runs into one folder end up in one set of tables. */
#ifndef HEAT2D_TRIALS_CSV_H
#define HEAT2D_TRIALS_CSV_H

#include "bench.h"
#include "child.h"

/* What opening trials.csv did to its end. */
typedef struct bench_csv_repair {
    /* Bytes of a torn last line (one line without its newline: a write cut
     * short) moved to DIR/trials.torn.csv, as one line there; 0: none. */
    size_t torn_bytes;
    bool torn_header;      /* they were the header, cut short: the file began anew */
    bool header_completed; /* the file was our header alone, without its newline */
} bench_csv_repair;

/* Opens DIR/trials.csv for appending under an exclusive lock, held while
 * the FILE is open, refusing it when another bench holds it; writes the
 * header when the file is new; refuses a file whose header is not this
 * version's (rows of more columns under an older header would make a file
 * no CSV reader takes); sets a torn last line aside (*repair says what). */
FILE *bench_csv_open(const char *dir, bench_csv_repair *repair, heat2d_error *err);

/* One row: the child's fields in res, and the bench's own (method column,
 * trial, size, process time, run id, label), flushed at once so that an
 * interrupted benchmark keeps every finished trial. */
int bench_csv_append(FILE *csv, const bench_run_info *info, const bench_target *target,
                     size_t trial, const bench_size *size, const heat2d_trial_values *res,
                     double process_s, heat2d_error *err);

/* One whole row (text, len bytes, its newline last) onto the ledger that
 * bench_csv_open opened for DIR: written at its end, and on any failure (a
 * full disk, a file size limit) the ledger is cut back to where it ended,
 * so that it never keeps part of a row. 0, or -1 with "cannot write
 * DIR/trials.csv: REASON" (the reason as the write gave it). */
int bench_ledger_append(FILE *csv, const char *dir, const char *text, size_t len,
                        heat2d_error *err);

/* One row of trials.csv as the summary needs it. */
typedef struct trial_row {
    char label[80];    /* the label column: what the tables call the row */
    char method[48];   /* the method column: NAME or NAME-pinned */
    char family[80];   /* the label without -kK-COPY-WRITER: the run without snapshots */
    char base[56];     /* the method column and -f32: a method across ranks */
    size_t cell_bytes; /* of one cell: 8 (f64) or 4 (f32) */
    size_t ranks;      /* 0: not a distributed run */
    size_t halo_depth; /* 0 (column empty) or 1: one-cell halos */
    char decomp[32];
    unsigned long long halo_bytes;
    char device[128];
    char transfers[16];
    char run[64];
    bench_size size;
    double total_s;
    /* The time loop alone, without entering or leaving the device: the
     * device's events where the method has them, else its host-timed loop
     * phase; negative when the method reports none. */
    double loop_s;
    unsigned long long h2d_count, h2d_bytes, d2h_count, d2h_bytes;
    unsigned pass_steps, fp_ops_per_cell; /* 0: not reported */
    size_t output_every;                  /* 0: no snapshots */
    char snapshot_copy[16];
    char snapshot_writer[16];          /* "none" where the column is blank */
    unsigned long long snapshots;      /* SNAPSHOTS: records handed over */
    unsigned long long snapshot_bytes; /* SNAPSHOT_BYTES_WRITTEN: their files' bytes */
    double readback_s;                 /* negative when not reported */
    /* Where TOTAL_S went: the upload (a resident method's ENTER_S, a
     * per-step method's measured H2D_S), the loop (less a per-step method's
     * copies), the read-back (READBACK_S, or the measured D2H_S), the rest
     * (allocation, release, what is not timed apart). */
    double phase_upload_s, phase_loop_s, phase_readback_s, phase_other_s;
    /* A program's row (bench --program, its path in the program column):
     * its style as the phases it printed say, as the original's three
     * programs print theirs (CPU_LOOP_S: a host loop; STEP_REGIONS_S: per
     * step; ENTER_S, GPU_LOOP_S: resident); not known where it printed
     * none of them. */
    bool program;
    bool program_style_known;
    heat2d_style program_style;
} trial_row;

/* The most of trials.csv a summary reads (some 100000 trials): a bigger
 * file is refused rather than read into memory. */
#define BENCH_TRIALS_MAX_BYTES (64 << 20)

/* Every complete row of DIR/trials.csv (earlier runs into the same folder
 * included), in file order, into *rows (release with free); *skipped counts
 * the rows left out because an interrupted write cut them short. */
int bench_read_trials(const char *dir, trial_row **rows, size_t *n, size_t *skipped,
                      heat2d_error *err);

/* The same from the size bytes at data, the text of a trials.csv (any
 * bytes: NULs, no final newline), named name in messages; what
 * bench_read_trials runs on the file's bytes, and what the fuzz target
 * tests/fuzz/fuzz_csv.c runs on anything. */
int bench_parse_trials(const char *name, const char *data, size_t size, trial_row **rows, size_t *n,
                       size_t *skipped, heat2d_error *err);

#endif /* HEAT2D_TRIALS_CSV_H */
