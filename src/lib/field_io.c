/* Field files: writing them as printf("%24.16E") would, reading them fast
 * and exactly.
 *
 * Both directions convert between binary and decimal through one table of
 * 128-bit truncated powers of five and the same argument: the exact real
 * value lies in a known interval [lo, hi]; rounding is monotonic, so when
 * lo and hi round to the same result, that result is the correctly rounded
 * one. When they do not (an exact halfway case such as 9007199254740993, or
 * a value within about 2^-70 of one), or the input is outside what the fast
 * path handles (more than 19 significant digits, infinities), the C library
 * does the conversion (strtod, snprintf), which is exact. The fast path is a
 * speed-up only; it can never change a result.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise and MADV_HUGEPAGE, where there are */

#include "heat2d.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- 192-bit helpers ------------------------------------------------------- */

/* A 192-bit unsigned number, least significant limb first. */
typedef struct u192 {
    uint64_t limb[3];
} u192;

static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
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
static u192 mul_64x128(uint64_t m, uint64_t hi, uint64_t lo)
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

static u192 add_small(u192 v, uint64_t m)
{
    v.limb[0] += m;
    if (v.limb[0] < m && ++v.limb[1] == 0)
        ++v.limb[2];
    return v;
}

static int top_bit64(uint64_t x)
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
static int top_bit(const u192 *v)
{
    if (v->limb[2])
        return 128 + top_bit64(v->limb[2]);
    if (v->limb[1])
        return 64 + top_bit64(v->limb[1]);
    return top_bit64(v->limb[0]);
}

/* The low 64 bits of v >> s, for 0 <= s. */
static uint64_t shift_right(const u192 *v, int s)
{
    if (s >= 192)
        return 0;
    int limb = s / 64, off = s % 64;
    uint64_t r = v->limb[limb] >> off;
    if (off && limb < 2)
        r |= v->limb[limb + 1] << (64 - off);
    return r;
}

static int bit_at(const u192 *v, int k)
{
    return (int)((v->limb[k / 64] >> (k % 64)) & 1u);
}

/* Whether any of bits 0 .. k-1 is set, for 0 <= k <= 192. */
static bool any_below(const u192 *v, int k)
{
    int limb = k / 64;
    for (int i = 0; i < limb && i < 3; ++i)
        if (v->limb[i])
            return true;
    return limb < 3 && (v->limb[limb] & ((UINT64_C(1) << (k % 64)) - 1u)) != 0;
}

/* v >> s rounded to nearest, ties to even; 1 <= s <= 192. */
static uint64_t round_shift(const u192 *v, int s)
{
    uint64_t r = shift_right(v, s);
    if (bit_at(v, s - 1) && (any_below(v, s - 1) || (r & 1u)))
        ++r;
    return r;
}

/* ---- powers of five ---------------------------------------------------------- */

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

/* The table, or NULL while another thread is building it. */
static const pow5_entry *pow5_get(void)
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

/* ---- decimal to binary ---------------------------------------------------------- */

#define DOUBLE_INF_BITS  UINT64_C(0x7ff0000000000000)
#define DOUBLE_FRAC_MASK ((UINT64_C(1) << 52) - 1u)

static double double_from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t bits_from_double(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* v * 2^scale, v non-zero, rounded to the nearest double (ties to even),
 * as its bit pattern (positive). */
static uint64_t round_to_double(const u192 *v, int scale)
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

/* w * 10^q correctly rounded, w < 2^64 non-zero; false when the fast path
 * cannot prove its answer. */
static bool decimal_to_double(uint64_t w, int64_t q, double *out)
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
    const pow5_entry *table = pow5_get();
    if (!table)
        return false;
    const pow5_entry *t = &table[q - POW5_MIN];
    /* w * 10^q = w * 5^q * 2^q = w * (t + f) * 2^(e + q) with 0 <= f < 1. */
    u192 lo = mul_64x128(w, t->hi, t->lo);
    int scale = t->e + (int)q;
    uint64_t bits = round_to_double(&lo, scale);
    if (!t->exact) {
        u192 hi = add_small(lo, w);
        if (round_to_double(&hi, scale) != bits)
            return false;
    }
    *out = double_from_bits(bits);
    return true;
}

/* ---- the number parser -------------------------------------------------------- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Python's str.strip() set, less the line terminators handled by callers. */
static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
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

/* Whether p[0..8) are all digits, and their value. Eight bytes at once on
 * little-endian machines: a byte is a digit when its high nibble is 3 and
 * adding 6 keeps it so; then pairs, quads and the octet are combined with
 * one multiply each, no lane overflowing into the next. */
static bool eight_digits(const char *p, uint64_t *value)
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

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* Parses one number starting at p (no leading blanks), stopping at the first
 * character that cannot continue it. Grammar: [sign] (digits [. [digits]] |
 * . digits) [(E|e|D|d) [sign] digits | sign digits], or [sign] inf, infinity,
 * nan. The bare-sign exponent is the original Fortran's form for exponents of
 * three digits (8.8357301208401164-271). Returns the end of the number, or
 * NULL when there is none. Kept out of line so that the fast path below
 * stays small. */
static NOINLINE const char *scan_general(const char *p, const char *end, double *value)
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

    while (p < end && is_digit(*p)) {
        unsigned d = (unsigned)(*p - '0');
        any_digit = true;
        if (significant < MAX_FAST_DIGITS) {
            w = w * 10u + d;
            significant += (w != 0);
        } else {
            ++q; /* digit left of the point not kept: one more power of ten */
            dropped_nonzero |= (d != 0);
        }
        ++p;
    }
    if (p < end && *p == '.') {
        ++p;
        while (p < end && is_digit(*p)) {
            unsigned d = (unsigned)(*p - '0');
            any_digit = true;
            if (significant < MAX_FAST_DIGITS) {
                w = w * 10u + d;
                significant += (w != 0);
                --q;
            } else {
                dropped_nonzero |= (d != 0);
            }
            ++p;
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
    if (dropped_nonzero || !decimal_to_double(w, q, &v)) {
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

/* scan_number's answer for the shape every field file holds,
 * [sign]d.dddddddddddddddd[(E|e|D|d)][sign]ddd: 17 digits always fit w, the
 * digits go eight at a time. Anything else, and any value the exact fast
 * conversion cannot settle, goes to scan_general. */
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
        return scan_general(start, end, value);
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
            return scan_general(start, end, value); /* no digits, or many */
        while (p < end && is_digit(*p))
            exponent = exponent * 10 + (*p++ - '0');
        if (exp_negative)
            exponent = -exponent;
    }
    double v;
    if (w == 0)
        v = 0.0;
    else if (!decimal_to_double(w, exponent - 16, &v))
        return scan_general(start, end, value);
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

/* ---- reading a field file -------------------------------------------------------- */

/* The whole file in memory: mapped when it is a regular file, read
 * otherwise (a pipe, a device). */
typedef struct file_bytes {
    const char *data;
    size_t size;
    void *map; /* munmap this, map_size bytes */
    size_t map_size;
    char *heap; /* or free this */
} file_bytes;

static int load_file(const char *path, file_bytes *fb, heat2d_error *err)
{
    memset(fb, 0, sizeof *fb);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return heat2d_fail(err, "cannot open field file '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(EISDIR));
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uintmax_t)st.st_size > SIZE_MAX) {
            close(fd);
            return heat2d_fail(err, "cannot read field file '%s': too large for memory", path);
        }
        size_t size = (size_t)st.st_size;
        void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            close(fd);
#if defined(POSIX_MADV_SEQUENTIAL)
            (void)posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
#endif
            fb->data = map;
            fb->size = size;
            fb->map = map;
            fb->map_size = size;
            return 0;
        }
        /* Some file systems cannot map; read it instead. */
    }
    size_t cap = 1u << 16, size = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            close(fd);
            return heat2d_fail(err, "cannot read field file '%s': out of memory", path);
        }
        if (size == cap) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
            continue;
        }
        ssize_t got = read(fd, buf + size, cap - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return heat2d_fail(err, "cannot read field file '%s': %s", path, strerror(e));
        }
        if (got == 0)
            break;
        size += (size_t)got;
    }
    close(fd);
    fb->data = buf;
    fb->size = size;
    fb->heap = buf;
    return 0;
}

static void unload_file(file_bytes *fb)
{
    if (fb->map)
        munmap(fb->map, fb->map_size);
    free(fb->heap);
    memset(fb, 0, sizeof *fb);
}

/* One header token as Python's int() reads it (sign, digits): its value
 * when it fits, and its canonical decimal text for messages either way. */
typedef struct header_int {
    bool negative;
    bool overflow;
    uint64_t magnitude;
    char text[32]; /* canonical, or the digits cut short with "..." */
} header_int;

static bool parse_header_int(const char *p, const char *end, header_int *h)
{
    memset(h, 0, sizeof *h);
    if (p < end && (*p == '+' || *p == '-')) {
        h->negative = *p == '-';
        ++p;
    }
    if (p == end)
        return false;
    for (const char *c = p; c < end; ++c)
        if (!is_digit(*c))
            return false;
    while (p + 1 < end && *p == '0')
        ++p; /* leading zeros: int("007") is 7 */
    for (const char *c = p; c < end; ++c) {
        unsigned d = (unsigned)(*c - '0');
        if (h->magnitude > (UINT64_MAX - d) / 10u)
            h->overflow = true;
        else
            h->magnitude = h->magnitude * 10u + d;
    }
    if (h->magnitude == 0 && !h->overflow)
        h->negative = false; /* int("-0") is 0 */
    size_t n = (size_t)(end - p);
    if (n > 24)
        snprintf(h->text, sizeof h->text, "%s%.20s...", h->negative ? "-" : "", p);
    else
        snprintf(h->text, sizeof h->text, "%s%.*s", h->negative ? "-" : "", (int)n, p);
    return true;
}

static bool is_line_end(char c)
{
    return c == '\n' || c == '\r';
}

/* Past one line terminator: \n, \r\n or a lone \r, as Python's universal
 * newlines reads them. */
static const char *skip_line_end(const char *p, const char *end)
{
    if (p < end && *p == '\r') {
        ++p;
        if (p < end && *p == '\n')
            ++p;
    } else if (p < end && *p == '\n') {
        ++p;
    }
    return p;
}

/* Parses the value lines from p on, storing the first capacity values and
 * counting them all, as the original reads every line before it checks the
 * count. */
static int scan_values(const char *path, const char *p, const char *end, double *values,
                       size_t capacity, size_t *count, heat2d_error *err)
{
    size_t n = 0;
    uintmax_t line = 2;
    while (p < end) {
        while (p < end && is_blank(*p))
            ++p;
        if (p == end || is_line_end(*p))
            return heat2d_fail(err, "%s:%ju: empty numeric line", path, line);
        double v;
        const char *stop = scan_number(p, end, &v);
        if (stop) {
            p = stop;
            while (p < end && is_blank(*p))
                ++p;
        }
        if (!stop || (p < end && !is_line_end(*p)))
            return heat2d_fail(err, "%s:%ju: invalid number", path, line);
        if (!isfinite(v))
            return heat2d_fail(err, "%s:%ju: non-finite value", path, line);
        if (n < capacity)
            values[n] = v;
        ++n;
        p = skip_line_end(p, end);
        ++line;
    }
    *count = n;
    return 0;
}

/* Filling a fresh array of tens of megabytes costs a page fault per 4 KiB
 * page, a good part of reading a large field; huge pages cut that 500-fold
 * where the kernel grants them on request. Only advice: nothing depends on
 * it. */
static void advise_huge_pages(void *start, size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)1 << 21;
    uintptr_t first = ((uintptr_t)start + huge - 1) & ~(huge - 1);
    uintptr_t last = ((uintptr_t)start + bytes) & ~(huge - 1);
    if (last > first)
        (void)madvise((void *)first, last - first, MADV_HUGEPAGE);
#else
    (void)start;
    (void)bytes;
#endif
}

int heat2d_field_parse(const char *path, const char *data, size_t size, heat2d_field *field,
                       heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    if (data == NULL) {
        if (size != 0)
            return heat2d_fail(err, "%s: no data", path);
        data = ""; /* NULL + 0 is not a pointer sum C allows */
    }
    const char *end = data + size;
    const char *header_end = data;
    while (header_end < end && !is_line_end(*header_end))
        ++header_end;

    /* Two whitespace-separated tokens, as str.split() finds them. */
    const char *tok[3][2];
    int ntok = 0;
    for (const char *p = data; p < header_end;) {
        while (p < header_end && is_blank(*p))
            ++p;
        if (p == header_end)
            break;
        const char *start = p;
        while (p < header_end && !is_blank(*p))
            ++p;
        if (ntok == 3)
            break;
        tok[ntok][0] = start;
        tok[ntok][1] = p;
        ++ntok;
    }
    if (ntok != 2)
        return heat2d_fail(err, "%s: invalid nx/ny header", path);
    header_int hx, hy;
    if (!parse_header_int(tok[0][0], tok[0][1], &hx) ||
        !parse_header_int(tok[1][0], tok[1][1], &hy))
        return heat2d_fail(err, "%s: non-integer dimensions", path);
    if ((hx.negative || (!hx.overflow && hx.magnitude < HEAT2D_MIN_SIDE)) ||
        (hy.negative || (!hy.overflow && hy.magnitude < HEAT2D_MIN_SIDE)))
        return heat2d_fail(err, "%s: too small dimensions %sx%s", path, hx.text, hy.text);
    if (hx.overflow || hy.overflow || hx.magnitude > SIZE_MAX || hy.magnitude > SIZE_MAX ||
        hx.magnitude > (SIZE_MAX / sizeof(double)) / hy.magnitude)
        return heat2d_fail(err, "%s: dimensions %sx%s too large (nx*ny overflows)", path, hx.text,
                           hy.text);
    size_t nx = (size_t)hx.magnitude, ny = (size_t)hy.magnitude, n = nx * ny;

    const char *body = skip_line_end(header_end, end);
    /* Every value line but the last takes at least two bytes, so the file
     * bounds the count: a header asking for more is not trusted with an
     * allocation. The lines are still read, for the original's message. */
    size_t most = ((size_t)(end - body) + 1u) / 2u;
    double *values = NULL;
    if (n <= most) {
        values = malloc(n * sizeof *values);
        if (!values)
            return heat2d_fail(err, "%s: cannot allocate %zux%zu values", path, nx, ny);
        advise_huge_pages(values, n * sizeof *values);
    }
    size_t count = 0;
    if (scan_values(path, body, end, values, values ? n : 0, &count, err) != 0) {
        free(values);
        return -1;
    }
    if (count != n) {
        free(values);
        return heat2d_fail(err, "%s: expected %zu values, found %zu", path, n, count);
    }
    field->nx = nx;
    field->ny = ny;
    field->values = values;
    return 0;
}

int heat2d_field_read(const char *path, heat2d_field *field, heat2d_error *err)
{
    field->nx = field->ny = 0;
    field->values = NULL;
    file_bytes fb;
    if (load_file(path, &fb, err) != 0)
        return -1;
    int rc = heat2d_field_parse(path, fb.data, fb.size, field, err);
    unload_file(&fb);
    return rc;
}

void heat2d_field_free(heat2d_field *field)
{
    if (!field)
        return;
    free(field->values);
    field->values = NULL;
    field->nx = field->ny = 0;
}

/* ---- binary to decimal ------------------------------------------------------------- */

#define E16_WIDTH 24

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
    const pow5_entry *t = &table[s - POW5_MIN];
    /* m * 2^e2 * 5^s * 2^s = m * (t + f) * 2^(e2 + e + s), 0 <= f < 1. */
    u192 lo = mul_64x128(m, t->hi, t->lo);
    int shift = -(e2 + t->e + s);
    if (shift < 1 || shift > 190)
        return false;
    uint64_t r = round_shift(&lo, shift);
    if (!t->exact) {
        u192 hi = add_small(lo, m);
        if (round_shift(&hi, shift) != r)
            return false;
    }
    *out = r;
    return true;
}

/* Exactly what snprintf(out, 25, "%24.16E", x) writes (24 characters, no
 * NUL): the 17 significant digits of x correctly rounded, ties to even, as
 * glibc does in the default rounding mode. */
static void format_e16(double x, char out[E16_WIDTH])
{
    uint64_t bits = bits_from_double(x);
    bool negative = bits >> 63;
    int biased = (int)((bits >> 52) & 0x7ffu);
    uint64_t frac = bits & DOUBLE_FRAC_MASK;
    const pow5_entry *table = pow5_get();
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

/* ---- writing a field file ----------------------------------------------------------- */

#ifdef NAME_MAX
#define HEAT2D_NAME_MAX NAME_MAX
#else
#define HEAT2D_NAME_MAX 255 /* POSIX leaves NAME_MAX undefined where it varies */
#endif

#define WRITE_CHUNK_LINES 1024

/* Writes and closes stream; on any failure returns errno's value. */
static int write_values(FILE *stream, size_t nx, size_t ny, const double *field)
{
    if (fprintf(stream, "%zu %zu\n", nx, ny) < 0)
        return errno ? errno : EIO;
    char chunk[WRITE_CHUNK_LINES * (E16_WIDTH + 1)];
    size_t n = nx * ny;
    for (size_t i = 0; i < n;) {
        size_t lines = n - i < WRITE_CHUNK_LINES ? n - i : WRITE_CHUNK_LINES;
        char *c = chunk;
        for (size_t l = 0; l < lines; ++l) {
            format_e16(field[i + l], c);
            c[E16_WIDTH] = '\n';
            c += E16_WIDTH + 1;
        }
        size_t bytes = (size_t)(c - chunk);
        if (fwrite(chunk, 1, bytes, stream) != bytes)
            return errno ? errno : EIO;
        i += lines;
    }
    if (fflush(stream) != 0)
        return errno ? errno : EIO;
    return 0;
}

/* Writes header and values to fd and closes it; 0, or the errno of the
 * first failure. */
static int write_to_fd(int fd, size_t nx, size_t ny, const double *field)
{
    FILE *stream = fdopen(fd, "w");
    if (!stream) {
        int e = errno;
        close(fd);
        return e;
    }
    /* Large writes: the file is about 25 bytes a cell. */
    static const size_t buffer_size = (size_t)1 << 20;
    char *buffer = malloc(buffer_size);
    if (buffer)
        setvbuf(stream, buffer, _IOFBF, buffer_size);
    errno = 0;
    int e = write_values(stream, nx, ny, field);
    errno = 0;
    if (fclose(stream) != 0 && !e)
        e = errno ? errno : EIO;
    free(buffer);
    return e;
}

/* Name of the temporary file next to target: target + ".tmp.XXXXXX", or,
 * when that would be longer than a file name may be, a fixed short name in
 * the same directory. */
static char *temp_name_for(const char *target)
{
    static const char suffix[] = ".tmp.XXXXXX";
    static const char short_name[] = "heat2d.tmp.XXXXXX";
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    size_t len = strlen(target);
    bool fits = len - dir_len + sizeof suffix - 1 <= HEAT2D_NAME_MAX;
    char *tmp = malloc(len + sizeof suffix + sizeof short_name);
    if (!tmp)
        return NULL;
    if (fits) {
        memcpy(tmp, target, len);
        memcpy(tmp + len, suffix, sizeof suffix);
    } else {
        memcpy(tmp, target, dir_len);
        memcpy(tmp + dir_len, short_name, sizeof short_name);
    }
    return tmp;
}

/* The temporary file being written, for the handler below; NULL when none. */
static char *volatile pending_tmp;

/* SIGINT, SIGTERM or SIGHUP in the middle of a write: remove the temporary
 * file, then die of the signal as the process would have (unlink, signal
 * and raise are async-signal-safe). */
static void remove_pending_and_die(int sig)
{
    char *tmp = pending_tmp;
    if (tmp != NULL)
        unlink(tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_CLEANUP_SIGNALS (sizeof cleanup_signals / sizeof cleanup_signals[0])

/* Installs the handler for the signals whose action is the default one (a
 * program's own handler, or an ignored signal, is left alone); saved[]
 * receives what to restore. */
static void guard_temp_file(char *tmp, struct sigaction saved[N_CLEANUP_SIGNALS])
{
    pending_tmp = tmp;
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = remove_pending_and_die;
    sigemptyset(&act.sa_mask);
    for (size_t k = 0; k < N_CLEANUP_SIGNALS; ++k) {
        saved[k].sa_handler = SIG_ERR;
        struct sigaction old;
        if (sigaction(cleanup_signals[k], NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
            sigaction(cleanup_signals[k], &act, &saved[k]) != 0)
            saved[k].sa_handler = SIG_ERR;
    }
}

static void unguard_temp_file(const struct sigaction saved[N_CLEANUP_SIGNALS])
{
    for (size_t k = 0; k < N_CLEANUP_SIGNALS; ++k)
        if (saved[k].sa_handler != SIG_ERR)
            sigaction(cleanup_signals[k], &saved[k], NULL);
    pending_tmp = NULL;
}

int heat2d_field_write(const char *path, size_t nx, size_t ny, const double *field,
                       heat2d_error *err)
{
    if (nx != 0 && ny > SIZE_MAX / nx)
        return heat2d_fail(err, "cannot write field file '%s': %zux%zu cells overflow", path, nx,
                           ny);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(EISDIR));
        if (!S_ISREG(st.st_mode)) {
            /* A device or a pipe (/dev/null, /dev/stdout): written in
             * place. Renaming a new file over it would replace the device
             * node itself, which root may do: /dev/null would become a
             * field file. */
            int fd = open(path, O_WRONLY | O_CLOEXEC);
            int e = fd < 0 ? errno : write_to_fd(fd, nx, ny, field);
            if (e)
                return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(e));
            return 0;
        }
    }
    /* Through a symbolic link, the file it names is replaced, not the link
     * (a dangling link has no such file and is replaced itself). */
    char *resolved = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        resolved = realpath(path, NULL);
    char *tmp = temp_name_for(resolved ? resolved : path);
    if (!tmp) {
        free(resolved);
        return heat2d_fail(err, "cannot write field file '%s': out of memory", path);
    }

    /* A temporary name in the same directory, renamed over the target at
     * the end: a reader never sees half a file, and a failure leaves none
     * (the old file, if any, is untouched), nor does an interruption. */
    struct sigaction saved[N_CLEANUP_SIGNALS];
    guard_temp_file(tmp, saved);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        unguard_temp_file(saved);
        free(tmp);
        free(resolved);
        return heat2d_fail(err, "cannot create field file '%s': %s", path, strerror(e));
    }
    /* mkstemp makes the file 0600; give it the mode fopen would have, so
     * that the result looks like any other file the user writes. Reading
     * the umask means setting it, briefly; field files are written by a
     * single thread at the end of a run. */
    mode_t mask = umask(0);
    umask(mask);
    int e = 0;
    if (fchmod(fd, (mode_t)0666 & ~mask) != 0) {
        e = errno;
        close(fd);
    } else {
        e = write_to_fd(fd, nx, ny, field);
    }
    if (!e && rename(tmp, resolved ? resolved : path) != 0) {
        e = errno;
        unlink(tmp);
        unguard_temp_file(saved);
        free(tmp);
        free(resolved);
        return heat2d_fail(err, "cannot rename field file to '%s': %s", path, strerror(e));
    }
    if (e)
        unlink(tmp);
    unguard_temp_file(saved);
    free(tmp);
    free(resolved);
    if (e)
        return heat2d_fail(err, "cannot write field file '%s': %s", path, strerror(e));
    return 0;
}
