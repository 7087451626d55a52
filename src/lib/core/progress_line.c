/* The progress line on a terminal (heat2d_progress.h). */
#include "heat2d_progress.h"
#include "heat2d_args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int heat2d_progress_begin(heat2d_progress_line *line, heat2d_error *err)
{
    *line = (heat2d_progress_line){
        .on = isatty(STDERR_FILENO) == 1,
        .after_s = HEAT2D_PROGRESS_AFTER_S,
        .started = heat2d_now(),
    };
    const char *after = getenv("HEAT2D_PROGRESS_AFTER_S");
    if (after != NULL &&
        heat2d_parse_nonneg_real(after, "HEAT2D_PROGRESS_AFTER_S", &line->after_s, err) != 0) {
        line->on = false;
        return -1;
    }
    return 0;
}

bool heat2d_progress_due(const heat2d_progress_line *line, double now)
{
    return line->on && now - line->started >= line->after_s &&
           (line->drawn_at == 0.0 || now - line->drawn_at >= HEAT2D_PROGRESS_EVERY_S);
}

/* The terminal's width in columns: its own (TIOCGWINSZ, asked at each
 * draw, as a window is resized), else $COLUMNS, else 0 (not known). */
static size_t terminal_columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *env = getenv("COLUMNS");
    char *end = NULL;
    const long cols = env != NULL ? strtol(env, &end, 10) : 0;
    return end != NULL && end != env && *end == '\0' && cols > 0 && cols <= 100000 ? (size_t)cols
                                                                                   : 0;
}

/* text cut to fewer than columns characters (UTF-8 sequences count one),
 * ending in "..." where it was cut: a line as wide as the terminal would
 * wrap, and "\r" would then redraw only its last row. */
static void fit(char *text, size_t columns)
{
    if (columns == 0)
        return;
    const size_t room = columns - 1, keep = room > 8 ? room - 3 : room;
    size_t shown = 0, cut = 0;
    for (size_t k = 0; text[k] != '\0'; ++k) {
        if (((unsigned char)text[k] & 0xC0) == 0x80)
            continue; /* a UTF-8 sequence's continuation */
        if (shown == keep)
            cut = k;
        if (++shown > room) {
            strcpy(text + cut, room > 8 ? "..." : "");
            return;
        }
    }
}

void heat2d_progress_draw(heat2d_progress_line *line, double now, const char *fmt, ...)
{
    if (!line->on)
        return;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    fit(text, terminal_columns());
    /* "\r" back to the line's start, "ESC [ K" erases what a longer line
     * before left beyond the new one. */
    fputs("\r\033[K", stderr);
    fputs(text, stderr);
    fflush(stderr);
    line->drawn_at = now;
    line->shown = true;
}

void heat2d_progress_clear(heat2d_progress_line *line)
{
    if (!line->shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    line->shown = false;
}

void heat2d_progress_duration(double seconds, char *buf, size_t size)
{
    const long whole = (long)(seconds + 0.5);
    if (seconds < 1.0)
        snprintf(buf, size, "<1 s");
    else if (whole < 60)
        snprintf(buf, size, "%ld s", whole);
    else if (whole < 3600)
        snprintf(buf, size, "%ld min %02ld s", whole / 60, whole % 60);
    else
        snprintf(buf, size, "%ld h %02ld min", whole / 3600, whole / 60 % 60);
}
