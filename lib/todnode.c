/* lib/todnode.c: the time-of-day node test (--mode tod) kept per node, so
 * a capsule's test costs one convolution per distinct window, not a pass
 * over the node's members per slot (issue 27).
 *
 * ovb_tod_node decides a node from scratch: per slot the members' window
 * needs (ovb_tod_need) and the capsule's, ovb_node_stat on them, slots of
 * the same windows decided once.  Here the members' part is kept per node
 * and rate: the slots fall in classes, the slots in which every member
 * has the same window; per class the members' window needs in the order
 * they came, their grid and Y (ovb_node_y on that grid, clipped at the
 * capacity).  A capsule's test is then, per distinct (class, capsule's
 * window), ovb_node_stat_pre on the class's needs and the capsule's: Y
 * from the kept Y with one convolution when the capsule leaves the grid
 * as it is, from scratch otherwise.
 *
 * Invariants:
 * - The test answers as ovb_tod_node(members, capsule) ... && st.ok: the
 *   same needs in the same order, so the same doubles and the same exact
 *   decisions (formats/plan.md, "How a rule is decided").  The members
 *   are those added (ovb_todnode_add) in the order they came; the caller
 *   adds them in the order of its plan.
 * - A kept Y is ovb_node_y's on the class's grid: made from the parent
 *   class's Y with one convolution when the new member leaves the grid as
 *   it was, from the class's needs otherwise (a coarser grid).
 * - Windows on different clocks, or a member unmeasured in a slot, fail
 *   every capsule (ovb_tod_node: OVB_EDATA, or an unmeasured slot).
 * - The classes are made at the first test after members came without
 *   them (a node rebuilt is tested on few of its nodes), then kept.
 * - ovb_todnode_holds judges the members alone from scratch
 *   (ovb_tod_node), as ovb-check --mode tod judges the node: what the
 *   repair of a plan re-planned from the last one asks; the answer is
 *   kept until a member comes (a node's C and grid do not change). */
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

struct tcls {                   /* slots where each member has one window */
	struct ovb_need *w;     /* the members' needs there, room for one more */
	double g;               /* ovb_node_grid of w */
	bool has_y;             /* g > 0 and w's U's hold on it */
	struct ovb_pmf y;       /* ovb_node_y(w, n, NULL, g, C) */
};

struct tres {                   /* one rate of the node */
	struct ovb_need *m;     /* the members, in the order they came */
	const struct ovb_qos **q;       /* their profile blocks (NULL: plain) */
	size_t n, cap;
	bool built;             /* the classes are those of m[0..n) */
	bool fails;             /* clocks differ or a slot is unmeasured */
	bool has_clock;
	int64_t offset;         /* the windows' clock, once a member has one */
	int cls[OVB_TOD_SLOTS]; /* slot -> class */
	struct tcls *c;
	size_t nc;
	bool judged, held;      /* ovb_todnode_holds's answer on m[0..n) */
};

struct ovb_todnode {
	struct tres r[OVB_NCAP];
};

static bool
has_windows(const struct ovb_need *x, const struct ovb_qos *q)
{
	return q && !x->level && q->U.tod.has;
}

static void
cls_free(struct tres *t)
{
	for (size_t k = 0; k < t->nc; k++) {
		free(t->c[k].w);
		ovb_pmf_free(&t->c[k].y);
	}
	free(t->c);
	t->c = NULL;
	t->nc = 0;
}

void
ovb_todnode_free(struct ovb_todnode *d)
{
	if (!d)
		return;
	for (int r = 0; r < OVB_NCAP; r++) {
		cls_free(&d->r[r]);
		free(d->r[r].m);
		free(d->r[r].q);
	}
	free(d);
}

/* The classes refined by member x (the t->n-th), whose needs per slot
 * are w[]: a new class per (class, x's window). */
static void
refine(struct tres *t, const struct ovb_need *w, double C, uint64_t points)
{
	size_t n = t->n;        /* the members before x */
	struct tcls *nc = ovb_xcalloc(OVB_TOD_SLOTS, sizeof *nc);
	int from[OVB_TOD_SLOTS], cls[OVB_TOD_SLOTS];
	size_t k = 0;
	for (int s = 0; s < OVB_TOD_SLOTS; s++) {
		size_t j = 0;
		while (j < k && !(from[j] == t->cls[s] &&
		    nc[j].w[n].h == w[s].h))
			j++;
		cls[s] = (int)j;
		if (j < k)
			continue;
		const struct tcls *p = &t->c[t->cls[s]];
		struct tcls *c = &nc[k];
		from[k++] = t->cls[s];
		c->w = ovb_xcalloc(n + 2, sizeof *c->w);
		if (n)
			memcpy(c->w, p->w, n * sizeof *c->w);
		c->w[n] = w[s];
		c->g = ovb_grid_add(p->g, &w[s], C, points);
		c->has_y = c->g > 0 && ovb_grid_holds(c->w, n + 1, NULL, c->g);
		if (!c->has_y)
			continue;
		if (p->has_y && p->g == c->g)
			ovb_node_y_after(&p->y, &w[s], C, &c->y);
		else
			ovb_node_y(c->w, n + 1, NULL, c->g, C, &c->y);
	}
	cls_free(t);
	t->c = nc;
	t->nc = k;
	memcpy(t->cls, cls, sizeof cls);
}

/* Member i (< t->n) into the classes of m[0..i). */
static void
step(struct tres *t, size_t i, double C, uint64_t points)
{
	const struct ovb_need *x = &t->m[i];
	const struct ovb_qos *q = t->q[i];
	if (t->fails)
		return;
	if (has_windows(x, q)) {
		if (t->has_clock && t->offset != q->U.tod.offset) {
			t->fails = true;
			return;
		}
		t->has_clock = true;
		t->offset = q->U.tod.offset;
	}
	struct ovb_need w[OVB_TOD_SLOTS];
	for (int s = 0; s < OVB_TOD_SLOTS; s++)
		if (!ovb_tod_need(x, q, s, &w[s])) {
			t->fails = true;
			return;
		}
	size_t keep = t->n;
	t->n = i;
	refine(t, w, C, points);
	t->n = keep;
}

/* The classes of m[0..n) made anew: one class of no member, then each
 * member in the order it came. */
static void
build(struct tres *t, double C, uint64_t points)
{
	cls_free(t);
	t->fails = t->has_clock = false;
	t->c = ovb_xcalloc(1, sizeof *t->c);
	t->c[0].w = ovb_xcalloc(1, sizeof *t->c[0].w);
	t->nc = 1;
	memset(t->cls, 0, sizeof t->cls);
	for (size_t i = 0; i < t->n && !t->fails; i++)
		step(t, i, C, points);
	t->built = true;
}

void
ovb_todnode_add(struct ovb_todnode **dp, int r, const struct ovb_need *x,
	const struct ovb_qos *q, double C, uint64_t points)
{
	if (!*dp)
		*dp = ovb_xcalloc(1, sizeof **dp);
	struct tres *t = &(*dp)->r[r];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->m = ovb_xrealloc(t->m, t->cap, sizeof *t->m);
		t->q = ovb_xrealloc(t->q, t->cap, sizeof *t->q);
	}
	t->m[t->n] = *x;
	t->q[t->n] = q;
	t->n++;
	t->judged = false;
	if (t->built)
		step(t, t->n - 1, C, points);
}

bool
ovb_todnode_holds(struct ovb_todnode *d, int r, double C, uint64_t points)
{
	if (!d || !d->r[r].n)
		return true;
	struct tres *t = &d->r[r];
	if (!t->judged) {
		struct ovb_tod_stat st;
		const char *why = NULL;
		t->held = !ovb_tod_node(t->m, t->q, t->n, C, points, &st,
			&why) && st.ok;
		t->judged = true;
	}
	return t->held;
}

bool
ovb_todnode_ok(struct ovb_todnode *d, int r, const struct ovb_need *x,
	const struct ovb_qos *q, double C, uint64_t points)
{
	struct tres empty = { 0 };      /* a node without members */
	struct tres *t = d ? &d->r[r] : &empty;
	if (!t->built)
		build(t, C, points);
	bool ok = !t->fails && !(has_windows(x, q) && t->has_clock &&
		t->offset != q->U.tod.offset);
	int done_cls[OVB_TOD_SLOTS];
	const struct ovb_hist *done_h[OVB_TOD_SLOTS];
	size_t ndone = 0, n = t->n;
	for (int s = 0; s < OVB_TOD_SLOTS && ok; s++) {
		struct ovb_need w;
		if (!ovb_tod_need(x, q, s, &w)) {
			ok = false;
			break;
		}
		size_t j = 0;
		while (j < ndone && !(done_cls[j] == t->cls[s] &&
		    done_h[j] == w.h))
			j++;
		if (j < ndone)
			continue;       /* the same windows: the same answer */
		done_cls[ndone] = t->cls[s];
		done_h[ndone++] = w.h;
		struct tcls *c = &t->c[t->cls[s]];
		c->w[n] = w;
		if (!ovb_eq1_holds(c->w, n + 1, NULL, C)) {
			ok = false;     /* ovb_node_stat's eq1_ok: no Y needed */
			break;
		}
		struct ovb_nodestat st;
		ovb_node_stat_pre(c->w, n + 1, C, points, c->has_y ? &c->y :
			NULL, &st);
		ok = st.eq1_ok && st.eq3_ok;
	}
	if (t == &empty)
		cls_free(t);
	return ok;
}
