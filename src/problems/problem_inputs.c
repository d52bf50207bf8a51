/* problem_inputs.c -- the contents a problem reads besides its parameters (mb_problem.h).
 *
 * A text parameter may name a file that setup() reads (a scene's `file`); a content hash
 * of a problem (reference cache keys, shard manifests) must cover that file's bytes, not
 * only its name. */
#include "mb_problem.h"
#include "mb_sha256.h"
#include "mb_status.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int mb_problem_inputs_hash(const mb_problem_type *pt, const mb_options *params,
                           struct mb_sha256 *h)
{
    for (const mb_option_spec *s = pt->params; s && s->name; s++) {
        const char *v = s->kind == MB_OPT_STRING ? mb_options_string(params, s->name) : NULL;
        struct stat sb;
        if (v == NULL || v[0] == '\0' || stat(v, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        char hex[MB_SHA256_HEX];
        if (mb_sha256_file(v, hex) != MB_SUCCESS)
            return mb_last_error_code();
        mb_sha256_update(h, s->name, strlen(s->name) + 1);
        mb_sha256_update(h, hex, sizeof hex);
    }
    return MB_SUCCESS;
}
