/* stale_tmp.c -- removing temporary report files left by killed runs.
 *
 * The report writer names its temporary files ".NAME.tmp.PID" (report_csv.c).  A run
 * killed by SIGKILL (or a power cut) cannot remove them; the next run in the same
 * directory removes those whose PID names no live process.  Only names of exactly that
 * shape are touched: a leading dot, ".tmp.", then decimal digits to the end. */
#include "mb_report.h"
#include "mb_status.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the PID of a ".NAME.tmp.PID" name, 0 when the name is not of that shape */
static long temp_owner(const char *name)
{
    if (name[0] != '.')
        return 0;
    const char *tag = NULL;
    for (const char *p = strstr(name + 1, ".tmp."); p; p = strstr(p + 1, ".tmp."))
        tag = p;
    if (tag == NULL || tag == name + 1)
        return 0;
    const char *digits = tag + 5;
    if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits) || strlen(digits) > 9)
        return 0;
    return strtol(digits, NULL, 10);
}

static int process_gone(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

size_t mb_report_clean_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 0;
    size_t removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = temp_owner(e->d_name);
        if (!process_gone(pid))
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path
            && unlink(path) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}
