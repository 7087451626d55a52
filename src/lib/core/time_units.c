/* CF time units, "UNIT since REFERENCE" (heat2d_time_units.h), read as
 * udunits reads them, so that two spellings of one unit are one: xarray
 * writes heat2d's "seconds since 1970-01-01 00:00:00" back as "seconds
 * since 1970-01-01". And a clock's start given in ISO 8601 made such a
 * unit. The proleptic Gregorian calendar throughout (CF's "standard"
 * after 1582, which is what a model's clock means). */
#include "heat2d_time_units.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian), any year. */
static long long days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const long long yoe = y - era * 400;
    const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static bool leap(long long y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Digits at *p, at least 1 and at most most, into *value. */
static bool digits(const char **p, int most, long long *value)
{
    int n = 0;
    *value = 0;
    while (n < most && isdigit((unsigned char)**p)) {
        *value = *value * 10 + (**p - '0');
        ++*p;
        ++n;
    }
    return n > 0;
}

/* A time zone at p ("", "Z", "UTC", "GMT", "+hh", "+hh:mm", "+hhmm", and
 * the same with '-') into seconds east of UTC; true when the text ends there. */
static bool zone(const char *p, double *east)
{
    while (*p == ' ')
        ++p;
    *east = 0.0;
    if (*p == '\0')
        return true;
    if (strcasecmp(p, "Z") == 0 || strcasecmp(p, "UTC") == 0 || strcasecmp(p, "GMT") == 0)
        return true;
    if (*p != '+' && *p != '-')
        return false;
    const int sign = *p++ == '-' ? -1 : 1;
    long long hh = 0, mm = 0;
    const char *start = p;
    if (!digits(&p, 2, &hh))
        return false;
    if (*p == ':')
        ++p;
    if (*p != '\0' && !digits(&p, 2, &mm))
        return false;
    if (*p != '\0' || hh > 23 || mm > 59 || p - start < 1)
        return false;
    *east = sign * (double)(hh * 3600 + mm * 60);
    return true;
}

int heat2d_time_parse(const char *text, double *epoch_s)
{
    const char *p = text;
    while (*p == ' ')
        ++p;
    long long y, mo, d, h = 0, mi = 0, s = 0;
    const int sign = *p == '-' ? -1 : 1;
    if (*p == '-' || *p == '+')
        ++p;
    if (!digits(&p, 6, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' ||
        !digits(&p, 2, &d))
        return -1;
    y *= sign;
    static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > month_days[mo - 1] + (mo == 2 && leap(y)))
        return -1;
    double fraction = 0.0;
    if (*p == 'T' || *p == 't' || (*p == ' ' && isdigit((unsigned char)p[1]))) {
        ++p;
        if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
            return -1;
        if (*p == ':' && (++p, !digits(&p, 2, &s)))
            return -1;
        if (*p == '.') {
            char *end;
            fraction = strtod(p, &end);
            p = end;
        }
        if (h > 23 || mi > 59 || s > 60)
            return -1;
    }
    double east;
    if (!zone(p, &east))
        return -1;
    *epoch_s = (double)days_from_civil(y, (int)mo, (int)d) * 86400.0 +
               (double)(h * 3600 + mi * 60 + s) + fraction - east;
    return 0;
}

int heat2d_time_units_parse(const char *units, double *unit_s, double *origin_s)
{
    static const struct {
        const char *name;
        double seconds;
    } scales[] = {{"seconds", 1},  {"second", 1},  {"secs", 1},  {"sec", 1},  {"s", 1},
                  {"minutes", 60}, {"minute", 60}, {"mins", 60}, {"min", 60}, {"hours", 3600},
                  {"hour", 3600},  {"hrs", 3600},  {"hr", 3600}, {"h", 3600}, {"days", 86400},
                  {"day", 86400},  {"d", 86400}};
    const char *p = units;
    while (*p == ' ')
        ++p;
    size_t n = 0;
    while (isalpha((unsigned char)p[n]))
        ++n;
    *unit_s = 0.0;
    for (size_t k = 0; k < sizeof scales / sizeof *scales && *unit_s == 0.0; ++k)
        if (strlen(scales[k].name) == n && strncasecmp(p, scales[k].name, n) == 0)
            *unit_s = scales[k].seconds;
    if (*unit_s == 0.0)
        return -1;
    p += n;
    while (*p == ' ')
        ++p;
    static const char *const words[] = {"since", "after", "from", "ref"};
    for (size_t k = 0; k < sizeof words / sizeof *words; ++k) {
        const size_t len = strlen(words[k]);
        if (strncasecmp(p, words[k], len) == 0 && p[len] == ' ')
            return heat2d_time_parse(p + len + 1, origin_s);
    }
    return -1;
}

bool heat2d_time_units_equal(const char *a, const char *b)
{
    double unit_a, origin_a, unit_b, origin_b;
    if (strcmp(a, b) == 0)
        return true;
    return heat2d_time_units_parse(a, &unit_a, &origin_a) == 0 &&
           heat2d_time_units_parse(b, &unit_b, &origin_b) == 0 && unit_a == unit_b &&
           origin_a == origin_b;
}

int heat2d_time_units_from_start(const char *iso, char *units, size_t size)
{
    double epoch;
    if (heat2d_time_parse(iso, &epoch) != 0 || !(fabs(epoch) < 1e15))
        return -1;
    /* In UTC, to the second as CF's readers expect (a fraction kept). */
    const double day_s = floor(epoch / 86400.0);
    long long z = (long long)day_s + 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const long long doe = z - era * 146097;
    const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long long mp = (5 * doy + 2) / 153;
    const int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    const int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    const long long y = yoe + era * 400 + (m <= 2);
    const double in_day = epoch - day_s * 86400.0;
    const int h = (int)(in_day / 3600), mi = (int)((in_day - h * 3600) / 60);
    const double s = in_day - h * 3600 - mi * 60;
    const int n = s == floor(s)
                      ? snprintf(units, size, "seconds since %04lld-%02d-%02d %02d:%02d:%02d", y, m,
                                 d, h, mi, (int)s)
                      : snprintf(units, size, "seconds since %04lld-%02d-%02d %02d:%02d:%09.6f", y,
                                 m, d, h, mi, s);
    return n > 0 && (size_t)n < size ? 0 : -1;
}
