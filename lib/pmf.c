/* pmf.c: a node's aggregate usage Y and the probability that it exceeds
 * the node's capacity (Eq. 3 of the overbooking paper).
 *
 * Invariants: probabilities on a grid never move to a smaller value than
 * the histogram bin they came from (conservative: Pr(Y > c) is an upper
 * bound of the bins' own); each pmf's mass adds up to 1 within rounding;
 * p[n-1] > 0 unless n == 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

void
ovb_pmf_zero(struct ovb_pmf *y, double g)
{
	y->g = g;
	y->n = 1;
	y->p = ovb_xmalloc(sizeof *y->p);
	y->p[0] = 1;
}

size_t
ovb_grid_up(double x, double g)
{
	if (!(x > 0))
		return 0;
	double q = ceil(x / g);
	if (!(q < (double)OVB_GRID_FAR))
		return OVB_GRID_FAR;    /* beyond any grid that can be held */
	size_t k = q < 1 ? 1 : (size_t)q;
	while (k > 1 && (double)(k - 1) * g >= x)
		k--;
	while ((double)k * g < x)
		k++;
	return k;
}

void
ovb_pmf_from_hist(struct ovb_pmf *u, const struct ovb_hist *h, double g)
{
	size_t last = h->nbins ? h->nbins - 1 : 0;
	u->g = g;
	u->n = ovb_grid_up(ovb_hist_hi(h, last), g) + 1;
	u->p = ovb_xcalloc(u->n, sizeof *u->p);
	for (size_t k = 0; k < h->nbins; k++)
		if (h->count[k])
			u->p[ovb_grid_up(ovb_hist_hi(h, k), g)] +=
				(double)h->count[k] / (double)h->n;
}

double *
ovb_pmf_add_into(struct ovb_pmf *y, const struct ovb_pmf *u, double *r)
{
	size_t n = y->n + u->n - 1;
	memset(r, 0, n * sizeof *r);
	for (size_t j = 0; j < u->n; j++) {
		double pu = u->p[j];
		if (pu == 0)
			continue;
		for (size_t i = 0; i < y->n; i++)
			r[i + j] += y->p[i] * pu;
	}
	while (n > 1 && r[n - 1] == 0)
		n--;
	double *old = y->p;
	y->p = r;
	y->n = n;
	return old;
}

void
ovb_pmf_add(struct ovb_pmf *y, const struct ovb_pmf *u)
{
	free(ovb_pmf_add_into(y, u, ovb_xmalloc((y->n + u->n - 1) *
		sizeof(double))));
}

void
ovb_pmf_clip(struct ovb_pmf *y, double c)
{
	size_t k = ovb_grid_down(c, y->g) + 1;   /* the first point above c */
	if (k + 1 >= y->n)
		return;
	double lump = 0;
	for (size_t i = k; i < y->n; i++)
		lump += y->p[i];
	y->p[k] = lump;
	y->n = k + 1;
}

size_t
ovb_grid_down(double c, double g)
{
	double q = floor(c / g);
	if (!(q < (double)OVB_GRID_FAR))
		return OVB_GRID_FAR;    /* above every index a pmf can have */
	size_t k = q < 0 ? 0 : (size_t)q;
	while ((double)(k + 1) * g <= c)
		k++;
	while (k > 0 && (double)k * g > c)
		k--;
	return k;
}

double
ovb_pmf_tail(const struct ovb_pmf *y, double c)
{
	if (c < 0)
		return 1;
	size_t K = ovb_grid_down(c, y->g);
	double s = 0;
	for (size_t k = y->n; k-- > K + 1;)
		s += y->p[k];
	return s;
}

void
ovb_pmf_tails(const struct ovb_pmf *y, double *ytail)
{
	double s = 0;
	for (size_t k = y->n; k-- > 0;) {
		ytail[k] = s;   /* Pr(Y > k g): the mass above index k */
		s += y->p[k];
	}
}

double
ovb_pmf_tail_with(const struct ovb_pmf *y, const double *ytail,
	const struct ovb_pmf *u, double c)
{
	if (c < 0)
		return 1;
	size_t K = ovb_grid_down(c, y->g);   /* Y + U > c  <=>  k + j > K */
	double s = 0;
	for (size_t j = 0; j < u->n; j++)
		if (u->p[j] != 0)
			s += u->p[j] * (j > K ? 1 : K - j < y->n ? ytail[K - j] : 0);
	return s;
}

void
ovb_pmf_free(struct ovb_pmf *y)
{
	free(y->p);
	memset(y, 0, sizeof *y);
}
