/* Writing a double as printf("%24.16E") does, without printf: the 17
 * significant digits come exactly from the powers-of-five table (decimal.h),
 * and snprintf itself takes what the fast path cannot prove. */
#include "real_format.h"
#include "decimal.h"

#include <stdio.h>
#include <string.h>

static uint64_t bits_from_double(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* floor(t * log10(2)) in integers: 78913 / 2^18 is close enough to log10(2)
 * that this is exact for |t| <= 1650 (checked against exact rationals), and
 * doubles need -1074 <= t <= 1023. */
static int floor_log10_pow2(int t)
{
    return (t * 78913) >> 18;
}

static const uint64_t pow10_u64[] = {
    UINT64_C(1),
    UINT64_C(10),
    UINT64_C(100),
    UINT64_C(1000),
    UINT64_C(10000),
    UINT64_C(100000),
    UINT64_C(1000000),
    UINT64_C(10000000),
    UINT64_C(100000000),
    UINT64_C(1000000000),
    UINT64_C(10000000000),
    UINT64_C(100000000000),
    UINT64_C(1000000000000),
    UINT64_C(10000000000000),
    UINT64_C(100000000000000),
    UINT64_C(1000000000000000),
    UINT64_C(10000000000000000),
    UINT64_C(100000000000000000),
};

/* round(m * 2^e2 * 10^s) to an integer, ties to even; false when the fast
 * path cannot prove it. */
static bool scaled_round(const pow5_entry *table, uint64_t m, int e2, int s, uint64_t *out)
{
    if (s < POW5_MIN || s > POW5_MAX)
        return false;
    /* m * 2^e2 * 10^s = m * 5^s * 2^(e2 + s), in [lo, hi] * 2^(e + e2 + s). */
    const pow5_entry *t = &table[s - POW5_MIN];
    int shift = -(e2 + t->e + s);
    if (shift < 1 || shift > 190)
        return false;
    u192 lo, hi;
    pow5_bounds(t, m, &lo, &hi);
    uint64_t r = round_shift(&lo, shift);
    if (!t->exact && round_shift(&hi, shift) != r)
        return false;
    *out = r;
    return true;
}

void heat2d_format_e16(double x, char out[E16_WIDTH])
{
    uint64_t bits = bits_from_double(x);
    bool negative = bits >> 63;
    int biased = (int)((bits >> 52) & 0x7ffu);
    uint64_t frac = bits & DOUBLE_FRAC_MASK;
    const pow5_entry *table = heat2d_pow5_table();
    uint64_t digits = 0; /* 17 digits, 10^16 <= digits < 10^17 */
    int k = 0;           /* decimal exponent */
    bool done = false;

    if (biased == 0x7ff || !table) {
        done = false;
    } else if (biased == 0 && frac == 0) {
        digits = 0;
        done = true;
    } else {
        uint64_t m = biased ? frac | (UINT64_C(1) << 52) : frac;
        int e2 = biased ? biased - 1075 : -1074;
        /* x in [2^t, 2^(t+1)) puts its decimal exponent in {k, k + 1}. */
        k = floor_log10_pow2(e2 + top_bit64(m));
        done = scaled_round(table, m, e2, 16 - k, &digits);
        if (done && digits >= pow10_u64[17]) {
            ++k;
            done = scaled_round(table, m, e2, 16 - k, &digits);
        }
        if (done && digits == pow10_u64[17]) {
            digits = pow10_u64[16]; /* 9.99...95 rounded up to 1.0E(k+1) */
            ++k;
        }
    }
    if (!done) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%24.16E", x);
        memcpy(out, tmp, E16_WIDTH);
        return;
    }

    /* Right-aligned: [sign]d.dddddddddddddddd E sign dd[d] */
    char buf[E16_WIDTH];
    int pos = E16_WIDTH;
    int ek = k < 0 ? -k : k;
    do {
        buf[--pos] = (char)('0' + ek % 10);
        ek /= 10;
    } while (ek);
    if (pos > E16_WIDTH - 2)
        buf[--pos] = '0';
    buf[--pos] = k < 0 ? '-' : '+';
    buf[--pos] = 'E';
    for (int i = 0; i < 16; ++i) {
        buf[--pos] = (char)('0' + digits % 10);
        digits /= 10;
    }
    buf[--pos] = '.';
    buf[--pos] = (char)('0' + digits);
    if (negative)
        buf[--pos] = '-';
    while (pos > 0)
        buf[--pos] = ' ';
    memcpy(out, buf, E16_WIDTH);
}
