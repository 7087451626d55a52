/* The number scanner heat2d_parse_real and the field reader share: a fast
 * path for the one shape field files hold, the rest out of line in
 * real_parse.c. Internal; inline because the field reader runs it per value. */
#ifndef HEAT2D_REAL_PARSE_H
#define HEAT2D_REAL_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

/* Parses one number as the field reader does (heat2d_field.h says more);
 * returns 0 and sets *value, or -1 when text[0..len) is not a number. */
int heat2d_parse_real(const char *text, size_t len, double *value);

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Python's str.strip() set, less the line terminators handled by callers. */
static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/* Whether p[0..8) are all digits, and their value. Eight bytes at once on
 * little-endian machines: a byte is a digit when its high nibble is 3 and
 * adding 6 keeps it so; then pairs, quads and the octet are combined with
 * one multiply each, no lane overflowing into the next. */
static inline bool eight_digits(const char *p, uint64_t *value)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t high = UINT64_C(0xf0f0f0f0f0f0f0f0), zeros = UINT64_C(0x3030303030303030);
    uint64_t v;
    memcpy(&v, p, sizeof v);
    if ((v & high) != zeros || ((v + UINT64_C(0x0606060606060606)) & high) != zeros)
        return false;
    v -= zeros;                                                /* byte i: digit i */
    v = (v * 10u + (v >> 8)) & UINT64_C(0x00ff00ff00ff00ff);   /* 2-digit lanes */
    v = (v * 100u + (v >> 16)) & UINT64_C(0x0000ffff0000ffff); /* 4-digit lanes */
    *value = (v & 0xffffu) * 10000u + (v >> 32);
    return true;
#else
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
        if (!is_digit(p[i]))
            return false;
        v = v * 10u + (uint64_t)(p[i] - '0');
    }
    *value = v;
    return true;
#endif
}

/* w * 10^q correctly rounded, w < 2^64 non-zero; false when the fast path
 * cannot prove its answer (real_parse.c). */
bool heat2d_decimal_to_double(uint64_t w, int64_t q, double *out);

/* Any number scan_number's fast path does not take, with the same contract;
 * out of line (real_parse.c), so that the fast path stays small. */
const char *heat2d_scan_number_general(const char *p, const char *end, double *value);

/* scan_number's answer for the shape every field file holds,
 * [sign]d.dddddddddddddddd[(E|e|D|d)][sign]ddd: 17 digits always fit w, the
 * digits go eight at a time. Anything else, and any value the exact fast
 * conversion cannot settle, goes to heat2d_scan_number_general. */
static inline const char *scan_number(const char *p, const char *end, double *value)
{
    const char *start = p;
    bool negative = false;
    if (*p == '+' || *p == '-') {
        negative = *p == '-';
        ++p;
    }
    uint64_t block_hi, block_lo;
    /* 19 bytes: the 18 of the mantissa and one that must end it. */
    if (end - p < 19 || !is_digit(p[0]) || p[1] != '.' || !eight_digits(p + 2, &block_hi) ||
        !eight_digits(p + 10, &block_lo) || is_digit(p[18]))
        return heat2d_scan_number_general(start, end, value);
    uint64_t w =
        (uint64_t)(p[0] - '0') * UINT64_C(10000000000000000) + block_hi * 100000000u + block_lo;
    p += 18;
    int64_t exponent = 0;
    char c = *p;
    if (c == 'E' || c == 'e' || c == 'D' || c == 'd' || c == '+' || c == '-') {
        if (c != '+' && c != '-')
            ++p;
        bool exp_negative = false;
        if (p < end && (*p == '+' || *p == '-')) {
            exp_negative = *p == '-';
            ++p;
        }
        if (p == end || !is_digit(*p) || (end - p > 3 && is_digit(p[3])))
            return heat2d_scan_number_general(start, end, value); /* no digits, or many */
        while (p < end && is_digit(*p))
            exponent = exponent * 10 + (*p++ - '0');
        if (exp_negative)
            exponent = -exponent;
    }
    double v;
    if (w == 0)
        v = 0.0;
    else if (!heat2d_decimal_to_double(w, exponent - 16, &v))
        return heat2d_scan_number_general(start, end, value);
    *value = negative ? -v : v;
    return p;
}

#endif /* HEAT2D_REAL_SCAN_H */
