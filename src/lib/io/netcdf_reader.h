/* heat2d's NetCDF reader, the part that calls the library: it opens a file
 * from elsewhere, checks every size the file claims (against the file's
 * own size and heat2d's memory limit) before anything is allocated, finds
 * the record asked for, refuses one cut short, and hands the values on in
 * bounded slabs. heat2d runs it in a child process (field_netcdf_isolate.c),
 * so that a file that crashes the library ends that child, not heat2d; the
 * fuzz target runs it in process. */
#ifndef HEAT2D_NETCDF_READER_H
#define HEAT2D_NETCDF_READER_H

#include "field_netcdf.h"

/* Deflate's largest ratio (about 1032:1): a filtered variable's values can
 * take this many times the bytes of the whole file, and no more. */
#define HEAT2D_NC_MAX_RATIO 1032u

/* What is asked of a file. */
typedef struct netcdf_request {
    const char *path; /* the file to open */
    const char *spec; /* the name the user gave (FILE.nc[:VAR][:STEP]), for messages */
    bool record;      /* a record of a series, step `step` */
    size_t step;
    /* heat2d plot's check: the values are read but not kept or held to
     * being finite, and a series named whole has every record checked. */
    bool check_only;
    const char *var; /* the variable (NULL or "": heat2d's u) */
} netcdf_request;

/* Where the values lie in the file when they lie there as they are: one
 * run of nx*ny little-endian IEEE floats of `bytes` bytes each (4 or 8)
 * at `offset`, within the file, not compressed; and the value a cell
 * never written holds. */
typedef struct netcdf_extent {
    uint64_t offset;
    size_t bytes;
    double fill;
} netcdf_extent;

/* Where the values go: shape() once, with the field's sides, before any
 * value; then values() with the next count values (i fastest), until nx*ny
 * have been handed on. Or, when the sink has extent() and the record (or
 * field) is one raw run in the file, extent() instead of values(): the
 * caller reads the run itself (heat2d_nc_check_values then holds it to
 * the reader's checks). A series checked whole calls step() (when given)
 * with each record's step, in order, once the record is checked. Each
 * returns 0, or -1 with err to stop. */
typedef struct netcdf_sink {
    int (*shape)(void *ctx, size_t nx, size_t ny, heat2d_error *err);
    int (*values)(void *ctx, const double *values, size_t count, heat2d_error *err);
    int (*extent)(void *ctx, const netcdf_extent *extent, heat2d_error *err);
    void *ctx;
    int (*step)(void *ctx, size_t step, heat2d_error *err);
    /* What the file says of its run and grid, before shape() (NULL: not
     * wanted). */
    int (*facts)(void *ctx, const heat2d_netcdf_facts *facts, heat2d_error *err);
} netcdf_sink;

/* Reads what req asks into sink: 0, or -1 with one line in err. Not
 * thread-safe (the library is not): one call at a time in a process. */
int heat2d_nc_read_checked(const netcdf_request *req, const netcdf_sink *sink, heat2d_error *err);

/* The reader's checks of values[0..n), cells first_cell onwards of a field
 * nx wide (i fastest): a cell holding the library's fill value was never
 * written (a record or field cut short), one not finite is refused (unless
 * req->check_only). 0, or -1 with the message naming the cell. */
int heat2d_nc_check_values(const netcdf_request *req, const double *values, size_t n, size_t nx,
                           size_t first_cell, double fill, heat2d_error *err);

/* The largest count n for which n * unit bytes fit in `bytes` times
 * `ratio`, without overflow: what a file of `bytes` can hold. */
uint64_t heat2d_nc_capacity(uint64_t bytes, uint64_t ratio, uint64_t unit);

/* ---- the reader's parts (field_netcdf_read.c, netcdf_capacity.c,
 * netcdf_records.c, netcdf_storage.c) ---- */

/* How a variable's values are read: the cells that hold no value, and
 * CF's packing (scale_factor, add_offset), both from its attributes. A
 * signed integer variable with _Unsigned "true" holds unsigned values:
 * each raw value (and each number of the attributes above) below 0 is
 * read as value + 2^bits, as netCDF-Java and Python's netCDF4 read it. */
#define HEAT2D_NC_MAX_MISSING 8
typedef struct netcdf_unpack {
    double fill;        /* what a cell never written holds */
    bool fill_declared; /* fill is the variable's own _FillValue: a missing value */
    bool fill_checked;  /* cells equal to fill are refused (floats, or a declared fill) */
    double missing[HEAT2D_NC_MAX_MISSING]; /* missing_value's numbers */
    size_t n_missing;
    /* valid_range (range), else valid_min and valid_max: a raw value
     * outside them is a missing value (-inf and inf when not given). */
    double valid_min, valid_max;
    bool range, ranged;    /* valid_range given; any of the three given */
    double unsigned_shift; /* 2^bits under _Unsigned "true", else 0 */
    double scale, offset;
    bool packed; /* scale_factor or add_offset given: value * scale + offset */
} netcdf_unpack;

/* The library's fill value for an nc_type, as a double: what a value (or a
 * step) never written reads as when the variable declares none. */
double heat2d_nc_default_fill(int type);

/* An open file and what its field variable claims, each size checked. */
typedef struct netcdf_file {
    int ncid, var;
    const char *path;
    const char *name; /* the variable's: u, or the one the request names */
    int ndims;        /* 2: a field (y, x); 3: a series (time, y, x) */
    size_t records;   /* of a series: the length of its first dimension */
    size_t ny, nx;
    bool transposed;     /* its dimensions are (x, y): x varies slowest */
    int dim_x, dim_y;    /* its x and y dimensions' ids */
    bool flip_x, flip_y; /* a side stored in descending order, read reversed */
    char dims[1100];     /* its dimensions, "(time, y, x)", for messages */
    size_t elem;         /* bytes of one of its values in the file */
    uint64_t bytes;      /* the file's size */
    bool netcdf4;        /* an HDF5 file, whose storage says what was written */
    bool filtered;       /* compressed (or otherwise filtered) */
    bool no_fill;        /* its cells are not filled before they are written */
    netcdf_unpack unpack;
} netcdf_file;

/* What the open file says of the run that wrote it (heat2d's attributes,
 * its field's type, a series' time units) and of its grid (netcdf_grid.c:
 * f->flip_x and f->flip_y set): 0, or -1 with err for coordinates heat2d
 * cannot honour. */
int heat2d_nc_facts(netcdf_file *f, heat2d_netcdf_facts *facts, heat2d_error *err);

/* The grid the field's coordinate variables give, into facts->spacing and
 * f->flip_x, f->flip_y (netcdf_grid.c): 0, or -1 with err naming what
 * heat2d cannot honour. */
int heat2d_nc_grid(netcdf_file *f, heat2d_netcdf_facts *facts, heat2d_error *err);

/* Whether variable var is compressed or otherwise filtered: its values
 * may then take up to HEAT2D_NC_MAX_RATIO times the file's bytes. */
bool heat2d_nc_filtered(const netcdf_file *f, int var);

/* A series' step variable checked (one dimension: the variable's first,
 * numbers) and its record count against the file's size, in O(1): 0, or -1
 * with err. */
int heat2d_nc_check_series(const netcdf_file *f, heat2d_error *err);

/* The record of step `want`, the steps read in bounded slabs (the series
 * checked first; steps that do not increase, a step twice among them, are
 * refused): 0 with *record, or -1 with err. */
int heat2d_nc_find_record(const netcdf_file *f, size_t want, size_t *record, heat2d_error *err);

/* Every record whose step is set held to having been written, and its
 * step handed to sink->step (heat2d plot's check of a series named whole;
 * the series checked first). */
int heat2d_nc_check_records(const netcdf_file *f, const netcdf_sink *sink, heat2d_error *err);

/* Whether u's storage for a record (a series) or the whole field was ever
 * written, from HDF5's own index of a NetCDF-4 file: 0 when it was, else -1
 * with err saying it was cut short, or why that cannot be told. A file of
 * the classic formats has no such index: 0. Open once, ask per record. */
typedef struct netcdf_storage netcdf_storage;
int heat2d_nc_storage_open(netcdf_storage **storage, const netcdf_file *f, heat2d_error *err);
int heat2d_nc_storage_written(netcdf_storage *storage, size_t record, size_t step,
                              heat2d_error *err);
/* Whether the record's (or field's) values, written, are one raw run in
 * the file (netcdf_extent; its fill not set): an uncompressed NetCDF-4
 * field stored whole, or a series' record one chunk, of little-endian
 * floats on a little-endian host. */
bool heat2d_nc_storage_extent(netcdf_storage *storage, size_t record, netcdf_extent *extent);
void heat2d_nc_storage_close(netcdf_storage *storage);

#endif
