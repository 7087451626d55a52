/* heat2d_series.txt: written and read back, every byte of it checked (a
 * manifest is a file in a folder the user shares with others, and the
 * fuzz target tests/fuzz/fuzz_series.c feeds it anything). */
#define _POSIX_C_SOURCE 200809L
#include "series_manifest.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const char kFirst[] = "heat2d series 1";

enum { KEY_NX, KEY_NY, KEY_ALPHA, KEY_METHOD, KEY_PRECISION, N_KEYS };
static const char *const keys[N_KEYS] = {"nx", "ny", "alpha", "method", "precision"};

/* A method's name as heat2d spells one: lower-case letters, digits, '-'. */
static bool method_name_ok(const char *text)
{
    if (text[0] == '\0')
        return false;
    for (const char *p = text; *p != '\0'; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return false;
    return true;
}

static int parse_value(int key, const char *value, heat2d_series *s, heat2d_error *err)
{
    switch (key) {
    case KEY_NX:
        return heat2d_parse_size(value, "nx", &s->nx, err);
    case KEY_NY:
        return heat2d_parse_size(value, "ny", &s->ny, err);
    case KEY_ALPHA:
        return heat2d_parse_alpha(value, "alpha", &s->alpha, err);
    case KEY_METHOD:
        if (strlen(value) >= sizeof s->method || !method_name_ok(value))
            return heat2d_fail(err, "method is not a method's name");
        memcpy(s->method, value, strlen(value) + 1);
        return 0;
    default:
        return heat2d_parse_precision(value, "precision", &s->precision, err);
    }
}

int heat2d_series_parse(const char *name, const char *text, size_t size, heat2d_series *s,
                        heat2d_error *err)
{
    *s = (heat2d_series){0};
    if (size > HEAT2D_SERIES_MAX_BYTES)
        return heat2d_fail(err, "%s: more than %d bytes (not a heat2d series manifest)", name,
                           HEAT2D_SERIES_MAX_BYTES);
    if (memchr(text, '\0', size) != NULL)
        return heat2d_fail(err, "%s: holds a NUL byte (not a heat2d series manifest)", name);
    char copy[HEAT2D_SERIES_MAX_BYTES + 1];
    memcpy(copy, text, size);
    copy[size] = '\0';
    bool seen[N_KEYS] = {false};
    size_t line_no = 0;
    char *save = NULL;
    for (char *line = copy, *next; line != NULL; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        else if (*line == '\0')
            break; /* the end after a last newline */
        line_no++;
        if (line_no == 1) {
            if (strcmp(line, kFirst) != 0)
                return heat2d_fail(err, "%s:1: not a heat2d series manifest", name);
            continue;
        }
        char *key = strtok_r(line, " ", &save);
        char *value = key != NULL ? strtok_r(NULL, " ", &save) : NULL;
        if (key == NULL || value == NULL || strtok_r(NULL, " ", &save) != NULL)
            return heat2d_fail(err, "%s:%zu: expected KEY VALUE", name, line_no);
        int k = 0;
        while (k < N_KEYS && strcmp(key, keys[k]) != 0)
            k++;
        if (k == N_KEYS)
            return heat2d_fail(err, "%s:%zu: unknown key", name, line_no);
        if (seen[k])
            return heat2d_fail(err, "%s:%zu: %s given twice", name, line_no, keys[k]);
        seen[k] = true;
        heat2d_error why = {{0}};
        if (parse_value(k, value, s, &why) != 0)
            return heat2d_fail(err, "%s:%zu: %s", name, line_no, why.message);
    }
    if (line_no == 0)
        return heat2d_fail(err, "%s: empty (not a heat2d series manifest)", name);
    for (int k = 0; k < N_KEYS; ++k)
        if (!seen[k])
            return heat2d_fail(err, "%s: no %s", name, keys[k]);
    return 0;
}

int heat2d_series_write(FILE *f, void *ctx)
{
    const heat2d_series *s = ctx;
    /* %.17g: the alpha read back is the very double. */
    fprintf(f, "%s\nnx %zu\nny %zu\nalpha %.17g\nmethod %s\nprecision %s\n", kFirst, s->nx, s->ny,
            s->alpha, s->method, heat2d_precision_name(s->precision));
    return ferror(f) ? (errno ? errno : EIO) : 0;
}

bool heat2d_series_differ(const heat2d_series *was, const heat2d_series *now, char *what,
                          size_t size)
{
    if (was->nx != now->nx || was->ny != now->ny)
        snprintf(what, size, "grid %zux%zu there, %zux%zu here", was->nx, was->ny, now->nx,
                 now->ny);
    else if (was->alpha != now->alpha) {
        /* Short where that tells them apart, every digit where it does not. */
        char a[32], b[32];
        snprintf(a, sizeof a, "%g", was->alpha);
        snprintf(b, sizeof b, "%g", now->alpha);
        if (strcmp(a, b) == 0) {
            snprintf(a, sizeof a, "%.17g", was->alpha);
            snprintf(b, sizeof b, "%.17g", now->alpha);
        }
        snprintf(what, size, "alpha %s there, %s here", a, b);
    } else if (strcmp(was->method, now->method) != 0)
        snprintf(what, size, "method %s there, %s here", was->method, now->method);
    else if (was->precision != now->precision)
        snprintf(what, size, "precision %s there, %s here", heat2d_precision_name(was->precision),
                 heat2d_precision_name(now->precision));
    else
        return false;
    return true;
}
