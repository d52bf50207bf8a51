/* mb_benches_leapfrog.h -- benchmark programs of the leap-frog family, run as
 * `motionbench bench leapfrog` and `motionbench bench fincham`.  Each prints its figures
 * to stdout and returns an exit status (0 ok, 1 the bench's check failed, 2 usage or
 * allocation failure).  Declared for the CLI in src/cli/cli.h as well (benches.def). */
#ifndef MB_BENCHES_LEAPFROG_H
#define MB_BENCHES_LEAPFROG_H

/* Translational kernel: node-steps/s for 10^3 .. 10^7 spherical nodes next to a STREAM
 * triad probe measured in the same run, bytes per node-step and the bandwidth ratio;
 * exit 1 when the ratio is below 0.8 at >= 10^6 nodes. */
int mb_bench_leapfrog(int argc, char **argv);

/* Full leap-frog step on aspherical nodes, each Fincham variant: node-steps/s. */
int mb_bench_fincham(int argc, char **argv);

#endif
