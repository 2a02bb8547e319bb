/* ovb-place: place arriving applications on a cluster with controlled
 * overbooking.
 *
 * Reads a cluster, an apps stream (or Sharc RSL), the profiles the apps
 * name, and optionally an existing plan to add to, all told apart by their
 * magic line; writes a plan.  The placing is lib/place.c's engine (its
 * head comment: admission, the feasible nodes by Eq. 1 and Eq. 3, the
 * assignment, trust, spread, --max-moves): this tool parses the options,
 * reads the inputs, runs the engine and writes the plan and the
 * migrations.
 *
 * Invariants: an application is placed whole or rejected whole with the
 * reason; every node of the output satisfies Eq. 1 and Eq. 3 for each
 * resource on the grid the plan states (--mode joint: lib/joint.c's test
 * of each rate on --series' samples, which are read before the other
 * inputs, over the slots --slots says, the plan's mode line saying it; --mem-rule promise: memory by Eq. 3 alone, against O_mem, the
 * plan recording it); the same inputs and seed give the same bytes; no
 * output file unless the run succeeded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_POLICY = 'p', OPT_SEED = 's', OPT_TRUST = 0x100,
	OPT_STRICT, OPT_SCAN, OPT_MODE, OPT_MAX_MOVES, OPT_MIGRATIONS, OPT_NSIGMA,
	OPT_VALID, OPT_CONSOLIDATE };

/* The request, filled by the options and the inputs. */
static struct ovb_place_req Q = { .seed = 1, .nsigma_n = 3 };
static const char *opt_migrations;     /* --migrations FILE */
static bool opt_joint;                 /* --mode joint */

static struct ovb_place_in S = {
	.what = "ovb-place (cluster, apps, profile, plan)" };

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Placement policy:", 1 },
	{ "policy", OPT_POLICY, "POLICY", 0,
	  "worst-fit (default), best-fit, tolerance (overbooking-conscious "
	  "worst-fit: nodes whose least tolerance is closest to the capsule's), "
	  "random, or first-fit-decreasing (the first node of the cluster's "
	  "order that takes it, the largest applications first)", 0 },
	{ "seed", OPT_SEED, "N", 0, "Seed of the random policy (default 1)", 0 },
	{ "trust-weight", OPT_TRUST, "W", 0,
	  "Score = (1 - W) fit + W trust, trust the least trust between the "
	  "application and those on the node (section 3.3; default 0)", 0 },
	{ NULL, 0, NULL, 0, "Re-planning from a plan given as input:", 4 },
	{ "max-moves", OPT_MAX_MOVES, "M", 0,
	  "Keep every placed capsule on its node (an op=modify of a placed "
	  "application with the same capsules is re-profiled in place), then "
	  "repair the nodes that break Eq. 1 or Eq. 3 (--mode tod: in some "
	  "window of the day) by moving at most M "
	  "capsules, the largest (sigma) of a broken node first (of a node "
	  "broken by its span, --slots overlap, first the largest whose "
	  "leaving mends it), each to the best node the policy finds; then "
	  "place the new applications", 4 },
	{ "consolidate", OPT_CONSOLIDATE, "C", OPTION_ARG_OPTIONAL,
	  "After the repair, moves empty whole nodes, the node of fewest "
	  "capsules first, each capsule to the best node with capsules that "
	  "passes the tests; a node not emptied keeps its capsules.  Its "
	  "moves: those --max-moves leaves, and of them at most C when given "
	  "(--consolidate=C without --max-moves: the repair's moves unbounded, "
	  "then at most C moves emptying nodes)", 4 },
	{ "migrations", OPT_MIGRATIONS, "FILE", 0,
	  "Write the moves (move APP/CAPSULE FROM TO) and the capsules placed "
	  "anew (deploy APP/CAPSULE NODE) to FILE as ovb-migrations", 4 },
	{ "valid-until", OPT_VALID, "T", 0,
	  "State in the plan that its promise holds until T [s since the "
	  "epoch] (ovb-check --at fails it from T on), at most the profiles' "
	  "forecast.  Default: the earliest forecast of the profiles when "
	  "every cpu, net and net-rx profile is one (ovb-usage --horizon), "
	  "else a plan given as input keeps its date", 4 },
	{ NULL, 0, NULL, 0, "As a CI gate:", 3 },
	{ "strict", OPT_STRICT, NULL, 0,
	  "Exit 1 when an application is rejected (the plan is still "
	  "written); warnings (profiles of different measurement intervals "
	  "on one node) are errors: exit 65, no plan", 3 },
	{ "scan", OPT_SCAN, NULL, 0,
	  "Examine every node for every capsule instead of the nodes in "
	  "order of headroom (the same plan, slower: for comparison)", 1 },
	{ NULL, 0, NULL, 0, "Model:", 2 },
	{ "mode", OPT_MODE, "MODE", 0,
	  "eq1 (default): the paper's Eq. 1 and Eq. 3 on every node; "
	  "aggregate: Eq. 3 on the node's sum, Eq. 1 reduced to the lower "
	  "bounds (what enforcement must guarantee); tod: Eq. 1 and Eq. 3 of "
	  "cpu, net and net-rx in every hour of a weekday and a weekend day, "
	  "on the profiles' time-of-day windows (ovb-usage --tod; an hour "
	  "where a capsule has no samples refuses the node; check the plan "
	  "with ovb-check --mode tod: its risk records state the whole-U "
	  "numbers); nsigma: per node and resource the "
	  "sum of the capsules' means + N sqrt(the sum of their variances) "
	  "<= C, each capsule's mean and variance its U's (lib/nsigma.c; "
	  "Eq. 1 reduced to the lower bounds, memory's requests and limits "
	  "kept); joint (with --series): per node and rate, over the slots "
	  "where a capsule on it has a sample, the fraction of slots whose "
	  "sum is above C (a capsule without a sample there counting 0; "
	  "--slots overlap: only the span where all were seen) at most the "
	  "least O, in place of Eq. 1 and 3 (memory keeps its rules).  A plan given as input keeps its mode", 0 },
	{ "nsigma", OPT_NSIGMA, "N", 0,
	  "--mode nsigma's N, 0 <= N <= 1000 (default 3)", 0 },
	{ 0 }
};

static const char doc[] =
	"Place arriving applications on a cluster with controlled overbooking."
	"\v"
	"Inputs, in any order, told apart by their first record: one "
	"ovb-cluster, one ovb-apps (or Sharc RSL), the ovb-profile files the "
	"applications name, and optionally an ovb-plan to add to.  The plan "
	"goes to stdout or -o; rejected applications are in it with the "
	"reason.\n\n"
	"EXAMPLES:\n"
	"  ovb-place cluster.txt apps.txt web.profile db.profile > plan.txt\n"
	"  ovb-place -p tolerance cluster.txt more.apps *.profile plan.txt "
	"-o plan2.txt\n"
	"  ovb-place cluster.txt apps.txt *.profile | ovb-check cluster.txt "
	"apps.txt *.profile -\n"
	"  ovb-place --mode joint --series week.series -p "
	"first-fit-decreasing cluster.txt apps.txt *.profile\n"
	"  ovb-place --mem-rule promise --mem-tolerance 0.01 cluster.txt "
	"apps.txt *.profile\n\n"
	OVB_EXIT_DOC;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_POLICY:
		if ((Q.policy = ovb_place_policy(arg)) < 0)
			argp_error(st, "--policy: '%s' is not worst-fit, best-fit, "
				"tolerance, random or first-fit-decreasing", arg);
		return 0;
	case OPT_SEED:
		Q.seed = ovb_arg_u64(st, "--seed", arg, 0, UINT64_MAX);
		return 0;
	case OPT_TRUST:
		Q.trust_weight = ovb_arg_real(st, "--trust-weight", arg, 0, 1);
		return 0;
	case OPT_STRICT:
		Q.strict = true;
		return 0;
	case OPT_SCAN:
		Q.scan = true;
		return 0;
	case OPT_MAX_MOVES:
		Q.max_moves = ovb_arg_u64(st, "--max-moves", arg, 0, UINT64_MAX);
		Q.repair = true;
		return 0;
	case OPT_CONSOLIDATE:
		Q.consolidate = true;
		if (arg)
			Q.cons_max = ovb_arg_u64(st, "--consolidate", arg, 1,
				UINT64_MAX);
		return 0;
	case OPT_MIGRATIONS:
		opt_migrations = arg;
		return 0;
	case OPT_NSIGMA:
		Q.nsigma_n = ovb_arg_real(st, "--nsigma", arg, 0, 1000);
		return 0;
	case OPT_VALID:
		Q.valid_until = ovb_arg_u64(st, "--valid-until", arg, 1,
			UINT64_C(1) << 62);
		return 0;
	case OPT_MODE:
		Q.tod = !strcmp(arg, "tod");
		Q.nsigma = !strcmp(arg, "nsigma");
		opt_joint = !strcmp(arg, "joint");
		if (!strcmp(arg, "aggregate"))
			Q.aggregate = true;
		else if (!strcmp(arg, "eq1") || Q.tod || Q.nsigma || opt_joint)
			Q.aggregate = false;
		else
			argp_error(st, "--mode: '%s' is not eq1, aggregate, tod, "
				"nsigma or joint", arg);
		Q.mode_given = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* --target, -o, -q, -v (lib/cli.c) and --grid, --series, --mem-rule
 * (lib/cliopt.c) */
static const struct argp target_argp = { NULL, NULL, NULL, NULL,
	ovb_target_children, NULL, NULL };
static const struct argp_child children[] = {
	{ &ovb_cliopt_grid_argp, 0, NULL, 2 },
	{ &ovb_cliopt_joint_argp, 0, NULL, 2 },
	{ &ovb_cliopt_mem_argp, 0, NULL, 2 },
	{ &target_argp, 0, NULL, 0 },
	{ 0 }
};
static const struct argp argp = { options, parse_opt,
	"CLUSTER APPS [PROFILE...] [PLAN]", doc, children, NULL, NULL };

/* ---- inputs ---- */

/* The moves and deployments against the input plan, as ovb-migrations. */
static int
write_migrations(const struct ovb_plan *plan)
{
	struct ovb_migrations m = { 0 };
	for (size_t i = 0; i < plan->n; i++) {
		const struct ovb_placed *p = &plan->p[i];
		const char *from = NULL;
		for (size_t k = 0; k < S.plan.n && !from; k++)
			if (!strcmp(S.plan.p[k].app, p->app) &&
			    !strcmp(S.plan.p[k].capsule, p->capsule))
				from = S.plan.p[k].node;
		if (from && !strcmp(from, p->node))
			continue;
		struct ovb_step *st = OVB_PUSH(m.step, m.n, m.cap);
		st->vm = ovb_xmalloc(strlen(p->app) + strlen(p->capsule) + 2);
		sprintf(st->vm, "%s/%s", p->app, p->capsule);
		st->from = from ? ovb_xstrdup(from) : NULL;
		st->to = ovb_xstrdup(p->node);
	}
	struct ovb_out out;
	int status = ovb_out_open(&out, opt_migrations);
	if (!status) {
		status = ovb_out_end(&out, ovb_migrations_write(out.f, &m));
	}
	ovb_migrations_free(&m);
	return status;
}

/* The plan states what was read as 0: "unmeasured APP CAPSULE RES" for
 * every placed capsule whose profile did not measure a resource the
 * cluster places (with --unmeasured=zero, the only way there is one). */
static void
mark_unmeasured(struct ovb_plan *plan)
{
	bool any = false;
	for (size_t i = 0; i < S.prof.n && !any; i++)
		any = S.prof.q[i].U.unmeasured;
	for (size_t i = 0; any && i < plan->n; i++) {
		struct ovb_placed *p = &plan->p[i];
		for (int r = 0; p->profile && r < OVB_NCAP; r++) {
			const struct ovb_qos *q = ovb_profile_find(&S.prof,
				p->profile, (enum ovb_res)r);
			bool placed = r == OVB_MEM ? ovb_cluster_has_mem(
				&S.cluster) : r < ovb_cluster_nres(&S.cluster);
			if (q && q->U.unmeasured && placed && !p->has_qos[r])
				p->unmeasured |= 1u << r;
		}
	}
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	if (Q.cons_max && !Q.repair) {  /* the repair unbounded */
		Q.repair = true;
		Q.max_moves = UINT64_MAX;
	}
	if (Q.consolidate && !Q.repair) {
		ovb_warn("--consolidate needs its moves: --max-moves M, or "
			"--consolidate=C");
		return OVB_EUSAGE;
	}
	if (opt_joint && !ovb_cliopt_joint.series) {
		ovb_warn("--mode joint needs its samples: --series FILE");
		return OVB_EUSAGE;
	}
	if (Q.mode_given && !opt_joint && ovb_cliopt_joint.series) {
		ovb_warn("--series is the samples of --mode joint, not of the "
			"mode given");
		return OVB_EUSAGE;
	}
	Q.grid = ovb_cliopt_grid;
	/* --mode joint's samples, kept to the exit as the plan is */
	static struct ovb_series_set jss;
	static struct ovb_joint jt;
	if (ovb_cliopt_joint.series) {
		if ((status = ovb_joint_load(&ovb_cliopt_joint, &jss, &jt)))
			return status;
		Q.joint = &jt;
	}
	for (int i = first; i < argc; i++)
		if ((st = ovb_read_input(argv[i], ovb_take_place, &S)) > status)
			status = st;
	if (first == argc && (st = ovb_read_input(NULL, ovb_take_place, &S)) > status)
		status = st;
	if (!status && (!S.have_cluster || !S.have_apps)) {
		ovb_warn("need a cluster and an apps file (see --help)");
		status = OVB_EUSAGE;
	}
	/* --mem-rule: a plan given keeps its own (another is refused) */
	const struct ovb_cliopt_mem *mo = &ovb_cliopt_mem;
	Q.mem_promise = mo->promise;
	Q.mem_O = mo->O;
	if (!status && mo->given && S.have_plan && (mo->promise !=
	    S.plan.mem_promise || (mo->promise && !(mo->O == S.plan.mem_O ||
	    (isnan(mo->O) && isnan(S.plan.mem_O)))))) {
		ovb_warn("%s: a plan of mem-rule %s; --mem-rule %s would change "
			"the rule of the capsules placed", S.plan_file,
			S.plan.mem_promise ? "promise" : "pool", mo->promise ?
			"promise" : "pool");
		status = OVB_EUSAGE;
	}
	/* the plan made, kept to the exit (freeing a million records cost
	 * more than the exit does) */
	static struct ovb_place_res res;
	if (!status) {
		Q.cluster = &S.cluster;
		Q.apps = &S.apps;
		Q.prof = &S.prof;
		Q.existing = S.have_plan ? &S.plan : NULL;
		Q.cluster_file = S.cluster_file;
		Q.apps_file = S.apps_file;
		Q.plan_file = S.plan_file;
		/* the profile whose forecast ends first, or NULL: the plan's
		 * date unless --valid-until gives one */
		Q.forecast = ovb_profiles_forecast(&S.prof);
		/* unmeasured is not zero: refused, or (--unmeasured=zero)
		 * read as 0 with a warning; lower bounds on what a capsule
		 * does not use */
		status = ovb_apps_measured(&S.apps, S.apps_file, &S.prof,
			&S.cluster);
		if (!status)
			status = ovb_place_run(&Q, &res);
		if (!status)
			mark_unmeasured(&res.plan);
		if (!status && ovb_enforce_mask) {  /* what it was placed for */
			res.plan.enforce = ovb_enforce_mask;
			res.plan.enf_hz = ovb_klim.hz;
			res.plan.enf_mtu = ovb_klim.mtu;
			res.plan.enf_dlcap = ovb_klim.dl_cap;
		}
	}
	struct ovb_out out;
	if (!status && !(status = ovb_out_open(&out, ovb_opt_output))) {
		ovb_plan_write(out.f, &res.plan);
		status = ovb_out_end(&out, status);
		if (!status && opt_migrations)
			status = write_migrations(&res.plan);
		if (!status && Q.strict && res.nrejected) {
			if (!ovb_quiet)
				ovb_warn("%zu application%s rejected (--strict)",
					res.nrejected, res.nrejected == 1 ? "" : "s");
			status = OVB_FAIL;
		}
	}
	return status;
}
