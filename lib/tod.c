/* tod.c: time-of-day windows of a usage distribution U, and the node test
 * applied per window (issue 27, formats/usage.md "Time-of-day windows").
 *
 * Eq. 1 reserves each capsule's (1-O) percentile whenever it peaks: two
 * capsules whose peaks fall at different hours pay both peaks.  Here U is
 * also kept per window of the day, and a node holds when Eq. 1 and Eq. 3
 * hold in every window, each on the members' U of that window.
 *
 * Invariants:
 * - A slot is (day type, hour) of the windows' clock UTC + offset: 24 day
 *   type + hour, day type weekend on Saturday and Sunday.  An interval
 *   belongs to the slot of its start.
 * - The windows of a day type tile its hours [0, 24) in order; every
 *   interval of the block is in exactly one window, so the windows' counts
 *   add up to the block's, bin by bin.
 * - The merge rule (ovb_tod_fill) never invents a number: a window holds
 *   only intervals measured in it; a day type without any is one window
 *   with 0 intervals, unmeasured, and the node test reports every slot
 *   where a member is unmeasured instead of deciding it.
 * - A window's need is the paper's pick made on the window alone: sigma
 *   its (1-O) percentile, rho its own token-bucket curve there (the
 *   series with the time outside the window as gaps); without a window
 *   curve, a valid bucket of the whole trace at a rate at least that
 *   percentile.  Decisions are ovb_node_stat's, exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

static const char *const days_name[] = { "weekday", "weekend" };

const char *
ovb_tod_days_name(int days)
{
	return days_name[days != OVB_TOD_WEEKDAY];
}

int
ovb_tod_days_parse(const char *s)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(s, days_name[i]))
			return i;
	return -1;
}

int
ovb_tod_slot(uint64_t t, int64_t offset)
{
	/* t < 2^62, |offset| < 86400: no overflow */
	int64_t local = (int64_t)t + offset;
	int64_t day = local / OVB_DAY, sec = local % OVB_DAY;
	if (sec < 0) {
		sec += OVB_DAY;
		day--;
	}
	/* 1970-01-01 (day 0) was a Thursday: (day + 3) mod 7, Monday 0 */
	int64_t dow = ((day + 3) % 7 + 7) % 7;
	return (dow >= 5 ? 24 : 0) + (int)(sec / 3600);
}

const struct ovb_win *
ovb_tod_window(const struct ovb_dist *U, int slot)
{
	int days = slot / 24, hour = slot % 24;
	for (size_t i = 0; U->tod.has && i < U->tod.n; i++) {
		const struct ovb_win *w = &U->tod.w[i];
		if (w->days == days && w->from <= hour && hour < w->to)
			return w;
	}
	return NULL;
}

void
ovb_tod_free(struct ovb_tod *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->w[i].h.count);
		free(t->w[i].curve);
	}
	free(t->w);
	memset(t, 0, sizeof *t);
}

void
ovb_tod_copy(struct ovb_tod *to, const struct ovb_tod *from)
{
	*to = *from;
	to->w = NULL;
	if (!from->n)
		return;
	to->w = ovb_xcalloc(from->n, sizeof *to->w);
	for (size_t i = 0; i < from->n; i++) {
		const struct ovb_hist *h = &from->w[i].h;
		to->w[i] = from->w[i];
		to->w[i].h.count = ovb_xcalloc(h->nbins ? h->nbins : 1,
			sizeof *h->count);
		if (h->nbins)   /* an unmeasured window has no bins */
			memcpy(to->w[i].h.count, h->count,
				h->nbins * sizeof *h->count);
		const struct ovb_win *w = &from->w[i];
		to->w[i].curve = ovb_xcalloc(w->ncurve ? w->ncurve : 1,
			sizeof *w->curve);
		if (w->ncurve)
			memcpy(to->w[i].curve, w->curve,
				w->ncurve * sizeof *w->curve);
	}
}

void
ovb_tod_fill(struct ovb_dist *d, const uint64_t *t, const double *v,
	size_t n, int64_t offset, uint64_t min)
{
	ovb_tod_free(&d->tod);
	uint64_t cnt[OVB_TOD_SLOTS] = { 0 };
	for (size_t i = 0; i < n; i++)
		cnt[ovb_tod_slot(t[i], offset)]++;
	struct ovb_tod *td = &d->tod;
	td->has = true;
	td->offset = offset;
	td->min = min;
	td->w = ovb_xcalloc(OVB_TOD_SLOTS, sizeof *td->w);
	for (int days = 0; days < 2; days++) {
		size_t first = td->n;
		uint64_t acc = 0;
		int from = 0;
		for (int h = 0; h < 24; h++) {
			acc += cnt[24 * days + h];
			if (acc >= min) {
				td->w[td->n++] = (struct ovb_win){ .days = days,
					.from = from, .to = h + 1 };
				from = h + 1;
				acc = 0;
			}
		}
		if (from < 24) {        /* a last run below min */
			if (td->n > first)
				td->w[td->n - 1].to = 24;
			else
				td->w[td->n++] = (struct ovb_win){ .days = days,
					.from = 0, .to = 24 };
		}
	}
	/* the histograms, on d's bins */
	for (size_t k = 0; k < td->n; k++)
		td->w[k].h.width = d->h.width;
	for (size_t i = 0; i < n; i++) {
		struct ovb_win *w = (struct ovb_win *)ovb_tod_window(d,
			ovb_tod_slot(t[i], offset));
		struct ovb_hist *h = &w->h;
		size_t b = ovb_hist_bin(v[i], h->width);
		if (b >= h->nbins) {
			h->count = ovb_xrealloc(h->count, b + 1, sizeof *h->count);
			memset(h->count + h->nbins, 0,
				(b + 1 - h->nbins) * sizeof *h->count);
			h->nbins = b + 1;
		}
		h->count[b]++;
		h->n++;
	}
}

/* The upper edge of the bin holding the rank of U's p-th percentile. */
static double
hist_pct(const struct ovb_hist *h, double p)
{
	uint64_t rank = ovb_pct_rank(p, h->n), cum = 0;
	size_t k = 0;
	while (k + 1 < h->nbins && (cum += h->count[k]) < rank)
		k++;
	return ovb_hist_hi(h, k);
}

int
ovb_tod_curves(struct ovb_dist *d, const struct ovb_series *se,
	const char **why)
{
	struct ovb_tod *td = &d->tod;
	struct ovb_series w = *se;
	w.t = ovb_xcalloc(se->n ? se->n : 1, sizeof *w.t);
	w.v = ovb_xcalloc(se->n ? se->n : 1, sizeof *w.v);
	/* each sample's slot, once (not once per window) */
	unsigned char *slot = ovb_xcalloc(se->n ? se->n : 1, sizeof *slot);
	for (size_t i = 0; i < se->n; i++)
		slot[i] = (unsigned char)ovb_tod_slot(se->t[i], td->offset);
	int st = 0;
	for (size_t k = 0; k < td->n && !st; k++) {
		struct ovb_win *win = &td->w[k];
		w.n = 0;
		for (size_t i = 0; i < se->n; i++) {
			int s = slot[i];
			if (s / 24 == win->days && win->from <= s % 24 &&
			    s % 24 < win->to) {
				w.t[w.n] = se->t[i];
				w.v[w.n++] = se->v[i];
			}
		}
		if (!w.n)
			continue;       /* unmeasured: no curve */
		struct ovb_curve cv;
		st = ovb_series_tbucket(&w, &cv, why);
		if (!st) {
			win->ncurve = cv.n;
			win->curve = cv.pt;
			cv.pt = NULL;
		}
		free(cv.pt);
		free(cv.capsule);
	}
	free(slot);
	free(w.t);
	free(w.v);
	return st;
}

/* rho(s) of the curve c[0..n) (n >= 1, s >= c[0].sigma): linear between
 * breakpoints, rounded up; the last rho beyond the last point. */
static double
curve_up(const struct ovb_pt *c, size_t n, double s)
{
	size_t i = 0;
	while (i + 1 < n && c[i + 1].sigma <= s)
		i++;
	if (i + 1 == n || c[i].sigma == s)
		return c[i].rho;
	double f = (s - c[i].sigma) / (c[i + 1].sigma - c[i].sigma);
	double r = nextafter(c[i].rho + f * (c[i + 1].rho - c[i].rho),
		INFINITY);
	return r > c[i].rho ? c[i].rho : r;
}

bool
ovb_tod_need(const struct ovb_need *x, const struct ovb_qos *q, int slot,
	struct ovb_need *out)
{
	*out = *x;
	if (!q || x->level || !q->U.tod.has)
		return true;
	const struct ovb_win *w = ovb_tod_window(&q->U, slot);
	if (!w || !w->h.n)
		return false;
	out->h = &w->h;
	double a = hist_pct(&w->h, 100 - 100 * x->O);
	if (w->ncurve) {
		if (a < w->curve[0].sigma)
			a = w->curve[0].sigma;
		out->sigma = a;
		out->rho = curve_up(w->curve, w->ncurve, a);
	} else {        /* rho(max(a, sigma)) <= rho(sigma) <= rho */
		out->sigma = a > x->sigma ? a : x->sigma;
		out->rho = x->rho;
	}
	return true;
}

int
ovb_tod_node(const struct ovb_need *m, const struct ovb_qos *const *q,
	size_t n, double C, uint64_t points, struct ovb_tod_stat *st,
	const char **why)
{
	memset(st, 0, sizeof *st);
	st->ok = true;
	st->worst = -1;
	const struct ovb_tod *clock = NULL;
	for (size_t i = 0; i < n; i++)
		if (q[i] && !m[i].level && q[i]->U.tod.has) {
			if (clock && clock->offset != q[i]->U.tod.offset) {
				*why = "the members' windows have different "
					"clocks (windows OFFSET)";
				return OVB_EDATA;
			}
			clock = &q[i]->U.tod;
		}
	struct ovb_need *w = ovb_xcalloc(n ? n : 1, sizeof *w);
	const struct ovb_hist **key = ovb_xcalloc((n ? n : 1) * OVB_TOD_SLOTS,
		sizeof *key);
	double worst = -1;
	bool failed = false;
	for (int s = 0; s < OVB_TOD_SLOTS; s++) {
		const struct ovb_hist **ks = key + (size_t)s * n;
		st->measured[s] = true;
		for (size_t i = 0; i < n; i++) {
			if (!ovb_tod_need(&m[i], q[i], s, &w[i])) {
				if (st->measured[s])
					st->unmeasured_by[s] = i;
				st->measured[s] = false;
			}
			ks[i] = w[i].h;
		}
		if (!st->measured[s]) {
			st->nunmeasured++;
			continue;
		}
		/* the same windows as an earlier slot: the same answer */
		int same = -1;
		for (int e = 0; e < s && same < 0; e++)
			if (st->measured[e] && !memcmp(key + (size_t)e * n, ks,
			    n * sizeof *ks))
				same = e;
		if (same >= 0)
			st->slot[s] = st->slot[same];
		else
			ovb_node_stat(w, n, C, points, &st->slot[s]);
		const struct ovb_nodestat *ns = &st->slot[s];
		if (failed)
			continue;
		if (!(ns->eq1_ok && ns->eq3_ok)) {
			failed = true;  /* the first failing slot is reported */
			st->worst = s;
			continue;
		}
		double pr = ns->pr == ns->pr ? ns->pr : 1;
		if (pr > worst) {
			worst = pr;
			st->worst = s;
		}
	}
	st->ok = !failed && !st->nunmeasured;
	free(key);
	free(w);
	return 0;
}

int
ovb_tod_runs(const struct ovb_need *m, const struct ovb_qos *const *q,
	size_t n, int start[OVB_TOD_SLOTS + 1])
{
	int k = 0;
	for (int s = 0; s < OVB_TOD_SLOTS; s++) {
		bool cut = s % 24 == 0;
		for (size_t i = 0; i < n && !cut; i++)
			cut = q[i] && !m[i].level && q[i]->U.tod.has &&
				ovb_tod_window(&q[i]->U, s) !=
				ovb_tod_window(&q[i]->U, s - 1);
		if (cut)
			start[k++] = s;
	}
	start[k] = OVB_TOD_SLOTS;
	return k;
}
