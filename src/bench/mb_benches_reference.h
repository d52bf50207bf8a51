/* mb_benches_reference.h -- benchmark entry points of the reference module, dispatched by
 * `motionbench bench NAME`. */
#ifndef MB_BENCHES_REFERENCE_H
#define MB_BENCHES_REFERENCE_H

/* `motionbench bench mpfr-twin [options]`: CPU cost of a twin step relative to the double
 * step at 53, 113 and 256 bits (see bench_mpfr_twin.c).  Returns an exit status. */
int mb_bench_mpfr_twin(int argc, char **argv);

#endif
