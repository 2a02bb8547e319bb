/* ovb-fit: what-if questions of a capacity planner, answered by placing.
 *
 *   --more APP    how many more copies of APP fit on top of a plan, where;
 *   --nodes SHAPE the fewest nodes of a shape that hold an apps file;
 *   --curve LIST  either answer against the tolerance O.
 *
 * "Fits" means that ovb-place, with the policy given, places the copies
 * (or every application): ovb-fit runs ovb-place's engine (lib/place.c)
 * in-process on the cluster and apps it makes, so the node model, the
 * decisions and the placement search are ovb-place's own, to the byte,
 * and the plan it writes is the one ovb-place writes for the inputs
 * written beside it.
 *
 * --more: copies APP+1, APP+2, ... (numbered after any APP+k already in
 * the plan) arrive one after another; each is placed whole or rejected.
 * A copy that is rejected leaves the state as it was, so every later copy
 * is rejected too (ovb-place's assignment finds a placement of a copy
 * whenever one exists, whatever the policy's scores): the answer is the
 * number placed, from one run with more copies than Sharc's admission
 * check lets in (--max caps it: "at-least").
 *
 * --nodes: k nodes SHAPE-1..SHAPE-k, each the shape with its labels; k
 * runs up from a lower bound (admission: the apps' Eq. 1 terms over the
 * capacity; an application's capsules on distinct nodes) and the answer
 * is the first k at which nothing is rejected, every smaller k having
 * been tried (placement by a policy need not be monotone in k).  With as
 * many nodes as capsules every application finds empty nodes, so when
 * that fails no k does ("never", exit 1).
 *
 * --exhaustive: "fits" means a placement exists.  After the policy's
 * answer, a depth-first search over placements (below) for more copies or
 * fewer nodes, within --budget tries; what it finds is handed to the
 * engine with every capsule pinned, so the plan is still ovb-place's.
 *
 * Invariants: no output is written unless every placement succeeded; the same
 * inputs give the same bytes; every plan written is ovb-place's output
 * for the inputs written beside it (--apps-out, --cluster-out), which
 * ovb-check accepts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_MORE = 0x100, OPT_NODES, OPT_CURVE, OPT_POLICY, OPT_SEED,
	OPT_GRID, OPT_MAX, OPT_PLAN_OUT, OPT_APPS_OUT, OPT_CLUSTER_OUT,
	OPT_EXHAUSTIVE, OPT_BUDGET };

static const char *opt_more, *opt_nodes, *opt_policy = "worst-fit";
static uint64_t opt_seed = 1;   /* ovb-place's default */
#define opt_grid ovb_cliopt_grid  /* --grid (lib/cliopt.c) */

static const char *opt_plan_out, *opt_apps_out, *opt_cluster_out;
static double *opt_curve;
static size_t opt_ncurve;
static uint64_t opt_max = 100000, opt_budget = 200000;
static bool opt_exhaustive;
static struct ovb_cluster shape;    /* --nodes given as a node line */

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "The question (one of):", 1 },
	{ "more", OPT_MORE, "APP", 0,
	  "How many more copies of the apps file's application APP fit on top "
	  "of the plan (none: an empty cluster), and where", 1 },
	{ "nodes", OPT_NODES, "SHAPE", 0,
	  "The fewest nodes of SHAPE that hold the apps file: a node record "
	  "of the cluster format ('node big 4 cpu 125000000 B/s rack=a') or "
	  "the name of a node of the cluster given", 1 },
	{ "curve", OPT_CURVE, "LIST", 0,
	  "The answer at each tolerance O of LIST (O1,O2,... or LO:STEP:HI), "
	  "every capsule of the application (--more) or of the apps file "
	  "(--nodes) at that O; default: once, at the tolerances as given", 1 },
	{ NULL, 0, NULL, 0, "Placement (as ovb-place's options):", 2 },
	{ "policy", OPT_POLICY, "POLICY", 0,
	  "worst-fit (default), best-fit, tolerance, random or "
	  "first-fit-decreasing (ovb-place's)", 2 },
	{ "seed", OPT_SEED, "N", 0, "Seed of the random policy", 2 },
	{ "max", OPT_MAX, "N", 0,
	  "Try at most N copies or nodes (default 100000); reaching it "
	  "answers 'at-least N'", 2 },
	{ NULL, 0, NULL, 0, "What \"fits\" means:", 4 },
	{ "exhaustive", OPT_EXHAUSTIVE, NULL, 0,
	  "\"Fits\" means a placement exists (a search of every placement, "
	  "after the policy's answer): the most copies that can be placed "
	  "together, the fewest nodes that can hold the apps (default: "
	  "ovb-place's policy places it)", 4 },
	{ "budget", OPT_BUDGET, "N", 0,
	  "--exhaustive tries at most N placements of an application per "
	  "search (one per point, or per number of nodes tried; default "
	  "200000); beyond it the answer is a bound (at-least copies, at-most "
	  "nodes)", 4 },
	{ NULL, 0, NULL, 0, "Outputs besides the answer (-o), without --curve:",
	  3 },
	{ "plan-out", OPT_PLAN_OUT, "FILE", 0,
	  "The plan that places the answer (ovb-place's output)", 3 },
	{ "apps-out", OPT_APPS_OUT, "FILE", 0,
	  "--more: the copies placed, as an ovb-apps file (give it to "
	  "ovb-check beside the apps file)", 3 },
	{ "cluster-out", OPT_CLUSTER_OUT, "FILE", 0,
	  "--nodes: the cluster of SHAPE-1..SHAPE-k", 3 },
	{ 0 }
};

static const char doc[] =
	"What if: how many more copies fit, how few nodes hold the apps."
	"\v"
	"Answers, by placing: how many more copies of an application fit on "
	"top of a plan (--more), the fewest nodes of a shape that hold an apps "
	"file (--nodes), either against the tolerance O (--curve).\n\n"
	"Inputs, told apart by their first record: --more takes one "
	"ovb-cluster, one ovb-apps holding APP, the ovb-profile files and "
	"optionally the ovb-plan to add to; --nodes takes one ovb-apps, the "
	"ovb-profile files and, when SHAPE names a node, the ovb-cluster.  "
	"The answer is an ovb-fit table (formats/fit.md) on stdout or -o.  "
	"\"Fits\" means ovb-place's policy places it: ovb-fit runs "
	"ovb-place's engine itself (no ovb-place program needed).  Copies are named APP+1, "
	"APP+2, ... and carry APP's capsules, pins and trust records; nodes "
	"are named SHAPE-1, SHAPE-2, ...\n\n"
	"EXAMPLES:\n"
	"  ovb-fit --more shop01 cluster.txt apps.txt *.profile plan.txt\n"
	"  ovb-fit --more shop01 --plan-out more.plan --apps-out more.apps "
	"cluster.txt apps.txt *.profile plan.txt\n"
	"  ovb-fit --nodes 'node std 4 cpu 125000000 B/s' apps.txt *.profile\n"
	"  ovb-fit --nodes n3 --curve 0:0.01:0.05 cluster.txt apps.txt "
	"*.profile\n\n"
	"Exit status 1: --nodes and no number of nodes holds the apps.\n"
	OVB_EXIT_DOC;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
curve_value(struct argp_state *st, const char *s)
{
	return ovb_arg_real(st, "--curve", s, 0, nextafter(1, 0));
}

/* O1,O2,... or LO:STEP:HI, sorted, each once. */
static void
parse_curve(struct argp_state *st, const char *arg)
{
	char *s = ovb_xstrdup(arg), *c1 = strchr(s, ':');
	size_t n = 0, cap = 0;
	double *v = NULL;
	if (c1) {
		char *c2 = strchr(c1 + 1, ':');
		if (!c2 || strchr(c2 + 1, ':'))
			argp_error(st, "--curve: '%s' is not LO:STEP:HI", arg);
		*c1 = *c2 = '\0';
		double lo = curve_value(st, s), hi = curve_value(st, c2 + 1);
		double step = ovb_arg_real(st, "--curve STEP", c1 + 1, 0, 1);
		if (!(step > 0) || hi < lo)
			argp_error(st, "--curve: '%s' needs STEP > 0 and LO <= HI",
				arg);
		double k = floor((hi - lo) / step * (1 + 1e-12));
		if (k >= 10000)
			argp_error(st, "--curve: '%s' has more than 10000 points", arg);
		for (double i = 0; i <= k; i++)
			*OVB_PUSH(v, n, cap) = fmin(lo + i * step, hi);
	} else {
		for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
			*OVB_PUSH(v, n, cap) = curve_value(st, tok);
		if (!n || arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
		    strstr(arg, ",,"))
			argp_error(st, "--curve: '%s' is not a list O1,O2,...", arg);
	}
	ovb_qsort(v, n, sizeof *v, cmp_double);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	free(s);
	opt_curve = v;
	opt_ncurve = k;
}

/* --nodes 'node NAME CPU cpu NET B/s ...', read by the cluster reader. */
static void
parse_shape(struct argp_state *st, const char *arg)
{
	size_t len = strlen(arg) + 32;
	char *text = ovb_xmalloc(len);
	snprintf(text, len, "ovb-cluster 1\n%s\n", arg);
	FILE *f = fmemopen(text, strlen(text), "r");
	if (!f) {
		ovb_warn("out of memory");
		exit(OVB_ESOFT);
	}
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, "--nodes");
	int s = ovb_cluster_read(&lx, &shape);
	ovb_lex_free(&lx);
	fclose(f);
	free(text);
	if (!s && shape.n != 1)
		ovb_warn("--nodes: one node record, not %zu", shape.n);
	if (s || shape.n != 1)
		argp_error(st, "--nodes: '%s' is not a node record 'node NAME CPU "
			"cpu NET B/s [KEY=VALUE...]'", arg);
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_MORE:
		if (!ovb_valid_name(arg))
			argp_error(st, "--more: '%s' is not an application name", arg);
		opt_more = arg;
		return 0;
	case OPT_NODES:
		opt_nodes = arg;
		if (strpbrk(arg, " \t"))
			parse_shape(st, arg);
		else if (!ovb_valid_name(arg))
			argp_error(st, "--nodes: '%s' is neither a node record nor a "
				"node name", arg);
		return 0;
	case OPT_CURVE:
		parse_curve(st, arg);
		return 0;
	case OPT_POLICY:
		if (ovb_place_policy(arg) < 0)
			argp_error(st, "--policy: '%s' is not worst-fit, best-fit, "
				"tolerance, random or first-fit-decreasing", arg);
		opt_policy = arg;
		return 0;
	case OPT_SEED:
		opt_seed = ovb_arg_u64(st, "--seed", arg, 0, UINT64_MAX);
		return 0;
	case OPT_MAX:
		opt_max = ovb_arg_u64(st, "--max", arg, 1, 100000000);
		return 0;
	case OPT_EXHAUSTIVE:
		opt_exhaustive = true;
		return 0;
	case OPT_BUDGET:
		opt_budget = ovb_arg_u64(st, "--budget", arg, 1, UINT64_MAX / 2);
		return 0;
	case OPT_PLAN_OUT:
		opt_plan_out = arg;
		return 0;
	case OPT_APPS_OUT:
		opt_apps_out = arg;
		return 0;
	case OPT_CLUSTER_OUT:
		opt_cluster_out = arg;
		return 0;
	case ARGP_KEY_SUCCESS:
		if (!opt_more == !opt_nodes)
			argp_error(st, "give one question: --more APP or --nodes "
				"SHAPE");
		if (opt_ncurve && (opt_plan_out || opt_apps_out ||
		    opt_cluster_out))
			argp_error(st, "--plan-out, --apps-out and --cluster-out "
				"write one answer's placement: not with --curve");
		if (opt_nodes && opt_apps_out)
			argp_error(st, "--apps-out is an output of --more (--nodes "
				"places the apps file as it is)");
		if (opt_more && opt_cluster_out)
			argp_error(st, "--cluster-out is an output of --nodes");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* -o, -q, -v (lib/cli.c) and --grid (lib/cliopt.c) */
static const struct argp cli_argp = { NULL, NULL, NULL, NULL, ovb_cli_child,
	NULL, NULL };
static const struct argp_child children[] = {
	{ &ovb_cliopt_grid_argp, 0, NULL, 2 },
	{ &ovb_unmeasured_argp, 0, NULL, 0 },
	{ &cli_argp, 0, NULL, 0 },
	{ 0 }
};
static const struct argp argp = { options, parse_opt,
	"[CLUSTER] APPS [PROFILE...] [PLAN]", doc, children, NULL, NULL };

/* ---- inputs ---- */

static struct ovb_place_in S;

/* The capsule's needs (lib/node.c), as ovb-place will find them; 65 at
 * the apps file's line when its profile is in no profile file. */
static int
needs_of(const struct ovb_app *app, const struct ovb_capsule *c,
	struct ovb_need need[OVB_NCAP])
{
	const struct ovb_qos *q[OVB_NCAP] = { NULL };
	for (int r = 0; r < OVB_NCAP && c->profile; r++)
		q[r] = ovb_profile_find(&S.prof, c->profile, (enum ovb_res)r);
	/* net-rx only where the cluster gives it (lib/node.c, as ovb-place) */
	if (ovb_need_of(app, c, q, need) && ovb_need_placed(&S.cluster, need))
		return 0;
	if (ovb_read_as_zero(q))
		return ovb_nothing_measured(app, c, S.apps_file);
	if (c->profile)
		return ovb_err_at(S.apps_file, app->line, "application %s, capsule "
			"%s: profile=%s is in none of the profile files (no cpu or "
			"net block)", app->name, c->name, c->profile);
	return ovb_err_at(S.apps_file, app->line, "application %s, capsule %s: "
		"reserves no cpu and no net", app->name, c->name);
}

/* The least tolerance of the applications' capsules, as placed. */
static double
least_O(const struct ovb_app *const *app, size_t n)
{
	double O = INFINITY;
	for (size_t a = 0; a < n; a++)
		for (size_t i = 0; i < app[a]->ncap; i++) {
			struct ovb_need need[OVB_NCAP];
			if (needs_of(app[a], &app[a]->cap[i], need))
				continue;
			for (int r = 0; r < OVB_NCAP; r++)
				if (need[r].used)
					O = fmin(O, need[r].O);
		}
	return isfinite(O) ? O : 0;
}

/* ---- placing: lib/place.c's engine, as ovb-place runs it ---- */

/* What the engine places next: the cluster and apps made last (the
 * profiles are S.prof, the plan to add to S.plan). */
static struct {
	const struct ovb_cluster *cluster;
	const struct ovb_apps *apps;
} cur;

/* Places cur.apps on cur.cluster [on top of S.plan] into *out, as
 * `ovb-place -q --policy P [--seed N] [--grid G]` does; its status. */
static int
run_place(bool with_plan, struct ovb_plan *out)
{
	struct ovb_place_req q = {
		.cluster = cur.cluster, .apps = cur.apps, .prof = &S.prof,
		.existing = with_plan ? &S.plan : NULL,
		.cluster_file = S.cluster_file ? S.cluster_file : "--nodes",
		.apps_file = S.apps_file, .plan_file = S.plan_file,
		.policy = ovb_place_policy(opt_policy), .seed = opt_seed,
		.grid = opt_grid, .forecast = ovb_profiles_forecast(&S.prof),
	};
	struct ovb_place_res res;
	bool quiet = ovb_quiet;
	int verbose = ovb_verbose;
	ovb_quiet = true;           /* its progress and warnings: -q */
	ovb_verbose = 0;
	int st = ovb_place_run(&q, &res);
	ovb_quiet = quiet;
	ovb_verbose = verbose;
	*out = res.plan;
	return st;
}

/* ---- --exhaustive: a placement exists ----
 *
 * Node states as lists of needs per resource, each node decided by the
 * node model's ovb_node_stat (Eq. 1 and Eq. 3, exactly, on the grid the
 * plan will state); an application's capsules go on distinct nodes (or
 * distinct values of its spread label), pinned ones on their node, none
 * beside an application of trust 0.  The search tries node tuples in
 * lexicographic order: copies of an application are interchangeable, so
 * copy j+1 takes a tuple no smaller than copy j's; empty nodes of one
 * shape are interchangeable, so an application goes on the nodes used
 * so far and the first few empty ones.  Every tuple tried counts against
 * --budget.  The placement found is handed to the engine with each
 * capsule pinned to its node, which makes the plan (and must place it
 * all). */

struct xnode {
	struct ovb_need *m[OVB_NCAP];
	size_t n[OVB_NCAP], cap[OVB_NCAP];
	const char **app;               /* the applications on it, by name */
	const struct ovb_app **def;     /* and their records (NULL: none) */
	size_t napp, capapp;
};

static struct {
	struct xnode *node;
	const struct ovb_node *def;     /* the cluster's nodes */
	size_t n;
	uint64_t grid, tries;
	bool over;                      /* the budget ran out */
	size_t *tuple;                  /* every tuple of m distinct nodes */
	size_t ntuple, m;
} X;

static void
x_init(const struct ovb_node *def, size_t n, uint64_t grid)
{
	X.node = ovb_xcalloc(n + 1, sizeof *X.node);
	X.def = def;
	X.n = n;
	X.grid = grid;
	X.tries = 0;
	X.over = false;
}

static void
x_free(void)
{
	for (size_t i = 0; i < X.n; i++) {
		for (int r = 0; r < OVB_NCAP; r++)
			free(X.node[i].m[r]);
		free(X.node[i].app);
		free(X.node[i].def);
	}
	free(X.node);
	free(X.tuple);
	X.node = NULL;
	X.tuple = NULL;
	X.ntuple = X.m = 0;
}

static void
x_push(size_t i, const struct ovb_need need[OVB_NCAP], const char *app,
	const struct ovb_app *def)
{
	struct xnode *x = &X.node[i];
	for (int r = 0; r < OVB_NCAP; r++)
		if (need[r].used)
			*OVB_PUSH(x->m[r], x->n[r], x->cap[r]) = need[r];
	size_t capdef = x->capapp;
	*OVB_PUSH(x->app, x->napp, x->capapp) = app;
	size_t k = x->napp - 1;
	if (capdef != x->capapp)
		x->def = ovb_xrealloc(x->def, x->capapp, sizeof *x->def);
	x->def[k] = def;
}

static void
x_pop(size_t i, const struct ovb_need need[OVB_NCAP])
{
	struct xnode *x = &X.node[i];
	for (int r = 0; r < OVB_NCAP; r++)
		if (need[r].used)
			x->n[r]--;
	x->napp--;
}

static bool
x_node_ok(size_t i)
{
	for (int r = 0; r < OVB_NCAP; r++) {
		struct ovb_nodestat st;
		if (!X.node[i].n[r])
			continue;
		ovb_node_stat(X.node[i].m[r], X.node[i].n[r], X.def[i].cap[r],
			X.grid, &st);
		if (!st.eq1_ok || !st.eq3_ok)
			return false;
		if (r == OVB_MEM && !ovb_mem_limits_hold(X.node[i].m[r],
		    X.node[i].n[r], NULL, X.def[i].cap[r], X.def[i].pool))
			return false;   /* mem: limits within memory + pool */
	}
	return true;
}

/* Trust 0 between application a (record def) and b (record bdef, or
 * NULL), either way. */
static bool
distrust(const char *a, const struct ovb_app *def, const char *b,
	const struct ovb_app *bdef)
{
	for (size_t i = 0; def && i < def->ntrust; i++)
		if (def->trust[i].v <= 0 && !strcmp(def->trust[i].app, b))
			return true;
	for (size_t i = 0; bdef && i < bdef->ntrust; i++)
		if (bdef->trust[i].v <= 0 && !strcmp(bdef->trust[i].app, a))
			return true;
	return false;
}

/* Puts application app (name, record def, its capsules' needs) on the
 * nodes of tuple t when every rule holds; false (and nothing put) when
 * not. */
static bool
x_place(const char *name, const struct ovb_app *def,
	struct ovb_need (*need)[OVB_NCAP], const size_t *t)
{
	size_t m = def->ncap;
	for (size_t i = 0; i < m; i++) {
		const struct ovb_node *nd = &X.def[t[i]];
		if (def->cap[i].node && strcmp(def->cap[i].node, nd->name))
			return false;
		if (def->spread) {
			const char *v = ovb_node_label(nd, def->spread);
			if (!v)
				return false;
			for (size_t j = 0; j < i; j++) {
				const char *w = ovb_node_label(&X.def[t[j]], def->spread);
				if (!strcmp(v, w))
					return false;
			}
		}
		const struct xnode *x = &X.node[t[i]];
		for (size_t j = 0; j < x->napp; j++)
			if (distrust(name, def, x->app[j], x->def[j]))
				return false;
	}
	size_t i = 0;
	bool ok = true;
	for (; i < m; i++)
		x_push(t[i], need[i], name, def);
	for (size_t j = 0; j < m && ok; j++)
		ok = x_node_ok(t[j]);
	if (!ok)
		while (i-- > 0)
			x_pop(t[i], need[i]);
	return ok;
}

static void
x_unplace(const struct ovb_app *def, struct ovb_need (*need)[OVB_NCAP],
	const size_t *t)
{
	for (size_t i = def->ncap; i-- > 0;)
		x_pop(t[i], need[i]);
}

static void
gen_tuples(size_t n, size_t m, size_t d, size_t *t, bool *used)
{
	if (d == m) {
		memcpy(X.tuple + X.ntuple++ * m, t, m * sizeof *t);
		return;
	}
	for (size_t v = 0; v < n; v++)
		if (!used[v]) {
			used[v] = true;
			t[d] = v;
			gen_tuples(n, m, d + 1, t, used);
			used[v] = false;
		}
}

/* Every tuple of m distinct nodes of the first n, in lexicographic
 * order, into X.tuple; false when there would be none or more than
 * 10^7. */
static bool
x_tuples(size_t n, size_t m)
{
	double count = 1;
	for (size_t i = 0; i < m; i++)
		count *= (double)n - (double)i;
	free(X.tuple);
	X.tuple = NULL;
	X.ntuple = 0;
	X.m = m;
	if (m > n || !m || count > 1e7)
		return false;
	X.tuple = ovb_xmalloc(((size_t)count * m + 1) * sizeof *X.tuple);
	size_t *t = ovb_xcalloc(m + 1, sizeof *t);
	bool *used = ovb_xcalloc(n + 1, sizeof *used);
	gen_tuples(n, m, 0, t, used);
	free(t);
	free(used);
	return true;
}

static bool
x_spend(void)
{
	if (++X.tries > opt_budget)
		X.over = true;
	return !X.over;
}

/* --more: the most copies that fit together, up to target; best[] gets
 * each copy's tuple index. */
static uint64_t x_best;
static size_t *x_stack, *x_beststack;

static void
dfs_more(const struct ovb_app *def, struct ovb_need (*need)[OVB_NCAP],
	size_t start, uint64_t depth, uint64_t target)
{
	if (depth > x_best) {
		x_best = depth;
		memcpy(x_beststack, x_stack, depth * sizeof *x_stack);
	}
	for (size_t i = start; i < X.ntuple && x_best < target; i++) {
		if (!x_spend())
			return;
		const size_t *t = X.tuple + i * X.m;
		if (!x_place(def->name, def, need, t))
			continue;
		x_stack[depth] = i;
		dfs_more(def, need, i, depth + 1, target);
		x_unplace(def, need, t);
		if (X.over)
			return;
	}
}

/* The needs of a placed capsule as ovb-place models it (formats/plan.md:
 * the plan's tau and O, the profile's sigma, rho and U). */
static void
placed_needs(const struct ovb_placed *p, struct ovb_need n[OVB_NCAP])
{
	memset(n, 0, OVB_NCAP * sizeof *n);
	for (int r = 0; r < OVB_NCAP; r++) {
		if (!p->has_qos[r])
			continue;
		n[r] = (struct ovb_need){ .used = true, .sigma = p->sigma[r],
			.rho = p->rho[r], .tau = p->tau[r], .O = p->O[r],
			.level = r == OVB_MEM, .limit = r == OVB_MEM ? p->limit :
			0 };
		const struct ovb_qos *q = p->profile ? ovb_profile_find(&S.prof,
			p->profile, (enum ovb_res)r) : NULL;
		if (q) {
			n[r].sigma = q->sigma;
			n[r].rho = q->rho;
			n[r].h = &q->U.h;
			n[r].interval = q->U.interval;
			if (r == OVB_MEM)
				n[r].limit = q->limit;
		}
	}
}

static int place_pinned(bool with_plan, struct ovb_plan *plan);

/* Places the applications apps[a], named names[a], each capsule i pinned
 * to node tuples[a][i] of nodes, on cur.cluster [on top of S.plan]. */
static int
place_pins(const struct ovb_app *const *apps, size_t napps,
	const char *const *names, const size_t *const *tuples,
	const struct ovb_node *nodes, bool with_plan, struct ovb_plan *plan)
{
	struct ovb_apps out = { 0 };
	struct ovb_capsule *caps = NULL;
	size_t total = 0, k = 0;
	for (size_t a = 0; a < napps; a++)
		total += apps[a]->ncap;
	caps = ovb_xmalloc((total + 1) * sizeof *caps);
	for (size_t a = 0; a < napps; a++) {
		struct ovb_app *c = OVB_PUSH(out.app, out.n, out.cap);
		*c = *apps[a];
		c->name = (char *)names[a];
		c->cap = caps + k;
		for (size_t i = 0; i < c->ncap; i++) {
			caps[k] = apps[a]->cap[i];
			caps[k++].node = nodes[tuples[a][i]].name;
		}
	}
	cur.apps = &out;
	int st = place_pinned(with_plan, plan);
	cur.apps = NULL;
	free(out.app);
	free(caps);
	return st;
}

/* Places the pinned placement; it must place everything. */
static int
place_pinned(bool with_plan, struct ovb_plan *plan)
{
	memset(plan, 0, sizeof *plan);
	int st = run_place(with_plan, plan);
	size_t old = with_plan ? S.plan.nrej : 0;   /* the plan's own */
	if (!st && plan->nrej > old) {
		ovb_warn("internal error: the engine rejects %s of the placement "
			"the exhaustive search found (%s)", plan->rej[old].app,
			plan->rej[old].reason);
		st = OVB_ESOFT;
	}
	return st;
}

/* --more --exhaustive at one point: from the policy's count (and plan),
 * the most copies of app (at the point's O) that fit together. */
static int
more_exhaustive(const struct ovb_app *app, uint64_t first, uint64_t target,
	uint64_t *count, enum ovb_fit_bound *bound, struct ovb_plan *plan)
{
	uint64_t grid = S.have_plan ? S.plan.grid : opt_grid;
	if (!x_tuples(S.cluster.n, app->ncap)) {
		*bound = OVB_FIT_AT_LEAST;
		return 0;
	}
	x_init(S.cluster.node, S.cluster.n, grid);
	for (size_t i = 0; S.have_plan && i < S.plan.n; i++) {
		struct ovb_need n[OVB_NCAP];
		placed_needs(&S.plan.p[i], n);
		x_push(ovb_names_get(&S.cluster.byname, S.plan.p[i].node), n,
			S.plan.p[i].app, NULL);
	}
	struct ovb_need (*need)[OVB_NCAP] = ovb_xcalloc(app->ncap,
		sizeof *need);
	for (size_t i = 0; i < app->ncap; i++)
		needs_of(app, &app->cap[i], need[i]);
	x_best = 0;
	x_stack = ovb_xcalloc(target + 1, sizeof *x_stack);
	x_beststack = ovb_xcalloc(target + 1, sizeof *x_beststack);
	dfs_more(app, need, 0, 0, target);
	int st = 0;
	if (X.over)
		*bound = OVB_FIT_AT_LEAST;
	if (x_best > *count) {
		const struct ovb_app **apps = ovb_xmalloc(x_best * sizeof *apps);
		char **names = ovb_xmalloc(x_best * sizeof *names);
		const size_t **tuples = ovb_xmalloc(x_best * sizeof *tuples);
		for (uint64_t k = 0; k < x_best; k++) {
			apps[k] = app;
			names[k] = ovb_xmalloc(strlen(app->name) + 24);
			sprintf(names[k], "%s+%llu", app->name,
				(unsigned long long)(first + k));
			tuples[k] = X.tuple + x_beststack[k] * X.m;
		}
		struct ovb_plan pl;
		if (!(st = place_pins(apps, x_best, (const char *const *)names,
		    tuples, S.cluster.node, S.have_plan, &pl))) {
			ovb_plan_free(plan);
			*plan = pl;
			*count = x_best;
		}
		for (uint64_t k = 0; k < x_best; k++)
			free(names[k]);
		free(names);
		free(apps);
		free(tuples);
	}
	free(need);
	free(x_stack);
	free(x_beststack);
	x_free();
	return st;
}

/* --nodes --exhaustive: can the apps be placed on k nodes of the shape?
 * tup[m], ntup[m]: the tuples of m distinct nodes of the k; the tuples
 * found go to at[] (pointers into tup). */
static bool
dfs_nodes(const struct ovb_app *const *apps, size_t napps,
	struct ovb_need (*const *need)[OVB_NCAP], size_t a, size_t used,
	size_t k, size_t *const *tup, const size_t *ntup, const size_t **at)
{
	if (a == napps)
		return true;
	const struct ovb_app *app = apps[a];
	size_t m = app->ncap, limit = used + m < k ? used + m : k;
	for (size_t i = 0; i < ntup[m]; i++) {
		const size_t *t = tup[m] + i * m;
		size_t top = 0;
		for (size_t j = 0; j < m; j++)
			top = t[j] > top ? t[j] : top;
		if (top >= limit)
			continue;
		if (!x_spend())
			return false;
		if (!x_place(app->name, app, need[a], t))
			continue;
		at[a] = t;
		bool found = dfs_nodes(apps, napps, need, a + 1, top + 1 > used ?
			top + 1 : used, k, tup, ntup, at);
		x_unplace(app, need[a], t);
		if (found)
			return true;
		if (X.over)
			return false;
	}
	return false;
}

/* ---- --more ---- */

static const struct ovb_app *
find_app(const char *name)
{
	const struct ovb_app *found = NULL;
	for (size_t i = 0; i < S.apps.n; i++)
		if (!strcmp(S.apps.app[i].name, name) &&
		    S.apps.app[i].op != OVB_OP_TERMINATE)
			found = &S.apps.app[i];
	return found;
}

/* k of APP+k, or 0. */
static uint64_t
copy_number(const char *name, const char *app)
{
	size_t n = strlen(app);
	uint64_t k;
	if (strncmp(name, app, n) || name[n] != '+' || !name[n + 1] ||
	    !ovb_parse_u64(name + n + 1, &k))
		return 0;
	return k;
}

/* The copies first..first+n-1 of the application at tolerance O (NAN: as
 * given), sharing its capsules. */
static void
make_copies(const struct ovb_app *app, uint64_t first, uint64_t n,
	double O, struct ovb_apps *out)
{
	memset(out, 0, sizeof *out);
	struct ovb_capsule *caps = app->cap;
	if (!isnan(O)) {
		caps = ovb_xmalloc(app->ncap * sizeof *caps);
		memcpy(caps, app->cap, app->ncap * sizeof *caps);
		for (size_t i = 0; i < app->ncap; i++)
			caps[i].O = NAN;
	}
	for (uint64_t k = 0; k < n; k++) {
		struct ovb_app *c = OVB_PUSH(out->app, out->n, out->cap);
		*c = *app;
		c->op = OVB_OP_NEW;
		c->cap = caps;
		if (!isnan(O))
			c->O = O;
		char name[OVB_MAXNAME + 32];
		snprintf(name, sizeof name, "%s+%llu", app->name,
			(unsigned long long)(first + k));
		c->name = ovb_xstrdup(name);
	}
}

static void
free_copies(struct ovb_apps *a, const struct ovb_app *app)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->app[i].name);
	if (a->n && a->app[0].cap != app->cap)
		free(a->app[0].cap);
	free(a->app);
	memset(a, 0, sizeof *a);
}

/* Sharc's admission bounds the copies: per resource, the cluster's
 * capacity over a copy's Eq. 1 terms (each over its own tau).  Returns
 * the bound plus a margin for rounding, at most opt_max. */
static uint64_t
admission_bound(const struct ovb_app *app)
{
	double bound = INFINITY;
	for (int r = 0; r < OVB_NCAP; r++) {
		double term = 0, cap = 0;
		for (size_t i = 0; i < app->ncap; i++) {
			struct ovb_need need[OVB_NCAP];
			if (!needs_of(app, &app->cap[i], need) && need[r].used)
				term += ovb_eq1_term(&need[r], need[r].tau);
		}
		for (size_t i = 0; i < S.cluster.n; i++)
			cap += S.cluster.node[i].cap[r];
		if (term > 0)
			bound = fmin(bound, cap / term);
	}
	return bound < (double)opt_max ? (uint64_t)bound + 2 : opt_max;
}

/* One point of --more: copies at tolerance O (NAN: as given). */
static int
more_at(const struct ovb_app *app, uint64_t first, double O,
	struct ovb_fitpoint *pt, struct ovb_plan *plan, struct ovb_apps *placed)
{
	uint64_t n = admission_bound(app);
	int st;
	for (;;) {
		struct ovb_apps copies;
		make_copies(app, first, n, O, &copies);
		cur.apps = &copies;
		st = run_place(S.have_plan, plan);
		/* the copies placed (a prefix), their rejections dropped */
		uint64_t count = 0;
		bool *is_placed = ovb_xcalloc(n + 1, sizeof *is_placed);
		for (size_t i = 0; !st && i < plan->n; i++) {
			uint64_t k = copy_number(plan->p[i].app, app->name);
			if (k >= first && k < first + n && !is_placed[k - first]) {
				is_placed[k - first] = true;
				count++;
			}
		}
		for (uint64_t k = 0; !st && k < count; k++)
			if (!is_placed[k]) {
				ovb_warn("internal error: copy %llu rejected before a "
					"later one was placed", (unsigned long long)k);
				st = OVB_ESOFT;
			}
		free(is_placed);
		size_t j = 0;
		for (size_t i = 0; !st && i < plan->nrej; i++) {
			uint64_t k = copy_number(plan->rej[i].app, app->name);
			if (k >= first && k < first + n) {
				free(plan->rej[i].app);
				free(plan->rej[i].reason);
			} else
				plan->rej[j++] = plan->rej[i];
		}
		if (!st)
			plan->nrej = j;
		if (!st && count == n && n < opt_max) {
			/* more than admission lets in: cannot be, but say so */
			free_copies(&copies, app);
			ovb_plan_free(plan);
			n = n * 4 < opt_max ? n * 4 : opt_max;
			continue;
		}
		if (!st) {
			pt->count = count;
			pt->bound = count == opt_max ? OVB_FIT_AT_LEAST : OVB_FIT_EXACT;
		}
		if (!st && opt_exhaustive && count < opt_max) {
			struct ovb_app def = copies.app[0];
			def.name = app->name;
			st = more_exhaustive(&def, first, n, &pt->count, &pt->bound,
				plan);
			count = pt->count;
		}
		if (!st) {
			for (size_t c = 0; c < S.cluster.n; c++) {
				uint64_t m = 0;
				for (size_t i = 0; i < plan->n; i++) {
					uint64_t k = copy_number(plan->p[i].app, app->name);
					if (k >= first && k < first + n &&
					    !strcmp(plan->p[i].node, S.cluster.node[c].name))
						m++;
				}
				if (m) {
					struct ovb_fitwhere *w = OVB_PUSH(pt->where,
						pt->nwhere, pt->capwhere);
					w->node = ovb_xstrdup(S.cluster.node[c].name);
					w->capsules = m;
				}
			}
			for (size_t i = count; i < copies.n; i++)
				free(copies.app[i].name);
			if (!count && copies.n && copies.app[0].cap != app->cap)
				free(copies.app[0].cap);    /* free_copies cannot */
			copies.n = count;
			*placed = copies;
		} else
			free_copies(&copies, app);
		return st;
	}
}

static int
answer_more(struct ovb_fit *fit, struct ovb_plan *plan,
	struct ovb_apps *placed, const struct ovb_app **tmpl)
{
	const struct ovb_app *app = find_app(opt_more);
	if (!app)
		return ovb_err_at(S.apps_file, 0, "no application %s (--more) in "
			"the apps file", opt_more);
	*tmpl = app;
	int st = 0;
	for (size_t i = 0; i < app->ncap && !st; i++) {
		struct ovb_need need[OVB_NCAP];
		st = needs_of(app, &app->cap[i], need);
		if (!st && app->cap[i].node && ovb_names_get(&S.cluster.byname,
		    app->cap[i].node) == OVB_NONE)
			st = ovb_err_at(S.apps_file, app->line, "application %s, "
				"capsule %s: node=%s is not in the cluster (%s)",
				app->name, app->cap[i].name, app->cap[i].node,
				S.cluster_file);
	}
	for (size_t i = 0; !st && S.have_plan && i < S.plan.n; i++)
		if (ovb_names_get(&S.cluster.byname, S.plan.p[i].node) == OVB_NONE)
			st = ovb_err_at(S.plan_file, S.plan.p[i].line, "%s/%s is "
				"placed on node '%s', which is not in the cluster (%s)",
				S.plan.p[i].app, S.plan.p[i].capsule, S.plan.p[i].node,
				S.cluster_file);
	if (st)
		return st;
	uint64_t first = 1;
	for (size_t i = 0; S.have_plan && i < S.plan.n + S.plan.nrej; i++) {
		const char *a = i < S.plan.n ? S.plan.p[i].app :
			S.plan.rej[i - S.plan.n].app;
		uint64_t k = copy_number(a, app->name);
		if (k >= first)
			first = k + 1;
	}
	if (strlen(app->name) + 21 > OVB_MAXNAME)
		return ovb_err_at(S.apps_file, app->line, "application %s: its "
			"copies' names APP+N would be longer than %d bytes",
			app->name, OVB_MAXNAME);
	fit->q = OVB_FIT_MORE;
	fit->name = ovb_xstrdup(app->name);
	cur.cluster = &S.cluster;
	size_t npt = opt_ncurve ? opt_ncurve : 1;
	for (size_t i = 0; i < npt && !st; i++) {
		struct ovb_fitpoint *pt = OVB_PUSH(fit->p, fit->n, fit->cap_p);
		memset(pt, 0, sizeof *pt);
		pt->O = opt_ncurve ? opt_curve[i] : least_O(&app, 1);
		struct ovb_plan pl;
		struct ovb_apps ap;
		st = more_at(app, first, opt_ncurve ? opt_curve[i] : NAN, pt, &pl,
			&ap);
		if (st)
			break;
		if (i + 1 < npt) {
			ovb_plan_free(&pl);
			free_copies(&ap, app);
		} else {
			*plan = pl;
			*placed = ap;
		}
		if (ovb_verbose)
			ovb_warn("O = %g: %llu more copies of %s", pt->O,
				(unsigned long long)pt->count, app->name);
	}
	return st;
}

/* ---- --nodes ---- */

static const struct ovb_node *
the_shape(void)
{
	if (shape.n)
		return &shape.node[0];
	size_t i = S.have_cluster ? ovb_names_get(&S.cluster.byname,
		opt_nodes) : OVB_NONE;
	return i == OVB_NONE ? NULL : &S.cluster.node[i];
}

/* The cluster of k nodes NAME-1..NAME-k like the shape. */
static void
make_nodes(const struct ovb_node *sh, uint64_t k, struct ovb_cluster *c)
{
	memset(c, 0, sizeof *c);
	for (uint64_t i = 1; i <= k; i++) {
		struct ovb_node *n = OVB_PUSH(c->node, c->n, c->cap);
		*n = *sh;
		char name[OVB_MAXNAME + 32];
		snprintf(name, sizeof name, "%s-%llu", sh->name,
			(unsigned long long)i);
		n->name = ovb_xstrdup(name);
		n->line = 0;
		ovb_names_add(&c->byname, n->name, c->n - 1);
	}
}

static void
free_nodes(struct ovb_cluster *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->node[i].name);
	free(c->node);
	ovb_names_free(&c->byname);
	memset(c, 0, sizeof *c);
}

/* The apps at tolerance O (NAN: as given), sharing the capsules' names. */
static void
apps_at(double O, struct ovb_apps *out, struct ovb_capsule **caps,
	size_t *ncaps)
{
	*out = S.apps;
	out->app = ovb_xmalloc((S.apps.n + 1) * sizeof *out->app);
	memcpy(out->app, S.apps.app, S.apps.n * sizeof *out->app);
	*caps = NULL;
	*ncaps = 0;
	if (isnan(O))
		return;
	size_t total = 0;
	for (size_t a = 0; a < S.apps.n; a++)
		total += S.apps.app[a].ncap;
	*caps = ovb_xmalloc((total + 1) * sizeof **caps);
	for (size_t a = 0; a < S.apps.n; a++) {
		struct ovb_app *p = &out->app[a];
		memcpy(*caps + *ncaps, p->cap, p->ncap * sizeof **caps);
		p->cap = *caps + *ncaps;
		*ncaps += p->ncap;
		for (size_t i = 0; i < p->ncap; i++)
			p->cap[i].O = NAN;
		if (p->op != OVB_OP_TERMINATE)
			p->O = O;
	}
}

/* A lower bound of the nodes any placement needs: admission (the apps'
 * Eq. 1 terms over the shape's capacity, less one for rounding) and an
 * application's capsules on distinct nodes.  Also the capsules in all. */
static uint64_t
nodes_lower(const struct ovb_apps *apps, const struct ovb_node *sh,
	uint64_t *ncaps)
{
	double need[OVB_NCAP] = { 0 };
	uint64_t lb = 1;
	*ncaps = 0;
	for (size_t a = 0; a < apps->n; a++) {
		const struct ovb_app *app = &apps->app[a];
		if (app->op == OVB_OP_TERMINATE)
			continue;
		*ncaps += app->ncap;
		if (app->ncap > lb)
			lb = app->ncap;
		for (size_t i = 0; i < app->ncap; i++) {
			struct ovb_need n[OVB_NCAP];
			if (needs_of(app, &app->cap[i], n))
				continue;
			for (int r = 0; r < OVB_NCAP; r++)
				if (n[r].used)
					need[r] += ovb_eq1_term(&n[r], n[r].tau);
		}
	}
	for (int r = 0; r < OVB_NCAP; r++) {
		double k = floor(need[r] / sh->cap[r]);
		if (k - 1 > (double)lb)
			lb = k - 1 < 1e15 ? (uint64_t)(k - 1) : (uint64_t)1e15;
	}
	return lb;
}

static bool
all_placed(const struct ovb_plan *p)
{
	return p->nrej == 0;
}

/* --nodes --exhaustive at one point: fewer nodes than the policy's count
 * pt->count, from the lower bound lb up; the first k that holds the apps
 * is the answer, exact when every smaller k was searched to the end. */
static int
nodes_exhaustive(const struct ovb_node *sh, const struct ovb_apps *apps,
	uint64_t lb, struct ovb_fitpoint *pt, struct ovb_plan *plan,
	struct ovb_cluster *cl)
{
	uint64_t grid = opt_grid;
	size_t napps = 0, maxm = 0;
	const struct ovb_app **list = ovb_xmalloc((apps->n + 1) * sizeof *list);
	struct ovb_need (**need)[OVB_NCAP] = ovb_xcalloc(apps->n + 1,
		sizeof *need);
	for (size_t a = 0; a < apps->n; a++) {
		const struct ovb_app *app = &apps->app[a];
		list[napps] = app;
		need[napps] = ovb_xcalloc(app->ncap, sizeof **need);
		for (size_t i = 0; i < app->ncap; i++)
			needs_of(app, &app->cap[i], need[napps][i]);
		maxm = app->ncap > maxm ? app->ncap : maxm;
		napps++;
	}
	const size_t **at = ovb_xcalloc(napps + 1, sizeof *at);
	size_t **tup = ovb_xcalloc(maxm + 1, sizeof *tup);
	size_t *ntup = ovb_xcalloc(maxm + 1, sizeof *ntup);
	bool over = false;
	int st = 0;
	for (uint64_t k = lb; k < pt->count && !st; k++) {
		struct ovb_cluster c;
		make_nodes(sh, k, &c);
		for (size_t m = 1; m <= maxm; m++) {
			x_tuples(k, m);
			tup[m] = X.tuple;
			ntup[m] = X.ntuple;
			X.tuple = NULL;
		}
		x_init(c.node, c.n, grid);
		bool found = dfs_nodes(list, napps, (struct ovb_need (*const *)
			[OVB_NCAP])need, 0, 0, k, tup, ntup, at);
		over |= X.over;
		if (found) {
			const char **names = ovb_xmalloc((napps + 1) * sizeof *names);
			for (size_t a = 0; a < napps; a++)
				names[a] = list[a]->name;
			struct ovb_plan pl;
			cur.cluster = &c;
			if (!(st = place_pins(list, napps, names, at, c.node,
			    false, &pl))) {
				ovb_plan_free(plan);
				free_nodes(cl);
				*plan = pl;
				*cl = c;
				memset(&c, 0, sizeof c);
				pt->count = k;
			}
			free(names);
		}
		free_nodes(&c);
		x_free();
		for (size_t m = 1; m <= maxm; m++)
			free(tup[m]);
		if (found)
			break;
	}
	if (!st && over)
		pt->bound = OVB_FIT_AT_MOST;
	for (size_t a = 0; a < napps; a++)
		free(need[a]);
	free(need);
	free(list);
	free(at);
	free(tup);
	free(ntup);
	return st;
}

/* Why no number of nodes holds the apps, for the messages. */
static char never_why[1024];

/* A capsule whose Eq. 1 term is above an empty node of the shape's
 * capacity (then no number of nodes holds the apps), into never_why. */
static void
never_capsule(const struct ovb_apps *apps, const struct ovb_node *sh)
{
	for (size_t a = 0; a < apps->n; a++)
		for (size_t i = 0; i < apps->app[a].ncap; i++) {
			const struct ovb_app *app = &apps->app[a];
			struct ovb_need n[OVB_NCAP];
			if (app->op == OVB_OP_TERMINATE ||
			    needs_of(app, &app->cap[i], n))
				continue;
			for (int r = 0; r < OVB_NCAP; r++) {
				double t = n[r].used ? ovb_eq1_term(&n[r],
					n[r].tau) : 0;
				if (t <= sh->cap[r])
					continue;
				snprintf(never_why, sizeof never_why, "application "
					"%s, capsule %s: its %s reservation %g %s is "
					"above a node's %g %s", app->name,
					app->cap[i].name, ovb_res_name((enum ovb_res)r),
					t, ovb_res_rate_unit((enum ovb_res)r),
					sh->cap[r], ovb_res_rate_unit((enum ovb_res)r));
				return;
			}
		}
}

/* One point of --nodes at tolerance O (NAN: as given). */
static int
nodes_at(const struct ovb_node *sh, double O, struct ovb_fitpoint *pt,
	struct ovb_plan *plan, struct ovb_cluster *cl)
{
	struct ovb_apps apps;
	struct ovb_capsule *caps;
	size_t ncaps;
	uint64_t total;
	apps_at(O, &apps, &caps, &ncaps);
	int st = 0;
	cur.apps = &apps;
	uint64_t k = nodes_lower(&apps, sh, &total), lb = k;
	uint64_t last = total < opt_max ? total : opt_max;
	pt->bound = OVB_FIT_NEVER;
	pt->count = 0;
	memset(plan, 0, sizeof *plan);
	memset(cl, 0, sizeof *cl);
	snprintf(never_why, sizeof never_why, "more nodes than capsules do "
		"not help");
	if (k > last)
		never_capsule(&apps, sh);
	for (; !st && k <= last; k++) {
		make_nodes(sh, k, cl);
		cur.cluster = cl;
		st = run_place(false, plan);
		if (!st && all_placed(plan)) {
			pt->count = k;
			pt->bound = OVB_FIT_EXACT;
			break;
		}
		if (!st && plan->nrej)   /* why the most nodes tried fail */
			snprintf(never_why, sizeof never_why, "on %llu nodes, "
				"application %s is rejected: %s",
				(unsigned long long)k, plan->rej[0].app,
				plan->rej[0].reason);
		free_nodes(cl);
		ovb_plan_free(plan);
		if (ovb_progress_wanted())
			ovb_progress("nodes", (double)k, (double)last);
	}
	ovb_progress_end();
	if (!st && pt->bound == OVB_FIT_NEVER && last < total) {
		pt->bound = OVB_FIT_AT_LEAST;
		pt->count = last + 1;
	}
	if (!st && opt_exhaustive && pt->bound == OVB_FIT_EXACT)
		st = nodes_exhaustive(sh, &apps, lb, pt, plan, cl);
	free(apps.app);
	free(caps);
	return st;
}

static int
answer_nodes(struct ovb_fit *fit, struct ovb_plan *plan,
	struct ovb_cluster *cl)
{
	const struct ovb_node *sh = the_shape();
	if (!sh) {
		if (!S.have_cluster)
			ovb_warn("--nodes: '%s' names a node, but no cluster file "
				"was given", opt_nodes);
		else
			ovb_warn("--nodes: no node '%s' in %s", opt_nodes,
				S.cluster_file);
		return OVB_EUSAGE;
	}
	int st = 0;
	for (size_t a = 0; a < S.apps.n && !st; a++) {
		const struct ovb_app *app = &S.apps.app[a];
		for (size_t i = 0; i < app->ncap && !st; i++) {
			struct ovb_need need[OVB_NCAP];
			st = needs_of(app, &app->cap[i], need);
			if (!st && app->cap[i].node)
				st = ovb_err_at(S.apps_file, app->line, "application "
					"%s, capsule %s: node=%s pins it, but --nodes "
					"places on nodes of its own (%s-1, %s-2, ...)",
					app->name, app->cap[i].name, app->cap[i].node,
					sh->name, sh->name);
		}
	}
	for (size_t a = 0; a < S.apps.n && !st && opt_exhaustive; a++)
		if (S.apps.app[a].op != OVB_OP_NEW)
			st = ovb_err_at(S.apps_file, S.apps.app[a].line, "application "
				"%s: op=%s, but --nodes --exhaustive places new applications "
				"only", S.apps.app[a].name, S.apps.app[a].op ==
				OVB_OP_MODIFY ? "modify" : "terminate");
	if (st)
		return st;
	fit->q = OVB_FIT_NODES;
	fit->name = ovb_xstrdup(sh->name);
	fit->cap[OVB_CPU] = sh->cap[OVB_CPU];
	fit->cap[OVB_NET] = sh->cap[OVB_NET];
	const struct ovb_app **all = ovb_xmalloc((S.apps.n + 1) * sizeof *all);
	size_t nall = 0;
	for (size_t a = 0; a < S.apps.n; a++)
		if (S.apps.app[a].op != OVB_OP_TERMINATE)
			all[nall++] = &S.apps.app[a];
	size_t npt = opt_ncurve ? opt_ncurve : 1;
	for (size_t i = 0; i < npt && !st; i++) {
		struct ovb_fitpoint *pt = OVB_PUSH(fit->p, fit->n, fit->cap_p);
		memset(pt, 0, sizeof *pt);
		pt->O = opt_ncurve ? opt_curve[i] : least_O(all, nall);
		struct ovb_plan pl;
		struct ovb_cluster c;
		st = nodes_at(sh, opt_ncurve ? opt_curve[i] : NAN, pt, &pl, &c);
		if (st)
			break;
		if (i + 1 < npt) {
			ovb_plan_free(&pl);
			free_nodes(&c);
		} else {
			*plan = pl;
			*cl = c;
		}
		if (ovb_verbose && pt->bound == OVB_FIT_NEVER)
			ovb_warn("O = %g: no number of nodes of %s holds the "
				"applications (%s)", pt->O, sh->name, never_why);
		else if (ovb_verbose)
			ovb_warn("O = %g: %s%llu nodes of %s", pt->O,
				pt->bound == OVB_FIT_AT_LEAST ? "at least " : "",
				(unsigned long long)pt->count, sh->name);
	}
	free(all);
	return st;
}

/* ---- main ---- */

static int
write_out(const char *path, int (*w)(FILE *, const void *), const void *obj)
{
	struct ovb_out out;
	int st = ovb_out_open(&out, path);
	if (!st)
		st = ovb_out_end(&out, w(out.f, obj));
	return st;
}

static int w_fit(FILE *f, const void *o) { return ovb_fit_write(f, o); }
static int w_cluster(FILE *f, const void *o) { return ovb_cluster_write(f, o); }
static int w_apps(FILE *f, const void *o) { return ovb_apps_write(f, o); }
static int w_plan(FILE *f, const void *o) { return ovb_plan_write(f, o); }

int
main(int argc, char **argv)
{
	int first, status = 0;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	S.no_plan = !opt_more;
	S.what = opt_more ? "ovb-fit --more (cluster, apps, profile, plan)" :
		"ovb-fit --nodes (apps, profile, and a cluster for a named shape)";
	status = ovb_read_inputs(argc - first, argv + first, ovb_take_place, &S);
	if (!status && !S.have_apps) {
		ovb_warn("need an apps file (see --help)");
		status = OVB_EUSAGE;
	}
	if (!status && opt_more && !S.have_cluster) {
		ovb_warn("--more needs a cluster file (see --help)");
		status = OVB_EUSAGE;
	}
	/* unmeasured is not zero (lib/unmeasured.c), as in ovb-place */
	if (!status)
		status = ovb_apps_measured(&S.apps, S.apps_file, &S.prof,
			&S.cluster);
	if (status)
		return status;
	struct ovb_fit fit = { .search = ovb_xstrdup(opt_exhaustive ?
		"exhaustive" : opt_policy) };
	struct ovb_plan plan = { 0 };
	struct ovb_apps placed = { 0 };
	struct ovb_cluster cl = { 0 };
	const struct ovb_app *tmpl = NULL;
	status = opt_more ? answer_more(&fit, &plan, &placed, &tmpl) :
		answer_nodes(&fit, &plan, &cl);
	bool never = !status && fit.n && fit.p[fit.n - 1].bound ==
		OVB_FIT_NEVER;
	if (!status)
		status = write_out(ovb_opt_output, w_fit, &fit);
	if (!status && never) {
		if (!ovb_quiet)
			ovb_warn("no number of nodes of %s holds the applications "
				"(%s); nothing else written", fit.name, never_why);
		status = OVB_FAIL;
	}
	if (!status && opt_plan_out)
		status = write_out(opt_plan_out, w_plan, &plan);
	if (!status && opt_apps_out)
		status = write_out(opt_apps_out, w_apps, &placed);
	if (!status && opt_cluster_out)
		status = write_out(opt_cluster_out, w_cluster, &cl);
	ovb_fit_free(&fit);
	ovb_plan_free(&plan);
	if (tmpl)
		free_copies(&placed, tmpl);
	free_nodes(&cl);
	return status;
}
