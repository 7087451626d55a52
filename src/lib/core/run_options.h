/* The options of `heat2d run` that the bench varies along (its axes) or
 * passes on to a trial, in one table, as trial_schema.h is for outputs. From
 * it come run's getopt entries, refusals and usage lines, the bench's list
 * options, their expansion into targets and their usage lines, a trial's
 * command line, the method label and run_options.json, from which the plot
 * script builds labels. An axis is its row here, its heat2d_config field
 * and the code that uses it: a count or a choice of names needs no parser
 * of its own.
 *
 * Not here, written by hand where they are used: run's --method, --nx,
 * --ny, --steps, --alpha, --save, --save-every (cmd_run.c, usage.c) and the
 * bench's --methods, --pinned-too, --sizes, --weak, --warmups, --repeats,
 * --budget, --full, --out (options.c): no trial varies them along a list.
 *
 * X(ID, NAME, ARG, FIELD, PARSE, TEXT, TAKES, REFUSAL, PLAIN, WITH, NEEDS,
 *   LABEL, PASS, COLUMN, RUN_HELP, BENCH), in the order of the label:
 *   ID       HEAT2D_OPTION_<ID> names the row;
 *   NAME     --NAME on the command line;
 *   ARG      what its value looks like in a synopsis, NULL for a flag;
 *   FIELD    its heat2d_config member, an lvalue in cfg (HEAT2D_NO_FIELD: none);
 *   PARSE    text into v: heat2d_option_count (a positive integer) or
 *            heat2d_option_choice (one of ARG's names, v its place in ARG);
 *            NULL for a flag, 1 when given;
 *   TEXT     v as typed (heat2d_option_count_text, heat2d_option_choice_text);
 *   TAKES    which methods take a value above PLAIN, an expression in m (a
 *            heat2d_method flag), else the REFUSAL (exit 2): %M the method,
 *            %T the methods that take it;
 *   PLAIN    the largest value that asks nothing (0 is plain for all): no
 *            label part, not passed on, refused by no method;
 *   WITH     an option whose label part this one's always follows, or NONE;
 *   NEEDS    an option this one is meaningless without, or NONE;
 *   LABEL    what the label adds before the value's text, NULL: nothing (an
 *            option no bench list varies, recorded nowhere: NO_COLUMN);
 *   PASS     ARGV (on the child's command line) or MPIRUN (mpirun -np);
 *   COLUMN   the trial_schema.h field that records it (METHOD: as NAME-pinned,
 *            NO_COLUMN: none);
 *   RUN_HELP run's usage line, NULL: not an option of run;
 *   BENCH    HEAT2D_BENCH_LIST(...) for a bench list option, else
 *            HEAT2D_NOT_BENCH. */
#ifndef HEAT2D_RUN_OPTIONS_H
#define HEAT2D_RUN_OPTIONS_H

#include "heat2d_method.h"
#include "trial_schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A bench list option, --NAME LIST: ITEMS completes "each item must be";
 * DEFAULT the list when only its NEEDS was given (NULL: none); KEEPS: each
 * target also stays as it was, the run the others are set against; NAMED:
 * it multiplies only methods named in --methods; NONE_TAKE: the refusal
 * when no target takes it (NULL: none); WHY follows "--NAME needs --NEEDS";
 * HELP its usage lines. */
#define HEAT2D_BENCH_LIST(items, dflt, keeps, named, none_take, why, help)                         \
    {                                                                                              \
        true, items, dflt, keeps, named, none_take, why, help                                      \
    }
#define HEAT2D_NOT_BENCH                                                                           \
    {                                                                                              \
        false, NULL, NULL, false, false, NULL, NULL, NULL                                          \
    }

/* COLUMN NO_COLUMN: the option is in no column of trials.csv. */
#define HEAT2D_FIELD_NO_COLUMN HEAT2D_N_FIELDS

/* A row's FIELD when heat2d_config has none (mpirun -np sets the ranks):
 * an object of its own, which takes a value and gives 0. */
#define HEAT2D_NO_FIELD (*(size_t[1]){0})

/* clang-format off */
#define HEAT2D_RUN_OPTIONS(X)                                                                      \
    X(PINNED, "pinned", NULL, cfg->pinned, NULL, NULL, m->has_pinned_variant,                      \
      "--pinned does not apply to %M", 0, NONE, NONE, "-pinned", ARGV, METHOD,                     \
      "  --pinned        page-locked host buffers (methods with a -pinned twin)\n",                \
      HEAT2D_NOT_BENCH)                                                                            \
    X(HALO_DEPTH, "halo-depth", "K", cfg->halo_depth, heat2d_option_count, heat2d_option_count_text,        \
      m->deep_halos, "%M keeps no deep halos (--halo-depth applies to %T)", 1, NONE, RANKS, "-h",  \
      ARGV, HALO_DEPTH,                                                                            \
      "  --halo-depth K  halos K cells deep, exchanged every K steps (mpi-cpu;\n"                  \
      "                  default 1, at most the narrowest block that a cut crosses)\n",            \
      HEAT2D_BENCH_LIST("a positive integer, e.g. 1,2,4", NULL, false, true,                       \
        "--halo-depth needs a method that keeps deep halos in --methods (e.g. "                    \
        "--methods mpi-cpu)",                                                                      \
        " (deep halos are exchanged between ranks)",                                               \
        "  --halo-depth LIST  with --ranks: comma-separated depths K, e.g. 1,2,4: each\n"          \
        "                  method that keeps deep halos (mpi-cpu) runs once per K, its halos\n"    \
        "                  K cells deep and exchanged every K steps (rows METHOD-hK-pP)\n"))       \
    X(RANKS, "ranks", "P", HEAT2D_NO_FIELD, heat2d_option_count, heat2d_option_count_text,                  \
      m->distributed, NULL, 0, NONE, NONE, "-p", MPIRUN, RANKS, NULL,                              \
      HEAT2D_BENCH_LIST("a positive integer, e.g. 1,2,4", NULL, false, true,                       \
        "--ranks needs a distributed method in --methods (e.g. --methods mpi-cpu)",                \
        "",                                                                                        \
        "  --ranks LIST    comma-separated rank counts, e.g. 1,2,4: each distributed method\n"     \
        "                  in --methods runs under mpirun -np P for each P (strong scaling)\n"))   \
    X(PRECISION, "precision", "f64|f32", cfg->precision,                                           \
      heat2d_option_choice, heat2d_option_choice_text, true, NULL, HEAT2D_F64, NONE, NONE,    \
      "-", ARGV, PRECISION, "  --precision P   f64 (default) or f32\n",                            \
      HEAT2D_BENCH_LIST("f64 or f32, e.g. f64,f32", NULL, false, false, NULL, "",                  \
        "  --precision LIST  comma-separated from f64, f32 (default f64): each method runs\n"      \
        "                  in each; f32 rows are labelled METHOD-f32\n"))                          \
    X(OUTPUT_EVERY, "output-every", "K", cfg->output_every, heat2d_option_count,                     \
      heat2d_option_count_text, m->has_snapshots, "%M takes no snapshots (--output-every applies to %T)", \
      0, NONE, NONE, "-k", ARGV, OUTPUT_EVERY,                                                     \
      "  --output-every K  bring the field to the host every K steps and after the\n"              \
      "                  last (each snapshot checked as the final field is)\n",                    \
      HEAT2D_BENCH_LIST("a positive integer, e.g. 1,10,100", NULL, true, false, NULL, "",          \
        "  --output-every LIST  comma-separated step counts K, e.g. 1,10,100: each method\n"       \
        "                  that takes snapshots runs once more per K, its field on the host\n"     \
        "                  every K steps (rows METHOD-kK-COPY), beside its run without\n"          \
        "                  snapshots\n"))                                                          \
    X(SNAPSHOT_COPY, "snapshot-copy", "plain|overlap",                                             \
      cfg->snapshot_copy, heat2d_option_choice,                                       \
      heat2d_option_choice_text, m->overlapped_snapshots,                                          \
      "%M copies its snapshots plain only (overlapped: %T)", HEAT2D_SNAPSHOT_PLAIN, OUTPUT_EVERY,  \
      OUTPUT_EVERY, "-", ARGV, SNAPSHOT_COPY,                                                      \
      "  --snapshot-copy C  plain (default) or overlap: the copy runs on its own\n"                \
      "                  stream while the next steps compute (resident CUDA methods)\n",           \
      HEAT2D_BENCH_LIST("plain or overlap", "plain,overlap", false, false, NULL, "",               \
        "  --snapshot-copy LIST  from plain, overlap (default both): how snapshots are\n"          \
        "                  copied, where the method has both\n"))                                  \
    X(SNAPSHOT_WRITER, "snapshot-writer", "none|text|netcdf", cfg->snapshot_writer,               \
      heat2d_option_choice, heat2d_option_choice_text, m->has_snapshots,                           \
      "%M takes no snapshots (--snapshot-writer applies to %T)", HEAT2D_WRITER_NONE, NONE,         \
      OUTPUT_EVERY, "-", ARGV, SNAPSHOT_WRITER,                                                    \
      "  --snapshot-writer W  without --save-every: none (default, each snapshot\n"                \
      "                  checked only), text (a step file each) or netcdf (a record\n"             \
      "                  each of one .nc series), written to a scratch folder under\n"             \
      "                  $TMPDIR and removed at the end: what writing costs\n",                    \
      HEAT2D_BENCH_LIST("none, text or netcdf, e.g. none,netcdf", NULL, false, false, NULL, "",    \
        "  --snapshot-writer LIST  with --output-every: comma-separated from none, text,\n"        \
        "                  netcdf: each snapshot run once per writer, its snapshots\n"             \
        "                  written to a scratch folder under $TMPDIR, removed after\n"             \
        "                  (rows METHOD-kK-COPY-WRITER; none, the default, adds nothing)\n"))
/* clang-format on */

typedef enum heat2d_option_id {
#define HEAT2D_OPTION_ENUM(id, ...) HEAT2D_OPTION_##id,
    HEAT2D_RUN_OPTIONS(HEAT2D_OPTION_ENUM)
#undef HEAT2D_OPTION_ENUM
        HEAT2D_N_OPTIONS,
    HEAT2D_OPTION_NONE = HEAT2D_N_OPTIONS
} heat2d_option_id;

typedef enum heat2d_option_pass {
    HEAT2D_PASS_ARGV,
    HEAT2D_PASS_MPIRUN,
} heat2d_option_pass;

typedef struct heat2d_bench_list {
    bool is_list;
    const char *items;
    const char *dflt;
    bool keeps;
    bool named;
    const char *none_take;
    const char *needs_why;
    const char *help;
} heat2d_bench_list;

typedef struct heat2d_option_def heat2d_option_def;
struct heat2d_option_def {
    const char *name;
    const char *arg;
    int (*parse)(const heat2d_option_def *o, const char *text, size_t *v, heat2d_error *err);
    void (*text)(const heat2d_option_def *o, size_t v, char *buf, size_t size);
    bool (*takes)(const heat2d_method *m);
    const char *refusal;
    size_t plain;
    heat2d_option_id with;
    heat2d_option_id needs;
    const char *label;
    heat2d_option_pass pass;
    heat2d_field_id column;
    const char *run_help;
    heat2d_bench_list bench;
};

/* The table above as data, indexed by heat2d_option_id. */
extern const heat2d_option_def heat2d_run_options[HEAT2D_N_OPTIONS];

/* The parsers and texts of the table. A count: "--NAME must be a positive
 * integer, got 'TEXT'" (heat2d_parse_size); a choice: "NAME 'TEXT' is not
 * one of A, B", NAME in words (snapshot-copy: "snapshot copy"). */
int heat2d_option_count(const heat2d_option_def *o, const char *text, size_t *v, heat2d_error *err);
int heat2d_option_choice(const heat2d_option_def *o, const char *text, size_t *v,
                         heat2d_error *err);
void heat2d_option_count_text(const heat2d_option_def *o, size_t v, char *buf, size_t size);
void heat2d_option_choice_text(const heat2d_option_def *o, size_t v, char *buf, size_t size);

/* One value an option, HEAT2D_N_OPTIONS of them, all 0 (plain) to begin. */
typedef size_t heat2d_option_values[HEAT2D_N_OPTIONS];

/* Whether values asks for option id (above its plain value), and whether it
 * shows in the label and on a child's command line (asked, or WITH one
 * that shows). */
bool heat2d_option_asked(const size_t *values, heat2d_option_id id);
bool heat2d_option_shown(const size_t *values, heat2d_option_id id);

/* values into cfg's fields, and cfg's fields into values. */
void heat2d_options_to_config(const size_t *values, heat2d_config *cfg);
void heat2d_options_from_config(const heat2d_config *cfg, size_t *values);

/* The refusal of option id for method name, the methods that take it
 * those (empty: "no method of this build"), into buf. */
void heat2d_option_refusal(heat2d_option_id id, const char *name, const char *those, char *buf,
                           size_t size);

/* The label of a method as it was run: NAME and each shown option's LABEL
 * and text, in the table's order
 * (NAME[-pinned][-hK][-pP][-f32][-kK-COPY][-WRITER]), cut to size. omit: a
 * bit (1u << id) per option left out as if plain.
 * trials.csv's method column is the label with PINNED alone. */
void heat2d_method_label(char *buf, size_t size, const char *name, const size_t *values,
                         unsigned omit);

/* "[--NAME ARG]" for each option of run (bench: the bench's lists, ARG
 * "LIST"), from column col on, wrapped to 80 columns with indent spaces;
 * returns the column it ends at. */
size_t heat2d_options_synopsis(FILE *f, bool bench, size_t col, size_t indent);

/* A command's usage lead (its "usage: ..." lines), then its synopsis of
 * the table's options (heat2d_options_synopsis) from where lead's last
 * line ends. */
void heat2d_options_usage_lead(FILE *f, const char *lead, bool bench, size_t indent);

/* The help lines of run's options (bench: of the bench's lists), in the
 * table's order. */
void heat2d_options_help(FILE *f, bool bench);

/* getopt_long's entries for run's options (bench: the bench's lists, each
 * taking its LIST), each returning base plus its id, into out (room for
 * HEAT2D_N_OPTIONS); returns how many. */
struct option;
size_t heat2d_options_getopt(struct option *out, bool bench, int base);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_RUN_OPTIONS_H */
