/* fuzz_replay_main.c -- a plain main() for the fuzz entry point: feeds every file named on
 * the command line (a directory: every file in it; none: the seed corpus) to
 * LLVMFuzzerTestOneInput once.  Used by
 * `make check` when no libFuzzer toolchain is present, so the harness itself still runs
 * over the whole seed corpus; exit 0 when every input was handled (a crash aborts). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (b == NULL) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    int bad = ferror(f) || buf == NULL;
    fclose(f);
    if (!bad)
        LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return bad;
}

static int replay(const char *path, size_t *count)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    DIR *d = opendir(path);
    if (d == NULL) {
        perror(path);
        return 1;
    }
    int bad = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        bad |= replay(full, count);
    }
    closedir(d);
    return bad;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int bad = 0;
    for (int k = 1; k < argc; k++)
        bad |= replay(argv[k], &count);
    if (argc < 2) {            /* as a test of its own: the seed corpus */
        const char *s = getenv("MB_SRCDIR");
        char corpus[4096];
        snprintf(corpus, sizeof corpus, "%s/tests/fuzz/corpus", s ? s : MB_SRCDIR);
        bad |= replay(corpus, &count);
    }
    printf("fuzz replay: %zu inputs\n", count);
    return bad || count == 0;
}
