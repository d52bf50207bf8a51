/* mb_json.h -- small jansson helpers for the force models' describe hooks and the run
 * description of outside integrators (doc/external.md).  Each returns 0 on success and
 * -1 when jansson cannot allocate or the value is not representable (a non-finite
 * number: JSON has none, so it is written as null). */
#ifndef MB_JSON_H
#define MB_JSON_H

#include <jansson.h>
#include <stddef.h>

int mb_json_set_str(json_t *obj, const char *key, const char *value);
/* A finite number, or null for NaN/Inf. */
int mb_json_set_num(json_t *obj, const char *key, double value);
int mb_json_set_int(json_t *obj, const char *key, long value);
int mb_json_set_bool(json_t *obj, const char *key, int value);
/* An array of n numbers. */
int mb_json_set_vec(json_t *obj, const char *key, const double *v, size_t n);
/* A number (or null when not finite) as a new reference. */
json_t *mb_json_number(double value);
/* An array of n numbers as a new reference, NULL when out of memory. */
json_t *mb_json_vec(const double *v, size_t n);

#endif
