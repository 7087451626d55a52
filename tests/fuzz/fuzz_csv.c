/* Fuzz target: the trials.csv reader (bench_parse_trials, the parser behind
 * bench_read_trials, which the summary reads a folder's trials with), on the
 * bytes of a file as they are, then the summary's grouping of what it read.
 * A trials.csv is written by many runs, perhaps by an older heat2d, perhaps
 * cut short by a crash; whatever it holds, the summary must not crash.
 *
 * Properties: no crash, no undefined behaviour, no leak; a success reads at
 * most one row per line after the header, each with a size, a finite
 * non-negative TOTAL_S and phases, and NUL-terminated texts; the grouping
 * puts every row in exactly one cell; a failure is one line that names the
 * file and hands back no rows. */
#include "fuzz.h"
#include "summary_tables.h"

#include <math.h>

static int terminated(const char *text, size_t size)
{
    return memchr(text, '\0', size) != NULL;
}

static void check_row(const trial_row *r)
{
    FUZZ_REQUIRE(r->size.nx > 0 && r->size.ny > 0 && r->size.steps > 0);
    FUZZ_REQUIRE(isfinite(r->total_s) && r->total_s >= 0.0);
    FUZZ_REQUIRE(r->cell_bytes == 4 || r->cell_bytes == 8);
    FUZZ_REQUIRE(r->phase_upload_s >= 0.0 && r->phase_loop_s >= 0.0 && r->phase_readback_s >= 0.0 &&
                 r->phase_other_s >= 0.0);
    FUZZ_REQUIRE(
        terminated(r->label, sizeof r->label) && terminated(r->method, sizeof r->method) &&
        terminated(r->family, sizeof r->family) && terminated(r->base, sizeof r->base) &&
        terminated(r->decomp, sizeof r->decomp) && terminated(r->device, sizeof r->device) &&
        terminated(r->transfers, sizeof r->transfers) && terminated(r->run, sizeof r->run) &&
        terminated(r->snapshot_copy, sizeof r->snapshot_copy) &&
        terminated(r->snapshot_writer, sizeof r->snapshot_writer));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trial_row *rows = NULL;
    size_t n = 0, skipped = 0;
    heat2d_error err = {{0}};
    int rc = bench_parse_trials("fuzz.csv", (const char *)data, size, &rows, &n, &skipped, &err);
    if (rc != 0) {
        FUZZ_REQUIRE(rc == -1);
        FUZZ_REQUIRE(fuzz_one_line(err.message));
        FUZZ_REQUIRE(strncmp(err.message, "out of memory reading fuzz.csv", 30) == 0);
        FUZZ_REQUIRE(rows == NULL && n == 0);
        return 0;
    }
    size_t lines = 0;
    for (size_t k = 0; k < size; ++k)
        lines += data[k] == '\n';
    if (size > 0 && data[size - 1] != '\n')
        lines++; /* the last, without its newline */
    FUZZ_REQUIRE(lines == 0 ? n + skipped == 0 : n + skipped <= lines - 1);
    FUZZ_REQUIRE((n == 0) == (rows == NULL));
    for (size_t k = 0; k < n; ++k)
        check_row(&rows[k]);

    summary_groups sg;
    if (summary_group_rows(rows, n, &sg, &err) == 0) {
        size_t pooled = 0;
        for (size_t g = 0; g < sg.n_groups; ++g)
            for (size_t c = 0; c < sg.groups[g].n_cells; ++c) {
                const cell *ce = &sg.groups[g].cells[c];
                FUZZ_REQUIRE(ce->n > 0 && ce->last != NULL);
                pooled += ce->n;
                FUZZ_REQUIRE(isfinite(summary_median(ce->totals, ce->n)));
                char text[64];
                summary_transfer_text(ce, true, text, sizeof text);
                summary_transfer_text(ce, false, text, sizeof text);
            }
        FUZZ_REQUIRE(pooled == n);
        FUZZ_REQUIRE(sg.n_runs <= n);
        summary_groups_free(&sg);
    }
    free(rows);
    return 0;
}
