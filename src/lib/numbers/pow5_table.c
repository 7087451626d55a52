/* The table of 128-bit truncated powers of five, 5^-342 .. 5^341, that exact
 * decimal <-> binary conversion needs (decimal.h): built on first use, in
 * well under a millisecond, with just enough multi-limb arithmetic. */
#include "decimal.h"

#include <stdatomic.h>
#include <string.h>

static pow5_entry pow5_table[POW5_MAX - POW5_MIN + 1];
/* 0: not built, 1: being built, 2: ready. Building is deterministic and
 * cheap (well under a millisecond); a thread that finds it in progress uses
 * the C library meanwhile rather than waiting. */
static atomic_int pow5_state;

/* Little multi-limb arithmetic for building the table, 32-bit limbs. */
#define BIG_LIMBS 32 /* 1024 bits: 5^341 has 792, 2^960 has 961 */

typedef struct big {
    uint32_t limb[BIG_LIMBS];
} big;

static int big_bits(const big *b)
{
    for (int i = BIG_LIMBS - 1; i >= 0; --i)
        if (b->limb[i])
            return 32 * i + top_bit64(b->limb[i]) + 1;
    return 0;
}

/* Bits pos .. pos+31 of b, bits below 0 and above the top reading 0. */
static uint32_t big_bits32(const big *b, int pos)
{
    if (pos <= -32 || pos >= 32 * BIG_LIMBS)
        return 0;
    if (pos < 0)
        return b->limb[0] << -pos;
    int limb = pos / 32, off = pos % 32;
    uint32_t r = b->limb[limb] >> off;
    if (off && limb + 1 < BIG_LIMBS)
        r |= b->limb[limb + 1] << (32 - off);
    return r;
}

/* floor(b / 2^shift) when shift >= 0, b * 2^-shift otherwise, as 128 bits;
 * *exact says no set bit was dropped. */
static void big_top128(const big *b, int shift, uint64_t *hi, uint64_t *lo, bool *exact)
{
    *lo = big_bits32(b, shift) | (uint64_t)big_bits32(b, shift + 32) << 32;
    *hi = big_bits32(b, shift + 64) | (uint64_t)big_bits32(b, shift + 96) << 32;
    *exact = true;
    for (int pos = 0; pos < shift; pos += 32) {
        uint32_t dropped = big_bits32(b, pos);
        if (shift - pos < 32)
            dropped &= (UINT32_C(1) << (shift - pos)) - 1u;
        if (dropped)
            *exact = false;
    }
}

static void build_pow5_table(void)
{
    /* Non-negative q: 5^q by repeated multiplication. */
    big p;
    memset(&p, 0, sizeof p);
    p.limb[0] = 1;
    for (int q = 0; q <= POW5_MAX; ++q) {
        pow5_entry *t = &pow5_table[q - POW5_MIN];
        int bits = big_bits(&p);
        big_top128(&p, bits - 128, &t->hi, &t->lo, &t->exact);
        t->e = (int16_t)(bits - 128);
        uint64_t carry = 0;
        for (int i = 0; i < BIG_LIMBS; ++i) {
            uint64_t x = (uint64_t)p.limb[i] * 5u + carry;
            p.limb[i] = (uint32_t)x;
            carry = x >> 32;
        }
    }
    /* Negative q: x_k = floor(2^M / 5^k) by repeated division by 5 (floors
     * nest exactly), then its top 128 bits. M = 960 leaves more than 128
     * significant bits down to 5^-342 (5^342 has 795 bits). */
    const int m_bits = 960;
    big x;
    memset(&x, 0, sizeof x);
    x.limb[m_bits / 32] = UINT32_C(1) << (m_bits % 32);
    for (int k = 1; k <= -POW5_MIN; ++k) {
        uint64_t rem = 0;
        for (int i = BIG_LIMBS - 1; i >= 0; --i) {
            uint64_t cur = (rem << 32) | x.limb[i];
            x.limb[i] = (uint32_t)(cur / 5u);
            rem = cur % 5u;
        }
        pow5_entry *t = &pow5_table[-k - POW5_MIN];
        int bits = big_bits(&x);
        bool dropped_nothing;
        big_top128(&x, bits - 128, &t->hi, &t->lo, &dropped_nothing);
        t->e = (int16_t)(bits - 128 - m_bits);
        t->exact = false; /* 5^-k is never a binary fraction */
    }
}

const pow5_entry *heat2d_pow5_table(void)
{
    int state = atomic_load_explicit(&pow5_state, memory_order_acquire);
    if (state == 2)
        return pow5_table;
    int expected = 0;
    if (state == 0 && atomic_compare_exchange_strong(&pow5_state, &expected, 1)) {
        build_pow5_table();
        atomic_store_explicit(&pow5_state, 2, memory_order_release);
        return pow5_table;
    }
    return NULL;
}
