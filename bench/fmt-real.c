/* fmt-real.c: ovb_fmt_real (lib/num.c) against the algorithm it replaced.
 *
 *	fmt-real check N SEED   compare the texts on N random doubles of every
 *	                        kind (and a fixed list); exit 1 on a difference
 *	fmt-real bench N [MIX]  CPU ns per number: the old searches (1..17,
 *	                        series.c's bisection, printf 15/16/17) and
 *	                        ovb_fmt_real; MIX 0 the formats' numbers, 1
 *	                        ovb-trade's
 *
 * Built from this file and lib/num.c alone (t/0030-num.bats, bench/run):
 *	cc -O2 -Ilib bench/fmt-real.c lib/num.c -lm */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovb.h"

/* The reference: formats/lex.c's ovb_fmt_real before lib/num.c, trying
 * precisions 1, 2, ... 17 until one reads back. */
static char *
old_fmt(char *buf, double v)
{
	if (v == 0) {
		strcpy(buf, "0");
		return buf;
	}
	if (fabs(v) < 9007199254740992.0 && v == trunc(v)) {
		snprintf(buf, 32, "%.0f", v);
		return buf;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(buf, 32, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* formats/series.c's private fmt_real before lib/num.c: bisection. */
static char *
bisect_fmt(char *buf, double v)
{
	if (v == 0 || (fabs(v) < 9007199254740992.0 && v == trunc(v)))
		return old_fmt(buf, v);
	int lo = 1, hi = 17;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		snprintf(buf, 32, "%.*g", mid, v);
		if (strtod(buf, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(buf, 32, "%.*g", lo, v);
	return buf;
}

/* lib/num.c's ovb_fmt_real before the exact path (issue 12): %.15g,
 * %.16g, %.17g by printf, each read back by strtod. */
static char *
search_fmt(char *buf, double v)
{
	if (v == 0 || (fabs(v) < 9007199254740992.0 && v == trunc(v)))
		return old_fmt(buf, v);
	for (int p = fabs(v) < DBL_MIN ? 1 : 15; p < 17; p++) {
		snprintf(buf, 32, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

static uint64_t
next(uint64_t *s)    /* splitmix64 */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static double
from_bits(uint64_t b)
{
	double v;
	memcpy(&v, &b, sizeof v);
	return v;
}

/* A random double of kind k (0..10). */
static double
draw(uint64_t *s, int k)
{
	uint64_t r = next(s), sign = r >> 63;
	double v = 0;
	char text[64];
	switch (k) {
	case 0:         /* any bit pattern: NaN, inf, subnormal, huge */
		return from_bits(r);
	case 1:         /* subnormal */
		v = from_bits(r & 0x000fffffffffffffu);
		break;
	case 2:         /* huge: the top binades */
		v = from_bits((0x7fcu + (r >> 61)) << 52 | (next(s) &
			0x000fffffffffffffu));
		break;
	case 3:         /* integers and halves near 2^52, 2^53, 2^54 */
		v = ldexp(1, 52 + (int)(r % 3)) + (double)((int64_t)(next(s) %
			2001) - 1000);
		if (r & 2)
			v += 0.5;
		break;
	case 4:         /* short decimals: 1..17 digits times 10^-30..10^30 */
		snprintf(text, sizeof text, "%llue%d", (unsigned long long)(
			next(s) % (uint64_t)pow(10, (double)(1 + r % 17))),
			(int)(next(s) % 61) - 30);
		v = strtod(text, NULL);
		break;
	case 5:         /* a few ulps from a power of two or ten */
		v = r & 4 ? ldexp(1, (int)(next(s) % 200) - 100) :
			pow(10, (double)((int)(next(s) % 60) - 30));
		for (int i = (int)(r % 7); i > 3; i--)
			v = nextafter(v, INFINITY);
		for (int i = (int)(r % 7); i < 3; i++)
			v = nextafter(v, 0);
		break;
	case 6:         /* uniform in [0, 1), and its scaled copies */
		v = (double)(next(s) >> 11) * 0x1p-53 * pow(10, (double)(r %
			20) - 10);
		break;
	case 8:         /* halfway cases: integers of 14..16 digits plus
			 * j / 2^b, whose 16 or 17 digits end in a tie */
		v = (double)(int64_t)(next(s) % 4503599627370496u) /
			(double)(1u << (r % 5)) + (double)(next(s) % 16) / 16;
		break;
	case 9:         /* any mantissa, binades 2^-50 .. 2^60 (the edges of
			 * the exact path near 10^-11 and 10^17) */
		v = from_bits((uint64_t)(1023 - 50 + (int)(r % 111)) << 52 |
			(next(s) & 0x000fffffffffffffu));
		break;
	default:        /* small integers and simple fractions */
		v = (double)(int64_t)(next(s) % 100000) / (double)(1 + r % 1000);
		break;
	}
	return sign ? -v : v;
}

static const double fixed[] = { 0.1, 0.2, 0.3, 1e-5, 1e21, 1e22, 1e23,
	1e15, 1e16, 1e17, 123456789012345.6, 0.1 + 0.2, 1.0 / 3, 2.0 / 3,
	5e-324, 1e-323, DBL_MIN, DBL_MAX, -DBL_MAX, 9007199254740992.0,
	9007199254740991.0, 9007199254740994.0, 4503599627370495.5,
	-4503599627370495.5, 18014398509481984.0, 1.5, 100, 1e100, -0.0,
	0.0, 1e-7, 123e-20, 2.5e-308, 9.999999999999999e22 };

static int
check(long n, uint64_t seed)
{
	char a[32], b[32];
	long bad = 0, total = 0;
	double vals[sizeof fixed / sizeof *fixed + 3];
	size_t nf = sizeof fixed / sizeof *fixed;
	memcpy(vals, fixed, sizeof fixed);
	vals[nf++] = NAN;
	vals[nf++] = INFINITY;
	vals[nf++] = -INFINITY;
	for (long i = 0; i < n + (long)nf; i++) {
		double v = i < (long)nf ? vals[i] : draw(&seed, (int)(i % 11));
		old_fmt(a, v);
		ovb_fmt_real(b, v);
		total++;
		if (strcmp(a, b) != 0 && bad++ < 10)
			printf("differ: %a old %s new %s\n", v, a, b);
	}
	printf("%ld doubles, %ld differ\n", total, bad);
	return bad ? 1 : 0;
}

static double
now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);  /* CPU: a shared machine */
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int
bench(long n, int mix)
{
	uint64_t seed = 42;
	double *v = malloc((size_t)n * sizeof *v);
	if (!v)
		return 70;
	/* mix 0, what the formats write: measured rates, probabilities, bin
	 * edges (short decimals times 10^-30..10^30, uniform values scaled by
	 * 10^-10..10^9); mix 1, what ovb-trade writes: usages of 3 places in
	 * [0, 4), and results of arithmetic on them (x 1.1, sums) */
	for (long i = 0; i < n; i++) {
		if (mix == 0)
			v[i] = draw(&seed, i % 2 ? 6 : 4);
		else {
			double u = (double)(next(&seed) % 4000) / 1000;
			v[i] = i % 4 == 3 ? u * 1.1 + 0.9 * (double)(next(&seed) %
				1000) / 1000 : u;
		}
	}
	char *(*fn[4])(char *, double) = { old_fmt, bisect_fmt, search_fmt,
		ovb_fmt_real };
	const char *name[4] = { "old: precisions 1..17 in turn",
		"old series.c: bisection", "old: printf 15, 16, 17",
		"ovb_fmt_real: exact path" };
	double best[4];
	size_t sink = 0;
	for (int k = 0; k < 4; k++) {
		best[k] = INFINITY;
		for (int rep = 0; rep < 3; rep++) {
			char buf[32];
			double t = now();
			for (long i = 0; i < n; i++)
				sink += strlen(fn[k](buf, v[i]));
			t = now() - t;
			if (t < best[k])
				best[k] = t;
		}
	}
	for (int k = 0; k < 4; k++)
		printf("%-32s %7.0f ns per number (%.2fx)\n", name[k],
			best[k] / (double)n * 1e9, best[0] / best[k]);
	printf("(%ld numbers, best of 3; %zu bytes)\n", n, sink / 12);
	free(v);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "check") == 0)
		return check(atol(argv[2]), argc > 3 ?
			strtoull(argv[3], NULL, 10) : 1);
	if (argc >= 3 && strcmp(argv[1], "bench") == 0)
		return bench(atol(argv[2]), argc > 3 ? atoi(argv[3]) : 0);
	fprintf(stderr, "usage: fmt-real check N [SEED] | bench N [MIX]\n");
	return 64;
}
