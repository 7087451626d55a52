/* Which reader a field's name asks for: "FILE.nc" and "FILE.nc:STEP" are
 * NetCDF (a build without it refuses them, naming the fix), anything else
 * is a text field file. */
#include "field_netcdf.h"

#include <string.h>

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

int heat2d_field_load(const char *spec, heat2d_field *field, heat2d_error *err)
{
    if (heat2d_field_is_netcdf(spec))
        return heat2d_netcdf_read(spec, field, err);
    return heat2d_field_read(spec, field, err);
}
