/* series.c: time-aligned usage samples (format ovb-series, spec: series.md),
 * and what the profiling and replay tools compute from them.
 *
 *	series CAPSULE RES / interval I s / sample T V...
 *
 * Invariants of a read series: 1 <= I <= OVB_SERIES_MAXI; at least one
 * sample; T strictly increasing multiples of I with T + I <=
 * OVB_SERIES_MAXT; V finite and >= 0.  (CAPSULE, RES) unique in a file.
 *
 * Exactness: a double is m 2^e with an integer m < 2^53, so sums of doubles
 * are exact as integers once every value is scaled to a common power of
 * two.  Means and sums against a capacity use GMP integers (any range);
 * the token-bucket envelope, which needs many passes, uses __int128 with a
 * common scale chosen so that nothing can overflow. */
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

/* ---- the format ---- */

struct ovb_series *
ovb_series_add(struct ovb_series_set *ss, const char *capsule,
	enum ovb_res res, uint64_t interval)
{
	struct ovb_series *s = OVB_PUSH(ss->s, ss->n, ss->cap);
	memset(s, 0, sizeof *s);
	s->capsule = ovb_xstrdup(capsule);
	s->res = res;
	s->interval = interval;
	return s;
}

void
ovb_series_push(struct ovb_series *s, uint64_t t, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->t = ovb_xrealloc(s->t, s->cap, sizeof *s->t);
		s->v = ovb_xrealloc(s->v, s->cap, sizeof *s->v);
	}
	s->t[s->n] = t;
	s->v[s->n++] = v;
}

const struct ovb_series *
ovb_series_find(const struct ovb_series_set *ss, const char *capsule,
	enum ovb_res res)
{
	for (size_t i = 0; i < ss->n; i++)
		if (ss->s[i].res == res && strcmp(ss->s[i].capsule, capsule) == 0)
			return &ss->s[i];
	return NULL;
}

static int
read_interval(struct ovb_series *s, struct ovb_lex *lx)
{
	uint64_t i;
	int st = ovb_arity(lx, 3, 3, "interval I s");
	if (st || (st = ovb_tok_u64(lx, 1, "interval", &i)) ||
	    (st = ovb_tok_unit(lx, 2, "s")))
		return st;
	if (s->interval)
		return ovb_err(lx, "interval is given twice in this series "
			"(opened at line %lu)", s->line);
	if (i < 1 || i > OVB_SERIES_MAXI)
		return ovb_err(lx, "interval: %s s is not an integer number of "
			"seconds in 1..%u", lx->tok[1], OVB_SERIES_MAXI);
	s->interval = i;
	return 0;
}

static int
read_sample(struct ovb_series *s, struct ovb_lex *lx)
{
	uint64_t t;
	double v;
	int st = ovb_arity(lx, 3, 3, "sample T V");
	if (st || (st = ovb_tok_u64(lx, 1, "sample time", &t)) ||
	    (st = ovb_tok_nonneg(lx, 2, "sample value", &v)))
		return st;
	if (!s->interval)
		return ovb_err(lx, "sample before the series' 'interval I s' "
			"record");
	if (t % s->interval)
		return ovb_err(lx, "sample: time %s is not a multiple of the "
			"interval %llu s", lx->tok[1],
			(unsigned long long)s->interval);
	if (t > OVB_SERIES_MAXT - s->interval)
		return ovb_err(lx, "sample: time %s is too large (T + I must "
			"be at most 2^62)", lx->tok[1]);
	if (s->n && t <= s->t[s->n - 1])
		return ovb_err(lx, "sample: time %s is not after the previous "
			"sample's %llu (times must increase)", lx->tok[1],
			(unsigned long long)s->t[s->n - 1]);
	ovb_series_push(s, t, v);
	return 0;
}

static int
end_block(const struct ovb_series *s, const struct ovb_lex *lx)
{
	if (!s->interval)
		return ovb_err_at(lx->name, s->line, "series %s %s: missing "
			"'interval' record", s->capsule, ovb_res_name(s->res));
	if (!s->n)
		return ovb_err_at(lx->name, s->line, "series %s %s: no samples",
			s->capsule, ovb_res_name(s->res));
	return 0;
}

int
ovb_series_read(struct ovb_lex *lx, struct ovb_series_set *ss)
{
	memset(ss, 0, sizeof *ss);
	struct ovb_names seen = { 0 };
	char **keys = NULL;
	size_t nkeys = 0;
	struct ovb_series *cur = NULL;
	int st = ovb_magic(lx, "series");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0];
		st = 0;
		if (strcmp(kw, "series") == 0) {
			if (cur && (st = end_block(cur, lx)))
				break;
			struct ovb_dist d;
			memset(&d, 0, sizeof d);
			if ((st = ovb_block_open(lx, &seen, &keys, &nkeys, &d)))
				break;
			cur = ovb_series_add(ss, d.capsule, d.res, 0);
			cur->line = lx->line;
			ovb_dist_free(&d);
		} else if (!cur)
			st = ovb_err(lx, "'%s' before any 'series CAPSULE RES' "
				"record", kw);
		else if (strcmp(kw, "interval") == 0)
			st = read_interval(cur, lx);
		else if (strcmp(kw, "sample") == 0)
			st = read_sample(cur, lx);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-series "
				"file", kw);
	}
	if (!st && cur)
		st = end_block(cur, lx);
	else if (!st)
		st = ovb_err(lx, "no series");
	ovb_block_keys_free(&seen, keys, nkeys);
	return st;
}

int
ovb_series_write(FILE *f, const struct ovb_series_set *ss)
{
	ovb_put_magic(f, "series");
	fputs("# series CAPSULE RES; interval I s; sample T V: the mean usage "
	      "over [T, T+I)\n# in cpu or B/s, T in s since the epoch, a "
	      "multiple of I, increasing\n", f);
	char buf[32];
	for (size_t i = 0; i < ss->n; i++) {
		const struct ovb_series *s = &ss->s[i];
		fprintf(f, "series %s %s\ninterval %llu s\n", s->capsule,
			ovb_res_name(s->res), (unsigned long long)s->interval);
		for (size_t k = 0; k < s->n; k++)
			fprintf(f, "sample %llu %s\n", (unsigned long long)s->t[k],
				ovb_fmt_real(buf, s->v[k]));
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_series_free(struct ovb_series_set *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->s[i].capsule);
		free(ss->s[i].t);
		free(ss->s[i].v);
	}
	free(ss->s);
	memset(ss, 0, sizeof *ss);
}

/* ---- exact sums ---- */

/* v = m 2^e exactly, m an odd integer (0 for v == 0). */
static void
split_double(double v, int64_t *m, int *e)
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
		split_double(v[i], &m, &e);
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
		split_double(v[i], &m, &e);
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
	double *kept = ovb_xcalloc(s->n + 1, sizeof *kept);
	size_t nkept = 0;
	for (size_t i = 0; i < s->n;) {
		uint64_t w = s->t[i] / len;   /* the interval of sample i */
		size_t j = i;
		while (j < s->n && s->t[j] / len == w)
			j++;
		if (j - i == k) {   /* on the grid and increasing: complete */
			double x = ovb_exact_mean(s->v + i, (size_t)k);
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

/* ---- the token-bucket curve of a series ----
 *
 * The same method as tbucket.c (which see), on the points of a
 * piecewise-linear A: per run of consecutive samples, the points are the
 * sample starts and the run's end, times in units of I from the run's
 * start, A in units of 2^E (value) x I (time), continuous (no steps).
 * rho(sigma) = max over points s <= t of one run of A(t) - A(s) -
 * sigma (t - s). */

typedef __int128 i128;

struct spt { int64_t t; i128 a; };
struct sline { i128 dt, da; };
struct sscan { i128 v; struct sline l; };

struct strace {
	size_t n, nseg;
	struct spt *p;
	size_t *seg;            /* run k is p[seg[k] .. seg[k+1]) */
	i128 total;             /* scaled sum of all samples */
	int E;                  /* values are in units of 2^E */
	bool rounded;           /* some value was rounded up to the grid */
};

static int
bits_of(uint64_t x)
{
	int b = 0;
	for (; x; x >>= 1)
		b++;
	return b;
}

/* The value in units of 2^E, rounded up. */
static i128
scaled(double v, int E, bool *rounded)
{
	int64_t m;
	int e;
	split_double(v, &m, &e);
	if (!m)
		return 0;
	if (e >= E)
		return (i128)m << (e - E);
	*rounded = true;
	int sh = E - e;
	if (sh >= 63)
		return 1;
	i128 q = (i128)m >> sh;
	return ((q << sh) == m) ? q : q + 1;
}

static const char *
build(struct strace *tr, const struct ovb_series *s)
{
	int nb = bits_of((uint64_t)s->n + 1);
	if (2 * nb > 60)
		return "series too long for exact 128-bit arithmetic";
	int emin = 0, etop = 0;
	bool any = false;
	for (size_t i = 0; i < s->n; i++) {
		int64_t m;
		int e, x;
		split_double(s->v[i], &m, &e);
		if (!m)
			continue;
		frexp(s->v[i], &x);
		if (!any || e < emin)
			emin = e;
		if (!any || x > etop)
			etop = x;
		any = true;
	}
	/* every value < 2^(etop - E); sums < 2^(etop - E + nb); products
	 * with times (< 2^nb) < 2^(etop - E + 2 nb) <= 2^125 */
	int E = emin;
	if (any && etop - E > 125 - 2 * nb)
		E = etop - (125 - 2 * nb);
	tr->E = E;
	tr->p = ovb_xcalloc(2 * s->n, sizeof *tr->p);
	tr->seg = ovb_xcalloc(s->n + 1, sizeof *tr->seg);
	i128 a = 0;
	int64_t t0 = 0;
	for (size_t i = 0; i < s->n; i++) {
		bool start = i == 0 || s->t[i] != s->t[i - 1] + s->interval;
		if (start) {
			tr->seg[tr->nseg++] = tr->n;
			t0 = (int64_t)(s->t[i] / s->interval);
			tr->p[tr->n++] = (struct spt){ 0, a };
		}
		a += scaled(s->v[i], E, &tr->rounded);
		tr->p[tr->n++] = (struct spt){ (int64_t)(s->t[i] /
			s->interval) - t0 + 1, a };
	}
	tr->total = a;
	return NULL;
}

static struct sscan
sscan(const struct strace *tr, i128 p, i128 q)
{
	struct sscan b = { 0, { 0, 0 } };
	for (size_t k = 0; k < tr->nseg; k++) {
		size_t end = k + 1 < tr->nseg ? tr->seg[k + 1] : tr->n;
		size_t arg = tr->seg[k];
		i128 min = 0;
		for (size_t i = tr->seg[k]; i < end; i++) {
			const struct spt *x = &tr->p[i];
			i128 g = q * x->a - p * x->t;
			if (i == tr->seg[k] || g < min)
				min = g, arg = i;
			i128 v = g - min;
			if (v > b.v) {
				b.v = v;
				b.l.dt = x->t - tr->p[arg].t;
				b.l.da = x->a - tr->p[arg].a;
			}
		}
	}
	return b;
}

static i128
sat(struct sline l, i128 p, i128 q)
{
	return q * l.da - p * l.dt;
}

/* sigma = p/q 2^E [rate unit]; rho = v/q 2^E I [amount unit]. */
static struct ovb_pt
spoint(const struct strace *tr, uint64_t interval, i128 p, i128 q, i128 v)
{
	struct ovb_pt x;
	x.sigma = (double)ldexpl((long double)p / (long double)q, tr->E);
	x.rho = (double)(ldexpl((long double)v / (long double)q, tr->E) *
		(long double)interval);
	return x;
}

/* As put() in tbucket.c: keeps the rounded points valid for
 * ovb_curve_point; a dropped point leaves the chord, an upper bound. */
static void
sput(struct ovb_curve *cv, struct ovb_pt x)
{
	while (cv->n) {
		const struct ovb_pt *q = &cv->pt[cv->n - 1];
		bool bad = x.sigma <= q->sigma || x.rho > q->rho;
		if (!bad && cv->n >= 2) {
			const struct ovb_pt *o = q - 1;
			double s1 = (q->rho - o->rho) / (q->sigma - o->sigma);
			double s2 = (x.rho - q->rho) / (x.sigma - q->sigma);
			bad = s2 < s1 - 1e-9 * (fabs(s1) + fabs(s2));
		}
		if (!bad)
			break;
		if (cv->n == 1) {
			if (x.sigma <= q->sigma)
				return;
			x.rho = q->rho;
			break;
		}
		cv->n--;
	}
	*OVB_PUSH(cv->pt, cv->n, cv->cap) = x;
}

struct sjob { struct sline a, b; };

static void
senvelope(const struct strace *tr, const struct ovb_series *s,
	struct ovb_curve *cv, i128 pm, i128 qm)
{
	struct sscan sc = sscan(tr, pm, qm);
	sput(cv, spoint(tr, s->interval, pm, qm, sc.v));
	i128 lp = pm, lq = qm;
	size_t n = 0, cap = 0, nscan = 1;
	struct sjob *stack = NULL;
	*OVB_PUSH(stack, n, cap) = (struct sjob){ sc.l, { 0, 0 } };
	char what[OVB_MAXNAME + 32];
	snprintf(what, sizeof what, "%s %s: envelope scans", cv->capsule,
		ovb_res_name(s->res));
	while (n) {
		struct sjob j = stack[--n];
		if (j.a.dt == j.b.dt)
			continue;
		i128 p = j.a.da - j.b.da, q = j.a.dt - j.b.dt;
		sc = sscan(tr, p, q);
		ovb_progress(what, (double)++nscan, 0);
		i128 v = sat(j.a, p, q);
		if (sc.v > v) {
			*OVB_PUSH(stack, n, cap) = (struct sjob){ sc.l, j.b };
			*OVB_PUSH(stack, n, cap) = (struct sjob){ j.a, sc.l };
		} else if (p * lq > lp * q) {
			sput(cv, spoint(tr, s->interval, p, q, v));
			lp = p, lq = q;
		}
	}
	free(stack);
	if (ovb_verbose)
		ovb_warn("%s %s: %zu samples in %zu runs, %zu breakpoints, "
			"%zu scans%s", cv->capsule, ovb_res_name(s->res), s->n,
			tr->nseg, cv->n, nscan, tr->rounded ? "; values rounded "
			"up to a common grid for 128-bit arithmetic" : "");
}

int
ovb_series_tbucket(const struct ovb_series *s, struct ovb_curve *cv,
	const char **why)
{
	memset(cv, 0, sizeof *cv);
	cv->capsule = ovb_xstrdup(s->capsule);
	cv->res = s->res;
	if (!s->n) {
		*why = "no samples";
		return OVB_EDATA;
	}
	struct strace tr;
	memset(&tr, 0, sizeof tr);
	if ((*why = build(&tr, s)))
		return OVB_EDATA;
	senvelope(&tr, s, cv, tr.total, (i128)s->n);
	cv->mean = cv->pt[0].sigma;
	cv->peak = cv->pt[cv->n - 1].sigma;
	free(tr.p);
	free(tr.seg);
	return 0;
}
