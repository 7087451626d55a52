/* Ranks agree on what they run before any of them waits for another: an
 * MPMD launch (mpirun -np 1 heat2d run ... : -np 1 heat2d run --steps 7)
 * gives ranks different settings, and ranks that disagree on the grid or
 * the step count post halo exchanges that never match and wait forever;
 * rank 0 alone writes, so another rank's --save, --save-every,
 * --snapshot-writer or --force would silently go unheeded, and its --dx or
 * --dt would label rank 0's files wrongly. Three collectives of fixed size, right after MPI
 * starts, which every rank of a distributed method reaches; each rank finds the same first
 * difference, so that all refuse together and rank 0 says why. */
#include "mpi_common.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* In the order a difference is named. */
enum {
    S_NX,
    S_NY,
    S_STEPS,
    S_ALPHA, /* the double's bits, as dx and dt's (0: not given) */
    S_DX,
    S_DT,
    S_METHOD,
    S_PRECISION,
    S_HALO_DEPTH,
    S_OUTPUT_EVERY,
    S_SNAPSHOT_COPY,
    S_SNAPSHOT_FILES, /* a snapshot handler (--save-every, the check) or none */
    S_SAVE,           /* what rank 0 alone writes: the paths' hashes, */
    S_SAVE_EVERY,     /* 0 when not given */
    S_SNAPSHOT_WRITER,
    S_FORCE,
    N_SETTINGS
};

/* Room for a path in a difference's line; a longer one is cut there (its
 * hash tells it apart all the same). */
#define PATH_ROOM 160

typedef struct rank_settings {
    uint64_t v[N_SETTINGS];
    char method[32];
    char save[PATH_ROOM];
    char save_every[PATH_ROOM];
} rank_settings;

/* A path as a number that differs where the paths do (FNV-1a), never 0,
 * which stands for none; and as much of it as the line has room for. */
static uint64_t path_setting(const char *path, char *text, size_t size)
{
    if (path == NULL)
        return 0;
    uint64_t hash = 14695981039346656037ULL;
    for (const char *c = path; *c != '\0'; ++c)
        hash = (hash ^ (unsigned char)*c) * 1099511628211ULL;
    const size_t len = strlen(path);
    if (len < size)
        snprintf(text, size, "%s", path);
    else
        snprintf(text, size, "%.*s...", (int)(size - 4), path);
    return hash | 1;
}

static rank_settings settings_of(const char *who, const heat2d_config *cfg)
{
    rank_settings s;
    memset(&s, 0, sizeof s); /* padding too: the bytes are compared */
    s.v[S_NX] = cfg->nx;
    s.v[S_NY] = cfg->ny;
    s.v[S_STEPS] = cfg->steps;
    memcpy(&s.v[S_ALPHA], &cfg->alpha, sizeof cfg->alpha);
    memcpy(&s.v[S_DX], &cfg->dx, sizeof cfg->dx);
    memcpy(&s.v[S_DT], &cfg->dt, sizeof cfg->dt);
    s.v[S_PRECISION] = (uint64_t)cfg->precision;
    s.v[S_HALO_DEPTH] = heat2d_halo_depth(cfg);
    s.v[S_OUTPUT_EVERY] = cfg->output_every;
    s.v[S_SNAPSHOT_COPY] = cfg->output_every > 0 ? (uint64_t)cfg->snapshot_copy : 0;
    s.v[S_SNAPSHOT_FILES] = cfg->snapshot != NULL;
    s.v[S_SAVE] = path_setting(cfg->save_path, s.save, sizeof s.save);
    s.v[S_SAVE_EVERY] = path_setting(cfg->save_every_path, s.save_every, sizeof s.save_every);
    s.v[S_SNAPSHOT_WRITER] = cfg->snapshot_writer;
    s.v[S_FORCE] = cfg->force;
    snprintf(s.method, sizeof s.method, "%s", who);
    return s;
}

/* Setting k of s as a command line would give it (alpha, dx and dt with
 * digits significant digits). */
static void setting_text(const rank_settings *s, int k, int digits, char *out, size_t size)
{
    double real;
    switch (k) {
    case S_NX:
    case S_NY:
    case S_STEPS:
    case S_HALO_DEPTH: {
        static const char *const names[] = {[S_NX] = "--nx",
                                            [S_NY] = "--ny",
                                            [S_STEPS] = "--steps",
                                            [S_HALO_DEPTH] = "--halo-depth"};
        snprintf(out, size, "%s %llu", names[k], (unsigned long long)s->v[k]);
        return;
    }
    case S_ALPHA:
    case S_DX:
    case S_DT: {
        static const char *const names[] = {
            [S_ALPHA] = "--alpha", [S_DX] = "--dx", [S_DT] = "--dt"};
        memcpy(&real, &s->v[k], sizeof real);
        if (real == 0.0)
            snprintf(out, size, "no %s", names[k]);
        else
            snprintf(out, size, "%s %.*g", names[k], digits, real);
        return;
    }
    case S_FORCE:
        snprintf(out, size, "%s", s->v[k] ? "--force" : "no --force");
        return;
    case S_METHOD:
        snprintf(out, size, "--method %s", s->method);
        return;
    case S_PRECISION:
        snprintf(out, size, "--precision %s",
                 heat2d_precision_name((heat2d_precision)s->v[S_PRECISION]));
        return;
    case S_OUTPUT_EVERY:
        if (s->v[k] == 0)
            snprintf(out, size, "no --output-every");
        else
            snprintf(out, size, "--output-every %llu", (unsigned long long)s->v[k]);
        return;
    case S_SNAPSHOT_COPY:
        snprintf(out, size, "--snapshot-copy %s",
                 heat2d_snapshot_copy_name((heat2d_snapshot_copy)s->v[k]));
        return;
    case S_SAVE:
    case S_SAVE_EVERY: {
        const char *option = k == S_SAVE ? "--save" : "--save-every";
        if (s->v[k] == 0)
            snprintf(out, size, "no %s", option);
        else
            snprintf(out, size, "%s %s", option, k == S_SAVE ? s->save : s->save_every);
        return;
    }
    case S_SNAPSHOT_WRITER:
        if (s->v[k] == HEAT2D_WRITER_NONE)
            snprintf(out, size, "no --snapshot-writer");
        else
            snprintf(out, size, "--snapshot-writer %s",
                     heat2d_snapshot_writer_name((heat2d_snapshot_writer)s->v[k]));
        return;
    default:
        snprintf(out, size, "%s", s->v[k] ? "--save-every" : "no --save-every");
    }
}

static bool differs(const rank_settings *a, const rank_settings *b, int k)
{
    return k == S_METHOD ? strcmp(a->method, b->method) != 0 : a->v[k] != b->v[k];
}

int heat2d_mpi_settings_agree(const char *who, const heat2d_config *cfg, heat2d_error *err)
{
    int ranks = 1, rank = 0;
    HEAT2D_MPI_CHECK(err, MPI_Comm_size(MPI_COMM_WORLD, &ranks));
    HEAT2D_MPI_CHECK(err, MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (ranks == 1)
        return 0;
    /* Rank 0's settings to all; each rank finds its own first difference,
     * the least (rank, setting) over all is the one named; that rank's
     * settings to all, so that every rank words the same line. Fixed
     * sizes: nothing to allocate, nothing that one rank alone can fail. */
    const rank_settings mine = settings_of(who, cfg);
    rank_settings first = mine;
    HEAT2D_MPI_CHECK(err, MPI_Bcast(&first, (int)sizeof first, MPI_BYTE, 0, MPI_COMM_WORLD));
    long long code = (long long)ranks * N_SETTINGS;
    for (int k = 0; k < N_SETTINGS && rank > 0; ++k)
        if (differs(&mine, &first, k)) {
            code = (long long)rank * N_SETTINGS + k;
            break;
        }
    long long least = code;
    HEAT2D_MPI_CHECK(err, MPI_Allreduce(&code, &least, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD));
    if (least == (long long)ranks * N_SETTINGS)
        return 0;
    const int r = (int)(least / N_SETTINGS), k = (int)(least % N_SETTINGS);
    rank_settings odd = mine;
    HEAT2D_MPI_CHECK(err, MPI_Bcast(&odd, (int)sizeof odd, MPI_BYTE, r, MPI_COMM_WORLD));
    char there[PATH_ROOM + 32], here[PATH_ROOM + 32];
    /* A real (alpha, dx, dt) short where that tells them apart, in full
     * where not. */
    for (int digits = 6; digits <= 17; digits += 11) {
        setting_text(&odd, k, digits, there, sizeof there);
        setting_text(&first, k, digits, here, sizeof here);
        if (strcmp(there, here) != 0)
            break;
    }
    return heat2d_fail(err,
                       "%s: the ranks were started with different settings: rank %d has %s, "
                       "rank 0 %s (every rank must run the same command)",
                       who, r, there, here);
}
