/* Counting copies and writing the count out: the part of the tally that the
 * injection library carries into other programs. */
#include "copy_tally.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The keys in the order they are written, and where each value goes. */
enum { kFields = 11 };
static const char *const kKeys[kFields] = {
    "TRANSFER_ARRAY_BYTES",      "TRANSFER_H2D_COPIES",       "TRANSFER_H2D_BYTES",
    "TRANSFER_H2D_NS",           "TRANSFER_H2D_ARRAY_COPIES", "TRANSFER_H2D_ARRAY_BYTES",
    "TRANSFER_D2H_COPIES",       "TRANSFER_D2H_BYTES",        "TRANSFER_D2H_NS",
    "TRANSFER_D2H_ARRAY_COPIES", "TRANSFER_D2H_ARRAY_BYTES"};

static uint64_t *field_of(heat2d_copy_tally *t, int k)
{
    uint64_t *const fields[kFields] = {
        &t->array_size,      &t->up.copies,         &t->up.bytes,        &t->up.ns,
        &t->up.array_copies, &t->up.array_bytes,    &t->down.copies,     &t->down.bytes,
        &t->down.ns,         &t->down.array_copies, &t->down.array_bytes};
    return fields[k];
}

void heat2d_copy_tally_reset(heat2d_copy_tally *t, uint64_t array_size)
{
    memset(t, 0, sizeof *t);
    t->array_size = array_size;
}

void heat2d_copy_tally_add(heat2d_copy_tally *t, bool up, uint64_t bytes, uint64_t ns)
{
    heat2d_copy_way *w = up ? &t->up : &t->down;
    w->copies++;
    w->bytes += bytes;
    w->ns += ns;
    if (t->array_size != 0 && bytes == t->array_size) {
        w->array_copies++;
        w->array_bytes += bytes;
    }
}

size_t heat2d_copy_tally_format(const heat2d_copy_tally *t, char *buf, size_t size)
{
    heat2d_copy_tally copy = *t;
    size_t used = 0;
    for (int k = 0; k < kFields; ++k) {
        const int n = snprintf(buf + (used < size ? used : size), used < size ? size - used : 0,
                               "%s=%" PRIu64 "\n", kKeys[k], *field_of(&copy, k));
        used += n > 0 ? (size_t)n : 0;
    }
    return used;
}

/* One line's value: decimal digits only, no sign, no overflow. */
static bool parse_value(const char *text, size_t len, uint64_t *value)
{
    if (len == 0 || len > 20)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        const uint64_t digit = (uint64_t)(text[i] - '0');
        if (v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    *value = v;
    return true;
}

int heat2d_copy_tally_parse(const char *text, heat2d_copy_tally *t, char *why, size_t size)
{
    heat2d_copy_tally_reset(t, 0);
    bool seen[kFields] = {false};
    unsigned line = 0;
    for (const char *p = text; *p != '\0';) {
        ++line;
        const char *end = strchr(p, '\n');
        if (end == NULL) {
            snprintf(why, size, "line %u has no end", line);
            return -1;
        }
        const char *eq = memchr(p, '=', (size_t)(end - p));
        int k = 0;
        while (
            eq != NULL && k < kFields &&
            !(strlen(kKeys[k]) == (size_t)(eq - p) && strncmp(p, kKeys[k], (size_t)(eq - p)) == 0))
            ++k;
        if (eq == NULL || k == kFields || seen[k] ||
            !parse_value(eq + 1, (size_t)(end - eq - 1), field_of(t, k))) {
            snprintf(why, size, "line %u is not one of its counts", line);
            return -1;
        }
        seen[k] = true;
        p = end + 1;
    }
    for (int k = 0; k < kFields; ++k)
        if (!seen[k]) {
            snprintf(why, size, "%s is missing", kKeys[k]);
            return -1;
        }
    return 0;
}
