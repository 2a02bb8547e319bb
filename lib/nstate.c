/* lib/nstate.c: a node's state as the placer keeps it, and its tests.
 *
 * Per node and resource (struct ovb_nres): the members' needs, Eq. 1's
 * load over tau_min kept incrementally (recomputed from the members when
 * a capsule brings a smaller tau), the least tolerance, and Y, the
 * members' aggregate usage on the node's grid, clipped at the capacity,
 * with Pr(Y > C) and a cache of Y's tail sums.  The tests of a capsule
 * against it: Eq. 1 (ovb_nstate_eq1), Eq. 3 against the least tolerance
 * with the capsule included (ovb_nstate_eq3; in the nsigma mode the
 * N-sigma test of lib/nsigma.c instead; in the joint mode Eq. 1 and 3 of
 * a rate give way to lib/joint.c's test on the members' samples, kept as
 * running sums per slot: ovb_nstate_joint), memory's limits within the
 * node's capacity and reclaimable pool (ovb_nstate_mem_ok; under the
 * promise rule, ovb_need_promise, no rule: Eq. 3 alone), --target
 * (ovb_nstate_target), and whether a node as it is breaks a rule
 * (ovb_nstate_broken).  A node read from a plan (ovb-check, ovb-report) is
 * judged from scratch on its capsules by ovb_nstate_judge: the rules
 * the placer's tests decide, by the same functions of lib/node.c.  The
 * tod mode's test keeps its own part (nd->tod, lib/todnode.c), freed
 * here with the node.  A context (struct ovb_nstate_ctx) holds what the
 * nodes of one run share: the grid's POINTS, a cache of U's per
 * (histogram, grid) and a spare array for Y + U.
 *
 * Invariants: every decision is lib/node.c's exact one (formats/plan.md,
 * "How a rule is decided": doubles only where their certified error bound
 * decides, GMP rationals otherwise), so a node state answers as
 * ovb_eq1_holds and ovb_eq3_decide on its members would; adding capsules
 * in any order gives the same members, load, least tolerance and Y; a
 * test never changes a node's decisions (the tail cache only grows). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

/* U's kept per (histogram, grid): need_pmf. */
#define UCACHE 4096

void
ovb_nstate_init(struct ovb_nstate *nd, const struct ovb_node *n)
{
	*nd = (struct ovb_nstate){ .n = n };
}

void
ovb_nstate_free(struct ovb_nstate *nd)
{
	for (int r = 0; r < OVB_NCAP; r++) {
		ovb_pmf_free(&nd->r[r].y);
		free(nd->r[r].tail);
		free(nd->r[r].members);
		if (nd->joint) {
			free(nd->joint->sum[r]);
			free(nd->joint->cnt[r]);
		}
	}
	free(nd->joint);
	ovb_todnode_free(nd->tod);
	free(nd->wary);
}

/* U of a profile on a grid, kept: a node's capsules come from a few
 * profiles and its grid from its shape, so the same few U's come back
 * (made by ovb_need_pmf; a slot taken by another is made anew). */
struct ovb_ucache {
	const struct ovb_hist *h;
	double g;
	struct ovb_pmf u;
};

/* The capsule's U on grid g: a kept one, or (a plain reservation) made
 * in *tmp, which the caller frees when it is the answer. */
static const struct ovb_pmf *
need_pmf(struct ovb_nstate_ctx *x, const struct ovb_need *n, double g,
	struct ovb_pmf *tmp)
{
	if (!n->h) {
		ovb_need_pmf(n, g, tmp);
		return tmp;
	}
	uint64_t bits;
	memcpy(&bits, &g, sizeof bits);
	uint64_t k = ((uint64_t)(uintptr_t)n->h >> 4) * 0x9E3779B97F4A7C15u ^
		bits * 0xC2B2AE3D27D4EB4Fu;
	struct ovb_ucache *c = &x->ucache[(k >> 40) % UCACHE];
	if (c->h != n->h || c->g != g) {
		ovb_pmf_free(&c->u);
		ovb_need_pmf(n, g, &c->u);
		c->h = n->h;
		c->g = g;
	}
	return &c->u;
}

void
ovb_nstate_ctx_init(struct ovb_nstate_ctx *x, uint64_t grid)
{
	*x = (struct ovb_nstate_ctx){ .grid = grid };
	x->ucache = ovb_xcalloc(UCACHE, sizeof *x->ucache);
}

void
ovb_nstate_ctx_free(struct ovb_nstate_ctx *x)
{
	for (size_t i = 0; x->ucache && i < UCACHE; i++)
		ovb_pmf_free(&x->ucache[i].u);
	free(x->ucache);
	x->ucache = NULL;
	free(x->spare);
	x->spare = NULL;
	x->sparecap = 0;
}

static void
count_len(struct ovb_nres *nr, const struct ovb_need *n, double g)
{
	size_t k = ovb_need_top(n, g) + 1;
	nr->maxlen = k > nr->maxlen ? k : nr->maxlen;
	nr->sumlen += k;
}

/* The joint mode's running sums: n's samples added slot by slot, in the
 * order the members came (ovb_joint_over's bound holds for any order). */
void
ovb_nstate_joint_add(struct ovb_nstate *nd, int r, const struct ovb_need *n)
{
	if (!nd->joint)
		nd->joint = ovb_xcalloc(1, sizeof *nd->joint);
	struct ovb_njoint *j = nd->joint;
	if (!j->sum[r]) {
		j->sum[r] = ovb_xcalloc(n->jn + 1, sizeof *j->sum[r]);
		j->cnt[r] = ovb_xcalloc(n->jn + 1, sizeof *j->cnt[r]);
		j->lo[r] = n->jlo;
		j->hi[r] = n->jhi;
	}
	j->lo[r] = n->jlo > j->lo[r] ? n->jlo : j->lo[r];
	j->hi[r] = n->jhi < j->hi[r] ? n->jhi : j->hi[r];
	for (size_t k = 0; k < n->jn; k++)
		if (!isnan(n->jv[k])) {
			j->sum[r][k] += n->jv[k];
			j->cnt[r][k]++;
		}
}

void
ovb_nstate_joint(const struct ovb_nstate *nd, int r,
	const struct ovb_need *n, struct ovb_joint_stat *st)
{
	const struct ovb_nres *nr = &nd->r[r];
	const double *sum = nd->joint ? nd->joint->sum[r] : NULL;
	const uint32_t *cnt = nd->joint ? nd->joint->cnt[r] : NULL;
	double cap = nd->n->cap[r];
	*st = (struct ovb_joint_stat){ .first_over = SIZE_MAX,
		.omin = nr->ncap ? fmin(nr->omin, n->O) : n->O };
	/* the slots counted: the spans' common part, n's included */
	size_t lo = n->jlo, hi = n->jhi;
	if (cnt) {
		lo = nd->joint->lo[r] > lo ? nd->joint->lo[r] : lo;
		hi = nd->joint->hi[r] < hi ? nd->joint->hi[r] : hi;
	}
	/* the bound of the most terms a slot has: where it decides, so
	 * does ovb_joint_over's own (c + has terms, fewer); else it asks */
	double err = ovb_sum_err(nr->nmembers + 1);
	for (size_t k = lo; k <= hi && k < n->jn; k++) {
		double x = n->jv[k];
		bool has = !isnan(x);
		size_t c = cnt ? cnt[k] : 0;
		if (!c && !has)
			continue;
		st->slots++;
		double s = (c ? sum[k] : 0) + (has ? x : 0);
		int d = ovb_decide(s, err, cap);
		if (d == 0 || (d < 0 && ovb_joint_over(nr->members,
		    nr->nmembers, n, k, s, c + has, cap))) {
			if (!st->over)
				st->first_over = k;
			st->over++;
		}
	}
	st->ok = ovb_joint_holds(st, n->jspan, nr->nmembers + 1);
}

/* Y made anew: its tail cache emptied (room for Y's length) and the
 * node's risk Pr(Y > C). */
static void
y_made(struct ovb_nres *nr, double cap)
{
	if (nr->tailcap < nr->y.n) {
		nr->tailcap = nr->y.n + nr->y.n / 4;
		nr->tail = ovb_xrealloc(nr->tail, nr->tailcap, sizeof *nr->tail);
	}
	nr->tlo = nr->y.n;
	nr->tsum = 0;
	nr->risk = ovb_pmf_tail(&nr->y, cap);
}

void
ovb_nstate_add(struct ovb_nstate_ctx *x, struct ovb_nres *nr,
	const struct ovb_need *n, double cap)
{
	if (nr->ncap == 0 || n->tau < nr->tau_min) {
		nr->tau_min = n->tau;
		nr->load = 0;
		for (size_t i = 0; i < nr->nmembers; i++)
			nr->load += ovb_eq1_term(&nr->members[i], nr->tau_min);
	}
	nr->load += ovb_eq1_term(n, nr->tau_min);
	nr->sig += n->sigma;
	nr->omin = nr->ncap == 0 || n->O < nr->omin ? n->O : nr->omin;
	nr->ncap++;
	*OVB_PUSH(nr->members, nr->nmembers, nr->capmembers) = *n;
	if (n->joint) {         /* no test needs Y: made when asked */
		nr->ylazy = true;
		return;
	}
	if (!nr->g && !n->h) {
		/* Y is the exact sum of the plain reservations */
		nr->risk = ovb_eq3_decide(nr->members, nr->nmembers, NULL, 0, cap,
			0, NAN) ? 0 : 1;
		return;
	}
	double g = ovb_grid_add(nr->g, n, cap, x->grid);
	if (g != nr->g) {
		/* the first profiled capsule, or a coarser grid: rebuild */
		ovb_pmf_free(&nr->y);
		ovb_node_y(nr->members, nr->nmembers, NULL, g, cap, &nr->y);
		nr->ycap = nr->y.n;
		nr->maxlen = nr->sumlen = 0;
		for (size_t i = 0; i < nr->nmembers; i++)
			count_len(nr, &nr->members[i], g);
	} else {
		count_len(nr, n, g);
		/* Y + U into a spare array, Y's own the next spare: no
		 * malloc once the arrays are long enough */
		struct ovb_pmf tmp;
		const struct ovb_pmf *u = need_pmf(x, n, g, &tmp);
		size_t len = nr->y.n + u->n - 1;
		if (x->sparecap < len) {
			x->sparecap = len + len / 4;
			x->spare = ovb_xrealloc(x->spare, x->sparecap, sizeof *x->spare);
		}
		size_t c = nr->ycap;
		x->spare = ovb_pmf_add_into(&nr->y, u, x->spare);
		nr->ycap = x->sparecap;
		x->sparecap = c;
		if (u == &tmp)
			ovb_pmf_free(&tmp);
		ovb_pmf_clip(&nr->y, cap);
	}
	nr->g = g;
	y_made(nr, cap);
}

double
ovb_nstate_risk(struct ovb_nstate_ctx *x, struct ovb_nres *nr, double cap)
{
	if (!nr->ylazy)
		return nr->risk;
	nr->ylazy = false;
	nr->g = ovb_node_grid(nr->members, nr->nmembers, NULL, cap, x->grid);
	nr->maxlen = nr->sumlen = 0;
	ovb_pmf_free(&nr->y);
	nr->ycap = 0;
	if (!nr->g) {
		nr->risk = ovb_eq3_decide(nr->members, nr->nmembers, NULL, 0, cap,
			0, NAN) ? 0 : 1;
		return nr->risk;
	}
	ovb_node_y(nr->members, nr->nmembers, NULL, nr->g, cap, &nr->y);
	nr->ycap = nr->y.n;
	for (size_t i = 0; i < nr->nmembers; i++)
		count_len(nr, &nr->members[i], nr->g);
	y_made(nr, cap);
	return nr->risk;
}

/* nr->tail from index lo up, for ovb_pmf_tail_with on Y + U with U
 * below top + 1 grid points at capacity cap: as ovb_pmf_tails makes
 * them, from the top down, the same sums in the same order.  The tail is
 * a cache of Y's: nr is changed only there. */
static const double *
tails_for(const struct ovb_nres *nr, double cap, size_t top)
{
	struct ovb_nres *m = (struct ovb_nres *)nr;
	size_t K = ovb_grid_down(cap, nr->y.g);
	size_t lo = top < K ? K - top : 0;
	for (size_t k = m->tlo; k-- > lo;) {
		m->tail[k] = m->tsum;
		m->tsum += m->y.p[k];
	}
	if (lo < m->tlo)
		m->tlo = lo;
	return m->tail;
}

/* Pr(Y + U > C) for the node with the capsule added, on grid g (0: plain
 * reservations only, 1) against the least tolerance limit: on the node's
 * own grid its Y is kept, so one convolution with U, not Y rebuilt from
 * every member (a rejection on a node of thousands of capsules cost a
 * pass over them all, per rejected application). */
double
ovb_nstate_pr_with(const struct ovb_nres *nr, const struct ovb_need *n,
	double g, double cap, double limit)
{
	double pr = 1;
	if (g > 0 && g == nr->g && limit < 1) {
		struct ovb_pmf up;
		ovb_need_pmf(n, g, &up);
		pr = ovb_pmf_tail_with(&nr->y, tails_for(nr, cap,
			up.n - 1), &up, cap);
		ovb_pmf_free(&up);
	} else if (g > 0) {
		struct ovb_pmf y;
		ovb_node_y(nr->members, nr->nmembers, n, g, cap, &y);
		pr = ovb_pmf_tail(&y, cap);
		ovb_pmf_free(&y);
	}
	return pr;
}

/* mem: the limits within the node's memory and reclaimable pool, with the
 * capsule's (n; NULL: as it is); no rule under the promise rule. */
bool
ovb_nstate_mem_ok(const struct ovb_nstate *nd, const struct ovb_need *n)
{
	const struct ovb_nres *m = &nd->r[OVB_MEM];
	if ((n && n->promise) || (m->nmembers && m->members[0].promise))
		return true;
	return ovb_mem_limits_hold(m->members, m->nmembers, n,
		nd->n->cap[OVB_MEM], nd->n->pool);
}

/* Eq. 1 with the capsule added, decided exactly (lib/node.c); *after is
 * the load in doubles, for the score. */
bool
ovb_nstate_eq1(const struct ovb_nres *nr, const struct ovb_need *n,
	double cap, double *after)
{
	double load, tmin = nr->ncap && nr->tau_min < n->tau ? nr->tau_min :
		n->tau;
	if (nr->ncap == 0 || n->tau < nr->tau_min) {
		load = 0;
		for (size_t i = 0; i < nr->nmembers; i++)
			load += ovb_eq1_term(&nr->members[i], tmin);
	} else
		load = nr->load;
	load += ovb_eq1_term(n, tmin);
	*after = load;
	int d = ovb_decide(load, ovb_sum_err(nr->nmembers + 1), cap);
	return d >= 0 ? d : ovb_eq1_xcmp(nr->members, nr->nmembers, n, tmin,
		cap) <= 0;
}

/* Pr(Y + U > C) in doubles for the node with the capsule added, on its
 * own grid g, with err the certified relative error bound: cheap bounds
 * first (it is at least Pr(Y > C) and at most Pr(Y > C - max U)), each
 * used only when the bound decides. */
static double
risk_with(struct ovb_nstate_ctx *x, const struct ovb_nres *nr,
	const struct ovb_need *n, double g, double cap, double limit, double err)
{
	if (ovb_decide(nr->risk, err, limit) == 0)
		return nr->risk;
	/* Y + U > C  <=>  k + j > K on the grid (as in ovb_pmf_tail) */
	size_t K = ovb_grid_down(cap, g), jmax = ovb_need_top(n, g);
	double bound = jmax > K ? 1 : K - jmax < nr->y.n ?
		tails_for(nr, cap, jmax)[K - jmax] : 0;
	if (ovb_decide(bound, err, limit) == 1)
		return bound;
	struct ovb_pmf tmp;
	const struct ovb_pmf *u = need_pmf(x, n, g, &tmp);
	double r = ovb_pmf_tail_with(&nr->y, tails_for(nr, cap, u->n - 1), u,
		cap);
	if (u == &tmp)
		ovb_pmf_free(&tmp);
	return r;
}

/* Eq. 3 with the capsule added, against the least tolerance, decided
 * exactly (lib/node.c).  On the node's own grid the members' lengths are
 * kept (nr->maxlen, nr->sumlen), so the bounds cost O(1), not a pass over
 * the members; a new grid rebuilds Y anyway. */
bool
ovb_nstate_eq3(struct ovb_nstate_ctx *x, const struct ovb_nres *nr,
	const struct ovb_need *n, double cap)
{
	if (n->nsig)            /* the nsigma mode's test instead */
		return ovb_nsigma_holds(nr->members, nr->nmembers, n, cap);
	double limit = nr->ncap ? fmin(nr->omin, n->O) : n->O;
	double g = ovb_grid_add(nr->g, n, cap, x->grid);
	if (!(nr->g && g == nr->g && limit < 1)) {
		/* plain reservations only, limit 1, or a new grid */
		if (!ovb_grid_holds(nr->members, nr->nmembers, n, g))
			return false;   /* more than OVB_MAXGRID points */
		double p = NAN;
		if (g > 0 && limit > 0 && limit < 1) {
			struct ovb_pmf y;
			ovb_node_y(nr->members, nr->nmembers, n, g, cap, &y);
			p = ovb_pmf_tail(&y, cap);
			ovb_pmf_free(&y);
		}
		return ovb_eq3_decide(nr->members, nr->nmembers, n, g, cap,
			limit, p);
	}
	/* the members, on this grid, were held when they came (a coarser
	 * grid only shortens them) */
	size_t k = ovb_need_top(n, g) + 1;
	if (k - 1 > OVB_MAXGRID)
		return false;
	if (limit <= 0)         /* Pr = 0: the largest values fit */
		return nr->sumlen - nr->nmembers + k - 1 <= ovb_grid_down(cap, g);
	double err = ovb_tail_err_of(nr->nmembers + 1, k > nr->maxlen ? k :
		nr->maxlen, nr->sumlen + k, g, cap);
	int d = ovb_decide(risk_with(x, nr, n, g, cap, limit, err), err, limit);
	return d >= 0 ? d : ovb_eq3_decide(nr->members, nr->nmembers, n, g,
		cap, limit, NAN);
}

/* --target: would the kernel take the node's capsules with this one
 * (lib/enforce.c, the rule of ovb-enforce and ovb-check --target)?  NULL,
 * or which target refuses, on which resource (*res) and why (in
 * why[len]).  A target with memory is asked for mem too. */
const char *
ovb_nstate_target(const struct ovb_nstate *nd,
	const struct ovb_need need[OVB_NCAP], char *why, size_t len, int *res)
{
	for (int tr = 0; ovb_ntargets && tr < 2 * OVB_NTARGET; tr++) {
		int t = tr / 2;
		int r = tr % 2 ? OVB_MEM : (int)ovb_target_res(t);
		if (tr % 2 && !ovb_target_has_mem(t))
			continue;
		const struct ovb_nres *nr = &nd->r[r];
		if (!ovb_target_on[t] || !need[r].used)
			continue;
		*res = r;
		struct ovb_need *all = ovb_xcalloc(nr->nmembers + 1, sizeof *all);
		if (nr->nmembers)
			memcpy(all, nr->members, nr->nmembers * sizeof *all);
		all[nr->nmembers] = need[r];
		size_t bad;
		int v = ovb_enf_node(t, &ovb_klim, ovb_target_clamp, all,
			nr->nmembers + 1, nd->n->cap[r], &bad, why, len);
		free(all);
		if (v)
			return ovb_target_names[t];
	}
	return NULL;
}

/* Is node nd broken on a resource: Eq. 1 or Eq. 3 fails (--mode tod:
 * in some window of the day, on a grid of POINTS)?  *r the first such
 * resource. */
bool
ovb_nstate_broken(const struct ovb_nstate *nd, uint64_t points, int *res)
{
	for (int r = 0; r < OVB_NCAP; r++) {
		const struct ovb_nres *nr = &nd->r[r];
		double cap = nd->n->cap[r];
		if (!nr->nmembers)
			continue;
		if (nd->tod && r != OVB_MEM) {  /* the rates' test per window */
			if (!ovb_todnode_holds(nd->tod, r, cap, points)) {
				*res = r;
				return true;
			}
			continue;
		}
		if (nr->members[0].joint) {     /* its test in place of both */
			struct ovb_joint_stat st;
			ovb_joint_judge(nr->members, nr->nmembers, NULL, cap, &st);
			if (!st.ok) {
				*res = r;
				return true;
			}
			continue;
		}
		bool promise = nr->members[0].promise;  /* Eq. 3 alone */
		bool ok = (promise || ovb_eq1_holds(nr->members, nr->nmembers,
			NULL, cap)) &&
			(r != OVB_MEM || promise || ovb_mem_limits_hold(
			nr->members, nr->nmembers, NULL, cap, nd->n->pool)) &&
			(nr->members[0].nsig ? ovb_nsigma_holds(nr->members,
			nr->nmembers, NULL, cap) :
			ovb_grid_holds(nr->members, nr->nmembers, NULL, nr->g) &&
			ovb_eq3_decide(nr->members, nr->nmembers, NULL, nr->g,
			cap, nr->omin, nr->g > 0 ? nr->risk : NAN));
		if (!ok) {
			*res = r;
			return true;
		}
	}
	return false;
}

bool
ovb_nstate_short_span(const struct ovb_nstate *nd, int r)
{
	const struct ovb_nres *nr = &nd->r[r];
	if (nd->tod || !nr->nmembers || !nr->members[0].joint)
		return false;
	struct ovb_joint_stat st;
	ovb_joint_judge(nr->members, nr->nmembers, NULL, nd->n->cap[r], &st);
	return ovb_joint_short(&st, nr->members[0].jspan, nr->nmembers);
}

/* ---- a node judged from scratch ---- */

void
ovb_nstate_judge(const struct ovb_need *m, size_t n,
	const struct ovb_node *node, int r, uint64_t points,
	struct ovb_nverdict *v)
{
	double C = node->cap[r];
	*v = (struct ovb_nverdict){ .limits_ok = true };
	ovb_node_stat(m, n, C, points, &v->st);
	v->grid_ok = ovb_grid_holds(m, n, NULL, v->st.g);
	if (n && m[0].joint)
		ovb_joint_judge(m, n, NULL, C, &v->joint);
	if (r == OVB_MEM) {
		v->exposure = ovb_mem_exposure(m, n, v->st.g, C);
		v->limits_ok = ovb_mem_limits_hold(m, n, NULL, C, node->pool);
		if (n && m[0].promise)  /* Eq. 3 alone: no other rule */
			v->limits_ok = v->st.eq1_ok = true;
	}
}
