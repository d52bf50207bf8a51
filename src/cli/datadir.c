/* datadir.c -- where the program finds its data: the default case library (cases/) and
 * the committed baseline (reports/baseline/).
 *
 * In order: the environment variable MOTIONBENCH_DATADIR when set (a staged install,
 * make install DESTDIR=...); the source tree when the running executable lies in the
 * build tree (src/motionbench or its libtool twin under src/.libs/); otherwise the
 * installed copy in pkgdatadir (make install), named by mb_install_dirs.h, which make
 * regenerates whenever configure's directories change (install.mk). */
#include "cli.h"
#include "mb_install_dirs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 when the running executable lies under the build tree. */
static int running_from_build_tree(void)
{
    char exe[PATH_MAX], build[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || realpath(MB_BUILDDIR, build) == NULL)
        return 0;
    exe[n] = '\0';
    size_t b = strlen(build);
    return strncmp(exe, build, b) == 0 && exe[b] == '/';
}

const char *mb_cli_datadir(void)
{
    const char *env = getenv("MOTIONBENCH_DATADIR");
    if (env && env[0])
        return env;
    return running_from_build_tree() ? MB_SRCDIR : MB_PKGDATADIR;
}
