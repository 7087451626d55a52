/* A series a run appends to (netcdf_append.h): what it must be, checked in
 * the writer's process once the isolated reader has read it whole under
 * the writer's lock, and what the append changes in its header at the end
 * (its records are only ever added after the last). */
#define _POSIX_C_SOURCE 200809L
#include "netcdf_append.h"
#include "heat2d_time_units.h"

#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Text attribute name of var (at most size - 1 bytes) into text: false
 * when there is none, or it is not text, or longer. */
static bool text_att(int ncid, int var, const char *name, char *text, size_t size)
{
    nc_type type;
    size_t len = 0;
    if (nc_inq_att(ncid, var, name, &type, &len) != NC_NOERR || type != NC_CHAR || len >= size ||
        nc_get_att_text(ncid, var, name, text) != NC_NOERR)
        return false;
    text[len] = '\0';
    return true;
}

/* A number attribute of the file (0 when it has none). */
static double number_att(int ncid, const char *name)
{
    nc_type type;
    size_t len = 0;
    double value = 0.0;
    if (nc_inq_att(ncid, NC_GLOBAL, name, &type, &len) != NC_NOERR || len != 1 || type == NC_CHAR ||
        type > NC_UINT64 || nc_get_att_double(ncid, NC_GLOBAL, name, &value) != NC_NOERR)
        return 0.0;
    return value;
}

/* The variables of heat2d's series, by name, as heat2d defines them. */
static int find_ids(int ncid, const heat2d_netcdf_meta *meta, const char *path, netcdf_ids *ids,
                    heat2d_error *err)
{
    int ndims = 0, dims[3];
    size_t len[3] = {0, 0, 0};
    nc_type field_type = NC_NAT, step_type = NC_NAT, time_type = NC_NAT;
    char units[128] = "";
    ids->ncid = ncid;
    if (nc_inq_varid(ncid, HEAT2D_NC_FIELD, &ids->field) != NC_NOERR ||
        nc_inq_varid(ncid, HEAT2D_NC_STEP, &ids->step) != NC_NOERR ||
        nc_inq_varid(ncid, HEAT2D_NC_TIME, &ids->time) != NC_NOERR ||
        nc_inq_varndims(ncid, ids->field, &ndims) != NC_NOERR || ndims != 3 ||
        nc_inq_vardimid(ncid, ids->field, dims) != NC_NOERR)
        return heat2d_fail(err, "--append %s: not a heat2d series (u(time, y, x), step, time)",
                           path);
    for (int k = 0; k < 3; ++k)
        nc_inq_dimlen(ncid, dims[k], &len[k]);
    nc_inq_vartype(ncid, ids->field, &field_type);
    nc_inq_vartype(ncid, ids->step, &step_type);
    nc_inq_vartype(ncid, ids->time, &time_type);
    if (step_type != NC_INT)
        return heat2d_fail(err,
                           "--append %s: its step is not a 32-bit integer (a series of an older "
                           "heat2d, or rewritten): continue it into a new series",
                           path);
    /* Time units equal under udunits are one ("seconds since 1970-01-01"
     * is heat2d's, as xarray writes it back). */
    double unit_s, origin_s;
    if (!text_att(ncid, ids->time, "units", units, sizeof units) ||
        heat2d_time_units_parse(units, &unit_s, &origin_s) != 0 ||
        (time_type != NC_DOUBLE && time_type != NC_FLOAT))
        return heat2d_fail(err,
                           "--append %s: its time is not in real numbers of a CF time unit "
                           "(\"UNIT since DATE\"): continue it into a new series",
                           path);
    if (!heat2d_time_units_equal(units, heat2d_nc_time_units(meta)))
        return heat2d_fail(err,
                           "--append %s: its time is in \"%s\", the run's in \"%s\": continue "
                           "it into a new series",
                           path, units, heat2d_nc_time_units(meta));
    if (len[1] != meta->ny || len[2] != meta->nx)
        return heat2d_fail(err, "--append %s: the series is %zux%zu, the run %zux%zu", path, len[2],
                           len[1], meta->nx, meta->ny);
    const nc_type want = meta->precision == HEAT2D_F32 ? NC_FLOAT : NC_DOUBLE;
    if (field_type != want)
        return heat2d_fail(err, "--append %s: the series holds %s, the run computes in %s", path,
                           field_type == NC_FLOAT ? "f32" : "f64",
                           heat2d_precision_name(meta->precision));
    return 0;
}

/* The run's alpha, dx and dt against the series' own, bit for bit. */
static int same_physics(int ncid, const heat2d_netcdf_meta *meta, const char *path,
                        heat2d_error *err)
{
    const struct {
        const char *name, *option;
        double mine;
    } keys[] = {
        {"alpha", "--alpha", meta->alpha}, {"dx", "--dx", meta->dx}, {"dt", "--dt", meta->dt}};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; ++k) {
        const double theirs = number_att(ncid, keys[k].name);
        if (theirs == keys[k].mine)
            continue;
        char a[32] = "none", b[32] = "none";
        if (theirs != 0.0)
            snprintf(a, sizeof a, "%.17g", theirs);
        if (keys[k].mine != 0.0)
            snprintf(b, sizeof b, "%.17g", keys[k].mine);
        return heat2d_fail(err, "--append %s: the series has %s = %s, the run %s: give the same %s",
                           path, keys[k].name, a, b, keys[k].option);
    }
    return 0;
}

int heat2d_nc_append_check(int ncid, const heat2d_netcdf_meta *meta, size_t from, const char *path,
                           netcdf_ids *ids, size_t *records, heat2d_error *err)
{
    char text[64] = "";
    if (!text_att(ncid, NC_GLOBAL, "source", text, sizeof text) || strncmp(text, "heat2d ", 7) != 0)
        return heat2d_fail(err, "--append %s: not a series heat2d wrote", path);
    if (!text_att(ncid, NC_GLOBAL, "complete", text, sizeof text) || strcmp(text, "true") != 0)
        return heat2d_fail(err,
                           "--append %s: the series is not complete (the run writing it stopped "
                           "early): continue it into a new series instead",
                           path);
    if (find_ids(ncid, meta, path, ids, err) != 0 || same_physics(ncid, meta, path, err) != 0)
        return -1;
    int dim_t;
    int last = -1;
    size_t n = 0;
    if (nc_inq_vardimid(ncid, ids->step, &dim_t) != NC_NOERR ||
        nc_inq_dimlen(ncid, dim_t, &n) != NC_NOERR || n == 0)
        return heat2d_fail(err, "--append %s: the series holds no record", path);
    const size_t at = n - 1;
    if (nc_get_var1_int(ncid, ids->step, &at, &last) != NC_NOERR || last < 0 ||
        (size_t)last != from)
        return heat2d_fail(err,
                           "--append %s: the series ends at step %d, the run starts at step %zu: "
                           "append from its last record (--initial %s:%d)",
                           path, last, from, path, last);
    *records = n;
    return 0;
}

int heat2d_nc_append_finish(int ncid, const heat2d_netcdf_meta *meta)
{
    /* Counts an older heat2d kept that the records say: gone, not stale. */
    static const char *const stale[] = {"steps", "nx", "ny"};
    int status = NC_NOERR;
    for (size_t k = 0; k < sizeof stale / sizeof *stale && status == NC_NOERR; ++k)
        if (nc_inq_attid(ncid, NC_GLOBAL, stale[k], NULL) == NC_NOERR)
            status = nc_del_att(ncid, NC_GLOBAL, stale[k]);
    int format = 0;
    size_t len = 0;
    /* A classic header has room for a flag, not for a longer history. */
    if (status != NC_NOERR || nc_inq_format(ncid, &format) != NC_NOERR ||
        format != NC_FORMAT_NETCDF4 ||
        nc_inq_attlen(ncid, NC_GLOBAL, "history", &len) != NC_NOERR || len > 65536)
        return status;
    char when[32] = "";
    const time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc) != NULL)
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
    const size_t room = len + strlen(when) + strlen(meta->version) +
                        (meta->command_line ? strlen(meta->command_line) : 0) + 32;
    char *history = malloc(room);
    if (history == NULL)
        return NC_ENOMEM;
    int n = snprintf(history, room, "%s: heat2d %s: %s\n", when, meta->version,
                     meta->command_line ? meta->command_line : "");
    status = nc_get_att_text(ncid, NC_GLOBAL, "history", history + n);
    if (status == NC_NOERR)
        status = nc_put_att_text(ncid, NC_GLOBAL, "history", (size_t)n + len, history);
    free(history);
    return status;
}
