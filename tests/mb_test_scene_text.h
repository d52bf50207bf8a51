/* mb_test_scene_text.h -- tests: build a system from scene sections given as text (written
 * to a temporary case file, read by mb_scene_build, removed).  Returns mb_scene_build's
 * status; MB_EIO when the temporary file cannot be written. */
#ifndef MB_TEST_SCENE_TEXT_H
#define MB_TEST_SCENE_TEXT_H
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mb_scene_build.h"
#include "mb_status.h"

static inline int mb_test_scene_text(const char *text, mb_system **sys)
{
    char path[] = "/tmp/mb-scene-XXXXXX";
    int fd = mkstemp(path);
    *sys = NULL;
    if (fd < 0)
        return MB_EIO;
    ssize_t len = (ssize_t)strlen(text), wrote = write(fd, text, (size_t)len);
    close(fd);
    int st = wrote == len ? mb_scene_build(path, sys) : MB_EIO;
    unlink(path);
    return st;
}
#endif
