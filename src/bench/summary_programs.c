/* heat2d bench: what the programs (bench --program) moved between host and
 * device, beside what the article estimates for their style. */
#include "summary_tables.h"

#include <string.h>

/* The article's estimate for a program of style at s, cells of cell_bytes. */
static void estimate_text(const cell *c, const bench_size *s, char *buf, size_t size)
{
    if (!c->style_known) {
        snprintf(buf, size, "none known (it prints no phase that says its style)");
        return;
    }
    const unsigned long long array =
        (unsigned long long)s->nx * (unsigned long long)s->ny * c->last->cell_bytes;
    char one[32], all[32];
    summary_bytes_text(array, one, sizeof one);
    switch (c->style) {
    case HEAT2D_STYLE_EACH:
        summary_bytes_text(2ULL * array * s->steps, all, sizeof all);
        snprintf(buf, size, "per step: 2SN = %s (%zu up and %zu down of S = %s)", all, s->steps,
                 s->steps, one);
        return;
    case HEAT2D_STYLE_RESIDENT:
        summary_bytes_text(2ULL * array, all, sizeof all);
        snprintf(buf, size, "resident: 2S = %s (1 up and 1 down of S = %s)", all, one);
        return;
    case HEAT2D_STYLE_HOST:
        snprintf(buf, size, "a host loop: nothing crosses");
        return;
    }
}

void summary_emit_program_transfers(FILE *f, const size_group *g)
{
    bool any = false;
    for (size_t k = 0; k < g->n_cells; ++k) {
        const cell *c = &g->cells[k];
        if (!c->last->program)
            continue;
        if (!any)
            fputs("The programs' copies of the whole array (S bytes) as the CUDA driver counted "
                  "them, beside the article's estimate for the style their phases say "
                  "(B_each = 2SN, B_resident = 2S):\n\n"
                  "| program | H2D per run | D2H per run | the article's estimate |\n"
                  "|---|--:|--:|---|\n",
                  f);
        any = true;
        char h2d[64], d2h[64], estimate[160];
        summary_transfer_text(c, true, h2d, sizeof h2d);
        summary_transfer_text(c, false, d2h, sizeof d2h);
        estimate_text(c, &g->size, estimate, sizeof estimate);
        fprintf(f, "| %s | %s | %s | %s |\n", c->label, h2d, d2h, estimate);
    }
    if (any)
        fputc('\n', f);
}
