/* Errors: the message a failing call hands back, and the one line a program
 * prints for it. */
#ifndef HEAT2D_ERROR_H
#define HEAT2D_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define HEAT2D_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define HEAT2D_PRINTF(fmt, args)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One line of text that says what failed; filled by the failing function and
 * printed once, by the program that gives up. */
typedef struct heat2d_error {
    char message[4096];
} heat2d_error;

/* Room for a message with a few words of context around it. */
#define HEAT2D_MESSAGE_ROOM (sizeof(heat2d_error) + 256)

/* The one shape of a checked call into a runtime (CUDA's, MPI's): evaluates
 * expr once into a TYPE and, unless it equals OK, has FAIL(err, file, line,
 * text, rc) fill err (text: the call as written, #expr at the outer macro)
 * and returns -1 from the caller; the _GOTO form jumps to label instead,
 * where the caller releases what it holds. HEAT2D_CUDA_CHECK
 * (cuda_check.h) and HEAT2D_MPI_CHECK (mpi_common.h) are these. */
#define HEAT2D_CALL_CHECK(TYPE, OK, FAIL, err, expr, text)                                         \
    do {                                                                                           \
        const TYPE heat2d_call_rc_ = (expr);                                                       \
        if (heat2d_call_rc_ != (OK))                                                               \
            return FAIL((err), __FILE__, __LINE__, (text), heat2d_call_rc_);                       \
    } while (0)
#define HEAT2D_CALL_CHECK_GOTO(TYPE, OK, FAIL, err, expr, text, label)                             \
    do {                                                                                           \
        const TYPE heat2d_call_rc_ = (expr);                                                       \
        if (heat2d_call_rc_ != (OK)) {                                                             \
            (void)FAIL((err), __FILE__, __LINE__, (text), heat2d_call_rc_);                        \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

/* Formats the message into err (if err is non-NULL) and returns -1, so that
 * callers can write `return heat2d_fail(err, ...);`. Control characters
 * (from file names or arguments echoed in the message) are written as \n,
 * \t, \xHH, so the message stays one line whatever the input was. */
int heat2d_fail(heat2d_error *err, const char *fmt, ...) HEAT2D_PRINTF(2, 3);
int heat2d_vfail(heat2d_error *err, const char *fmt, va_list args) HEAT2D_PRINTF(2, 0);

/* Writes text to stream as a message writes it: control characters as \n,
 * \t, \r, \xHH. Every name heat2d prints on a line of its output
 * (FIELD_FILE=, FILE=, PLOT=, RESULTS=) goes through it, so that a name
 * holding a newline cannot start a line of its own (COMPARE=PASS). */
void heat2d_put_escaped(FILE *stream, const char *text);
/* "KEY=TEXT" and a newline, TEXT escaped as above. */
void heat2d_print_name(FILE *stream, const char *key, const char *text);

/* Exit statuses: 1 for a failed run or check, 2 for a command line that
 * cannot be understood. */
enum { HEAT2D_EXIT_FAILURE = 1, HEAT2D_EXIT_USAGE = 2 };

/* Prints "heat2d: <message>" on stderr (escaped as heat2d_fail escapes) and
 * returns status. */
int heat2d_report_error(int status, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

/* Reports the option getopt_long just refused ('?') for command, with an
 * optional hint after it; returns HEAT2D_EXIT_USAGE. A single-dash word
 * ("-method") is named whole, with its two-dash spelling; a known option
 * without its value says so; an unknown one names the nearest of options
 * (getopt_long's table, may be NULL). */
struct option;
int heat2d_report_bad_option(const char *command, int argc, char *const argv[],
                             const struct option *options, const char *hint);

/* Edit distance between a and b (at most 63 characters each; longer words
 * are never near), and the most that a typo of a word of len characters
 * stands from the word meant: a typo or two, never a different word of
 * the same length. */
size_t heat2d_edit_distance(const char *a, const char *b);
size_t heat2d_typo_distance(size_t len);

/* Under mpirun every rank parses the same arguments and reaches the same
 * verdict: a program tells the library once that this process is not rank
 * 0, and heat2d_report_error then stays silent, so that a job prints one
 * line, not one per rank. (A failure of one rank alone is printed by that
 * rank itself.) */
void heat2d_report_quiet(bool quiet);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_ERROR_H */
