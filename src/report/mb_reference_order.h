/* mb_reference_order.h -- the order a convergence plot draws its reference slope for:
 * the order the case expects of (case, integrator, quantity), an expectation
 * `INTEGRATOR.order.QUANTITY = P +- T` in checks.csv; else the order the scheme declares
 * (mb_stepper_type: `order` for positions and velocities, `order_rotation` for
 * orientations and angular velocities); none for a program outside motionbench
 * (external:NAME) or a scheme that is not registered in this process. */
#ifndef MB_REFERENCE_ORDER_H
#define MB_REFERENCE_ORDER_H

#include "mb_results.h"

typedef enum { MB_ORDER_NONE, MB_ORDER_EXPECTED, MB_ORDER_DECLARED } mb_order_source;

/* The reference order of (case_name, spec, quantity) into *p, and where it comes from. */
mb_order_source mb_reference_order(const mb_results *r, const char *case_name,
                                   const char *spec, const char *quantity, double *p);
/* "expected" or "declared" ("" for none). */
const char *mb_order_source_name(mb_order_source s);

#endif
