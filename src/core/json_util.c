/* json_util.c -- jansson helpers shared by the describe hooks of the force models and the
 * run description writer (mb_json.h). */
#include "mb_json.h"

#include <math.h>

json_t *mb_json_number(double value)
{
    return isfinite(value) ? json_real(value) : json_null();
}

json_t *mb_json_vec(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t k = 0; a && k < n; k++)
        if (json_array_append_new(a, mb_json_number(v[k])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

int mb_json_set_str(json_t *obj, const char *key, const char *value)
{
    return json_object_set_new(obj, key, json_string(value));
}

int mb_json_set_num(json_t *obj, const char *key, double value)
{
    return json_object_set_new(obj, key, mb_json_number(value));
}

int mb_json_set_int(json_t *obj, const char *key, long value)
{
    return json_object_set_new(obj, key, json_integer((json_int_t)value));
}

int mb_json_set_bool(json_t *obj, const char *key, int value)
{
    return json_object_set_new(obj, key, json_boolean(value));
}

int mb_json_set_vec(json_t *obj, const char *key, const double *v, size_t n)
{
    return json_object_set_new(obj, key, mb_json_vec(v, n));
}
