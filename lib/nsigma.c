/* nsigma.c: the nsigma mode's node test (ovb-place --mode nsigma N,
 * formats/plan.md "mode nsigma N"): a node holds on a resource while the
 * sum of its capsules' means plus N times the square root of the sum of
 * their variances is at most C.  A capsule's mean and variance are those
 * of its U, bin k valued k w (its upper edge, as Eq. 3 values it); a plain
 * reservation is a point mass at sigma (variance 0).
 *
 * Decided exactly, as every rule (formats/plan.md, "How a rule is
 * decided"): with D = C - sum(mean), the node holds when D >= 0 and
 * N^2 sum(var) <= D^2, for the exact rationals of the histograms' counts
 * and the doubles k w, C and N.  The doubles' answer is used only when a
 * certified bound on its rounding error keeps it on one side; otherwise
 * GMP decides.
 *
 * Invariants: the decision does not depend on the order of the capsules;
 * the doubles decide only where their bound proves them right. */
#include <float.h>
#include <math.h>

#include "ovb.h"

#define U53 (DBL_EPSILON / 2)   /* unit roundoff 2^-53 */

void
ovb_need_nsigma(struct ovb_need *n, double N)
{
	n->nsig = true;
	n->nsig_n = N;
	n->agg = !n->level;     /* Eq. 1: the lower bounds (mem: requests) */
	n->mean = n->m2 = 0;
	if (!n->h) {
		n->mean = n->sigma;
		n->m2 = n->sigma * n->sigma;
		return;
	}
	const struct ovb_hist *h = n->h;
	double s = 0, s2 = 0;
	for (size_t k = 0; k < h->nbins; k++) {
		double v = ovb_hist_hi(h, k), c = (double)h->count[k];
		s += c * v;
		s2 += c * v * v;
	}
	n->mean = h->n ? s / (double)h->n : 0;
	n->m2 = h->n ? s2 / (double)h->n : 0;
}

/* The i-th need of m[0..n) followed by extra (NULL: none). */
static const struct ovb_need *
at(const struct ovb_need *m, size_t n, const struct ovb_need *extra,
	size_t i)
{
	return i < n ? &m[i] : extra;
}

static double
var_of(const struct ovb_need *x)
{
	return x->h ? x->m2 - x->mean * x->mean : 0;
}

void
ovb_nsigma_sums(const struct ovb_need *m, size_t n, double *mean,
	double *var)
{
	*mean = *var = 0;
	for (size_t i = 0; i < n; i++) {
		*mean += m[i].mean;
		*var += var_of(&m[i]);
	}
}

/* The exact decision (GMP). */
static bool
exact_holds(const struct ovb_need *m, size_t n, const struct ovb_need *extra,
	double C, double N)
{
	mpq_t D, V, t, a, b;
	mpq_inits(D, V, t, a, b, NULL);
	mpq_set_d(D, C);
	for (size_t i = 0; i < n + (extra != NULL); i++) {
		const struct ovb_need *x = at(m, n, extra, i);
		if (!x->h) {            /* a point mass: variance 0 */
			mpq_set_d(t, x->sigma);
			mpq_sub(D, D, t);
			continue;
		}
		const struct ovb_hist *h = x->h;
		if (!h->n)
			continue;
		mpq_set_ui(a, 0, 1);    /* sum c v */
		mpq_set_ui(b, 0, 1);    /* sum c v^2 */
		for (size_t k = 0; k < h->nbins; k++) {
			if (!h->count[k])
				continue;
			mpq_set_d(t, ovb_hist_hi(h, k));
			mpq_t c;
			mpq_init(c);
			mpq_set_ui(c, h->count[k], 1);
			mpq_mul(c, c, t);
			mpq_add(a, a, c);
			mpq_mul(c, c, t);
			mpq_add(b, b, c);
			mpq_clear(c);
		}
		mpq_set_ui(t, h->n, 1);
		mpq_div(a, a, t);       /* the mean */
		mpq_div(b, b, t);       /* E[U^2] */
		mpq_sub(D, D, a);
		mpq_mul(a, a, a);
		mpq_sub(b, b, a);       /* the variance */
		mpq_add(V, V, b);
	}
	bool ok = mpq_sgn(D) >= 0;
	if (ok) {
		mpq_set_d(t, N);
		mpq_mul(t, t, t);
		mpq_mul(V, V, t);
		mpq_mul(D, D, D);
		ok = mpq_cmp(V, D) <= 0;
	}
	mpq_clears(D, V, t, a, b, NULL);
	return ok;
}

bool
ovb_nsigma_holds(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C)
{
	size_t all = n + (extra != NULL);
	if (!all)
		return true;
	double N = at(m, n, extra, 0)->nsig_n;
	/* doubles: sum(mean) and sum(var) with their absolute error bounds.
	 * A mean s/n of nb non-negative products: relative error at most
	 * (nb + 3) u; E[U^2] (nb + 4) u; the variance m2 - mean^2 then at
	 * most (3 nb + 12) u m2 off (mean^2 <= m2); each sum of all terms
	 * adds all u times its magnitude. */
	double sm = 0, sv = 0, em = 0, ev = 0, m2 = 0;
	for (size_t i = 0; i < all; i++) {
		const struct ovb_need *x = at(m, n, extra, i);
		double nb = x->h ? (double)x->h->nbins : 0;
		sm += x->mean;
		sv += var_of(x);
		m2 += x->m2;
		em += (nb + 3) * x->mean;
		ev += x->h ? (3 * nb + 12) * x->m2 : 0;
	}
	double a = (double)all + 2;
	em = 2 * U53 * (em + a * sm + C);       /* D = C - sm too */
	ev = 2 * U53 * (ev + a * m2);
	double D = C - sm, NN = N * N, f = 1 + 8 * U53;
	double dlo = D - em, dhi = D + em, vlo = sv - ev, vhi = sv + ev;
	/* an overflow (or a NaN) decides nothing: GMP then */
	double l1 = NN * vhi * f, r1 = dlo * dlo / f;
	double l2 = NN * vlo / f, r2 = dhi * dhi * f;
	if (dlo >= 0 && isfinite(l1) && isfinite(r1) && l1 <= r1)
		return true;
	if (dhi < 0 || (vlo > 0 && isfinite(l2) && isfinite(r2) && l2 > r2))
		return false;
	return exact_holds(m, n, extra, C, N);
}
