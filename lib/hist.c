/* hist.c: the grid of a usage distribution: a bin's edges, the bin of a
 * value, the rank of a percentile (formats/usage.md, "Bins").
 *
 * Bin 0 counts intervals whose usage was exactly 0; bin k >= 1 counts
 * usages in ((k-1)w, kw]. */
#include <math.h>

#include "ovb.h"

double
ovb_hist_lo(const struct ovb_hist *h, size_t k)
{
	return k == 0 ? 0 : (double)(k - 1) * h->width;
}

double
ovb_hist_hi(const struct ovb_hist *h, size_t k)
{
	return (double)k * h->width;
}

size_t
ovb_hist_bin(double x, double width)
{
	if (!(x > 0))
		return 0;
	double q = ceil(x / width);
	size_t k = q < 1 ? 1 : (size_t)q;
	while (k > 1 && (double)(k - 1) * width >= x)
		k--;
	while ((double)k * width < x)
		k++;
	return k;
}

uint64_t
ovb_pct_rank(double p, uint64_t n)
{
	double x = p * (double)n / 100;
	double r = nearbyint(x);
	uint64_t rank = fabs(x - r) <= 1e-9 * fmax(1, x) ? (uint64_t)r :
		(uint64_t)ceil(x);
	return rank < 1 ? 1 : rank > n ? n : rank;
}
