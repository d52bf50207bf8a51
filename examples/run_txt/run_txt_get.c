/* run_txt_get.c -- prints values of run.txt through the C reader (run_txt.h):
 *
 *   run_txt_get run.txt KEY...          one line per KEY: its numbers (%.17g) or its text
 *
 * Exit status 0, or 2 when the file cannot be read or a KEY is absent.
 * Build:  cc -o run_txt_get run_txt.c run_txt_get.c */
#include "run_txt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the value's numbers, one blank between them, or its text when it is not all numbers */
static void print_value(const char *text)
{
    char line[64], *end;
    const char *p = text;
    size_t n = 0, words = 0;
    for (const char *w = text; *w; w++)
        words += (w == text || w[-1] == ' ') && *w != ' ';
    double *v = malloc((words ? words : 1) * sizeof *v);
    while (v != NULL && n < words && (v[n] = strtod(p, &end), end != p))
        p = end, n++;
    if (v == NULL || n != words || *p != '\0' || words == 0) {
        puts(text);
        free(v);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        snprintf(line, sizeof line, "%.17g", v[k]);
        printf("%s%s", k ? " " : "", line);
    }
    putchar('\n');
    free(v);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: run_txt_get run.txt KEY...\n");
        return 2;
    }
    run_txt *r = run_txt_load(argv[1]);
    if (r == NULL) {
        fprintf(stderr, "run_txt_get: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    int status = 0;
    for (int k = 2; k < argc; k++) {
        const char *v = run_txt_value(r, argv[k]);
        if (v == NULL) {
            fprintf(stderr, "run_txt_get: %s: no key %s\n", argv[1], argv[k]);
            status = 2;
            continue;
        }
        print_value(v);
    }
    run_txt_free(r);
    return status;
}
