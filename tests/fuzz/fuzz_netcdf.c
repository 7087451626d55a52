/* Fuzz target: heat2d's NetCDF reader (netcdf_reader.h), on the bytes of a
 * .nc file: a field read (FILE.nc), a record read (FILE.nc:2), heat2d
 * plot's check of the file whole (a series' every record) and a read of
 * another variable (FILE.nc:h): each variable's dimensions read by name,
 * (y, x) or (x, y), its packing, fill and missing values applied. Each is done
 * as heat2d does it, the library in a child process (heat2d_netcdf_read,
 * heat2d_netcdf_check), then again in this process, where the sanitizers
 * and the coverage see the checking code that the child runs.
 *
 * A file on which the library crashes or hangs is heat2d's "not a valid
 * NetCDF file" (its child's end), and cannot be read again in this
 * process: the crash would be the library's own, which heat2d's child is
 * there to contain. It is read again in a child of this one instead, whose
 * end says whose code failed: a fault, or a sanitizer's report, with the
 * NetCDF library or HDF5 on the stack is theirs, one without is heat2d's
 * code (a finding). So the
 * target covers heat2d's code, the child's protocol and the parent's
 * checks; the library it runs, but does not hold to account.
 *
 * Structure-aware: a custom mutator changes the counts a header claims
 * (a classic header's record count and dimension lengths, 8- and 4-byte
 * words of an HDF5 file's metadata) to values at the edges (0, 2^27, 2^31,
 * 2^61, ...), besides libFuzzer's own mutations; netcdf.dict holds the
 * formats' tokens.
 *
 * Properties: no crash, no undefined behaviour, no leak in heat2d's code;
 * in process and in the child the answer is the same (the same values, or
 * the same one-line refusal), though heat2d reads a raw run of floats
 * itself where the child points at one, and the in-process read takes
 * every value through the library; a success has a shape of at least 5x5
 * and only finite values. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "netcdf_reader.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#ifdef FUZZ_ASAN
/* The sanitizer runtime's: who dies how, and where a report points. */
void __sanitizer_set_death_callback(void (*callback)(void));
void *__asan_get_report_pc(void);
#endif

/* The library's own leaks on a file it refuses are not heat2d's, and are
 * not listed at each exit of a child. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libhdf5\nleak:libnetcdf\n";
}
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}

/* A child's exit status for a fault in heat2d's code. */
#define OURS 86

static char folder[64];
static char path[96];

static void remove_folder(void)
{
    unlink(path);
    rmdir(folder);
}

/* Whether the NetCDF library or HDF5 is on this thread's stack: a death
 * there is theirs (heat2d's reader calls into them and into libc alone,
 * and they call nothing of heat2d's back), a death with neither on the
 * stack is heat2d's. */
static bool library_on_stack(void)
{
    void *frames[128];
    const int n = backtrace(frames, 128);
    for (int k = 0; k < n; ++k) {
        Dl_info info;
        if (dladdr(frames[k], &info) != 0 && info.dli_fname != NULL &&
            (strstr(info.dli_fname, "netcdf") != NULL || strstr(info.dli_fname, "hdf5") != NULL))
            return true;
    }
    return false;
}

static void on_fault(int sig)
{
    (void)sig;
    _exit(library_on_stack() ? 0 : OURS);
}

#ifdef FUZZ_ASAN
/* A sanitizer's report (the library is not instrumented: one from its
 * code is an interceptor's, on memcpy, free and the like). */
static void on_report(void)
{
    _exit(library_on_stack() ? 0 : OURS);
}
#endif

/* In every child (heat2d's reader's too): no crash report of libFuzzer's,
 * whose state the child copied. */
static void forget_death_callback(void)
{
#ifdef FUZZ_ASAN
    __sanitizer_set_death_callback(NULL);
#endif
}

static int discard_shape(void *ctx, size_t nx, size_t ny, heat2d_error *err)
{
    (void)ctx;
    (void)nx;
    (void)ny;
    (void)err;
    return 0;
}

static int discard_values(void *ctx, const double *values, size_t count, heat2d_error *err)
{
    (void)ctx;
    (void)values;
    (void)count;
    (void)err;
    return 0;
}

/* The reader again, in a child of this process, on a file the library
 * crashed or hung on in heat2d's: a finding when heat2d's code failed. The
 * child's words go to a file, shown only then. */
static void expect_library_failure(const char *spec, bool record, bool check_only, const char *var)
{
    char log[128];
    snprintf(log, sizeof log, "%s/child.log", folder);
    fflush(NULL);
    const pid_t pid = fork();
    FUZZ_REQUIRE(pid >= 0);
    if (pid == 0) {
        const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0)
            dup2(fd, STDERR_FILENO);
        const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
        for (size_t k = 0; k < sizeof faults / sizeof *faults; ++k)
            signal(faults[k], on_fault);
        signal(SIGALRM, SIG_DFL);
        alarm(2); /* a hang is the library's: heat2d's own loops are bounded */
#ifdef FUZZ_ASAN
        __sanitizer_set_death_callback(on_report);
#endif
        const netcdf_sink sink = {discard_shape, discard_values, NULL, NULL, NULL, NULL};
        const netcdf_request req = {path, spec, record, 2, check_only, var};
        heat2d_error err;
        heat2d_nc_read_checked(&req, &sink, &err);
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        FUZZ_REQUIRE(errno == EINTR);
    if (WIFEXITED(status) && WEXITSTATUS(status) == OURS) {
        FILE *f = fopen(log, "r");
        char line[512];
        while (f != NULL && fgets(line, sizeof line, f) != NULL)
            fputs(line, stderr);
        if (f != NULL)
            fclose(f);
    }
    unlink(log);
    FUZZ_REQUIRE(!(WIFEXITED(status) && WEXITSTATUS(status) == OURS));
}

/* The input as the file folder/f.nc. */
static int write_input(const uint8_t *data, size_t size)
{
    if (folder[0] == '\0') {
        snprintf(folder, sizeof folder, "/tmp/fuzz-netcdf-XXXXXX");
        FUZZ_REQUIRE(mkdtemp(folder) != NULL);
        snprintf(path, sizeof path, "%s/f.nc", folder);
        atexit(remove_folder);
        pthread_atfork(NULL, NULL, forget_death_callback);
        /* A file the library loops on ends the child in seconds. */
        setenv("HEAT2D_NETCDF_TIMEOUT", "1", 0);
    }
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FUZZ_REQUIRE(fd >= 0);
    const bool whole = size == 0 || write(fd, data, size) == (ssize_t)size;
    close(fd);
    return whole ? 0 : -1;
}

/* In process: the values kept, as heat2d_netcdf_read keeps them. */
typedef struct kept {
    heat2d_field field;
    size_t filled;
} kept;

static int keep_shape(void *ctx, size_t nx, size_t ny, heat2d_error *err)
{
    kept *k = ctx;
    FUZZ_REQUIRE(k->field.values == NULL);
    k->field.nx = nx;
    k->field.ny = ny;
    k->field.values = malloc(nx * ny * sizeof(double));
    return k->field.values != NULL ? 0 : heat2d_fail(err, "out of memory");
}

static int keep_values(void *ctx, const double *values, size_t count, heat2d_error *err)
{
    (void)err;
    kept *k = ctx;
    FUZZ_REQUIRE(k->field.values != NULL && count <= k->field.nx * k->field.ny - k->filled);
    memcpy(k->field.values + k->filled, values, count * sizeof *values);
    k->filled += count;
    return 0;
}

/* spec as heat2d reads it (in a child), then in process: the same answer.
 * false when the library crashed or hung in the child. */
static bool read_both(const char *spec, bool record, bool check_only, const char *var)
{
    heat2d_field isolated = {0, 0, NULL};
    heat2d_error isolated_err = {{0}};
    /* What the library says as it dies in heat2d's child is not shown. */
    fflush(stderr);
    const int saved = dup(STDERR_FILENO), quiet = open("/dev/null", O_WRONLY);
    dup2(quiet, STDERR_FILENO);
    const int isolated_rc = check_only ? heat2d_netcdf_check(spec, &isolated_err)
                                       : heat2d_netcdf_read(spec, &isolated, &isolated_err);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(quiet);
    if (isolated_rc != 0) {
        FUZZ_REQUIRE(isolated_rc == -1 && fuzz_one_line(isolated_err.message));
        FUZZ_REQUIRE(isolated.values == NULL);
        if (strstr(isolated_err.message, "not a valid NetCDF file") != NULL) {
            expect_library_failure(spec, record, check_only, var);
            return false;
        }
    }
    kept k = {{0, 0, NULL}, 0};
    const netcdf_sink sink = {keep_shape, keep_values, NULL, &k, NULL, NULL};
    const netcdf_request req = {path, spec, record, 2, check_only, var};
    heat2d_error err = {{0}};
    const int rc = heat2d_nc_read_checked(&req, &sink, &err);
    FUZZ_REQUIRE(rc == isolated_rc);
    if (rc != 0) {
        FUZZ_REQUIRE(strcmp(err.message, isolated_err.message) == 0);
    } else if (k.field.values != NULL || !check_only) {
        /* (A series checked whole hands on no values.) */
        FUZZ_REQUIRE(k.field.nx >= HEAT2D_MIN_SIDE && k.field.ny >= HEAT2D_MIN_SIDE);
        FUZZ_REQUIRE(k.filled == k.field.nx * k.field.ny);
        for (size_t c = 0; !check_only && c < k.filled; ++c)
            FUZZ_REQUIRE(isfinite(k.field.values[c]));
    }
    if (rc == 0 && !check_only) {
        FUZZ_REQUIRE(isolated.nx == k.field.nx && isolated.ny == k.field.ny);
        FUZZ_REQUIRE(memcmp(isolated.values, k.field.values, k.filled * sizeof(double)) == 0);
    }
    heat2d_field_free(&isolated);
    heat2d_field_free(&k.field);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (write_input(data, size) != 0)
        return 0;
    char record[128], named[128];
    snprintf(record, sizeof record, "%s:2", path);
    snprintf(named, sizeof named, "%s:h", path);
    /* A file the library crashes on is not opened again. */
    (void)(read_both(path, false, false, NULL) && read_both(record, true, false, NULL) &&
           read_both(path, false, true, NULL) && read_both(named, false, false, "h"));
    return 0;
}

#ifdef HEAT2D_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* Counts at the edges of what a reader must refuse or take. */
static const uint64_t edges[] = {0,          1,          2,          5,          0x7f,
                                 0xff,       0x7fff,     0xffff,     1u << 27,   0x7fffffff,
                                 0x80000000, 0xffffffff, 1ull << 32, 1ull << 61, INT64_MAX,
                                 UINT64_MAX, 4096,       1ull << 40, 0x10000,    7};

static void put_be(uint8_t *at, uint64_t value, int bytes)
{
    for (int k = bytes - 1; k >= 0; --k, value >>= 8)
        at[k] = (uint8_t)value;
}

static void put_le(uint8_t *at, uint64_t value, int bytes)
{
    for (int k = 0; k < bytes; ++k, value >>= 8)
        at[k] = (uint8_t)value;
}

static uint64_t get_be(const uint8_t *at, int bytes)
{
    uint64_t value = 0;
    for (int k = 0; k < bytes; ++k)
        value = value << 8 | at[k];
    return value;
}

/* A classic header's record count, or the length of one of its
 * dimensions (picked by seed), set to an edge. */
static void mutate_classic(uint8_t *data, size_t size, unsigned seed)
{
    const int word = data[3] == 5 ? 8 : 4; /* CDF5's counts are 64-bit */
    size_t at = 4;
    if (seed % 3 == 0 || size < at + word + 4 + word) {
        put_be(data + at, edges[seed / 3 % (sizeof edges / sizeof *edges)], word);
        return;
    }
    at += word + 4; /* past the record count and the NC_DIMENSION tag */
    const uint64_t dims = get_be(data + at, word);
    at += word;
    const uint64_t pick = dims ? seed / 3 % dims : 0;
    for (uint64_t d = 0; d <= pick && at + word <= size; ++d) {
        const uint64_t name = get_be(data + at, word);
        if (name > size)
            return;
        at += word + (name + 3) / 4 * 4;
        if (at + word > size)
            return;
        if (d == pick)
            put_be(data + at, edges[seed / 7 % (sizeof edges / sizeof *edges)], word);
        at += word;
    }
}

/* An aligned 4- or 8-byte word of an HDF5 file's metadata (its first
 * 16 KiB, where the superblock, object headers and indexes are) set to an
 * edge. */
static void mutate_hdf5(uint8_t *data, size_t size, unsigned seed)
{
    const size_t span = size < 16384 ? size : 16384;
    const int word = seed & 1 ? 8 : 4;
    if (span < (size_t)word)
        return;
    const size_t at = (seed >> 1) % (span / word) * word;
    put_le(data + at, edges[(seed >> 5) % (sizeof edges / sizeof *edges)], word);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned seed)
{
    if (seed % 3 == 0 || size < 16)
        return LLVMFuzzerMutate(data, size, max_size);
    if (memcmp(data, "CDF", 3) == 0)
        mutate_classic(data, size, seed / 3);
    else if (memcmp(data, "\x89HDF\r\n\x1a\n", 8) == 0)
        mutate_hdf5(data, size, seed / 3);
    else
        return LLVMFuzzerMutate(data, size, max_size);
    return size;
}
#endif
