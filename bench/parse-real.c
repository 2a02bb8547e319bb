/* parse-real.c: ovb_decimal_to_double (lib/num.c), the readers' exact
 * decimal conversion, against glibc's strtod.
 *
 *	parse-real check N SEED   N random decimals of every kind (1-19
 *	                          digits, |e10| <= 19, exact halfway cases
 *	                          and their neighbours, the shortest and
 *	                          longer texts of random doubles): the double
 *	                          must be strtod's; exit 1 on a difference
 *	parse-real bench N        CPU ns per number, strtod and
 *	                          ovb_decimal_to_double, on numbers like the
 *	                          Bitbrains traces' (17-digit decimals)
 *
 * Built from this file and lib/num.c alone (t/0030-num.bats):
 *	cc -O2 -Ilib bench/parse-real.c lib/num.c -lm */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovb.h"

static uint64_t rng;

/* splitmix64, as lib/util.c's ovb_rng_next: a copy keeps this file
 * buildable from lib/num.c alone */
static uint64_t
next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static unsigned long checked, differ;

/* Compares m 10^e10 (when inside the function's range) with strtod. */
static void
one(uint64_t m, int e10)
{
	double v;
	if (!ovb_decimal_to_double(m, e10, &v))
		return;
	char s[64];
	snprintf(s, sizeof s, "%" PRIu64 "e%d", m, e10);
	double w = strtod(s, NULL);
	checked++;
	if (memcmp(&v, &w, sizeof v) != 0) {
		if (differ++ < 10)
			printf("%s: %.17g, strtod %.17g\n", s, v, w);
	}
}

/* The decimal digits of a double's %.Pg text as m and e10. */
static void
from_double(double d, int P)
{
	char s[64];
	snprintf(s, sizeof s, "%.*e", P - 1, d);
	uint64_t m = 0;
	int nd = 0;
	char *p = s;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9') {
			m = m * 10 + (uint64_t)(*p - '0');
			nd++;
		}
	int x = atoi(p + 1);
	one(m, x - (nd - 1));
}

static int
check(unsigned long n)
{
	static const uint64_t p10[20] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000, 1000000000, 10000000000u,
		100000000000u, 1000000000000u, 10000000000000u,
		100000000000000u, 1000000000000000u, 10000000000000000u,
		100000000000000000u, 1000000000000000000u,
		10000000000000000000u };
	for (unsigned long i = 0; i < n; i++) {
		int nd = 1 + (int)(next() % 19);
		uint64_t m = next() % p10[nd];
		int e = (int)(next() % 45) - 22;
		one(m, e);
		/* halfway between two doubles: an odd integer over 2^j times
		 * 2^j, as an integer (e10 >= 0) or a decimal of j places */
		uint64_t k = (next() >> 10) | (uint64_t)1 << 53 | 1;
		int j = (int)(next() % 11);
		if (k <= UINT64_MAX >> j) {
			uint64_t h = k << j;        /* halfway at 2^(j+1) ulp */
			one(h, 0);
			one(h - 1, 0);
			one(h + 1, 0);
			while (h % 10 == 0) {
				h /= 10;
				one(h, (int)(next() % 3));
			}
		}
		/* k / 2^j = 5^j k / 10^j, halfway when k odd >= 2^53 */
		uint64_t q = k;
		for (int t = 1; t <= 8; t++) {
			if (q > UINT64_MAX / 5)
				break;
			q *= 5;
			one(q, -t);
			one(q - 1, -t);
			one(q + 1, -t);
		}
		/* random doubles of every magnitude the range covers */
		uint64_t bits = (uint64_t)(1023 - 66 + (int)(next() % 133)) << 52 |
			(next() & (((uint64_t)1 << 52) - 1));
		double d;
		memcpy(&d, &bits, sizeof d);
		from_double(d, 15);
		from_double(d, 16);
		from_double(d, 17);
		from_double(d, 19);
	}
	printf("%lu decimals, %lu differ from strtod\n", checked, differ);
	return differ ? 1 : 0;
}

static double
cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
bench(unsigned long n)
{
	/* usages as the traces write them: 16-17 digits, a few places */
	char (*s)[32] = malloc(n * sizeof *s);
	uint64_t *m = malloc(n * sizeof *m);
	int *e = malloc(n * sizeof *e);
	if (!s || !m || !e)
		return 2;
	for (unsigned long i = 0; i < n; i++) {
		double d = (double)(next() >> 11) * 0x1p-53 *
			pow(10, (double)(next() % 7));
		snprintf(s[i], sizeof s[i], "%.17g", d);
		uint64_t mm = 0;
		int nd = 0, dot = -1;
		for (char *p = s[i]; *p; p++)
			if (*p == '.')
				dot = nd;
			else
				mm = mm * 10 + (uint64_t)(*p - '0'), nd++;
		m[i] = mm;
		e[i] = dot < 0 ? 0 : dot - nd;
	}
	double sum = 0, best_s = 1e9, best_f = 1e9;
	for (int r = 0; r < 3; r++) {
		double t0 = cpu_now();
		for (unsigned long i = 0; i < n; i++)
			sum += strtod(s[i], NULL);
		double t1 = cpu_now();
		for (unsigned long i = 0; i < n; i++) {
			double v;
			ovb_decimal_to_double(m[i], e[i], &v);
			sum += v;
		}
		double t2 = cpu_now();
		if (t1 - t0 < best_s)
			best_s = t1 - t0;
		if (t2 - t1 < best_f)
			best_f = t2 - t1;
	}
	printf("strtod %.1f ns, ovb_decimal_to_double %.1f ns per number "
		"(best of 3, %lu numbers; checksum %g)\n", best_s * 1e9 / (double)n,
		best_f * 1e9 / (double)n, n, sum);
	free(s);
	free(m);
	free(e);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "check") == 0) {
		rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
		return check(strtoul(argv[2], NULL, 10));
	}
	if (argc >= 3 && strcmp(argv[1], "bench") == 0) {
		rng = 1;
		return bench(strtoul(argv[2], NULL, 10));
	}
	fprintf(stderr, "usage: parse-real check N SEED | bench N\n");
	return 2;
}
