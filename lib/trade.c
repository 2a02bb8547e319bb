/* trade.c: Sharc's resource trading (section 4.3), one recomputation at a
 * time, for ovb-trade's offline replay.  Spec of the rules as implemented,
 * with every deviation from the paper: formats/trade.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

const char *const ovb_trade_n1_name[3] = { "all", "borrowers", "above-r" };

const char *
ovb_trade_class_name(enum ovb_trade_class c)
{
	static const char *const name[] = { "fixed", "reclaim", "under",
		"borrow", "absent" };
	return name[c];
}

int
ovb_trade_class_parse(const char *s)
{
	for (int c = 0; c <= OVB_TRADE_ABSENT; c++)
		if (!strcmp(s, ovb_trade_class_name((enum ovb_trade_class)c)))
			return c;
	return -1;
}

/* The least allocation a capsule may be given: its lower bound, and with
 * the fix delta R. */
static double
floor_of(const struct ovb_trade_cap *c, const struct ovb_trade_opt *o)
{
	double f = c->lb;
	if (o->fix && o->delta * c->R > f)
		f = o->delta * c->R;
	return f;
}

/* Cuts the allocations above R of the capsules mem[0..n) until their sum
 * is at most limit: each excess in proportion, the last one taking the
 * rounding.  Whether every excess must go is decided exactly (the
 * doubles summed as rationals: the allocations at or below R plus the R
 * of those above reach the limit), and then each lands on R exactly: a
 * rounded A - (A - R) an ulp above R would flip the capsule's class in the
 * next interval (Table 2 in percent: Sci-N3 at 30.000000000000007). */
static void
cut_excess(const struct ovb_trade_in *in, double *A, const size_t *mem,
	size_t n, const bool *present, double limit)
{
	double sum = 0, E = 0;
	size_t last = OVB_NONE;
	for (size_t i = 0; i < n; i++) {
		size_t k = mem[i];
		if (!present[k])
			continue;
		sum += A[k];
		if (A[k] > in->cap[k].R) {
			E += A[k] - in->cap[k].R;
			last = k;
		}
	}
	double over = sum - limit;
	if (over <= 0 || last == OVB_NONE)
		return;
	mpq_t floor_sum, x;
	mpq_inits(floor_sum, x, NULL);
	for (size_t i = 0; i < n; i++) {
		size_t k = mem[i];
		if (!present[k])
			continue;
		mpq_set_d(x, A[k] > in->cap[k].R ? in->cap[k].R : A[k]);
		mpq_add(floor_sum, floor_sum, x);
	}
	mpq_set_d(x, limit);
	bool all = mpq_cmp(floor_sum, x) >= 0;
	mpq_clears(floor_sum, x, NULL);
	if (all || over > E)
		over = E;
	double left = over;
	for (size_t i = 0; i < n; i++) {
		size_t k = mem[i];
		if (!present[k] || A[k] <= in->cap[k].R)
			continue;
		double e = A[k] - in->cap[k].R;
		double cut = k == last ? left : over * (e / E);
		if (all || cut >= e) {
			left -= e;
			A[k] = in->cap[k].R;
			continue;
		}
		if (cut > left)
			cut = left;
		A[k] -= cut;
		left -= cut;
	}
}

/* The members of every group (node or application) in capsule order:
 * mem[start[g]..start[g+1]). */
static void
group_index(const struct ovb_trade_in *in, bool by_node, size_t ngroup,
	size_t **start, size_t **mem)
{
	size_t *st = ovb_xcalloc(ngroup + 2, sizeof *st);
	size_t *m = ovb_xcalloc(in->ncap + 1, sizeof *m);
	for (size_t k = 0; k < in->ncap; k++)
		st[(by_node ? in->cap[k].node : in->cap[k].app) + 1]++;
	for (size_t g = 0; g < ngroup; g++)
		st[g + 1] += st[g];
	size_t *fill = ovb_xcalloc(ngroup + 1, sizeof *fill);
	for (size_t k = 0; k < in->ncap; k++) {
		size_t g = by_node ? in->cap[k].node : in->cap[k].app;
		m[st[g] + fill[g]++] = k;
	}
	free(fill);
	*start = st;
	*mem = m;
}

void
ovb_trade_step(const struct ovb_trade_in *in, const struct ovb_trade_opt *o,
	struct ovb_trade_state *s, const double *u, const bool *present,
	struct ovb_trade_rec *rec)
{
	size_t n = in->ncap;
	double *next = s->scratch;
	/* Arrivals and the usage of the interval (Eq. 2). */
	for (size_t k = 0; k < n; k++) {
		const struct ovb_trade_cap *c = &in->cap[k];
		struct ovb_trade_rec *r = &rec[k];
		if (!present[k]) {
			s->was[k] = false;
			memset(r, 0, sizeof *r);
			r->cls = OVB_TRADE_ABSENT;
			next[k] = 0;
			continue;
		}
		if (!s->was[k]) {
			s->A[k] = c->R;
			s->U[k] = c->R;
			s->was[k] = true;
		}
		double used;
		if (isnan(u[k]))
			used = c->R;          /* no report: U_new = R */
		else if (o->capped && u[k] > s->A[k])
			used = s->A[k];       /* the token bucket clamps */
		else
			used = u[k];
		r->A = s->A[k];
		r->used = used;
		/* Eq. 2; a usage equal to U leaves U exactly (alpha used +
		 * (1 - alpha) U can round an ulp below it and flip U >= A) */
		if (used != s->U[k])
			r->U = o->alpha * used + (1 - o->alpha) * s->U[k];
		else
			r->U = s->U[k];
		s->U[k] = r->U;
	}
	/* Steps 0, 1 and 2 of every application. */
	for (size_t k = 0; k < n; k++) {
		if (!present[k])
			continue;
		const struct ovb_trade_cap *c = &in->cap[k];
		struct ovb_trade_rec *r = &rec[k];
		double A = r->A, U = r->U, R = c->R, e = c->eps;
		if (!in->app_trade[c->app]) {
			r->cls = OVB_TRADE_FIXED;
			next[k] = R;
		} else if (U >= A && A < R) {
			r->cls = OVB_TRADE_RECLAIM;          /* Eq. 3 */
			double a = (1 + e) * U;
			if (o->fix && A + e * R > a)
				a = A + e * R;
			/* the fix's additive steps land on R, not an ulp below */
			if (o->fix && a > R * (1 - 1e-12))
				a = R;
			next[k] = a < R ? a : R;
		} else if (U < A) {
			r->cls = OVB_TRADE_UNDER;            /* Eq. 4 */
			next[k] = A >= R ? U : (1 - e) * A;
		} else {
			r->cls = OVB_TRADE_BORROW;
			next[k] = A;
		}
		if (r->cls != OVB_TRADE_FIXED && next[k] < floor_of(c, o))
			next[k] = floor_of(c, o);
	}
	/* Step 3 (Eq. 5 summed over C_i), from the sums after Steps 1-2 of
	 * all applications. */
	memset(s->node_sum, 0, in->nnode * sizeof *s->node_sum);
	memset(s->app_sum, 0, in->napp * sizeof *s->app_sum);
	memset(s->n1, 0, in->nnode * sizeof *s->n1);
	memset(s->n1above, 0, in->nnode * sizeof *s->n1above);
	memset(s->n2, 0, in->napp * sizeof *s->n2);
	for (size_t k = 0; k < n; k++) {
		if (!present[k])
			continue;
		const struct ovb_trade_cap *c = &in->cap[k];
		s->node_sum[c->node] += next[k];
		s->app_sum[c->app] += next[k];
		bool needy = o->n1 == OVB_N1_ALL ? rec[k].U >= rec[k].A :
			rec[k].cls == OVB_TRADE_BORROW;
		if (needy)
			s->n1[c->node]++;
		if (rec[k].cls == OVB_TRADE_BORROW)
			s->n2[c->app]++;
		if (rec[k].cls == OVB_TRADE_BORROW && rec[k].A > c->R)
			s->n1above[c->node]++;
	}
	if (o->n1 == OVB_N1_ABOVE)
		for (size_t j = 0; j < in->nnode; j++)
			if (s->n1above[j])
				s->n1[j] = s->n1above[j];
	for (size_t k = 0; k < n; k++) {
		if (!present[k] || rec[k].cls != OVB_TRADE_BORROW)
			continue;
		const struct ovb_trade_cap *c = &in->cap[k];
		double a = (in->node_cap[c->node] - s->node_sum[c->node]) /
			(double)s->n1[c->node];
		double b = (in->app_R[c->app] - s->app_sum[c->app]) /
			(double)s->n2[c->app];
		double v = next[k] + (a < b ? a : b);
		/* Footnote 4: a negative share returns what was borrowed, never
		 * more: not below R. */
		next[k] = v < c->R ? c->R : v;
	}
	/* Step 4: per node, then per application, the allocations above R cut
	 * in proportion to their excess. */
	for (size_t j = 0; !o->no_step4 && j < in->nnode; j++)
		cut_excess(in, next, s->nodemem + s->nodestart[j],
			s->nodestart[j + 1] - s->nodestart[j], present,
			in->node_cap[j]);
	for (size_t i = 0; !o->no_step4 && i < in->napp; i++)
		cut_excess(in, next, s->appmem + s->appstart[i],
			s->appstart[i + 1] - s->appstart[i], present,
			in->app_R[i]);
	for (size_t k = 0; k < n; k++) {
		rec[k].next = next[k];
		if (present[k])
			s->A[k] = next[k];
	}
}

void
ovb_trade_state_init(struct ovb_trade_state *s, const struct ovb_trade_in *in)
{
	size_t n = in->ncap;
	s->A = ovb_xcalloc(n + 1, sizeof *s->A);
	s->U = ovb_xcalloc(n + 1, sizeof *s->U);
	s->scratch = ovb_xcalloc(n + 1, sizeof *s->scratch);
	s->was = ovb_xcalloc(n + 1, sizeof *s->was);
	group_index(in, true, in->nnode, &s->nodestart, &s->nodemem);
	group_index(in, false, in->napp, &s->appstart, &s->appmem);
	s->node_sum = ovb_xcalloc(in->nnode + 1, sizeof *s->node_sum);
	s->app_sum = ovb_xcalloc(in->napp + 1, sizeof *s->app_sum);
	s->n1 = ovb_xcalloc(in->nnode + 1, sizeof *s->n1);
	s->n1above = ovb_xcalloc(in->nnode + 1, sizeof *s->n1above);
	s->n2 = ovb_xcalloc(in->napp + 1, sizeof *s->n2);
}

void
ovb_trade_state_free(struct ovb_trade_state *s)
{
	free(s->A);
	free(s->U);
	free(s->scratch);
	free(s->was);
	free(s->nodestart);
	free(s->nodemem);
	free(s->appstart);
	free(s->appmem);
	free(s->node_sum);
	free(s->app_sum);
	free(s->n1);
	free(s->n1above);
	free(s->n2);
	memset(s, 0, sizeof *s);
}

/* ---- summaries of a replay, per calendar month (ovb-report) ---- */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The month (UTC) of t as YYYY*12 + MM-1, from the civil calendar. */
static int64_t
month_of(uint64_t t)
{
	int64_t z = (int64_t)(t / OVB_DAY) + 719468;
	int64_t era = z / 146097, doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 -
		yoe / 100);
	int64_t mp = (5 * doy + 2) / 153, m = mp < 10 ? mp + 3 : mp - 9;
	return (y + (m <= 2)) * 12 + (m - 1);
}

size_t
ovb_trade_months(const struct ovb_trade *t, struct ovb_trade_month **out,
	struct ovb_trade_day **days, size_t *ndays)
{
	struct ovb_trade_month *mo = NULL;
	size_t nmo = 0, capmo = 0, capday = 0;
	*days = NULL;
	*ndays = 0;
	/* per capsule: in a reclaim episode, and its length so far */
	size_t *len = ovb_xcalloc(t->ncaps ? t->ncaps : 1, sizeof *len);
	bool *in = ovb_xcalloc(t->ncaps ? t->ncaps : 1, sizeof *in);
	uint64_t **rec = NULL;
	size_t *nrec = NULL, *caprec = NULL;
	for (size_t k = 0; k < t->nat; k++) {
		const struct ovb_trade_at *at = &t->at[k];
		int64_t m = month_of(at->t);
		if (!nmo || mo[nmo - 1].month != m) {
			mo = ovb_xrealloc(mo, ++nmo > capmo ? (capmo = 2 * nmo) :
				capmo, sizeof *mo);
			memset(&mo[nmo - 1], 0, sizeof *mo);
			mo[nmo - 1].month = m;
			rec = ovb_xrealloc(rec, capmo, sizeof *rec);
			nrec = ovb_xrealloc(nrec, capmo, sizeof *nrec);
			caprec = ovb_xrealloc(caprec, capmo, sizeof *caprec);
			rec[nmo - 1] = NULL;
			nrec[nmo - 1] = caprec[nmo - 1] = 0;
		}
		struct ovb_trade_month *c = &mo[nmo - 1];
		uint64_t day = at->t / OVB_DAY;
		if (!*ndays || (*days)[*ndays - 1].day != day) {
			if (*ndays == capday)
				*days = ovb_xrealloc(*days, capday = capday ? 2 *
					capday : 64, sizeof **days);
			memset(&(*days)[(*ndays)++], 0, sizeof **days);
			(*days)[*ndays - 1].day = day;
		}
		struct ovb_trade_day *d = &(*days)[*ndays - 1];
		double lent = 0;
		c->intervals++;
		d->intervals++;
		for (size_t i = 0; i < at->nrow; i++) {
			const struct ovb_trade_row *r = &at->row[i];
			double R = t->capsule[r->cap].R;
			c->rows++;
			if (r->A < R)
				lent += R - r->A;
			if (r->used > r->A * (1 + 1e-9))
				c->above_A++;
			if (r->cls == OVB_TRADE_RECLAIM && !in[r->cap]) {
				in[r->cap] = true;
				len[r->cap] = 0;
			}
			if (in[r->cap]) {
				len[r->cap]++;
				if (r->next >= R * (1 - 1e-9)) {
					*OVB_PUSH(rec[nmo - 1], nrec[nmo - 1],
						caprec[nmo - 1]) = len[r->cap];
					in[r->cap] = false;
				} else if (r->cls == OVB_TRADE_UNDER) {
					in[r->cap] = false;
					c->abandoned++;
				}
			}
		}
		for (size_t i = 0; i < at->nnode; i++) {
			c->node_intervals++;
			if (at->node[i].used > t->node[at->node[i].idx].cap *
			    (1 + 1e-9)) {
				c->node_over++;
				d->node_over++;
			}
		}
		c->lent += lent;
		d->lent += lent;
	}
	for (size_t i = 0; i < nmo; i++) {
		struct ovb_trade_month *c = &mo[i];
		c->reclaims = nrec[i];
		if (nrec[i]) {
			qsort(rec[i], nrec[i], sizeof **rec, cmp_u64);
			/* nearest rank: the smallest v with at least p of them */
			c->rec_median = rec[i][(nrec[i] + 1) / 2 - 1];
			c->rec_p90 = rec[i][(size_t)ceil(0.9 * (double)nrec[i]) - 1];
			c->rec_max = rec[i][nrec[i] - 1];
		}
		free(rec[i]);
	}
	free(rec);
	free(nrec);
	free(caprec);
	free(len);
	free(in);
	*out = mo;
	return nmo;
}
