/* fuzz_case_file.c -- libFuzzer entry point for the case-file loader (doc/hardening.md).
 *
 * Each input becomes the contents of an anonymous in-memory file (memfd_create: a regular
 * file, so the loader's checks pass exactly as for a file on disk) that mb_case_load reads
 * through /proc/self/fd/N.  Every input must end in a loaded case or an error message;
 * the sanitizers (ASan, UBSan) report everything else.  The same entry point is driven by
 * libFuzzer (tests/fuzz/build.sh) and by the plain replay of fuzz_replay_main.c. */
#define _GNU_SOURCE
#include "mb_case.h"
#include "mb_status.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* inputs above this size are not case files worth parsing: skip, do not report */
#define FUZZ_MAX_INPUT (1u << 20)

static int write_all(int fd, const uint8_t *data, size_t size)
{
    while (size > 0) {
        ssize_t w = write(fd, data, size);
        if (w <= 0)
            return -1;
        data += w;
        size -= (size_t)w;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    int fd = memfd_create("fuzz.case", MFD_CLOEXEC);
    if (fd < 0 || write_all(fd, data, size) != 0) {
        perror("fuzz_case_file: memfd");
        abort();
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    mb_case *c = NULL;
    int st = mb_case_load(path, &c);
    /* the contract: success gives a case, failure a message and no case */
    if ((st == MB_SUCCESS) != (c != NULL) || (st != MB_SUCCESS && mb_last_error()[0] == '\0'))
        abort();
    mb_case_free(c);
    mb_clear_error();
    close(fd);
    return 0;
}
