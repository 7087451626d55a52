/* The assertion every heat2d unit test uses: records a pass or a failure,
 * prints one line per failure, and a closing "NAME: N passed, M failed" line
 * that CI reads. Header-only: each test program is one translation unit. */
#ifndef HEAT2D_UNIT_CHECK_H
#define HEAT2D_UNIT_CHECK_H

#include "heat2d.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned long passed, failed;

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

#endif
