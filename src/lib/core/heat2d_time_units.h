/* CF time units ("seconds since 1970-01-01 00:00:00") as udunits reads
 * them, and a clock's start in ISO 8601 (time_units.c). */
#ifndef HEAT2D_TIME_UNITS_H
#define HEAT2D_TIME_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An ISO 8601 date and time, "YYYY-MM-DD[(T| )hh:mm[:ss[.f]]][Z|UTC|+hh:mm]"
 * (UTC when no zone is given), into seconds since 1970-01-01 00:00:00 UTC:
 * 0, or -1 when text is not one. */
int heat2d_time_parse(const char *text, double *epoch_s);

/* "UNIT since REFERENCE" (UNIT seconds, minutes, hours or days in
 * udunits' spellings; "since", "after", "from" or "ref"): the seconds a
 * unit and the reference in seconds since 1970-01-01 UTC. 0, or -1. */
int heat2d_time_units_parse(const char *units, double *unit_s, double *origin_s);

/* Whether a and b are one unit under udunits (the same scale and
 * reference however spelt). */
bool heat2d_time_units_equal(const char *a, const char *b);

/* The time units of a clock that starts at iso (ISO 8601):
 * "seconds since YYYY-MM-DD hh:mm:ss" in UTC. 0, or -1 when iso is not a
 * date and time or units has no room. */
int heat2d_time_units_from_start(const char *iso, char *units, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HEAT2D_TIME_UNITS_H */
