/* The processes of a process group, counted from /proc: what a child left
 * running when it exited, and whether it holds more than it may. */
#define _GNU_SOURCE /* O_CLOEXEC */
#include "child_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether /proc/PID/stat (name: PID) says a running member of group: its
 * fields after the command's ')' (which may itself hold ')' and blanks)
 * are the state, the parent and the group. */
static bool member(const char *name, pid_t group)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%s/stat", name);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false; /* gone since the folder was read */
    const ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0)
        return false;
    text[n] = '\0';
    const char *close_paren = strrchr(text, ')');
    char state = '\0';
    long parent = 0, its_group = 0;
    if (close_paren == NULL ||
        sscanf(close_paren + 1, " %c %ld %ld", &state, &parent, &its_group) != 3)
        return false;
    return its_group == (long)group && state != 'Z' && state != 'X';
}

size_t heat2d_group_count(pid_t group)
{
    DIR *d = opendir("/proc");
    if (d == NULL)
        return 0;
    size_t n = 0;
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
            strspn(e->d_name, "0123456789") == strlen(e->d_name) && member(e->d_name, group))
            n++;
    closedir(d);
    return n;
}
