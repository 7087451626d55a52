/* A series' records (netcdf_reader.h): the step variable checked to be
 * heat2d's (one dimension, the field variable's first), the record count
 * checked against the file's size before anything is read, then the steps
 * read in bounded slabs. A record whose step is unset (the step variable's
 * fill value: its _FillValue, else the library's) is one a killed run cut
 * short, and is passed over; the steps set must increase and stay within
 * 2^53, so that a step names one record. */
#define _POSIX_C_SOURCE 200809L
#include "netcdf_reader.h"
#include "netcdf_schema.h"

#include <netcdf.h>
#include <stdlib.h>

/* Steps read at a time (512 KiB). */
#define STEP_SLAB ((size_t)1 << 16)

/* The step variable: its id, once checked to lie on the field variable's
 * record dimension alone and to hold numbers. */
static int step_variable(const netcdf_file *f, int *var, heat2d_error *err)
{
    if (nc_inq_varid(f->ncid, HEAT2D_NC_STEP, var) != NC_NOERR)
        return heat2d_fail(err,
                           "%s: '%s' has dimensions %s and the file no '%s' variable: not a field "
                           "(y, x) or (x, y), nor a heat2d series",
                           f->path, f->name, f->dims, HEAT2D_NC_STEP);
    int ndims = 0, step_dim = -1, u_dims[NC_MAX_VAR_DIMS];
    nc_type type = NC_NAT;
    size_t size = 0;
    if (nc_inq_varndims(f->ncid, *var, &ndims) != NC_NOERR || ndims != 1)
        return heat2d_fail(err, "%s: '%s' has %d dimensions, not one (%s's records): not heat2d's",
                           f->path, HEAT2D_NC_STEP, ndims, f->name);
    if (nc_inq_vardimid(f->ncid, *var, &step_dim) != NC_NOERR ||
        nc_inq_vardimid(f->ncid, f->var, u_dims) != NC_NOERR || step_dim != u_dims[0]) {
        char name[NC_MAX_NAME + 1] = "?", records[NC_MAX_NAME + 1] = "?";
        nc_inq_dimname(f->ncid, step_dim, name);
        nc_inq_dimname(f->ncid, u_dims[0], records);
        return heat2d_fail(err,
                           "%s: '%s' lies on dimension '%s', not on %s's records ('%s'): "
                           "not heat2d's",
                           f->path, HEAT2D_NC_STEP, name, f->name, records);
    }
    if (nc_inq_vartype(f->ncid, *var, &type) != NC_NOERR || type < NC_BYTE || type == NC_CHAR ||
        type > NC_UINT64 || nc_inq_type(f->ncid, type, NULL, &size) != NC_NOERR || size == 0)
        return heat2d_fail(err, "%s: '%s' does not hold numbers (type %d)", f->path, HEAT2D_NC_STEP,
                           (int)type);
    return 0;
}

/* The record count against the file's size, in O(1): each record takes
 * its field in a classic file, and at least its step in a NetCDF-4 one
 * (whose unwritten chunks take nothing, so that one step far out claims
 * any count). */
static int check_count(const netcdf_file *f, int step_var, heat2d_error *err)
{
    nc_type type;
    size_t step_bytes = 8;
    if (nc_inq_vartype(f->ncid, step_var, &type) == NC_NOERR)
        nc_inq_type(f->ncid, type, NULL, &step_bytes);
    const bool step_filtered = heat2d_nc_filtered(f, step_var);
    const uint64_t room =
        f->netcdf4
            ? heat2d_nc_capacity(f->bytes, step_filtered ? HEAT2D_NC_MAX_RATIO : 1, step_bytes)
            : heat2d_nc_capacity(f->bytes, 1, (uint64_t)f->nx * f->ny * f->elem);
    if ((uint64_t)f->records > room)
        return heat2d_fail(err,
                           "%s claims %zu records, more than its %llu bytes can hold (a damaged "
                           "or forged header)",
                           f->path, f->records, (unsigned long long)f->bytes);
    return 0;
}

/* The step variable's fill: its own _FillValue, else the library's for its
 * type. A step that holds it was never set (or, by CF, holds no value). */
static double step_fill(const netcdf_file *f, int var)
{
    nc_type type = NC_NAT, att_type = NC_NAT;
    size_t len = 0;
    double fill;
    nc_inq_vartype(f->ncid, var, &type);
    if (nc_inq_att(f->ncid, var, "_FillValue", &att_type, &len) == NC_NOERR && len == 1 &&
        att_type != NC_CHAR && att_type >= NC_BYTE && att_type <= NC_UINT64 &&
        nc_get_att_double(f->ncid, var, "_FillValue", &fill) == NC_NOERR)
        return fill;
    return heat2d_nc_default_fill(type);
}

/* Whether a step read back is one a run wrote (0: the initial state): the
 * step variable's fill is not, nor a negative step or a NaN. */
static bool step_set(double step, double fill)
{
    return step >= 0 && step != fill;
}

/* Past 2^53 a double no longer holds every step: two steps would read as
 * one, and a step asked for would match its neighbour's record. */
#define MAX_STEP 9007199254740992.0

/* Calls visit(ctx, record, step) for each record whose step is set, in
 * order, reading the steps STEP_SLAB at a time; stops at visit's -1. */
typedef int (*step_visit)(void *ctx, size_t record, double step, heat2d_error *err);

int heat2d_nc_check_series(const netcdf_file *f, heat2d_error *err)
{
    int var;
    return step_variable(f, &var, err) == 0 && check_count(f, var, err) == 0 ? 0 : -1;
}

/* The steps set must increase: a step twice, or one below the one before,
 * would leave a step naming no record, or two. */
static int in_order(const netcdf_file *f, size_t record, double step, size_t *last_record,
                    double *last, heat2d_error *err)
{
    if (*last >= 0 && step <= *last)
        return step == *last ? heat2d_fail(err, "%s holds step %.0f twice (records %zu and %zu)",
                                           f->path, step, *last_record, record)
                             : heat2d_fail(err,
                                           "%s holds its steps out of order (step %.0f in record "
                                           "%zu after step %.0f in record %zu)",
                                           f->path, step, record, *last, *last_record);
    *last = step;
    *last_record = record;
    return 0;
}

static int each_step(const netcdf_file *f, step_visit visit, void *ctx, heat2d_error *err)
{
    int var;
    if (step_variable(f, &var, err) != 0)
        return -1;
    double *steps =
        malloc((f->records < STEP_SLAB && f->records > 0 ? f->records : STEP_SLAB) * sizeof *steps);
    if (steps == NULL)
        return heat2d_fail(err, "%s: cannot allocate a slab of steps", f->path);
    int rc = 0;
    double last = -1;
    size_t last_record = 0;
    const double fill = step_fill(f, var);
    for (size_t first = 0; rc == 0 && first < f->records; first += STEP_SLAB) {
        const size_t count = f->records - first < STEP_SLAB ? f->records - first : STEP_SLAB;
        const int status = nc_get_vara_double(f->ncid, var, &first, &count, steps);
        /* NC_ERANGE: a step too large for a double's range, which the
         * check below refuses. */
        if (status != NC_NOERR && status != NC_ERANGE) {
            rc = heat2d_fail(err, "cannot read field file '%s': %s", f->path, nc_strerror(status));
            break;
        }
        for (size_t r = 0; rc == 0 && r < count; ++r) {
            if (!step_set(steps[r], fill))
                continue;
            if (steps[r] > MAX_STEP)
                rc = heat2d_fail(err,
                                 "%s: record %zu holds step %.0f, past 2^53 (%.0f), where steps "
                                 "are no longer told apart: not heat2d's",
                                 f->path, first + r, steps[r], MAX_STEP);
            else if (in_order(f, first + r, steps[r], &last_record, &last, err) == 0)
                rc = visit(ctx, first + r, steps[r], err);
            else
                rc = -1;
        }
    }
    free(steps);
    return rc;
}

typedef struct search {
    double want;
    size_t record, whole;
    double first, last;
    bool found;
} search;

static int match(void *ctx, size_t record, double step, heat2d_error *err)
{
    (void)err;
    search *s = ctx;
    s->first = s->whole++ == 0 ? step : s->first;
    s->last = step;
    if (step == s->want) {
        s->record = record;
        s->found = true;
    }
    return 0;
}

int heat2d_nc_find_record(const netcdf_file *f, size_t want, size_t *record, heat2d_error *err)
{
    search s = {.want = (double)want};
    if (each_step(f, match, &s, err) != 0)
        return -1;
    /* A step past 2^53 would match its neighbours as a double. */
    if (s.found && want <= ((size_t)1 << 53)) {
        *record = s.record;
        return 0;
    }
    if (s.whole == 0)
        return heat2d_fail(err, "%s holds no record of step %zu (it holds no records)", f->path,
                           want);
    return heat2d_fail(err, "%s holds no record of step %zu (%zu records, steps %.0f to %.0f)",
                       f->path, want, s.whole, s.first, s.last);
}

typedef struct record_check {
    netcdf_storage *storage;
    const netcdf_sink *sink;
} record_check;

static int check_written(void *ctx, size_t record, double step, heat2d_error *err)
{
    const record_check *c = ctx;
    if (heat2d_nc_storage_written(c->storage, record, (size_t)step, err) != 0)
        return -1;
    return c->sink != NULL && c->sink->step != NULL ? c->sink->step(c->sink->ctx, (size_t)step, err)
                                                    : 0;
}

int heat2d_nc_check_records(const netcdf_file *f, const netcdf_sink *sink, heat2d_error *err)
{
    record_check c = {NULL, sink};
    if (heat2d_nc_storage_open(&c.storage, f, err) != 0)
        return -1;
    const int rc = each_step(f, check_written, &c, err);
    heat2d_nc_storage_close(c.storage);
    return rc;
}
