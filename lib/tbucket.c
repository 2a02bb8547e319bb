/* tbucket.c: the exact token-bucket curve rho(sigma) of an On-Off trace.
 *
 * A is the cumulative usage, in integer amounts (CPU-ns, bytes) at integer
 * times (ns from the span's start), kept as points (t, a0, a1): A just
 * before and at t.  For cpu A is continuous (a0 = a1) and linear between
 * points; for net it steps by an instant's bytes (a1 - a0).  Gaps split the
 * points into segments; intervals never cross a gap.
 *
 * rho(sigma) = max over points s <= t of one segment of a1(t) - a0(s) -
 * sigma (t - s): the upper envelope of the lines dA - sigma dt of all
 * pairs (for cpu the maximum is at points because sigma >= 0).  For one
 * rational sigma = p/q, scan() finds it and a maximizing line exactly, in
 * O(points), keeping the least q a0(s) - p s seen so far.  The envelope's
 * breakpoints over [mean, oo) come from Eisner and Severance's refinement:
 * given lines La, Lb supporting it at sigma_a < sigma_b, evaluate at their
 * crossing; if nothing lies above them there, the crossing is a
 * breakpoint, else the line found splits the range in two.  The last line
 * is the flat one, dt = 0 (rho = the most bytes of one instant, 0 for cpu);
 * the last breakpoint is the peak.  Every comparison is on __int128
 * integers, exact while span * total amount < 2^124, which is checked.
 *
 * A series gives the same problem on the points of a piecewise-linear A
 * (see series_build below); the refinement and the rounding of its points
 * (envelope, put) are shared, only the scan over the points differs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

typedef __int128 i128;

struct pt { int64_t t, a0, a1; };
struct line { i128 dt, da; };

struct trace {
	size_t n, cap, nseg, capseg;
	struct pt *p;
	size_t *seg;            /* segment k is p[seg[k] .. seg[k+1]) */
	bool cut;               /* a gap since the last point */
	uint32_t lastcpu;       /* CPUs of the segment's last busy piece, or 0 */
	int64_t flat;           /* the most bytes of one instant */
	i128 total, len;        /* amount and gap-free time */
};

struct scan { i128 v; struct line l; };

/* A new point, opening a new segment after a gap. */
static struct pt *
add(struct trace *tr, int64_t t)
{
	if (tr->cut || !tr->n) {
		*OVB_PUSH(tr->seg, tr->nseg, tr->capseg) = tr->n;
		tr->cut = false;
		tr->lastcpu = 0;
	}
	struct pt *x = OVB_PUSH(tr->p, tr->n, tr->cap);
	x->t = t;
	x->a0 = x->a1 = tr->n > 1 ? x[-1].a1 : 0;
	return x;
}

/* Busy [lo, hi) with ncpu CPUs, within one gap-free part. */
static void
add_busy(struct trace *tr, uint64_t t0, uint64_t lo, uint64_t hi,
	uint32_t ncpu)
{
	int64_t a = (int64_t)(lo - t0), b = (int64_t)(hi - t0);
	struct pt *x = tr->n && !tr->cut ? &tr->p[tr->n - 1] : NULL;
	if (x && x->t == a && tr->lastcpu == ncpu) {
		x->t = b;
		x->a0 = x->a1 += (b - a) * (int64_t)ncpu;
		return;
	}
	if (!x || x->t != a)
		add(tr, a);
	x = add(tr, b);
	x->a0 = x->a1 += (b - a) * (int64_t)ncpu;
	tr->lastcpu = ncpu;
}

/* Skips the gaps that end before t; true when t is in gap *ig. */
static bool
in_gap(const struct ovb_onoff *o, size_t *ig, uint64_t t, struct trace *tr)
{
	while (*ig < o->ngap && o->gap[*ig].end < t) {
		(*ig)++;
		tr->cut = true;
	}
	return *ig < o->ngap && o->gap[*ig].start <= t;
}

static void
build_cpu(struct trace *tr, const struct ovb_onoff *o,
	const struct ovb_oncap *c)
{
	size_t ig = 0;
	for (size_t i = 0; i < c->nbusy; i++) {
		uint64_t lo = c->busy[i].start, hi = c->busy[i].end;
		while (lo < hi) {
			if (in_gap(o, &ig, lo, tr)) {
				lo = o->gap[ig].end;
				if (lo >= hi)
					break;
				tr->cut = true;
				ig++;
				continue;
			}
			uint64_t e = hi;
			if (ig < o->ngap && o->gap[ig].start < e)
				e = o->gap[ig].start;
			add_busy(tr, o->t0, lo, e, c->busy[i].ncpu);
			lo = e;
		}
	}
}

static void
build_net(struct trace *tr, const struct ovb_onoff *o,
	const struct ovb_xfer *x, size_t n)
{
	size_t ig = 0;
	for (size_t i = 0; i < n; i++) {
		if (in_gap(o, &ig, x[i].t, tr))
			continue;
		int64_t t = (int64_t)(x[i].t - o->t0);
		struct pt *p = tr->n && !tr->cut && tr->p[tr->n - 1].t == t ?
			&tr->p[tr->n - 1] : add(tr, t);
		p->a1 += (int64_t)x[i].bytes;
		if (p->a1 - p->a0 > tr->flat)
			tr->flat = p->a1 - p->a0;
	}
}

static int
bits(i128 v)
{
	int b = 0;
	for (; v > 0; v >>= 1)
		b++;
	return b;
}

/* Sizes first, in wide arithmetic, so that building cannot overflow. */
static const char *
check_size(const struct ovb_onoff *o, const struct ovb_oncap *c,
	enum ovb_res res, struct trace *tr)
{
	i128 total = 0, gaps = 0;
	if (res == OVB_CPU)
		for (size_t i = 0; i < c->nbusy; i++)
			total += (i128)(c->busy[i].end - c->busy[i].start) *
				c->busy[i].ncpu;
	else
		for (size_t i = 0, n = res == OVB_NET ? c->nsend : c->nrecv;
		    i < n; i++)
			total += (res == OVB_NET ? c->send : c->recv)[i].bytes;
	for (size_t i = 0; i < o->ngap; i++)
		gaps += o->gap[i].end - o->gap[i].start;
	i128 span = o->t1 - o->t0;
	tr->len = span - gaps;
	if (tr->len <= 0)
		return "no gap-free time in the trace";
	if (bits(span) > 62 || bits(total) > 62 ||
	    bits(span) + bits(total > 65536 ? total : 65536) > 124)
		return "trace too long or too large for exact 128-bit arithmetic";
	return NULL;
}

static struct scan
scan(const void *trace, i128 p, i128 q)
{
	const struct trace *tr = trace;
	struct scan b = { 0, { 0, 0 } };
	for (size_t k = 0; k < tr->nseg; k++) {
		size_t end = k + 1 < tr->nseg ? tr->seg[k + 1] : tr->n;
		size_t arg = tr->seg[k];
		i128 min = 0;
		for (size_t i = tr->seg[k]; i < end; i++) {
			const struct pt *x = &tr->p[i];
			i128 g = q * x->a0 - p * x->t;
			if (i == tr->seg[k] || g < min)
				min = g, arg = i;
			i128 v = q * x->a1 - p * x->t - min;
			if (v > b.v) {
				b.v = v;
				b.l.dt = x->t - tr->p[arg].t;
				b.l.da = x->a1 - tr->p[arg].a0;
			}
		}
	}
	return b;
}

static i128
at(struct line l, i128 p, i128 q)
{
	return q * l.da - p * l.dt;
}

/* sigma = p/q [amount/ns] in the rate unit, rho = v/q in the amount unit. */
static struct ovb_pt
point(const void *trace, enum ovb_res res, i128 p, i128 q, i128 v)
{
	(void)trace;
	long double unit = res == OVB_CPU ? 1e9L : 1;
	struct ovb_pt x;
	x.sigma = (double)((long double)p / (long double)q * (1e9L / unit));
	x.rho = (double)((long double)v / (long double)q / unit);
	return x;
}

/* Appends a rounded point so that the doubles pass ovb_curve_point: sigma
 * increasing, rho non-increasing and convex to a relative 1e-9.  A point
 * that would break this is dropped; by convexity the chord over it lies
 * above the exact curve. */
static void
put(struct ovb_curve *cv, struct ovb_pt x)
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

struct job { struct line a, b; };

/* What the envelope needs of a trace: the best line at sigma = p/q, and
 * the (sigma, rho) a breakpoint p/q, rho v/q stands for. */
struct source {
	const void *tr;
	struct scan (*scan)(const void *tr, i128 p, i128 q);
	struct ovb_pt (*point)(const void *tr, enum ovb_res res, i128 p,
		i128 q, i128 v);
};

/* Eisner-Severance over [mean, oo), emitting breakpoints left to right
 * from sigma = pm/qm; flat is the last line.  Returns the scans made. */
static size_t
envelope(const struct source *src, enum ovb_res res, struct ovb_curve *cv,
	i128 pm, i128 qm, struct line flat)
{
	struct scan s = src->scan(src->tr, pm, qm);
	put(cv, src->point(src->tr, res, pm, qm, s.v));
	i128 lp = pm, lq = qm;
	size_t n = 0, cap = 0, nscan = 1;
	struct job *stack = NULL;
	*OVB_PUSH(stack, n, cap) = (struct job){ s.l, flat };
	char what[OVB_MAXNAME + 32];
	snprintf(what, sizeof what, "%s %s: envelope scans", cv->capsule,
		ovb_res_name(res));
	while (n) {
		struct job j = stack[--n];
		if (j.a.dt == j.b.dt)
			continue;
		i128 p = j.a.da - j.b.da, q = j.a.dt - j.b.dt;
		s = src->scan(src->tr, p, q);
		ovb_progress(what, (double)++nscan, 0);
		i128 v = at(j.a, p, q);
		if (s.v > v) {
			*OVB_PUSH(stack, n, cap) = (struct job){ s.l, j.b };
			*OVB_PUSH(stack, n, cap) = (struct job){ j.a, s.l };
		} else if (p * lq > lp * q) {
			put(cv, src->point(src->tr, res, p, q, v));
			lp = p, lq = q;
		}
	}
	free(stack);
	cv->mean = cv->pt[0].sigma;
	cv->peak = cv->pt[cv->n - 1].sigma;
	return nscan;
}

int
ovb_tbucket(const struct ovb_onoff *o, const struct ovb_oncap *c,
	enum ovb_res res, struct ovb_curve *cv, const char **why)
{
	memset(cv, 0, sizeof *cv);
	cv->capsule = ovb_xstrdup(c->name);
	cv->res = res;
	struct trace tr;
	memset(&tr, 0, sizeof tr);
	if ((*why = check_size(o, c, res, &tr)))
		return OVB_EDATA;
	if (res == OVB_CPU)
		build_cpu(&tr, o, c);
	else if (res == OVB_NET)
		build_net(&tr, o, c->send, c->nsend);
	else
		build_net(&tr, o, c->recv, c->nrecv);
	i128 total = tr.n ? tr.p[tr.n - 1].a1 : 0;
	struct source src = { &tr, scan, point };
	size_t nscan = envelope(&src, res, cv, total, tr.len,
		(struct line){ 0, tr.flat });
	if (ovb_verbose)
		ovb_warn("%s %s: %zu points, %zu breakpoints, %zu scans",
			cv->capsule, ovb_res_name(res), tr.n, cv->n, nscan);
	free(tr.p);
	free(tr.seg);
	return 0;
}

/* ---- the token-bucket curve of a series ----
 *
 * The points of a piecewise-linear A: per run of consecutive samples, the
 * sample starts and the run's end, times in units of I from the run's
 * start, A in units of 2^E (value) x I (time), continuous (no steps).
 * rho(sigma) = max over points s <= t of one run of A(t) - A(s) -
 * sigma (t - s). */

struct spt { int64_t t; i128 a; };

struct strace {
	size_t n, nseg;
	struct spt *p;
	size_t *seg;            /* run k is p[seg[k] .. seg[k+1]) */
	i128 total;             /* scaled sum of all samples */
	int E;                  /* values are in units of 2^E */
	bool rounded;           /* some value was rounded up to the grid */
	uint64_t interval;      /* I [s] */
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
	ovb_split_double(v, &m, &e);
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
series_build(struct strace *tr, const struct ovb_series *s)
{
	int nb = bits_of((uint64_t)s->n + 1);
	if (2 * nb > 60)
		return "series too long for exact 128-bit arithmetic";
	int emin = 0, etop = 0;
	bool any = false;
	for (size_t i = 0; i < s->n; i++) {
		int64_t m;
		int e, x;
		ovb_split_double(s->v[i], &m, &e);
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
	tr->interval = s->interval;
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

static struct scan
series_scan(const void *trace, i128 p, i128 q)
{
	const struct strace *tr = trace;
	struct scan b = { 0, { 0, 0 } };
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

/* sigma = p/q 2^E [rate unit]; rho = v/q 2^E I [amount unit]. */
static struct ovb_pt
series_point(const void *trace, enum ovb_res res, i128 p, i128 q, i128 v)
{
	const struct strace *tr = trace;
	(void)res;
	struct ovb_pt x;
	x.sigma = (double)ldexpl((long double)p / (long double)q, tr->E);
	x.rho = (double)(ldexpl((long double)v / (long double)q, tr->E) *
		(long double)tr->interval);
	return x;
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
	if ((*why = series_build(&tr, s)))
		return OVB_EDATA;
	struct source src = { &tr, series_scan, series_point };
	size_t nscan = envelope(&src, s->res, cv, tr.total, (i128)s->n,
		(struct line){ 0, 0 });
	if (ovb_verbose)
		ovb_warn("%s %s: %zu samples in %zu runs, %zu breakpoints, "
			"%zu scans%s", cv->capsule, ovb_res_name(s->res), s->n,
			tr.nseg, cv->n, nscan, tr.rounded ? "; values rounded "
			"up to a common grid for 128-bit arithmetic" : "");
	free(tr.p);
	free(tr.seg);
	return 0;
}

double
ovb_tb_interval_within(const struct ovb_pt *pt, size_t n, double cap,
	double *at)
{
	double best = INFINITY;
	*at = NAN;
	for (size_t i = 0; i < n && pt[i].sigma < cap; i++) {
		double x = pt[i].rho / (cap - pt[i].sigma);
		if (x < best) {
			best = x;
			*at = pt[i].sigma;
		}
	}
	return best;
}
