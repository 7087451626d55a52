/* Reading a decimal number as Python's float() does, correctly rounded:
 * decimal to binary, the general scanner behind the fast one in real_parse.h
 * (every shape the field writer does not produce), and heat2d_parse_real. */
#include "decimal.h"
#include "real_parse.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOUBLE_INF_BITS UINT64_C(0x7ff0000000000000)

static double double_from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* v * 2^scale, v non-zero, rounded to the nearest double (ties to even),
 * as its bit pattern (positive). Inline: both its calls are on the field
 * reader's path for every value. */
static inline uint64_t round_to_double(const u192 *v, int scale)
{
    int p = top_bit(v);
    int e = p + scale; /* v * 2^scale lies in [2^e, 2^(e+1)) */
    if (e > DBL_MAX_EXP - 1)
        return DOUBLE_INF_BITS;
    if (e >= DBL_MIN_EXP - 1) {
        /* Normal: keep 53 bits. p >= 127 in all uses, so the shift is >= 1. */
        uint64_t mant = round_shift(v, p - 52);
        if (mant == UINT64_C(1) << 53) {
            mant >>= 1;
            if (++e > DBL_MAX_EXP - 1)
                return DOUBLE_INF_BITS;
        }
        return ((uint64_t)(e + DBL_MAX_EXP - 1) << 52) | (mant & DOUBLE_FRAC_MASK);
    }
    /* Subnormal: the last kept bit is worth 2^-1074. A result of 2^52
     * (rounded up to the smallest normal) is encoded correctly as it is. */
    int s = -1074 - scale;
    if (s > p + 1)
        return 0; /* below half the smallest subnormal */
    return round_shift(v, s);
}

bool heat2d_decimal_to_double(uint64_t w, int64_t q, double *out)
{
    if (q < POW5_MIN) {
        /* w * 10^q < 2^64 * 10^-343 < 2^-1075: rounds to zero. */
        *out = 0.0;
        return true;
    }
    if (q > 308) {
        *out = HUGE_VAL; /* w >= 1: at least 1e309 */
        return true;
    }
    const pow5_entry *table = heat2d_pow5_table();
    if (!table)
        return false;
    /* w * 10^q = w * 5^q * 2^q, in [lo, hi] * 2^(e + q). */
    const pow5_entry *t = &table[q - POW5_MIN];
    u192 lo, hi;
    pow5_bounds(t, w, &lo, &hi);
    int scale = t->e + (int)q;
    uint64_t bits = round_to_double(&lo, scale);
    if (!t->exact && round_to_double(&hi, scale) != bits)
        return false;
    *out = double_from_bits(bits);
    return true;
}

static char lower_ascii(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Whether [p, end) starts with word, case-insensitively; word is lower case. */
static bool starts_with_word(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(end - p) < n)
        return false;
    for (size_t i = 0; i < n; ++i)
        if (lower_ascii(p[i]) != word[i])
            return false;
    return true;
}

#define MAX_FAST_DIGITS 19        /* any 19-digit decimal fits in uint64 */
#define EXPONENT_CAP    100000000 /* far past every double; avoids overflow */

/* Converts the validated token with the C library: all mantissa digits, no
 * decimal point (so no locale can misread it), one exponent. */
static double convert_with_strtod(const char *mant, const char *mant_end, int64_t q)
{
    size_t digits = 0;
    for (const char *c = mant; c < mant_end; ++c)
        digits += is_digit(*c);
    size_t need = digits + 32;
    char small[128];
    char *buf = need <= sizeof small ? small : malloc(need);
    if (!buf)
        return NAN; /* reported as a non-finite value: better than a wrong one */
    size_t n = 0;
    for (const char *c = mant; c < mant_end; ++c)
        if (is_digit(*c))
            buf[n++] = *c;
    snprintf(buf + n, need - n, "e%lld", (long long)q);
    double v = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    return v;
}

/* Parses one number starting at p (no leading blanks), stopping at the first
 * character that cannot continue it. Grammar: [sign] (digits [. [digits]] |
 * . digits) [(E|e|D|d) [sign] digits | sign digits], or [sign] inf, infinity,
 * nan. The bare-sign exponent is the original Fortran's form for exponents of
 * three digits (8.8357301208401164-271). Returns the end of the number, or
 * NULL when there is none. */
const char *heat2d_scan_number_general(const char *p, const char *end, double *value)
{
    bool negative = false;
    if (p < end && (*p == '+' || *p == '-')) {
        negative = *p == '-';
        ++p;
    }
    const char *mant = p;
    uint64_t w = 0;
    int significant = 0; /* digits in w, from the first non-zero one */
    int64_t q = 0;       /* decimal exponent adjustment from the point */
    bool dropped_nonzero = false;
    bool any_digit = false;

    /* Integer and fraction digits in one loop: the point, once, only
     * switches whether a digit moves the exponent. */
    bool in_fraction = false;
    for (; p < end; ++p) {
        if (*p == '.' && !in_fraction) {
            in_fraction = true;
            continue;
        }
        if (!is_digit(*p))
            break;
        unsigned d = (unsigned)(*p - '0');
        any_digit = true;
        if (significant < MAX_FAST_DIGITS) {
            w = w * 10u + d;
            significant += (w != 0);
            q -= in_fraction; /* a kept fraction digit: one less power of ten */
        } else {
            q += !in_fraction; /* an integer digit not kept: one more */
            dropped_nonzero |= (d != 0);
        }
    }
    const char *mant_end = p;
    if (!any_digit) {
        /* Not a digit string: only the words of Python's float() remain. */
        if (mant != p)
            return NULL; /* a lone '.' */
        if (starts_with_word(p, end, "infinity"))
            p += 8;
        else if (starts_with_word(p, end, "inf"))
            p += 3;
        else if (starts_with_word(p, end, "nan")) {
            *value = negative ? -NAN : NAN;
            return p + 3;
        } else
            return NULL;
        *value = negative ? -HUGE_VAL : HUGE_VAL;
        return p;
    }

    int64_t exponent = 0;
    if (p < end && (*p == 'E' || *p == 'e' || *p == 'D' || *p == 'd' || *p == '+' || *p == '-')) {
        if (*p != '+' && *p != '-')
            ++p;
        bool exp_negative = false;
        if (p < end && (*p == '+' || *p == '-')) {
            exp_negative = *p == '-';
            ++p;
        }
        if (p == end || !is_digit(*p)) {
            /* "1.0E", "1.0E+", "1.0-": an exponent marker with no digits. */
            return NULL;
        }
        while (p < end && is_digit(*p)) {
            if (exponent < EXPONENT_CAP)
                exponent = exponent * 10 + (*p - '0');
            ++p;
        }
        if (exp_negative)
            exponent = -exponent;
    }

    if (w == 0) {
        /* All digits kept are zero and none dropped (dropping needs 19
         * significant digits): the value is zero whatever the exponent. */
        *value = negative ? -0.0 : 0.0;
        return p;
    }
    q += exponent;
    double v;
    if (dropped_nonzero || !heat2d_decimal_to_double(w, q, &v)) {
        /* The exponent for the full digit string: the digits kept in w count
         * q from w's last digit; strtod sees them all. */
        int64_t all_q = exponent;
        bool seen_point = false;
        for (const char *c = mant; c < mant_end; ++c) {
            if (*c == '.')
                seen_point = true;
            else if (seen_point)
                --all_q;
        }
        v = convert_with_strtod(mant, mant_end, all_q);
    }
    *value = negative ? -v : v;
    return p;
}

int heat2d_parse_real(const char *text, size_t len, double *value)
{
    const char *p = text, *end = text + len;
    while (p < end && (is_blank(*p) || *p == '\r' || *p == '\n'))
        ++p;
    double v;
    const char *stop = p < end ? scan_number(p, end, &v) : NULL;
    if (!stop)
        return -1;
    while (stop < end && (is_blank(*stop) || *stop == '\r' || *stop == '\n'))
        ++stop;
    if (stop != end)
        return -1;
    *value = v;
    return 0;
}
