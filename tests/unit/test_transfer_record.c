/* The record file of a program's copies (transfer_record.h), written as the
 * injection library writes it, by several processes at once, and read back
 * as the bench reads it: every process's copies summed, a process that
 * ended in _exit told from one that never touched CUDA; the names it never
 * writes (a FIFO, a device, a link, another's file, a name too long), the
 * array sizes it refuses, the files the reader refuses. No GPU needed. */
#define _GNU_SOURCE
#include "transfer_record.h"
#include "unit_check.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/heat2d-test-transfer-XXXXXX";

static void path_of(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", dir, name);
}

static void test_array_bytes(void)
{
    uint64_t v = 0;
    char why[128] = "";
    check(heat2d_transfer_array_bytes("33554432", &v, why, sizeof why) == 0 && v == 33554432,
          "33554432 taken");
    check(heat2d_transfer_array_bytes("18446744073709551615", &v, why, sizeof why) == 0 &&
              v == UINT64_MAX,
          "2^64-1 taken");
    const char *bad[] = {"-128", "abc", "1e2", "",     "0",
                         " 8",   "+8",  "8 ",  "0x10", "18446744073709551616"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        char want[128];
        snprintf(want, sizeof want, "'%s' is not a positive whole number of bytes", bad[k]);
        why[0] = '\0';
        check(heat2d_transfer_array_bytes(bad[k], &v, why, sizeof why) == -1 &&
                  strcmp(why, want) == 0,
              "'%s' refused: '%s'", bad[k], why);
    }
}

/* Each name the writer refuses, and what is there afterwards, as before. */
static void test_refused_names(void)
{
    char fifo[256], link[256], text[256], why[512], want[600];
    path_of(fifo, sizeof fifo, "fifo");
    path_of(link, sizeof link, "link");
    path_of(text, sizeof text, "notes.txt");
    check(mkfifo(fifo, 0600) == 0, "mkfifo");
    FILE *f = fopen(text, "w");
    fputs("the user's notes\n", f);
    fclose(f);
    check(symlink(text, link) == 0, "symlink");
    struct {
        const char *path, *kind;
    } cases[] = {{fifo, "a FIFO"},
                 {"/dev/null", "a character device"},
                 {link, "a symbolic link"},
                 {dir, "a directory"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        snprintf(want, sizeof want, "'%s' is not a regular file (%s)", cases[k].path,
                 cases[k].kind);
        check(heat2d_transfer_record_open(cases[k].path, why, sizeof why) == -1 &&
                  strcmp(why, want) == 0,
              "%s refused: '%s'", cases[k].kind, why);
    }
    struct stat st;
    check(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO is still one");
    check(lstat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "/dev/null is still a device");
    check(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link is still one");
    snprintf(want, sizeof want, "'%s': it holds something other than heat2d's transfer records",
             text);
    check(heat2d_transfer_record_open(text, why, sizeof why) == -1 && strcmp(why, want) == 0,
          "another's file refused: '%s'", why);
    char back[64] = "";
    f = fopen(text, "r");
    check(f != NULL && fgets(back, sizeof back, f) && strcmp(back, "the user's notes\n") == 0,
          "another's file as it was");
    if (f)
        fclose(f);
    char *longname = malloc(PATH_MAX + 1);
    memset(longname, 'a', PATH_MAX);
    longname[PATH_MAX] = '\0';
    snprintf(want, sizeof want, "the name is %d bytes, longer than a path may be (PATH_MAX)",
             PATH_MAX);
    check(heat2d_transfer_record_open(longname, why, sizeof why) == -1 && strcmp(why, want) == 0,
          "a name of PATH_MAX bytes refused: '%s'", why);
    free(longname);
}

/* A child's life as the library lives it: marker, then how it ended (4:
 * _exit with no record). Its tally holds `copies` copies of 800 bytes up
 * and down. */
static void child(const char *path, int how, int copies)
{
    char why[512];
    const int fd = heat2d_transfer_record_open(path, why, sizeof why);
    if (fd < 0 || heat2d_transfer_record_loaded(fd, getpid(), why, sizeof why) != 0)
        _exit(1);
    if (how == 4)
        _exit(0);
    heat2d_copy_tally t;
    heat2d_copy_tally_reset(&t, 800);
    for (int k = 0; k < copies; ++k) {
        heat2d_copy_tally_add(&t, true, 800, 3);
        heat2d_copy_tally_add(&t, false, 800, 5);
        heat2d_copy_tally_add(&t, true, 48, 1);
    }
    const heat2d_transfer_end end = how == 0   ? HEAT2D_TRANSFER_COPIES
                                    : how == 1 ? HEAT2D_TRANSFER_NO_CUDA
                                               : HEAT2D_TRANSFER_UNTRACED;
    _exit(heat2d_transfer_record_end(fd, getpid(), end, &t, why, sizeof why) == 0 ? 0 : 1);
}

/* Forty processes at once, each of its kind: the sums and the counts. */
static void test_processes(void)
{
    char path[256], why[512];
    path_of(path, sizeof path, "program.transfers");
    enum { kChildren = 40 };
    heat2d_copy_tally want;
    heat2d_copy_tally_reset(&want, 800);
    unsigned kinds[5] = {0};
    for (int c = 0; c < kChildren; ++c) {
        const int how = c % 8 < 5 ? 0 : c % 8 == 5 ? 1 : c % 8 == 6 ? 4 : 2;
        kinds[how]++;
        for (int k = 0; how == 0 && k < c + 1; ++k) {
            heat2d_copy_tally_add(&want, true, 800, 3);
            heat2d_copy_tally_add(&want, false, 800, 5);
            heat2d_copy_tally_add(&want, true, 48, 1);
        }
        const pid_t pid = fork();
        if (pid == 0)
            child(path, how, c + 1);
    }
    int all_ok = 1, status;
    while (wait(&status) > 0)
        all_ok &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
    check(all_ok, "every writer wrote");
    heat2d_transfer_records r;
    check(heat2d_transfer_records_read(path, &r, why, sizeof why) == 0, "read: %s", why);
    check(r.processes == kChildren, "%u processes, want %d", r.processes, kChildren);
    check(r.ended[HEAT2D_TRANSFER_COPIES] == kinds[0] &&
              r.ended[HEAT2D_TRANSFER_NO_CUDA] == kinds[1] &&
              r.ended[HEAT2D_TRANSFER_UNTRACED] == kinds[2] && r.unrecorded == kinds[4],
          "ends %u copies, %u no CUDA, %u untraced, %u unrecorded", r.ended[2], r.ended[0],
          r.ended[1], r.unrecorded);
    check(memcmp(&r.tally, &want, sizeof want) == 0 && r.tally.up.array_copies > 0,
          "every process's copies summed: %llu up", (unsigned long long)r.tally.up.copies);
    char absent[256];
    path_of(absent, sizeof absent, "nothing.transfers");
    check(heat2d_transfer_records_read(absent, &r, why, sizeof why) == 1 && r.processes == 0,
          "no file: 1, no process");
}

/* text written to a file of its own, then read: the refusal. */
static void refused_file(const char *what, const char *text, size_t len, const char *want)
{
    char path[256], why[512] = "", full[600];
    path_of(path, sizeof path, "bad.transfers");
    FILE *f = fopen(path, "w");
    fwrite(text, 1, len, f);
    fclose(f);
    heat2d_transfer_records r;
    snprintf(full, sizeof full, "%s%s", path, want);
    check(heat2d_transfer_records_read(path, &r, why, sizeof why) == -1 && strcmp(why, full) == 0,
          "%s: '%s', want '%s'", what, why, full);
    unlink(path);
}

static void test_reader_refusals(void)
{
    heat2d_copy_tally t;
    heat2d_copy_tally_reset(&t, 8);
    char tally[1024], other[1024], text[4096];
    heat2d_copy_tally_format(&t, tally, sizeof tally);
    heat2d_copy_tally_reset(&t, 16);
    heat2d_copy_tally_format(&t, other, sizeof other);
    const char *m = "HEAT2D_TRANSFER_LOADED=5\n";
    refused_file("a record before a marker", "HEAT2D_TRANSFER_NO_CUDA=5\n", 26,
                 ":1: a record before its process's marker");
    snprintf(text, sizeof text, "%sHEAT2D_TRANSFER_NO_CUDA=5", m);
    refused_file("a line cut short", text, strlen(text), ":2: a line cut short");
    snprintf(text, sizeof text, "%sHEAT2D_TRANSFER_COPIES=5\n%s", m, tally);
    refused_file("copies without their end", text, strlen(text), ":2: a count without its end");
    snprintf(text, sizeof text,
             "%sHEAT2D_TRANSFER_LOADED=6\nHEAT2D_TRANSFER_COPIES=5\n%sHEAT2D_TRANSFER_END=5\n"
             "HEAT2D_TRANSFER_COPIES=6\n%sHEAT2D_TRANSFER_END=6\n",
             m, tally, other);
    refused_file("two array sizes", text, strlen(text),
                 ":16: counts of another array size, or too large to sum");
    snprintf(text, sizeof text, "%sCHECK=PASS\n", m);
    refused_file("a line of something else", text, strlen(text), ":2: not a transfer record");
    refused_file("a NUL byte", "HEAT2D_TRANSFER_LOADED=5\n\0\n", 27, ": it holds a NUL byte");
    char fifo[256], why[512];
    path_of(fifo, sizeof fifo, "fifo");
    heat2d_transfer_records r;
    check(heat2d_transfer_records_read(fifo, &r, why, sizeof why) == -1 &&
              strstr(why, "fifo: not a regular file") != NULL,
          "a FIFO read without waiting: '%s'", why);
    char big[256];
    path_of(big, sizeof big, "big.transfers");
    const int fd = open(big, O_WRONLY | O_CREAT, 0600);
    check(fd >= 0 && ftruncate(fd, HEAT2D_TRANSFER_RECORD_MAX_BYTES) == 0, "a file of 1 MiB");
    close(fd);
    check(heat2d_transfer_records_read(big, &r, why, sizeof why) == -1 &&
              strstr(why, "larger than a record file can be") != NULL,
          "over the size: '%s'", why);
}

int main(void)
{
    if (mkdtemp(dir) == NULL)
        return 1;
    test_array_bytes();
    test_refused_names();
    test_processes();
    test_reader_refusals();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    printf("transfer_record: %lu passed, %lu failed\n", passed, failed);
    return failed == 0 && passed == 39 ? 0 : 1;
}
