/* heat2d bench: what every part of a run says of it: its notes (what was
 * cut, skipped or failed), a size as text, a target's label. The plan, the
 * trials and the progress line all use these, and none of them is used
 * here. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bench_add_note(bench_run_info *info, const char *fmt, ...)
{
    if (info->n_notes >= BENCH_MAX_NOTES)
        return;
    /* A note is one line wherever it goes (stdout's NOTE: lines,
     * environment.txt's BENCH_NOTE=, the summary's list), whatever names
     * it echoes: escaped as a message is. */
    heat2d_error text;
    va_list args;
    va_start(args, fmt);
    heat2d_vfail(&text, fmt, args);
    va_end(args);
    char *note = info->notes[info->n_notes];
    size_t len = strlen(text.message);
    len = len < sizeof info->notes[0] ? len : sizeof info->notes[0] - 1;
    memcpy(note, text.message, len);
    note[len] = '\0';
    info->n_notes++;
}

void bench_size_text(const bench_size *s, char sep, char *buf, size_t size)
{
    snprintf(buf, size, "%zux%zu%c%zu", s->nx, s->ny, sep, s->steps);
}

void bench_target_label(bench_target *t)
{
    if (t->kind == BENCH_PROGRAM)
        snprintf(t->label, sizeof t->label, "%s", t->program->name);
    else
        heat2d_method_label(t->label, sizeof t->label, t->method->name, t->value, 0);
}

bool bench_target_distributed(const bench_target *t)
{
    return t->kind == BENCH_METHOD && t->method->distributed;
}
