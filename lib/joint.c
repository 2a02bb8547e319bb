/* lib/joint.c: the joint mode (ovb-place and ovb-check --mode joint
 * --series FILE): a node test on its capsules' time-aligned samples.
 *
 * The samples of a series file in [from, to) are put on one timeline,
 * the slots (sample starts) where some cpu, net or net-rx series of the
 * file has a sample (all of one interval, so a slot is the same period
 * for every series).  A capsule's samples of resource r are the series
 * (its profile's name, r): a row of the timeline, NAN where it has no
 * sample.  A node holds on r when, over the slots where at least one of
 * its capsules has a sample (a capsule without one there counting 0: the
 * count of a replay, ovb-backtest's), the fraction of slots whose sum is
 * above C is at most the least O of its capsules.  With --slots overlap
 * (a forecast from history: before a capsule's first sample in the
 * window it had not arrived, after its last it had gone, and what it
 * would have used there is not 0) only the slots between the latest
 * first sample and the earliest last sample of the node's capsules
 * count, a gap inside counting 0 as the replay counts it; a node of two
 * capsules or more whose spans share fewer than ceil(10 / O_min) slots
 * (ovb_joint_min) fails: their joint usage was not seen long enough to
 * say whether its tail is within O (a capsule alone is judged over its
 * own span: no multiplexing is credited).
 *
 * Invariants: every decision is exact (formats/plan.md, "How a rule is
 * decided"): a slot's sum against C by its double sum where the certified
 * bound of ovb_decide decides (non-negative terms, added one by one: at
 * most c - 1 roundings of a sum of c terms, within ovb_sum_err(c)), else
 * the exact sum of the samples (ovb_sum_cmp); the fraction by
 * ovb_frac_le.  The placer's running sums (lib/nstate.c) and the judge
 * from scratch below decide every slot by ovb_joint_over, so they agree.
 * Nothing unseen is a number: a capsule without a series, or without a
 * sample in [from, to), has no row (ovb_joint_find says which), and the
 * callers refuse it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

static bool
rate_res(enum ovb_res r)
{
	return r == OVB_CPU || r == OVB_NET || r == OVB_NETRX;
}

/* The index of slot start t on the timeline (present). */
static size_t
slot_of(const struct ovb_joint *j, uint64_t t)
{
	size_t lo = 0, hi = j->nslots;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (j->t[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int
ovb_joint_make(struct ovb_joint *j, const struct ovb_series_set *ss,
	uint64_t from, uint64_t to, const char *file, size_t *bad)
{
	*j = (struct ovb_joint){ .from = from, .to = to, .file = file };
	size_t n = 0;
	for (size_t i = 0; i < ss->n; i++) {
		const struct ovb_series *s = &ss->s[i];
		if (!rate_res(s->res))
			continue;
		if (j->interval && s->interval != j->interval) {
			*bad = i;
			return OVB_EDATA;
		}
		j->interval = s->interval;
		n += s->n;
	}
	/* the timeline: every sample start in [from, to), once */
	uint64_t *t = ovb_xcalloc(n + 1, sizeof *t);
	size_t m = 0;
	for (size_t i = 0; i < ss->n; i++) {
		const struct ovb_series *s = &ss->s[i];
		for (size_t k = 0; rate_res(s->res) && k < s->n; k++)
			if (s->t[k] >= from && s->t[k] < to)
				t[m++] = s->t[k];
	}
	ovb_qsort(t, m, sizeof *t, cmp_u64);
	size_t u = 0;
	for (size_t k = 0; k < m; k++)
		if (!u || t[k] != t[u - 1])
			t[u++] = t[k];
	j->t = t;
	j->nslots = u;
	j->v = ovb_xcalloc(ss->n + 1, sizeof *j->v);
	j->nin = ovb_xcalloc(ss->n + 1, sizeof *j->nin);
	for (size_t i = 0; i < ss->n; i++) {
		const struct ovb_series *s = &ss->s[i];
		if (!rate_res(s->res))
			continue;
		size_t row = j->nrows++;
		/* the file's (capsule, res) pairs are unique */
		ovb_names_add(&j->by[s->res], s->capsule, row);
		double *v = ovb_xmalloc((u ? u : 1) * sizeof *v);
		for (size_t k = 0; k < u; k++)
			v[k] = NAN;
		for (size_t k = 0; k < s->n; k++)
			if (s->t[k] >= from && s->t[k] < to) {
				v[slot_of(j, s->t[k])] = s->v[k];
				j->nin[row]++;
			}
		j->v[row] = v;
	}
	return 0;
}

void
ovb_joint_where(const struct ovb_joint *j, char *buf, size_t len)
{
	if (!j->from && j->to == OVB_SERIES_MAXT)
		snprintf(buf, len, "%s", j->file);
	else if (j->to == OVB_SERIES_MAXT)
		snprintf(buf, len, "%s [%llu, end)", j->file,
			(unsigned long long)j->from);
	else
		snprintf(buf, len, "%s [%llu, %llu)", j->file,
			(unsigned long long)j->from, (unsigned long long)j->to);
}

void
ovb_joint_free(struct ovb_joint *j)
{
	for (size_t i = 0; i < j->nrows; i++)
		free(j->v[i]);
	free(j->v);
	free(j->nin);
	free(j->t);
	for (int r = 0; r < OVB_NCAP; r++)
		ovb_names_free(&j->by[r]);
	memset(j, 0, sizeof *j);
}

int
ovb_joint_find(const struct ovb_joint *j, const char *name, enum ovb_res r,
	const double **v)
{
	*v = NULL;
	size_t row = name ? ovb_names_get(&j->by[r], name) : OVB_NONE;
	if (row == OVB_NONE)
		return 1;
	if (!j->nin[row])
		return 2;
	*v = j->v[row];
	return 0;
}

void
ovb_need_joint(struct ovb_need *n, const struct ovb_joint *j,
	const double *v)
{
	n->joint = true;
	n->jspan = j->overlap;
	n->jv = v;
	n->jn = j->nslots;
	/* the span counted: the whole timeline, or (overlap) from its
	 * first sample to its last (the timeline has < 2^32 slots: a row
	 * of as many doubles is 32 GiB) */
	size_t lo = 0, hi = j->nslots ? j->nslots - 1 : 0;
	while (j->overlap && v && lo < hi && isnan(v[lo]))
		lo++;
	while (j->overlap && v && hi > lo && isnan(v[hi]))
		hi--;
	n->jlo = (uint32_t)lo;
	n->jhi = (uint32_t)hi;
}

bool
ovb_joint_over(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, size_t k, double s, size_t c, double C)
{
	int d = ovb_decide(s, ovb_sum_err(c), C);
	if (d >= 0)
		return !d;
	double *v = ovb_xcalloc(n + 2, sizeof *v);
	size_t q = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(m[i].jv[k]))
			v[q++] = m[i].jv[k];
	if (extra && !isnan(extra->jv[k]))
		v[q++] = extra->jv[k];
	bool over = ovb_sum_cmp(v, q, C) > 0;
	free(v);
	return over;
}

void
ovb_joint_judge(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C, struct ovb_joint_stat *st)
{
	*st = (struct ovb_joint_stat){ .first_over = SIZE_MAX, .omin = 1 };
	const struct ovb_need *any = n ? &m[0] : extra;
	if (!any)
		return;
	for (size_t i = 0; i < n; i++)
		st->omin = fmin(st->omin, m[i].O);
	if (extra)
		st->omin = fmin(st->omin, extra->O);
	/* the slots counted: the members' spans' common part */
	size_t lo = 0, hi = SIZE_MAX;
	for (size_t i = 0; i <= n; i++) {
		const struct ovb_need *x = i < n ? &m[i] : extra;
		if (x) {
			lo = x->jlo > lo ? x->jlo : lo;
			hi = x->jhi < hi ? x->jhi : hi;
		}
	}
	for (size_t k = lo; k <= hi && k < any->jn; k++) {
		double s = 0;
		size_t c = 0;
		for (size_t i = 0; i < n; i++)
			if (!isnan(m[i].jv[k])) {
				s += m[i].jv[k];
				c++;
			}
		if (extra && !isnan(extra->jv[k])) {
			s += extra->jv[k];
			c++;
		}
		if (!c)
			continue;
		st->slots++;
		if (ovb_joint_over(m, n, extra, k, s, c, C)) {
			if (!st->over)
				st->first_over = k;
			st->over++;
		}
	}
	/* (slots 0: spans that do not meet; each member has a sample in
	 * its own) */
	st->ok = ovb_joint_holds(st, any->jspan, n + (extra != NULL));
}

bool
ovb_joint_short(const struct ovb_joint_stat *st, bool span, size_t members)
{
	return !st->slots || (span && members >= 2 &&
		st->slots < ovb_joint_min(st->omin));
}

bool
ovb_joint_holds(const struct ovb_joint_stat *st, bool span, size_t members)
{
	return !ovb_joint_short(st, span, members) &&
		ovb_frac_le(st->over, st->slots, st->omin);
}

size_t
ovb_joint_min(double omin)
{
	return omin > 0 ? (size_t)ceil(10 / omin) : SIZE_MAX;
}
