/* How a command line names a NetCDF input: "FILE.nc", "FILE.nc:STEP",
 * "FILE.nc:VAR" and "FILE.nc:VAR:STEP" (field_netcdf.h); "FILE.nc:" with
 * anything but a step or a variable's name after it is a bad record index. */
#include "field_netcdf.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Whether name[0..n) ends in ".nc", the one name NetCDF goes by. */
static bool nc_name(const char *name, size_t n)
{
    return n > 3 && memcmp(name + n - 3, ".nc", 3) == 0;
}

bool heat2d_netcdf_path(const char *path)
{
    return nc_name(path, strlen(path));
}

/* Whether text[0..n) is a step: digits alone, within size_t. */
static bool parse_step(const char *text, size_t n, size_t *step)
{
    size_t value = 0;
    for (size_t k = 0; k < n; ++k) {
        if (text[k] < '0' || text[k] > '9' || value > (SIZE_MAX - 9) / 10)
            return false;
        value = value * 10 + (size_t)(text[k] - '0');
    }
    *step = value;
    return n > 0;
}

/* Whether text[0..n) can name a variable here: a letter or '_' first (a
 * digit first would read as a step), then letters, digits and "_.-+@". */
static bool variable_name(const char *text, size_t n)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    if (n == 0 || n > HEAT2D_NC_NAME_MAX || strchr(letters, text[0]) == NULL)
        return false;
    for (size_t k = 1; k < n; ++k)
        if (text[k] == '\0' ||
            (strchr(letters, text[k]) == NULL && strchr("0123456789.-+@", text[k]) == NULL))
            return false;
    return true;
}

/* Whether spec[0..n) names a .nc file, copied into out->file. */
static bool nc_file(const char *spec, size_t n, heat2d_netcdf_spec *out)
{
    if (!nc_name(spec, n) || n >= sizeof out->file)
        return false;
    memcpy(out->file, spec, n);
    out->file[n] = '\0';
    return true;
}

int heat2d_netcdf_spec_parse(const char *spec, heat2d_netcdf_spec *out, heat2d_error *err)
{
    memset(out, 0, sizeof *out);
    const size_t n = strlen(spec);
    if (heat2d_netcdf_path(spec))
        return nc_file(spec, n, out) ? 1 : 0;
    const char *last = strrchr(spec, ':');
    if (last == NULL)
        return 0;
    const char *tail = last + 1;
    const size_t tail_n = strlen(tail);
    struct stat st;
    if (nc_file(spec, (size_t)(last - spec), out)) {
        /* FILE.nc:STEP, FILE.nc:VAR, or a text file of that very name. */
        if (parse_step(tail, tail_n, &out->step)) {
            out->record = true;
            return 1;
        }
        if (stat(spec, &st) == 0)
            return 0;
        if (variable_name(tail, tail_n)) {
            memcpy(out->var, tail, tail_n + 1);
            return 1;
        }
        return heat2d_fail(err,
                           "%s: bad record index '%s' (FILE.nc:STEP takes a step: digits, 0 to "
                           "%zu; FILE.nc:VAR a variable's name)",
                           spec, tail, (size_t)SIZE_MAX);
    }
    /* FILE.nc:VAR:STEP */
    const char *middle = last;
    while (middle > spec && middle[-1] != ':')
        --middle;
    if (middle == spec || !nc_file(spec, (size_t)(middle - 1 - spec), out) || stat(spec, &st) == 0)
        return 0;
    const size_t var_n = (size_t)(last - middle);
    if (!variable_name(middle, var_n))
        return heat2d_fail(err,
                           "%s: bad variable name '%.*s' (FILE.nc:VAR:STEP: a letter or '_' "
                           "first, then letters, digits and _.-+@)",
                           spec, (int)var_n, middle);
    if (!parse_step(tail, tail_n, &out->step))
        return heat2d_fail(err,
                           "%s: bad record index '%s' (FILE.nc:VAR:STEP takes a step: digits, 0 "
                           "to %zu)",
                           spec, tail, (size_t)SIZE_MAX);
    memcpy(out->var, middle, var_n);
    out->var[var_n] = '\0';
    out->record = true;
    return 1;
}
