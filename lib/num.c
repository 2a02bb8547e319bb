/* num.c: the canonical text of a number, written by every format.
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
 * t/0030-num.bats checks the output against the one-precision-at-a-time
 * search on random doubles of every kind. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

char *
ovb_fmt_real(char *buf, double v)
{
	if (v == 0) {
		strcpy(buf, "0");
		return buf;
	}
	if (fabs(v) < 9007199254740992.0 && v == trunc(v)) {
		snprintf(buf, 32, "%.0f", v);
		return buf;
	}
	for (int p = fabs(v) < DBL_MIN ? 1 : 15; p < 17; p++) {
		snprintf(buf, 32, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

void
ovb_put_real(FILE *f, double v)
{
	char buf[32];
	fputc(' ', f);
	fputs(ovb_fmt_real(buf, v), f);
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
