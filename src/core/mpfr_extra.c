/* mpfr_extra.c -- MPFR helpers: double's exponent range. */
#include "mb_mpfr_extra.h"

mb_mpfr_range mb_mpfr_use_double_range(void)
{
    mb_mpfr_range saved = { mpfr_get_emin(), mpfr_get_emax() };
    /* IEEE binary64: smallest subnormal 2^-1074 = 0.1b * 2^-1073, largest finite < 2^1024. */
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    return saved;
}

void mb_mpfr_restore_range(mb_mpfr_range saved)
{
    mpfr_set_emin(saved.emin);
    mpfr_set_emax(saved.emax);
}
