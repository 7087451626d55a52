/* A progress line on standard error when it is a terminal: one line
 * rewritten in place ("\r", erased to its end), shown only once the work
 * has run a while, redrawn a few times a second at most, and erased when
 * the work ends. Nothing reaches standard error when it is a file or a
 * pipe, so that logs and captured output never hold it. */
#ifndef HEAT2D_PROGRESS_H
#define HEAT2D_PROGRESS_H

#include "heat2d_error.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Shown from this long after the start, unless HEAT2D_PROGRESS_AFTER_S
 * says otherwise (a test's way to see the line on a short run). */
#define HEAT2D_PROGRESS_AFTER_S 2.0
/* Redrawn at most this often. */
#define HEAT2D_PROGRESS_EVERY_S 0.25

typedef struct heat2d_progress_line {
    bool on;         /* standard error is a terminal */
    double after_s;  /* nothing is drawn before started + after_s */
    double started;  /* heat2d_now() at heat2d_progress_begin */
    double drawn_at; /* the last redraw; 0: none yet */
    bool shown;      /* a line is on the terminal now */
} heat2d_progress_line;

/* Starts line now: on when standard error is a terminal. Returns 0, or -1
 * with err when HEAT2D_PROGRESS_AFTER_S is set but not a number of seconds
 * (it is read whether or not the line is on, so a bad value is said in
 * every run). */
int heat2d_progress_begin(heat2d_progress_line *line, heat2d_error *err);

/* Whether a redraw is due at now: the line is on, past its after_s, and
 * not redrawn in the last HEAT2D_PROGRESS_EVERY_S. */
bool heat2d_progress_due(const heat2d_progress_line *line, double now);

/* Redraws the line (when it is on) with the text, at now. */
void heat2d_progress_draw(heat2d_progress_line *line, double now, const char *fmt, ...)
    HEAT2D_PRINTF(3, 4);

/* Erases the line if one is shown, so that what follows starts clean. */
void heat2d_progress_clear(heat2d_progress_line *line);

/* A duration as the line says it: "<1 s", "42 s", "3 min 07 s",
 * "2 h 05 min". */
void heat2d_progress_duration(double seconds, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_PROGRESS_H */
