/* ovb-trade: Sharc's resource trading replayed offline.
 *
 * Reads a cluster, an apps (or Sharc RSL) file, optionally a plan, and
 * usage series; gives every capsule of the chosen resource its allocation
 * A interval by interval by the rules of section 4.3 of the Sharc paper
 * (lib/trade.c) and writes them as ovb-trade (formats/trade.md), with
 * per-node and per-application sums; --check verifies the invariants of
 * every interval. */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_ALPHA = 0x100, OPT_EPS, OPT_ENFORCE, OPT_N1, OPT_RECLAIM,
	OPT_DELTA, OPT_CHECK, OPT_NO_STEP4 };

#define MAX_INTERVALS OVB_MAXINTERVALS

static struct ovb_trade_opt opt = { 1, false, OVB_N1_ALL, false, 0.1,
	false };
static double opt_eps = 0.1;
static int opt_res = OVB_CPU;
static bool opt_check, opt_no_step4;

static const struct argp_option options[] = {
	{ "resource", 'r', "RES", 0, "cpu (default) or net", 0 },
	{ "alpha", OPT_ALPHA, "A", 0,
	  "Eq. 2's smoothing, 0 < A <= 1 (default 1: no history)", 0 },
	{ "epsilon", OPT_EPS, "E", 0,
	  "epsilon of a capsule without epsilon=, 0 < E < 1 (default 0.1)",
	  0 },
	{ "enforce", OPT_ENFORCE, "MODEL", 0,
	  "work-conserving (default: usage may exceed A) or capped (usage "
	  "clamped to A, as a token bucket does)", 0 },
	{ "n1", OPT_N1, "WHO", 0,
	  "Eq. 5's N1: all (default: capsules of every application on the "
	  "node with U >= A), borrowers (the node's Step-3 capsules) or "
	  "above-r (the node's Step-3 capsules with A > R; its borrowers when "
	  "none has)", 0 },
	{ "reclaim", OPT_RECLAIM, "RULE", 0,
	  "paper (default: Eqs. 3-4 as written) or fix (A never below "
	  "max(LB, delta R); Step 1 adds at least epsilon R)", 0 },
	{ "delta", OPT_DELTA, "D", 0,
	  "the fix's floor, a fraction of R, 0 <= D <= 1 (default 0.1)", 0 },
	{ "check", OPT_CHECK, NULL, 0,
	  "Verify the invariants of every interval; exit 1 naming the first "
	  "interval, node or application that breaks one", 0 },
	{ "no-step4", OPT_NO_STEP4, NULL, 0,
	  "Leave Step 4 out (to see what Steps 1-3 alone do)", 0 },
	{ 0 }
};

static const char doc[] =
	"Replay Sharc's resource trading on usage series: per interval and "
	"capsule the allocation A, the smoothed usage U and the class."
	"\v"
	"FILE... are, in any order (told apart by their magic line): one "
	"ovb-cluster, one ovb-apps or Sharc RSL file (R, LB, epsilon, "
	"TradeResources of every capsule), at most one ovb-plan (the "
	"placement, and R of profiled capsules: the plan's sigma; the "
	"applications it rejected are left out) and "
	"ovb-series files with one series per capsule of the resource, all "
	"with the same interval I.  A capsule is placed by the plan, else by "
	"its node=; it runs from its series' first sample to its last (it "
	"arrives with A = U = R); a missing sample in between counts as the "
	"paper's missing report, U_new = R.  Every interval the rules of "
	"section 4.3 recompute A (formats/trade.md: Steps 0-2 of every "
	"application, Step 3 by Eq. 5 summed over the application's capsules, "
	"Step 4 cutting allocations above R until each node's sum is at most "
	"its capacity and each application's at most R_i).  Admission: the "
	"reservations on a node must fit its capacity.  Capsules with no "
	"reservation of the resource are left out; the series may span at "
	"most 10^8 intervals.\n\n"
	"EXAMPLES:\n"
	"  ovb-trade cluster apps usage.series > run.trade\n"
	"  ovb-trade --enforce capped --reclaim fix --check cluster rsl plan "
	"aug.series\n"
	"  ovb-trade -r net --alpha 0.5 --n1 borrowers cluster apps "
	"net.series\n\n"
	OVB_EXIT_DOC;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'r':
		opt_res = ovb_res_parse(arg);
		if (opt_res != OVB_CPU && opt_res != OVB_NET)
			argp_error(st, "-r: '%s' is neither cpu nor net", arg);
		return 0;
	case OPT_ALPHA:
		opt.alpha = ovb_arg_real(st, "--alpha", arg, 0, 1);
		if (opt.alpha <= 0)
			argp_error(st, "--alpha: %s is outside (0, 1]", arg);
		return 0;
	case OPT_EPS:
		opt_eps = ovb_arg_real(st, "--epsilon", arg, 0, 1);
		if (opt_eps <= 0 || opt_eps >= 1)
			argp_error(st, "--epsilon: %s is outside (0, 1)", arg);
		return 0;
	case OPT_DELTA:
		opt.delta = ovb_arg_real(st, "--delta", arg, 0, 1);
		return 0;
	case OPT_ENFORCE:
		if (strcmp(arg, "capped") && strcmp(arg, "work-conserving"))
			argp_error(st, "--enforce: '%s' is neither "
				"work-conserving nor capped", arg);
		opt.capped = !strcmp(arg, "capped");
		return 0;
	case OPT_N1:
		for (int i = 0; i < 3; i++)
			if (!strcmp(arg, ovb_trade_n1_name[i])) {
				opt.n1 = (enum ovb_trade_n1)i;
				return 0;
			}
		argp_error(st, "--n1: '%s' is none of all, borrowers, above-r",
			arg);
		return 0;
	case OPT_RECLAIM:
		if (strcmp(arg, "paper") && strcmp(arg, "fix"))
			argp_error(st, "--reclaim: '%s' is neither paper nor fix",
				arg);
		opt.fix = !strcmp(arg, "fix");
		return 0;
	case OPT_CHECK: opt_check = true; return 0;
	case OPT_NO_STEP4: opt_no_step4 = true; return 0;
	case ARGP_KEY_SUCCESS:
		if (st->argc - st->next < 3)
			argp_error(st, "expected CLUSTER APPS [PLAN] SERIES...");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "FILE...", doc,
	ovb_cli_child, NULL, NULL };

static struct {
	struct ovb_cluster cl;
	struct ovb_apps apps;
	struct ovb_plan plan;
	struct ovb_series_set ser;
	bool have_cl, have_apps, have_plan;
	char *apps_file, *plan_file;
	size_t nfile;
	char **file;            /* the series files' names */
	const char **ser_file;  /* per series: its first file */
} S;

static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)ctx;
	int st;
	if (!strcmp(fmt->name, "cluster")) {
		if (S.have_cl)
			return ovb_err(lx, "a second cluster file");
		if (!(st = ovb_cluster_read(lx, &S.cl)))
			S.have_cl = true;
	} else if (!strcmp(fmt->name, "apps")) {
		if (S.have_apps)
			return ovb_err(lx, "a second apps file (the first is %s)",
				S.apps_file);
		if (!(st = ovb_apps_read(lx, &S.apps))) {
			S.have_apps = true;
			S.apps_file = ovb_xstrdup(lx->name);
		}
	} else if (!strcmp(fmt->name, "plan")) {
		if (S.have_plan)
			return ovb_err(lx, "a second plan (the first is %s)",
				S.plan_file);
		if (!(st = ovb_plan_read(lx, &S.plan))) {
			S.have_plan = true;
			S.plan_file = ovb_xstrdup(lx->name);
		}
	} else if (!strcmp(fmt->name, "series")) {
		/* every series file adds its series; a capsule's series in
		 * several files (months, one file per VM) are merged in time,
		 * the same slot twice an error */
		struct ovb_series_set ss;
		memset(&ss, 0, sizeof ss);
		S.file = ovb_xrealloc(S.file, S.nfile + 1, sizeof *S.file);
		char *name = S.file[S.nfile++] = ovb_xstrdup(lx->name);
		if (!(st = ovb_series_read(lx, &ss)))
			st = ovb_series_merge(&S.ser, &S.ser_file, &ss, name);
		else
			ovb_series_free(&ss);
	} else
		return ovb_err(lx, "ovb-%s: ovb-trade reads ovb-cluster, "
			"ovb-apps (or RSL), ovb-plan and ovb-series", fmt->name);
	return st;
}

/* The replay's capsules, from the inputs. */
struct model {
	struct ovb_trade t;             /* the output's declarations */
	struct ovb_trade_cap *cap;
	const struct ovb_series **ser;  /* per capsule */
	double *node_cap, *app_R;
	bool *app_trade;
	size_t *pos;                    /* per capsule: next sample */
};

static const struct ovb_placed *
placed_of(const char *app, const char *capsule)
{
	for (size_t i = 0; S.have_plan && i < S.plan.n; i++)
		if (!strcmp(S.plan.p[i].app, app) &&
		    !strcmp(S.plan.p[i].capsule, capsule))
			return &S.plan.p[i];
	return NULL;
}

/* Did the plan reject the application?  (It is then not replayed.) */
static bool
rejected(const char *app)
{
	for (size_t i = 0; S.have_plan && i < S.plan.nrej; i++)
		if (!strcmp(S.plan.rej[i].app, app))
			return true;
	return false;
}

/* Is a capsule of another replayed application than app named name?
 * (RSL names every application's capsules c1..cn.) */
static bool
name_shared(const char *app, const char *name)
{
	for (size_t i = 0; i < S.apps.n; i++) {
		const struct ovb_app *a = &S.apps.app[i];
		if (a->op == OVB_OP_TERMINATE || rejected(a->name) ||
		    !strcmp(a->name, app))
			continue;
		for (size_t k = 0; k < a->ncap; k++)
			if (!strcmp(a->cap[k].name, name))
				return true;
	}
	return false;
}

/* The series of capsule c of application a (formats/series.md, "Series
 * of an application's capsule"): APP/CAPSULE; else CAPSULE when no other
 * application has a capsule of that name; else, profiled, the profile's. */
static const struct ovb_series *
series_of(const struct ovb_app *a, const struct ovb_capsule *c,
	enum ovb_res r, bool shared)
{
	char key[2 * OVB_MAXNAME + 2];
	snprintf(key, sizeof key, "%s/%s", a->name, c->name);
	const struct ovb_series *se = ovb_series_find(&S.ser, key, r);
	if (!se && !shared)
		se = ovb_series_find(&S.ser, c->name, r);
	if (!se && c->profile)
		se = ovb_series_find(&S.ser, c->profile, r);
	return se;
}

static int
build(struct model *m)
{
	struct ovb_trade *t = &m->t;
	enum ovb_res r = (enum ovb_res)opt_res;
	t->res = ovb_xstrdup(ovb_res_name(r));
	t->alpha = opt.alpha;
	t->delta = opt.delta;
	t->enforce = ovb_xstrdup(opt.capped ? "capped" : "work-conserving");
	t->n1 = ovb_xstrdup(ovb_trade_n1_name[opt.n1]);
	t->reclaim = ovb_xstrdup(opt.fix ? "fix" : "paper");
	for (size_t i = 1; i < S.ser.n; i++)
		if (S.ser.s[i].interval != S.ser.s[0].interval)
			return ovb_err_at(S.ser_file[i], S.ser.s[i].line,
				"series %s %s: interval %llu s, not aligned with "
				"%llu s of %s", S.ser.s[i].capsule,
				ovb_res_name(S.ser.s[i].res),
				(unsigned long long)S.ser.s[i].interval,
				(unsigned long long)S.ser.s[0].interval,
				S.ser_file[0]);
	t->interval = S.ser.s[0].interval;
	for (size_t j = 0; j < S.cl.n; j++) {
		struct ovb_trade_node *n = OVB_PUSH(t->node, t->nnode, t->capnode);
		n->name = ovb_xstrdup(S.cl.node[j].name);
		n->cap = S.cl.node[j].cap[r];
		ovb_names_add(&t->nodes, n->name, j);
	}
	size_t capc = 0;
	double *used = ovb_xcalloc(S.cl.n + 1, sizeof *used);
	int st = 0;
	for (size_t i = 0; !st && i < S.apps.n; i++) {
		const struct ovb_app *a = &S.apps.app[i];
		if (a->op == OVB_OP_TERMINATE || rejected(a->name))
			continue;
		size_t ai = t->napp;
		struct ovb_trade_app *ta = OVB_PUSH(t->app, t->napp, t->capapp);
		ta->name = ovb_xstrdup(a->name);
		ta->trade = a->trade;
		ta->R = 0;
		if (!ovb_names_add(&t->apps, ta->name, ai)) {
			st = ovb_err_at(S.apps_file, a->line, "application %s "
				"twice", a->name);
			break;
		}
		for (size_t k = 0; !st && k < a->ncap; k++) {
			const struct ovb_capsule *c = &a->cap[k];
			const struct ovb_placed *p = placed_of(a->name, c->name);
			double R = c->resv[r];
			if (c->profile)
				R = p && p->has_qos[r] ? p->sigma[r] : 0;
			if (c->profile && !p)
				st = ovb_err_at(S.apps_file, c->line, "capsule %s "
					"of %s: profiled, and in no plan", c->name,
					a->name);
			if (st || !(R > 0))
				continue;
			const char *node = p ? p->node : c->node;
			size_t j = node ? ovb_names_get(&t->nodes, node) :
				OVB_NONE;
			if (!node)
				st = ovb_err_at(S.apps_file, c->line, "capsule %s "
					"of %s: no node (no node= and no plan)",
					c->name, a->name);
			else if (j == OVB_NONE)
				st = ovb_err_at(S.apps_file, c->line, "capsule %s "
					"of %s: node %s is not in the cluster",
					c->name, a->name, node);
			if (st)
				continue;
			bool shared = name_shared(a->name, c->name);
			const struct ovb_series *se = series_of(a, c, r, shared);
			if (!se) {
				if (shared)
					st = ovb_err_at(S.apps_file, c->line,
						"capsule %s of %s: no %s series %s/%s "
						"(%s alone names capsules of several "
						"applications)", c->name, a->name,
						ovb_res_name(r), a->name, c->name,
						c->name);
				else
					st = ovb_err_at(S.apps_file, c->line,
						"capsule %s of %s: no %s series (%s "
						"or %s/%s)", c->name, a->name,
						ovb_res_name(r), c->name, a->name,
						c->name);
				continue;
			}
			used[j] += R;
			if (used[j] > t->node[j].cap * (1 + 1e-12)) {
				st = ovb_err_at(S.apps_file, c->line, "admission: "
					"capsule %s of %s brings the reservations on "
					"node %s to %g %s, above its capacity %g",
					c->name, a->name, node, used[j],
					ovb_res_rate_unit(r), t->node[j].cap);
				continue;
			}
			/* the output's name: CAPSULE, or APP/CAPSULE when
			 * another application has a capsule of that name */
			char *name = ovb_xstrdup(c->name);
			if (shared) {
				free(name);
				size_t len = strlen(a->name) + strlen(c->name) + 2;
				name = ovb_xcalloc(len, 1);
				snprintf(name, len, "%s/%s", a->name, c->name);
			}
			if (ovb_names_get(&t->capsules, name) != OVB_NONE) {
				st = ovb_err_at(S.apps_file, c->line, "capsule "
					"name %s used twice", name);
				free(name);
				continue;
			}
			struct ovb_trade_capsule *tc = OVB_PUSH(t->capsule,
				t->ncaps, t->capcaps);
			tc->name = name;
			tc->app = ovb_xstrdup(a->name);
			tc->node = ovb_xstrdup(node);
			tc->R = R;
			tc->lb = c->lb[r] < R ? c->lb[r] : R;
			tc->eps = isnan(c->epsilon) ? opt_eps : c->epsilon;
			if (!(tc->eps > 0 && tc->eps < 1))
				st = ovb_err_at(S.apps_file, c->line, "capsule %s "
					"of %s: epsilon %g is outside (0, 1)",
					c->name, a->name, tc->eps);
			ovb_names_add(&t->capsules, tc->name, t->ncaps - 1);
			ta->R += R;
			m->cap = ovb_xrealloc(m->cap, t->ncaps, sizeof *m->cap);
			m->ser = ovb_xrealloc(m->ser, t->ncaps, sizeof *m->ser);
			m->cap[t->ncaps - 1] = (struct ovb_trade_cap){ ai, j, R,
				tc->lb, tc->eps };
			m->ser[t->ncaps - 1] = se;
			capc++;
		}
	}
	free(used);
	if (!st && !capc)
		st = ovb_err_at(S.apps_file, 0, "no capsule uses %s: nothing to "
			"replay", ovb_res_name(r));
	/* The replay walks every interval from the first sample to the
	 * last: refuse spans that would only make empty intervals. */
	uint64_t t0 = UINT64_MAX, t1 = 0;
	size_t k1 = 0;
	for (size_t k = 0; !st && k < t->ncaps; k++) {
		const struct ovb_series *se = m->ser[k];
		if (se->t[0] < t0)
			t0 = se->t[0];
		if (se->t[se->n - 1] > t1)
			t1 = se->t[se->n - 1], k1 = k;
	}
	if (!st && (t1 - t0) / t->interval >= MAX_INTERVALS) {
		const struct ovb_series *se = m->ser[k1];
		st = ovb_err_at(S.ser_file[se - S.ser.s], se->line, "series %s "
			"%s: the series span more than %u intervals of %llu s",
			se->capsule, ovb_res_name(se->res), MAX_INTERVALS,
			(unsigned long long)t->interval);
	}
	return st;
}

struct viol { bool any; };

static void
check_at(const struct model *m, const struct ovb_trade_at *at,
	struct viol *v)
{
	const struct ovb_trade *t = &m->t;
	const double tol = 1e-9;
	for (size_t i = 0; i < at->nnode; i++) {
		const struct ovb_trade_sum *s = &at->node[i];
		double c = t->node[s->idx].cap;
		if (s->next > c * (1 + tol)) {
			ovb_warn("at %llu: node %s: sum A %.17g above capacity "
				"%.17g", (unsigned long long)at->t,
				t->node[s->idx].name, s->next, c);
			v->any = true;
		}
	}
	for (size_t i = 0; i < at->napp; i++) {
		const struct ovb_trade_sum *s = &at->app[i];
		if (s->slack < -tol * (s->next + s->slack)) {
			ovb_warn("at %llu: application %s: sum A %.17g above "
				"R_i %.17g", (unsigned long long)at->t,
				t->app[s->idx].name, s->next, s->next + s->slack);
			v->any = true;
		}
	}
	for (size_t i = 0; i < at->nrow; i++) {
		const struct ovb_trade_row *r = &at->row[i];
		const struct ovb_trade_capsule *c = &t->capsule[r->cap];
		bool trade = t->app[m->cap[r->cap].app].trade;
		if (r->next < c->lb * (1 - tol)) {
			ovb_warn("at %llu: capsule %s: A %.17g below LB %.17g",
				(unsigned long long)at->t, c->name, r->next, c->lb);
			v->any = true;
		}
		if (!trade && r->next != c->R) {
			ovb_warn("at %llu: capsule %s: A %.17g, not R %.17g "
				"(application %s does not trade)",
				(unsigned long long)at->t, c->name, r->next, c->R,
				c->app);
			v->any = true;
		}
	}
}

/* The intervals made, handed to a writer thread through a ring of
 * slots: the numbers are formatted and written on one CPU while the next
 * intervals are replayed on another (the same bytes, in order). */
#define NSLOT 16
static struct ring {
	pthread_mutex_t mu;
	pthread_cond_t filled, freed;
	struct ovb_trade_at slot[NSLOT];
	size_t head, tail;          /* next to fill, next to write */
	bool done;                  /* no more intervals */
	int st;                     /* the writer's status */
	int err;                    /* errno of its failed write: errno is
	                               the thread's own */
	FILE *f;
	const struct ovb_trade *t;
	double wsec;
	const struct model *m;      /* for --check, done by the writer: */
	struct viol *v;             /* its warnings flush stdout, which only
	                               the writer may touch */
} R = { .mu = PTHREAD_MUTEX_INITIALIZER, .filled = PTHREAD_COND_INITIALIZER,
	.freed = PTHREAD_COND_INITIALIZER };

static void *
writer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&R.mu);
	for (;;) {
		while (R.tail == R.head && !R.done)
			pthread_cond_wait(&R.filled, &R.mu);
		if (R.tail == R.head)
			break;
		struct ovb_trade_at *at = &R.slot[R.tail % NSLOT];
		pthread_mutex_unlock(&R.mu);
		if (opt_check && !R.v->any)
			check_at(R.m, at, R.v);
		double w = ovb_now();
		int st = R.st ? R.st : ovb_trade_write_at(R.f, R.t, at);
		int err = st ? errno : 0;
		double dw = ovb_now() - w;
		pthread_mutex_lock(&R.mu);
		if (err && !R.err)
			R.err = err;
		R.wsec += dw;
		R.st = st;
		R.tail++;
		pthread_cond_signal(&R.freed);
	}
	pthread_mutex_unlock(&R.mu);
	return NULL;
}

/* A free slot to fill (waits for the writer); NULL once it failed. */
static struct ovb_trade_at *
slot_get(void)
{
	pthread_mutex_lock(&R.mu);
	while (R.head - R.tail == NSLOT && !R.st)
		pthread_cond_wait(&R.freed, &R.mu);
	struct ovb_trade_at *at = R.st ? NULL : &R.slot[R.head % NSLOT];
	pthread_mutex_unlock(&R.mu);
	return at;
}

static void
slot_put(void)
{
	pthread_mutex_lock(&R.mu);
	R.head++;
	pthread_cond_signal(&R.filled);
	pthread_mutex_unlock(&R.mu);
}

/* Replays every interval, writing each to f as it is made (by the writer
 * thread); *nat counts them and *wsec the seconds spent writing.  0 or
 * OVB_EIO. */
static int
replay(struct model *m, struct viol *v, FILE *f, size_t *nat, double *wsec)
{
	struct ovb_trade *t = &m->t;
	size_t n = t->ncaps;
	uint64_t I = t->interval, t0 = UINT64_MAX, t1 = 0;
	for (size_t k = 0; k < n; k++) {
		const struct ovb_series *se = m->ser[k];
		if (se->t[0] < t0)
			t0 = se->t[0];
		if (se->t[se->n - 1] > t1)
			t1 = se->t[se->n - 1];
	}
	m->node_cap = ovb_xcalloc(t->nnode + 1, sizeof *m->node_cap);
	m->app_R = ovb_xcalloc(t->napp + 1, sizeof *m->app_R);
	m->app_trade = ovb_xcalloc(t->napp + 1, sizeof *m->app_trade);
	m->pos = ovb_xcalloc(n + 1, sizeof *m->pos);
	for (size_t j = 0; j < t->nnode; j++)
		m->node_cap[j] = t->node[j].cap;
	for (size_t i = 0; i < t->napp; i++)
		m->app_trade[i] = t->app[i].trade;
	struct ovb_trade_in in = { n, t->napp, t->nnode, m->cap, m->node_cap,
		m->app_R, m->app_trade };
	struct ovb_trade_state s;
	ovb_trade_state_init(&s, &in);
	double *u = ovb_xcalloc(n + 1, sizeof *u);
	bool *present = ovb_xcalloc(n + 1, sizeof *present);
	struct ovb_trade_rec *rec = ovb_xcalloc(n + 1, sizeof *rec);
	double *nused = ovb_xcalloc(t->nnode + 1, sizeof *nused);
	double *nnext = ovb_xcalloc(t->nnode + 1, sizeof *nnext);
	double *anext = ovb_xcalloc(t->napp + 1, sizeof *anext);
	bool *nin = ovb_xcalloc(t->nnode + 1, sizeof *nin);
	bool *ain = ovb_xcalloc(t->napp + 1, sizeof *ain);
	struct ovb_trade_opt o = opt;
	struct ovb_trade_at *at;
	int st = 0;
	o.no_step4 = opt_no_step4;
	R.f = f;
	R.m = m;
	R.v = v;
	R.t = t;
	pthread_t th;
	bool threaded = !pthread_create(&th, NULL, writer, NULL);
	struct ovb_trade_at at0 = { 0 };
	for (uint64_t T = t0; T <= t1; T += I) {
		if (!(at = threaded ? slot_get() : &at0))
			break;
		memset(m->app_R, 0, t->napp * sizeof *m->app_R);
		for (size_t k = 0; k < n; k++) {
			const struct ovb_series *se = m->ser[k];
			size_t p = m->pos[k];
			present[k] = T >= se->t[0] && T <= se->t[se->n - 1];
			if (p < se->n && se->t[p] == T) {
				u[k] = se->v[p];
				m->pos[k]++;
			} else
				u[k] = NAN;
			if (present[k])
				m->app_R[m->cap[k].app] += m->cap[k].R;
		}
		ovb_trade_step(&in, &o, &s, u, present, rec);
		at->t = T;
		at->nrow = at->nnode = at->napp = 0;
		memset(nused, 0, t->nnode * sizeof *nused);
		memset(nnext, 0, t->nnode * sizeof *nnext);
		memset(anext, 0, t->napp * sizeof *anext);
		memset(nin, 0, t->nnode * sizeof *nin);
		memset(ain, 0, t->napp * sizeof *ain);
		for (size_t k = 0; k < n; k++) {
			if (!present[k])
				continue;
			struct ovb_trade_row *r = OVB_PUSH(at->row, at->nrow,
				at->caprow);
			*r = (struct ovb_trade_row){ k, rec[k].A, rec[k].used,
				rec[k].U, rec[k].next, (int)rec[k].cls };
			size_t j = m->cap[k].node, i = m->cap[k].app;
			nused[j] += rec[k].used;
			nnext[j] += rec[k].next;
			anext[i] += rec[k].next;
			nin[j] = ain[i] = true;
		}
		for (size_t j = 0; j < t->nnode; j++)
			if (nin[j])
				*OVB_PUSH(at->node, at->nnode, at->capnode) =
					(struct ovb_trade_sum){ j, nused[j], nnext[j],
					0 };
		for (size_t i = 0; i < t->napp; i++)
			if (ain[i])
				*OVB_PUSH(at->app, at->napp, at->capapp) =
					(struct ovb_trade_sum){ i, 0, anext[i],
					m->app_R[i] - anext[i] };
		if (threaded)
			slot_put();
		else {
			if (opt_check && !v->any)
				check_at(m, at, v);
			double w = ovb_now();
			st = ovb_trade_write_at(f, t, at);
			*wsec += ovb_now() - w;
		}
		++*nat;
		if (st || T > UINT64_MAX - I)
			break;
	}
	if (threaded) {
		pthread_mutex_lock(&R.mu);
		R.done = true;
		pthread_cond_signal(&R.filled);
		pthread_mutex_unlock(&R.mu);
		pthread_join(th, NULL);
		st = R.st;
		if (R.err)      /* the reason, for the report at the end */
			errno = R.err;
		*wsec += R.wsec;
		for (size_t i = 0; i < NSLOT; i++) {
			free(R.slot[i].row);
			free(R.slot[i].node);
			free(R.slot[i].app);
		}
	}
	free(at0.row);
	free(at0.node);
	free(at0.app);
	ovb_trade_state_free(&s);
	free(u);
	free(present);
	free(rec);
	free(nused);
	free(nnext);
	free(anext);
	free(nin);
	free(ain);
	return st;
}

int
main(int argc, char **argv)
{
	int first, status;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	double t0 = ovb_now();
	status = ovb_read_inputs(argc - first, argv + first, take, NULL);
	double t1 = ovb_now();
	if (!status && !S.have_cl)
		status = ovb_err_at(argv[first], 0, "no ovb-cluster file among "
			"the inputs");
	if (!status && !S.have_apps)
		status = ovb_err_at(argv[first], 0, "no ovb-apps (or RSL) file "
			"among the inputs");
	if (!status && !S.ser.n)
		status = ovb_err_at(argv[first], 0, "no ovb-series file among "
			"the inputs");
	struct model m;
	memset(&m, 0, sizeof m);
	struct viol v = { false };
	if (!status)
		status = build(&m);
	/* The intervals are written as they are made, into the temporary
	 * that ovb_out renames only when all went well. */
	double t2 = ovb_now(), wsec = 0;
	size_t nat = 0;
	struct ovb_out out;
	static char obuf[1 << 20];      /* 671 MB a month: few, large writes */
	if (!status && !(status = ovb_out_open(&out, ovb_opt_output))) {
		setvbuf(out.f, obuf, _IOFBF, sizeof obuf);
		status = ovb_trade_write_head(out.f, &m.t, true);
		if (!status)
			status = replay(&m, &v, out.f, &nat, &wsec);
		status = ovb_out_end(&out, status);
		if (!status && v.any)
			status = OVB_FAIL;
	}
	if (!status && ovb_verbose)
		ovb_warn("%zu capsules, %zu intervals: read %.3f s, replay "
			"%.3f s, write %.3f s", m.t.ncaps, nat, t1 - t0,
			ovb_now() - t2 - wsec, wsec);
	ovb_trade_free(&m.t);
	free(m.cap);
	free(m.ser);
	free(m.node_cap);
	free(m.app_R);
	free(m.app_trade);
	free(m.pos);
	ovb_cluster_free(&S.cl);
	ovb_apps_free(&S.apps);
	if (S.have_plan)
		ovb_plan_free(&S.plan);
	ovb_series_free(&S.ser);
	for (size_t i = 0; i < S.nfile; i++)
		free(S.file[i]);
	free(S.file);
	free(S.ser_file);
	free(S.apps_file);
	free(S.plan_file);
	return status;
}
