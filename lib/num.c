/* num.c: the canonical text of a number, written by every format, and the
 * strict number parsers every format and option reads with.
 *
 * Integers of magnitude below 2^53 are written plainly ("%.0f"; 0 and -0
 * as "0"); every other double in the shortest "%.Pg" form (P = 1..17) that
 * strtod reads back to the same double.  That P is found with at most
 * three conversions: if some P <= 15 reads back then "%.15g" gives the
 * same text.  Proof: let d be the P-digit decimal that reads back to v,
 * 10^e <= |v| < 10^(e+1) and 2^E <= |v| < 2^(E+1).  |v - d| <= ulp(v)/2 =
 * 2^(E-53) < 10^(e+1) 2^-53 < 0.12 10^(e-14), a tenth of half a unit in
 * the 15th digit, so rounding v to 15 digits gives d (padded with zeros,
 * which %g drops).  %g's choice of style agrees too: it differs between P
 * and 15 only when P <= X < 15 for d's decimal exponent X, which makes d
 * an integer below 10^15; a non-integer v that reads back from it would be
 * an integer (integers below 2^53 are doubles), so v is an integer below
 * 2^53, written plainly before this point.  Otherwise the shortest P is
 * 16 or 17 (17 always reads back).  The bound needs v's full 53 bits, so
 * subnormals (fewer bits, rare) take every precision from 1 in turn.
 *
 * That is the definition; three paths compute it without printf or
 * strtod for almost every number (issue 12: at 540 ns a number, writing
 * dominated every large output):
 *  - integers below 2^53: the digits directly;
 *  - fmt_short: decimals of at most 6 places below 10^9 (usages, shares,
 *    capacities), recognised by one multiplication and one exact IEEE
 *    division;
 *  - fmt_exact: every normal v with 10^-11 <= |v| < 10^17: the 17-, 16-
 *    and 15-digit roundings of v and whether each reads back, in exact
 *    128-bit integer arithmetic;
 *  - anything else (subnormals, huge or tiny magnitudes, NaN, inf): the
 *    printf and strtod search above.
 * bench/fmt-real.c and t/0030-num.bats check the output against the
 * one-precision-at-a-time search on millions of random doubles of every
 * kind (halfway cases, binade edges, subnormals), and that a wrong tie
 * rule or a wrong rounding interval below a power of two is caught. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

/* "00" "01" ... "99": two digits at a time */
static const char pair[201] =
	"00010203040506070809101112131415161718192021222324252627282930"
	"31323334353637383940414243444546474849505152535455565758596061"
	"62636465666768697071727374757677787980818283848586878889909192"
	"939495969798990";

/* Writes the P-digit decimal D (10^(P-1) <= D < 10^P) with decimal
 * exponent X as "%.Pg" does: trailing zeros dropped, scientific when
 * X < -4 or X >= P.  Returns the end of the text. */
static char *
put_g(char *o, uint64_t D, int X, int P)
{
	char d[20];
	int nd = P;
	/* two halves of at most 9 digits, two digits at a time: the two
	 * chains of divisions run side by side */
	uint32_t hi = (uint32_t)(D / 100000000), lo = (uint32_t)(D % 100000000);
	for (int i = P - 2; i >= P - 8; i -= 2, lo /= 100)
		memcpy(d + i, pair + 2 * (lo % 100), 2);
	int i = P - 9;
	for (; i >= 1; i -= 2, hi /= 100)
		memcpy(d + i - 1, pair + 2 * (hi % 100), 2);
	if (i == 0)
		d[0] = (char)('0' + hi);
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	if (X < -4 || X >= P) {
		*o++ = d[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, d + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		*o++ = 'e';
		*o++ = X < 0 ? '-' : '+';
		int x = X < 0 ? -X : X;
		if (x >= 100)
			*o++ = (char)('0' + x / 100);
		*o++ = (char)('0' + x / 10 % 10);
		*o++ = (char)('0' + x % 10);
	} else if (X >= 0) {
		for (int j = 0; j <= X; j++)
			*o++ = j < nd ? d[j] : '0';
		if (nd > X + 1) {
			*o++ = '.';
			memcpy(o, d + X + 1, (size_t)(nd - X - 1));
			o += nd - X - 1;
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (int j = -1; j > X; j--)
			*o++ = '0';
		memcpy(o, d, (size_t)nd);
		o += nd;
	}
	*o = 0;
	return o;
}

typedef unsigned __int128 u128;

/* Does the decimal C 10^-k read back to v = f 2^e, given 4 v 10^k =
 * W4 / 2^t exactly (W4 = 4 f 5^k)?  v's rounding interval is half an ulp
 * either side (a quarter below a power of two), its ends included when f
 * is even (strtod rounds ties to even).  In units of 2^-(t+2) 10^-k half
 * an ulp is 2 5^k. */
static bool
reads_back(uint64_t C, int t, u128 W4, uint64_t p5, uint64_t f, bool low)
{
	u128 A = (u128)C << (t + 2), diff, lim = (u128)p5 << 1;
	if (A >= W4)
		diff = A - W4;
	else {
		diff = W4 - A;
		if (low)
			lim = p5;
	}
	/* (an exact tie needs more than 17 digits for v in this range, so
	 * the == case is there for completeness) */
	return diff < lim || (diff == lim && !(f & 1));
}

/* The exact path for normal non-integers with 10^-11 <= |v| < 10^17:
 * v 10^k for k = 16 - X (X = floor(log10 |v|)) is f 5^k 2^(e+k) exactly,
 * at most 2^116 (5^27 < 2^63), so one 128-bit product gives the
 * correctly rounded 17-, 16- and 15-digit decimals of v (ties to even,
 * as glibc's printf in the default rounding mode) and whether each reads
 * back, without printf or strtod.  Returns the end of the text, or NULL
 * when v is out of its range. */
static char *
fmt_exact(char *buf, double v)
{
	static const uint64_t p10[18] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000, 1000000000, 10000000000u,
		100000000000u, 1000000000000u, 10000000000000u,
		100000000000000u, 1000000000000000u, 10000000000000000u,
		100000000000000000u };
	static const uint64_t pow5[28] = { 1, 5, 25, 125, 625, 3125, 15625,
		78125, 390625, 1953125, 9765625, 48828125, 244140625,
		1220703125, 6103515625, 30517578125, 152587890625,
		762939453125, 3814697265625, 19073486328125, 95367431640625,
		476837158203125, 2384185791015625, 11920928955078125,
		59604644775390625, 298023223876953125, 1490116119384765625,
		7450580596923828125u };
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	int be = (int)(bits >> 52 & 0x7ff);
	if (be == 0 || be == 0x7ff)
		return NULL;
	uint64_t f = (bits & 0x000fffffffffffffu) | (uint64_t)1 << 52;
	int e = be - 1075;
	/* X is floor((e + 52) log10 2) or one more */
	int X = (e + 52) * 78913 >> 18;
	uint64_t n, p5;
	u128 W;
	int t;
	for (;;) {
		int k = 16 - X;
		if (k < 0 || k > 27)
			return NULL;
		p5 = pow5[k];
		W = (u128)f * p5;
		t = -(e + k);
		if (t < 1 || t > 68)
			return NULL;
		n = (uint64_t)(W >> t);
		if (n < p10[17])
			break;
		X++;
	}
	if (n < p10[16])
		return NULL;  /* cannot happen: X was at most one too small */
	u128 rem = W & (((u128)1 << t) - 1), half = (u128)1 << (t - 1);
	u128 W4 = W << 2;
	bool low = f == (uint64_t)1 << 52 && be > 1;
	char *o = buf;
	if (bits >> 63)
		*o++ = '-';
	for (int P = 15; P <= 17; P++) {
		/* constant divisors: the compiler multiplies */
		uint64_t s = P == 15 ? 100 : P == 16 ? 10 : 1;
		uint64_t q = P == 15 ? n / 100 : P == 16 ? n / 10 : n;
		uint64_t r = n - q * s, D = q;
		/* round n + rem / 2^t to a multiple of s, ties to even */
		if (P == 17) {
			if (rem > half || (rem == half && (q & 1)))
				D++;
		} else if (r > s / 2 || (r == s / 2 && (rem || (q & 1))))
			D++;
		if (P < 17 && !reads_back(D * s, t, W4, p5, f, low))
			continue;
		if (P == 17 && !reads_back(D, t, W4, p5, f, low))
			return NULL;  /* cannot happen: 17 digits always read back */
		int x = X;
		if (D == p10[P]) {
			D = p10[P - 1];
			x++;
		}
		return put_g(o, D, x, P);
	}
	return NULL;
}

/* The shortest path, for most numbers written (usages read from text,
 * capacities, shares): is v a decimal of at most 6 places, m 10^-6 with
 * m < 10^15?  m / 10^6 (both exact doubles) is correctly rounded by IEEE
 * division, so it equals v exactly when the decimal reads back to v; it
 * then has at most 15 digits, and is the text of %.15g (lib/num.c's
 * header: at most one decimal of 15 digits or fewer reads back).  An m
 * off by one from v 10^6 fails the test and is never wrong.  Returns the
 * end of the text, or NULL. */
static char *
fmt_short(char *buf, double v)
{
	static const uint64_t p10[16] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000, 1000000000, 10000000000u,
		100000000000u, 1000000000000u, 10000000000000u,
		100000000000000u, 1000000000000000u };
	double a = fabs(v);
	if (!(a < 1e9))
		return NULL;
	double m = (double)(int64_t)(a * 1e6 + 0.5);
	if (m == 0 || m / 1e6 != a)
		return NULL;
	uint64_t u = (uint64_t)m;
	char *o = buf;
	if (v < 0)
		*o++ = '-';
	if (a < 1e-4) {  /* %g's scientific form */
		int nd = 1;
		while (nd < 15 && u >= p10[nd])
			nd++;
		return put_g(o, u * p10[15 - nd], nd - 7, 15);
	}
	/* fixed: the integer part, then up to 6 places without trailing
	 * zeros (%.15g, as the value has at most 15 digits) */
	uint64_t ip = u / 1000000;
	uint32_t fr = (uint32_t)(u % 1000000);
	char d[20];
	int n = 0;
	do
		d[n++] = (char)('0' + ip % 10);
	while (ip /= 10);
	while (n)
		*o++ = d[--n];
	if (fr) {
		int nf = 6;
		while (fr % 10 == 0)
			fr /= 10, nf--;
		*o++ = '.';
		for (int i = nf - 1; i >= 0; i--, fr /= 10)
			o[i] = (char)('0' + fr % 10);
		o += nf;
	}
	*o = 0;
	return o;
}

/* The search by printf and strtod: subnormals and magnitudes outside
 * fmt_exact's range. */
static char *
fmt_search(char *buf, double v)
{
	for (int p = fabs(v) < DBL_MIN ? 1 : 15; p < 17; p++) {
		snprintf(buf, 32, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

char *
ovb_fmt_real_end(char *buf, double v)
{
	if (v == 0) {
		strcpy(buf, "0");
		return buf + 1;
	}
	if (fabs(v) < 9007199254740992.0 && v == trunc(v)) {
		char d[20], *o = buf;
		uint64_t u = (uint64_t)fabs(v);
		int nd = 0;
		if (v < 0)
			*o++ = '-';
		do
			d[nd++] = (char)('0' + u % 10);
		while (u /= 10);
		while (nd)
			*o++ = d[--nd];
		*o = 0;
		return o;
	}
	char *o = fmt_short(buf, v);
	if (!o)
		o = fmt_exact(buf, v);
	return o ? o : fmt_search(buf, v) + strlen(buf);
}

char *
ovb_fmt_real(char *buf, double v)
{
	ovb_fmt_real_end(buf, v);
	return buf;
}

char *
ovb_fmt_u64_end(char *buf, uint64_t v)
{
	char d[20];
	int i = 20;
	while (v >= 100) {
		i -= 2;
		memcpy(d + i, pair + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		i -= 2;
		memcpy(d + i, pair + 2 * v, 2);
	} else
		d[--i] = (char)('0' + v);
	memcpy(buf, d + i, (size_t)(20 - i));
	buf += 20 - i;
	*buf = 0;
	return buf;
}

char *
ovb_fmt_msg_num(char *buf, double v)
{
	if (isnan(v))
		return strcpy(buf, "undefined (not a number)");
	if (isinf(v))
		return strcpy(buf, v > 0 ?
			"above the largest representable value "
			"(1.7976931348623157e+308)" :
			"below the lowest representable value "
			"(-1.7976931348623157e+308)");
	return ovb_fmt_real(buf, v);
}

void
ovb_put_real(FILE *f, double v)
{
	char buf[33];
	buf[0] = ' ';
	char *e = ovb_fmt_real_end(buf + 1, v);
	fwrite_unlocked(buf, 1, (size_t)(e - buf), f);
}

/* v = m 2^e exactly, m an odd integer (0 for v == 0). */
void
ovb_split_double(double v, int64_t *m, int *e)
{
	if (v == 0) {
		*m = 0;
		*e = 0;
		return;
	}
	int x;
	double f = frexp(v, &x);
	int64_t mm = (int64_t)ldexp(f, 53);
	int ee = x - 53;
	while (!(mm & 1))
		mm >>= 1, ee++;
	*m = mm;
	*e = ee;
}

/* ---- reading: a decimal m 10^e10 as the nearest double ----
 *
 * The inverse of the writer's exact path, for the readers (formats/lex.c's
 * ovb_parse_real, formats/bitbrains.c): the double strtod returns
 * (correctly rounded, ties to even) for m 10^e10 with m < 2^64 (at most 19
 * significant digits) and |e10| <= 19, without strtod:
 *  - Clinger's fast path: m < 2^53 and |e10| <= 22: m and 10^|e10| are
 *    exact doubles, so one IEEE multiplication or division rounds once;
 *  - e10 >= 0: N = m 10^e10 < 2^128 exactly, rounded to 53 bits;
 *  - e10 < 0: q = floor(m 2^s / 10^d) for the shift s that puts q in
 *    [2^62, 2^64), the remainder's being non-zero a sticky bit below q's
 *    last bit, rounded to 53 bits: exact, since 10^d < 2^64 divides in
 *    one 128-by-64-bit division.
 * Every result lies between 10^-19 and 2^64 10^19, well inside the normal
 * range.  bench/parse-real.c checks it against strtod on millions of
 * random decimals (t/0030-num.bats). */

typedef unsigned __int128 u128_t;

static const uint64_t pow10_u64[20] = { 1, 10, 100, 1000, 10000, 100000,
	1000000, 10000000, 100000000, 1000000000, 10000000000u,
	100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
	1000000000000000u, 10000000000000000u, 100000000000000000u,
	1000000000000000000u, 10000000000000000000u };

/* The double nearest (q + f) 2^e2 for some 0 <= f < 1, f > 0 iff sticky,
 * q >= 2^53 (so that the bits below q's last lie under half a unit of the
 * 11 dropped), ties to even; the result must be a normal double. */
static double
round_q(uint64_t q, bool sticky, int e2)
{
	int lz = __builtin_clzll(q);
	q <<= lz;
	e2 -= lz;
	uint64_t M = q >> 11, rest = q & 0x7ff;
	if (rest > 0x400 || (rest == 0x400 && (sticky || (M & 1))))
		M++;
	e2 += 11;
	if (M == (uint64_t)1 << 53) {
		M >>= 1;
		e2++;
	}
	uint64_t bits = (uint64_t)(e2 + 52 + 1023) << 52 |
		(M & (((uint64_t)1 << 52) - 1));
	double v;
	memcpy(&v, &bits, sizeof v);
	return v;
}

bool
ovb_decimal_to_double(uint64_t m, int e10, double *v)
{
	static const double p10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
		1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
		1e18, 1e19, 1e20, 1e21, 1e22 };
	if (m == 0) {
		*v = 0;
		return true;
	}
	if (m < (uint64_t)1 << 53 && e10 >= -22 && e10 <= 22) {
		*v = e10 < 0 ? (double)m / p10[-e10] : (double)m * p10[e10];
		return true;
	}
	if (e10 > 19 || e10 < -19)
		return false;
	if (e10 >= 0) {
		u128_t N = (u128_t)m * pow10_u64[e10];
		uint64_t hi = (uint64_t)(N >> 64);
		if (!hi) {
			*v = (double)(uint64_t)N;  /* correctly rounded */
			return true;
		}
		int s = 64 - __builtin_clzll(hi);
		uint64_t q = (uint64_t)(N >> s);
		bool sticky = (N & (((u128_t)1 << s) - 1)) != 0;
		*v = round_q(q, sticky, s);
		return true;
	}
	uint64_t p = pow10_u64[-e10];
	int bm = 64 - __builtin_clzll(m), bp = 64 - __builtin_clzll(p);
	int s = 63 + bp - bm;
	u128_t N = (u128_t)m << s;
	uint64_t q, r;
#if defined(__x86_64__)
	/* N < p 2^64: the quotient fits, divq cannot fault */
	__asm__("divq %4" : "=a"(q), "=d"(r)
		: "a"((uint64_t)N), "d"((uint64_t)(N >> 64)), "rm"(p));
#else
	q = (uint64_t)(N / p);
	r = (uint64_t)(N % p);
#endif
	*v = round_q(q, r != 0, -s);
	return true;
}

/* ---- reading: strict numbers ---- */

static const char *
digits(const char *p)
{
	const char *q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	return q == p ? NULL : q;
}

/* The fast path: a decimal [-]DIGITS[.DIGITS][(e|E)[+-]DIGITS] (already
 * checked against the grammar) with at most 19 significant digits m and
 * a decimal exponent e10 within ovb_decimal_to_double's range (lib/num.c:
 * |e10| <= 19, or 22 when m < 2^53) is converted exactly, to the double
 * strtod returns, without strtod.  Anything else (more digits, a larger
 * exponent, zero) goes to strtod. */
static bool
fast_decimal(const char *s, double *v)
{
	const char *p = s;
	bool neg = *p == '-';
	uint64_t m = 0;
	int nd = 0, e10 = 0;
	if (neg)
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		if (m || *p != '0') {
			if (++nd > 19)
				return false;
			m = m * 10 + (uint64_t)(*p - '0');
		}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++) {
			e10--;
			if (m || *p != '0') {
				if (++nd > 19)
					return false;
				m = m * 10 + (uint64_t)(*p - '0');
			}
		}
	if (*p == 'e' || *p == 'E') {
		p++;
		bool eneg = *p == '-';
		if (*p == '+' || *p == '-')
			p++;
		int x = 0;
		for (; *p >= '0' && *p <= '9'; p++) {
			x = x * 10 + (*p - '0');
			if (x > 99)
				return false;
		}
		e10 += eneg ? -x : x;
	}
	if (m == 0 || !ovb_decimal_to_double(m, e10, v))
		return false;
	if (neg)
		*v = -*v;
	return true;
}

bool
ovb_parse_real(const char *s, double *v)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (!(p = digits(p)))
		return false;
	if (*p == '.' && !(p = digits(p + 1)))
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(p = digits(p)))
			return false;
	}
	if (*p)
		return false;
	double x;
	if (fast_decimal(s, &x)) {
		*v = x;
		return true;
	}
	errno = 0;
	x = strtod(s, NULL);
	if (!isfinite(x))
		return false;
	if (x == 0 && errno == ERANGE)
		return false; /* a non-zero value too small to represent */
	*v = x == 0 ? 0 : x; /* no negative zero */
	return true;
}

bool
ovb_parse_u64(const char *s, uint64_t *v)
{
	if (!digits(s) || *digits(s))
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, NULL, 10);
	if (errno == ERANGE)
		return false;
	*v = x;
	return true;
}
