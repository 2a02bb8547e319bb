/* market.c: the Merkat market: capped proportional shares by water-filling
 * (section 2.2.2, Eq. 1), allocation errors (Eq. 2), prices (2.2.4), a
 * lower bound on the best placement's error, and Algorithm 1's tabu search
 * with its fixes (man/ovb-market.1.md, man/ovb-rebalance.1.md).
 *
 * Invariants: alloc_i does not depend on the placement; on every node the
 * VMs' alloc_r sum to at most the node's capacity (exactly in ovb_xwaterfill,
 * within rounding in ovb_waterfill); every alloc <= a_max; the rebalancer
 * returns the best placement it met (a copy), never one with more than
 * M_max migrations, with mem never overcommitted by a move, and never one
 * worse than its start. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

/* ---- water-filling ---- */

struct wf_ctx { const double *bid, *amax; };
static const struct wf_ctx *wf_sort_ctx;

/* ascending a_max / bid, then index: the order in which caps bind */
static int
wf_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct wf_ctx *c = wf_sort_ctx;
	double l = c->amax[a] * c->bid[b], r = c->amax[b] * c->bid[a];
	return l < r ? -1 : l > r ? 1 : (a > b) - (a < b);
}

void
ovb_waterfill(const double *bid, const double *amax, size_t k, double C,
	double *x)
{
	size_t *ord = ovb_xcalloc(k ? k : 1, sizeof *ord);
	double B = 0;
	for (size_t j = 0; j < k; j++) {
		ord[j] = j;
		B += bid[j];
	}
	struct wf_ctx ctx = { bid, amax };
	wf_sort_ctx = &ctx;
	ovb_qsort(ord, k, sizeof *ord, wf_cmp);
	double R = C;
	size_t i = 0;
	/* cap j binds when a_max_j <= b_j R / B */
	for (; i < k; i++) {
		size_t j = ord[i];
		if (!(amax[j] * B <= R * bid[j]))
			break;
		x[j] = amax[j];
		R = fmax(R - amax[j], 0);
		B -= bid[j];
	}
	for (; i < k; i++) {
		size_t j = ord[i];
		x[j] = fmin(amax[j], B > 0 ? bid[j] * (R / B) : 0);
	}
	free(ord);
}

struct xwf_ctx { mpq_t *bid, *amax; mpq_t l, r; };
static struct xwf_ctx *xwf_sort_ctx;

static int
xwf_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	struct xwf_ctx *c = xwf_sort_ctx;
	mpq_mul(c->l, c->amax[a], c->bid[b]);
	mpq_mul(c->r, c->amax[b], c->bid[a]);
	int s = mpq_cmp(c->l, c->r);
	return s ? s : (a > b) - (a < b);
}

void
ovb_xwaterfill(mpq_t *bid, mpq_t *amax, size_t k, const mpq_t C, mpq_t *x)
{
	size_t *ord = ovb_xcalloc(k ? k : 1, sizeof *ord);
	mpq_t B, R, t, u;
	mpq_inits(B, R, t, u, NULL);
	for (size_t j = 0; j < k; j++) {
		ord[j] = j;
		mpq_add(B, B, bid[j]);
	}
	struct xwf_ctx ctx;
	ctx.bid = bid;
	ctx.amax = amax;
	mpq_inits(ctx.l, ctx.r, NULL);
	xwf_sort_ctx = &ctx;
	ovb_qsort(ord, k, sizeof *ord, xwf_cmp);
	mpq_set(R, C);
	size_t i = 0;
	for (; i < k; i++) {
		size_t j = ord[i];
		mpq_mul(t, amax[j], B);
		mpq_mul(u, R, bid[j]);
		if (mpq_cmp(t, u) > 0)
			break;
		mpq_set(x[j], amax[j]);
		mpq_sub(R, R, amax[j]);
		mpq_sub(B, B, bid[j]);
	}
	for (; i < k; i++) {
		size_t j = ord[i];
		mpq_mul(t, bid[j], R);
		mpq_div(x[j], t, B);
	}
	mpq_clears(B, R, t, u, ctx.l, ctx.r, NULL);
	free(ord);
}

/* ---- the market ---- */

int
ovb_market_init(struct ovb_market *m, const struct ovb_bids *b,
	const char *bfile, const struct ovb_cluster *c, const char *cfile)
{
	memset(m, 0, sizeof *m);
	m->b = b;
	m->c = c;
	m->nvm = b->n;
	m->nnode = c->n;
	m->nres = b->has_mem ? 2 : 1;
	m->node = ovb_xcalloc(b->n, sizeof *m->node);
	for (size_t r = 0; r < OVB_NMRES; r++) {
		m->cap[r] = ovb_xcalloc(c->n, sizeof **m->cap);
		m->bid[r] = ovb_xcalloc(b->n, sizeof **m->bid);
		m->amax[r] = ovb_xcalloc(b->n, sizeof **m->amax);
		m->alloc_i[r] = ovb_xcalloc(b->n, sizeof **m->alloc_i);
	}
	double maxcap[OVB_NMRES] = { 0, 0 };
	for (size_t n = 0; n < c->n; n++) {
		m->cap[OVB_MCPU][n] = c->node[n].cap[OVB_CPU];
		if (b->has_mem) {
			/* the cluster's own field (mem MEM B, in MiB here), or
			 * a label mem=MiB; both given, they must agree */
			const char *v = ovb_node_label(&c->node[n], "mem");
			double mem = c->node[n].cap[OVB_MEM] / 1048576, lab = 0;
			if (v && (!ovb_parse_real(v, &lab) || !(lab > 0)))
				return ovb_err_at(cfile, c->node[n].line, "node %s: "
					"label mem=%s is not a number of MiB > 0",
					c->node[n].name, v);
			if (v && mem > 0 && lab != mem)
				return ovb_err_at(cfile, c->node[n].line, "node %s: "
					"label mem=%s MiB, but its mem field says %.17g "
					"MiB", c->node[n].name, v, mem);
			if (v)
				mem = lab;
			if (!(mem > 0))
				return ovb_err_at(cfile, c->node[n].line, "node %s: "
					"the vms bid for mem, and the node gives no "
					"memory (mem MEM B, or a label mem=MiB)",
					c->node[n].name);
			m->cap[OVB_MMEM][n] = mem;
		}
		for (size_t r = 0; r < m->nres; r++)
			maxcap[r] = fmax(maxcap[r], m->cap[r][n]);
	}
	for (size_t j = 0; j < b->n; j++) {
		const struct ovb_vm *v = &b->vm[j];
		m->node[j] = OVB_NONE;
		if (v->node && (m->node[j] = ovb_names_get(&c->byname, v->node)) ==
		    OVB_NONE)
			return ovb_err_at(bfile, v->line, "vm %s: node '%s' is not "
				"in the cluster %s", v->name, v->node, cfile);
		for (size_t r = 0; r < m->nres; r++) {
			if (v->bid[r].amax > maxcap[r])
				return ovb_err_at(bfile, v->bid[r].line, "vm %s: "
					"a_max %g %s is bigger than every node (the "
					"largest has %g %s)", v->name, v->bid[r].amax,
					ovb_mres_unit(r), maxcap[r], ovb_mres_unit(r));
			m->bid[r][j] = v->bid[r].bid;
			m->amax[r][j] = v->bid[r].amax;
		}
	}
	for (size_t r = 0; r < m->nres; r++) {
		for (size_t n = 0; n < c->n; n++)
			m->total[r] += m->cap[r][n];
		for (size_t j = 0; j < b->n; j++)
			m->bidsum[r] += m->bid[r][j];
		ovb_waterfill(m->bid[r], m->amax[r], b->n, m->total[r],
			m->alloc_i[r]);
		m->price[r] = fmax(b->reserve[r], m->bidsum[r] / m->total[r]);
		/* Eq. 2's e_r = |alloc_r - alloc_i| / alloc_i, alloc_r at most
		 * the largest node, summed over the VMs: finite for every
		 * placement, or the bids are refused (never an inf written) */
		for (size_t j = 0; j < b->n; j++) {
			double ai = m->alloc_i[r][j];
			if (maxcap[r] / ai * (double)(b->n + 1) < DBL_MAX)
				continue;
			const struct ovb_vm *v = &b->vm[j];
			return ovb_err_at(bfile, v->bid[r].line, "vm %s: its "
				"share of the cluster's %s, alloc_i = %g %s, is "
				"too small beside the other bids for its error "
				"|alloc_r - alloc_i| / alloc_i (Eq. 2) to be a "
				"finite number", v->name, ovb_mres_unit(r), ai,
				ovb_mres_unit(r));
		}
	}
	return 0;
}

void
ovb_market_free(struct ovb_market *m)
{
	for (size_t r = 0; r < OVB_NMRES; r++) {
		free(m->cap[r]);
		free(m->bid[r]);
		free(m->amax[r]);
		free(m->alloc_i[r]);
	}
	free(m->node);
	memset(m, 0, sizeof *m);
}

/* Node-local work space: the VMs of one node gathered. */
struct gather {
	size_t k, cap;
	size_t *vm;
	double *bid, *amax, *x;
};

static void
gather_fill(struct gather *g, const struct ovb_market *m, size_t r)
{
	if (g->k > g->cap) {
		g->cap = 2 * g->k;
		g->bid = ovb_xrealloc(g->bid, g->cap, sizeof *g->bid);
		g->amax = ovb_xrealloc(g->amax, g->cap, sizeof *g->amax);
		g->x = ovb_xrealloc(g->x, g->cap, sizeof *g->x);
	}
	for (size_t i = 0; i < g->k; i++) {
		g->bid[i] = m->bid[r][g->vm[i]];
		g->amax[i] = m->amax[r][g->vm[i]];
	}
}

static void
gather_free(struct gather *g)
{
	free(g->bid);
	free(g->amax);
	free(g->x);
}

/* The errors of the VMs vm[0..k) together on node n: err[i] (max over
 * resources), alloc_r[r][vm[i]] when alloc_r is not NULL; the node's max
 * and sum of errors. */
static void
node_errors(const struct ovb_market *m, struct gather *g, size_t n,
	double *err, double *alloc_r[OVB_NMRES], double *emax, double *esum)
{
	for (size_t i = 0; i < g->k; i++)
		err[i] = 0;
	for (size_t r = 0; r < m->nres; r++) {
		gather_fill(g, m, r);
		ovb_waterfill(g->bid, g->amax, g->k, m->cap[r][n], g->x);
		for (size_t i = 0; i < g->k; i++) {
			double ai = m->alloc_i[r][g->vm[i]];
			double e = fabs(ai - g->x[i]) / ai;
			err[i] = fmax(err[i], e);
			if (alloc_r)
				alloc_r[r][g->vm[i]] = g->x[i];
		}
	}
	*emax = 0;
	*esum = 0;
	for (size_t i = 0; i < g->k; i++) {
		*emax = fmax(*emax, err[i]);
		*esum += err[i];
	}
}

/* Per node, the list of its VMs. */
struct members {
	size_t *n, *cap;
	size_t **vm;
};

static void
members_init(struct members *mb, const struct ovb_market *m,
	const size_t *node_of)
{
	mb->n = ovb_xcalloc(m->nnode, sizeof *mb->n);
	mb->cap = ovb_xcalloc(m->nnode, sizeof *mb->cap);
	mb->vm = ovb_xcalloc(m->nnode, sizeof *mb->vm);
	for (size_t j = 0; j < m->nvm; j++)
		if (node_of[j] != OVB_NONE) {
			size_t n = node_of[j];
			*OVB_PUSH(mb->vm[n], mb->n[n], mb->cap[n]) = j;
		}
}

static void
members_del(struct members *mb, size_t n, size_t j)
{
	for (size_t i = 0; i < mb->n[n]; i++)
		if (mb->vm[n][i] == j) {
			memmove(&mb->vm[n][i], &mb->vm[n][i + 1],
				(mb->n[n] - i - 1) * sizeof *mb->vm[n]);
			mb->n[n]--;
			return;
		}
}

static void
members_add(struct members *mb, size_t n, size_t j)
{
	/* kept in VM order: the node's result does not depend on history */
	size_t i = mb->n[n];
	ovb_grow(&mb->vm[n], &mb->cap[n], mb->n[n], sizeof *mb->vm[n]);
	while (i > 0 && mb->vm[n][i - 1] > j) {
		mb->vm[n][i] = mb->vm[n][i - 1];
		i--;
	}
	mb->vm[n][i] = j;
	mb->n[n]++;
}

static void
members_free(struct members *mb, size_t nnode)
{
	for (size_t n = 0; n < nnode; n++)
		free(mb->vm[n]);
	free(mb->vm);
	free(mb->n);
	free(mb->cap);
}

double
ovb_market_errors(const struct ovb_market *m, const size_t *node_of,
	double *alloc_r[OVB_NMRES], double *err)
{
	struct members mb;
	members_init(&mb, m, node_of);
	struct gather g = { 0 };
	double *e = ovb_xcalloc(m->nvm ? m->nvm : 1, sizeof *e);
	double emax = 0;
	for (size_t j = 0; j < m->nvm; j++) {
		err[j] = 0;
		for (size_t r = 0; r < OVB_NMRES; r++)
			if (alloc_r)
				alloc_r[r][j] = 0;
	}
	for (size_t n = 0; n < m->nnode; n++) {
		double nmax, nsum;
		g.k = mb.n[n];
		g.vm = mb.vm[n];
		node_errors(m, &g, n, e, alloc_r, &nmax, &nsum);
		for (size_t i = 0; i < g.k; i++)
			err[g.vm[i]] = e[i];
		emax = fmax(emax, nmax);
	}
	free(e);
	gather_free(&g);
	members_free(&mb, m->nnode);
	return emax;
}

/* q = the decimal text s (as ovb_fmt_real writes: [-]D[.D][e[+-]D]). */
static void
decimal_mpq(mpq_t q, const char *s)
{
	mpz_t n, p;
	mpz_inits(n, p, NULL);
	char digits[40];
	size_t nd = 0;
	long ex = 0;
	bool neg = *s == '-', frac = false;
	if (neg)
		s++;
	for (; *s && *s != 'e' && nd < sizeof digits - 1; s++) {
		if (*s == '.')
			frac = true;
		else {
			digits[nd++] = *s;
			ex -= frac;
		}
	}
	digits[nd] = 0;
	if (*s == 'e')
		ex += strtol(s + 1, NULL, 10);
	mpz_set_str(n, digits, 10);
	if (neg)
		mpz_neg(n, n);
	mpz_ui_pow_ui(p, 10, (unsigned long)labs(ex));
	mpq_set_z(q, n);
	if (ex >= 0)
		mpz_mul(mpq_numref(q), mpq_numref(q), p);
	else {
		mpz_set(mpq_denref(q), p);
		mpq_canonicalize(q);
	}
	mpz_clears(n, p, NULL);
}

size_t
ovb_fit_printed(double *x, const size_t *idx, size_t k, double C)
{
	char buf[32];
	mpq_t cap, sum, t;
	mpq_inits(cap, sum, t, NULL);
	decimal_mpq(cap, ovb_fmt_real(buf, C));
	size_t steps = 0;
	for (;;) {
		mpq_set_ui(sum, 0, 1);
		size_t big = OVB_NONE;
		for (size_t i = 0; i < k; i++) {
			double v = x[idx[i]];
			decimal_mpq(t, ovb_fmt_real(buf, v));
			mpq_add(sum, sum, t);
			if (v > 0 && (big == OVB_NONE || v > x[idx[big]]))
				big = i;
		}
		if (mpq_cmp(sum, cap) <= 0 || big == OVB_NONE)
			break;
		x[idx[big]] = nextafter(x[idx[big]], 0);
		steps++;
	}
	mpq_clears(cap, sum, t, NULL);
	return steps;
}

/* Each node's alloc_r as written sum to at most its capacity as written,
 * exactly (ovb_fit_printed), and the errors follow the written alloc_r. */
void
ovb_market_fit_printed(const struct ovb_market *m, double *ar[OVB_NMRES], double *err,
	double *emax)
{
	size_t N = m->nnode, M = m->nvm;
	size_t *start = ovb_xcalloc(N + 1, sizeof *start);
	size_t *idx = ovb_xcalloc(M ? M : 1, sizeof *idx);
	for (size_t j = 0; j < M; j++)
		if (m->node[j] != OVB_NONE)
			start[m->node[j] + 1]++;
	for (size_t n = 0; n < N; n++)
		start[n + 1] += start[n];
	size_t *fill = ovb_xcalloc(N ? N : 1, sizeof *fill);
	for (size_t j = 0; j < M; j++)
		if (m->node[j] != OVB_NONE)
			idx[start[m->node[j]] + fill[m->node[j]]++] = j;
	for (size_t r = 0; r < m->nres; r++)
		for (size_t n = 0; n < N; n++)
			ovb_fit_printed(ar[r], idx + start[n], start[n + 1] -
				start[n], m->cap[r][n]);
	*emax = 0;
	for (size_t j = 0; j < M; j++) {
		if (m->node[j] == OVB_NONE)
			continue;
		err[j] = 0;
		for (size_t r = 0; r < m->nres; r++)
			err[j] = fmax(err[j], fabs(m->alloc_i[r][j] - ar[r][j]) /
				m->alloc_i[r][j]);
		*emax = fmax(*emax, err[j]);
	}
	free(fill);
	free(idx);
	free(start);
}

static int
dbl_desc(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return a > b ? -1 : a < b;
}

/* (3) The node sums: on a node n holding the set S, the water-filling
 * gives sum_S alloc_r = min(C_n, sum_S a_max) (bids > 0), and if every VM
 * of S has error <= E, sum_S alloc_r lies in [A (1 - E), A (1 + E)] for
 * A = sum_S alloc_i.  So E >= f(S, n) = max(1 - C_n / A, min(C_n, sum_S
 * a_max) / A - 1) on every resource, and min over placements of max_n
 * f(S_n, n) is a lower bound of the best max error.  It is found by a
 * depth-first branch and bound (VMs by decreasing alloc_i; 1 - C_n / A
 * only grows as VMs are added, so a partial placement whose max of it
 * reaches the best so far is cut; of identical empty nodes only the
 * first is tried), within a budget of (VM, node) trials (deterministic,
 * not a time): when the budget runs out the search proves nothing and only
 * (1) and (2) count. */
struct lbsearch {
	const struct ovb_market *m;
	size_t *ord, *cnt, *twin;       /* twin: an identical lower node */
	double *A[OVB_NMRES], *Am[OVB_NMRES];
	double best;
	uint64_t visits, budget;
};

static double
node_f(const struct lbsearch *s, size_t n)
{
	double f = 0;
	if (!s->cnt[n])
		return 0;
	for (size_t r = 0; r < s->m->nres; r++) {
		double C = s->m->cap[r][n], A = s->A[r][n];
		f = fmax(f, 1 - C / A);
		f = fmax(f, fmin(C, s->Am[r][n]) / A - 1);
	}
	return f;
}

/* lower: max over nodes of 1 - C_n / A_n so far (monotone) */
static void
lb_dfs(struct lbsearch *s, size_t i, double lower)
{
	const struct ovb_market *m = s->m;
	if (++s->visits > s->budget)
		return;
	if (i == m->nvm) {
		double v = 0;
		for (size_t n = 0; n < m->nnode; n++)
			v = fmax(v, node_f(s, n));
		if (v < s->best)
			s->best = v;
		return;
	}
	size_t j = s->ord[i];
	for (size_t n = 0; n < m->nnode && ++s->visits <= s->budget; n++) {
		if (!s->cnt[n] && s->twin[n] != OVB_NONE && !s->cnt[s->twin[n]])
			continue;
		double lo = lower;
		for (size_t r = 0; r < m->nres; r++)
			lo = fmax(lo, 1 - m->cap[r][n] / (s->A[r][n] +
				m->alloc_i[r][j]));
		if (lo >= s->best)
			continue;
		for (size_t r = 0; r < m->nres; r++) {
			s->A[r][n] += m->alloc_i[r][j];
			s->Am[r][n] += m->amax[r][j];
		}
		s->cnt[n]++;
		lb_dfs(s, i + 1, lo);
		s->cnt[n]--;
		for (size_t r = 0; r < m->nres; r++) {
			s->A[r][n] -= m->alloc_i[r][j];
			s->Am[r][n] -= m->amax[r][j];
		}
	}
}

static const struct ovb_market *lb_sort_m;

static int
lb_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double x = lb_sort_m->alloc_i[0][a], y = lb_sort_m->alloc_i[0][b];
	return x > y ? -1 : x < y ? 1 : (a > b) - (a < b);
}

/* (3) by the search, or -1 when its budget ran out. */
static double
node_sum_bound(const struct ovb_market *m, uint64_t budget)
{
	if (!m->nvm || !m->nnode)
		return 0;
	struct lbsearch s = { .m = m, .best = INFINITY, .budget = budget };
	s.ord = ovb_xcalloc(m->nvm, sizeof *s.ord);
	s.cnt = ovb_xcalloc(m->nnode, sizeof *s.cnt);
	s.twin = ovb_xcalloc(m->nnode, sizeof *s.twin);
	for (size_t r = 0; r < m->nres; r++) {
		s.A[r] = ovb_xcalloc(m->nnode, sizeof **s.A);
		s.Am[r] = ovb_xcalloc(m->nnode, sizeof **s.Am);
	}
	for (size_t j = 0; j < m->nvm; j++)
		s.ord[j] = j;
	lb_sort_m = m;
	ovb_qsort(s.ord, m->nvm, sizeof *s.ord, lb_cmp);
	for (size_t n = 0; n < m->nnode; n++) {
		s.twin[n] = OVB_NONE;
		for (size_t p = n; p-- > 0 && s.twin[n] == OVB_NONE;) {
			bool same = true;
			for (size_t r = 0; r < m->nres; r++)
				same = same && m->cap[r][p] == m->cap[r][n];
			if (same)
				s.twin[n] = p;
		}
		if (n > 4096)   /* the search cannot finish anyway */
			break;
	}
	if (m->nnode <= 4096)
		lb_dfs(&s, 0, 0);
	double v = s.visits > s.budget || m->nnode > 4096 ? -1 : s.best;
	for (size_t r = 0; r < m->nres; r++) {
		free(s.A[r]);
		free(s.Am[r]);
	}
	free(s.twin);
	free(s.cnt);
	free(s.ord);
	return v;
}

double
ovb_market_bound(const struct ovb_market *m)
{
	/* (1) a VM gets at most min(a_max, C_n) on any node n: e >= (alloc_i -
	 * min(a_max, max C)) / alloc_i.  (2) the VMs' alloc_r sum to at most
	 * min(sum a_max, the M largest capacities), and sum |alloc_i - alloc_r|
	 * <= e_max sum alloc_i. */
	double lb = 0;
	double *c = ovb_xcalloc(m->nnode, sizeof *c);
	for (size_t r = 0; r < m->nres; r++) {
		memcpy(c, m->cap[r], m->nnode * sizeof *c);
		qsort(c, m->nnode, sizeof *c, dbl_desc);
		double top = 0, suma = 0, sumi = 0;
		for (size_t n = 0; n < m->nnode && n < m->nvm; n++)
			top += c[n];
		for (size_t j = 0; j < m->nvm; j++) {
			double a = m->alloc_i[r][j];
			double best = fmin(m->amax[r][j], c[0]);
			if (best < a)
				lb = fmax(lb, (a - best) / a - 1e-12);
			suma += m->amax[r][j];
			sumi += a;
		}
		/* less a relative 1e-12 for the rounding of the sums */
		double most = fmin(suma, top);
		if (sumi > 0 && most < sumi)
			lb = fmax(lb, (sumi - most) / sumi - 1e-12);
	}
	free(c);
	double ns = node_sum_bound(m, OVB_MARKET_LB_BUDGET);
	if (ns > 1e-12)
		lb = fmax(lb, ns - 1e-12);
	return lb;
}

/* ---- Algorithm 3, fixed ---- */

/* The total bid for n VMs of caps amax, +inf when they do not fit. */
static double
afford_total(const struct ovb_market *m, const double *amax, uint64_t n,
	double *bid)
{
	double total = 0;
	for (size_t r = 0; r < m->nres; r++) {
		double a = amax[r] * (double)n, C = m->total[r];
		if (!(a < C))
			return INFINITY;
		double b = m->bidsum[r] / C * a / (1 - a / C);
		if (bid)
			bid[r] = b / (double)n;
		total += b;
	}
	return total;
}

uint64_t
ovb_market_afford(const struct ovb_market *m, const double *amax,
	uint64_t nmax, double budget, double *bid)
{
	/* the total grows with n: binary search for the last n below budget */
	uint64_t lo = 0, hi = nmax;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;
		if (afford_total(m, amax, mid, NULL) < budget)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (size_t r = 0; r < m->nres; r++)
		bid[r] = 0;
	if (lo)
		afford_total(m, amax, lo, bid);
	return lo;
}

/* ---- Algorithm 2, fixed ---- */

void
ovb_vertical_bid(const struct ovb_vpolicy *p, size_t nres, double v,
	const double *alloc, double *bid, double *last)
{
	double gap = fabs(p->v_ref - v) / fmin(v, p->v_ref);
	double T = floor(gap), f = fmax(2, 1 + T), prev[OVB_NMRES];
	for (size_t r = 0; r < nres; r++) {
		double old = prev[r] = bid[r], tmp = old;
		if ((v < p->v_low && alloc[r] > p->alloc_min[r]) ||
		    alloc[r] >= p->alloc_max[r]) {
			tmp = fmax(old / f, p->bid_min);
			double d = old - tmp;
			if (last[r] > 0 && d > 0 && fabs((d - last[r]) / d) < 0.1)
				tmp = fmax(old - d / 2, p->bid_min);
		} else if ((v > p->v_high && alloc[r] < p->alloc_max[r]) ||
		    alloc[r] < p->alloc_min[r]) {
			tmp = old * f;
			double d = tmp - old;
			if (last[r] < 0 && d > 0 && fabs((d + last[r]) / d) < 0.1)
				tmp = old + d / 2;
		}
		bid[r] = tmp;
	}
	/* over budget: the budget shared by the resources' shortfalls
	 * 1 - alloc/alloc_max; a resource at its max keeps its bid */
	double sum = 0, wsum = 0, budget = p->bid_max, w[OVB_NMRES] = { 0, 0 };
	for (size_t r = 0; r < nres; r++)
		sum += bid[r];
	if (sum > p->bid_max) {
		for (size_t r = 0; r < nres; r++) {
			if (alloc[r] >= p->alloc_max[r])
				budget -= bid[r];
			else
				wsum += w[r] = 1 - alloc[r] / p->alloc_max[r];
		}
		for (size_t r = 0; r < nres; r++)
			if (wsum > 0 && w[r] > 0)
				bid[r] = fmax(budget, 0) * w[r] / wsum;
			else if (wsum == 0)     /* all at max: scaled to budget */
				bid[r] *= p->bid_max / sum;
	}
	for (size_t r = 0; r < nres; r++)
		last[r] = bid[r] - prev[r];
}

/* ---- Algorithm 1, fixed ---- */

struct tabu_entry { size_t vm, node; uint64_t until; };

struct search {
	const struct ovb_market *m;
	const struct ovb_tabu_opt *o;
	struct members mb;
	struct gather g;
	size_t *cur, *start;
	double *err, *nmax, *nsum, *memused, *tmp;
	double total;
	struct tabu_entry *tabu;        /* a ring of o->tenure entries */
	size_t ntabu;
	uint64_t rng, iter, moved;      /* moved: placed VMs off their start */
};

/* The max and sum of errors of node n's VMs, with VM add added (or
 * OVB_NONE) and VM del left out (or OVB_NONE); err of those VMs into tmp
 * when keep. */
static void
eval_node(struct search *s, size_t n, size_t add, size_t del, double *emax,
	double *esum)
{
	struct members *mb = &s->mb;
	struct gather *g = &s->g;
	size_t k = 0;
	g->vm = ovb_xcalloc(mb->n[n] + 1, sizeof *g->vm);
	for (size_t i = 0; i < mb->n[n]; i++)
		if (mb->vm[n][i] != del)
			g->vm[k++] = mb->vm[n][i];
	if (add != OVB_NONE)
		g->vm[k++] = add;
	g->k = k;
	s->tmp = ovb_xrealloc(s->tmp, k ? k : 1, sizeof *s->tmp);
	node_errors(s->m, g, n, s->tmp, NULL, emax, esum);
	free(g->vm);
	g->vm = NULL;
}

static void
refresh_node(struct search *s, size_t n)
{
	struct gather *g = &s->g;
	g->k = s->mb.n[n];
	g->vm = s->mb.vm[n];
	s->tmp = ovb_xrealloc(s->tmp, g->k ? g->k : 1, sizeof *s->tmp);
	node_errors(s->m, g, n, s->tmp, NULL, &s->nmax[n], &s->nsum[n]);
	for (size_t i = 0; i < g->k; i++)
		s->err[g->vm[i]] = s->tmp[i];
	g->vm = NULL;
}

static bool
is_tabu(const struct search *s, size_t vm, size_t node)
{
	for (size_t i = 0; i < s->ntabu; i++)
		if (s->tabu[i].vm == vm && s->tabu[i].node == node &&
		    s->tabu[i].until > s->iter)
			return true;
	return false;
}

static bool
mem_fits(const struct search *s, size_t vm, size_t node)
{
	const struct ovb_market *m = s->m;
	return m->nres < 2 || s->memused[node] + m->amax[OVB_MMEM][vm] <=
		m->cap[OVB_MMEM][node];
}

/* (max, sum) lexicographic, the max compared with a relative slack so that
 * rounding does not make a plateau look like a gain */
static int
obj_cmp(double amax, double asum, double bmax, double bsum)
{
	double tol = 1e-12;
	if (amax < bmax - tol * fmax(1, bmax))
		return -1;
	if (amax > bmax + tol * fmax(1, bmax))
		return 1;
	if (asum < bsum - tol * fmax(1, bsum))
		return -1;
	if (asum > bsum + tol * fmax(1, bsum))
		return 1;
	return 0;
}

static void
apply_move(struct search *s, size_t vm, size_t to)
{
	const struct ovb_market *m = s->m;
	size_t from = s->cur[vm];
	if (from != OVB_NONE) {
		members_del(&s->mb, from, vm);
		if (m->nres > 1)
			s->memused[from] -= m->amax[OVB_MMEM][vm];
	}
	members_add(&s->mb, to, vm);
	if (m->nres > 1)
		s->memused[to] += m->amax[OVB_MMEM][vm];
	if (s->start[vm] != OVB_NONE) {
		if (from == s->start[vm])
			s->moved++;
		if (to == s->start[vm])
			s->moved--;
	}
	s->cur[vm] = to;
	if (from != OVB_NONE)
		refresh_node(s, from);
	refresh_node(s, to);
}

static double
global_max(const struct search *s, double *sum)
{
	double mx = 0;
	*sum = 0;
	for (size_t n = 0; n < s->m->nnode; n++) {
		mx = fmax(mx, s->nmax[n]);
		*sum += s->nsum[n];
	}
	return mx;
}

/* One tabu step: the VM of largest error that has an admissible move goes
 * to the node minimizing (max, sum) of the errors.  false: no move. */
static bool
tabu_step(struct search *s, double bestmax, double bestsum)
{
	const struct ovb_market *m = s->m;
	size_t N = m->nnode;
	/* the three largest node maxima, for "the max over the other nodes" */
	size_t top[3] = { OVB_NONE, OVB_NONE, OVB_NONE };
	for (size_t n = 0; n < N; n++)
		for (int t = 0; t < 3; t++)
			if (top[t] == OVB_NONE || s->nmax[n] > s->nmax[top[t]]) {
				for (int u = 2; u > t; u--)
					top[u] = top[u - 1];
				top[t] = n;
				break;
			}
	bool *skip = ovb_xcalloc(m->nvm, sizeof *skip);
	bool done = false;
	for (size_t tries = 0; tries < m->nvm && !done; tries++) {
		/* the VM of largest error not yet tried, ties at random */
		size_t vm = OVB_NONE, nties = 0;
		for (size_t j = 0; j < m->nvm; j++) {
			if (skip[j])
				continue;
			if (vm == OVB_NONE || s->err[j] > s->err[vm]) {
				vm = j;
				nties = 1;
			} else if (s->err[j] == s->err[vm] &&
			    ovb_rng_next(&s->rng) % ++nties == 0)
				vm = j;
		}
		if (vm == OVB_NONE)
			break;
		skip[vm] = true;
		size_t from = s->cur[vm];
		/* would a move of vm add a migration beyond M_max? */
		bool adds = s->start[vm] != OVB_NONE && from == s->start[vm];
		if (adds && s->moved >= s->o->mmax)
			continue;
		double fmax_, fsum;
		eval_node(s, from, OVB_NONE, vm, &fmax_, &fsum);
		double osum = s->total - s->nsum[from];
		size_t best = OVB_NONE, bties = 0;
		double bmax = 0, bsum = 0;
		for (size_t n = 0; n < N; n++) {
			if (n == from || !mem_fits(s, vm, n))
				continue;
			double dmax, dsum;
			eval_node(s, n, vm, OVB_NONE, &dmax, &dsum);
			double omax = 0;
			for (int t = 0; t < 3; t++)
				if (top[t] != OVB_NONE && top[t] != from &&
				    top[t] != n) {
					omax = s->nmax[top[t]];
					break;
				}
			double nm = fmax(omax, fmax(fmax_, dmax));
			double ns = osum - s->nsum[n] + fsum + dsum;
			/* tabu unless it beats the best (aspiration) */
			if (is_tabu(s, vm, n) &&
			    obj_cmp(nm, ns, bestmax, bestsum) >= 0)
				continue;
			int c = best == OVB_NONE ? -1 :
				obj_cmp(nm, ns, bmax, bsum);
			if (c < 0) {
				best = n;
				bmax = nm;
				bsum = ns;
				bties = 1;
			} else if (c == 0 && ovb_rng_next(&s->rng) % ++bties == 0)
				best = n;
		}
		if (best == OVB_NONE)
			continue;
		if (s->o->tenure) {
			struct tabu_entry *e = &s->tabu[s->iter % s->o->tenure];
			e->vm = vm;
			e->node = from;
			e->until = s->iter + s->o->tenure;
			if (s->ntabu < s->o->tenure)
				s->ntabu++;
		}
		apply_move(s, vm, best);
		done = true;
	}
	free(skip);
	double sum;
	global_max(s, &sum);
	s->total = sum;
	return done;
}

/* The best placements met: the start in slot 0, the latest
 * OVB_TABU_HIST - 1 improvements in a ring over the other slots.
 * ovb-rebalance falls back on an earlier one when no plan reaches the
 * last within M_max (lib/migrate.c). */
static void
hist_push(struct ovb_tabu_stat *st, size_t *cap, const size_t *node_of,
	size_t M, double err)
{
	(void)cap;
	if (!st->hist) {
		st->hist = ovb_xcalloc(OVB_TABU_HIST * (M ? M : 1),
			sizeof *st->hist);
		st->hist_err = ovb_xcalloc(OVB_TABU_HIST, sizeof *st->hist_err);
	}
	size_t p = st->nhist++;
	size_t slot = p ? 1 + (p - 1) % (OVB_TABU_HIST - 1) : 0;
	memcpy(st->hist + slot * M, node_of, M * sizeof *node_of);
	st->hist_err[slot] = err;
}

const size_t *
ovb_tabu_hist(const struct ovb_tabu_stat *st, size_t M, size_t back,
	double *err)
{
	size_t kept = st->nhist < OVB_TABU_HIST ? st->nhist : OVB_TABU_HIST;
	if (back >= kept)
		return NULL;
	size_t slot = 0;
	if (back + 1 < kept) {
		size_t p = st->nhist - 1 - back;
		slot = 1 + (p - 1) % (OVB_TABU_HIST - 1);
	}
	*err = st->hist_err[slot];
	return st->hist + slot * M;
}

int
ovb_rebalance(const struct ovb_market *m, const struct ovb_tabu_opt *o,
	size_t *node_of, struct ovb_tabu_stat *st, const char *bfile)
{
	struct search s;
	memset(&s, 0, sizeof s);
	memset(st, 0, sizeof *st);
	s.m = m;
	s.o = o;
	s.rng = o->seed ^ 0x9e3779b97f4a7c15u;
	size_t N = m->nnode, M = m->nvm;
	s.cur = ovb_xcalloc(M ? M : 1, sizeof *s.cur);
	s.start = ovb_xcalloc(M ? M : 1, sizeof *s.start);
	s.err = ovb_xcalloc(M ? M : 1, sizeof *s.err);
	s.nmax = ovb_xcalloc(N, sizeof *s.nmax);
	s.nsum = ovb_xcalloc(N, sizeof *s.nsum);
	s.memused = ovb_xcalloc(N, sizeof *s.memused);
	s.tabu = ovb_xcalloc(o->tenure ? o->tenure : 1, sizeof *s.tabu);
	memcpy(s.start, node_of, M * sizeof *s.start);
	memcpy(s.cur, node_of, M * sizeof *s.cur);
	int status = 0;
	for (size_t j = 0; j < M && !status; j++)
		if (s.cur[j] != OVB_NONE && m->nres > 1) {
			size_t n = s.cur[j];
			s.memused[n] += m->amax[OVB_MMEM][j];
			if (s.memused[n] > m->cap[OVB_MMEM][n])
				status = ovb_err_at(bfile, m->b->vm[j].line, "vm %s: "
					"node %s's mem is overcommitted: its vms' mem "
					"a_max sum to %g MiB > %g MiB", m->b->vm[j].name,
					m->c->node[n].name, s.memused[n],
					m->cap[OVB_MMEM][n]);
		}
	members_init(&s.mb, m, s.cur);
	/* new VMs: each on the least loaded node (cpu bids per cpu, then
	 * index) where its mem fits */
	double *load = ovb_xcalloc(N, sizeof *load);
	for (size_t j = 0; j < M; j++)
		if (s.cur[j] != OVB_NONE)
			load[s.cur[j]] += m->bid[OVB_MCPU][j];
	for (size_t j = 0; j < M && !status; j++) {
		if (s.cur[j] != OVB_NONE)
			continue;
		size_t best = OVB_NONE;
		for (size_t n = 0; n < N; n++)
			if (mem_fits(&s, j, n) && (best == OVB_NONE ||
			    load[n] / m->cap[OVB_MCPU][n] <
			    load[best] / m->cap[OVB_MCPU][best]))
				best = n;
		if (best == OVB_NONE) {
			status = ovb_err_at(bfile, m->b->vm[j].line, "new vm %s: "
				"its mem a_max fits on no node", m->b->vm[j].name);
			break;
		}
		load[best] += m->bid[OVB_MCPU][j];
		s.cur[j] = best;
		members_add(&s.mb, best, j);
		if (m->nres > 1)
			s.memused[best] += m->amax[OVB_MMEM][j];
	}
	free(load);
	if (!status) {
		for (size_t n = 0; n < N; n++)
			refresh_node(&s, n);
		double bestsum, bestmax = global_max(&s, &bestsum);
		s.total = bestsum;
		st->before = bestmax;
		memcpy(node_of, s.cur, M * sizeof *node_of);
		st->moves = 0;
		size_t caph = 0;
		hist_push(st, &caph, node_of, M, bestmax);
		uint64_t still = 0;
		while (still < o->niter && bestmax > o->emax) {
			if (!tabu_step(&s, bestmax, bestsum))
				break;
			s.iter++;
			double sum, mx = global_max(&s, &sum);
			int c = obj_cmp(mx, sum, bestmax, bestsum);
			/* as good with fewer migrations is better too */
			if (c < 0 || (c == 0 && s.moved < st->moves)) {
				/* a copy of the placement, not an alias */
				memcpy(node_of, s.cur, M * sizeof *node_of);
				bestmax = mx;
				bestsum = sum;
				st->moves = s.moved;
				hist_push(st, &caph, node_of, M, mx);
				still = 0;
			} else
				still++;
		}
		st->after = bestmax;
		st->iters = s.iter;
	}
	members_free(&s.mb, N);
	gather_free(&s.g);
	free(s.cur);
	free(s.start);
	free(s.err);
	free(s.nmax);
	free(s.nsum);
	free(s.memused);
	free(s.tabu);
	free(s.tmp);
	return status;
}
