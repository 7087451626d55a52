/* The assertion every heat2d unit test uses: records a pass or a failure,
 * prints one line per failure; skip() says what is not run and why; and
 * unit_finish() prints the closing "NAME: N passed, M failed" line and gives
 * the exit status. Header-only: each test program is one translation unit. */
#ifndef HEAT2D_UNIT_CHECK_H
#define HEAT2D_UNIT_CHECK_H

#include "heat2d.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned long passed, failed, skips;

static bool check(bool ok, const char *fmt, ...) HEAT2D_PRINTF(2, 3);

static bool check(bool ok, const char *fmt, ...)
{
    if (ok) {
        ++passed;
        return true;
    }
    ++failed;
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

/* skip: a part not run here, for a reason the test has checked (no GPU,
 * a method this build lacks), said on its own line and counted. */
static inline void skip(const char *fmt, ...) HEAT2D_PRINTF(1, 2);

static inline void skip(const char *fmt, ...)
{
    ++skips;
    va_list ap;
    va_start(ap, fmt);
    fputs("SKIP: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

/* The closing line and main's exit status: 1 when an assertion failed, and
 * when none ran (a test that asserted nothing proves nothing). */
static inline int unit_finish(const char *name)
{
    printf("%s: %lu passed, %lu failed", name, passed, failed);
    if (skips > 0)
        printf(", %lu skipped", skips);
    putchar('\n');
    if (passed + failed == 0) {
        fprintf(stderr, "FAIL: %s: no assertion ran\n", name);
        return 1;
    }
    return failed == 0 ? 0 : 1;
}

#endif
