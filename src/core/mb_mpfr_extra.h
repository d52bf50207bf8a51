/* mb_mpfr_extra.h -- small MPFR helpers used by the template layer and the twins. */
#ifndef MB_MPFR_EXTRA_H
#define MB_MPFR_EXTRA_H

#include <mpfr.h>

/* Restrict MPFR's exponent range to that of IEEE double (emin -1073, emax 1024) so a
 * 53-bit twin overflows and underflows where double does; restore with the saved pair. */
typedef struct mb_mpfr_range { mpfr_exp_t emin, emax; } mb_mpfr_range;
mb_mpfr_range mb_mpfr_use_double_range(void);
void mb_mpfr_restore_range(mb_mpfr_range saved);

#endif
