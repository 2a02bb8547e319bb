/* lib/place.c: the placement engine, as ovb-place runs it (and ovb-fit).
 *
 * A request (a cluster, an apps stream, the profiles, optionally a plan
 * to add to or re-plan from, a policy, a mode and limits) gives a result:
 * the plan, with the applications rejected and why.  Each application,
 * in arrival order, passes Sharc's cluster-wide admission check, then
 * every capsule gets its set of feasible nodes (both tests of section 3.1
 * for CPU and network: Eq. 1 with tau_min and the (1 - O) factor, Eq. 3
 * against the least tolerance of the node's capsules, the new one
 * included; trust 0 keeps applications apart; pinning and lower bounds
 * honoured), and the capsules go to distinct nodes by a maximum-score
 * assignment (Hungarian method), which finds a placement whenever one
 * exists -- the paper's Lemma 1 greedy does not (see ovb(7)).  Policies
 * are rows of one table (policies[] below): a name and the score of a
 * feasible node.
 * A node's state (incremental Eq. 1, Y for Eq. 3, memory) and the tests
 * of one more capsule against it are lib/nstate.c's.  Modes replace the
 * rate tests: tod per hour of the day (lib/tod.c), nsigma Eq. 3
 * (lib/nsigma.c), joint Eq. 1 and Eq. 3 by the count of slots above C on
 * the members' aligned samples (lib/joint.c; a capsule without samples
 * is rejected, never read as 0).  The memory rule promise (--mem-rule)
 * replaces memory's three rules (requests, limits within memory + pool,
 * Eq. 3) by Eq. 3 alone against O_mem (ovb_need_promise); the requests
 * and limits stay in the plan for enforcement.
 *
 * Invariants: an application is placed whole or rejected whole with the
 * reason; every node of the output satisfies Eq. 1 and Eq. 3 for each
 * resource on the grid the plan states (in the joint mode, the joint test
 * of each rate); the same request gives the same plan.  One run at a time: a run's state is one struct (struct eng, E
 * below), all of it freed before ovb_place_run returns. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

struct capsule {
	const struct ovb_app *app;
	const struct ovb_capsule *c;
	size_t app_index;
	struct ovb_need need[OVB_NCAP];
};


struct trust;
struct nodelist;
struct shape;
struct walk;
struct near;
struct cand;
struct policy;

/* The state of one run. */
struct eng {
	/* the request */
	const struct ovb_cluster *cluster;
	const struct ovb_apps *apps;
	const struct ovb_profiles *prof;
	const struct ovb_plan *existing;  /* an empty one when none */
	bool have_existing;
	const char *cluster_file, *apps_file, *plan_file;
	const struct policy *policy;
	uint64_t grid;
	double trust_weight;
	bool strict, scan, aggregate, repair;
	bool consolidate;         /* --consolidate: empty nodes by the moves
	                             left after the repair */
	uint64_t cons_max;        /* of them at most this many; 0: no bound */
	bool onto_used;           /* best_elsewhere: not onto an empty node */
	bool tod;                 /* --mode tod: Eq. 1 and 3 per hour */
	bool nsigma;              /* --mode nsigma: lib/nsigma.c's test */
	double nsigma_n;
	const struct ovb_joint *joint;  /* --mode joint: lib/joint.c's test
	                             on these samples; NULL: not joint */
	bool mem_promise;         /* --mem-rule promise: mem by Eq. 3 alone */
	double mem_O;             /* its O_mem; NAN: the capsules' own */
	uint64_t max_moves, valid;
	const struct ovb_qos *forecast;
	/* the plan made */
	struct ovb_plan out;
	size_t nrejected;         /* applications rejected by this run */
	size_t nwarnings;         /* warnings that strict makes errors */
	struct ovb_nstate *node;
	double total_cap[OVB_NCAP], total_load[OVB_NCAP];
	size_t total_n[OVB_NCAP];  /* terms in total_load */
	struct ovb_names appidx;  /* application name -> index into all[] */
	const char **all;         /* every application name seen */
	size_t nall, capall;
	struct ovb_need (*needs)[OVB_NCAP]; /* of out.p[i], to rebuild nodes */
	size_t capneeds;
	size_t skip;              /* out.p[skip] is left out of the nodes
	                             (a capsule being moved); OVB_NONE */
	bool *inplace;            /* per application of apps: an op=modify
	                             re-profiled in place (--max-moves) */
	uint64_t moves;           /* made by the repair */
	uint64_t rng;
	int nres;                 /* resources placed: cpu, net[, net-rx]
	                             [, mem]: those below nres whose
	                             capacity is given (> 0) */
	int nplaced;              /* how many of them */
	struct ovb_profidx pidx;  /* profiles by capsule and resource */
	struct ovb_nstate_ctx ns;  /* the nodes' shared caches (lib/nstate.c) */
	/* trust records below 1 (index_trust) */
	struct trust *trusts;
	size_t ntrusts, captrusts;
	bool *in_trust;           /* by application index: named in a record */
	struct trust *partner;    /* by application a: (a, b, v) for every
	                             record of a with b, either way, */
	size_t *pstart;           /* from partner[pstart[a]] to pstart[a+1] */
	size_t nin_trust;         /* applications indexed when it was made */
	struct nodelist *wary_at;
	/* the node index */
	struct shape *shapes;
	size_t nshapes;
	size_t *pos_of, *shape_of;   /* by node: its position, its shape */
	bool *is_empty;              /* by node: in its shape's list */
	struct walk *walk;           /* candidates_indexed's search */
	struct near *nearq;          /* nearest_indexed's */
	size_t nearcap;
	struct cand *ctmp;           /* a candidate per node (place_app) */
	size_t nctmp;
};
/* The run's state at a fixed address (one run at a time): its fields are
 * reached without loading a pointer first (through a pointer, ovb-place
 * took 12% more CPU time on bench/place.sh's 100,000 capsules). */
static struct eng eng_state;
#define E (&eng_state)

/* ---- requirements ---- */

/* ovb_profile_find by lib/profidx.c's table. */
static const struct ovb_qos *
prof_find(const char *name, enum ovb_res r)
{
	if (!E->pidx.p)
		ovb_profidx_init(&E->pidx, E->prof);
	return ovb_profidx_find(&E->pidx, name, r);
}

/* --enforce: what the targets will really grant (lib/enforce.c), so Eq. 1
 * and Eq. 3 are decided on the enforced numbers; 65 at file:line naming
 * the capsule when a target cannot grant it at all. */
static int
grant(struct ovb_need need[OVB_NCAP], const char *file, unsigned long line,
	const char *app, const char *cap)
{
	char why[256];
	int t;
	if (!ovb_enforce_mask ||
	    !ovb_need_grant(ovb_enforce_mask, &ovb_klim, need, &t, why,
	    sizeof why))
		return 0;
	return ovb_err_at(file, line, "application %s, capsule %s: --enforce "
		"%s cannot grant it: %s", app, cap, ovb_target_names[t], why);
}

/* --mode joint: the samples of the rates a capsule of profile name (NULL:
 * plain) uses; a rate without any keeps jv NULL (joint_missing). */
static void
joint_needs(const char *name, struct ovb_need need[OVB_NCAP])
{
	for (int r = 0; E->joint && r < OVB_MEM; r++) {
		const double *v = NULL;
		if (!need[r].used)
			continue;
		(void)ovb_joint_find(E->joint, name, (enum ovb_res)r, &v);
		ovb_need_joint(&need[r], E->joint, v);
	}
}

/* --mode joint: why capsule c (profile name, NULL: plain) has no samples
 * of a rate it uses, into why[len]; false when it has them all.  Unseen
 * usage is not read as 0: the caller refuses the capsule. */
static bool
joint_missing(const char *cname, const char *name,
	const struct ovb_need need[OVB_NCAP], char *why, size_t len)
{
	for (int r = 0; E->joint && r < OVB_MEM; r++) {
		const double *v;
		if (!need[r].used || need[r].jv)
			continue;
		const char *rn = ovb_res_name((enum ovb_res)r);
		int k = name ? ovb_joint_find(E->joint, name, (enum ovb_res)r, &v)
			: 1;
		char win[OVB_MAXNAME + 96];
		ovb_joint_where(E->joint, win, sizeof win);
		if (!name)
			snprintf(why, len, "capsule %s: no samples in %s: a plain "
				"reservation of %s has no series (--mode joint reads "
				"no unseen usage as 0)", cname, win, rn);
		else
			snprintf(why, len, "capsule %s: no samples in %s: %s %s %s%s "
				"(--mode joint reads no unseen usage as 0)", cname, win,
				k == 1 ? "no series" : "series", name, rn, k == 1 ? "" :
				" has none there");
		return true;
	}
	return false;
}

/* A capsule's needs from its profile or plain reservation; 65 when the
 * profile is missing or uses none of either resource. */
static int
needs_of(const struct ovb_app *app, const struct ovb_capsule *c,
	struct ovb_need need[OVB_NCAP])
{
	const struct ovb_qos *q[OVB_NCAP] = { NULL };
	for (int r = 0; r < E->nres && c->profile; r++)
		q[r] = prof_find(c->profile, (enum ovb_res)r);
	/* a cluster without net-rx capacities does not place it */
	bool used = ovb_need_of(app, c, q, need) &&
		ovb_need_placed(E->cluster, need);
	for (int r = 0; r < OVB_NCAP; r++) {
		need[r].agg = E->aggregate;
		if (E->nsigma && need[r].used)
			ovb_need_nsigma(&need[r], E->nsigma_n);
	}
	if (E->mem_promise && need[OVB_MEM].used)
		ovb_need_promise(&need[OVB_MEM], E->mem_O);
	joint_needs(c->profile, need);
	if (!used && ovb_read_as_zero(q))
		return ovb_nothing_measured(app, c, E->apps_file);
	if (!used) {
		if (c->profile)
			return ovb_err_at(E->apps_file, app->line, "application %s, "
				"capsule %s: profile=%s is in none of the profile files "
				"(no cpu or net block%s)", app->name, c->name,
				c->profile, ovb_cluster_has_mem(E->cluster) ?
				", no mem block" : "");
		return ovb_err_at(E->apps_file, app->line, "application %s, "
			"capsule %s: reserves no cpu and no net", app->name, c->name);
	}
	return grant(need, E->apps_file, c->line, app->name, c->name);
}

/* ---- applications and trust ---- */

static size_t
app_index(const char *name)
{
	size_t i = ovb_names_get(&E->appidx, name);
	if (i == OVB_NONE) {
		i = E->nall;
		*OVB_PUSH(E->all, E->nall, E->capall) = name;
		ovb_names_add(&E->appidx, name, i);
	}
	return i;
}

/* Trust records below 1, as (truster, trusted) application indexes,
 * sorted for lookups; most applications have none. */
struct trust { size_t a, b; double v; };

static int
cmp_trust(const void *x, const void *y)
{
	const struct trust *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

static void
index_trust(void)
{
	for (size_t i = 0; i < E->apps->n; i++) {
		const struct ovb_app *app = &E->apps->app[i];
		size_t a = app_index(app->name);
		for (size_t j = 0; j < app->ntrust; j++)
			if (app->trust[j].v < 1)
				*OVB_PUSH(E->trusts, E->ntrusts, E->captrusts) = (struct trust){
					a, app_index(app->trust[j].app), app->trust[j].v };
	}
	ovb_qsort(E->trusts, E->ntrusts, sizeof *E->trusts, cmp_trust);
	E->nin_trust = E->nall;
	E->in_trust = ovb_xcalloc(E->nall + 1, sizeof *E->in_trust);
	for (size_t i = 0; i < E->ntrusts; i++)
		E->in_trust[E->trusts[i].a] = E->in_trust[E->trusts[i].b] = true;
	/* each application's partners, both ways, by application index */
	E->pstart = ovb_xcalloc(E->nall + 2, sizeof *E->pstart);
	E->partner = ovb_xcalloc(2 * E->ntrusts + 1, sizeof *E->partner);
	for (size_t i = 0; i < E->ntrusts; i++) {
		E->pstart[E->trusts[i].a + 2]++;
		E->pstart[E->trusts[i].b + 2]++;
	}
	for (size_t a = 0; a < E->nall; a++)
		E->pstart[a + 2] += E->pstart[a + 1];
	for (size_t i = 0; i < E->ntrusts; i++) {
		const struct trust *r = &E->trusts[i];
		E->partner[E->pstart[r->a + 1]++] = (struct trust){ r->a, r->b,
			r->v };
		E->partner[E->pstart[r->b + 1]++] = (struct trust){ r->b, r->a,
			r->v };
	}
}

/* Every trust record names an application of the apps file or of the
 * plan added to (placed or rejected there), as ovb-check requires: 65 at
 * the truster's line otherwise. */
static int
check_trust(void)
{
	struct ovb_names known = { 0 };
	for (size_t i = 0; i < E->apps->n; i++)
		ovb_names_add(&known, E->apps->app[i].name, i);
	for (size_t i = 0; i < E->existing->n; i++)
		ovb_names_add(&known, E->existing->p[i].app, i);
	for (size_t i = 0; i < E->existing->nrej; i++)
		ovb_names_add(&known, E->existing->rej[i].app, i);
	int st = 0;
	for (size_t i = 0; i < E->apps->n && !st; i++) {
		const struct ovb_app *app = &E->apps->app[i];
		for (size_t j = 0; j < app->ntrust && !st; j++)
			if (ovb_names_get(&known, app->trust[j].app) == OVB_NONE)
				st = ovb_err_at(E->apps_file, app->line,
					"application %s: trust of %s, which is "
					"in none of the apps files%s%s",
					app->name, app->trust[j].app,
					E->have_existing ? " nor the plan " : "",
					E->have_existing ? E->plan_file : "");
	}
	ovb_names_free(&known);
	return st;
}

static double
trust_one(size_t a, size_t b)
{
	struct trust key = { a, b, 0 };
	const struct trust *t = !E->ntrusts ? NULL : bsearch(&key, E->trusts,
		E->ntrusts, sizeof *E->trusts,
		cmp_trust);
	return t ? t->v : 1;
}

static bool on_node(const struct ovb_nstate *nd, size_t b);

/* The least trust between application a and those on the node: over a's
 * partners on it, or over the node's wary applications, whichever are
 * fewer (the same least: a record below 1 names both). */
static double
node_trust(const struct ovb_nstate *nd, size_t a)
{
	double t = 1;
	if (a >= E->nin_trust || !E->in_trust[a])
		return 1;
	if (E->pstart[a + 1] - E->pstart[a] < nd->nwary) {
		for (size_t k = E->pstart[a]; k < E->pstart[a + 1]; k++)
			if (on_node(nd, E->partner[k].b))
				t = fmin(t, E->partner[k].v);
		return t;
	}
	for (size_t i = 0; i < nd->nwary; i++) {
		size_t b = nd->wary[i];
		t = fmin(t, fmin(trust_one(a, b), trust_one(b, a)));
	}
	return t;
}

/* By application index (below E->nin_trust): the nodes whose wary list has
 * it. */
struct nodelist { size_t *i, n, cap; };

/* Is application b (below nin_trust) on the node? */
static bool
on_node(const struct ovb_nstate *nd, size_t b)
{
	if (!E->wary_at)
		return false;
	size_t i = (size_t)(nd - E->node);
	for (size_t j = 0; j < E->wary_at[b].n; j++)
		if (E->wary_at[b].i[j] == i)
			return true;
	return false;
}

static int
cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return (a > b) - (a < b);
}

/* How many nodes node_trust() puts at 0 or below for application a: those
 * with an application b on them whose trust with a is. */
static size_t
distrusting(size_t a)
{
	size_t *v = NULL, n = 0, cap = 0, d = 0;
	for (size_t k = E->pstart[a]; E->wary_at && k < E->pstart[a + 1]; k++) {
		size_t b = E->partner[k].b;
		if (b >= E->nin_trust ||
		    !(fmin(trust_one(a, b), trust_one(b, a)) <= 0))
			continue;
		for (size_t j = 0; j < E->wary_at[b].n; j++)
			*OVB_PUSH(v, n, cap) = E->wary_at[b].i[j];
	}
	ovb_qsort(v, n, sizeof *v, cmp_size);
	for (size_t j = 0; j < n; j++)
		d += !j || v[j] != v[j - 1];
	free(v);
	return d;
}

/* ---- feasibility and scores ---- */

enum why { W_OK, W_PIN, W_LABEL, W_TRUST, W_EQ1, W_TARGET, W_EQ3, W_LIMIT,
	W_REQUEST, W_TOD, W_JOINT, W_NWHY };
static const char *const why_name[W_NWHY] = { "", "pinned elsewhere",
	"no spread label", "trust 0", "Eq. 1", "--target", "Eq. 3",
	"mem limits", "mem requests", "Eq. 1 or 3 in an hour of the day",
	"joint (slots above C more than O, or too few seen together)" };

/* ---- policies: rows of one table ----
 *
 * A policy scores a feasible node for a capsule, higher better; fit is
 * the node's headroom after the capsule, summed over the resources placed
 * as (C - load)/C/their number.  indexed: the best nodes are those of
 * most headroom now less a bound the capsule's terms give, so the node
 * index finds them without a pass over all nodes.  decreasing: the new
 * applications of each run of op=new records are placed largest first
 * (app_size), not in arrival order. */
static double
score_worst(const struct capsule *cp, const struct ovb_nstate *nd, double fit)
{
	(void)cp;
	(void)nd;
	return fit;
}

static double
score_best(const struct capsule *cp, const struct ovb_nstate *nd, double fit)
{
	(void)cp;
	(void)nd;
	return 1 - fit;
}

/* Overbooking-conscious worst-fit: nodes whose least tolerance is
 * closest to the capsule's. */
static double
score_tolerance(const struct capsule *cp, const struct ovb_nstate *nd, double fit)
{
	double d = 0;
	for (int r = 0; r < E->nres; r++)
		if (cp->need[r].used && nd->r[r].ncap)
			d = fmax(d, fabs(nd->r[r].omin - cp->need[r].O));
	return fit - 100 * d;
}

static double
score_random(const struct capsule *cp, const struct ovb_nstate *nd, double fit)
{
	(void)cp;
	(void)nd;
	(void)fit;
	return ovb_rng_uniform(&E->rng);
}

/* The first node of the cluster's order that takes it. */
static double
score_first(const struct capsule *cp, const struct ovb_nstate *nd, double fit)
{
	(void)cp;
	(void)fit;
	return -(double)(size_t)(nd - E->node);
}

struct policy {
	const char *name;
	double (*score)(const struct capsule *cp, const struct ovb_nstate *nd,
		double fit);
	bool indexed, decreasing;
};
static const struct policy policies[] = {
	{ "worst-fit", score_worst, true, false },
	{ "best-fit", score_best, false, false },
	{ "tolerance", score_tolerance, true, false },
	{ "random", score_random, false, false },
	{ "first-fit-decreasing", score_first, false, true },
};
enum { NPOLICY = sizeof policies / sizeof *policies };

int
ovb_place_policy(const char *name)
{
	for (int i = 0; i < NPOLICY; i++)
		if (!strcmp(policies[i].name, name))
			return i;
	return -1;
}

const char *
ovb_place_policy_name(int i)
{
	return i >= 0 && i < NPOLICY ? policies[i].name : NULL;
}

/* Higher is better: the fit the policy wants, mixed with trust. */
static double
score(const struct capsule *cp, const struct ovb_nstate *nd, const double after[],
	double trust)
{
	double fit = 0;
	for (int r = 0; r < E->nres; r++) {
		if (!(nd->n->cap[r] > 0))       /* net-rx not given, mem is */
			continue;
		double used = cp->need[r].used ? after[r] :
			E->aggregate || E->nsigma ? nd->r[r].sig : nd->r[r].load;
		fit += (nd->n->cap[r] - used) / nd->n->cap[r] / E->nplaced;
	}
	double s = E->policy->score(cp, nd, fit);
	return (1 - E->trust_weight) * s + E->trust_weight * trust;
}

/* Everything but Eq. 3, which is dear: W_OK with the score, or why not. */
static enum why
cheap_tests(const struct capsule *cp, const struct ovb_nstate *nd, double *sc)
{
	if (cp->c->node && strcmp(cp->c->node, nd->n->name))
		return W_PIN;
	if (cp->app->spread && !ovb_node_label(nd->n, cp->app->spread))
		return W_LABEL;
	double trust = nd->napps ? node_trust(nd, cp->app_index) : 1;
	if (trust <= 0)
		return W_TRUST;
	double after[OVB_NCAP] = { 0 };
	for (int r = 0; r < E->nres; r++)
		if (cp->need[r].used) {
			if (!ovb_nstate_eq1(&nd->r[r], &cp->need[r], nd->n->cap[r],
			    &after[r]) && !((E->tod || E->joint) && r != OVB_MEM) &&
			    !cp->need[r].promise)   /* requests: no rule */
				return r == OVB_MEM ? W_REQUEST : W_EQ1;
			if (E->aggregate || E->nsigma)  /* the fit: sigmas */
				after[r] = nd->r[r].sig + cp->need[r].sigma;
		}
	/* mem: the limits within the node's memory and reclaimable pool
	 * (promise: no rule) */
	if (cp->need[OVB_MEM].used &&
	    !ovb_nstate_mem_ok(nd, &cp->need[OVB_MEM]))
		return W_LIMIT;
	char why[256];
	int tres;
	if (ovb_nstate_target(nd, cp->need, why, sizeof why, &tres))
		return W_TARGET;
	*sc = score(cp, nd, after, trust);
	return W_OK;
}

/* --mode tod: Eq. 1 and Eq. 3 of the rates in every hour of the day
 * (lib/tod.c) on the node's members (from the plan made) and cp; the
 * members' part kept per node (lib/todnode.c, filled by add_capsule). */
static bool
tod_ok(const struct capsule *cp, const struct ovb_nstate *nd)
{
	bool ok = true;
	for (int r = 0; r < E->nres && ok; r++)
		if (r != OVB_MEM && cp->need[r].used)
			ok = ovb_todnode_ok(nd->tod, r, &cp->need[r],
				cp->c->profile ? prof_find(cp->c->profile,
				(enum ovb_res)r) : NULL, nd->n->cap[r], E->grid);
	return ok;
}

static enum why
eq3_tests(const struct capsule *cp, const struct ovb_nstate *nd)
{
	for (int r = 0; E->joint && r < OVB_MEM; r++) {
		struct ovb_joint_stat st;
		if (!cp->need[r].used)
			continue;
		ovb_nstate_joint(nd, r, &cp->need[r], &st);
		if (!st.ok)
			return W_JOINT;
	}
	for (int r = 0; r < E->nres; r++)
		if (cp->need[r].used && !((E->tod || E->joint) && r != OVB_MEM) &&
		    !ovb_nstate_eq3(&E->ns, &nd->r[r], &cp->need[r],
		    nd->n->cap[r]))
			return W_EQ3;
	if (E->tod && !tod_ok(cp, nd))
		return W_TOD;
	return W_OK;
}

/* ---- candidates and assignment ---- */

/* A feasible node of a capsule; its group is the node itself, or with the
 * application's spread=KEY the first node with its value of the label. */
struct cand { size_t node, group; double score; };

static int
by_score(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Restores the heap below j in h[0..k): the worst candidate on top. */
static void
sift_down(struct cand *h, size_t k, size_t j)
{
	for (;;) {
		size_t l = 2 * j + 1, r = l + 1, m = j;
		if (l < k && by_score(&h[l], &h[m]) > 0)
			m = l;
		if (r < k && by_score(&h[r], &h[m]) > 0)
			m = r;
		if (m == j)
			return;
		struct cand x = h[j];
		h[j] = h[m];
		h[m] = x;
		j = m;
	}
}

/* Moves the best k of tmp[0..n) by score to its front, sorted: a heap of
 * the best k seen, its worst on top. */
static void
best_first(struct cand *tmp, size_t n, size_t k)
{
	if (k >= n) {
		ovb_qsort(tmp, n, sizeof *tmp, by_score);
		return;
	}
	for (size_t i = k / 2; i-- > 0;)
		sift_down(tmp, k, i);
	for (size_t i = k; i < n; i++)
		if (by_score(&tmp[i], &tmp[0]) < 0) {
			struct cand x = tmp[0];
			tmp[0] = tmp[i];
			tmp[i] = x;
			sift_down(tmp, k, 0);
		}
	ovb_qsort(tmp, k, sizeof *tmp, by_score);
}

/* ---- the node index ----
 *
 * Worst-fit and tolerance score a node by its headroom after the capsule
 * is added, sum over resources of (C - load after)/C/NCAP, and the load
 * after is at least the load now plus the capsule's own Eq. 1 term t (a
 * node's loads only grow: a new term, and tau_min only falls).  On nodes
 * of one shape (the same capacities) the score is thus at most the
 * headroom now less sum t/C/NCAP, the same for all of them, and Eq. 1
 * fails for certain where C - load < t on a resource the capsule uses.
 * Each shape keeps its nodes in a segment tree holding, per subtree, the
 * largest headroom and the largest C - load of each resource; the E->shapes'
 * trees are searched best-first together by the bound on the score,
 * leaving out every subtree where Eq. 1 must fail, and the search stops
 * as soon as the best candidate found beats every node not yet seen.
 *
 * A shape's empty nodes are all alike (the same capacities, no capsule):
 * they score the same and pass or fail the same tests, and the tie goes
 * to the lowest index.  They are kept out of the tree, in a list by
 * index, and a search tests the first of them only: the others follow
 * it with the same score (searching them in the tree made every capsule
 * of the first wave visit every empty node of the best shape, a cost that
 * grew with the nodes per shape).  With spread=KEY their labels differ:
 * they are then searched one by one.
 *
 * The candidates, and so the plan, are those of a pass over all nodes
 * (t/0310 compares them with --scan).  When no node takes the capsule,
 * the counts of the reasons come from the search too (a node the tree
 * left out fails Eq. 1, unless trust 0 with the application comes first:
 * the nodes of its distrusted partners), and the nearest node from a
 * search of the same trees by the least shortfall; a pinned capsule or
 * spread=KEY pass over all nodes for them.  Best-fit, random, trust
 * weighting and the aggregate mode score otherwise, --max-moves
 * takes capsules off nodes, and under the memory rule promise the
 * requests are no rule (the tree's Eq. 1 bound would leave out nodes
 * that take the capsule): they pass over all nodes. */
struct slot {
	double top;                   /* the largest headroom below */
	double room[OVB_NCAP];        /* the largest C - load below */
};
struct shape {
	const double *cap;            /* the capacities of its nodes */
	size_t *node, n, size;        /* its nodes by index; leaves (2^k) */
	struct slot *t;               /* the tree: t[1] the root, leaves
	                                 from t[size] */
	size_t *enext, *eprev;        /* its empty nodes by position, a list
	                                 (n: none) */
	size_t efirst, nempty;
	/* per search */
	double drop;                  /* sum t/C/NCAP of the capsule */
	size_t ecur, eleft;           /* the next empty node not yet seen,
	                                 how many are left */
	double escore;                /* their score */
	bool elive;                   /* they may take the capsule */
};

static bool
use_index(void)
{
	return !E->scan && E->trust_weight == 0 && !E->aggregate && !E->tod &&
		!E->nsigma && !E->joint && !E->mem_promise &&
		!E->repair &&
		E->policy->indexed;
}

static double
headroom(const struct ovb_nstate *nd)
{
	double fit = 0;
	for (int r = 0; r < E->nres; r++)
		if (nd->n->cap[r] > 0)
			fit += (nd->n->cap[r] - nd->r[r].load) / nd->n->cap[r] /
				E->nplaced;
	return fit;
}

/* No capsule, and so the state of a node just made. */
static bool
node_empty(const struct ovb_nstate *nd)
{
	if (nd->napps)
		return false;
	for (int r = 0; r < OVB_NCAP; r++)
		if (nd->r[r].ncap || nd->r[r].nmembers || nd->r[r].g)
			return false;
	return true;
}

static void
slot_pull(struct shape *sh, size_t i)
{
	const struct slot *l = &sh->t[2 * i], *r = l + 1;
	struct slot *s = &sh->t[i];
	s->top = fmax(l->top, r->top);
	for (int k = 0; k < OVB_NCAP; k++)
		s->room[k] = fmax(l->room[k], r->room[k]);
}

static void
slot_hide(struct slot *s)
{
	s->top = -INFINITY;
	for (int k = 0; k < OVB_NCAP; k++)
		s->room[k] = -INFINITY;
}

static void
leaf_set(struct shape *sh, size_t pos, const struct ovb_nstate *nd)
{
	struct slot *s = &sh->t[sh->size + pos];
	s->top = headroom(nd);
	for (int k = 0; k < OVB_NCAP; k++)
		s->room[k] = nd->n->cap[k] - nd->r[k].load;
}

/* Nodes by their capacities, then their index. */
static int
by_caps(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const double *a = E->node[i].n->cap, *b = E->node[j].n->cap;
	for (int r = 0; r < OVB_NCAP; r++)
		if (a[r] != b[r])
			return a[r] < b[r] ? -1 : 1;
	return (i > j) - (i < j);
}

static void
index_free(void)
{
	for (size_t k = 0; k < E->nshapes; k++) {
		free(E->shapes[k].node);
		free(E->shapes[k].t);
		free(E->shapes[k].enext);
		free(E->shapes[k].eprev);
	}
	free(E->shapes);
	free(E->pos_of);
	free(E->shape_of);
	free(E->is_empty);
	E->shapes = NULL;
	E->nshapes = 0;
	E->pos_of = E->shape_of = NULL;
	E->is_empty = NULL;
}

static void
index_build(void)
{
	size_t n = E->cluster->n, cap = 0;
	index_free();
	if (!use_index() || !n)
		return;
	E->pos_of = ovb_xmalloc(n * sizeof *E->pos_of);
	E->shape_of = ovb_xmalloc(n * sizeof *E->shape_of);
	E->is_empty = ovb_xcalloc(n, sizeof *E->is_empty);
	size_t *order = ovb_xmalloc(n * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	ovb_qsort(order, n, sizeof *order, by_caps);
	for (size_t j = 0; j < n; j++) {
		size_t i = order[j];
		const double *c = E->node[i].n->cap, *p = j ?
			E->node[order[j - 1]].n->cap : NULL;
		if (!p || memcmp(c, p, OVB_NCAP * sizeof *c)) {
			struct shape *sh = OVB_PUSH(E->shapes, E->nshapes, cap);
			*sh = (struct shape){ .cap = c };
			sh->node = ovb_xmalloc(n * sizeof *sh->node);
		}
		struct shape *sh = &E->shapes[E->nshapes - 1];
		E->shape_of[i] = E->nshapes - 1;
		E->pos_of[i] = sh->n;
		sh->node[sh->n++] = i;
	}
	free(order);
	for (size_t k = 0; k < E->nshapes; k++) {
		struct shape *sh = &E->shapes[k];
		for (sh->size = 1; sh->size < sh->n; sh->size *= 2)
			;
		sh->t = ovb_xmalloc(2 * sh->size * sizeof *sh->t);
		sh->enext = ovb_xmalloc(sh->n * sizeof *sh->enext);
		sh->eprev = ovb_xmalloc(sh->n * sizeof *sh->eprev);
		size_t last = sh->n;
		sh->efirst = sh->n;
		for (size_t j = 0; j < sh->size; j++) {
			if (j >= sh->n) {
				slot_hide(&sh->t[sh->size + j]);
				continue;
			}
			size_t i = sh->node[j];
			if (!node_empty(&E->node[i])) {
				leaf_set(sh, j, &E->node[i]);
				continue;
			}
			slot_hide(&sh->t[sh->size + j]);
			E->is_empty[i] = true;
			sh->nempty++;
			sh->eprev[j] = last;
			sh->enext[j] = sh->n;
			if (last == sh->n)
				sh->efirst = j;
			else
				sh->enext[last] = j;
			last = j;
		}
		for (size_t i = sh->size; i-- > 1;)
			slot_pull(sh, i);
	}
}

static void
index_update(const struct ovb_nstate *nd)
{
	if (!E->shapes)
		return;
	size_t i = (size_t)(nd - E->node), j = E->pos_of[i];
	struct shape *sh = &E->shapes[E->shape_of[i]];
	if (E->is_empty[i]) {    /* out of the list of empty nodes */
		E->is_empty[i] = false;
		sh->nempty--;
		size_t p = sh->eprev[j], q = sh->enext[j];
		if (p == sh->n)
			sh->efirst = q;
		else
			sh->enext[p] = q;
		if (q != sh->n)
			sh->eprev[q] = p;
	}
	leaf_set(sh, j, nd);
	for (size_t s = (sh->size + j) / 2; s >= 1; s /= 2)
		slot_pull(sh, s);
}

/* The best-first search: a heap of tree slots by their bound; slot 0
 * stands for the shape's empty nodes, searched one by one (spread). */
struct front { double ub; size_t shape, slot; };
struct walk { struct front *q; size_t n, cap; double need[OVB_NCAP]; };

/* Whether Eq. 1 can hold somewhere under slot: on every resource the
 * capsule uses, some node with C - load >= t (less a margin for the
 * rounding of the loads). */
static bool
may_fit(const struct walk *w, const struct shape *sh, const double *room)
{
	for (int r = 0; r < OVB_NCAP; r++)
		if (w->need[r] > 0 && room[r] < w->need[r] - 1e-9 * sh->cap[r])
			return false;
	return true;
}

/* The front of a tree slot, false when no node under it may fit. */
static bool
front_of(const struct walk *w, size_t k, size_t slot, struct front *f)
{
	const struct shape *sh = &E->shapes[k];
	const struct slot *s = &sh->t[slot];
	if (s->top == -INFINITY || !may_fit(w, sh, s->room))
		return false;
	*f = (struct front){ s->top - sh->drop, k, slot };
	return true;
}

static void
walk_push(struct walk *w, struct front f)
{
	size_t i = w->n;
	*OVB_PUSH(w->q, w->n, w->cap) = f;
	while (i > 0 && w->q[i].ub > w->q[(i - 1) / 2].ub) {
		struct front x = w->q[i];
		w->q[i] = w->q[(i - 1) / 2];
		w->q[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

static struct front
walk_pop(struct walk *w)
{
	struct front top = w->q[0];
	w->q[0] = w->q[--w->n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < w->n && w->q[l].ub > w->q[m].ub)
			m = l;
		if (r < w->n && w->q[r].ub > w->q[m].ub)
			m = r;
		if (m == i)
			break;
		struct front x = w->q[i];
		w->q[i] = w->q[m];
		w->q[m] = x;
		i = m;
	}
	return top;
}

/* The next node that may take the capsule, best bound first (*ub, which
 * no node not yet returned passes), or OVB_NONE.  The walk goes down the
 * better child while it is the best front, the other waiting in the
 * heap: a heap step per level only where the order demands it. */
static size_t
walk_next(struct walk *w, double *ub)
{
	while (w->n) {
		struct front f = walk_pop(w);
		for (;;) {
			struct shape *sh = &E->shapes[f.shape];
			if (f.slot == 0) {     /* the empty nodes, one by one */
				size_t j = sh->ecur;
				sh->ecur = sh->enext[j];
				if (sh->ecur != sh->n)
					walk_push(w, f);
				*ub = f.ub;
				return sh->node[j];
			}
			if (f.slot >= sh->size) {
				*ub = f.ub;
				return sh->node[f.slot - sh->size];
			}
			struct front a, b;
			bool ha = front_of(w, f.shape, 2 * f.slot, &a),
				hb = front_of(w, f.shape, 2 * f.slot + 1, &b);
			if (!ha && !hb)
				break;
			if (ha && hb) {
				if (b.ub > a.ub) {
					struct front x = a;
					a = b;
					b = x;
				}
				walk_push(w, b);
			} else if (hb)
				a = b;
			if (w->n && w->q[0].ub > a.ub) {
				walk_push(w, a);
				break;
			}
			f = a;
		}
	}
	*ub = -INFINITY;
	return OVB_NONE;
}

/* Candidate max-heap by (score, node), as by_score orders them. */
static void
cand_push(struct cand *h, size_t *n, struct cand c)
{
	size_t i = (*n)++;
	h[i] = c;
	while (i > 0 && by_score(&h[i], &h[(i - 1) / 2]) < 0) {
		struct cand x = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

static struct cand
cand_pop(struct cand *h, size_t *n)
{
	struct cand top = h[0];
	h[0] = h[--*n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < *n && by_score(&h[l], &h[m]) < 0)
			m = l;
		if (r < *n && by_score(&h[r], &h[m]) < 0)
			m = r;
		if (m == i)
			break;
		struct cand x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
	return top;
}

/* The capsule's Eq. 1 terms and each shape's drop, for a search. */
static void
walk_start(struct walk *w, const struct capsule *cp)
{
	w->n = 0;
	for (int r = 0; r < OVB_NCAP; r++)
		w->need[r] = cp->need[r].used ? ovb_eq1_term(&cp->need[r],
			cp->need[r].tau) : 0;
	for (size_t k = 0; k < E->nshapes; k++) {
		E->shapes[k].drop = 0;
		for (int r = 0; r < E->nres; r++)
			if (E->shapes[k].cap[r] > 0)
				E->shapes[k].drop += w->need[r] / E->shapes[k].cap[r] /
					E->nplaced;
	}
}

/* The best empty node not yet seen of a shape whose empty nodes may take
 * the capsule, as a candidate: *c, or false. */
static bool
empty_best(const size_t *group, struct cand *c)
{
	bool any = false;
	for (size_t k = 0; k < E->nshapes; k++) {
		const struct shape *sh = &E->shapes[k];
		if (!sh->elive || !sh->eleft)
			continue;
		struct cand e = { sh->node[sh->ecur], 0, sh->escore };
		e.group = group ? group[e.node] : e.node;
		if (!any || by_score(&e, c) < 0)
			*c = e;
		any = true;
	}
	return any;
}

/* candidates() by the index: the same groups in the same order.  A node
 * is taken from the candidates' heap only when no node not yet visited
 * can score as high (the bound, plus a margin for the rounding of the
 * sums, is below; empty nodes: their score, and the tie to the lower
 * index).  When none is found and *complete, counts[] holds why, as a
 * pass over all nodes would count. */
static size_t
candidates_indexed(const struct capsule *cp, size_t want, const size_t *group,
	struct cand *out, struct cand *tmp, size_t counts[W_NWHY],
	bool *complete)
{
	struct walk *w = E->walk;
	size_t n = 0, found = 0, next, seen = 0;
	double ub;
	walk_start(w, cp);
	for (size_t k = 0; k < E->nshapes; k++) {
		struct shape *sh = &E->shapes[k];
		struct front f;
		if (front_of(w, k, 1, &f))
			walk_push(w, f);
		sh->ecur = sh->efirst;
		sh->eleft = sh->nempty;
		sh->elive = false;
		if (!sh->nempty)
			continue;
		if (group) {   /* labels differ: one by one */
			f = (struct front){ headroom(&E->node[sh->node[sh->ecur]]) -
				sh->drop, k, 0 };
			struct slot s = { 0 };
			for (int r = 0; r < OVB_NCAP; r++)
				s.room[r] = sh->cap[r];
			if (may_fit(w, sh, s.room))
				walk_push(w, f);
			continue;
		}
		/* alike: the first one tells for all */
		enum why y = cheap_tests(cp, &E->node[sh->node[sh->ecur]],
			&sh->escore);
		sh->elive = y == W_OK;
		if (!sh->elive) {
			counts[y] += sh->nempty;
			seen += sh->nempty;
		}
	}
	next = walk_next(w, &ub);
	while (found < want) {
		struct cand e;
		bool have_e = empty_best(group, &e);
		double bound = ub + 1e-9 * (1 + fabs(ub));
		bool take = n && (next == OVB_NONE || tmp[0].score > bound) &&
			(!have_e || by_score(&tmp[0], &e) < 0);
		if (take) {
			struct cand c = cand_pop(tmp, &n);
			bool taken = false;
			for (size_t k = 0; group && k < found && !taken; k++)
				taken = out[k].group == c.group;
			if (taken)
				continue;
			if (eq3_tests(cp, &E->node[c.node]) == W_OK) {
				out[found++] = c;
				continue;
			}
			counts[W_EQ3]++;
			struct shape *sh = &E->shapes[E->shape_of[c.node]];
			if (E->is_empty[c.node] && sh->elive) {
				/* and so do the others */
				counts[W_EQ3] += sh->eleft;
				seen += sh->eleft;
				sh->elive = false;
			}
			continue;
		}
		if (have_e && (!n || by_score(&e, &tmp[0]) < 0)) {
			/* an empty node: its score is known */
			struct shape *sh = &E->shapes[E->shape_of[e.node]];
			cand_push(tmp, &n, e);
			seen++;
			sh->ecur = sh->enext[sh->ecur];
			sh->eleft--;
			continue;
		}
		if (next == OVB_NONE)
			break;
		double sc;
		enum why y = cheap_tests(cp, &E->node[next], &sc);
		seen++;
		if (y == W_OK)
			cand_push(tmp, &n, (struct cand){ next, group ?
				group[next] : next, sc });
		else
			counts[y]++;
		next = walk_next(w, &ub);
	}
	/* the nodes the tree left out fail Eq. 1, or before it in
	 * cheap_tests trust (the pin and the label: not here) */
	*complete = !group && !cp->c->node && seen <= E->cluster->n;
	if (found || !*complete)
		return found;
	size_t out_of_tree = E->cluster->n - seen, t = 0;
	if (cp->app_index < E->nin_trust && E->in_trust[cp->app_index])
		t = distrusting(cp->app_index);
	if (t < counts[W_TRUST] || t - counts[W_TRUST] > out_of_tree) {
		*complete = false;     /* cannot be: count by a pass */
		return 0;
	}
	out_of_tree -= t - counts[W_TRUST];
	counts[W_TRUST] = t;
	counts[W_EQ1] += out_of_tree;
	return 0;
}

/* The capsule's best `want` feasible groups by score (in each its best
 * node), into out (returns how many); counts[] tells why the others were
 * not.  Eq. 3, the dear test, is tried in score order on the best few
 * first, and on the rest only if too few of those pass.  group[i] is node
 * i's group (NULL: every node its own). */
static size_t
candidates(const struct capsule *cp, size_t want, const size_t *group,
	struct cand *out, struct cand *tmp, size_t counts[W_NWHY])
{
	size_t n = 0, found = 0;
	if (E->shapes && !cp->c->node) {
		bool complete = false;
		found = candidates_indexed(cp, want, group, out, tmp, counts,
			&complete);
		if (found || complete)
			return found;
		memset(counts, 0, W_NWHY * sizeof *counts);
	}
	for (size_t i = 0; i < E->cluster->n; i++) {
		double sc;
		enum why w = cheap_tests(cp, &E->node[i], &sc);
		counts[w]++;
		if (w == W_OK)
			tmp[n++] = (struct cand){ i, group ? group[i] : i, sc };
	}
	counts[W_OK] = 0;
	size_t first = 2 * want + 2, i = 0;
	best_first(tmp, n, first);
	for (; i < n && found < want; i++) {
		if (i == first)
			ovb_qsort(tmp + first, n - first, sizeof *tmp, by_score);
		bool taken = false;   /* its group has a better node already */
		for (size_t k = 0; group && k < found && !taken; k++)
			taken = out[k].group == tmp[i].group;
		if (taken)
			continue;
		enum why w = eq3_tests(cp, &E->node[tmp[i].node]);
		counts[w]++;
		if (w == W_OK)
			out[found++] = tmp[i];
	}
	return found;
}

/* Minimum-cost assignment of rows to distinct columns (Hungarian method,
 * rows <= cols); cost INFINITY forbids a pair.  row_col[r] gets the
 * column; false when no assignment avoids the forbidden pairs. */
static bool
assign(size_t rows, size_t cols, const double *cost, size_t *row_col)
{
	size_t n = rows, m = cols;
	double *u = ovb_xcalloc(n + 1, sizeof *u), *v = ovb_xcalloc(m + 1,
		sizeof *v), *minv = ovb_xmalloc((m + 1) * sizeof *minv);
	size_t *p = ovb_xcalloc(m + 1, sizeof *p), *way = ovb_xcalloc(m + 1,
		sizeof *way);
	bool *used = ovb_xmalloc((m + 1) * sizeof *used);
	const double big = 1e18;
	bool ok = true;
	for (size_t i = 1; i <= n; i++) {
		p[0] = i;
		size_t j0 = 0;
		for (size_t j = 0; j <= m; j++)
			minv[j] = INFINITY, used[j] = false;
		do {
			used[j0] = true;
			size_t i0 = p[j0], j1 = 0;
			double delta = INFINITY;
			for (size_t j = 1; j <= m; j++) {
				if (used[j])
					continue;
				double c = cost[(i0 - 1) * m + j - 1];
				double cur = (isinf(c) ? big : c) - u[i0] - v[j];
				if (cur < minv[j])
					minv[j] = cur, way[j] = j0;
				if (minv[j] < delta)
					delta = minv[j], j1 = j;
			}
			for (size_t j = 0; j <= m; j++)
				if (used[j])
					u[p[j]] += delta, v[j] -= delta;
				else
					minv[j] -= delta;
			j0 = j1;
		} while (p[j0] != 0);
		do {
			size_t j1 = way[j0];
			p[j0] = p[j1];
			j0 = j1;
		} while (j0);
	}
	for (size_t j = 1; j <= m; j++)
		if (p[j]) {
			row_col[p[j] - 1] = j - 1;
			if (isinf(cost[(p[j] - 1) * m + j - 1]))
				ok = false;
		}
	free(u);
	free(v);
	free(minv);
	free(p);
	free(way);
	free(used);
	return ok;
}

/* ---- placing ---- */

/* U's measured over different intervals on one node are not comparable:
 * warn once per node and resource (an error with --strict). */
static void
check_intervals(struct ovb_nstate *nd, int r, const struct ovb_need *n)
{
	struct ovb_nres *nr = &nd->r[r];
	if (!n->h || nr->mixed)
		return;
	if (!nr->profiled) {
		nr->profiled = true;
		nr->interval = n->interval;
		return;
	}
	if (nr->interval == n->interval)
		return;
	nr->mixed = true;
	E->nwarnings++;
	ovb_warn("%snode %s %s: usage profiled over I = %g s and %g s "
		"is convolved on one node (U's over different intervals are "
		"not comparable; profile with one -I)", E->strict ?
		"error: " : "warning: ", nd->n->name,
		ovb_res_name((enum ovb_res)r), nr->interval, n->interval);
}

static void
add_capsule(struct ovb_nstate *nd, const struct ovb_need need[OVB_NCAP], size_t app,
	const char *profile)
{
	for (int r = 0; r < E->nres; r++)
		if (need[r].used) {
			check_intervals(nd, r, &need[r]);
			ovb_nstate_add(&E->ns, &nd->r[r], &need[r], nd->n->cap[r]);
			if (E->tod && r != OVB_MEM)     /* tod_ok's members */
				ovb_todnode_add(&nd->tod, r, &need[r], profile ?
					prof_find(profile, (enum ovb_res)r) : NULL,
					nd->n->cap[r], E->grid);
			if (need[r].joint)
				ovb_nstate_joint_add(nd, r, &need[r]);
			E->total_load[r] += ovb_eq1_term(&need[r], need[r].tau);
			E->total_n[r]++;
		}
	nd->napps++;
	bool wary = app < E->nin_trust && E->in_trust[app];
	for (size_t i = 0; wary && i < nd->nwary; i++)
		wary = nd->wary[i] != app;
	if (wary) {
		*OVB_PUSH(nd->wary, nd->nwary, nd->capwary) = app;
		if (!E->wary_at)
			E->wary_at = ovb_xcalloc(E->nin_trust + 1, sizeof *E->wary_at);
		struct nodelist *l = &E->wary_at[app];
		*OVB_PUSH(l->i, l->n, l->cap) = (size_t)(nd - E->node);
	}
	index_update(nd);
}

/* Under the promise rule with O_mem the capsule's mem need has O_mem;
 * its qos record states its own O (the contract, ovb_need_of's), as
 * ovb-check recomputes it. */
static double
own_O(const struct capsule *cp)
{
	const struct ovb_qos *q[OVB_NCAP] = { NULL };
	struct ovb_need own[OVB_NCAP];
	if (cp->c->profile)
		q[OVB_MEM] = prof_find(cp->c->profile, OVB_MEM);
	ovb_need_of(cp->app, cp->c, q, own);
	return own[OVB_MEM].O;
}

static void
put_placed(const struct capsule *cp, const struct ovb_nstate *nd)
{
	struct ovb_placed *p = OVB_PUSH(E->out.p, E->out.n, E->out.cap);
	memset(p, 0, sizeof *p);
	p->app = ovb_xstrdup(cp->app->name);
	p->capsule = ovb_xstrdup(cp->c->name);
	p->node = ovb_xstrdup(nd->n->name);
	p->profile = cp->c->profile ? ovb_xstrdup(cp->c->profile) : NULL;
	for (int r = 0; r < E->nres; r++) {
		const struct ovb_need *n = &cp->need[r];
		if (!n->used)
			continue;
		p->has_qos[r] = true;
		p->sigma[r] = n->sigma;
		p->rho[r] = n->rho;
		p->tau[r] = n->tau;
		p->O[r] = n->O;
		if (r == OVB_MEM)
			p->limit = n->limit;
		if (r == OVB_MEM && n->promise)  /* the capsule's own, not O_mem */
			p->O[r] = own_O(cp);
	}
	const struct ovb_need *c = &cp->need[OVB_CPU], *t = &cp->need[OVB_NET];
	if (c->used) {
		p->has_cpu_resv = true;
		ovb_cpu_resv(c, &p->x, &p->y, &p->weight);
	}
	if (t->used) {
		p->has_tbucket = true;
		p->tb_sigma = t->sigma;
		p->tb_rho = t->rho;
	}
	ovb_grow(&E->needs, &E->capneeds, E->out.n - 1, sizeof *E->needs);
	memcpy(E->needs[E->out.n - 1], cp->need, sizeof cp->need);
}

static void
reject(const struct ovb_app *app, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
reject(const struct ovb_app *app, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (char *c = msg; *c; c++)
		if (*c == '#' || *c == '\n')
			*c = ' ';
	struct ovb_reject *r = OVB_PUSH(E->out.rej, E->out.nrej, E->out.caprej);
	r->app = ovb_xstrdup(app->name);
	r->reason = ovb_xstrdup(msg);
	E->nrejected++;
	if (ovb_verbose)
		ovb_warn("reject %s: %s", app->name, msg);
}

/* Exactly: is the sum of every placed capsule's Eq. 1 term (over its own
 * tau) and the application's at most the cluster's capacity? */
static bool
admitted_exactly(const struct ovb_app *app, const struct capsule *cps,
	int r, double *excess)
{
	mpq_t s, c, t, tau;
	mpq_inits(s, c, t, tau, NULL);
	for (size_t i = 0; i < E->out.n + app->ncap; i++) {
		const struct ovb_need *n = i < E->out.n ? &E->needs[i][r] :
			&cps[i - E->out.n].need[r];
		if (!n->used)
			continue;
		mpq_set_d(tau, n->tau);
		ovb_eq1_xterm(t, n, tau);
		mpq_add(s, s, t);
	}
	for (size_t i = 0; i < E->cluster->n; i++) {
		mpq_set_d(t, E->cluster->node[i].cap[r]);
		mpq_add(c, c, t);
	}
	bool ok = mpq_cmp(s, c) <= 0;
	mpq_sub(t, s, c);
	*excess = mpq_get_d(t);
	mpq_clears(s, c, t, tau, NULL);
	return ok;
}

/* Sharc's admission check: the cluster as a whole has the capacity. */
static bool
admitted(const struct ovb_app *app, const struct capsule *cps)
{
	for (int r = 0; r < E->nres; r++) {
		if ((E->tod || E->joint) && r != OVB_MEM)  /* whole-U terms:
		                                            not tod's, joint's */
			continue;
		if (r == OVB_MEM && E->mem_promise)  /* requests: no rule */
			continue;
		double load = E->total_load[r];
		size_t n = E->total_n[r];
		for (size_t i = 0; i < app->ncap; i++)
			if (cps[i].need[r].used) {
				load += ovb_eq1_term(&cps[i].need[r],
					cps[i].need[r].tau);
				n++;
			}
		if (!n)     /* nothing reserves r (net-rx beside mem): 0 fits */
			continue;
		/* both sides are sums of doubles: their error bounds add */
		int d = ovb_decide(load, ovb_sum_err(n) +
			2 * ovb_sum_err(E->cluster->n), E->total_cap[r]);
		double excess = NAN;
		if (d < 0)
			d = admitted_exactly(app, cps, r, &excess);
		if (!d) {
			char ex[OVB_MSG_NUM + 24] = "", l[OVB_MSG_NUM],
				cap[OVB_MSG_NUM];
			if (!isnan(excess))
				snprintf(ex, sizeof ex, " (exactly %s %s above)",
					ovb_fmt_msg_num(l, excess), ovb_res_rate_unit(r));
			reject(app, "admission: %s reservations would reach %s %s%s, "
				"above the cluster's %s %s", ovb_res_name(r),
				ovb_fmt_msg_num(l, load), ovb_res_rate_unit(r), ex,
				ovb_fmt_msg_num(cap, E->total_cap[r]), ovb_res_rate_unit(r));
			return false;
		}
	}
	return true;
}

/* What node nd lacks to take the capsule, per resource, appended to f:
 * Eq. 1's shortfall in the rate unit, or Eq. 3's Pr(Y > C) against the
 * least tolerance. */
static void
lacks(FILE *f, const struct capsule *cp, const struct ovb_nstate *nd)
{
	for (int r = 0; r < E->nres; r++) {
		const struct ovb_need *n = &cp->need[r];
		const struct ovb_nres *nr = &nd->r[r];
		double cap = nd->n->cap[r], after;
		const char *u = ovb_res_rate_unit((enum ovb_res)r);
		if (!n->used)
			continue;
		if (n->joint) {         /* no "needs X more": the count */
			struct ovb_joint_stat st;
			ovb_nstate_joint(nd, r, n, &st);
			if (!st.ok && !ovb_frac_le(st.over, st.slots, st.omin))
				fprintf(f, ", %s joint: %zu of %zu slots above C=%g "
					"%s, more than O_min=%g", ovb_res_name(
					(enum ovb_res)r), st.over, st.slots, cap, u,
					st.omin);
			else if (!st.ok)        /* --slots overlap's floor */
				fprintf(f, ", %s joint: seen together in %zu slots, "
					"fewer than ceil(10 / O_min=%g)", ovb_res_name(
					(enum ovb_res)r), st.slots, st.omin);
			continue;
		}
		if (!n->promise && !ovb_nstate_eq1(nr, n, cap, &after)) {
			/* the compared sums exactly, as ovb-check gives them */
			char a[32], c[32];
			ovb_fmt_real(a, after);
			ovb_fmt_real(c, cap);
			if (r == OVB_MEM)
				fprintf(f, ", mem requests need %.3g B more "
					"(%s > %s B)", after - cap, a, c);
			else
				fprintf(f, ", %s Eq. 1 needs %.3g %s more (load "
					"%s > %s %s)", ovb_res_name((enum ovb_res)r),
					after - cap, u, a, c, u);
			continue;
		}
		char why[256];
		int tres = -1;
		const char *t = ovb_nstate_target(nd, cp->need, why, sizeof why, &tres);
		if (t && tres == r) {
			fprintf(f, ", %s --target %s: %s", ovb_res_name((enum ovb_res)r),
				t, why);
			continue;
		}
		if (ovb_nstate_eq3(&E->ns, nr, n, cap))
			continue;
		if (n->nsig) {
			double sm, sv;
			ovb_nsigma_sums(nr->members, nr->nmembers, &sm, &sv);
			fprintf(f, ", %s mean %.6g + %g sqrt(var %.6g) > %g %s",
				ovb_res_name((enum ovb_res)r), sm + n->mean,
				n->nsig_n, sv + n->m2 - n->mean * n->mean, cap, u);
			continue;
		}
		double limit = nr->ncap ? fmin(nr->omin, n->O) : n->O;
		double g = ovb_grid_add(nr->g, n, cap, E->grid);
		if (!ovb_grid_holds(nr->members, nr->nmembers, n, g)) {
			fprintf(f, ", %s Eq. 3: U needs more than %zu points of "
				"the grid %g %s", ovb_res_name((enum ovb_res)r),
				OVB_MAXGRID, g, u);
			continue;
		}
		double pr = ovb_nstate_pr_with(nr, n, g, cap, limit);
		fprintf(f, ", %s Eq. 3 Pr(Y>C)=%.3g > %s=%g",
			ovb_res_name((enum ovb_res)r), pr, n->promise &&
			!isnan(E->mem_O) ? "O_mem" : "O_min", limit);
	}
	const struct ovb_nres *m = &nd->r[OVB_MEM];
	if (cp->need[OVB_MEM].used &&
	    !ovb_nstate_mem_ok(nd, &cp->need[OVB_MEM])) {
		char l[32], c[32], p[32];
		ovb_fmt_real(l, ovb_mem_limits(m->members, m->nmembers) +
			cp->need[OVB_MEM].limit);
		ovb_fmt_real(c, nd->n->cap[OVB_MEM]);
		ovb_fmt_real(p, nd->n->pool);
		fprintf(f, ", mem limits %s B > %s B + pool %s B", l, c, p);
	}
}

/* How far the node is from taking the capsule by Eq. 1: the largest
 * shortfall relative to capacity over the resources it uses. */
static double
shortfall(const struct capsule *cp, const struct ovb_nstate *nd)
{
	double rel = -INFINITY;
	for (int r = 0; r < E->nres; r++) {
		double after;
		if (!cp->need[r].used)
			continue;
		if (cp->need[r].joint) {  /* the fraction of slots above O */
			struct ovb_joint_stat st;
			ovb_nstate_joint(nd, r, &cp->need[r], &st);
			rel = fmax(rel, (double)st.over / (double)st.slots -
				st.omin);
			continue;
		}
		ovb_nstate_eq1(&nd->r[r], &cp->need[r], nd->n->cap[r], &after);
		rel = fmax(rel, (after - nd->n->cap[r]) / nd->n->cap[r]);
	}
	return rel;
}

/* A subtree of the index by the least shortfall of its nodes: at least
 * the capsule's term less the most room, per resource (the load after is
 * at least the load now plus the term). */
struct near { double lb; size_t shape, slot; };

static void
near_push(struct near **q, size_t *n, size_t *cap, const struct capsule *cp,
	const double t[OVB_NCAP], size_t k, size_t slot)
{
	const struct shape *sh = &E->shapes[k];
	const struct slot *s = &sh->t[slot];
	if (s->top == -INFINITY)
		return;
	double lb = -INFINITY;
	for (int r = 0; r < E->nres; r++)
		if (cp->need[r].used)
			lb = fmax(lb, (t[r] - s->room[r]) / sh->cap[r]);
	size_t i = *n;
	*OVB_PUSH(*q, *n, *cap) = (struct near){ lb, k, slot };
	while (i > 0 && (*q)[i].lb < (*q)[(i - 1) / 2].lb) {
		struct near x = (*q)[i];
		(*q)[i] = (*q)[(i - 1) / 2];
		(*q)[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

static struct near
near_pop(struct near *q, size_t *n)
{
	struct near top = q[0];
	q[0] = q[--*n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < *n && q[l].lb < q[m].lb)
			m = l;
		if (r < *n && q[r].lb < q[m].lb)
			m = r;
		if (m == i)
			break;
		struct near x = q[i];
		q[i] = q[m];
		q[m] = x;
		i = m;
	}
	return top;
}

/* nearest() by the index, for a capsule without pin or spread (trust is
 * tested on the nodes reached): the first empty node of each shape stands for the others
 * (alike, and the tie goes to the lower index), and the trees are
 * searched by the least bound until it passes the best node found (less
 * a margin for the rounding of the sums). */
static const struct ovb_nstate *
nearest_indexed(const struct capsule *cp)
{
	size_t n = 0, best = OVB_NONE;
	double bestrel = INFINITY, t[OVB_NCAP];
	for (int r = 0; r < OVB_NCAP; r++)
		t[r] = cp->need[r].used ? ovb_eq1_term(&cp->need[r],
			cp->need[r].tau) : 0;
	for (size_t k = 0; k < E->nshapes; k++) {
		const struct shape *sh = &E->shapes[k];
		if (sh->nempty) {
			size_t i = sh->node[sh->efirst];
			double rel = shortfall(cp, &E->node[i]);
			if (rel < bestrel || (rel == bestrel && best != OVB_NONE &&
			    i < best)) {
				best = i;
				bestrel = rel;
			}
		}
		near_push(&E->nearq, &n, &E->nearcap, cp, t, k, 1);
	}
	while (n) {
		struct near f = near_pop(E->nearq, &n);
		if (f.lb - 1e-9 * (1 + fabs(f.lb)) > bestrel)
			break;
		const struct shape *sh = &E->shapes[f.shape];
		if (f.slot < sh->size) {
			near_push(&E->nearq, &n, &E->nearcap, cp, t, f.shape, 2 * f.slot);
			near_push(&E->nearq, &n, &E->nearcap, cp, t, f.shape, 2 * f.slot + 1);
			continue;
		}
		size_t i = sh->node[f.slot - sh->size];
		if (E->node[i].napps && node_trust(&E->node[i], cp->app_index) <= 0)
			continue;
		double rel = shortfall(cp, &E->node[i]);
		if (rel < bestrel || (rel == bestrel && best != OVB_NONE &&
		    i < best)) {
			best = i;
			bestrel = rel;
		}
	}
	return best == OVB_NONE ? NULL : &E->node[best];
}

/* The node nearest to taking the capsule: among those its pin and trust
 * allow, the least largest Eq. 1 shortfall relative to capacity. */
static const struct ovb_nstate *
nearest(const struct capsule *cp)
{
	if (E->shapes && !cp->c->node && !cp->app->spread)
		return nearest_indexed(cp);
	const struct ovb_nstate *best = NULL;
	double bestrel = INFINITY;
	for (size_t i = 0; i < E->cluster->n; i++) {
		const struct ovb_nstate *nd = &E->node[i];
		if (cp->c->node && strcmp(cp->c->node, nd->n->name))
			continue;
		if (cp->app->spread && !ovb_node_label(nd->n, cp->app->spread))
			continue;
		if (nd->napps && node_trust(nd, cp->app_index) <= 0)
			continue;
		double rel = shortfall(cp, nd);
		if (rel < bestrel) {
			bestrel = rel;
			best = nd;
		}
	}
	return best;
}

/* Rejects the application for capsule cp, which no node takes: how many
 * nodes failed which test, and what the nearest node lacks. */
static void
explain(const struct ovb_app *app, const struct capsule *cp,
	const size_t counts[W_NWHY])
{
	char *why = NULL;
	size_t len = 0, k = 0;
	FILE *f = ovb_xmemstream(&why, &len);
	for (int w = 1; w < W_NWHY; w++)
		if (counts[w])
			fprintf(f, "%s%s on %zu", k++ ? ", " : "", w == W_EQ3 &&
				E->nsigma ? "N-sigma" : why_name[w], counts[w]);
	fputc(')', f);
	/* the nearest by the whole-U tests: not what --mode tod decides
	 * (joint: by the fraction of slots above C, less O) */
	const struct ovb_nstate *nd = E->tod ? NULL : nearest(cp);
	if (nd) {
		fprintf(f, "; nearest %s", nd->n->name);
		lacks(f, cp, nd);
	}
	fclose(f);
	reject(app, "capsule %s: no feasible node of %zu (%s", cp->c->name,
		E->cluster->n, why);
	free(why);
}

/* With spread=KEY: each node's group, the first node with its value of
 * the label (nodes without it are never candidates). */
static size_t *
spread_groups(const char *key)
{
	struct ovb_names first = { 0 };
	size_t *group = ovb_xmalloc((E->cluster->n ? E->cluster->n : 1) *
		sizeof *group);
	for (size_t i = 0; i < E->cluster->n; i++) {
		const char *v = ovb_node_label(&E->cluster->node[i], key);
		size_t j = v ? ovb_names_get(&first, v) : OVB_NONE;
		if (v && j == OVB_NONE)
			ovb_names_add(&first, v, j = i);
		group[i] = j;
	}
	ovb_names_free(&first);
	return group;
}

/* Places the application whole, or rejects it with the reason. */
static void
place_app(const struct ovb_app *app, struct capsule *cps)
{
	size_t m = app->ncap, ncols = 0;
	if (!admitted(app, cps))
		return;
	size_t *group = app->spread ? spread_groups(app->spread) : NULL;
	struct cand *best = ovb_xmalloc(m * m * sizeof *best);
	if (E->nctmp < E->cluster->n + 1) {   /* a node each: kept */
		E->nctmp = E->cluster->n + 1;
		E->ctmp = ovb_xrealloc(E->ctmp, E->nctmp, sizeof *E->ctmp);
	}
	size_t *nbest = ovb_xcalloc(m, sizeof *nbest);
	size_t *cols = ovb_xmalloc(m * m * sizeof *cols);
	for (size_t i = 0; i < m; i++) {
		size_t counts[W_NWHY] = { 0 };
		nbest[i] = candidates(&cps[i], m, group, best + i * m, E->ctmp,
			counts);
		if (!nbest[i]) {
			explain(app, &cps[i], counts);
			goto out;
		}
		for (size_t k = 0; k < nbest[i]; k++) {
			size_t j = 0;
			while (j < ncols && cols[j] != best[i * m + k].group)
				j++;
			if (j == ncols)
				cols[ncols++] = best[i * m + k].group;
		}
	}
	if (ncols < m) {
		if (group)
			reject(app, "its %zu capsules need distinct values of the "
				"label %s but have %zu feasible values in all", m,
				app->spread, ncols);
		else
			reject(app, "its %zu capsules need distinct nodes but have "
				"%zu feasible nodes in all", m, ncols);
		goto out;
	}
	double *cost = ovb_xmalloc(m * ncols * sizeof *cost);
	size_t *node_of = ovb_xmalloc(m * ncols * sizeof *node_of);
	for (size_t i = 0; i < m * ncols; i++)
		cost[i] = INFINITY;
	for (size_t i = 0; i < m; i++)
		for (size_t k = 0; k < nbest[i]; k++)
			for (size_t j = 0; j < ncols; j++)
				if (cols[j] == best[i * m + k].group) {
					cost[i * ncols + j] = -best[i * m + k].score;
					node_of[i * ncols + j] = best[i * m + k].node;
				}
	size_t *row_col = ovb_xcalloc(m, sizeof *row_col);
	if (assign(m, ncols, cost, row_col)) {
		for (size_t i = 0; i < m; i++) {
			struct ovb_nstate *nd = &E->node[node_of[i * ncols + row_col[i]]];
			add_capsule(nd, cps[i].need, cps[i].app_index,
				cps[i].c->profile);
			put_placed(&cps[i], nd);
		}
	} else
		reject(app, "no assignment of its %zu capsules to distinct "
			"feasible %s exists (%zu feasible %s in all)", m, group ?
			"label values" : "nodes", ncols, group ? "values" : "nodes");
	free(row_col);
	free(cost);
	free(node_of);
out:
	free(group);
	free(best);
	free(nbest);
	free(cols);
}

/* ---- node states from the placements ---- */

static struct ovb_nstate *
node_named(const char *name)
{
	size_t i = ovb_names_get(&E->cluster->byname, name);
	return i == OVB_NONE ? NULL : &E->node[i];
}

static void
nodes_free(void)
{
	index_free();
	for (size_t i = 0; E->node && i < E->cluster->n; i++)
		ovb_nstate_free(&E->node[i]);
	for (size_t a = 0; E->wary_at && a < E->nin_trust; a++)
		free(E->wary_at[a].i);
	free(E->wary_at);
	E->wary_at = NULL;
	free(E->node);
	E->node = NULL;
}

static void
clear_nodes(void)
{
	nodes_free();
	E->node = ovb_xcalloc(E->cluster->n, sizeof *E->node);
	for (size_t i = 0; i < E->cluster->n; i++)
		ovb_nstate_init(&E->node[i], &E->cluster->node[i]);
	memset(E->total_load, 0, sizeof E->total_load);
	memset(E->total_n, 0, sizeof E->total_n);
}

/* The node states made anew from the plan's capsules in plan order:
 * every node (j OVB_NONE), or only nodes j and k (k OVB_NONE: j alone)
 * when the others keep their capsules, their states then the same sums
 * in the same order as a whole rebuild's, and the totals summed again
 * over the whole plan in its order.  Wary capsules (trust) have lists
 * across nodes: with them every node is made anew. */
static void
rebuild_nodes(size_t j, size_t k)
{
	bool all = j == OVB_NONE || E->wary_at;
	if (all)
		clear_nodes();
	else {
		index_free();
		size_t jk[2] = { j, k };
		for (int x = 0; x < 2; x++)
			if (jk[x] != OVB_NONE) {
				ovb_nstate_free(&E->node[jk[x]]);
				ovb_nstate_init(&E->node[jk[x]],
					&E->cluster->node[jk[x]]);
			}
	}
	for (size_t i = 0; i < E->out.n; i++) {
		if (i == E->skip)
			continue;
		struct ovb_nstate *nd = node_named(E->out.p[i].node);
		size_t at = (size_t)(nd - E->node);
		if (all || at == j || at == k)
			add_capsule(nd, E->needs[i], app_index(E->out.p[i].app),
				E->out.p[i].profile);
	}
	if (!all) {
		memset(E->total_load, 0, sizeof E->total_load);
		memset(E->total_n, 0, sizeof E->total_n);
		for (size_t i = 0; i < E->out.n; i++)
			for (int r = 0; i != E->skip && r < E->nres; r++)
				if (E->needs[i][r].used) {
					E->total_load[r] += ovb_eq1_term(
						&E->needs[i][r], E->needs[i][r].tau);
					E->total_n[r]++;
				}
	}
	index_build();
}

static void
rebuild(void)
{
	rebuild_nodes(OVB_NONE, OVB_NONE);
}

/* Takes the application's capsules out of the plan (terminate, modify). */
static void
remove_app(const char *name)
{
	size_t k = 0;
	for (size_t i = 0; i < E->out.n; i++) {
		struct ovb_placed *p = &E->out.p[i];
		if (strcmp(p->app, name)) {
			memcpy(E->needs[k], E->needs[i], sizeof E->needs[i]);
			E->out.p[k++] = *p;
			continue;
		}
		free(p->app);
		free(p->capsule);
		free(p->node);
		free(p->profile);
	}
	if (k != E->out.n) {
		E->out.n = k;
		rebuild();
	}
	k = 0;                    /* its rejection, if it was rejected */
	for (size_t i = 0; i < E->out.nrej; i++) {
		struct ovb_reject *r = &E->out.rej[i];
		if (strcmp(r->app, name))
			E->out.rej[k++] = *r;
		else {
			free(r->app);
			free(r->reason);
		}
	}
	E->out.nrej = k;
}

/* Does the apps stream take application app out (terminate or modify)? */
static bool
leaving(const char *app)
{
	for (size_t i = 0; i < E->apps->n; i++)
		if (E->apps->app[i].op != OVB_OP_NEW &&
		    !strcmp(E->apps->app[i].name, app))
			return true;
	return false;
}

/* The existing plan's placements, with needs from its qos records. */
static int
load_existing(void)
{
	const struct ovb_plan *e = E->existing;
	for (size_t i = 0; i < e->n; i++) {
		const struct ovb_placed *p = &e->p[i];
		if (!node_named(p->node))
			return ovb_err_at(E->plan_file, p->line, "%s/%s is placed on "
				"node '%s', which is not in the cluster (%s)", p->app,
				p->capsule, p->node, E->cluster_file);
		if (p->profile && leaving(p->app) &&
		    !prof_find(p->profile, OVB_CPU) &&
		    !prof_find(p->profile, OVB_NET))
			continue;   /* going, and nothing to model it by: gone now */
		struct ovb_placed *q = OVB_PUSH(E->out.p, E->out.n, E->out.cap);
		*q = *p;
		q->app = ovb_xstrdup(p->app);
		q->capsule = ovb_xstrdup(p->capsule);
		q->node = ovb_xstrdup(p->node);
		q->profile = p->profile ? ovb_xstrdup(p->profile) : NULL;
		ovb_grow(&E->needs, &E->capneeds, E->out.n - 1, sizeof *E->needs);
		struct ovb_need *n = E->needs[E->out.n - 1];
		memset(n, 0, OVB_NCAP * sizeof *n);
		for (int r = 0; r < E->nres; r++) {
			if (!p->has_qos[r])
				continue;
			n[r] = (struct ovb_need){ .used = true, .sigma = p->sigma[r],
				.rho = p->rho[r], .tau = p->tau[r], .O = p->O[r],
				.agg = E->aggregate, .level = r == OVB_MEM,
				.limit = r == OVB_MEM ? p->limit : 0 };
			if (p->profile) {
				const struct ovb_qos *qq = prof_find(p->profile,
					(enum ovb_res)r);
				if (!qq)
					return ovb_err_at(E->plan_file, p->line, "capsule "
						"%s/%s names profile '%s' %s, which no profile "
						"file has", p->app, p->capsule, p->profile,
						ovb_res_name(r));
				/* the one rule (shared with ovb-check): a placed
				 * capsule's rate, burst and U are its profile's
				 * now; tau and O are the plan's */
				n[r].sigma = q->sigma[r] = qq->sigma;
				n[r].rho = q->rho[r] = qq->rho;
				n[r].h = &qq->U.h;
				n[r].interval = qq->U.interval;
				if (r == OVB_MEM)
					n[r].limit = q->limit = qq->limit;
			}
		}
		for (int r = 0; E->nsigma && r < E->nres; r++)
			if (n[r].used)
				ovb_need_nsigma(&n[r], E->nsigma_n);
		if (E->mem_promise && n[OVB_MEM].used)
			ovb_need_promise(&n[OVB_MEM], E->mem_O);
		joint_needs(p->profile, n);
		char jwhy[512];
		if (joint_missing(p->capsule, p->profile, n, jwhy, sizeof jwhy)) {
			if (leaving(p->app)) {  /* going: gone now */
				free(q->app);
				free(q->capsule);
				free(q->node);
				free(q->profile);
				E->out.n--;
				continue;
			}
			return ovb_err_at(E->plan_file, p->line, "application %s, %s",
				p->app, jwhy);
		}
		int gs = grant(n, E->plan_file, p->line, p->app, p->capsule);
		if (gs)
			return gs;
		for (int r = 0; r < E->nres; r++)
			if (n[r].used)
				q->rho[r] = n[r].rho;
	}
	for (size_t i = 0; i < E->out.n; i++) {
		struct ovb_placed *q = &E->out.p[i];
		const struct ovb_need *n = E->needs[i];
		/* what the plan will state of it must be a finite number */
		for (int r = 0; r < OVB_NCAP; r++)
			if (n[r].used && !isfinite(ovb_eq1_term(&n[r], n[r].tau)))
				return ovb_err_at(E->plan_file, q->line, "capsule "
					"%s/%s %s: (sigma tau + rho)(1 - O) / tau, its "
					"load by Eq. 1, exceeds the largest double",
					q->app, q->capsule, ovb_res_name(r));
		if (q->has_cpu_resv && n[OVB_CPU].used)
			ovb_cpu_resv(&n[OVB_CPU], &q->x, &q->y, &q->weight);
		if (q->has_cpu_resv && !(isfinite(q->x) && isfinite(q->y) &&
		    isfinite(q->weight)))
			return ovb_err_at(E->plan_file, q->line, "capsule %s/%s: "
				"its cpu reservation (section 4.1) exceeds the "
				"largest double", q->app, q->capsule);
		if (q->has_tbucket && n[OVB_NET].used) {
			q->tb_sigma = n[OVB_NET].sigma;
			q->tb_rho = n[OVB_NET].rho;
		}
	}
	for (size_t i = 0; i < e->nrej; i++) {
		struct ovb_reject *r = OVB_PUSH(E->out.rej, E->out.nrej, E->out.caprej);
		r->app = ovb_xstrdup(e->rej[i].app);
		r->reason = ovb_xstrdup(e->rej[i].reason);
	}
	rebuild();
	return 0;
}

/* Is app placed or rejected in the existing plan? */
static bool
in_plan(const char *app)
{
	for (size_t i = 0; i < E->existing->n; i++)
		if (!strcmp(E->existing->p[i].app, app))
			return true;
	for (size_t i = 0; i < E->existing->nrej; i++)
		if (!strcmp(E->existing->rej[i].app, app))
			return true;
	return false;
}

/* ---- re-planning with few moves (--max-moves) ---- */

/* The placed capsule E->out.p[i] as a capsule to place: its application
 * and capsule from the apps file when there, else a stand-in (no pin, no
 * spread) named after the plan, with the plan's profile. */
struct standin { struct ovb_app app; struct ovb_capsule c; };

static void
capsule_of(size_t i, struct standin *sd, struct capsule *cp)
{
	const struct ovb_placed *p = &E->out.p[i];
	const struct ovb_app *app = NULL;
	const struct ovb_capsule *c = NULL;
	for (size_t a = 0; a < E->apps->n && !c; a++) {
		if (strcmp(E->apps->app[a].name, p->app) ||
		    E->apps->app[a].op == OVB_OP_TERMINATE)
			continue;
		for (size_t k = 0; k < E->apps->app[a].ncap; k++)
			if (!strcmp(E->apps->app[a].cap[k].name, p->capsule)) {
				app = &E->apps->app[a];
				c = &app->cap[k];
			}
	}
	if (!c) {
		memset(sd, 0, sizeof *sd);
		sd->app.name = p->app;
		sd->c.name = p->capsule;
		sd->c.profile = p->profile;     /* --mode tod: its windows */
		app = &sd->app;
		c = &sd->c;
	}
	*cp = (struct capsule){ app, c, app_index(p->app),
		{ { .used = false } } };
	memcpy(cp->need, E->needs[i], sizeof cp->need);
}

/* An op=modify of an application placed with the same capsules: its
 * capsules keep their nodes with their new needs.  false: not so placed
 * (it is then taken out and placed again); *st a status. */
static bool
modify_in_place(const struct ovb_app *app, int *st)
{
	size_t n = 0;
	for (size_t i = 0; i < E->out.n; i++)
		n += !strcmp(E->out.p[i].app, app->name);
	if (!n || n != app->ncap)
		return false;
	size_t *at = ovb_xcalloc(app->ncap, sizeof *at);
	for (size_t k = 0; k < app->ncap; k++) {
		at[k] = OVB_NONE;
		for (size_t i = 0; i < E->out.n; i++)
			if (!strcmp(E->out.p[i].app, app->name) &&
			    !strcmp(E->out.p[i].capsule, app->cap[k].name))
				at[k] = i;
		if (at[k] == OVB_NONE) {
			free(at);
			return false;
		}
	}
	for (size_t k = 0; E->joint && k < app->ncap; k++) {
		/* a capsule without samples: placed anew, and so refused */
		struct ovb_need nk[OVB_NCAP];
		char jwhy[512];
		if ((*st = needs_of(app, &app->cap[k], nk)) ||
		    joint_missing(app->cap[k].name, app->cap[k].profile, nk,
		    jwhy, sizeof jwhy)) {
			free(at);
			return false;
		}
	}
	for (size_t k = 0; k < app->ncap && !*st; k++) {
		struct capsule cp = { app, &app->cap[k], app_index(app->name),
			{ { .used = false } } };
		if ((*st = needs_of(app, &app->cap[k], cp.need)))
			break;
		struct ovb_placed *p = &E->out.p[at[k]];
		char *node = p->node;
		free(p->app);
		free(p->capsule);
		free(p->profile);
		/* put_placed's record, moved to p's slot with p's node */
		size_t n0 = E->out.n;
		put_placed(&cp, node_named(node));
		E->out.p[at[k]] = E->out.p[n0];
		memcpy(E->needs[at[k]], E->needs[n0], sizeof E->needs[n0]);
		free(E->out.p[at[k]].node);
		E->out.p[at[k]].node = node;
		E->out.n = n0;
	}
	free(at);
	return true;
}

struct mover { size_t i; double size; };

static int
by_size(const void *a, const void *b)
{
	const struct mover *x = a, *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The best node other than E->out.p[i]'s own for it (distinct nodes for
 * an application's capsules), or NULL; the nodes are built without it. */
static struct ovb_nstate *
best_elsewhere(size_t i)
{
	struct standin sd;
	struct capsule cp;
	capsule_of(i, &sd, &cp);
	struct ovb_nstate *best = NULL;
	double bs = -INFINITY;
	for (size_t j = 0; j < E->cluster->n; j++) {
		struct ovb_nstate *nd = &E->node[j];
		if (!strcmp(nd->n->name, E->out.p[i].node))
			continue;
		bool used = !E->onto_used;     /* --consolidate: a node with
		                                  capsules */
		for (int r = 0; r < OVB_NCAP && !used; r++)
			used = nd->r[r].nmembers > 0;
		if (!used)
			continue;
		bool mine = false;      /* another capsule of its application */
		for (size_t k = 0; k < E->out.n && !mine; k++)
			mine = k != i && !strcmp(E->out.p[k].app, E->out.p[i].app) &&
				!strcmp(E->out.p[k].node, nd->n->name);
		double sc;
		if (mine || cheap_tests(&cp, nd, &sc) != W_OK || !(sc > bs))
			continue;
		if (eq3_tests(&cp, nd) != W_OK)
			continue;
		best = nd;
		bs = sc;
	}
	return best;
}

/* --mode tod: is the placed capsule E->out.p[i] unmeasured in a window
 * of the day (no samples in those hours)?  Such a capsule fails every
 * node (ovb_tod_need), so its node stays broken whatever moves. */
static bool
tod_unmeasured(size_t i)
{
	for (int r = 0; E->tod && r < E->nres; r++) {
		if (r == OVB_MEM || !E->needs[i][r].used)
			continue;
		const struct ovb_qos *q = E->out.p[i].profile ?
			prof_find(E->out.p[i].profile, (enum ovb_res)r) : NULL;
		for (int s = 0; s < OVB_TOD_SLOTS; s++) {
			struct ovb_need w;
			if (!ovb_tod_need(&E->needs[i][r], q, s, &w))
				return true;
		}
	}
	return false;
}

/* Repairs the broken nodes, in cluster order, by at most E->max_moves
 * moves; warns about a node left broken.  A node with a capsule
 * unmeasured in a window of the day (--mode tod) is left as it is:
 * moving the others cannot mend it. */
static void
repair(void)
{
	bool *given_up = ovb_xcalloc(E->cluster->n + 1, sizeof *given_up);
	for (;;) {
		size_t b = OVB_NONE;
		int res = 0;
		for (size_t j = 0; j < E->cluster->n && b == OVB_NONE; j++)
			if (!given_up[j] && ovb_nstate_broken(&E->node[j],
			    E->grid, &res))
				b = j;
		if (b == OVB_NONE)
			break;
		const char *name = E->cluster->node[b].name;
		if (E->moves >= E->max_moves) {
			for (size_t j = b; j < E->cluster->n; j++)
				if (ovb_nstate_broken(&E->node[j], E->grid, &res)) {
					if (!ovb_quiet || E->strict)
						ovb_warn("%snode %s still breaks %s "
						"after %llu moves (--max-moves)",
						E->strict ? "error: " : "warning: ",
						E->cluster->node[j].name,
						ovb_res_name((enum ovb_res)res),
						(unsigned long long)E->moves);
					E->nwarnings++;
				}
			break;
		}
		size_t un = OVB_NONE;
		for (size_t i = 0; i < E->out.n && un == OVB_NONE; i++)
			if (!strcmp(E->out.p[i].node, name) && tod_unmeasured(i))
				un = i;
		if (un != OVB_NONE) {
			if (!ovb_quiet || E->strict)
				ovb_warn("%snode %s breaks %s: %s/%s has no samples "
				"in some hours of the day (--mode tod), so it fits "
				"no node", E->strict ? "error: " : "warning: ",
				name, ovb_res_name((enum ovb_res)res),
				E->out.p[un].app, E->out.p[un].capsule);
			E->nwarnings++;
			given_up[b] = true;
			continue;
		}
		/* its capsules, the largest on the broken resource first */
		struct mover *mv = ovb_xcalloc(E->out.n + 1, sizeof *mv);
		size_t n = 0;
		for (size_t i = 0; i < E->out.n; i++)
			if (!strcmp(E->out.p[i].node, name) && E->needs[i][res].used)
				mv[n++] = (struct mover){ i,
					E->needs[i][res].sigma };
		ovb_qsort(mv, n, sizeof *mv, by_size);
		bool moved = false;
		/* only node b and the node moved to change: only they are
		 * made anew.  A node broken by its span, not its load (its
		 * capsules seen together too few slots, --slots overlap): the
		 * first pass moves only a capsule whose leaving mends it, so
		 * that one move does what many would (moving the others out
		 * one by one left the one seen too briefly alone, with a
		 * whole node's capsules moved); then, or else, the largest
		 * that fits elsewhere. */
		bool span = ovb_nstate_short_span(&E->node[b], res);
		for (int pass = span ? 0 : 1; pass < 2 && !moved; pass++)
		for (size_t k = 0; k < n && !moved; k++) {
			size_t i = mv[k].i;
			E->skip = i;
			rebuild_nodes(b, OVB_NONE);
			int r2;
			struct ovb_nstate *to = pass == 0 &&
				ovb_nstate_broken(&E->node[b], E->grid, &r2) ?
				NULL : best_elsewhere(i);
			E->skip = OVB_NONE;
			size_t at = OVB_NONE;
			if (to) {
				at = (size_t)(to - E->node);
				free(E->out.p[i].node);
				E->out.p[i].node = ovb_xstrdup(to->n->name);
				E->moves++;
				moved = true;
			}
			rebuild_nodes(b, at);
		}
		free(mv);
		if (!moved) {
			if (!ovb_quiet || E->strict)
				ovb_warn("%snode %s breaks %s and none of its "
				"capsules fits elsewhere", E->strict ? "error: " :
				"warning: ", name,
				ovb_res_name((enum ovb_res)res));
			E->nwarnings++;
			given_up[b] = true;
		}
	}
	free(given_up);
}

/* --consolidate: with the moves the repair left (of them at most
 * --consolidate=C), empties whole nodes,
 * the node of fewest capsules first (ties: the last in cluster order),
 * each capsule, the largest first, to the best node the policy finds
 * among those with capsules (never onto an empty node); a node whose
 * capsules do not all find one keeps them all.  Every node a capsule
 * lands on passes the tests a placement passes, so no node breaks. */
static void
consolidate(void)
{
	size_t nn = E->cluster->n;
	bool *tried = ovb_xcalloc(nn + 1, sizeof *tried);
	size_t *count = ovb_xcalloc(nn + 1, sizeof *count);
	char **was = ovb_xcalloc(E->out.n + 1, sizeof *was);
	struct mover *mv = ovb_xcalloc(E->out.n + 1, sizeof *mv);
	E->onto_used = true;
	/* the moves it may make: what the repair left, at most cons_max */
	uint64_t stop = E->cons_max && E->cons_max < E->max_moves - E->moves ?
		E->moves + E->cons_max : E->max_moves;
	while (E->moves < stop) {
		uint64_t left = stop - E->moves;
		memset(count, 0, nn * sizeof *count);
		for (size_t i = 0; i < E->out.n; i++)
			count[node_named(E->out.p[i].node) - E->node]++;
		size_t v = OVB_NONE;
		for (size_t j = 0; j < nn; j++)
			if (!tried[j] && count[j] && count[j] <= left &&
			    (v == OVB_NONE || count[j] <= count[v]))
				v = j;
		if (v == OVB_NONE)
			break;
		tried[v] = true;
		const char *name = E->cluster->node[v].name;
		size_t n = 0;
		for (size_t i = 0; i < E->out.n; i++) {
			if (strcmp(E->out.p[i].node, name))
				continue;
			double size = 0;
			for (int r = 0; r < E->nres; r++)
				if (E->needs[i][r].used &&
				    E->cluster->node[v].cap[r] > 0)
					size = fmax(size, E->needs[i][r].sigma /
						E->cluster->node[v].cap[r]);
			mv[n++] = (struct mover){ i, size };
		}
		ovb_qsort(mv, n, sizeof *mv, by_size);
		size_t k = 0;
		for (; k < n; k++) {
			size_t i = mv[k].i;
			E->skip = i;
			rebuild_nodes(v, OVB_NONE);
			struct ovb_nstate *to = best_elsewhere(i);
			E->skip = OVB_NONE;
			if (!to)
				break;
			was[i] = E->out.p[i].node;
			E->out.p[i].node = ovb_xstrdup(to->n->name);
			rebuild_nodes(v, (size_t)(to - E->node));
		}
		if (k == n) {
			E->moves += n;
			for (k = 0; k < n; k++) {
				free(was[mv[k].i]);
				was[mv[k].i] = NULL;
			}
			continue;
		}
		for (size_t b = 0; b < k; b++) {    /* v keeps them all */
			size_t i = mv[b].i;
			free(E->out.p[i].node);
			E->out.p[i].node = was[i];
			was[i] = NULL;
		}
		if (k)          /* back from the nodes they went to */
			rebuild();
		else
			rebuild_nodes(v, OVB_NONE);
	}
	E->onto_used = false;
	free(mv);
	free(was);
	free(count);
	free(tried);
}

/* The size of an op=new application for a decreasing policy: over the
 * resources placed, the largest of its capsules' Eq. 1 terms summed
 * relative to the cluster's capacity (0 when its needs are not known:
 * the error comes when it is placed). */
static double
app_size(const struct ovb_app *app)
{
	double tot[OVB_NCAP] = { 0 }, size = 0;
	for (size_t i = 0; i < app->ncap; i++) {
		struct ovb_need need[OVB_NCAP];
		const struct ovb_qos *q[OVB_NCAP] = { NULL };
		for (int r = 0; r < E->nres && app->cap[i].profile; r++)
			q[r] = prof_find(app->cap[i].profile, (enum ovb_res)r);
		if (!ovb_need_of(app, &app->cap[i], q, need) ||
		    !ovb_need_placed(E->cluster, need))
			return 0;
		for (int r = 0; r < E->nres; r++)
			if (need[r].used)
				tot[r] += ovb_eq1_term(&need[r], need[r].tau);
	}
	for (int r = 0; r < E->nres; r++)
		if (E->total_cap[r] > 0)
			size = fmax(size, tot[r] / E->total_cap[r]);
	return size;
}

struct sized { size_t a; double size; };

static int
by_app_size(const void *x, const void *y)
{
	const struct sized *p = x, *q = y;
	if (p->size != q->size)
		return p->size > q->size ? -1 : 1;
	return (p->a > q->a) - (p->a < q->a);
}

/* The order the applications are placed in: arrival, or with a
 * decreasing policy each run of op=new records largest first (ties in
 * arrival order). */
static size_t *
app_order(void)
{
	size_t n = E->apps->n;
	size_t *ord = ovb_xcalloc(n + 1, sizeof *ord);
	for (size_t a = 0; a < n; a++)
		ord[a] = a;
	if (!E->policy->decreasing)
		return ord;
	struct sized *s = ovb_xcalloc(n + 1, sizeof *s);
	for (size_t a = 0; a < n;) {
		size_t b = a;
		while (b < n && E->apps->app[b].op == OVB_OP_NEW) {
			s[b - a] = (struct sized){ b, app_size(&E->apps->app[b]) };
			b++;
		}
		ovb_qsort(s, b - a, sizeof *s, by_app_size);
		for (size_t k = a; k < b; k++)
			ord[k] = s[k - a].a;
		a = b == a ? a + 1 : b;
	}
	free(s);
	return ord;
}

static int
place_all(void)
{
	if (E->repair) {
		E->inplace = ovb_xcalloc(E->apps->n + 1, sizeof *E->inplace);
		int st = 0;
		for (size_t a = 0; a < E->apps->n && !st; a++)
			if (E->apps->app[a].op == OVB_OP_MODIFY)
				E->inplace[a] = modify_in_place(&E->apps->app[a], &st);
		if (st)
			return st;
		rebuild();
		repair();
	}
	index_build();
	size_t *ord = app_order();
	int status = 0;
	for (size_t k = 0; k < E->apps->n && !status; k++) {
		size_t a = ord[k];
		const struct ovb_app *app = &E->apps->app[a];
		if (E->inplace && E->inplace[a])
			continue;
		if (app->op != OVB_OP_NEW)
			remove_app(app->name);
		else if (E->have_existing && in_plan(app->name)) {
			status = ovb_err_at(E->apps_file, app->line, "application "
				"%s is already in the plan %s, placed or rejected (use "
				"op=modify to replace it)", app->name, E->plan_file);
			break;
		}
		if (app->op == OVB_OP_TERMINATE)
			continue;
		struct capsule *cps = ovb_xcalloc(app->ncap, sizeof *cps);
		int st = 0;
		for (size_t i = 0; i < app->ncap && !st; i++) {
			cps[i] = (struct capsule){ app, &app->cap[i],
				app_index(app->name), { { .used = false } } };
			st = needs_of(app, &app->cap[i], cps[i].need);
			if (!st && app->cap[i].node && !node_named(app->cap[i].node)) {
				st = ovb_err_at(E->apps_file, app->line, "application %s, "
					"capsule %s: node=%s is not in the cluster (%s)",
					app->name, app->cap[i].name, app->cap[i].node,
					E->cluster_file);
			}
		}
		char jwhy[512];
		bool missing = false;
		for (size_t i = 0; !st && !missing && i < app->ncap; i++)
			missing = joint_missing(app->cap[i].name,
				app->cap[i].profile, cps[i].need, jwhy, sizeof jwhy);
		if (!st && missing)
			reject(app, "%s", jwhy);
		else if (!st)
			place_app(app, cps);
		free(cps);
		status = st;
		if (!st && ovb_progress_wanted())
			ovb_progress("placing", (double)k + 1, (double)E->apps->n);
	}
	free(ord);
	if (!status && E->consolidate)
		consolidate();
	if (!status)
		ovb_progress_end();
	return status;
}

/* A promise is not stated beyond the profiles' forecast (the profile
 * whose forecast ends first, found by the caller). */
static int
check_valid(void)
{
	const struct ovb_qos *fq = E->forecast;
	if (!E->valid || !fq || E->valid <= fq->U.forecast)
		return 0;
	return ovb_err_at(fq->file, fq->line, "profile %s %s forecasts its "
		"usage until %llu: --valid-until %llu states the plan's promise "
		"beyond it", fq->U.capsule, ovb_res_name(fq->U.res),
		(unsigned long long)fq->U.forecast,
		(unsigned long long)E->valid);
}

static int
put_risks(void)
{
	for (size_t i = 0; i < E->cluster->n; i++)
		for (int r = 0; r < E->nres; r++) {
			struct ovb_nres *nr = &E->node[i].r[r];
			if (!nr->ncap)
				continue;
			double risk = ovb_nstate_risk(&E->ns, nr,
				E->cluster->node[i].cap[r]);
			struct ovb_noderisk *k = OVB_PUSH(E->out.risk, E->out.nrisk,
				E->out.caprisk);
			k->node = ovb_xstrdup(E->cluster->node[i].name);
			k->res = (enum ovb_res)r;
			/* a sum of tails rounded above 1 on a node left
			 * broken: a probability, as the plan reader wants */
			k->risk = risk > 1 ? 1 : risk;
			k->omin = nr->omin;
			k->load = nr->load;
			k->capacity = E->cluster->node[i].cap[r];
			if (r == OVB_MEM)       /* the OOM exposure E[(Y-C)+] */
				k->exposure = ovb_mem_exposure(nr->members,
					nr->nmembers, nr->g, k->capacity);
			if (!isfinite(k->load))   /* existing capsules' sum */
				return ovb_err_at(E->have_existing ? E->plan_file :
					E->cluster_file, 0, "node %s %s: the load of "
					"its capsules exceeds the largest double",
					k->node, ovb_res_name((enum ovb_res)r));
		}
	E->out.grid = E->grid;
	E->out.aggregate = E->aggregate;
	E->out.nsigma = E->nsigma;
	E->out.nsigma_n = E->nsigma_n;
	E->out.joint = E->joint != NULL;
	E->out.joint_overlap = E->joint && E->joint->overlap;
	E->out.mem_promise = E->mem_promise;
	E->out.mem_O = E->mem_promise ? E->mem_O : NAN;
	E->out.valid_until = E->valid ? E->valid : E->forecast ?
		E->forecast->U.forecast : E->have_existing ?
		E->existing->valid_until : 0;
	return 0;
}

/* Everything a run allocated but the plan. */
static void
eng_free(void)
{
	nodes_free();
	ovb_nstate_ctx_free(&E->ns);
	free(E->trusts);
	free(E->in_trust);
	free(E->partner);
	free(E->pstart);
	ovb_names_free(&E->appidx);
	free(E->all);
	free(E->needs);
	free(E->inplace);
	ovb_profidx_free(&E->pidx);
	if (E->walk)
		free(E->walk->q);
	free(E->walk);
	free(E->nearq);
	free(E->ctmp);
}

int
ovb_place_run(const struct ovb_place_req *q, struct ovb_place_res *res)
{
	static const struct ovb_plan noplan;
	eng_state = (struct eng){
		.cluster = q->cluster, .apps = q->apps, .prof = q->prof,
		.existing = q->existing ? q->existing : &noplan,
		.have_existing = q->existing != NULL,
		.cluster_file = q->cluster_file, .apps_file = q->apps_file,
		.plan_file = q->plan_file,
		.policy = &policies[q->policy >= 0 && q->policy < NPOLICY ?
			q->policy : 0],
		.grid = q->grid, .trust_weight = q->trust_weight,
		.strict = q->strict, .scan = q->scan, .aggregate = q->aggregate,
		.tod = q->tod, .nsigma = q->nsigma, .nsigma_n = q->nsigma_n,
		.joint = q->joint, .mem_promise = q->mem_promise,
		.mem_O = q->mem_promise && q->mem_O >= 0 ? q->mem_O : NAN,
		.repair = q->repair, .max_moves = q->max_moves,
		.consolidate = q->consolidate && q->repair,
		.cons_max = q->cons_max,
		.valid = q->valid_until, .forecast = q->forecast,
		.rng = q->seed, .skip = OVB_NONE,
	};
	int status = 0;
	E->walk = ovb_xcalloc(1, sizeof *E->walk);
	/* mem, a level, beside the rates (a cluster giving mem but not
	 * net-rx leaves net-rx's capacity 0: never scored) */
	E->nres = ovb_cluster_has_mem(E->cluster) ? OVB_NCAP :
		ovb_cluster_nres(E->cluster);
	E->nplaced = ovb_cluster_nres(E->cluster) +
		ovb_cluster_has_mem(E->cluster);
	clear_nodes();
	for (size_t i = 0; i < E->cluster->n; i++)
		for (int r = 0; r < E->nres; r++)
			E->total_cap[r] += E->cluster->node[i].cap[r];
	if (E->have_existing && E->grid != E->existing->grid)
		E->grid = E->existing->grid;
	ovb_nstate_ctx_init(&E->ns, E->grid);
	if (E->have_existing && q->mode_given &&
	    (E->aggregate != E->existing->aggregate || E->nsigma !=
	    E->existing->nsigma || (E->nsigma && E->nsigma_n !=
	    E->existing->nsigma_n) || (E->joint != NULL) !=
	    E->existing->joint)) {
		ovb_warn("%s: a plan of mode %s; --mode %s would change the "
			"rule of the capsules placed", E->plan_file,
			E->existing->aggregate ? "aggregate" :
			E->existing->nsigma ? "nsigma" : E->existing->joint ?
			"joint" : "eq1",
			E->aggregate ? "aggregate" : E->nsigma ? "nsigma" :
			E->joint ? "joint" : "eq1");
		status = OVB_EUSAGE;
	} else if (E->have_existing && E->existing->joint && !E->joint) {
		ovb_warn("%s: a plan of mode joint: give its samples (--series "
			"FILE)", E->plan_file);
		status = OVB_EUSAGE;
	} else if (E->have_existing && E->existing->joint && E->joint &&
	    E->existing->joint_overlap != E->joint->overlap) {
		ovb_warn("%s: a plan of mode joint%s; --slots %s would change "
			"the rule of the capsules placed", E->plan_file,
			E->existing->joint_overlap ? " overlap" : " (slots any)",
			E->joint->overlap ? "overlap" : "any");
		status = OVB_EUSAGE;
	} else if (E->joint && !q->mode_given && !(E->have_existing &&
	    E->existing->joint)) {
		ovb_warn("--series is the samples of --mode joint (give it, or "
			"a plan of mode joint)");
		status = OVB_EUSAGE;
	}
	if (E->have_existing) {
		E->aggregate = E->existing->aggregate;
		E->nsigma = E->existing->nsigma;
		E->nsigma_n = E->existing->nsigma_n;
		/* the plan's memory rule too (ovb-place refuses another) */
		E->mem_promise = E->existing->mem_promise;
		E->mem_O = E->mem_promise ? E->existing->mem_O : NAN;
	}
	if (!status && E->mem_promise && !(isnan(E->mem_O) || E->mem_O < 1)) {
		ovb_warn("--mem-tolerance %g is not below 1", E->mem_O);
		status = OVB_EUSAGE;
	} else if (!status && E->mem_promise && E->nsigma) {
		ovb_warn("--mem-rule promise decides memory by Eq. 3 alone, "
			"--mode nsigma by its N-sigma test: not both");
		status = OVB_EUSAGE;
	}
	index_trust();
	if (!status)
		status = check_trust();
	if (!status)
		status = check_valid();
	if (!status)
		status = E->have_existing ? load_existing() : 0;
	if (!status)
		status = place_all();
	ovb_nstate_ctx_free(&E->ns);
	if (!status && E->strict && E->nwarnings)
		status = OVB_EDATA;
	if (!status)
		status = put_risks();
	*res = (struct ovb_place_res){ .plan = E->out,
		.nrejected = E->nrejected, .nwarnings = E->nwarnings,
		.moves = E->moves };
	eng_free();
	memset(&eng_state, 0, sizeof eng_state);
	return status;
}
