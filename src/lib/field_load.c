/* Which reader a field's name asks for: "FILE.nc" and "FILE.nc:STEP" are
 * NetCDF (a build without it refuses them, naming the fix), "FILE.nc:" with
 * anything but a step after it is a bad record index, anything else is a
 * text field file. */
#include "field_netcdf.h"

#include <string.h>
#include <sys/stat.h>

bool heat2d_netcdf_path(const char *path)
{
    const size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".nc") == 0;
}

bool heat2d_netcdf_record_spec(const char *spec, char *file, size_t size, size_t *step)
{
    const char *colon = strrchr(spec, ':');
    if (colon == NULL || colon[1] == '\0')
        return false;
    size_t value = 0;
    for (const char *p = colon + 1; *p; ++p) {
        if (*p < '0' || *p > '9' || value > (SIZE_MAX - 9) / 10)
            return false;
        value = value * 10 + (size_t)(*p - '0');
    }
    const size_t len = (size_t)(colon - spec);
    if (len <= 3 || strncmp(colon - 3, ".nc", 3) != 0 || (file != NULL && len >= size))
        return false;
    if (file != NULL) {
        memcpy(file, spec, len);
        file[len] = '\0';
    }
    *step = value;
    return true;
}

bool heat2d_field_is_netcdf(const char *spec)
{
    size_t step;
    return heat2d_netcdf_path(spec) || heat2d_netcdf_record_spec(spec, NULL, 0, &step);
}

/* The index of "FILE.nc:INDEX" when INDEX is no step (not digits, or
 * past SIZE_MAX) and no file has that very name; NULL otherwise. */
static const char *bad_record_index(const char *spec)
{
    const char *colon = strrchr(spec, ':');
    struct stat st;
    if (colon == NULL || colon - spec <= 3 || strncmp(colon - 3, ".nc", 3) != 0 ||
        stat(spec, &st) == 0)
        return NULL;
    return colon + 1;
}

int heat2d_field_load(const char *spec, heat2d_field *field, heat2d_error *err)
{
    if (heat2d_field_is_netcdf(spec))
        return heat2d_netcdf_read(spec, field, err);
    const char *index = bad_record_index(spec);
    if (index != NULL) {
        field->nx = field->ny = 0;
        field->values = NULL;
        return heat2d_fail(err,
                           "%s: bad record index '%s' (FILE.nc:STEP takes a step: digits, "
                           "0 to %zu)",
                           spec, index, (size_t)SIZE_MAX);
    }
    return heat2d_field_read(spec, field, err);
}
