/* run_txt.h -- a reader of run.txt, the flat form of motionbench's run description
 * (doc/external.md, section 3a), in standard C99 with no library beyond libc.
 *
 *   run_txt *r = run_txt_load("run.txt");          NULL: errno says why
 *   double dt;   run_txt_numbers(r, "time.dt", &dt, 1);
 *   long n = run_txt_long(r, "nodes.count", -1);
 *   double x[3]; run_txt_numbers(r, "nodes.0.position", x, 3);
 *   const char *model = run_txt_value(r, "forces.0.model");   NULL: no such key
 *   run_txt_free(r);
 */
#ifndef RUN_TXT_H
#define RUN_TXT_H

#include <stddef.h>

typedef struct run_txt run_txt;

run_txt *run_txt_load(const char *path);
void run_txt_free(run_txt *r);
/* The text after "KEY " ("" for a key alone on its line), or NULL when KEY is absent. */
const char *run_txt_value(const run_txt *r, const char *key);
/* Reads exactly n blank-separated numbers of KEY into out: 0 on success, -1 when KEY is
 * absent or does not hold n numbers. */
int run_txt_numbers(const run_txt *r, const char *key, double *out, size_t n);
/* KEY as a whole number, or fallback when absent or not a whole number. */
long run_txt_long(const run_txt *r, const char *key, long fallback);

#endif
