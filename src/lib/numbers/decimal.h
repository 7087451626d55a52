/* Exact binary <-> decimal conversion: the 192-bit products and the table of
 * powers of five that both the number parser and the %24.16E formatter use.
 * Internal; the helpers are inline because both run once per field value. */
#ifndef HEAT2D_DECIMAL_H
#define HEAT2D_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

#define DOUBLE_FRAC_MASK ((UINT64_C(1) << 52) - 1u)

/* A 192-bit unsigned number, least significant limb first. */
typedef struct u192 {
    uint64_t limb[3];
} u192;

static inline void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    /* Schoolbook on 32-bit halves, for compilers without a 128-bit type. */
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* m * (hi:lo), exactly. */
static inline u192 mul_64x128(uint64_t m, uint64_t hi, uint64_t lo)
{
    uint64_t a1, a0, b1, b0;
    mul_64x64(m, lo, &a1, &a0);
    mul_64x64(m, hi, &b1, &b0);
    u192 r;
    r.limb[0] = a0;
    r.limb[1] = b0 + a1;
    r.limb[2] = b1 + (r.limb[1] < a1);
    return r;
}

static inline u192 add_small(u192 v, uint64_t m)
{
    v.limb[0] += m;
    if (v.limb[0] < m && ++v.limb[1] == 0)
        ++v.limb[2];
    return v;
}

static inline int top_bit64(uint64_t x)
{
#if defined(__GNUC__)
    return 63 - __builtin_clzll(x);
#else
    int p = 0;
    while (x >>= 1)
        ++p;
    return p;
#endif
}

/* Position of the highest set bit; v must be non-zero. */
static inline int top_bit(const u192 *v)
{
    if (v->limb[2])
        return 128 + top_bit64(v->limb[2]);
    if (v->limb[1])
        return 64 + top_bit64(v->limb[1]);
    return top_bit64(v->limb[0]);
}

/* The low 64 bits of v >> s, for 0 <= s. */
static inline uint64_t shift_right(const u192 *v, int s)
{
    if (s >= 192)
        return 0;
    int limb = s / 64, off = s % 64;
    uint64_t r = v->limb[limb] >> off;
    if (off && limb < 2)
        r |= v->limb[limb + 1] << (64 - off);
    return r;
}

static inline int bit_at(const u192 *v, int k)
{
    return (int)((v->limb[k / 64] >> (k % 64)) & 1u);
}

/* Whether any of bits 0 .. k-1 is set, for 0 <= k <= 192. */
static inline bool any_below(const u192 *v, int k)
{
    int limb = k / 64;
    for (int i = 0; i < limb && i < 3; ++i)
        if (v->limb[i])
            return true;
    return limb < 3 && (v->limb[limb] & ((UINT64_C(1) << (k % 64)) - 1u)) != 0;
}

/* v >> s rounded to nearest, ties to even; 1 <= s <= 192. */
static inline uint64_t round_shift(const u192 *v, int s)
{
    uint64_t r = shift_right(v, s);
    if (bit_at(v, s - 1) && (any_below(v, s - 1) || (r & 1u)))
        ++r;
    return r;
}

/* 5^q ~ t * 2^e with 2^127 <= t < 2^128, t = floor(5^q * 2^-e), for q in
 * [POW5_MIN, POW5_MAX]; exact says the floor dropped nothing. The reader
 * needs [-342, 308] (below and above, a 19-digit mantissa is 0 or infinite);
 * the writer needs 16 - k for decimal exponents k in [-324, 308], and one
 * less. */
#define POW5_MIN (-342)
#define POW5_MAX 341

typedef struct pow5_entry {
    uint64_t hi;
    uint64_t lo;
    int16_t e;
    bool exact;
} pow5_entry;

/* The table, indexed by q - POW5_MIN, or NULL while another thread is
 * building it (the caller then falls back to the C library). */
const pow5_entry *heat2d_pow5_table(void);

/* m * 5^q, for t the entry of q: the exact product lies in [*lo, *hi] times
 * 2^(t->e), and is *lo itself when t->exact.
 *
 * Both directions rest on this: rounding is monotonic, so when lo and hi
 * round to the same result, that result is the correctly rounded one. When
 * they do not (an exact halfway case such as 9007199254740993, or a value
 * within about 2^-70 of one), or the input is outside what the fast path
 * handles, the C library does the conversion (strtod, snprintf), which is
 * exact. The fast path is a speed-up only; it can never change a result. */
static inline void pow5_bounds(const pow5_entry *t, uint64_t m, u192 *lo, u192 *hi)
{
    /* m * 5^q = m * (t + f) * 2^e with 0 <= f < 1. */
    *lo = mul_64x128(m, t->hi, t->lo);
    *hi = add_small(*lo, m);
}

#endif /* HEAT2D_DECIMAL_H */
