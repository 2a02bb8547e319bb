/* xpmf.c: a node's aggregate usage Y as exact integer counts (GMP), and
 * Pr(Y > c) as an exact rational; shared by ovb-convolve and ovb-check.
 *
 * The same grid and the same moves as pmf.c, with the histograms' integer
 * counts in place of probabilities: a histogram's bin k (value k w, its
 * upper edge) goes to grid index ovb_grid_up(k w, g), and Y's count c[k] is
 * the number of combinations of the inputs' measurement intervals whose
 * values add up to k g, out of total = the product of the inputs' interval
 * counts.  Pr(Y > c) = (sum of the counts above index ovb_grid_down(c, g)) /
 * total, where ovb_grid_down(c, g) is the largest k with k g <= c, decided in
 * doubles exactly as ovb_pmf_tail decides it.
 *
 * Invariants: sum c[k] == total always (clipping lumps counts, never drops
 * them); c[n-1] > 0 unless n == 1; every number derived here from counts is
 * exact; the only doubles are the grid decisions, shared with pmf.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

_Static_assert(sizeof(unsigned long) >= sizeof(uint64_t),
	"GMP's unsigned long must hold a bin count");

static mpz_t *
counts_new(size_t n)
{
	mpz_t *c = ovb_xcalloc(n, sizeof *c);
	for (size_t k = 0; k < n; k++)
		mpz_init(c[k]);
	return c;
}

static void
counts_free(mpz_t *c, size_t n)
{
	for (size_t k = 0; k < n; k++)
		mpz_clear(c[k]);
	free(c);
}

void
ovb_xpmf_zero(struct ovb_xpmf *y, double g)
{
	y->g = g;
	y->n = 1;
	y->c = counts_new(1);
	mpz_set_ui(y->c[0], 1);
	mpz_init_set_ui(y->total, 1);
}

void
ovb_xpmf_point(struct ovb_xpmf *u, double x, double g)
{
	size_t k = ovb_grid_up(x, g);
	u->g = g;
	u->n = k + 1;
	u->c = counts_new(k + 1);
	mpz_set_ui(u->c[k], 1);
	mpz_init_set_ui(u->total, 1);
}

void
ovb_xpmf_from_hist(struct ovb_xpmf *u, const struct ovb_hist *h, double g)
{
	size_t last = h->nbins ? h->nbins - 1 : 0;
	u->g = g;
	u->n = ovb_grid_up(ovb_hist_hi(h, last), g) + 1;
	u->c = counts_new(u->n);
	mpz_init(u->total);
	for (size_t k = 0; k < h->nbins; k++)
		if (h->count[k]) {
			size_t j = ovb_grid_up(ovb_hist_hi(h, k), g);
			mpz_add_ui(u->c[j], u->c[j], (unsigned long)h->count[k]);
			mpz_add_ui(u->total, u->total, (unsigned long)h->count[k]);
		}
}

void
ovb_xpmf_add(struct ovb_xpmf *y, const struct ovb_xpmf *u)
{
	size_t n = y->n + u->n - 1;
	mpz_t *r = counts_new(n);
	for (size_t j = 0; j < u->n; j++) {
		if (!mpz_sgn(u->c[j]))
			continue;
		if (mpz_fits_ulong_p(u->c[j])) {
			unsigned long cu = mpz_get_ui(u->c[j]);
			for (size_t i = 0; i < y->n; i++)
				if (mpz_sgn(y->c[i]))
					mpz_addmul_ui(r[i + j], y->c[i], cu);
		} else {
			for (size_t i = 0; i < y->n; i++)
				if (mpz_sgn(y->c[i]))
					mpz_addmul(r[i + j], y->c[i], u->c[j]);
		}
	}
	size_t m = n;
	while (m > 1 && !mpz_sgn(r[m - 1]))
		m--;
	for (size_t k = m; k < n; k++)
		mpz_clear(r[k]);
	counts_free(y->c, y->n);
	y->c = r;
	y->n = m;
	mpz_mul(y->total, y->total, u->total);
}

/* The largest grid index k with k g <= c (c >= 0), as pmf.c decides it:
 * values above c are exactly the indices above it. */

void
ovb_xpmf_clip(struct ovb_xpmf *y, double c)
{
	if (c < 0)
		return;
	size_t k = ovb_grid_down(c, y->g) + 1;   /* the first point above c */
	if (k + 1 >= y->n)
		return;
	for (size_t i = k + 1; i < y->n; i++) {
		mpz_add(y->c[k], y->c[k], y->c[i]);
		mpz_clear(y->c[i]);
	}
	y->n = k + 1;
}

void
ovb_xpmf_tail(mpq_t pr, const struct ovb_xpmf *y, double c)
{
	if (c < 0) {
		mpq_set_ui(pr, 1, 1);
		return;
	}
	size_t K = ovb_grid_down(c, y->g);
	mpz_t s;
	mpz_init(s);
	for (size_t k = y->n; k-- > K + 1;)
		mpz_add(s, s, y->c[k]);
	mpq_set_num(pr, s);
	mpq_set_den(pr, y->total);
	mpq_canonicalize(pr);
	mpz_clear(s);
}

void
ovb_xpmf_free(struct ovb_xpmf *y)
{
	if (y->c) {
		counts_free(y->c, y->n);
		mpz_clear(y->total);
	}
	memset(y, 0, sizeof *y);
}

int
ovb_mpq_cmp_d(const mpq_t q, double d)
{
	mpq_t x;
	mpq_init(x);
	mpq_set_d(x, d);
	int s = mpq_cmp(q, x);
	mpq_clear(x);
	return s;
}

bool
ovb_frac_le(uint64_t over, uint64_t slots, double O)
{
	if (!slots)
		return true;
	mpq_t q;
	mpq_init(q);
	mpz_set_ui(mpq_numref(q), over);
	mpz_set_ui(mpq_denref(q), slots);
	mpq_canonicalize(q);
	bool ok = ovb_mpq_cmp_d(q, O) <= 0;
	mpq_clear(q);
	return ok;
}

/* num / den = |q| 10^s. */
static void
scaled(mpz_t num, mpz_t den, const mpq_t q, long s)
{
	mpz_abs(num, mpq_numref(q));
	mpz_set(den, mpq_denref(q));
	mpz_t p;
	mpz_init(p);
	mpz_ui_pow_ui(p, 10, (unsigned long)labs(s));
	if (s >= 0)
		mpz_mul(num, num, p);
	else
		mpz_mul(den, den, p);
	mpz_clear(p);
}

char *
ovb_mpq_decimal(const mpq_t q, int digits, bool *exact)
{
	if (digits < 1)
		digits = 1;
	if (!mpq_sgn(q)) {
		if (exact)
			*exact = true;
		return ovb_xstrdup("0");
	}
	mpz_t num, den, m, r, p;
	mpz_inits(num, den, m, r, p, NULL);
	/* e = floor(log10 |q|): 10^e <= |q| < 10^(e+1); start from the
	 * digit counts (off by at most one each) and adjust */
	long e = (long)mpz_sizeinbase(mpq_numref(q), 10) -
		(long)mpz_sizeinbase(mpq_denref(q), 10);
	for (;;) {
		scaled(num, den, q, -e);
		if (mpz_cmp(num, den) < 0) {
			e--;
			continue;
		}
		mpz_mul_ui(den, den, 10);
		if (mpz_cmp(num, den) >= 0) {
			e++;
			continue;
		}
		break;
	}
	/* m = round(|q| 10^(digits-1-e)), half away from zero: digits digits */
	scaled(num, den, q, digits - 1 - e);
	mpz_fdiv_qr(m, r, num, den);
	bool ex = !mpz_sgn(r);
	mpz_mul_ui(r, r, 2);
	if (mpz_cmp(r, den) >= 0)
		mpz_add_ui(m, m, 1);
	mpz_ui_pow_ui(p, 10, (unsigned long)digits);
	if (mpz_cmp(m, p) >= 0) {       /* rounded up to 10^digits */
		mpz_fdiv_q_ui(m, m, 10);
		e++;
	}
	char *ds = mpz_get_str(NULL, 10, m);
	long nd = (long)strlen(ds);
	while (nd > 1 && ds[nd - 1] == '0')
		ds[--nd] = '\0';
	size_t cap = (size_t)nd + (size_t)labs(e) + 16, len = 0;
	char *out = ovb_xmalloc(cap);
	if (mpq_sgn(q) < 0)
		out[len++] = '-';
	if (e < -4 || e >= digits) {            /* as %g does */
		out[len++] = ds[0];
		if (nd > 1) {
			out[len++] = '.';
			memcpy(out + len, ds + 1, (size_t)nd - 1);
			len += (size_t)nd - 1;
		}
		snprintf(out + len, cap - len, "e%c%02ld", e < 0 ? '-' : '+',
			labs(e));
	} else if (e < 0) {
		out[len++] = '0';
		out[len++] = '.';
		for (long i = 0; i < -e - 1; i++)
			out[len++] = '0';
		memcpy(out + len, ds, (size_t)nd + 1);
	} else {
		for (long i = 0; i <= e; i++)
			out[len++] = i < nd ? ds[i] : '0';
		if (nd > e + 1) {
			out[len++] = '.';
			memcpy(out + len, ds + e + 1, (size_t)(nd - e - 1));
			len += (size_t)(nd - e - 1);
		}
		out[len] = '\0';
	}
	free(ds);
	mpz_clears(num, den, m, r, p, NULL);
	if (exact)
		*exact = ex;
	return out;
}

char *
ovb_mpq_str(const mpq_t q)
{
	return mpq_get_str(NULL, 10, q);
}

int
ovb_xpmf_hist(const struct ovb_xpmf *y, struct ovb_hist *h, bool *exact)
{
	if (y->n > OVB_MAXBINS)
		return -1;
	h->width = y->g;
	h->nbins = y->n;
	h->count = ovb_xcalloc(y->n, sizeof *h->count);
	mpz_t d, t, v;
	mpz_inits(d, t, v, NULL);
	for (size_t k = 0; k < y->n; k++)
		mpz_gcd(d, d, y->c[k]);
	mpz_divexact(t, y->total, d);
	if (mpz_cmp_ui(t, UINT64_MAX) <= 0) {
		h->n = mpz_get_ui(t);
		for (size_t k = 0; k < y->n; k++) {
			mpz_divexact(v, y->c[k], d);
			h->count[k] = mpz_get_ui(v);
		}
		*exact = true;
	} else {
		/* t_k = ceil(N Pr(Y >= k g)), from the top: t_n = 0,
		 * t_0 = N; the count of k is t_k - t_(k+1) */
		mpz_t above, next, N;
		mpz_inits(above, next, N, NULL);
		mpz_ui_pow_ui(N, 10, 18);
		h->n = mpz_get_ui(N);
		for (size_t k = y->n; k-- > 0;) {
			mpz_add(above, above, y->c[k]);
			mpz_mul(t, above, N);
			mpz_cdiv_q(t, t, y->total);
			mpz_sub(v, t, next);
			h->count[k] = mpz_get_ui(v);
			mpz_set(next, t);
		}
		mpz_clears(above, next, N, NULL);
		*exact = false;
	}
	while (h->nbins > 1 && !h->count[h->nbins - 1])
		h->nbins--;
	mpz_clears(d, t, v, NULL);
	return 0;
}
