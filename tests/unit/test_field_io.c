/* Unit tests of field files and comparison: the number formatter and parser
 * against the C library on many doubles, every rejection of the reader with
 * its message, write failures, and the comparison's bookkeeping.
 *
 * Needs no arguments: files go to a fresh directory under $TMPDIR (or /tmp),
 * removed at the end. */
#define _POSIX_C_SOURCE 200809L

#include "heat2d.h"
#include "unit_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* check() (unit_check.h) records one assertion; check_quiet below prints only
 * the first few failures of a kind inside the big random loops. */

/* ---- helpers ---------------------------------------------------------------- */

static char tmp_dir[512];

static void path_in_tmp(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmp_dir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "test_field_io: cannot write %s: %s\n", path, strerror(errno));
        exit(2);
    }
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* xorshift64*: reproducible without depending on the C library's rand. */
static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

/* A finite double, from several families: uniform bits (every exponent),
 * subnormals, values in [0, 1], integers, and the field's own range. */
static double random_double(void)
{
    uint64_t r = rng();
    switch (r % 6) {
    case 0:
    case 1: {
        uint64_t b;
        do
            b = rng();
        while (((b >> 52) & 0x7ffu) == 0x7ffu);
        return from_bits(b);
    }
    case 2:
        return from_bits(rng() & ((UINT64_C(1) << 52) - 1u)) * ((r >> 8) & 1 ? -1.0 : 1.0);
    case 3:
        return (double)(rng() >> 11) / 9007199254740992.0;
    case 4:
        return (double)(rng() >> (rng() % 64));
    default:
        return ldexp((double)(rng() >> 11), -(int)(rng() % 1100));
    }
}

static bool parses_to(const char *text, double expected)
{
    double v = -12345.0;
    return heat2d_parse_real(text, strlen(text), &v) == 0 && bits_of(v) == bits_of(expected);
}

static bool rejected(const char *text)
{
    double v;
    return heat2d_parse_real(text, strlen(text), &v) != 0;
}

/* The original writes three-digit exponents without their letter. */
static void fortran_form(char *s)
{
    char *e = strchr(s, 'E');
    if (e && strlen(e) == 5)
        memmove(e, e + 1, strlen(e + 1) + 1);
}

/* ---- the number parser --------------------------------------------------------- */

static void test_parse_cases(void)
{
    check(parses_to("0.0000000000000000E+00", 0.0), "zero");
    check(parses_to("  0.0000000000000000E+00", 0.0), "zero with leading spaces");
    check(parses_to("-0.0000000000000000E+00", -0.0), "negative zero keeps its sign");
    check(parses_to("-0", -0.0) && parses_to("+0.0", 0.0), "short zeros");
    check(parses_to("  1.2220800000000000E-01", 0.122208), "ES24.16 value");
    check(parses_to("\t1.5 \t\r\n", 1.5), "blanks and a line end around");
    check(parses_to("1.0+100", 1e100), "Fortran form 1.0+100");
    check(parses_to("8.8357301208401164-271", strtod("8.8357301208401164e-271", NULL)),
          "Fortran form 8.8357301208401164-271");
    check(parses_to("  4.9406564584124654-324", 4.9406564584124654e-324),
          "Fortran form of the smallest subnormal");
    check(parses_to("1.0D+05", 1e5) && parses_to("1.0d-05", 1e-5) && parses_to("2D3", 2e3),
          "D exponents");
    check(parses_to("1e5", 1e5) && parses_to("1E5", 1e5) && parses_to(".5", 0.5) &&
              parses_to("5.", 5.0) && parses_to("+.5e-3", 0.5e-3) && parses_to("-7", -7.0),
          "plain forms");
    check(parses_to("4.9406564584124654E-324", DBL_TRUE_MIN), "smallest subnormal");
    check(parses_to("2.2250738585072014E-308", DBL_MIN), "smallest normal");
    check(parses_to("2.2250738585072009E-308", strtod("2.2250738585072009E-308", NULL)),
          "largest subnormal");
    check(parses_to("2.4703282292062327E-324", 0.0), "just under half the smallest subnormal");
    check(parses_to("2.4703282292062328E-324", DBL_TRUE_MIN), "just over half of it");
    check(parses_to("1.7976931348623157E+308", DBL_MAX), "largest double");
    check(parses_to("1.7976931348623159E+308", HUGE_VAL), "overflow gives infinity");
    check(parses_to("1e-400", 0.0) && parses_to("-1e-400", -0.0), "underflow to zero");
    check(parses_to("1e99999999999999999999", HUGE_VAL), "huge exponent");
    check(parses_to("0.1000000000000000055511151231257827021181583404541015625", 0.1),
          "long exact decimal of 0.1");
    check(parses_to("123456789012345678901234567890e-10",
                    strtod("123456789012345678901234567890e-10", NULL)),
          "more than 19 digits");
    check(parses_to("1.00000000000000000000000000000000000000", 1.0), "many trailing zeros");
    check(parses_to("0.000000000000000000000000000012345", 1.2345e-29), "many leading zeros");
    check(parses_to("9007199254740993", 9007199254740992.0), "2^53+1 ties to even");
    check(parses_to("9007199254740995", 9007199254740996.0), "2^53+3 ties to even");
    check(parses_to("2.98023223876953125E-8", 0x1p-25), "exact binary fraction");
    double v = 0.0;
    check(heat2d_parse_real("nan", 3, &v) == 0 && isnan(v), "nan parses (reader rejects)");
    check(heat2d_parse_real("-Infinity", 9, &v) == 0 && isinf(v) && v < 0, "-Infinity parses");
    check(heat2d_parse_real("1.5xyz", 3, &v) == 0 && v == 1.5, "length bounds the text");

    const char *bad[] = {"",     "   ",    ".",       "E5",      "1.0E", "1.0E+",  "1.0-",
                         "1 2",  "abc",    "0x1p3",   "1_0",     "--1",  "+-1",    "1.0EE5",
                         "1.0e", "1..0",   "1.0E+5x", "infx",    "nanx", "+",      "-.",
                         "1,5",  "1.0 E5", "e",       "1.0E5.0", "\x01", "1.0E+-5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        check(rejected(bad[i]), "'%s' must be rejected", bad[i]);
    check(heat2d_parse_real("1.0\0"
                            "5",
                            5, &v) != 0,
          "embedded NUL rejected");
}

/* parse_real against strtod on random doubles in the forms files hold (also
 * the original's three-digit form) and in shorter forms (ties, few digits). */
static void test_parse_random(size_t count)
{
    unsigned long bad = 0;
    char text[64], c_form[64];
    for (size_t i = 0; i < count; ++i) {
        double x = random_double();
        switch (i % 4) {
        case 0:
        case 3:
            snprintf(c_form, sizeof c_form, "%24.16E", x);
            break;
        case 1:
            snprintf(c_form, sizeof c_form, "%.17g", x);
            break;
        default:
            snprintf(c_form, sizeof c_form, "%.*e", (int)(rng() % 25), x);
            break;
        }
        memcpy(text, c_form, sizeof text);
        if (i % 4 == 3)
            fortran_form(text);
        double expected = strtod(c_form, NULL), got = 0.0;
        int rc = heat2d_parse_real(text, strlen(text), &got);
        if (rc != 0 || bits_of(got) != bits_of(expected)) {
            if (++bad <= 10)
                check(false, "parse '%s': got %a, strtod '%s' gives %a", text, got, c_form,
                      expected);
        }
    }
    check(bad == 0, "%lu of %zu random numbers parsed differently from strtod", bad, count);
}

/* Random decimal strings of 1 to 25 digits, exponents across the range. */
static void test_parse_random_decimals(size_t count)
{
    unsigned long bad = 0;
    char text[80];
    for (size_t i = 0; i < count; ++i) {
        int digits = 1 + (int)(rng() % 25);
        int n = 0;
        if (rng() & 1)
            text[n++] = '-';
        for (int d = 0; d < digits; ++d) {
            text[n++] = (char)('0' + rng() % 10);
            if (d == 0)
                text[n++] = '.';
        }
        snprintf(text + n, sizeof text - (size_t)n, "e%d", (int)(rng() % 700) - 350);
        double expected = strtod(text, NULL), got = 0.0;
        if (heat2d_parse_real(text, strlen(text), &got) != 0 || bits_of(got) != bits_of(expected))
            if (++bad <= 10)
                check(false, "parse '%s': got %a, strtod %a", text, got, expected);
    }
    check(bad == 0, "%lu of %zu random decimals parsed differently from strtod", bad, count);
}

/* ---- writing ------------------------------------------------------------------------ */

/* Doubles where formatting is delicate: exact ties at the 18th digit,
 * powers of two and ten and their neighbours, the ends of the range. */
static size_t special_doubles(double *out, size_t cap)
{
    size_t n = 0;
#define PUT(x)                                                                                     \
    do {                                                                                           \
        double x_ = (x);                                                                           \
        if (n < cap && isfinite(x_))                                                               \
            out[n++] = x_;                                                                         \
    } while (0)
    PUT(0.0);
    PUT(-0.0);
    PUT(1.0);
    PUT(-1.0);
    PUT(0.5);
    PUT(DBL_MIN);
    PUT(DBL_TRUE_MIN);
    PUT(-DBL_TRUE_MIN);
    PUT(DBL_MAX);
    PUT(-DBL_MAX);
    PUT(nextafter(DBL_MIN, 0.0));
    PUT(0.1);
    PUT(1e23);
    PUT(9.5);
    PUT(0.122208);
    for (int e = -1074; e <= 1023; ++e) {
        double p = ldexp(1.0, e);
        PUT(p);
        PUT(nextafter(p, 0.0));
        PUT(nextafter(p, INFINITY));
    }
    for (int k = -323; k <= 308; ++k) {
        char buf[32];
        snprintf(buf, sizeof buf, "1e%d", k);
        double p = strtod(buf, NULL);
        PUT(p);
        PUT(nextafter(p, 0.0));
        PUT(nextafter(p, INFINITY));
        snprintf(buf, sizeof buf, "9.99999999999999999e%d", k);
        PUT(strtod(buf, NULL));
    }
#undef PUT
    return n;
}

static void test_write_and_read_back(size_t nx, size_t ny)
{
    size_t n = nx * ny;
    double *values = malloc(n * sizeof *values);
    if (!values) {
        check(false, "allocate %zu test values", n);
        return;
    }
    size_t specials = special_doubles(values, n);
    for (size_t i = specials; i < n; ++i)
        values[i] = random_double();

    char path[600];
    path_in_tmp(path, sizeof path, "round_trip.dat");
    heat2d_error err = {{0}};
    if (!check(heat2d_field_write(path, nx, ny, values, &err) == 0, "write %s: %s", path,
               err.message)) {
        free(values);
        return;
    }

    /* The text, line by line, against printf. */
    FILE *f = fopen(path, "r");
    char line[128], want[128];
    unsigned long bad = 0;
    check(f && fgets(line, sizeof line, f) != NULL, "reopen %s", path);
    snprintf(want, sizeof want, "%zu %zu\n", nx, ny);
    check(f && strcmp(line, want) == 0, "header line '%s'", line);
    size_t lines = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (lines < n) {
            snprintf(want, sizeof want, "%24.16E\n", values[lines]);
            if (strcmp(line, want) != 0 && ++bad <= 10)
                check(false, "value %zu (%a): wrote '%.*s', printf gives '%.*s'", lines,
                      values[lines], (int)strcspn(line, "\n"), line, (int)strcspn(want, "\n"),
                      want);
        }
        ++lines;
    }
    if (f)
        fclose(f);
    check(lines == n, "wrote %zu value lines, expected %zu", lines, n);
    check(bad == 0, "%lu of %zu written values differ from printf(\"%%24.16E\")", bad, n);

    /* The mode fopen would have given, not mkstemp's 0600. */
    struct stat st;
    mode_t mask = umask(0);
    umask(mask);
    check(stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask),
          "written file mode %o, expected %o", (unsigned)(st.st_mode & 0777),
          (unsigned)(0666 & ~mask));

    /* Bit-exact round trip. */
    heat2d_field field;
    if (check(heat2d_field_read(path, &field, &err) == 0, "read back %s: %s", path, err.message)) {
        check(field.nx == nx && field.ny == ny, "read back shape %zux%zu", field.nx, field.ny);
        size_t diff = 0;
        for (size_t i = 0; i < n; ++i)
            if (bits_of(field.values[i]) != bits_of(values[i]) && ++diff <= 5)
                check(false, "round trip of value %zu: %a became %a", i, values[i],
                      field.values[i]);
        check(diff == 0, "%zu of %zu values changed in the round trip", diff, n);
        heat2d_field_free(&field);
        check(field.values == NULL, "field_free clears the values");
    }
    unlink(path);
    free(values);
}

static bool dir_has_temp_files(const char *dir)
{
    DIR *d = opendir(dir);
    bool found = false;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp."))
            found = true;
    if (d)
        closedir(d);
    return found;
}

static void test_write_failures(void)
{
    double values[25] = {0};
    heat2d_error err = {{0}};
    char path[600];

    path_in_tmp(path, sizeof path, "no/such/dir/field.dat");
    check(heat2d_field_write(path, 5, 5, values, &err) != 0,
          "write into a missing directory fails");
    check(strstr(err.message, path) != NULL, "write failure names the path: %s", err.message);
    check(strstr(err.message, strerror(ENOENT)) != NULL, "write failure says why: %s", err.message);
    check(access(path, F_OK) != 0, "no file left behind");

    /* Renaming over a directory fails after the data was written: the
     * temporary file must go. */
    path_in_tmp(path, sizeof path, "a_directory");
    mkdir(path, 0700);
    err.message[0] = '\0';
    check(heat2d_field_write(path, 5, 5, values, &err) != 0, "write over a directory fails");
    check(strstr(err.message, path) != NULL, "rename failure names the path: %s", err.message);
    check(!dir_has_temp_files(tmp_dir), "no temporary file left after a failed rename");
    rmdir(path);

    /* Replacing an existing file. */
    path_in_tmp(path, sizeof path, "replace.dat");
    write_text(path, "old contents\n");
    check(heat2d_field_write(path, 5, 5, values, &err) == 0, "write over a file: %s", err.message);
    heat2d_field field;
    check(heat2d_field_read(path, &field, &err) == 0 && field.nx == 5 && field.ny == 5,
          "replaced file reads back");
    heat2d_field_free(&field);
    check(!dir_has_temp_files(tmp_dir), "no temporary file left after a write");
    unlink(path);
}

/* Where a write lands: through a symbolic link into the file it names (the
 * link stays), in place on a device (never replacing the device node), and
 * under a file name too long for name + ".tmp.XXXXXX". */
static void test_write_targets(void)
{
    double values[25] = {0};
    heat2d_error err = {{0}};
    char target[600], link_path[600];
    struct stat st;

    path_in_tmp(target, sizeof target, "target.dat");
    path_in_tmp(link_path, sizeof link_path, "link.dat");
    write_text(target, "old\n");
    check(symlink("target.dat", link_path) == 0, "make a symbolic link");
    check(heat2d_field_write(link_path, 5, 5, values, &err) == 0, "write through a link: %s",
          err.message);
    check(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
    heat2d_field field;
    check(heat2d_field_read(target, &field, &err) == 0 && field.nx == 5,
          "the link's target holds the field");
    heat2d_field_free(&field);
    check(!dir_has_temp_files(tmp_dir), "no temporary file after writing through a link");
    unlink(link_path);
    unlink(target);

    if (stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)) {
        check(heat2d_field_write("/dev/null", 5, 5, values, &err) == 0, "write to /dev/null: %s",
              err.message);
        check(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null is still a device");
        check(heat2d_field_check_writable("/dev/null", &err) == 0, "/dev/null is writable: %s",
              err.message);
    }

    /* 250 characters: a valid name, but not with ".tmp.XXXXXX" appended. */
    char name[251], path[1000];
    memset(name, 'n', 250);
    name[250] = '\0';
    path_in_tmp(path, sizeof path, name);
    check(heat2d_field_write(path, 5, 5, values, &err) == 0, "write a 250-character name: %s",
          err.message);
    check(access(path, F_OK) == 0 && !dir_has_temp_files(tmp_dir),
          "long name written, no temporary file left");
    unlink(path);

    /* check_writable names the real problem under a regular file. */
    path_in_tmp(target, sizeof target, "plain");
    write_text(target, "x");
    path_in_tmp(path, sizeof path, "plain/f.dat");
    check(heat2d_field_check_writable(path, &err) != 0 &&
              strstr(err.message, strerror(ENOTDIR)) != NULL,
          "under a regular file: '%s'", err.message);
    unlink(target);
}

/* ---- reading ------------------------------------------------------------------------ */

/* "5 5\n" and 25 lines of value, with text replacing line `at` (2-based, as
 * messages count) when non-NULL, and extra appended. */
static char *field_text(const char *header, int count, int at, const char *replacement,
                        const char *extra)
{
    size_t cap = 64 + strlen(header) + (size_t)count * 32 +
                 (replacement ? strlen(replacement) : 0) + (extra ? strlen(extra) : 0);
    char *s = malloc(cap);
    if (!s)
        exit(2);
    size_t n = (size_t)snprintf(s, cap, "%s", header);
    for (int i = 0; i < count; ++i) {
        if (i + 2 == at && replacement)
            n += (size_t)snprintf(s + n, cap - n, "%s", replacement);
        else
            n += (size_t)snprintf(s + n, cap - n, "%24.16E\n", (double)i * 0.25);
    }
    if (extra)
        snprintf(s + n, cap - n, "%s", extra);
    return s;
}

/* The reader's verdict on path does not depend on where its reads end: in
 * chunks of 1, 2, 3, 7, 64 and 4099 bytes (a \r\n or a number cut between
 * two reads) it is what the parser says of text, the same message or the
 * same values, bit for bit. */
static void expect_same_by_chunks(const char *path, const char *text)
{
    heat2d_field want;
    heat2d_error want_err = {{0}};
    int want_rc = heat2d_field_parse(path, text, strlen(text), &want, &want_err);
    static const size_t chunks[] = {1, 2, 3, 7, 64, 4099};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; ++c) {
        heat2d_field_read_hook hook = {.chunk_bytes = chunks[c]};
        heat2d_field got;
        heat2d_error err = {{0}};
        int rc = heat2d_field_read_hooked(path, &hook, &got, &err);
        bool same = rc == want_rc;
        if (same && rc != 0)
            same = strcmp(err.message, want_err.message) == 0;
        if (same && rc == 0) {
            same = got.nx == want.nx && got.ny == want.ny;
            for (size_t k = 0; same && k < got.nx * got.ny; ++k)
                same = bits_of(got.values[k]) == bits_of(want.values[k]);
        }
        check(same, "%s in %zu-byte reads: rc %d '%s', the parser: rc %d '%s'", path, chunks[c], rc,
              rc ? err.message : "", want_rc, want_rc ? want_err.message : "");
        if (rc == 0)
            heat2d_field_free(&got);
    }
    if (want_rc == 0)
        heat2d_field_free(&want);
}

/* Writes text, reads it, expects failure with "<path><suffix>" in the
 * message. */
static void expect_read_error(const char *name, const char *text, const char *suffix)
{
    char path[600], want[800];
    path_in_tmp(path, sizeof path, name);
    write_text(path, text);
    heat2d_field field = {0, 0, NULL};
    heat2d_error err = {{0}};
    int rc = heat2d_field_read(path, &field, &err);
    snprintf(want, sizeof want, "%s%s", path, suffix);
    check(rc != 0 && strstr(err.message, want) != NULL && !strchr(err.message, '\n'),
          "%s: expected an error containing '%s', got rc %d, '%s'", name, want, rc, err.message);
    check(field.values == NULL, "%s: no values on failure", name);
    expect_same_by_chunks(path, text);
    unlink(path);
}

static void expect_read_ok(const char *name, const char *text, size_t n, const double *first,
                           size_t nfirst)
{
    char path[600];
    path_in_tmp(path, sizeof path, name);
    write_text(path, text);
    heat2d_field field;
    heat2d_error err = {{0}};
    if (check(heat2d_field_read(path, &field, &err) == 0, "%s: %s", name, err.message)) {
        check(field.nx * field.ny == n, "%s: %zu values", name, field.nx * field.ny);
        for (size_t i = 0; i < nfirst; ++i)
            check(bits_of(field.values[i]) == bits_of(first[i]), "%s: value %zu is %a, not %a",
                  name, i, field.values[i], first[i]);
        heat2d_field_free(&field);
    }
    expect_same_by_chunks(path, text);
    unlink(path);
}

/* A file the reader must refuse: its text is the header, then count values
 * (line `at` replaced when replacement is set, 2-based as messages count),
 * then extra; the message is its path and then suffix. */
struct bad_field {
    const char *name, *header;
    int count, at;
    const char *replacement, *extra, *suffix;
};

static const struct bad_field bad_fields[] = {
    {"empty.dat", "", 0, 0, NULL, NULL, ": invalid nx/ny header"},
    {"one.dat", "5\n", 0, 0, NULL, NULL, ": invalid nx/ny header"},
    {"three.dat", "5 5 5\n", 0, 0, NULL, NULL, ": invalid nx/ny header"},
    {"blank_header.dat", "\n1.0\n", 0, 0, NULL, NULL, ": invalid nx/ny header"},
    {"letters.dat", "5 x\n", 0, 0, NULL, NULL, ": non-integer dimensions"},
    {"real_dims.dat", "5.0 5\n", 0, 0, NULL, NULL, ": non-integer dimensions"},
    {"small.dat", "4 5\n", 0, 0, NULL, NULL, ": too small dimensions 4x5"},
    {"negative.dat", "-3 +7\n", 0, 0, NULL, NULL, ": too small dimensions -3x7"},
    {"zeros.dat", "005 0\n", 0, 0, NULL, NULL, ": too small dimensions 5x0"},
    {"overflow.dat", "99999999999 99999999999\n", 0, 0, NULL, NULL,
     ": dimensions 99999999999x99999999999 too large (nx*ny overflows)"},
    {"huge_digits.dat", "123456789012345678901234567890 5\n", 0, 0, NULL, NULL,
     ": dimensions 12345678901234567890...x5 too large"},
    {"short.dat", "5 5\n", 24, 0, NULL, NULL, ": expected 25 values, found 24"},
    {"long.dat", "5 5\n", 26, 0, NULL, NULL, ": expected 25 values, found 26"},
    /* 8 TB of values asked for: the file bounds the count, so this is the
     * count message, not a failed (or granted) allocation. */
    {"hostile.dat", "1000000 1000000\n", 25, 0, NULL, NULL,
     ": expected 1000000000000 values, found 25"},
    {"empty_line.dat", "5 5\n", 25, 4, "\n", NULL, ":4: empty numeric line"},
    {"blank_line.dat", "5 5\n", 25, 6, "   \t\n", NULL, ":6: empty numeric line"},
    {"trailing_blank.dat", "5 5\n", 25, 0, NULL, "\n", ":27: empty numeric line"},
    {"garbage.dat", "5 5\n", 25, 3, "abc\n", NULL, ":3: invalid number"},
    {"two.dat", "5 5\n", 25, 9, "1.0 2.0\n", NULL, ":9: invalid number"},
    {"cut.dat", "5 5\n", 25, 5, "  1.0000000000000000E\n", NULL, ":5: invalid number"},
    {"hex.dat", "5 5\n", 25, 26, "0x1p3\n", NULL, ":26: invalid number"},
    {"nan.dat", "5 5\n", 25, 7, "nan\n", NULL, ":7: non-finite value"},
    {"inf.dat", "5 5\n", 25, 8, "-inf\n", NULL, ":8: non-finite value"},
    {"overflow_value.dat", "5 5\n", 25, 2, "1.0E+999\n", NULL, ":2: non-finite value"},
    /* An error in a line comes before the count, as the original reads all. */
    {"bad_and_short.dat", "5 5\n", 10, 11, "x\n", NULL, ":11: invalid number"},
};

static void test_read_errors(void)
{
    for (size_t k = 0; k < sizeof bad_fields / sizeof bad_fields[0]; ++k) {
        const struct bad_field *b = &bad_fields[k];
        char *t = field_text(b->header, b->count, b->at, b->replacement, b->extra);
        expect_read_error(b->name, t, b->suffix);
        free(t);
    }

    char path[600];
    heat2d_error err = {{0}};
    heat2d_field field;
    path_in_tmp(path, sizeof path, "missing.dat");
    check(heat2d_field_read(path, &field, &err) != 0 && strstr(err.message, path) &&
              strstr(err.message, strerror(ENOENT)),
          "missing file: '%s'", err.message);
    check(heat2d_field_read(tmp_dir, &field, &err) != 0 && strstr(err.message, tmp_dir) &&
              strstr(err.message, strerror(EISDIR)),
          "directory: '%s'", err.message);
}

static void test_read_forms(void)
{
    char *t;
    double first[4] = {0.0, 0.25, 0.5, 0.75};
    t = field_text("5 5\n", 24, 0, NULL, "  6.0000000000000000E+00");
    double last_missing_newline[1] = {0.0};
    expect_read_ok("no_final_newline.dat", t, 25, last_missing_newline, 1);
    free(t);
    t = field_text("  5\t5  \r\n", 25, 0, NULL, NULL);
    expect_read_ok("header_blanks.dat", t, 25, first, 4);
    free(t);

    /* CRLF and lone CR line ends (Python's universal newlines), blanks,
     * D and Fortran exponents. */
    const char *forms = "5 5\r\n"
                        "  8.8357301208401164-271\r\n"
                        "\t-1.0D+00  \r"
                        "1.0+100\n"
                        "  4.9406564584124654-324\n";
    char *text = malloc(strlen(forms) + 25 * 8);
    strcpy(text, forms);
    for (int i = 4; i < 25; ++i)
        strcat(text, " 0.5\n");
    double want[4] = {strtod("8.8357301208401164e-271", NULL), -1.0, 1e100, DBL_TRUE_MIN};
    expect_read_ok("forms.dat", text, 25, want, 4);
    free(text);
}

/* The parser on a buffer that ends exactly where the text does, with no NUL
 * after it (in a sanitized build a read past it is a report). */
static void test_parse_buffer(void)
{
    char *text = field_text("5 5\n", 24, 0, NULL, "  6.0000000000000000E+00");
    size_t n = strlen(text);
    char *exact = malloc(n);
    memcpy(exact, text, n);
    heat2d_field field;
    heat2d_error err = {{0}};
    check(heat2d_field_parse("buffer", exact, n, &field, &err) == 0 && field.nx == 5 &&
              field.values[24] == 6.0,
          "parse from a buffer without a NUL: %s", err.message);
    heat2d_field_free(&field);
    /* Every prefix fails with one line naming the source, except those that
     * end inside the last value after its first digit: that is a shorter
     * number, which the original's reader also takes (a file without a final
     * newline is accepted; heat2d's writer never makes one). */
    size_t last_line = (size_t)(strrchr(text, '\n') - text) + 1;
    for (size_t k = 0; k < n; ++k) {
        char *cut = malloc(k ? k : 1);
        memcpy(cut, text, k);
        int rc = heat2d_field_parse("buffer", cut, k, &field, &err);
        if (rc == 0) {
            char last[64];
            snprintf(last, sizeof last, "%.*s", (int)(k - last_line), text + last_line);
            check(k >= last_line + 3 && field.values[24] == strtod(last, NULL),
                  "prefix of %zu bytes: a field only when the last value is cut short", k);
            heat2d_field_free(&field);
        } else {
            check(strncmp(err.message, "buffer", 6) == 0 && !strchr(err.message, '\n') &&
                      field.values == NULL,
                  "prefix of %zu bytes: '%s'", k, err.message);
        }
        free(cut);
    }
    check(heat2d_field_parse("null", NULL, 0, &field, &err) != 0 &&
              strcmp(err.message, "null: invalid nx/ny header") == 0,
          "NULL, 0: '%s'", err.message);
    free(exact);
    free(text);
}

/* ---- reading in bounded memory ------------------------------------------------------ */

/* Reads path (through hook when non-NULL), expects failure with exactly the
 * message want. */
static void expect_message(const char *path, const heat2d_field_read_hook *hook, const char *want,
                           const char *what)
{
    heat2d_field field = {0, 0, NULL};
    heat2d_error err = {{0}};
    int rc = heat2d_field_read_hooked(path, hook, &field, &err);
    check(rc != 0 && strcmp(err.message, want) == 0 && field.values == NULL,
          "%s: rc %d, '%s', want '%s'", what, rc, err.message, want);
    if (rc == 0)
        heat2d_field_free(&field);
}

/* No line longer than HEAT2D_FIELD_MAX_LINE: the longest is read, one byte
 * more is refused whatever the line holds, header included. */
static void test_read_long_lines(void)
{
    char *line = malloc(HEAT2D_FIELD_MAX_LINE + 64);
    memset(line, ' ', HEAT2D_FIELD_MAX_LINE - 3);
    strcpy(line + HEAT2D_FIELD_MAX_LINE - 3, "1.0\n");
    double zero[1] = {0.0};
    char *t = field_text("5 5\n", 25, 3, line, NULL);
    expect_read_ok("longest_line.dat", t, 25, zero, 1);
    free(t);
    memmove(line + 1, line, HEAT2D_FIELD_MAX_LINE + 1); /* one more blank */
    t = field_text("5 5\n", 25, 3, line, NULL);
    expect_read_error("long_line.dat", t, ":3: line longer than 4096 bytes (not a field file)");
    free(t);
    memset(line, 'x', HEAT2D_FIELD_MAX_LINE + 1);
    strcpy(line + HEAT2D_FIELD_MAX_LINE + 1, "\n");
    t = field_text("5 5\n", 25, 9, line, NULL);
    expect_read_error("long_garbage.dat", t, ":9: line longer than 4096 bytes (not a field file)");
    free(t);
    line[HEAT2D_FIELD_MAX_LINE + 1] = '\0'; /* the last line, no newline */
    t = field_text("5 5\n", 24, 0, NULL, line);
    expect_read_error("long_last.dat", t, ":26: line longer than 4096 bytes (not a field file)");
    free(t);
    memset(line, ' ', HEAT2D_FIELD_MAX_LINE + 1);
    memcpy(line, "5 5", 3);
    strcpy(line + HEAT2D_FIELD_MAX_LINE + 1, "\n");
    t = field_text(line, 25, 0, NULL, NULL);
    expect_read_error("long_header.dat", t, ":1: line longer than 4096 bytes (not a field file)");
    free(t);
    free(line);
    if (access("/dev/zero", R_OK) == 0)
        expect_message("/dev/zero", NULL,
                       "/dev/zero:1: line longer than 4096 bytes (not a field file)", "/dev/zero");
}

/* A file longer than its header allows is refused before its values are
 * read: written out, or sparse (10 GiB of holes after a valid field). */
static void test_read_size_bound(void)
{
    char path[600], want[900];
    /* 25 values and 30000 lines more: 120 KB, beyond 4 + 25 x 4098. */
    char *t = field_text("5 5\n", 25, 0, NULL, NULL);
    size_t n = strlen(t);
    char *longer = malloc(n + 30000 * 4 + 1);
    memcpy(longer, t, n);
    for (int i = 0; i < 30000; ++i)
        memcpy(longer + n + 4 * (size_t)i, "1.0\n", 4);
    longer[n + 30000 * 4] = '\0';
    path_in_tmp(path, sizeof path, "longer.dat");
    write_text(path, longer);
    snprintf(want, sizeof want,
             "%s: %zu bytes, more than a 5x5 field file can hold (at most 102454)", path,
             n + 30000 * 4);
    expect_message(path, NULL, want, "a file longer than its header allows");
    expect_same_by_chunks(path, longer);
    unlink(path);
    free(longer);

    path_in_tmp(path, sizeof path, "sparse.dat");
    write_text(path, t);
    free(t);
    const off_t ten_gib = (off_t)10 << 30;
    struct stat st;
    if (truncate(path, ten_gib) == 0) {
        snprintf(want, sizeof want,
                 "%s: 10737418240 bytes, more than a 5x5 field file can hold (at most 102454)",
                 path);
        double start = heat2d_now();
        expect_message(path, NULL, want, "a sparse 10 GiB file");
        check(heat2d_now() - start < 1.0, "the sparse file is refused at once: %.3f s",
              heat2d_now() - start);
        check(stat(path, &st) == 0 && st.st_size == ten_gib, "the sparse file is left as it was");
    } else {
        printf("test_field_io: no sparse file here (%s): not tested\n", strerror(errno));
    }
    unlink(path);

    /* A header of 10^10 values (80 GB) in a file large enough to hold them
     * (sparse): refused against the memory limit, not allocated. */
    const char *source = NULL;
    uint64_t limit = heat2d_memory_limit(&source);
    path_in_tmp(path, sizeof path, "sparse_huge.dat");
    write_text(path, "100000 100000\n");
    if (limit != 0 && limit < UINT64_C(80000000000) && truncate(path, (off_t)20000000100) == 0) {
        char text[128];
        snprintf(want, sizeof want, "%s: 100000x100000 values need 80 GB, more than %s", path,
                 heat2d_memory_limit_text(text, sizeof text, limit, source));
        expect_message(path, NULL, want, "80 GB of values asked for");
    }
    unlink(path);
}

/* text through a pipe, as a stream of unknown length: `endless` writes
 * "1.0\n" after it until the reader goes. */
static int read_through_pipe(const char *text, bool endless, heat2d_field *field, heat2d_error *err)
{
    int fds[2];
    if (pipe(fds) != 0)
        return heat2d_fail(err, "pipe: %s", strerror(errno));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        signal(SIGPIPE, SIG_DFL);
        size_t len = strlen(text);
        for (size_t done = 0; done < len;) {
            ssize_t w = write(fds[1], text + done, len - done);
            if (w <= 0)
                _exit(0);
            done += (size_t)w;
        }
        while (endless && write(fds[1], "1.0\n1.0\n1.0\n1.0\n", 16) > 0)
            ;
        _exit(0);
    }
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    int rc = heat2d_field_read(path, field, err);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    return rc;
}

static void test_read_streams(void)
{
    heat2d_field field;
    heat2d_error err = {{0}};
    char *t = field_text("5 5\n", 25, 0, NULL, NULL);
    heat2d_field want;
    heat2d_field_parse("x", t, strlen(t), &want, &err);
    if (check(read_through_pipe(t, false, &field, &err) == 0, "a field through a pipe: %s",
              err.message)) {
        check(field.nx == 5 && field.ny == 5 &&
                  memcmp(field.values, want.values, 25 * sizeof(double)) == 0,
              "the piped field's values");
        heat2d_field_free(&field);
    }
    heat2d_field_free(&want);
    int rc = read_through_pipe(t, true, &field, &err);
    check(rc != 0 && strstr(err.message, ":27: more values than its 5x5 header gives (25)") &&
              strncmp(err.message, "/dev/fd/", 8) == 0,
          "an endless stream after a 5x5 field: '%s'", err.message);
    free(t);
    /* Too many values, too few, and a header of 10^12 values (the values
     * grow as they come, 25 here). */
    static const struct bad_field piped[] = {
        {"26 values", "5 5\n", 26, 0, NULL, NULL,
         ":27: more values than its 5x5 header gives (25)"},
        {"a hostile header", "1000000 1000000\n", 25, 0, NULL, NULL,
         ": expected 1000000000000 values, found 25"},
        {"24 values", "5 5\n", 24, 0, NULL, NULL, ": expected 25 values, found 24"},
    };
    for (size_t k = 0; k < sizeof piped / sizeof piped[0]; ++k) {
        t = field_text(piped[k].header, piped[k].count, 0, NULL, NULL);
        rc = read_through_pipe(t, false, &field, &err);
        check(rc != 0 && strstr(err.message, piped[k].suffix), "%s through a pipe: '%s'",
              piped[k].name, err.message);
        free(t);
    }
}

/* A file changed between two reads: what after_read does to it. */
typedef struct change {
    const char *path;
    int kind; /* 0 cut to `size`, 1 one line appended, 2 its time changed */
    off_t size;
    int calls;
} change;

static void change_file(void *ctx, uint64_t bytes_read)
{
    change *c = ctx;
    (void)bytes_read;
    if (c->calls++ != 0)
        return;
    if (c->kind == 0) {
        if (truncate(c->path, c->size) != 0)
            perror("truncate");
    } else if (c->kind == 1) {
        FILE *f = fopen(c->path, "a");
        if (f != NULL) {
            fputs("  1.0000000000000000E+00\n", f);
            fclose(f);
        }
    } else {
        /* As a rewrite in place leaves it: the same size, a new time. */
        const struct timespec times[2] = {{1000000000, 0}, {1000000000, 0}};
        if (utimensat(AT_FDCWD, c->path, times, 0) != 0)
            perror("utimensat");
    }
}

static void test_read_changing_file(void)
{
    char path[600], want[900];
    path_in_tmp(path, sizeof path, "changing.dat");
    double values[1600];
    for (int i = 0; i < 1600; ++i)
        values[i] = (double)i / 1600.0;
    heat2d_error err = {{0}};
    struct stat st;
    const off_t cuts[] = {10000, 4096, 0};
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; ++k) {
        heat2d_field_write(path, 40, 40, values, &err);
        stat(path, &st);
        change c = {.path = path, .kind = 0, .size = cuts[k]};
        heat2d_field_read_hook hook = {.chunk_bytes = 4096, .after_read = change_file, .ctx = &c};
        snprintf(want, sizeof want, "%s: shrank while being read (%jd bytes when opened, %jd read)",
                 path, (intmax_t)st.st_size, (intmax_t)(cuts[k] > 4096 ? cuts[k] : 4096));
        expect_message(path, &hook, want, "a file cut short between two reads");
    }
    heat2d_field_write(path, 40, 40, values, &err);
    stat(path, &st);
    change grow = {.path = path, .kind = 1};
    heat2d_field_read_hook hook = {.chunk_bytes = 4096, .after_read = change_file, .ctx = &grow};
    snprintf(want, sizeof want, "%s: grew while being read (%jd bytes when opened)", path,
             (intmax_t)st.st_size);
    expect_message(path, &hook, want, "a file grown between two reads");
    heat2d_field_write(path, 40, 40, values, &err);
    change touch = {.path = path, .kind = 2};
    hook.ctx = &touch;
    snprintf(want, sizeof want, "%s: changed while being read", path);
    expect_message(path, &hook, want, "a file rewritten between two reads");
    unlink(path);
}

/* ---- the original's own files ----------------------------------------------------- */

/* A field as gfortran's ES24.16 writes it parses to what printf's reading
 * gives: the three-digit form is the only difference. */
static void test_fortran_lines(void)
{
    char line[64];
    unsigned long bad = 0;
    for (int i = 0; i < 100000; ++i) {
        double x = ldexp((double)(rng() >> 11), -(int)(rng() % 1100) - 53);
        snprintf(line, sizeof line, "%24.16E", x);
        double expected = strtod(line, NULL);
        fortran_form(line);
        double got;
        if ((heat2d_parse_real(line, strlen(line), &got) != 0 ||
             bits_of(got) != bits_of(expected)) &&
            ++bad <= 5)
            check(false, "Fortran line '%s' read as %a, not %a", line, got, expected);
    }
    check(bad == 0, "%lu Fortran-form lines misread", bad);
}

/* ---- comparison --------------------------------------------------------------------- */

static void test_compare(void)
{
    heat2d_tolerance tol = {HEAT2D_DEFAULT_ATOL, HEAT2D_DEFAULT_RTOL};
    heat2d_comparison c;

    double a[6] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0};
    double b[6] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0};
    heat2d_compare_arrays(a, b, 6, tol, &c);
    check(c.max_abs_diff == 0.0 && c.worst_index == 0 && c.failures == 0, "identical arrays");

    b[2] = 2.5;
    b[5] = 4.5;
    heat2d_compare_arrays(a, b, 6, tol, &c);
    check(c.max_abs_diff == 0.5 && c.worst_index == 2 && c.failures == 2,
          "first index of the maximum: worst %zu, max %g, failures %zu", c.worst_index,
          c.max_abs_diff, c.failures);

    /* On the tolerance: |a-b| == atol + rtol*|a| passes, anything more fails. */
    heat2d_tolerance t2 = {0.25, 0.5};
    double r[3] = {1.0, 1.0, -2.0};
    double s[3] = {1.75, 1.7500001, -3.5};
    heat2d_compare_arrays(r, s, 3, t2, &c);
    check(c.failures == 2 && c.worst_index == 2 && c.max_abs_diff == 1.5,
          "tolerance edge: failures %zu worst %zu", c.failures, c.worst_index);

    /* Relative to the reference, not the candidate. */
    heat2d_tolerance rel = {0.0, 0.1};
    double ref1[1] = {10.0}, cand1[1] = {11.0};
    double ref2[1] = {11.0}, cand2[1] = {10.0};
    heat2d_compare_arrays(ref1, cand1, 1, rel, &c);
    check(c.failures == 0, "|10-11| <= 0.1*10");
    heat2d_compare_arrays(ref2, cand2, 1, rel, &c);
    check(c.failures == 0, "|11-10| <= 0.1*11");
    double ref3[1] = {9.0};
    heat2d_compare_arrays(ref3, cand2, 1, rel, &c);
    check(c.failures == 1, "|9-10| > 0.1*9");

    /* NaN is a failure, and the first one is the worst. */
    double n1[5] = {0.0, 1.0, 2.0, 3.0, 4.0};
    double n2[5] = {0.0, 9.0, NAN, 3.0, NAN};
    heat2d_compare_arrays(n1, n2, 5, tol, &c);
    check(c.failures == 3 && c.worst_index == 2 && isnan(c.max_abs_diff),
          "NaN in the candidate: failures %zu worst %zu max %g", c.failures, c.worst_index,
          c.max_abs_diff);
    heat2d_compare_arrays(n2, n1, 5, tol, &c);
    check(c.failures == 3 && c.worst_index == 2 && isnan(c.max_abs_diff), "NaN in the reference");
    double i1[2] = {INFINITY, 1.0}, i2[2] = {INFINITY, 1.0};
    heat2d_compare_arrays(i1, i2, 2, tol, &c);
    check(c.failures == 1 && c.worst_index == 0, "inf - inf is NaN: a failure");
    heat2d_compare_arrays(a, b, 0, tol, &c);
    check(c.failures == 0 && c.max_abs_diff == 0.0 && c.worst_index == 0, "empty arrays");
}

/* ---- main ------------------------------------------------------------------------------- */

static void remove_tmp_dir(void)
{
    DIR *d = opendir(tmp_dir);
    struct dirent *e;
    char path[1200];
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", tmp_dir, e->d_name);
        if (unlink(path) != 0)
            rmdir(path);
    }
    if (d)
        closedir(d);
    rmdir(tmp_dir);
}

int main(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/test_field_io.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        fprintf(stderr, "test_field_io: cannot make a directory %s: %s\n", tmp_dir,
                strerror(errno));
        return 2;
    }

    test_parse_cases();
    test_parse_random(1000000);
    test_parse_random_decimals(300000);
    test_fortran_lines();
    test_write_and_read_back(1000, 600);
    test_write_failures();
    test_write_targets();
    test_read_errors();
    test_read_forms();
    test_parse_buffer();
    test_read_long_lines();
    test_read_size_bound();
    test_read_streams();
    test_read_changing_file();
    test_compare();

    remove_tmp_dir();
    return unit_finish("test_field_io");
}
