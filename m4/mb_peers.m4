# mb_peers.m4 -- optional peers: programs that some tests, cases and benchmarks use when
# they are installed and skip (exit 77, or a run marked `skipped`) when they are not.
# configure looks for each, substitutes its path (empty when absent) and ends with one
# summary line, so that a reader knows which tests will skip before running make check.
#
#   MB_OPTIONAL_PEER(VARIABLE, PROGRAMS, USED-BY)
#       AC_PATH_PROGS(VARIABLE, PROGRAMS): the first of PROGRAMS on PATH, or empty;
#       USED-BY says what needs it (for the summary and config.log).
#   MB_OPTIONAL_PEERS
#       every optional peer, then the summary.  A new peer is one MB_OPTIONAL_PEER line
#       in the list below.

# serial 1

AC_DEFUN([MB_OPTIONAL_PEER],
[AC_PATH_PROGS([$1], [$2], [])
AC_ARG_VAR([$1], [$3 (optional)])
AS_IF([test -n "$$1"],
      [mb_peers_found="$mb_peers_found m4_car(m4_unquote(m4_split(m4_normalize([$2]))))"],
      [mb_peers_missing="$mb_peers_missing m4_car(m4_unquote(m4_split(m4_normalize([$2]))))"])])

AC_DEFUN([MB_OPTIONAL_PEERS],
[mb_peers_found=
mb_peers_missing=
MB_OPTIONAL_PEER([PYTHON3], [python3],
                 [the Python example adapter and the LAMMPS and Yade adapters' tests])
MB_OPTIONAL_PEER([LAMMPS_LMP], [lmp], [LAMMPS, the peer cases of cases/peers])
MB_OPTIONAL_PEER([YADE], [yade], [Yade, the peer cases of cases/peers])
MB_OPTIONAL_PEER([ODEINT_CXX], [g++ c++], [the Odeint peer of bench leapfrog (with Boost)])
MB_OPTIONAL_PEER([GNUPLOT], [gnuplot], [motionbench plot and report])
MB_OPTIONAL_PEER([XMLLINT], [xmllint], [validation of JUnit and SVG outputs in the tests])
MB_OPTIONAL_PEER([FUZZ_CLANG], [clang], [make fuzz (libFuzzer)])
MB_OPTIONAL_PEER([SLURM_SBATCH], [sbatch], [the Slurm route of tests/test_slurm.sh (with slurmctld, slurmd, munged; run as root)])
AC_MSG_NOTICE([optional peers found:${mb_peers_found:- none}; missing:${mb_peers_missing:- none}])])
