/* mb_oscillator_setup.h -- the system shared by the linear oscillator problems (harmonic,
 * damped, cundall-oscillator): one node of mass m on the x axis at (x0, v0), tied to the
 * origin by a linear spring of stiffness k (zero rest length, f = -k x). */
#ifndef MB_OSCILLATOR_SETUP_H
#define MB_OSCILLATOR_SETUP_H

#include "mb_system.h"

int mb_oscillator_system(double m, double k, double x0, double v0, mb_system **out);

#endif
