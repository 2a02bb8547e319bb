/* drift.c: drift-aware usage from a series (issue 14): recency weights,
 * a linear trend of daily quantiles extrapolated to a horizon, the
 * weighted histogram of the forecast samples times an inflation k, and
 * the least k a caller's held-out test accepts.
 *
 * Weights are integers (OVB_RECENCY_SCALE for the newest sample, halving
 * every half-life, at least 1), so a weighted histogram is an ordinary
 * ovb_hist whose counts are the weights: every node test of lib/node.c
 * and lib/pmf.c applies to it unchanged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

uint64_t
ovb_recency_weight(uint64_t t, uint64_t interval, uint64_t end,
	double half_life)
{
	if (!(half_life > 0))
		return OVB_RECENCY_SCALE;
	double age = t + interval < end ? (double)(end - t - interval) : 0;
	double w = nearbyint(OVB_RECENCY_SCALE * exp2(-age / half_life));
	return w >= 1 ? (uint64_t)w : 1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void
ovb_trend_fit(const uint64_t *t, const double *v, size_t n,
	uint64_t interval, uint64_t a, uint64_t b, const struct ovb_drift *p,
	struct ovb_trend *tr)
{
	memset(tr, 0, sizeof *tr);
	tr->a = a;
	uint64_t day = (uint64_t)p->day;
	if (!day || !interval || b <= a)
		return;
	size_t nb = (size_t)((b - a) / day);
	double *bx = ovb_xcalloc(nb + 1, sizeof *bx),
		*by = ovb_xcalloc(nb + 1, sizeof *by),
		*bw = ovb_xcalloc(nb + 1, sizeof *bw),
		*tmp = ovb_xcalloc(n + 1, sizeof *tmp);
	size_t m = 0, i = 0;
	while (i < n && t[i] < a)
		i++;
	for (size_t j = 0; j < nb; j++) {
		uint64_t lo = a + j * day, hi = lo + day;
		size_t k = 0;
		while (i < n && t[i] < lo)
			i++;
		while (i < n && t[i] < hi)
			tmp[k++] = v[i++];
		if (!k || 2 * k < day / interval)
			continue;
		ovb_qsort(tmp, k, sizeof *tmp, cmp_double);
		double mid = (double)(lo - a) + (double)day / 2;
		bx[m] = mid;
		by[m] = tmp[ovb_pct_rank(100 * p->trend_q, k) - 1];
		bw[m] = p->half_life > 0 ? exp2(-((double)(b - a) - mid) /
			p->half_life) : 1;
		m++;
	}
	tr->nblocks = m;
	if (m >= 2) {
		double W = 0, xm = 0, ym = 0, sxx = 0, sxy = 0;
		for (size_t j = 0; j < m; j++) {
			W += bw[j];
			xm += bw[j] * bx[j];
			ym += bw[j] * by[j];
		}
		xm /= W;
		ym /= W;
		for (size_t j = 0; j < m; j++) {
			sxx += bw[j] * (bx[j] - xm) * (bx[j] - xm);
			sxy += bw[j] * (bx[j] - xm) * (by[j] - ym);
		}
		tr->c1 = sxx > 0 ? sxy / sxx : 0;
		tr->c0 = ym - tr->c1 * xm;
		tr->ok = true;
	}
	free(bx);
	free(by);
	free(bw);
	free(tmp);
}

double
ovb_trend_factor(const struct ovb_trend *tr, uint64_t t, uint64_t interval,
	uint64_t horizon, double growth_max)
{
	if (!tr->ok)
		return 1;
	double lh = tr->c0 + tr->c1 * ((double)horizon - (double)tr->a);
	double lt = tr->c0 + tr->c1 * ((double)t - (double)tr->a +
		(double)interval / 2);
	if (!(lh > 0))
		return 1;
	if (!(lt > 0))
		return growth_max;
	double f = lh / lt;
	return f < 1 ? 1 : f > growth_max ? growth_max : f;
}

size_t
ovb_drift_series(const uint64_t *t, const double *v, size_t n,
	uint64_t interval, uint64_t a, uint64_t b, uint64_t horizon,
	const struct ovb_drift *p, double **x, uint64_t **w)
{
	size_t lo = 0, hi;
	while (lo < n && t[lo] < a)
		lo++;
	hi = lo;
	while (hi < n && t[hi] < b)
		hi++;
	struct ovb_trend tr;
	ovb_trend_fit(t + lo, v + lo, hi - lo, interval, a, b, p, &tr);
	*x = ovb_xcalloc(hi - lo + 1, sizeof **x);
	*w = ovb_xcalloc(hi - lo + 1, sizeof **w);
	for (size_t i = lo; i < hi; i++) {
		(*x)[i - lo] = v[i] * ovb_trend_factor(&tr, t[i], interval,
			horizon, p->growth_max);
		(*w)[i - lo] = ovb_recency_weight(t[i], interval, b,
			p->half_life);
	}
	return hi - lo;
}

struct xw { double x; uint64_t w; };

static int
cmp_xw(const void *a, const void *b)
{
	const struct xw *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

bool
ovb_drift_dist(struct ovb_dist *d, const double *x, const uint64_t *w,
	size_t n, double k, double width, const double *pct, int npct)
{
	return ovb_drift_dist_ordered(d, x, w, NULL, n, k, width, pct, npct);
}

struct xi { double x; size_t i; };

static int
cmp_xi(const void *a, const void *b)
{
	const struct xi *p = a, *q = b;
	return (p->x > q->x) - (p->x < q->x);
}

size_t *
ovb_drift_order(const double *x, size_t n)
{
	struct xi *s = ovb_xcalloc(n + 1, sizeof *s);
	for (size_t i = 0; i < n; i++)
		s[i] = (struct xi){ x[i], i };
	ovb_qsort(s, n, sizeof *s, cmp_xi);
	size_t *order = ovb_xcalloc(n + 1, sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = s[i].i;
	free(s);
	return order;
}

/* The sum in the samples' order, the rest on them sorted: by order when
 * given (k x is as ordered as x for k > 0; samples of equal value are
 * counted alike in any order), else (NULL) by a sort here. */
bool
ovb_drift_dist_ordered(struct ovb_dist *d, const double *x,
	const uint64_t *w, const size_t *order, size_t n, double k,
	double width, const double *pct, int npct)
{
	if (!n)
		return false;
	struct xw *s = ovb_xcalloc(n, sizeof *s);
	uint64_t W = 0;
	long double sum = 0;
	for (size_t i = 0; i < n; i++) {
		W += w[i];
		sum += (long double)(k * x[i]) * (long double)w[i];
	}
	for (size_t i = 0; i < n; i++) {
		size_t j = order ? order[i] : i;
		s[i] = (struct xw){ k * x[j], w[j] };
	}
	if (!order)
		ovb_qsort(s, n, sizeof *s, cmp_xw);
	double top = s[n - 1].x;
	if (!(top / width < OVB_MAXBINS) ||
	    ovb_hist_bin(top, width) + 1 > OVB_MAXBINS) {
		free(s);
		return false;
	}
	size_t nbins = ovb_hist_bin(top, width) + 1;
	struct ovb_hist *h = &d->h;
	free(h->count);
	h->count = ovb_xcalloc(nbins, sizeof *h->count);
	h->nbins = nbins;
	h->width = width;
	h->n = W;
	for (size_t i = 0; i < n; i++)
		h->count[ovb_hist_bin(s[i].x, width)] += s[i].w;
	d->has_mean = true;
	d->mean = (double)(sum / (long double)W);
	d->npct = 0;
	for (int j = 0; j < npct && j < OVB_MAXPCT; j++) {
		uint64_t r = ovb_pct_rank(pct[j], W), cum = 0;
		size_t i = 0;
		while (i < n - 1 && (cum += s[i].w) < r)
			i++;
		d->pct_p[d->npct] = pct[j];
		d->pct_v[d->npct++] = s[i].x;
	}
	free(s);
	return true;
}

double
ovb_calib_least_k(double kmin, double kmax, double step,
	bool (*holds)(double k, void *arg), void *arg)
{
	for (size_t i = 0;; i++) {
		double k = kmin + (double)i * step;
		if (k > kmax + step / 2)
			return kmax;
		if (holds(k, arg))
			return k;
	}
}
