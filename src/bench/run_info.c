/* heat2d bench: what every part of a run says of it: its notes (what was
 * cut, skipped or failed), a size as text, a target's label. The plan, the
 * trials and the progress line all use these, and none of them is used
 * here. */
#include "bench.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool bench_note_is_failure(const char *note)
{
    return strncmp(note, "FAILED:", 7) == 0;
}

/* Where a new note goes when the list is full: a failure takes the place
 * of the newest note that is not one, so that no failure is ever the
 * note lost; anything else has no place (BENCH_MAX_NOTES). */
static size_t slot_when_full(const bench_run_info *info, bool failure)
{
    if (!failure)
        return BENCH_MAX_NOTES;
    for (size_t k = BENCH_MAX_NOTES; k > 0; --k)
        if (!bench_note_is_failure(info->notes[k - 1]))
            return k - 1;
    return BENCH_MAX_NOTES;
}

void bench_add_note(bench_run_info *info, const char *fmt, ...)
{
    /* A note is one line wherever it goes (stdout's NOTE: lines,
     * environment.txt's BENCH_NOTE=, the summary's list), whatever names
     * it echoes: escaped as a message is. */
    heat2d_error text;
    va_list args;
    va_start(args, fmt);
    heat2d_vfail(&text, fmt, args);
    va_end(args);
    size_t slot = info->n_notes;
    if (slot >= BENCH_MAX_NOTES) {
        info->n_notes_dropped++;
        slot = slot_when_full(info, bench_note_is_failure(text.message));
        if (slot >= BENCH_MAX_NOTES)
            return;
    } else {
        info->n_notes++;
    }
    char *note = info->notes[slot];
    size_t len = strlen(text.message);
    len = len < sizeof info->notes[0] ? len : sizeof info->notes[0] - 1;
    memcpy(note, text.message, len);
    note[len] = '\0';
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
