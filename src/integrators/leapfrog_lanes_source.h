/* leapfrog_lanes_source.h -- the translation kernels of the leap-frog fast path, written
 * once over a vector of LANE_NODES doubles and instantiated for two widths: SSE2, two
 * nodes a pass (leapfrog_stream.h), and AVX2, four nodes a pass (leapfrog_quads.h).
 *
 * LANE_NODES nodes are 3 LANE_NODES doubles, three vectors per array (two nodes:
 * x0 y0 | z0 x1 | y1 z1; four: x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3).  A per-node array
 * (mass, inverse mass) is spread over that pattern and g repeated over it by the width's
 * own functions.  Every kernel performs, on each component, the scalar kernel's IEEE
 * double operations in its order (lf_kick_drift, seed 002 eq. (28)):
 *   f = +0 + m g (gravity's eval_set; +0 where 1/m = 0), a = f im, a = a hk,
 *   v+ = v + a, x+ = x + v+ h,
 * so both widths give the scalar path's bits on any processor (the build sets
 * -ffp-contract=off, and the avx2 target does not enable FMA;
 * tests/test_leapfrog_stream.c compares each width with eq. (28) computed in the test).
 * Each operation is the width's intrinsic, so that each instance compiles to the code
 * the width had when it wrote its kernels out itself.
 *
 * The including header defines, and this file undefines at its end:
 *   LANE                 the vector type (__m128d, __m256d)
 *   LANE_NODES           nodes a pass, = doubles a vector
 *   LANE_FN(name)        name_pairs or name_quads: the instance's function names
 *   LANE_INLINE          storage and inlining of the helpers
 *   LANE_ENTRY           storage and attributes of the two entries
 *   LANE_SET1(d), LANE_ZERO(), LANE_LOADU(p), LANE_STOREU(p, a), LANE_STREAM(p, a),
 *   LANE_MUL(a, b), LANE_ADD(a, b), LANE_SUB(a, b),
 *   LANE_OR(a, b), LANE_AND(a, b), LANE_NEQ(a, b)    the width's intrinsics
 * and the functions
 *   LANE_FN(lf_spread)(a, i, q[3])   a per-node array of nodes i .. over the pattern,
 *   LANE_FN(lf_repeat)(g, q[3])      the 3-vector g repeated over it,
 *   LANE_FN(lf_any_set)(r)           1 when some bit of r is set.
 * It defines the entries LANE_FN(lf_translate) and LANE_FN(lf_uniform). */

/* Store of one vector at p: streamed around the caches (p aligned to the vector) or
 * ordinary (any p). */
LANE_INLINE void LANE_FN(lf_store)(double *p, LANE a, int stream)
{
    if (stream)
        LANE_STREAM(p, a);
    else
        LANE_STOREU(p, a);
}

/* Kick and drift of one vector (LANE_NODES components at c): a = f im, a = a hk,
 * v+ = v + a, x+ = x + v+ h.  The bits of x+ - x+, +0 exactly when x+ is finite, are
 * or-ed into *residue (an or, not a sum: a chain of one-cycle operations from pass to
 * pass, where additions made the loop wait on their latency).  x+ is not finite whenever
 * v+ is not (v+ h is then NaN or +-Inf whatever h is, and so is x + v+ h), so the one
 * residue detects either. */
LANE_INLINE void LANE_FN(lf_kick_drift)(const double *x, const double *v, size_t c, LANE f,
                                        LANE im, LANE vhk, LANE vh, double *x_out,
                                        double *v_out, LANE *residue, int stream)
{
    LANE a = LANE_MUL(f, im);
    a = LANE_MUL(a, vhk);
    const LANE vo = LANE_ADD(LANE_LOADU(&v[c]), a);
    const LANE xo = LANE_ADD(LANE_LOADU(&x[c]), LANE_MUL(vo, vh));
    LANE_FN(lf_store)(&v_out[c], vo, stream);
    LANE_FN(lf_store)(&x_out[c], xo, stream);
    *residue = LANE_OR(*residue, LANE_SUB(xo, xo));
}

/* The end of a pass: streamed lines made visible before the caller swaps the arrays in,
 * and *bad set when a result was NaN or Inf (some bit of the residue set). */
LANE_INLINE void LANE_FN(lf_done)(LANE residue, int *bad, int stream)
{
    if (stream)
        _mm_sfence();
    *bad |= LANE_FN(lf_any_set)(residue);
}

/* Kick and drift of the nodes 0 .. LANE_NODES floor(n / LANE_NODES) - 1 from the forces
 * f, streamed when `stream` (x_out and v_out then aligned to the vector).  Sets *bad when
 * a result is NaN or Inf.  Returns the number of nodes done; the caller finishes the
 * others. */
LANE_INLINE size_t LANE_FN(lf_translate_body)(const double *restrict x, const double *restrict v,
                                              const double *restrict f,
                                              const double *restrict im, size_t n,
                                              double *restrict x_out, double *restrict v_out,
                                              double hk, double h, int *bad, int stream)
{
    const LANE vhk = LANE_SET1(hk), vh = LANE_SET1(h);
    LANE residue = LANE_ZERO();
    size_t i = 0;
    for (; i + LANE_NODES <= n; i += LANE_NODES) {
        LANE im_lanes[3];
        LANE_FN(lf_spread)(im, i, im_lanes);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + LANE_NODES * (size_t)k;
            LANE_FN(lf_kick_drift)(x, v, c, LANE_LOADU(&f[c]), im_lanes[k], vhk, vh, x_out,
                                   v_out, &residue, stream);
        }
    }
    LANE_FN(lf_done)(residue, bad, stream);
    return i;
}

/* lf_translate_body for a field that is one uniform acceleration g (lf_translate_uniform):
 * the force f = +0 + m g on nodes of nonzero inverse mass (NaN included, as the scalar
 * im != 0), +0 on the others -- gravity's eval_set, operation for operation, the
 * selection done by a mask -- computed in the same pass and, when store_f, stored to f
 * too (streamed: f aligned as well).  Without store_f, f already holds those values. */
LANE_INLINE size_t LANE_FN(lf_uniform_body)(const double *restrict x, const double *restrict v,
                                            const double *restrict m,
                                            const double *restrict im, const double g[3],
                                            size_t n, double *restrict f,
                                            double *restrict x_out, double *restrict v_out,
                                            double hk, double h, int *bad, int stream,
                                            int store_f)
{
    const LANE vhk = LANE_SET1(hk), vh = LANE_SET1(h), zero = LANE_ZERO();
    LANE g_lanes[3];
    LANE_FN(lf_repeat)(g, g_lanes);
    LANE residue = LANE_ZERO();
    size_t i = 0;
    for (; i + LANE_NODES <= n; i += LANE_NODES) {
        LANE im_lanes[3], m_lanes[3];
        LANE_FN(lf_spread)(im, i, im_lanes);
        LANE_FN(lf_spread)(m, i, m_lanes);
        MB_UNROLL(3)
        for (int k = 0; k < 3; k++) {
            const size_t c = 3 * i + LANE_NODES * (size_t)k;
            const LANE weighs = LANE_NEQ(im_lanes[k], zero);
            const LANE mg = LANE_AND(weighs, LANE_MUL(m_lanes[k], g_lanes[k]));
            const LANE fc = LANE_ADD(zero, mg);
            if (store_f)
                LANE_FN(lf_store)(&f[c], fc, stream);
            LANE_FN(lf_kick_drift)(x, v, c, fc, im_lanes[k], vhk, vh, x_out, v_out, &residue,
                                   stream);
        }
    }
    LANE_FN(lf_done)(residue, bad, stream);
    return i;
}

/* The entries: the two kernels with `stream` (and `store_f`) made constants of each
 * instance of the body, so that no flag is tested inside the loop. */
LANE_ENTRY size_t LANE_FN(lf_translate)(const double *restrict x, const double *restrict v,
                                        const double *restrict f, const double *restrict im,
                                        size_t n, double *restrict x_out,
                                        double *restrict v_out, double hk, double h, int *bad,
                                        int stream)
{
    return stream ? LANE_FN(lf_translate_body)(x, v, f, im, n, x_out, v_out, hk, h, bad, 1)
                  : LANE_FN(lf_translate_body)(x, v, f, im, n, x_out, v_out, hk, h, bad, 0);
}

LANE_ENTRY size_t LANE_FN(lf_uniform)(const double *restrict x, const double *restrict v,
                                      const double *restrict m, const double *restrict im,
                                      const double g[3], size_t n, double *restrict f,
                                      double *restrict x_out, double *restrict v_out,
                                      double hk, double h, int *bad, int stream, int store_f)
{
    if (stream)
        return store_f
                   ? LANE_FN(lf_uniform_body)(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 1, 1)
                   : LANE_FN(lf_uniform_body)(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 1, 0);
    return store_f
               ? LANE_FN(lf_uniform_body)(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 0, 1)
               : LANE_FN(lf_uniform_body)(x, v, m, im, g, n, f, x_out, v_out, hk, h, bad, 0, 0);
}

#undef LANE
#undef LANE_NODES
#undef LANE_FN
#undef LANE_INLINE
#undef LANE_ENTRY
#undef LANE_SET1
#undef LANE_ZERO
#undef LANE_LOADU
#undef LANE_STOREU
#undef LANE_STREAM
#undef LANE_MUL
#undef LANE_ADD
#undef LANE_SUB
#undef LANE_OR
#undef LANE_AND
#undef LANE_NEQ
