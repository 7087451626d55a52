/* heat2d bench: what every part of a run says of it: its notes (what was
 * cut, skipped or failed), a size as text, a target's label. The plan, the
 * trials and the progress line all use these, and none of them is used
 * here. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>

void bench_add_note(bench_run_info *info, const char *fmt, ...)
{
    if (info->n_notes >= BENCH_MAX_NOTES)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(info->notes[info->n_notes], sizeof info->notes[0], fmt, args);
    va_end(args);
    info->n_notes++;
}

void bench_size_text(const bench_size *s, char sep, char *buf, size_t size)
{
    snprintf(buf, size, "%zux%zu%c%zu", s->nx, s->ny, sep, s->steps);
}

void bench_target_label(bench_target *t)
{
    heat2d_method_label(t->label, sizeof t->label, t->method->name, t->value, 0);
}
