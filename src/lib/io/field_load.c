/* Which reader a field's name asks for: a NetCDF input as netcdf_spec.c
 * parses it (a build without NetCDF refuses it, naming the fix), a bad
 * record index an error, anything else a text field file. */
#include "field_netcdf.h"

#include <string.h>

bool heat2d_field_is_netcdf(const char *spec)
{
    heat2d_netcdf_spec parsed;
    heat2d_error ignored;
    return heat2d_netcdf_spec_parse(spec, &parsed, &ignored) == 1;
}

int heat2d_field_load(const char *spec, heat2d_field *field, heat2d_error *err)
{
    return heat2d_field_load_facts(spec, field, NULL, err);
}

int heat2d_field_load_facts(const char *spec, heat2d_field *field, heat2d_netcdf_facts *facts,
                            heat2d_error *err)
{
    if (facts != NULL)
        memset(facts, 0, sizeof *facts);
    heat2d_netcdf_spec parsed;
    const int kind = heat2d_netcdf_spec_parse(spec, &parsed, err);
    if (kind == 1)
        return heat2d_netcdf_read_facts(spec, field, facts, err);
    if (kind < 0) {
        field->nx = field->ny = 0;
        field->values = NULL;
        return -1;
    }
    return heat2d_field_read(spec, field, err);
}
