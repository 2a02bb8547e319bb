/* ovb-check: verify a placement plan against the cluster, the applications
 * and their profiles; the CI gate for plans.
 *
 * Reads one ovb-cluster, one or more ovb-apps (or Sharc RSL) files taken
 * as one arrival stream, one ovb-plan and any number of ovb-profile files,
 * in any order, told apart by their magic line.  Recomputes every capsule's
 * effective QoS (sigma, rho, tau, O, U per resource; apps overrides over
 * the profile; plain reservations as point masses) and, on every node and
 * resource, Eq. 1 (with tau_min, the (1 - O) factors and the lower bounds)
 * and Eq. 3 (Pr(Y > C) <= O_min, Y on the grid of the largest bin width,
 * or C/POINTS with the plan's grid record, in exact rational arithmetic
 * unless --float); checks distinct nodes per application, trust, pinning,
 * that every node exists, and that the plan's qos, cpu-resv, tbucket and
 * risk records state what was recomputed.  With --mode tod, Eq. 1 and
 * Eq. 3 of the rate resources are decided in each of the 48 hours of a
 * weekday and a weekend day instead (lib/tod.c, ovb_tod_node), on the
 * members' time-of-day windows; an hour where a member has no samples is
 * reported (unmeasured), never decided as if its usage were 0.  With
 * --mode joint --series FILE (or a plan of mode joint), lib/joint.c's test
 * on the members' aligned samples replaces Eq. 1 and Eq. 3 of the rates
 * (over the slots of --slots, else of the plan's mode line),
 * decided by ovb_nstate_judge as ovb-place decides it (violation joint; a
 * capsule without samples: unmeasured).  Memory is judged by the plan's
 * mem-rule record (or --mem-rule): pool, the requests within C, the
 * limits within C + pool and Eq. 3; promise, Eq. 3 alone against O_mem
 * (the qos records still state each capsule's own O).
 *
 * Invariants: every input is read and cross-checked before anything is
 * written, so bad input (status 65, with FILE:LINE) leaves stdout empty;
 * each violation is one line "violation NODE RES KIND ..." ("-" for no node
 * or resource), in a fixed order (capsules in plan order, applications,
 * nodes in cluster order, unknown nodes), so the same inputs give the same
 * bytes; status 0 when nothing is violated, 1 otherwise. */
#include <argp.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_FLOAT = 0x100, OPT_AT, OPT_MODE };

static bool opt_float;
static bool opt_tod;            /* --mode tod: Eq. 1 and 3 per window */
static bool opt_joint;          /* --mode joint (or a plan of mode joint) */
static struct ovb_series_set jss;       /* its samples (--series) */
static struct ovb_joint jt;
static int tod_status;          /* bad input found by the windowed test */
static bool mem_promise;        /* memory judged by the promise rule: */
static double mem_O;            /* its O_mem (NAN: the capsules' own) */
static bool at_given;
static uint64_t opt_at;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Arithmetic:", 1 },
	{ "float", OPT_FLOAT, NULL, 0,
	  "Eq. 3 in doubles (as ovb-place computes it) instead of exact "
	  "rationals", 0 },
	{ "mode", OPT_MODE, "MODE", 0,
	  "eq1 (default): Eq. 1 and Eq. 3 on each capsule's whole U; tod: "
	  "on cpu, net and net-rx, in every window of the day (weekday and "
	  "weekend hours, ovb-usage --tod): a window where a capsule has no "
	  "samples is a violation 'unmeasured', never taken as 0; a missing "
	  "risk record is not a violation (it states the whole-U numbers); "
	  "joint (with --series; a plan of mode joint is judged so): on cpu, "
	  "net and net-rx, over the slots where a capsule of the node has a "
	  "sample, the fraction of slots whose sum is above C at most O_min, "
	  "in place of Eq. 1 and 3 (a capsule without samples is a violation "
	  "'unmeasured', never taken as 0)", 0 },
	{ NULL, 0, NULL, 0, "Validity:", 2 },
	{ "at", OPT_AT, "T", 0,
	  "Check the plan at time T [s since the epoch]: a plan whose "
	  "valid-until record, or its profiles' earliest forecast "
	  "(ovb-usage --horizon), is at or before T is a violation "
	  "(expired)", 0 },
	{ 0 }
};

static const char doc[] =
	"Verify a placement plan: Eq. 1 and Eq. 3 on every node and resource, "
	"distinct nodes, trust, pinning, capacities and the stated numbers."
	"\v"
	"Inputs, in any order, told apart by their first record: one "
	"ovb-cluster, one or more ovb-apps (several are one arrival stream: "
	"op=modify replaces, op=terminate removes), one ovb-plan, and the "
	"ovb-profile files the applications name (none when all capsules are "
	"plain).  Each violation is one line on stdout:\n\n"
	"  violation NODE RES KIND DETAILS [capsules APP/CAPSULE,...]\n\n"
	"with RES cpu, net, net-rx, mem or - and KIND one of: eq1 (Eq. 1 load "
	"above the "
	"capacity), lb (the same, only because of lower bounds), eq3 "
	"(Pr(Y>C) above O_min; for mem with the OOM exposure E[(Y-C)+] in B), "
	"nsigma (a plan of mode nsigma N: the capsules' means + N sqrt(their "
	"variances) above the capacity, in place of eq3), "
	"request (mem: the sum of the requests above the memory), limit (mem: "
	"the sum of the limits above the memory plus the node's mem-pool; "
	"neither under the memory rule promise, where eq3 against O_mem is "
	"memory's only rule), "
	"distinct (two capsules of an application on "
	"one node), spread (two on one value of the application's spread "
	"label, or on a node without it), trust (applications with trust 0 share a node), pin (a "
	"pinned capsule elsewhere), node (a node not in the cluster), "
	"capacity (a risk record's CAPACITY is not the cluster's), profile "
	"(the place record's profile is not the apps file's), qos, cpu-resv, "
	"tbucket, risk (a stated record missing, superfluous or with other "
	"numbers than recomputed: qos values to a relative 1e-9, PR to 1e-9, "
	"LOAD to a relative 1e-9, O_MIN and CAPACITY exactly), unplaced and "
	"incomplete (an application neither placed nor rejected, or placed "
	"in part), target (with --target: a number beyond a kernel limit, or "
	"a node the kernel would not admit, as ovb-enforce would refuse "
	"it), expired (with --at T: the plan's valid-until, or the earliest "
	"forecast of its profiles, is at or before T), unmeasured (--mode tod: "
	"a window where a capsule has no samples; --mode joint: a capsule "
	"without samples), joint (--mode joint: more than O_min of the slots "
	"where a capsule of the node has a sample are above C), "
	"beyond-forecast (the "
	"plan's valid-until is after the earliest forecast of its profiles, "
	"when every cpu, net and net-rx profile carries one).\n\n"
	"Eq. 3 is decided exactly: Pr(Y > C) as a rational from the "
	"histograms' counts, against the exact value of O_min's double.  "
	"Pr(Y > C) counts the grid points k*g > C strictly.\n\n"
	"EXAMPLES:\n"
	"  ovb-check cluster.txt apps.txt plan.txt web.profile db.profile\n"
	"  ovb-place c.txt a.txt *.profile | ovb-check c.txt a.txt *.profile -\n"
	"  ovb-check c.txt a.txt plan.txt *.profile | grep ' eq3 '\n"
	"  ovb-check c.txt old.apps new.apps plan2.txt *.profile  (a stream)\n"
	"  ovb-check --mode tod c.txt a.txt plan.txt *.profile  (per hour "
	"of the day)\n"
	"  ovb-check --mode joint --series week.series c.txt a.txt plan.txt "
	"*.profile\n"
	"  ovb-check --mem-rule pool c.txt a.txt plan.txt *.profile  (a "
	"promise plan judged by the pool rule)\n"
	"  ovb-check -t sched-deadline,tc c.txt a.txt plan.txt *.profile  "
	"(enforceable too)\n"
	"  CI gate, failing the job on a violation (1) or bad input (65):\n"
	"    - run: ovb-check conf/cluster conf/apps plan.txt prof/*.profile\n\n"
	OVB_EXIT_DOC;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	(void)arg;
	switch (key) {
	case OPT_FLOAT: opt_float = true; return 0;
	case OPT_MODE:
		if (strcmp(arg, "tod") && strcmp(arg, "eq1") &&
		    strcmp(arg, "joint"))
			argp_error(st, "--mode: '%s' is not eq1, tod or joint", arg);
		opt_tod = !strcmp(arg, "tod");
		opt_joint = !strcmp(arg, "joint");
		return 0;
	case OPT_AT:
		opt_at = ovb_arg_u64(st, "--at", arg, 0, UINT64_C(1) << 62);
		at_given = true;
		return 0;
	case ARGP_KEY_SUCCESS:
		if (st->next >= st->argc)
			argp_error(st, "give the cluster, apps, plan and profile "
				"files");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* --target, -o, -q, -v (lib/cli.c) and --series, --from, --to,
 * --mem-rule, --mem-tolerance (lib/cliopt.c) */
static const struct argp target_argp = { NULL, NULL, NULL, NULL,
	ovb_target_children, NULL, NULL };
static const struct argp_child children[] = {
	{ &target_argp, 0, NULL, 0 },
	{ &ovb_cliopt_joint_argp, 0, NULL, 1 },
	{ &ovb_cliopt_mem_argp, 0, NULL, 1 },
	{ 0 }
};
static const struct argp argp = { options, parse_opt,
	"CLUSTER APPS... PLAN [PROFILE...]", doc, children, NULL, NULL };

/* ---- inputs ---- */

struct appdef {                 /* the live definition of an application */
	const struct ovb_app *a;
	const char *file;
	bool alive;                 /* false: terminated */
};

static struct {
	struct ovb_cluster cluster;
	const char *cluster_file, *plan_file;
	struct ovb_apps *apps;      /* one per apps file */
	char **apps_file;
	size_t napps, capapps;
	struct ovb_plan plan;
	struct ovb_profiles prof;   /* all blocks, file order */
	bool have_cluster, have_plan;
	struct appdef *def;
	size_t ndef, capdef;
	struct ovb_names defs;      /* application name -> def index */
} S;

/* One input (ovb_read_input's take), told apart by its magic line. */
static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)ctx;
	int st;
	const char *name = lx->name;
	if (!strcmp(fmt->name, "profile")) {
		struct ovb_profiles p;
		if (!(st = ovb_profile_read(lx, &p)))
			st = ovb_profile_merge(&S.prof, &p, name);
		ovb_profile_free(&p);
	} else if (!strcmp(fmt->name, "cluster")) {
		if (S.have_cluster)
			st = ovb_err(lx, "a second cluster file (the first is %s)",
				S.cluster_file);
		else if (!(st = ovb_cluster_read(lx, &S.cluster))) {
			S.have_cluster = true;
			S.cluster_file = ovb_xstrdup(name);
		}
	} else if (!strcmp(fmt->name, "apps")) {
		struct ovb_apps a;
		if (!(st = ovb_apps_read(lx, &a))) {
			if (S.napps == S.capapps)
				S.apps_file = ovb_xrealloc(S.apps_file,
					S.capapps ? 2 * S.capapps : 8,
					sizeof *S.apps_file);
			S.apps_file[S.napps] = ovb_xstrdup(name);
			*OVB_PUSH(S.apps, S.napps, S.capapps) = a;
		} else
			ovb_apps_free(&a);
	} else if (!strcmp(fmt->name, "plan")) {
		if (S.have_plan)
			st = ovb_err(lx, "a second plan (the first is %s)",
				S.plan_file);
		else if (!(st = ovb_plan_read(lx, &S.plan))) {
			S.have_plan = true;
			S.plan_file = ovb_xstrdup(name);
		}
	} else {
		st = ovb_err(lx, "an ovb-%s file is not an input of ovb-check "
			"(cluster, apps, plan, profile)", fmt->name);
	}
	return st;
}

/* ---- cross-references (bad input: 65) ---- */

static const struct appdef *
app_def(const char *name)
{
	size_t i = ovb_names_get(&S.defs, name);
	return i == OVB_NONE ? NULL : &S.def[i];
}

/* The apps files as one stream: a new application's name must be free
 * (or terminated), op=modify replaces, op=terminate ends. */
static int
build_defs(void)
{
	for (size_t f = 0; f < S.napps; f++)
		for (size_t i = 0; i < S.apps[f].n; i++) {
			const struct ovb_app *a = &S.apps[f].app[i];
			size_t j = ovb_names_get(&S.defs, a->name);
			if (j == OVB_NONE) {
				struct appdef *d = OVB_PUSH(S.def, S.ndef, S.capdef);
				*d = (struct appdef){ a, S.apps_file[f],
					a->op != OVB_OP_TERMINATE };
				ovb_names_add(&S.defs, a->name, S.ndef - 1);
				continue;
			}
			struct appdef *d = &S.def[j];
			if (a->op == OVB_OP_NEW && d->alive)
				return ovb_err_at(S.apps_file[f], a->line,
					"application %s is already defined (%s:%lu)",
					a->name, d->file, d->a->line);
			*d = (struct appdef){ a, S.apps_file[f],
				a->op != OVB_OP_TERMINATE };
		}
	return 0;
}

/* ovb_profile_find by lib/profidx.c's table. */
static struct ovb_profidx prof_index;

static const struct ovb_qos *
prof_find(const char *name, enum ovb_res r)
{
	if (!prof_index.p)
		ovb_profidx_init(&prof_index, &S.prof);
	return ovb_profidx_find(&prof_index, name, r);
}

static bool
has_block(const char *profile)
{
	return prof_find(profile, OVB_CPU) || prof_find(profile, OVB_NET) ||
		(ovb_cluster_has_mem(&S.cluster) && prof_find(profile, OVB_MEM));
}

static size_t
node_index(const char *name)
{
	return ovb_names_get(&S.cluster.byname, name);
}

static int
check_refs(void)
{
	int st = 0;
	for (size_t i = 0; i < S.ndef && !st; i++) {
		const struct appdef *d = &S.def[i];
		const struct ovb_app *a = d->a;
		if (!d->alive)
			continue;
		for (size_t j = 0; j < a->ncap && !st; j++) {
			const struct ovb_capsule *c = &a->cap[j];
			if (c->profile && !has_block(c->profile))
				st = ovb_err_at(d->file, a->line, "application %s, "
					"capsule %s: profile=%s is in none of the profile "
					"files (no cpu or net block%s)", a->name, c->name,
					c->profile, ovb_cluster_has_mem(&S.cluster) ?
					", no mem block" : "");
			else if (c->node && node_index(c->node) == OVB_NONE)
				st = ovb_err_at(d->file, a->line, "application %s, "
					"capsule %s: node=%s is not in the cluster (%s)",
					a->name, c->name, c->node, S.cluster_file);
		}
		for (size_t j = 0; j < a->ntrust && !st; j++)
			if (!app_def(a->trust[j].app))
				st = ovb_err_at(d->file, a->line, "application %s: "
					"trust of %s, which is in none of the apps files",
					a->name, a->trust[j].app);
	}
	const struct ovb_plan *p = &S.plan;
	for (size_t i = 0; i < p->n && !st; i++) {
		const struct ovb_placed *pl = &p->p[i];
		const struct appdef *d = app_def(pl->app);
		bool found = false;
		for (size_t j = 0; d && d->alive && j < d->a->ncap; j++)
			found = found || !strcmp(d->a->cap[j].name, pl->capsule);
		if (!d || !d->alive)
			st = ovb_err_at(S.plan_file, pl->line, "application %s is "
				"%s", pl->app, d ? "terminated in the apps files" :
				"in none of the apps files");
		else if (!found)
			st = ovb_err_at(S.plan_file, pl->line, "application %s has "
				"no capsule %s in %s", pl->app, pl->capsule, d->file);
		else if (pl->profile && !has_block(pl->profile))
			st = ovb_err_at(S.plan_file, pl->line, "profile %s is in "
				"none of the profile files (no cpu or net block%s)",
				pl->profile, ovb_cluster_has_mem(&S.cluster) ?
				", no mem block" : "");
	}
	for (size_t i = 0; i < p->nrej && !st; i++)
		if (!app_def(p->rej[i].app))
			st = ovb_err_at(S.plan_file, 0, "reject %s: the application "
				"is in none of the apps files", p->rej[i].app);
	return st;
}

/* ---- effective requirements ---- */

struct cap {                    /* a placed capsule */
	const struct ovb_placed *pl;
	const struct ovb_app *app;
	const struct ovb_capsule *c;
	size_t node;                /* cluster index, or OVB_NONE */
	struct ovb_need e[OVB_NCAP];
	unsigned jmissing;          /* joint: bit 1u << r, no samples of r */
};

static void
effective(const struct ovb_app *app, const struct ovb_capsule *c,
	struct ovb_need e[OVB_NCAP])
{
	const struct ovb_qos *q[OVB_NCAP] = { NULL };
	int nres = ovb_cluster_nres(&S.cluster);
	for (int r = 0; r < nres && c->profile; r++)
		q[r] = prof_find(c->profile, (enum ovb_res)r);
	if (c->profile && ovb_cluster_has_mem(&S.cluster))
		q[OVB_MEM] = prof_find(c->profile, OVB_MEM);
	ovb_need_of(app, c, q, e);
	/* a cluster without net-rx capacities does not place it */
	ovb_need_placed(&S.cluster, e);
	for (int r = 0; r < OVB_NCAP; r++) {
		e[r].agg = S.plan.aggregate;    /* the plan's mode */
		if (S.plan.nsigma && e[r].used)
			ovb_need_nsigma(&e[r], S.plan.nsigma_n);
	}
	if (S.plan.enforce) {   /* what its targets grant (ovb-place) */
		struct ovb_klimits L;
		char why[256];
		int t;
		ovb_plan_klimits(&S.plan, &L);
		(void)ovb_need_grant(S.plan.enforce, &L, e, &t, why, sizeof why);
	}
}

/* The joint mode: capsule c's samples of the rates it uses (as
 * ovb-place finds them); a rate without any is marked missing. */
static void
joint_samples(struct cap *c)
{
	for (int r = 0; opt_joint && r < OVB_MEM; r++) {
		const double *v = NULL;
		if (!c->e[r].used)
			continue;
		if (c->c->profile &&
		    !ovb_joint_find(&jt, c->c->profile, (enum ovb_res)r, &v))
			ovb_need_joint(&c->e[r], &jt, v);
		else
			c->jmissing |= 1u << r;
	}
}

/* ---- violations ---- */

static FILE *V;                 /* the violations, in memory */
static size_t nviol;

static void violation(const char *node, const char *res, const char *kind,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
violation(const char *node, const char *res, const char *kind,
	const char *fmt, ...)
{
	va_list ap;
	fprintf(V, "violation %s %s %s ", node ? node : "-", res ? res : "-",
		kind);
	va_start(ap, fmt);
	vfprintf(V, fmt, ap);
	va_end(ap);
	fputc('\n', V);
	nviol++;
}

/* The plan's date against its profiles' forecast, and against --at. */
static void
check_dates(void)
{
	const struct ovb_qos *fq = ovb_profiles_forecast(&S.prof);
	uint64_t until = S.plan.valid_until;
	if (fq && until > fq->U.forecast)
		violation(NULL, NULL, "beyond-forecast", "valid-until=%llu "
			"forecast=%llu profile %s %s (%s:%lu)",
			(unsigned long long)until,
			(unsigned long long)fq->U.forecast, fq->U.capsule,
			ovb_res_name(fq->U.res), fq->file ? fq->file : "-",
			fq->line);
	const char *what = "valid-until";
	if (fq && (!until || fq->U.forecast < until)) {
		until = fq->U.forecast;
		what = "forecast";
	}
	if (at_given && until && opt_at >= until)
		violation(NULL, NULL, "expired", "%s=%llu at=%llu", what,
			(unsigned long long)until, (unsigned long long)opt_at);
}

/* Rotating buffers for numbers in messages (an overflow said in words). */
static const char *
num(double v)
{
	static char buf[8][OVB_MSG_NUM];
	static int i;
	i = (i + 1) % 8;
	return ovb_fmt_msg_num(buf[i], v);
}

static bool
near(double a, double b, double rel)
{
	return a == b || fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

static const char *
rname(int r)
{
	return ovb_res_name((enum ovb_res)r);
}

static char *capsule_list(struct cap *const *list, size_t n);

/* capsule_list(m, n), made the first time a message needs it (*list). */
static const char *
lazy_list(char **list, struct cap *const *m, size_t n)
{
	if (!*list)
		*list = capsule_list(m, n);
	return *list;
}

/* " capsules A/C,..." of the capsules in list[0..n). */
static char *
capsule_list(struct cap *const *list, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fputs("capsules ", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s/%s", i ? "," : "", list[i]->pl->app,
			list[i]->pl->capsule);
	fclose(f);
	return buf;
}

/* A field "NAME=STATED UNIT (expected EXPECTED)", appended to f when they
 * differ by more than a relative 1e-9. */
static void
field(FILE *f, bool *any, const char *name, double stated, double expected,
	const char *unit, const char *how)
{
	if (near(stated, expected, 1e-9))
		return;
	fprintf(f, "%s%s=%s%s%s (%s %s)", *any ? ", " : "", name, num(stated),
		unit[0] ? " " : "", unit, how, num(expected));
	*any = true;
}

static void
stated(const char *node, int r, const char *kind, const struct cap *c,
	bool used, bool has, const double *st, const double *ex,
	const char *const *names, const char *const *units, int n)
{
	const char *res = rname(r), *what = res;
	if (used && !has) {
		violation(node, res, kind, "%s/%s missing (the capsule uses %s) "
			"at %s:%lu", c->pl->app, c->pl->capsule, what, S.plan_file,
			c->pl->line);
		return;
	}
	if (!used && has) {
		violation(node, res, kind, "%s/%s stated at %s:%lu, but the "
			"capsule uses no %s", c->pl->app, c->pl->capsule, S.plan_file,
			c->pl->line, what);
		return;
	}
	if (!used)
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool any = false;
	for (int i = 0; i < n; i++)
		field(f, &any, names[i], st[i], ex[i], units[i], "expected");
	fclose(f);
	if (any)
		violation(node, res, kind, "%s/%s %s at %s:%lu",
			c->pl->app, c->pl->capsule, buf, S.plan_file, c->pl->line);
	free(buf);
}

/* The checks of one placed capsule: node, pin, profile, stated records. */
static void
check_capsule(struct cap *c)
{
	const struct ovb_placed *pl = c->pl;
	const char *node = pl->node;
	if (c->c->node && strcmp(c->c->node, node))
		violation(node, NULL, "pin", "%s/%s is pinned to %s", pl->app,
			pl->capsule, c->c->node);
	const char *want = c->c->profile ? c->c->profile : "-";
	const char *have = pl->profile ? pl->profile : "-";
	if (strcmp(want, have))
		violation(node, NULL, "profile", "%s/%s is placed with profile %s, "
			"the apps file gives %s (%s:%lu)", pl->app, pl->capsule, have,
			want, S.plan_file, pl->line);
	static const char *const qn[] = { "sigma", "rho", "tau", "O" };
	static const char *const mn[] = { "request", "limit", "window", "O" };
	static const char *const mu[] = { "B", "B", "s", "" };
	for (int r = 0; r < OVB_NCAP; r++) {
		const struct ovb_need *e = &c->e[r];
		const char *qu[] = { ovb_res_rate_unit((enum ovb_res)r),
			ovb_res_amount_unit((enum ovb_res)r), "s", "" };
		bool mem = r == OVB_MEM;
		double st[] = { pl->sigma[r], mem ? pl->limit : pl->rho[r],
			pl->tau[r], pl->O[r] };
		double ex[] = { e->sigma, mem ? e->limit : e->rho, e->tau, e->O };
		stated(node, r, "qos", c, e->used, pl->has_qos[r], st, ex,
			mem ? mn : qn, mem ? mu : qu, 4);
	}
	/* section 4.1: x = (1-O) rho every y = rho / sigma, weight
	 * (1-O) sigma; without a burst or a rate, x = (1-O) sigma tau every
	 * y = tau */
	const struct ovb_need *e = &c->e[OVB_CPU];
	double x, y, w;
	ovb_cpu_resv(e, &x, &y, &w);
	static const char *const cn[] = { "x", "y", "weight" };
	static const char *const cu[] = { "cpu-s", "s", "" };
	double cs[] = { pl->x, pl->y, pl->weight }, ce[] = { x, y, w };
	stated(node, OVB_CPU, "cpu-resv", c, e->used, pl->has_cpu_resv, cs, ce,
		cn, cu, 3);
	e = &c->e[OVB_NET];
	static const char *const tn[] = { "sigma", "rho" };
	static const char *const tu[] = { "B/s", "B" };
	double ts[] = { pl->tb_sigma, pl->tb_rho }, te[] = { e->sigma, e->rho };
	stated(node, OVB_NET, "tbucket", c, e->used, pl->has_tbucket, ts, te, tn,
		tu, 2);
}

static double
trust(const struct ovb_app *a, const char *b)
{
	for (size_t i = 0; i < a->ntrust; i++)
		if (!strcmp(a->trust[i].app, b))
			return a->trust[i].v;
	return 1;
}

/* The plan's first risk record of the node and resource, by a table per
 * resource made at the first question (a pass over the records per node
 * cost 10,000 nodes x 20,000 records on a fleet). */
static struct ovb_names risk_index[OVB_NCAP];
static bool risk_indexed;

static const struct ovb_noderisk *
risk_record(const char *node, int r)
{
	if (!risk_indexed) {
		for (size_t i = 0; i < S.plan.nrisk; i++)
			ovb_names_add(&risk_index[S.plan.risk[i].res],
				S.plan.risk[i].node, i);   /* the first kept */
		risk_indexed = true;
	}
	size_t i = ovb_names_get(&risk_index[r], node);
	return i == OVB_NONE ? NULL : &S.plan.risk[i];
}

/* Eq. 3's Pr(Y > C) on a node as an exact rational in pr: Y of
 * need[0..n) on grid w in GMP, for the message that shows a decision at
 * the boundary. */
static void
exact_risk(const struct ovb_need *need, size_t n, double C, double w,
	mpq_t pr)
{
	struct ovb_xpmf y, u;
	ovb_xpmf_zero(&y, w);
	for (size_t i = 0; i < n; i++) {
		if (need[i].h)
			ovb_xpmf_from_hist(&u, need[i].h, w);
		else
			ovb_xpmf_point(&u, need[i].sigma, w);
		ovb_xpmf_add(&y, &u);
		ovb_xpmf_free(&u);
		ovb_xpmf_clip(&y, C);
	}
	ovb_xpmf_tail(pr, &y, C);
	ovb_xpmf_free(&y);
}

/* --float: whether Pr(Y > C), *p, is above omin in doubles only, on the
 * grid g (0: plain reservations, *p 0 or 1 by their sum in doubles);
 * without --float ovb_nstate_judge decides exactly (lib/node.c: the
 * doubles where their certified error bound decides, GMP rationals
 * otherwise). */
static bool
float_over(const struct ovb_need *need, size_t n, double C, double omin,
	double g, double *p)
{
	if (g == 0) {                   /* plain reservations only */
		double s = 0;
		for (size_t i = 0; i < n; i++)
			s += need[i].sigma;
		bool ok = s <= C;
		*p = ok ? 0 : 1;
		return !ok && !(omin >= 1);
	}
	return *p > omin;
}

/* -t T on a plan not placed for T (--enforce): Eq. 1 of the numbers T
 * renders, each burst raised to what T grants (as --clamp renders it);
 * Eq. 3 is U's, which no clamp changes. */
static void
check_granted(int t, const char *node, int r, const struct ovb_need *need,
	size_t n, double C, struct cap **m, char **list)
{
	struct ovb_need *g = ovb_xcalloc(n, sizeof *g);
	char why[256];
	size_t raised = 0;
	for (size_t i = 0; i < n; i++) {
		g[i] = need[i];
		(void)ovb_enf_grant(t, &ovb_klim, &g[i], why, sizeof why);
		raised += g[i].rho != need[i].rho;
	}
	if (raised && !ovb_eq1_holds(g, n, NULL, C)) {
		struct ovb_eq1 e1;
		ovb_eq1_load(g, n, NULL, &e1);
		const char *unit = ovb_res_rate_unit((enum ovb_res)r);
		violation(node, rname(r), "target", "%s: placed without --enforce "
			"%s, its numbers as %s renders them (%zu burst%s raised "
			"to what it grants, as --clamp does) break Eq. 1: load=%s "
			"%s > C=%s %s %s", ovb_target_names[t],
			ovb_target_names[t], ovb_target_names[t], raised,
			raised == 1 ? "" : "s", num(e1.load), unit, num(C), unit,
			lazy_list(list, m, n));
	}
	free(g);
}

/* --target: would the kernel take the node's capsules (lib/enforce.c,
 * the rule ovb-enforce and ovb-place --target use)? */
static void
check_targets(const char *node, int r, const struct ovb_need *need, size_t n,
	double C, struct cap **m, char **list)
{
	for (int t = 0; t < OVB_NTARGET; t++) {
		char why[256];
		size_t bad;
		bool res = (int)ovb_target_res(t) == r ||
			(r == OVB_MEM && ovb_target_has_mem(t));
		if (!ovb_target_on[t] || !res ||
		    !ovb_enf_node(t, &ovb_klim, ovb_target_clamp, need, n, C,
		    &bad, why, sizeof why))
			continue;
		if (bad < n)
			violation(node, rname(r), "target", "%s: capsule %s/%s: "
				"%s %s", ovb_target_names[t], m[bad]->pl->app,
				m[bad]->pl->capsule, why, lazy_list(list, m, n));
		else
			violation(node, rname(r), "target", "%s: %s %s",
				ovb_target_names[t], why, lazy_list(list, m, n));
	}
	for (int t = 0; r != OVB_MEM && t < OVB_NTARGET; t++)
		if (ovb_target_on[t] && (int)ovb_target_res(t) == r &&
		    !(S.plan.enforce & (1u << t)))
			check_granted(t, node, r, need, n, C, m, list);
}

/* --mode tod: Eq. 1 and Eq. 3 of the node in every window (lib/tod.c),
 * each run of consecutive hours of a day type with the same verdict one
 * violation (eq1, eq3 or unmeasured). */
static void
check_tod(const struct ovb_node *nd, int r, struct cap *const *m,
	const struct ovb_need *need, size_t n, char **list)
{
	const struct ovb_qos **q = ovb_xcalloc(n, sizeof *q);
	for (size_t i = 0; i < n; i++)
		q[i] = m[i]->c->profile ? prof_find(m[i]->c->profile,
			(enum ovb_res)r) : NULL;
	struct ovb_tod_stat *st = ovb_xmalloc(sizeof *st);
	const char *why = NULL, *res = rname(r);
	const char *unit = ovb_res_rate_unit((enum ovb_res)r);
	if (ovb_tod_node(need, q, n, nd->cap[r], S.plan.grid, st, &why)) {
		tod_status = ovb_err_at(NULL, 0, "node %s %s: %s%s", nd->name,
			res, why, lazy_list(list, m, n));
		free(st);
		free(q);
		return;
	}
	/* verdict per slot: 0 holds, 1 unmeasured, 2 eq1, 3 eq3, 4 both */
	int v[OVB_TOD_SLOTS];
	for (int s = 0; s < OVB_TOD_SLOTS; s++) {
		const struct ovb_nodestat *ns = &st->slot[s];
		v[s] = !st->measured[s] ? 1 : !ns->eq1_ok && !ns->eq3_ok ? 4 :
			!ns->eq1_ok ? 2 : !ns->eq3_ok ? 3 : 0;
	}
	for (int s = 0; s < OVB_TOD_SLOTS; ) {
		int e = s + 1;
		while (e % 24 && v[e] == v[s])
			e++;
		const char *days = ovb_tod_days_name(s / 24);
		int from = s % 24, to = (e - 1) % 24 + 1;
		double load = 0, pr = 0;
		for (int k = s; k < e && v[s] > 1; k++) {
			load = fmax(load, st->slot[k].eq1.load);
			pr = fmax(pr, st->slot[k].pr);
		}
		const struct ovb_nodestat *ns = &st->slot[s];
		if (v[s] == 1) {
			const struct cap *c = m[st->unmeasured_by[s]];
			violation(nd->name, res, "unmeasured", "window %s %d-%d: "
				"capsule %s/%s has no samples there; Eq. 1 and 3 "
				"not decided %s", days, from, to, c->pl->app,
				c->pl->capsule, lazy_list(list, m, n));
		}
		if (v[s] == 2 || v[s] == 4)
			violation(nd->name, res, "eq1", "window %s %d-%d: "
				"load=%s %s > C=%s %s (tau_min=%s s) %s", days, from,
				to, num(load), unit, num(nd->cap[r]), unit,
				num(ns->eq1.tau_min), lazy_list(list, m, n));
		if (v[s] == 3 || v[s] == 4)
			violation(nd->name, res, "eq3", "window %s %d-%d: "
				"Pr(Y>C)=%s > O_min=%s C=%s %s %s", days, from, to,
				num(pr), num(ns->eq1.omin), num(nd->cap[r]), unit,
				lazy_list(list, m, n));
		s = e;
	}
	if (ovb_verbose && st->worst >= 0)
		ovb_warn("%s %s: windows: %s at %s %d h: Pr(Y>C)=%s load=%s %s; "
			"%d of 48 hours unmeasured", nd->name, res, st->ok ?
			"holds, largest risk" : "fails, first", ovb_tod_days_name(
			st->worst / 24), st->worst % 24, num(st->slot[st->worst].pr),
			num(st->slot[st->worst].eq1.load), unit, st->nunmeasured);
	free(st);
	free(q);
}

/* The joint mode's test of the node (lib/joint.c, decided by
 * ovb_nstate_judge as ovb-place decides it), or the capsule jmiss without
 * samples (OVB_NONE: none), which leaves it undecided. */
static void
check_joint(const struct ovb_node *nd, int r, struct cap *const *m,
	size_t n, size_t jmiss, const struct ovb_joint_stat *js, char **list)
{
	const char *unit = ovb_res_rate_unit((enum ovb_res)r);
	if (jmiss != OVB_NONE) {
		const struct cap *c = m[jmiss];
		char win[OVB_MAXNAME + 96];
		ovb_joint_where(&jt, win, sizeof win);
		violation(nd->name, rname(r), "unmeasured", "joint: capsule %s/%s "
			"has no samples of %s in %s%s%s%s; not decided %s",
			c->pl->app, c->pl->capsule, rname(r), win,
			c->c->profile ? " (series " : " (a plain reservation)",
			c->c->profile ? c->c->profile : "", c->c->profile ? ")" : "",
			lazy_list(list, m, n));
		return;
	}
	if (!js->ok && !ovb_frac_le(js->over, js->slots, js->omin))
		violation(nd->name, rname(r), "joint", "over=%zu of slots=%zu "
			"above C=%s %s, more than O_min=%s (first at T=%llu) %s",
			js->over, js->slots, num(nd->cap[r]), unit, num(js->omin),
			(unsigned long long)jt.t[js->first_over],
			lazy_list(list, m, n));
	else if (!js->ok)       /* --slots overlap: too few slots seen */
		violation(nd->name, rname(r), "joint", "over=%zu of slots=%zu "
			"above C=%s %s, but its capsules were seen together in "
			"fewer than ceil(10 / O_min=%s)=%zu slots (--slots "
			"overlap) %s", js->over, js->slots, num(nd->cap[r]), unit,
			num(js->omin), ovb_joint_min(js->omin),
			lazy_list(list, m, n));
	if (ovb_verbose)
		ovb_warn("%s %s: joint: %zu of %zu slots above C, O_min %s: %s",
			nd->name, rname(r), js->over, js->slots, num(js->omin),
			js->ok ? "holds" : "fails");
}

/* Eq. 1, Eq. 3 and the risk record of one node and resource. */
static void
check_node_res(const struct ovb_node *nd, int r, struct cap *const *all,
	size_t nall)
{
	struct cap **m = ovb_xcalloc(nall ? nall : 1, sizeof *m);
	size_t n = 0;
	for (size_t i = 0; i < nall; i++)
		if (all[i]->e[r].used)
			m[n++] = all[i];
	const char *res = rname(r), *unit = ovb_res_rate_unit((enum ovb_res)r);
	const struct ovb_noderisk *rk = risk_record(nd->name, r);
	double C = nd->cap[r];
	if (!n) {
		if (rk)
			violation(nd->name, res, "risk", "stated at %s:%lu, but no "
				"capsule on %s uses %s", S.plan_file, rk->line, nd->name,
				res);
		free(m);
		return;
	}
	char *list = NULL;      /* made when a message needs it */
	struct ovb_need *need = ovb_xcalloc(n, sizeof *need);
	size_t jmiss = OVB_NONE;    /* joint: the first capsule without samples */
	for (size_t i = 0; i < n; i++) {
		need[i] = m[i]->e[r];
		if (jmiss == OVB_NONE && (m[i]->jmissing & (1u << r)))
			jmiss = i;
	}
	bool joint = opt_joint && r != OVB_MEM;
	for (size_t i = 0; jmiss != OVB_NONE && i < n; i++)
		need[i].joint = false;  /* not decided: unmeasured */
	for (size_t i = 0; r == OVB_MEM && mem_promise && i < n; i++)
		ovb_need_promise(&need[i], mem_O);  /* the qos O stays own */
	/* the node judged as the placer's node state decides (lib/nstate.c) */
	struct ovb_nverdict v;
	ovb_nstate_judge(need, n, nd, r, S.plan.grid, &v);
	/* Eq. 1, decided exactly (the node model) */
	const struct ovb_eq1 e1 = v.st.eq1;
	double tmin = e1.tau_min, omin = e1.omin, load = e1.load;
	bool eq1_over = !v.st.eq1_ok, eq1_over0 = false;
	if (eq1_over) {         /* over without the lower bounds too? */
		struct ovb_need *nolb = ovb_xcalloc(n, sizeof *nolb);
		for (size_t i = 0; i < n; i++) {
			nolb[i] = need[i];
			nolb[i].lb = 0;
		}
		eq1_over0 = !ovb_eq1_holds(nolb, n, NULL, C);
		free(nolb);
	}
	bool tod = opt_tod && r != OVB_MEM;
	if (tod) {      /* Eq. 1 and 3 per window instead */
		check_tod(nd, r, m, need, n, &list);
		eq1_over = false;
	}
	if (joint) {    /* the test on the samples instead */
		eq1_over = false;
		check_joint(nd, r, m, n, jmiss, &v.joint, &list);
	}
	if (r == OVB_MEM && eq1_over && !eq1_over0)
		violation(nd->name, res, "lb", "requests=%s B > C=%s B with the "
			"lower bounds (%s B without) %s", num(load), num(C),
			num(e1.load0), lazy_list(&list, m, n));
	else if (r == OVB_MEM && eq1_over)
		violation(nd->name, res, "request", "requests=%s B > C=%s B %s",
			num(load), num(C), lazy_list(&list, m, n));
	else if (eq1_over && !eq1_over0)
		violation(nd->name, res, "lb", "load=%s %s > C=%s %s with the "
			"lower bounds (%s %s without) %s", num(load), unit, num(C),
			unit, num(e1.load0), unit, lazy_list(&list, m, n));
	else if (eq1_over)
		violation(nd->name, res, "eq1", "load=%s %s > C=%s %s (tau_min=%s "
			"s) %s", num(load), unit, num(C), unit, num(tmin),
			lazy_list(&list, m, n));
	if (r == OVB_MEM && !v.limits_ok)
		violation(nd->name, res, "limit", "limits=%s B > C=%s B + "
			"pool=%s B %s", num(ovb_mem_limits(need, n)), num(C),
			num(nd->pool), lazy_list(&list, m, n));
	check_targets(nd->name, r, need, n, C, m, &list);
	/* the nsigma mode: its test in place of Eq. 3 (the risk record is
	 * still checked) */
	if (S.plan.nsigma && !ovb_nsigma_holds(need, n, NULL, C)) {
		double sm, sv;
		ovb_nsigma_sums(need, n, &sm, &sv);
		violation(nd->name, res, "nsigma", "mean=%s + N=%s sqrt(var=%s) "
			"> C=%s %s %s", num(sm), num(S.plan.nsigma_n), num(sv),
			num(C), unit, lazy_list(&list, m, n));
	}
	/* Eq. 3 */
	double g = v.st.g;
	if (!v.grid_ok && !S.plan.nsigma) {
		violation(nd->name, res, "eq3", "Y cannot be held on the grid "
			"%s %s: a capsule's U would need more than %zu grid points "
			"%s", num(g), unit, OVB_MAXGRID, lazy_list(&list, m, n));
		free(list);
		free(need);
		free(m);
		return;
	}
	double p = v.st.pr;
	bool over = opt_float ? float_over(need, n, C, omin, g, &p) :
		!v.st.eq3_ok;
	double expo = v.exposure;
	char oom[96] = "";
	if (r == OVB_MEM)
		snprintf(oom, sizeof oom, " OOM exposure E[(Y-C)+]=%s B",
			num(expo));
	if (over && !tod && !joint && !S.plan.nsigma) {
		char grid[64] = "deterministic";
		if (g > 0)
			snprintf(grid, sizeof grid, "grid %s %s", num(g), unit);
		char exact[160] = "";
		double pe = p;          /* the exact value's nearest double */
		if (!opt_float && g > 0) {
			mpq_t pr;
			mpq_init(pr);
			exact_risk(need, n, C, g, pr);
			char *dec = ovb_mpq_decimal(pr, 40, NULL);
			pe = strtod(dec, NULL);
			free(dec);
			if (!(pe > omin)) {
				char *q = ovb_mpq_str(pr);
				mpq_t o;
				mpq_init(o);
				mpq_set_d(o, omin);
				char *od = ovb_mpq_decimal(o, 30, NULL);
				snprintf(exact, sizeof exact, " (exactly %.60s > "
					"O_min's double %s)", q, od);
				free(q);
				free(od);
				mpq_clear(o);
			}
			mpq_clear(pr);
		}
		violation(nd->name, res, "eq3", "Pr(Y>C)=%s > %s=%s%s C=%s %s "
			"(%s)%s %s", num(pe), r == OVB_MEM && mem_promise &&
			!isnan(mem_O) ? "O_mem" : "O_min", num(omin), exact, num(C),
			unit, grid, oom, lazy_list(&list, m, n));
	}
	/* the stated record */
	if (!rk && tod)
		;       /* a plan for the windowed test need not state it */
	else if (!rk)
		violation(nd->name, res, "risk", "missing: no risk record for %s "
			"%s %s", nd->name, res, lazy_list(&list, m, n));
	else {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		bool any = false;
		if (!(fabs(rk->risk - p) <= 1e-9 || near(rk->risk, p, 1e-9))) {
			fprintf(f, "PR=%s (recomputed %s)", num(rk->risk), num(p));
			any = true;
		}
		if (rk->omin != omin) {
			fprintf(f, "%sOMIN=%s (recomputed %s)", any ? ", " : "",
				num(rk->omin), num(omin));
			any = true;
		}
		field(f, &any, "LOAD", rk->load, load, unit, "recomputed");
		if (r == OVB_MEM && !(fabs(rk->exposure - expo) <= 1e-9 * C))
			field(f, &any, "EXPOSURE", rk->exposure, expo, "B",
				"recomputed");
		fclose(f);
		if (any)
			violation(nd->name, res, "risk", "%s at %s:%lu", buf,
				S.plan_file, rk->line);
		free(buf);
		if (rk->capacity != C)
			violation(nd->name, res, "capacity", "CAPACITY=%s %s (the "
				"cluster's %s %s) at %s:%lu", num(rk->capacity), unit,
				num(C), unit, S.plan_file, rk->line);
	}
	free(list);
	free(need);
	free(m);
}

/* Trust on a node: every pair of applications on it, each application
 * named by its first capsule there. */
static void
check_trust(const struct ovb_node *nd, struct cap *const *m, size_t n)
{
	struct cap **first = ovb_xcalloc(n ? n : 1, sizeof *first);
	size_t na = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < na && !seen; j++)
			seen = first[j]->app == m[i]->app;
		if (!seen)
			first[na++] = m[i];
	}
	for (size_t i = 0; i < na; i++)
		for (size_t j = i + 1; j < na; j++) {
			const struct ovb_app *a = first[i]->app, *b = first[j]->app;
			double tab = trust(a, b->name), tba = trust(b, a->name);
			if (fmin(tab, tba) > 0)
				continue;
			struct cap *two[] = { first[i], first[j] };
			char *list = capsule_list(two, 2);
			violation(nd->name, NULL, "trust", "trust(%s,%s)=%s "
				"trust(%s,%s)=%s %s", a->name, b->name, num(tab),
				b->name, a->name, num(tba), list);
			free(list);
		}
	free(first);
}

/* Capsules grouped by a key, in linear-logarithmic time: order[] holds
 * the indices of caps sorted by (key, plan order); a group is a run of
 * equal keys. */
static struct cap *sort_caps;
static const char *(*sort_key)(const struct cap *);

static int
by_key(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct cap *a = &sort_caps[i], *b = &sort_caps[j];
	if (a->app != b->app)   /* applications by their definition */
		return a->app->line != b->app->line ? (a->app->line <
			b->app->line ? -1 : 1) : strcmp(a->app->name,
			b->app->name);
	const char *ka = sort_key(a), *kb = sort_key(b);
	int c = strcmp(ka ? ka : "", kb ? kb : "");
	if (c)
		return c;
	return (i > j) - (i < j);
}

static const char *
node_key(const struct cap *c)
{
	return c->pl->node;
}

static const char *
spread_key(const struct cap *c)
{
	return c->app->spread && c->node != OVB_NONE ?
		ovb_node_label(&S.cluster.node[c->node], c->app->spread) : NULL;
}

struct group { size_t first, lo, hi; };   /* order[lo..hi), first member */

static int
by_first(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	return (a->first > b->first) - (a->first < b->first);
}

/* The groups of more than one capsule of one application with equal keys
 * (key NULL: never grouped), in the order of their first capsule. */
static struct group *
groups(struct cap *caps, size_t ncaps, const char *(*key)(const struct cap *),
	size_t *order, size_t *ngroups)
{
	for (size_t i = 0; i < ncaps; i++)
		order[i] = i;
	sort_caps = caps;
	sort_key = key;
	ovb_qsort(order, ncaps, sizeof *order, by_key);
	struct group *g = NULL;
	size_t n = 0, cap = 0;
	for (size_t lo = 0, hi; lo < ncaps; lo = hi) {
		const struct cap *c = &caps[order[lo]];
		const char *k = key(c);
		for (hi = lo + 1; hi < ncaps && caps[order[hi]].app == c->app;
		     hi++) {
			const char *k2 = key(&caps[order[hi]]);
			if (!k || !k2 || strcmp(k, k2))
				break;
		}
		if (k && hi - lo > 1)
			*OVB_PUSH(g, n, cap) = (struct group){ order[lo], lo, hi };
	}
	ovb_qsort(g, n, sizeof *g, by_first);
	*ngroups = n;
	return g;
}

/* Distinct nodes, and spread=KEY (labelled nodes, distinct values). */
static void
check_apart(struct cap *caps, size_t ncaps, size_t *order,
	struct cap **list)
{
	size_t ng;
	struct group *g = groups(caps, ncaps, node_key, order, &ng);
	for (size_t k = 0; k < ng; k++) {
		size_t n = 0;
		for (size_t i = g[k].lo; i < g[k].hi; i++)
			list[n++] = &caps[order[i]];
		char *l = capsule_list(list, n);
		violation(list[0]->pl->node, NULL, "distinct", "app=%s %s",
			list[0]->app->name, l);
		free(l);
	}
	free(g);
	for (size_t i = 0; i < ncaps; i++)
		if (caps[i].app->spread && caps[i].node != OVB_NONE &&
		    !spread_key(&caps[i]))
			violation(caps[i].pl->node, NULL, "spread", "app=%s spreads "
				"by %s, but node %s has no %s label: capsules %s/%s",
				caps[i].app->name, caps[i].app->spread,
				caps[i].pl->node, caps[i].app->spread, caps[i].pl->app,
				caps[i].pl->capsule);
	g = groups(caps, ncaps, spread_key, order, &ng);
	for (size_t k = 0; k < ng; k++) {
		/* one value on several nodes (one node: "distinct" says it) */
		size_t n = 0;
		for (size_t i = g[k].lo; i < g[k].hi; i++)
			list[n++] = &caps[order[i]];
		bool nodes = false;
		for (size_t i = 1; i < n && !nodes; i++)
			nodes = list[i]->node != list[0]->node;
		if (!nodes)
			continue;
		char *l = capsule_list(list, n);
		violation(list[n - 1]->pl->node, NULL, "spread", "app=%s %s=%s "
			"on several nodes: %s", list[0]->app->name,
			list[0]->app->spread, spread_key(list[0]), l);
		free(l);
	}
	free(g);
}

static int
by_ptr(const void *x, const void *y)
{
	const void *a = *(const void *const *)x, *b = *(const void *const *)y;
	return (a > b) - (a < b);
}

/* Every live application placed whole or rejected. */
static void
check_whole(struct cap *caps, size_t ncaps)
{
	const struct ovb_capsule **placed = ovb_xcalloc(ncaps ? ncaps : 1,
		sizeof *placed);
	for (size_t k = 0; k < ncaps; k++)
		placed[k] = caps[k].c;
	ovb_qsort(placed, ncaps, sizeof *placed, by_ptr);
	struct ovb_names rejected = { 0 };
	for (size_t j = 0; j < S.plan.nrej; j++)
		ovb_names_add(&rejected, S.plan.rej[j].app, j);
	for (size_t i = 0; i < S.ndef; i++) {
		const struct appdef *d = &S.def[i];
		if (!d->alive || !d->a->ncap)
			continue;
		char *buf = NULL;
		size_t len = 0, missing = 0;
		FILE *f = open_memstream(&buf, &len);
		for (size_t j = 0; j < d->a->ncap; j++) {
			const struct ovb_capsule *c = &d->a->cap[j];
			if (!ncaps || !bsearch(&c, placed, ncaps, sizeof *placed,
			    by_ptr))
				fprintf(f, "%s%s/%s", missing++ ? "," : "", d->a->name,
					c->name);
		}
		fclose(f);
		if (missing == d->a->ncap &&
		    ovb_names_get(&rejected, d->a->name) == OVB_NONE)
			violation(NULL, NULL, "unplaced", "app=%s is neither placed "
				"nor rejected", d->a->name);
		else if (missing && missing < d->a->ncap)
			violation(NULL, NULL, "incomplete", "app=%s capsules %s not "
				"placed", d->a->name, buf);
		free(buf);
	}
	ovb_names_free(&rejected);
	free(placed);
}

static int
by_node_name(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(sort_caps[i].pl->node, sort_caps[j].pl->node);
	return c ? c : (i > j) - (i < j);
}

static void
check_all(struct cap *caps, size_t ncaps)
{
	size_t *order = ovb_xcalloc(ncaps + 1, sizeof *order);
	struct cap **list = ovb_xcalloc(ncaps ? ncaps : 1, sizeof *list);
	/* capsules, in plan order */
	for (size_t i = 0; i < ncaps; i++)
		check_capsule(&caps[i]);
	/* applications: distinct nodes (and labels), then placed whole */
	check_apart(caps, ncaps, order, list);
	check_whole(caps, ncaps);
	/* nodes, in cluster order: the capsules of each by a counting sort */
	size_t *start = ovb_xcalloc(S.cluster.n + 2, sizeof *start);
	for (size_t i = 0; i < ncaps; i++)
		if (caps[i].node != OVB_NONE)
			start[caps[i].node + 1]++;
	for (size_t k = 0; k < S.cluster.n; k++)
		start[k + 1] += start[k];
	size_t *at = ovb_xcalloc(S.cluster.n + 1, sizeof *at);
	memcpy(at, start, S.cluster.n * sizeof *at);
	for (size_t i = 0; i < ncaps; i++)
		if (caps[i].node != OVB_NONE)
			list[at[caps[i].node]++] = &caps[i];
	for (size_t k = 0; k < S.cluster.n; k++) {
		const struct ovb_node *nd = &S.cluster.node[k];
		size_t n = start[k + 1] - start[k];
		check_trust(nd, list + start[k], n);
		for (int r = 0; r < ovb_cluster_nres(&S.cluster); r++)
			check_node_res(nd, r, list + start[k], n);
		if (ovb_cluster_has_mem(&S.cluster))
			check_node_res(nd, OVB_MEM, list + start[k], n);
	}
	free(at);
	free(start);
	/* nodes not in the cluster, in the order of their first capsule */
	size_t nu = 0;
	for (size_t i = 0; i < ncaps; i++)
		if (caps[i].node == OVB_NONE)
			order[nu++] = i;
	sort_caps = caps;
	ovb_qsort(order, nu, sizeof *order, by_node_name);
	struct group *g = NULL;
	size_t ng = 0, capg = 0;
	for (size_t lo = 0, hi; lo < nu; lo = hi) {
		for (hi = lo + 1; hi < nu && !strcmp(caps[order[hi]].pl->node,
		     caps[order[lo]].pl->node); hi++)
			;
		*OVB_PUSH(g, ng, capg) = (struct group){ order[lo], lo, hi };
	}
	ovb_qsort(g, ng, sizeof *g, by_first);
	for (size_t k = 0; k < ng; k++) {
		size_t n = 0;
		for (size_t i = g[k].lo; i < g[k].hi; i++)
			list[n++] = &caps[order[i]];
		char *l = capsule_list(list, n);
		violation(list[0]->pl->node, NULL, "node", "%s is not in the "
			"cluster (%s) %s", list[0]->pl->node, S.cluster_file, l);
		free(l);
	}
	free(g);
	for (size_t i = 0; i < S.plan.nrisk; i++) {
		const struct ovb_noderisk *rk = &S.plan.risk[i];
		if (node_index(rk->node) == OVB_NONE)
			violation(rk->node, rname(rk->res), "node", "%s is not in "
				"the cluster (%s), but has a risk record at %s:%lu",
				rk->node, S.cluster_file, S.plan_file, rk->line);
	}
	free(list);
	free(order);
}

/* Unmeasured is not zero (lib/unmeasured.c): 65 unless --unmeasured=zero,
 * and a lower bound on what the capsule does not use; then the plan must
 * say what it read as 0 (unmeasured records), and only that. */
static int
check_measured(const struct cap *c)
{
	const struct ovb_qos *q[OVB_NCAP] = { NULL };
	for (int r = 0; r < OVB_NCAP && c->c->profile; r++)
		q[r] = prof_find(c->c->profile, (enum ovb_res)r);
	int st = ovb_capsule_measured(c->app, c->c, q, &S.cluster,
		app_def(c->pl->app)->file, true);
	for (int r = 0; !st && r < OVB_NCAP; r++) {
		bool unm = c->c->profile && q[r] && q[r]->U.unmeasured &&
			(r == OVB_MEM ? ovb_cluster_has_mem(&S.cluster) :
			r < ovb_cluster_nres(&S.cluster));
		bool said = c->pl->unmeasured & (1u << r);
		if (unm != said)
			violation(c->pl->node, rname(r), "unmeasured", "capsule "
				"%s/%s: %s (%s:%lu) %s", c->pl->app,
				c->pl->capsule, unm ? "read as 0, not measured" :
				"the plan says not measured", S.plan_file,
				c->pl->line, unm ? "but the plan has no "
				"'unmeasured' record of it" : q[r] ? "but its "
				"profile measured it" : "but its profile has no "
				"block of it");
	}
	return st;
}

static int
check(void)
{
	int st = build_defs();
	if (!st)
		st = check_refs();
	if (st)
		return st;
	size_t ncaps = S.plan.n;
	struct cap *caps = ovb_xcalloc(ncaps ? ncaps : 1, sizeof *caps);
	for (size_t i = 0; i < ncaps; i++) {
		struct cap *c = &caps[i];
		c->pl = &S.plan.p[i];
		c->app = app_def(c->pl->app)->a;
		for (size_t j = 0; j < c->app->ncap; j++)
			if (!strcmp(c->app->cap[j].name, c->pl->capsule))
				c->c = &c->app->cap[j];
		c->node = node_index(c->pl->node);
		effective(c->app, c->c, c->e);
		joint_samples(c);
		if (!st)
			st = check_measured(c);
	}
	if (st) {
		free(caps);
		return st;
	}
	check_all(caps, ncaps);
	check_dates();
	for (int t = 0; t < OVB_NTARGET; t++)
		if ((ovb_enforce_mask & (1u << t)) && !(S.plan.enforce & (1u << t)))
			violation(NULL, NULL, "enforce", "%s was placed %s, not "
				"for %s (ovb-place --enforce %s)", S.plan_file,
				S.plan.enforce ? "for other targets" :
				"without --enforce", ovb_target_names[t],
				ovb_target_names[t]);
	if (ovb_verbose)
		ovb_warn("%s: %zu capsules on %zu nodes, %zu rejected "
			"applications: %zu violation%s (Eq. 3 in %s)", S.plan_file,
			ncaps, S.cluster.n, S.plan.nrej, nviol, nviol == 1 ? "" : "s",
			opt_float ? "doubles" : "exact rationals");
	free(caps);
	if (tod_status)
		return tod_status;
	return nviol ? OVB_FAIL : 0;
}

static void
free_all(void)
{
	ovb_cluster_free(&S.cluster);
	for (size_t i = 0; i < S.napps; i++) {
		ovb_apps_free(&S.apps[i]);
		free(S.apps_file[i]);
	}
	free(S.apps);
	free(S.apps_file);
	ovb_plan_free(&S.plan);
	ovb_profile_free(&S.prof);
	free(S.def);
	ovb_names_free(&S.defs);
	free((char *)S.cluster_file);
	free((char *)S.plan_file);
	for (int r = 0; r < OVB_NCAP; r++) {
		ovb_names_free(&risk_index[r]);
	}
	ovb_profidx_free(&prof_index);
	ovb_joint_free(&jt);
	ovb_series_free(&jss);
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	if (opt_joint && !ovb_cliopt_joint.series) {
		ovb_warn("--mode joint needs its samples: --series FILE");
		return OVB_EUSAGE;
	}
	if (opt_tod && ovb_cliopt_joint.series) {
		ovb_warn("--series is the samples of --mode joint, not of tod");
		return OVB_EUSAGE;
	}
	if (ovb_cliopt_joint.series &&
	    (status = ovb_joint_load(&ovb_cliopt_joint, &jss, &jt))) {
		ovb_series_free(&jss);
		ovb_joint_free(&jt);
		return status;
	}
	for (int i = first; i < argc; i++)
		if ((st = ovb_read_input(argv[i], take, NULL)) > status)
			status = st;
	if (!status && S.have_plan && S.plan.joint && !ovb_cliopt_joint.series) {
		ovb_warn("%s: a plan of mode joint: give its samples (--series "
			"FILE)", S.plan_file);
		status = OVB_EUSAGE;
	}
	if (!status && ovb_cliopt_joint.series && !opt_joint &&
	    !S.plan.joint) {
		ovb_warn("--series is the samples of --mode joint (give it, or "
			"a plan of mode joint)");
		status = OVB_EUSAGE;
	}
	opt_joint = opt_joint || S.plan.joint;
	/* the slots: --slots's, else the plan's mode line */
	if (!ovb_cliopt_joint.slots_given)
		jt.overlap = S.plan.joint_overlap;
	/* the memory rule: --mem-rule's, else the plan's mem-rule record */
	mem_promise = ovb_cliopt_mem.given ? ovb_cliopt_mem.promise :
		S.plan.mem_promise;
	mem_O = ovb_cliopt_mem.given ? ovb_cliopt_mem.O : S.plan.mem_O;
	if (!status && mem_promise && S.plan.nsigma) {
		ovb_warn("%s: a plan of mode nsigma decides memory by its "
			"N-sigma test, not by --mem-rule promise", S.plan_file);
		status = OVB_EUSAGE;
	}
	if (!status && (!S.have_cluster || !S.napps || !S.have_plan)) {
		ovb_warn("missing input: %s%s%s(give the cluster, apps, plan and "
			"profile files in any order)",
			S.have_cluster ? "" : "no ovb-cluster file; ",
			S.napps ? "" : "no ovb-apps file; ",
			S.have_plan ? "" : "no ovb-plan file; ");
		status = OVB_EUSAGE;
	}
	char *buf = NULL;
	size_t len = 0;
	V = ovb_xmemstream(&buf, &len);
	if (!status)
		status = check();
	fclose(V);
	status = ovb_out_buffer(buf, len, status);
	free(buf);
	free_all();
	return status;
}
