/* measure.c: usage distributions U from an On-Off trace (section 2.3 of
 * the overbooking paper).
 *
 * The span [t0, t1) is cut into measurement intervals [t0 + kI,
 * t0 + (k+1)I); a final partial interval is dropped, and so is every
 * interval that overlaps a gap [START, END] (events were lost there).  The
 * usage in an interval is exact integer arithmetic until the one division
 * that makes it a rate: CPU-ns / I for cpu, bytes * 1e9 / I for net and
 * net-rx.  One sweep over the intervals, the busy periods (or transfers)
 * and the gaps, all in time order: O(intervals + records).
 *
 * From an ovb-series, U's samples are exact means of the series' samples.
 * A double is m 2^e with an integer m < 2^53, so sums of doubles are exact
 * as integers once every value is scaled to a common power of two: means
 * and sums against a capacity use GMP integers (any range). */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

typedef unsigned __int128 u128;

#define EXACT53 ((u128)1 << 53)

struct sweep {
	const struct ovb_onoff *o;
	const struct ovb_busy *busy;
	const struct ovb_xfer *xfer;
	size_t nbusy, nxfer, ib, ix, ig;
	uint64_t mul, div;      /* rate = amount * mul / div */
};

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static u128
busy_in(struct sweep *w, uint64_t a, uint64_t b)
{
	u128 sum = 0;
	while (w->ib < w->nbusy && w->busy[w->ib].end <= a)
		w->ib++;
	for (size_t i = w->ib; i < w->nbusy && w->busy[i].start < b; i++) {
		uint64_t lo = w->busy[i].start > a ? w->busy[i].start : a;
		uint64_t hi = w->busy[i].end < b ? w->busy[i].end : b;
		sum += (u128)(hi - lo) * w->busy[i].ncpu;
	}
	return sum;
}

static u128
bytes_in(struct sweep *w, uint64_t b)
{
	u128 sum = 0;
	for (; w->ix < w->nxfer && w->xfer[w->ix].t < b; w->ix++)
		sum += w->xfer[w->ix].bytes;
	return sum;
}

/* Does [a, b) meet a gap [START, END]? */
static bool
gap_in(struct sweep *w, uint64_t a, uint64_t b)
{
	const struct ovb_onoff *o = w->o;
	while (w->ig < o->ngap && o->gap[w->ig].end < a)
		w->ig++;
	return w->ig < o->ngap && o->gap[w->ig].start < b;
}

static double
ratio(u128 num, u128 den)
{
	if (num < EXACT53 && den < EXACT53)
		return (double)num / (double)den;
	return (double)((long double)num / (long double)den);
}

static void
sweep_init(struct sweep *w, const struct ovb_onoff *o,
	const struct ovb_oncap *c, enum ovb_res res, uint64_t len)
{
	memset(w, 0, sizeof *w);
	w->o = o;
	w->busy = c->busy;
	w->nbusy = c->nbusy;
	w->xfer = res == OVB_NET ? c->send : c->recv;
	w->nxfer = res == OVB_NET ? c->nsend : c->nrecv;
	uint64_t g = res == OVB_CPU ? 1 : gcd(1000000000, len);
	w->mul = res == OVB_CPU ? 1 : 1000000000 / g;
	w->div = len / g;
}

void
ovb_measure(const struct ovb_onoff *o, const struct ovb_oncap *c,
	enum ovb_res res, uint64_t len, struct ovb_samples *s)
{
	memset(s, 0, sizeof *s);
	struct sweep w;
	sweep_init(&w, o, c, res, len);
	uint64_t total = (o->t1 - o->t0) / len;
	s->v = ovb_xcalloc(total ? total : 1, sizeof *s->v);
	s->t = ovb_xcalloc(total ? total : 1, sizeof *s->t);
	u128 sum = 0;
	for (uint64_t k = 0; k < total; k++) {
		uint64_t a = o->t0 + k * len, b = a + len;
		u128 x = res == OVB_CPU ? busy_in(&w, a, b) : bytes_in(&w, b);
		if (gap_in(&w, a, b)) {
			s->ngap++;
			continue;
		}
		sum += x;
		double v = ratio(x * w.mul, w.div);
		s->t[s->n] = a;
		s->v[s->n++] = v;
		if (v > s->peak)
			s->peak = v;
	}
	if (s->n)
		s->mean = (double)((long double)sum * w.mul / w.div / s->n);
}

void
ovb_samples_free(struct ovb_samples *s)
{
	free(s->v);
	free(s->t);
	memset(s, 0, sizeof *s);
}

double
ovb_auto_width(enum ovb_res r, double peak)
{
	static const double m[] = { 1, 2, 5 };
	if (r == OVB_CPU)
		return 0.01;
	if (!(peak > 0))
		return 1;
	double raw = peak / 100;
	for (int e = (int)floor(log10(raw)) - 1; ; e++) {
		double p = 1;
		for (int i = 0; i < abs(e) && i < 400; i++)
			p *= 10;
		for (int i = 0; i < 3; i++) {
			double w = e < 0 ? m[i] / p : m[i] * p;
			if (w >= raw)
				return w;
		}
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

bool
ovb_dist_fill(struct ovb_dist *d, struct ovb_samples *s, double width,
	const double *pct, int npct)
{
	if (!s->n)
		return false;
	ovb_qsort(s->v, s->n, sizeof *s->v, cmp_double);
	if (!(s->v[s->n - 1] / width < OVB_MAXBINS))
		return false;
	size_t nbins = ovb_hist_bin(s->v[s->n - 1], width) + 1;
	if (nbins > OVB_MAXBINS)
		return false;
	struct ovb_hist *h = &d->h;
	free(h->count);
	h->count = ovb_xcalloc(nbins, sizeof *h->count);
	h->nbins = nbins;
	h->width = width;
	h->n = s->n;
	for (size_t i = 0; i < s->n; i++)
		h->count[ovb_hist_bin(s->v[i], width)]++;
	d->has_mean = true;
	d->mean = s->mean;
	d->npct = 0;
	for (int i = 0; i < npct && i < OVB_MAXPCT; i++) {
		d->pct_p[d->npct] = pct[i];
		d->pct_v[d->npct++] = s->v[ovb_pct_rank(pct[i], s->n) - 1];
	}
	return true;
}

/* ---- exact sums ---- */

/* sum = (v[0] + ... + v[n-1]) / 2^*scale exactly; returns false when every
 * value is 0 (sum 0, scale 0). */
static bool
exact_sum(const double *v, size_t n, mpz_t sum, int *scale)
{
	int emin = 0;
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		int64_t m;
		int e;
		ovb_split_double(v[i], &m, &e);
		if (m && (!any || e < emin))
			emin = e, any = true;
	}
	mpz_set_ui(sum, 0);
	*scale = emin;
	if (!any)
		return false;
	mpz_t t;
	mpz_init(t);
	for (size_t i = 0; i < n; i++) {
		int64_t m;
		int e;
		ovb_split_double(v[i], &m, &e);
		if (!m)
			continue;
		mpz_set_si(t, m);
		mpz_mul_2exp(t, t, (mp_bitcnt_t)(e - emin));
		mpz_add(sum, sum, t);
	}
	mpz_clear(t);
	return true;
}

/* The double nearest num 2^scale / den (num > 0, den > 0), ties to even
 * (results in the subnormal range are rounded twice). */
static double
round_ratio(const mpz_t num, int scale, uint64_t den)
{
	mpz_t q, r, d, low;
	mpz_inits(q, r, d, low, NULL);
	mpz_set_ui(d, den);
	/* q = floor(num 2^s / den), 2^54 <= q < 2^56, and r its remainder */
	long s = 55 - ((long)mpz_sizeinbase(num, 2) -
		(long)mpz_sizeinbase(d, 2));
	if (s >= 0) {
		mpz_mul_2exp(q, num, (mp_bitcnt_t)s);
		mpz_tdiv_qr(q, r, q, d);
	} else {
		mpz_mul_2exp(d, d, (mp_bitcnt_t)-s);
		mpz_tdiv_qr(q, r, num, d);
	}
	bool sticky = mpz_sgn(r) != 0;
	/* keep 53 significant bits of q, to nearest, ties to even */
	long drop = (long)mpz_sizeinbase(q, 2) - 53;
	mpz_tdiv_r_2exp(low, q, (mp_bitcnt_t)drop);
	mpz_tdiv_q_2exp(q, q, (mp_bitcnt_t)drop);
	mpz_set_ui(r, 1);
	mpz_mul_2exp(r, r, (mp_bitcnt_t)(drop - 1));   /* half an ulp */
	int c = mpz_cmp(low, r);
	if (c > 0 || (c == 0 && (sticky || mpz_odd_p(q))))
		mpz_add_ui(q, q, 1);
	double out = ldexp(mpz_get_d(q), (int)(drop - s + scale));
	mpz_clears(q, r, d, low, NULL);
	return out;
}

double
ovb_exact_mean(const double *v, size_t n)
{
	if (n == 1)
		return v[0];
	mpz_t sum;
	mpz_init(sum);
	int scale;
	double m = 0;
	if (exact_sum(v, n, sum, &scale))
		m = round_ratio(sum, scale, n);
	mpz_clear(sum);
	return m;
}

int
ovb_sum_cmp(const double *v, size_t n, double c)
{
	/* fast path: a long double sum is within n ulps of the exact one */
	long double s = 0, a = 0;
	for (size_t i = 0; i < n; i++) {
		s += v[i];
		a += fabs(v[i]);
	}
	long double err = (a + fabsl((long double)c)) * (long double)(n + 2) *
		1e-18L;
	if (s - c > err)
		return 1;
	if (c - s > err)
		return -1;
	double *w = ovb_xcalloc(n + 1, sizeof *w);
	memcpy(w, v, n * sizeof *w);
	w[n] = -c;
	int sign = 0;
	/* split positives and negatives: exact_sum works on any signs */
	mpz_t sum;
	mpz_init(sum);
	int scale;
	if (exact_sum(w, n + 1, sum, &scale))
		sign = mpz_sgn(sum);
	mpz_clear(sum);
	free(w);
	return sign;
}

/* ---- U from a series ---- */

void
ovb_series_measure(const struct ovb_series *s, uint64_t len,
	struct ovb_samples *out)
{
	memset(out, 0, sizeof *out);
	uint64_t k = len / s->interval;   /* samples per measurement interval */
	out->v = ovb_xcalloc(s->n / k + 1, sizeof *out->v);
	out->t = ovb_xcalloc(s->n / k + 1, sizeof *out->t);
	double *kept = ovb_xcalloc(s->n + 1, sizeof *kept);
	size_t nkept = 0;
	for (size_t i = 0; i < s->n;) {
		uint64_t w = s->t[i] / len;   /* the interval of sample i */
		size_t j = i;
		while (j < s->n && s->t[j] / len == w)
			j++;
		if (j - i == k) {   /* on the grid and increasing: complete */
			double x = ovb_exact_mean(s->v + i, (size_t)k);
			out->t[out->n] = w * len;
			out->v[out->n++] = x;
			if (x > out->peak)
				out->peak = x;
			memcpy(kept + nkept, s->v + i, (size_t)k * sizeof *kept);
			nkept += (size_t)k;
		}
		i = j;
	}
	if (s->n)
		out->ngap = (size_t)(s->t[s->n - 1] / len - s->t[0] / len + 1) -
			out->n;
	if (out->n)
		out->mean = ovb_exact_mean(kept, nkept);
	free(kept);
}

/* ---- window peaks of a level (mem) from a series ---- */

void
ovb_series_peaks(const struct ovb_series *s, uint64_t len,
	struct ovb_samples *out)
{
	memset(out, 0, sizeof *out);
	uint64_t k = len / s->interval;   /* samples per window */
	out->v = ovb_xcalloc(s->n / k + 1, sizeof *out->v);
	out->t = ovb_xcalloc(s->n / k + 1, sizeof *out->t);
	for (size_t i = 0; i < s->n;) {
		uint64_t w = s->t[i] / len;   /* the window of sample i */
		size_t j = i;
		double x = 0;
		while (j < s->n && s->t[j] / len == w) {
			if (s->v[j] > x)
				x = s->v[j];
			j++;
		}
		if (j - i == k) {   /* on the grid and increasing: complete */
			out->t[out->n] = w * len;
			out->v[out->n++] = x;
			if (x > out->peak)
				out->peak = x;
		}
		i = j;
	}
	if (s->n)
		out->ngap = (size_t)(s->t[s->n - 1] / len - s->t[0] / len + 1) -
			out->n;
	if (out->n)
		out->mean = ovb_exact_mean(out->v, out->n);
}
