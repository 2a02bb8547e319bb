/* node.c: the plan's node model, once (formats/plan.md, "What the numbers
 * mean"): a capsule's effective needs, Eq. 1 with tau_min and lower
 * bounds, section 4.1's mechanisms, the grid rule and Y of a node, and the
 * decisions of Eq. 1, Eq. 3 and Sharc's admission.  Used by ovb-place,
 * ovb-check, ovb-report and ovb-replay, so that they cannot disagree.
 *
 * The one rule for decisions: every number is the double its text rounds
 * to, and a rule holds when it holds for the exact values of those
 * doubles (no safety margin).  A decision is first tried in doubles with a
 * certified bound on their rounding error; only a case within that bound
 * of its limit is decided again in exact rationals (GMP).  The grid rule
 * (ovb_grid_up, ovb_grid_down) is a definition made in doubles, the same
 * everywhere.
 *
 * Invariants: a decision never depends on the order of the capsules nor
 * on which tool asks; the doubles' answer is used only when the error
 * bound proves it equal to the exact one. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

#define U53 (DBL_EPSILON / 2)   /* unit roundoff 2^-53 */

static double
pick(double capsule, double app, double dflt)
{
	return !isnan(capsule) ? capsule : !isnan(app) ? app : dflt;
}

bool
ovb_need_of(const struct ovb_app *app, const struct ovb_capsule *c,
	const struct ovb_qos *const q[OVB_NCAP], struct ovb_need need[OVB_NCAP])
{
	bool any = false;
	memset(need, 0, OVB_NCAP * sizeof *need);
	for (int r = 0; r < OVB_NCAP; r++) {
		struct ovb_need *n = &need[r];
		n->lb = c->lb[r];
		if (c->profile) {
			/* unmeasured: read as 0 (ovb_capsule_measured has
			 * refused it unless --unmeasured=zero) */
			if (!q[r] || q[r]->U.unmeasured)
				continue;
			n->sigma = q[r]->sigma;
			n->rho = q[r]->rho;
			n->tau = pick(c->tau, app->tau, q[r]->tau);
			n->O = pick(c->O, app->O, q[r]->O);
			n->h = &q[r]->U.h;
			n->interval = q[r]->U.interval;
			n->level = r == OVB_MEM;
			n->limit = r == OVB_MEM ? q[r]->limit : 0;
		} else {
			/* mem: mem= (request) and mem-limit= (limit) */
			bool mem = r == OVB_MEM;
			if (!(c->resv[r] > 0 || (mem && c->limit > 0)))
				continue;
			n->sigma = c->resv[r];
			n->level = mem;
			n->limit = !mem ? 0 : c->limit > c->resv[r] ? c->limit :
				c->resv[r];
			n->tau = pick(c->tau, app->tau, OVB_PLAIN_TAU);
			n->O = pick(c->O, app->O, 0);
		}
		n->used = any = true;
	}
	return any;
}

bool
ovb_need_placed(const struct ovb_cluster *cl, struct ovb_need need[OVB_NCAP])
{
	bool any = false;
	for (int r = 0; r < OVB_NCAP; r++) {
		if (r == OVB_MEM ? !ovb_cluster_has_mem(cl) :
		    r >= ovb_cluster_nres(cl))
			need[r].used = false;
		any = any || need[r].used;
	}
	return any;
}

double
ovb_eq1_term(const struct ovb_need *n, double tau_min)
{
	if (n->level)           /* mem: the request */
		return n->sigma > n->lb ? n->sigma : n->lb;
	if (n->agg)
		return n->lb;
	double t = (n->sigma * tau_min + n->rho) * (1 - n->O) / tau_min;
	return t > n->lb ? t : n->lb;
}

void
ovb_cpu_resv(const struct ovb_need *n, double *x, double *y, double *weight)
{
	/* section 4.1: (1-O) sigma = x / y and (1-O) rho = x; without a
	 * burst or a rate, x = (1-O) sigma tau every y = tau */
	bool burst = n->rho > 0 && n->sigma > 0;
	*y = burst ? n->rho / n->sigma : n->tau;
	*x = burst ? (1 - n->O) * n->rho : (1 - n->O) * n->sigma * n->tau;
	*weight = (1 - n->O) * n->sigma;
}

/* The i-th need of m[0..n) followed by extra (NULL: none). */
static const struct ovb_need *
at(const struct ovb_need *m, size_t n, const struct ovb_need *extra,
	size_t i)
{
	return i < n ? &m[i] : extra;
}

#define EACH(i, m, n, extra) \
	for (size_t i = 0; i < (n) + ((extra) != NULL); i++)

/* ---- Eq. 1 ---- */

void
ovb_eq1_load(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, struct ovb_eq1 *e)
{
	e->n = 0;
	e->tau_min = INFINITY;
	e->omin = INFINITY;
	e->load = e->load0 = 0;
	EACH(i, m, n, extra) {
		const struct ovb_need *x = at(m, n, extra, i);
		e->tau_min = fmin(e->tau_min, x->tau);
		e->omin = fmin(e->omin, x->O);
		e->n++;
	}
	EACH(i, m, n, extra) {
		const struct ovb_need *x = at(m, n, extra, i);
		double t = x->level ? x->sigma : x->agg ? 0 :
			(x->sigma * e->tau_min + x->rho) * (1 - x->O) / e->tau_min;
		e->load0 += t;
		e->load += t > x->lb ? t : x->lb;
	}
}

void
ovb_eq1_xterm(mpq_t t, const struct ovb_need *x, const mpq_t tau)
{
	if (x->level) {         /* mem: max(request, lb) */
		mpq_set_d(t, x->sigma > x->lb ? x->sigma : x->lb);
		return;
	}
	if (x->agg) {
		mpq_set_d(t, x->lb);
		return;
	}
	mpq_t a, b;
	mpq_inits(a, b, NULL);
	mpq_set_d(a, x->sigma);
	mpq_mul(a, a, tau);
	mpq_set_d(b, x->rho);
	mpq_add(a, a, b);               /* sigma tau_min + rho */
	mpq_set_d(b, x->O);
	mpq_set_ui(t, 1, 1);
	mpq_sub(b, t, b);               /* 1 - O */
	mpq_mul(a, a, b);
	mpq_div(t, a, tau);
	mpq_set_d(b, x->lb);
	if (mpq_cmp(b, t) > 0)
		mpq_set(t, b);
	mpq_clears(a, b, NULL);
}

int
ovb_eq1_xcmp(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double tau_min, double C)
{
	mpq_t tau, t, s;
	mpq_inits(tau, t, s, NULL);
	mpq_set_d(tau, tau_min);
	EACH(i, m, n, extra) {
		ovb_eq1_xterm(t, at(m, n, extra, i), tau);
		mpq_add(s, s, t);
	}
	int sign = ovb_mpq_cmp_d(s, C);
	mpq_clears(tau, t, s, NULL);
	return sign;
}

bool
ovb_eq1_holds(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C)
{
	struct ovb_eq1 e;
	ovb_eq1_load(m, n, extra, &e);
	if (!e.n)
		return true;
	int d = ovb_decide(e.load, ovb_sum_err(e.n), C);
	return d >= 0 ? d : ovb_eq1_xcmp(m, n, extra, e.tau_min, C) <= 0;
}

/* ---- the grid and Y ---- */

double
ovb_grid_add(double g, const struct ovb_need *x, double C, uint64_t points)
{
	if (!x->h)
		return g;
	if (x->h->width > g)
		g = x->h->width;
	if (points && C / (double)points > g)
		g = C / (double)points;
	return g;
}

double
ovb_node_grid(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C, uint64_t points)
{
	double g = 0;
	EACH(i, m, n, extra)
		g = ovb_grid_add(g, at(m, n, extra, i), C, points);
	return g;
}

/* The largest value of x's U: its last bin's upper edge, or sigma. */
static double
umax(const struct ovb_need *x)
{
	return x->h ? ovb_hist_hi(x->h, x->h->nbins ? x->h->nbins - 1 : 0) :
		x->sigma;
}

size_t
ovb_need_top(const struct ovb_need *x, double g)
{
	return ovb_grid_up(umax(x), g);
}

bool
ovb_grid_holds(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g)
{
	if (g == 0)
		return true;
	EACH(i, m, n, extra)
		if (ovb_need_top(at(m, n, extra, i), g) > OVB_MAXGRID)
			return false;
	return true;
}

void
ovb_need_pmf(const struct ovb_need *x, double g, struct ovb_pmf *u)
{
	if (x->h) {
		ovb_pmf_from_hist(u, x->h, g);
		return;
	}
	size_t k = ovb_grid_up(x->sigma, g);
	u->g = g;
	u->n = k + 1;
	u->p = ovb_xcalloc(k + 1, sizeof *u->p);
	u->p[k] = 1;
}

void
ovb_node_y(const struct ovb_need *m, size_t n, const struct ovb_need *extra,
	double g, double C, struct ovb_pmf *y)
{
	ovb_pmf_zero(y, g);
	EACH(i, m, n, extra) {
		struct ovb_pmf u;
		ovb_need_pmf(at(m, n, extra, i), g, &u);
		ovb_pmf_add(y, &u);
		ovb_pmf_free(&u);
		if (isfinite(C))
			ovb_pmf_clip(y, C);
	}
}

double
ovb_tail_err(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g, double C)
{
	/* Every vector here is non-negative, so each step's relative error
	 * adds up: a U from counts (at most L + 3 roundings), a convolution
	 * (a product and a sum of at most L terms), a clip and the tail (sums
	 * of at most L terms): at most (m + 2)(3L + 4) u in all, L the
	 * longest vector; 4 (m + 2)(L + 2) u bounds it with room for the
	 * higher-order terms. */
	size_t maxlen = 0, sumlen = 0, steps = 0;
	EACH(i, m, n, extra) {
		size_t k = ovb_need_top(at(m, n, extra, i), g) + 1;
		maxlen = k > maxlen ? k : maxlen;
		sumlen += k;
		steps++;
	}
	return ovb_tail_err_of(steps, maxlen, sumlen, g, C);
}

double
ovb_tail_err_of(size_t steps, size_t maxlen, size_t sumlen, double g,
	double C)
{
	size_t K = ovb_grid_down(C, g);
	size_t L = maxlen + (sumlen < K + 2 ? sumlen : K + 2);  /* Y's length,
	                                                 clipped or not */
	return 4 * (double)(steps + 2) * (double)(L + 2) * U53;
}

/* Pr(Y > C) exactly, Y of m[0..n) and extra on grid g. */
static void
xtail(mpq_t pr, const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g, double C)
{
	struct ovb_xpmf y, u;
	ovb_xpmf_zero(&y, g);
	EACH(i, m, n, extra) {
		const struct ovb_need *x = at(m, n, extra, i);
		if (x->h)
			ovb_xpmf_from_hist(&u, x->h, g);
		else
			ovb_xpmf_point(&u, x->sigma, g);
		ovb_xpmf_add(&y, &u);
		ovb_xpmf_free(&u);
		ovb_xpmf_clip(&y, C);
	}
	ovb_xpmf_tail(pr, &y, C);
	ovb_xpmf_free(&y);
}

/* Above C (> 0) or not (<= 0): the exact sum of the plain sigmas against
 * C; the doubles' sum decides when its error bound keeps it off C, GMP
 * otherwise. */
static int
plain_cmp(const struct ovb_need *m, size_t n, const struct ovb_need *extra,
	double C)
{
	double f = 0;
	size_t k = 0;
	EACH(i, m, n, extra) {
		f += at(m, n, extra, i)->sigma;
		k++;
	}
	int d = ovb_decide(f, ovb_sum_err(k), C);
	if (d >= 0)
		return d ? -1 : 1;
	mpq_t s, x;
	mpq_inits(s, x, NULL);
	EACH(i, m, n, extra) {
		mpq_set_d(x, at(m, n, extra, i)->sigma);
		mpq_add(s, s, x);
	}
	int sign = ovb_mpq_cmp_d(s, C);
	mpq_clears(s, x, NULL);
	return sign;
}

int
ovb_eq3_decide(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g, double C, double limit,
	double p)
{
	if (g == 0)             /* plain reservations only: Y is their sum */
		return plain_cmp(m, n, extra, C) <= 0 || limit >= 1;
	if (limit >= 1)
		return true;
	if (limit <= 0) {       /* Pr(Y > C) = 0: the largest values fit */
		size_t top = 0, K = ovb_grid_down(C, g);
		EACH(i, m, n, extra) {
			top += ovb_need_top(at(m, n, extra, i), g);
			if (top > K)
				return false;
		}
		return true;
	}
	if (!isnan(p)) {
		int d = ovb_decide(p, ovb_tail_err(m, n, extra, g, C), limit);
		if (d >= 0)
			return d;
	}
	mpq_t pr;
	mpq_init(pr);
	xtail(pr, m, n, extra, g, C);
	bool ok = ovb_mpq_cmp_d(pr, limit) <= 0;
	mpq_clear(pr);
	return ok;
}

void
ovb_node_stat(const struct ovb_need *m, size_t n, double C, uint64_t points,
	struct ovb_nodestat *st)
{
	ovb_node_stat_pre(m, n, C, points, NULL, st);
}

void
ovb_node_y_after(const struct ovb_pmf *pre, const struct ovb_need *last,
	double C, struct ovb_pmf *y)
{
	struct ovb_pmf u;
	ovb_need_pmf(last, pre->g, &u);
	*y = *pre;
	ovb_pmf_add_into(y, &u, ovb_xmalloc((pre->n + u.n - 1) *
		sizeof(double)));
	ovb_pmf_free(&u);
	if (isfinite(C))
		ovb_pmf_clip(y, C);
}

void
ovb_node_stat_pre(const struct ovb_need *m, size_t n, double C,
	uint64_t points, const struct ovb_pmf *pre, struct ovb_nodestat *st)
{
	ovb_eq1_load(m, n, NULL, &st->eq1);
	st->g = ovb_node_grid(m, n, NULL, C, points);
	if (!n) {
		st->pr = 0;
		st->eq1_ok = st->eq3_ok = true;
		return;
	}
	if (!ovb_grid_holds(m, n, NULL, st->g)) {
		st->pr = NAN;   /* Y cannot be held on this grid */
		st->eq1_ok = ovb_eq1_holds(m, n, NULL, C);
		st->eq3_ok = false;
		return;
	}
	if (st->g == 0)
		st->pr = plain_cmp(m, n, NULL, C) > 0;
	else {
		struct ovb_pmf y;
		if (pre && pre->g == st->g)
			ovb_node_y_after(pre, &m[n - 1], C, &y);
		else
			ovb_node_y(m, n, NULL, st->g, C, &y);
		st->pr = ovb_pmf_tail(&y, C);
		ovb_pmf_free(&y);
	}
	st->eq1_ok = ovb_eq1_holds(m, n, NULL, C);
	st->eq3_ok = ovb_eq3_decide(m, n, NULL, st->g, C, st->eq1.omin,
		st->pr);
}

/* ---- memory: limits and the OOM exposure ---- */

double
ovb_mem_limits(const struct ovb_need *m, size_t n)
{
	double f = 0;
	for (size_t i = 0; i < n; i++)
		f += m[i].limit;
	return f;
}

bool
ovb_mem_limits_hold(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C, double pool)
{
	/* the doubles' sum decides when its error bound keeps it off C +
	 * pool (that sum's own rounding, at most 2^-53 of it, covered by
	 * 4 epsilons more); the rest exactly: sum - pool <= C */
	double f = 0;
	size_t k = 0;
	EACH(i, m, n, extra) {
		f += at(m, n, extra, i)->limit;
		k++;
	}
	int d = pool == 0 ? ovb_decide(f, ovb_sum_err(k), C) :
		ovb_decide(f, ovb_sum_err(k) + 4 * DBL_EPSILON, C + pool);
	if (!isfinite(f) || !isfinite(C + pool))
		d = -1;
	if (d >= 0)
		return d;
	mpq_t s, x;
	mpq_inits(s, x, NULL);
	EACH(i, m, n, extra) {
		mpq_set_d(x, at(m, n, extra, i)->limit);
		mpq_add(s, s, x);
	}
	mpq_set_d(x, pool);
	mpq_sub(s, s, x);
	bool ok = ovb_mpq_cmp_d(s, C) <= 0;
	mpq_clears(s, x, NULL);
	return ok;
}

double
ovb_mem_exposure(const struct ovb_need *m, size_t n, double g, double C)
{
	if (!n)
		return 0;
	if (g == 0) {           /* plain requests: Y is their sum */
		double y = 0;
		for (size_t i = 0; i < n; i++)
			y += m[i].sigma;
		return y > C ? y - C : 0;
	}
	struct ovb_pmf y;
	ovb_node_y(m, n, NULL, g, INFINITY, &y);
	double e = 0;
	for (size_t k = ovb_grid_down(C, g) + 1; k < y.n; k++)
		e += y.p[k] * ((double)k * g - C);
	ovb_pmf_free(&y);
	return e;
}

void
ovb_need_promise(struct ovb_need *n, double O)
{
	n->promise = true;
	if (O >= 0)             /* O_mem; NAN: the capsule's own */
		n->O = O;
}

/* ---- the cluster's resources and a node's labels ---- */

int
ovb_cluster_nres(const struct ovb_cluster *c)
{
	return c->n && c->node[0].cap[OVB_NETRX] > 0 ? 3 : 2;
}

bool
ovb_cluster_has_mem(const struct ovb_cluster *c)
{
	return c->n && c->node[0].cap[OVB_MEM] > 0;
}

const char *
ovb_node_label(const struct ovb_node *n, const char *key)
{
	size_t k = strlen(key);
	for (size_t i = 0; i < n->nlabel; i++)
		if (!strncmp(n->label[i], key, k) && n->label[i][k] == '=')
			return n->label[i] + k + 1;
	return NULL;
}
