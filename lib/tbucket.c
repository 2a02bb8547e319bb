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
 * integers, exact while span * total amount < 2^124, which is checked. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

typedef __int128 i128;

struct pt { int64_t t, a0, a1; };
struct line { int64_t dt, da; };

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
scan(const struct trace *tr, i128 p, i128 q)
{
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
point(enum ovb_res res, i128 p, i128 q, i128 v)
{
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

/* Eisner-Severance over [mean, oo), emitting breakpoints left to right. */
static void
envelope(const struct trace *tr, enum ovb_res res, struct ovb_curve *cv,
	i128 pm, i128 qm)
{
	struct scan s = scan(tr, pm, qm);
	put(cv, point(res, pm, qm, s.v));
	i128 lp = pm, lq = qm;
	size_t n = 0, cap = 0, nscan = 1;
	struct job *stack = NULL;
	*OVB_PUSH(stack, n, cap) = (struct job){ s.l, { 0, tr->flat } };
	char what[OVB_MAXNAME + 32];
	snprintf(what, sizeof what, "%s %s: envelope scans", cv->capsule,
		ovb_res_name(res));
	while (n) {
		struct job j = stack[--n];
		if (j.a.dt == j.b.dt)
			continue;
		i128 p = j.a.da - j.b.da, q = j.a.dt - j.b.dt;
		s = scan(tr, p, q);
		ovb_progress(what, (double)++nscan, 0);
		i128 v = at(j.a, p, q);
		if (s.v > v) {
			*OVB_PUSH(stack, n, cap) = (struct job){ s.l, j.b };
			*OVB_PUSH(stack, n, cap) = (struct job){ j.a, s.l };
		} else if (p * lq > lp * q) {
			put(cv, point(res, p, q, v));
			lp = p, lq = q;
		}
	}
	free(stack);
	if (ovb_verbose)
		ovb_warn("%s %s: %zu points, %zu breakpoints, %zu scans",
			cv->capsule, ovb_res_name(res), tr->n, cv->n, nscan);
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
	envelope(&tr, res, cv, total, tr.len);
	cv->mean = cv->pt[0].sigma;
	cv->peak = cv->pt[cv->n - 1].sigma;
	free(tr.p);
	free(tr.seg);
	return 0;
}
