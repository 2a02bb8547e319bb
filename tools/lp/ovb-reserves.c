/* ovb-reserves: Cluster Reserves allocations, round after round.
 *
 * Reads one ovb-reserves file (stdin when none or "-"): classes with
 * desired cluster-wide shares D, nodes, and rounds of per-node usage u
 * (round 1 may give the current allocation r; by default r = D on every
 * node).  For each round it computes the new allocation R, which becomes r
 * of the next round (the manager loop), and writes the file again with r
 * and R of every round (or an ovb-plan of the last round's R, or a TSV of
 * the cluster-wide shares per round).  --method lp (default) is the three
 * steps of section 3.2.1 (least deviation by GLPK, the allocation closest
 * to u + k achieving it, spare capacity to idle classes below their
 * share); --method bank is section 3.2.2.  --fanout K manages groups of at
 * most K nodes separately under a top level that divides each class's
 * share among the groups (lp: column generation on step 1's flow, whose
 * prices certify a lower bound of the flat V and whose targets every group
 * can meet, so the deviation is the flat V; bank: each group as two
 * aggregate nodes split by a minimum cut).  The groups are independent:
 * --jobs and --worker-cmd run them in workers (`ovb-reserves --serve`,
 * the protocol of formats/worker.md).
 *
 * Invariants: every R has 0 <= R <= 100 and at most 100 per node; with
 * the LP and steps 1-2, floor <= R <= the usage cap and the deviation is
 * V within 1e-7 sum_j (1 + T[j]); results do not depend on --jobs.  Input is checked
 * before any solving; output is all or nothing. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <glpk.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

enum { OPT_METHOD = 'm', OPT_JOBS = 'j', OPT_STEPS = 0x100, OPT_FLOOR,
	OPT_ACC, OPT_COLD, OPT_INITIAL, OPT_BANKC, OPT_BANKKEEP, OPT_FANOUT,
	OPT_GROUPING, OPT_SEED, OPT_PLAN, OPT_CLUSTER, OPT_TAU, OPT_REPORT,
	OPT_ITERATE, OPT_WORKER_CMD, OPT_HOSTS, OPT_SERVE };
enum grouping { G_CONTIGUOUS, G_RANDOM, G_SIMILAR };

static struct ovb_rsv_opt opt = { .method = OVB_RSV_LP, .steps = 3,
	.accuracy = 1e-4, .bank_c = 2, .bank_keep = 0 };
static double opt_floor = 1, opt_tau = 1;
static bool opt_equal, opt_plan, opt_report;
static size_t opt_fanout, opt_jobs = 1;
static enum grouping opt_grouping = G_CONTIGUOUS;
static uint64_t opt_seed = 1;
static const char *opt_cluster, *opt_input, *opt_worker_cmd;
static const char *opt_hosts = "localhost";
static size_t opt_iterate = 1000;
static bool opt_serve, opt_jobs_set;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Method:", 1 },
	{ "method", OPT_METHOD, "lp|bank", 0,
	  "lp: Cluster Reserves, steps 1-3 (default); bank: the bank "
	  "algorithm", 0 },
	{ "steps", OPT_STEPS, "N", 0, "lp: run steps 1..N only (1-3; default 3)",
	  0 },
	{ "floor", OPT_FLOOR, "PCT", 0,
	  "Least allocation of every class on every node (default 1)", 0 },
	{ "accuracy", OPT_ACC, "POINTS", 0,
	  "lp step 2: R within this many points of the optimum (default 1e-4; "
	  "1e-9 to 0.01)", 0 },
	{ "cold", OPT_COLD, NULL, 0,
	  "Solve every round from scratch (no basis, no prices kept)", 0 },
	{ "initial", OPT_INITIAL, "share|equal", 0,
	  "r of round 1 when the file has none: D on every node (default) or "
	  "100/S each", 0 },
	{ "bank-c", OPT_BANKC, "TICKETS", 0,
	  "bank step 2: c, the adjustment towards usage (default 2)", 0 },
	{ "bank-keep", OPT_BANKKEEP, "F", 0,
	  "bank: fraction of balances carried to the next round: 0 spatial "
	  "compensation only (default), 1 full temporal", 0 },
	{ NULL, 0, NULL, 0, "Hierarchy:", 2 },
	{ "fanout", OPT_FANOUT, "K", 0,
	  "Groups of at most K nodes under one top level (default: one "
	  "flat problem)", 0 },
	{ "grouping", OPT_GROUPING, "HOW", 0,
	  "contiguous (file order, default), random (--seed), similar (nodes "
	  "with the same most over-represented class together)", 0 },
	{ "seed", OPT_SEED, "N", 0, "Seed of --grouping random (default 1)", 0 },
	{ "jobs", OPT_JOBS, "N", 0,
	  "Solve the groups in N worker processes (default 1; with "
	  "--worker-cmd, one per host)", 0 },
	{ "iterate", OPT_ITERATE, "N", 0,
	  "lp, --fanout: at most N pricing rounds of the top level per round "
	  "(default 1000; it stops earlier once its bound and its flow meet; "
	  "1: one round, no prices)", 0 },
	{ "worker-cmd", OPT_WORKER_CMD, "CMD", 0,
	  "Start each worker with the shell command CMD, which must run "
	  "'ovb-reserves --serve' (%h: a host of --hosts, %%: %); e.g. "
	  "'ssh -T %h ovb-reserves --serve'", 0 },
	{ "hosts", OPT_HOSTS, "H1,H2,...", 0,
	  "Hosts for %h of --worker-cmd, round-robin (default localhost)", 0 },
	{ "serve", OPT_SERVE, NULL, 0,
	  "Be a worker: the ovb-worker protocol (formats/worker.md) on "
	  "standard input and output", 0 },
	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "plan", OPT_PLAN, NULL, 0,
	  "Write the last round's R as an ovb-plan instead", 0 },
	{ "cluster", OPT_CLUSTER, "FILE", 0,
	  "--plan: CPU capacities of the nodes (default 1 cpu each)", 0 },
	{ "tau", OPT_TAU, "SECONDS", 0, "--plan: the period tau (default 1)", 0 },
	{ "report", OPT_REPORT, NULL, 0,
	  "Write a TSV of each class's cluster-wide share per round instead",
	  0 },
	{ 0 }
};

static const char doc[] =
	"Compute Cluster Reserves allocations round after round."
	"\v"
	"Reads an ovb-reserves file (formats/reserves.md) and writes it with r "
	"and R of every round (R on a grid of 1e-9 points), then '#' notes: "
	"V, the deviation and step 2's proven accuracy per round.  R of round "
	"k is r of round k+1 (any r given for it is replaced).  D is percent "
	"of the cluster, u, r, R percent of a node; N nodes, T[j] = N D[j]; "
	"the deviation is sum_j |sum_i R[i,j] - T[j]|.\n\n"
	"lp step 1 (GLPK simplex): V = the least deviation with sum_j R[i,j] "
	"<= 100, R >= floor, and R <= max(u, floor) where r > u + 1e-6.  The "
	"paper's R <= u and R >= 1 contradict each other for an idle class "
	"(u < 1); the cap yields to the floor, so every class keeps a reserve "
	"on every node, ready for requests.  Step 2: among allocations with "
	"deviation at most V + 1e-7 sum_j (1 + T[j]) (GLPK's tolerance on the "
	"class rows), the one minimizing sum (R - u - k)^2, k = min(5, 500 (D "
	"- u) / D) if u < D else max(-5, 500 (D - u) / D), solved exactly by "
	"its dual (water-filling per node, Newton on the class prices), to a "
	"proven bound on max |R - R*|.  Step 3: capacity left on a node goes "
	"to the classes idle there (r > u) whose sum_i R is below T, in "
	"proportion to T, until each reaches T (what one declines is offered "
	"to the others).  Warm starts: GLPK resumes from the best of the last "
	"3 optimal bases, and step 2 from the last prices.\n\n"
	"bank (section 3.2.2, tickets = percent): 1 deposit unused allocation, "
	"max(0, r - u); 2 R = u + c where the class used all of r (needy), u "
	"- c elsewhere; 3 take back excess above T in proportion above the "
	"floor, give a deficit on needy nodes in proportion to R; 4 withdraw "
	"what step 3 could not take back, deposit what it could not give; 5 "
	"pay positive balances on needy nodes; 6 scale each node to 100 above "
	"the floors, keep --bank-keep of the balances.\n\n"
	"--fanout K: groups of at most K nodes (sizes differ by at most one).  "
	"lp: step 1 is a maximum flow (classes -> cells -> nodes), and the "
	"top level finds it by column generation: for class prices pi in [0, "
	"1] every node fills its classes greedily by increasing price (a "
	"vertex of the cluster's flow polytope), and a small LP (one row per "
	"class and one more) combines the vertices found so far and prices "
	"the classes again, until the flow and the bound pi.e + max (1 - pi)."
	"f meet (--iterate rounds at most).  The bound gives the printed lower "
	"bound of the flat V; each group's target is the same combination of "
	"its own nodes' vertices plus its share (by size) of what no node "
	"can take, so every group meets it and the deviation is the flat V; "
	"once the pricing has converged, the groups take that combination "
	"as their step-1 point and run no LP.  "
	"bank: the top level is the bank over the groups, each as two nodes "
	"split by a minimum cut (single flips of classes).  "
	"similar: nodes sorted by the class with the largest u - "
	"D in round 1.  --jobs N: the groups in N forked workers; "
	"--worker-cmd: in workers started by a command (formats/worker.md), "
	"e.g. on other hosts; the results are the same bytes.\n\n"
	"--report: per round and class, the desired share D, the allocated "
	"share sum_i R / N, the used share sum_i u / N (usage under that "
	"round's r) and allocated - D.\n\n"
	"EXAMPLES:\n"
	"  ovb-reserves t/data/example.reserves         R for every round\n"
	"  ovb-reserves -v --report rounds.reserves     shares per round (TSV)\n"
	"  ovb-reserves -m bank --bank-keep 1 r.reserves  bank, temporal\n"
	"  ovb-reserves --fanout 100 -j 2 big.reserves  hierarchy, 2 workers\n"
	"  ovb-reserves --fanout 100 --hosts n1,n2 --worker-cmd 'ssh -T %h "
	"ovb-reserves --serve' big.reserves\n"
	"  ovb-reserves --plan --cluster c.cluster r.reserves | ovb-fmt\n\n"
	OVB_EXIT_DOC_NOCHECK;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_METHOD:
		if (!strcmp(arg, "lp"))
			opt.method = OVB_RSV_LP;
		else if (!strcmp(arg, "bank"))
			opt.method = OVB_RSV_BANK;
		else
			argp_error(st, "--method: '%s' is not lp or bank", arg);
		return 0;
	case OPT_STEPS:
		opt.steps = (int)ovb_arg_u64(st, "--steps", arg, 1, 3);
		return 0;
	case OPT_FLOOR:
		opt_floor = ovb_arg_real(st, "--floor", arg, 0, 100);
		return 0;
	case OPT_ACC:
		opt.accuracy = ovb_arg_real(st, "--accuracy", arg, 1e-9, 0.01);
		return 0;
	case OPT_COLD: opt.cold = true; return 0;
	case OPT_INITIAL:
		if (!strcmp(arg, "share") || !strcmp(arg, "equal"))
			opt_equal = arg[0] == 'e';
		else
			argp_error(st, "--initial: '%s' is not share or equal", arg);
		return 0;
	case OPT_BANKC:
		opt.bank_c = ovb_arg_real(st, "--bank-c", arg, 0, 100);
		return 0;
	case OPT_BANKKEEP:
		opt.bank_keep = ovb_arg_real(st, "--bank-keep", arg, 0, 1);
		return 0;
	case OPT_FANOUT:
		opt_fanout = ovb_arg_u64(st, "--fanout", arg, 1, 100000000);
		return 0;
	case OPT_GROUPING:
		if (!strcmp(arg, "contiguous"))
			opt_grouping = G_CONTIGUOUS;
		else if (!strcmp(arg, "random"))
			opt_grouping = G_RANDOM;
		else if (!strcmp(arg, "similar"))
			opt_grouping = G_SIMILAR;
		else
			argp_error(st, "--grouping: '%s' is not contiguous, random "
				"or similar", arg);
		return 0;
	case OPT_SEED:
		opt_seed = ovb_arg_u64(st, "--seed", arg, 0, UINT64_MAX);
		return 0;
	case OPT_JOBS:
		opt_jobs = ovb_arg_u64(st, "--jobs", arg, 1, 256);
		opt_jobs_set = true;
		return 0;
	case OPT_ITERATE:
		opt_iterate = ovb_arg_u64(st, "--iterate", arg, 1, 1000);
		return 0;
	case OPT_WORKER_CMD:
		if (!*arg)
			argp_error(st, "--worker-cmd: empty command");
		opt_worker_cmd = arg;
		return 0;
	case OPT_HOSTS:
		if (!*arg || strstr(arg, ",,") || arg[0] == ',' ||
		    arg[strlen(arg) - 1] == ',')
			argp_error(st, "--hosts: '%s' is not a comma-separated list "
				"of hosts", arg);
		opt_hosts = arg;
		return 0;
	case OPT_SERVE: opt_serve = true; return 0;
	case OPT_PLAN: opt_plan = true; return 0;
	case OPT_CLUSTER: opt_cluster = arg; return 0;
	case OPT_TAU:
		opt_tau = ovb_arg_real(st, "--tau", arg, 1e-9, 1e9);
		if (!(opt_tau > 0))
			argp_error(st, "--tau: the period must be positive");
		return 0;
	case OPT_REPORT: opt_report = true; return 0;
	case ARGP_KEY_ARG:
		if (opt_input)
			argp_error(st, "one input file at most");
		opt_input = arg;
		return 0;
	case ARGP_KEY_SUCCESS:
		if (opt_plan && opt_report)
			argp_error(st, "--plan and --report exclude each other");
		if (opt_cluster && !opt_plan)
			argp_error(st, "--cluster goes with --plan");
		if (opt.method == OVB_RSV_BANK && opt.steps != 3)
			argp_error(st, "--steps goes with --method lp");
		if (opt_serve && opt_input)
			argp_error(st, "--serve reads the protocol on standard input, "
				"no file");
		if (opt_worker_cmd && !opt_jobs_set) {
			opt_jobs = 1;
			for (const char *p = opt_hosts; *p; p++)
				opt_jobs += *p == ',';
		}
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE]", doc,
	ovb_cli_child, NULL, NULL };

/* ---- the run: data, groups, managers ---- */

struct round_stat {
	double V, dev[3], acc, acc_best, wall, cpu, sec[3];
	long lp_iter, qp_iter, ipm_iter;
	size_t iters;               /* hierarchy, lp: pricing rounds */
	bool warm;
};

struct mgr {                    /* one manager's problem and buffers */
	size_t n;
	struct ovb_rsv *rsv;
	double *cap, *w, *T, *lb, *ub, *t, *u, *unused, *R;
	unsigned char *idle, *needy;
	double *start;              /* lp groups: the top level's step-1 point */
	bool has_start;             /* for the next solve only */
	struct ovb_rsv_stat st;
	int status;                 /* --serve: of the last solve */
	char why[512];
};

struct run {
	const struct ovb_reserves *rs;
	const char *name;
	size_t N, S, G;
	size_t *order, *gstart;     /* nodes by group; group g is order[gstart[g]..gstart[g+1]) */
	/* leaf cells of the current round */
	double *lb, *ub, *t, *unused;
	unsigned char *idle, *needy;
	const double *u, *r;
	const double *r0;           /* r of round 1 */
	double *R1;                 /* lp hierarchy: the top level's step-1
	                             * point, N x S, node order */
	bool use_R1;                /* it is optimal: the groups take it */
	struct mgr top, *grp;       /* grp: G of them, or NULL when flat */
	struct round_stat *rst;
	char why[512];
};

static void
mgr_init(struct mgr *m, size_t n, size_t s)
{
	memset(m, 0, sizeof *m);
	m->n = n;
	m->rsv = ovb_rsv_new(n, s, &opt);
	m->cap = ovb_xmalloc(n * sizeof *m->cap);
	m->w = ovb_xmalloc(n * sizeof *m->w);
	m->T = ovb_xmalloc(s * sizeof *m->T);
	size_t c = n * s;
	m->lb = ovb_xmalloc(c * sizeof *m->lb);
	m->ub = ovb_xmalloc(c * sizeof *m->ub);
	m->t = ovb_xmalloc(c * sizeof *m->t);
	m->u = ovb_xmalloc(c * sizeof *m->u);
	m->unused = ovb_xmalloc(c * sizeof *m->unused);
	m->R = ovb_xmalloc(c * sizeof *m->R);
	m->idle = ovb_xmalloc(c);
	m->needy = ovb_xmalloc(c);
	m->start = NULL;
}

static void
mgr_free(struct mgr *m)
{
	ovb_rsv_free(m->rsv);
	free(m->cap), free(m->w), free(m->T), free(m->lb), free(m->ub);
	free(m->t), free(m->u), free(m->unused), free(m->R);
	free(m->idle), free(m->needy), free(m->start);
}

static int
mgr_solve(struct mgr *m, size_t s, char *why, size_t len)
{
	struct ovb_rsv_in in = { .n = m->n, .s = s, .cap = m->cap, .w = m->w,
		.T = m->T, .lb = m->lb, .ub = m->ub, .t = m->t, .u = m->u,
		.unused = m->unused, .idle = m->idle, .needy = m->needy,
		.start = m->has_start ? m->start : NULL };
	m->has_start = false;
	return ovb_rsv_solve(m->rsv, &in, m->R, &m->st, why, len);
}

/* The leaf cells of every node for usage u and allocation r. */
static void
leaf_cells(struct run *x, const double *u, const double *r)
{
	size_t S = x->S;
	x->u = u;
	x->r = r;
	for (size_t c = 0; c < x->N * S; c++) {
		bool idle;
		ovb_rsv_cell(x->rs->share[c % S], u[c], r[c], opt_floor, &x->lb[c],
			&x->ub[c], &x->t[c], &idle);
		x->idle[c] = idle;
		x->needy[c] = !idle;
		x->unused[c] = fmax(0, r[c] - u[c]);
	}
}

/* Group g's manager gets its nodes' cells and the targets T. */
static int
group_solve(struct run *x, size_t g, const double *T, double *Rout)
{
	struct mgr *m = &x->grp[g];
	size_t S = x->S;
	memcpy(m->T, T, S * sizeof *T);
	for (size_t a = 0; a < m->n; a++) {
		size_t i = x->order[x->gstart[g] + a];
		m->cap[a] = 100;
		m->w[a] = 1;
		size_t src = i * S, dst = a * S;
		memcpy(m->lb + dst, x->lb + src, S * sizeof *m->lb);
		memcpy(m->ub + dst, x->ub + src, S * sizeof *m->ub);
		memcpy(m->t + dst, x->t + src, S * sizeof *m->t);
		memcpy(m->u + dst, x->u + src, S * sizeof *m->u);
		memcpy(m->unused + dst, x->unused + src, S * sizeof *m->unused);
		memcpy(m->idle + dst, x->idle + src, S);
		memcpy(m->needy + dst, x->needy + src, S);
	}
	if (x->use_R1) {
		if (!m->start)
			m->start = ovb_xmalloc(m->n * S * sizeof *m->start);
		for (size_t a = 0; a < m->n; a++)
			memcpy(m->start + a * S, x->R1 + x->order[x->gstart[g] + a] *
				S, S * sizeof *m->start);
		m->has_start = true;
	}
	int st = mgr_solve(m, S, x->why, sizeof x->why);
	if (!st)
		for (size_t a = 0; a < m->n; a++)
			memcpy(Rout + x->order[x->gstart[g] + a] * S, m->R + a * S,
				S * sizeof *Rout);
	return st;
}

/* R as written: on a grid of 1e-9 points (far below step 2's accuracy;
 * short decimals, and the next round's r is exactly what the file says),
 * never below the floor, each node still within 100. */
static void
quantize(const struct run *x, double *R)
{
	for (size_t i = 0; i < x->N; i++) {
		double *Ri = R + i * x->S, sum = 0;
		for (size_t j = 0; j < x->S; j++) {
			Ri[j] = fmax(round(Ri[j] * 1e9) / 1e9, fmin(opt_floor, Ri[j]));
			sum += Ri[j];
		}
		for (size_t j = 0; sum > 100 && j < x->S; j++) {
			double cut = fmin(sum - 100, Ri[j] - fmin(opt_floor, Ri[j]));
			Ri[j] -= cut;
			sum -= cut;
		}
	}
}

/* ---- workers for the groups (--jobs, --worker-cmd) ----
 *
 * A worker is `ovb-reserves --serve` (or a forked copy of this process
 * running the same loop) speaking the ovb-worker protocol of
 * formats/worker.md on its standard input and output.  Worker w solves
 * the groups g with g mod W = w, keeping one manager per group (warm
 * starts, bank balances) across rounds and iterations.  Requests to a
 * worker end with SYNC; only then does it solve and answer, so neither
 * side ever blocks writing while the other writes, and the parent's
 * writes to one worker never wait for its solves. */

enum { MSG_CELLS = 1, MSG_SOLVE = 2, MSG_SYNC = 3, MSG_START = 4 };

struct worker {
	pid_t pid;
	FILE *to, *from;
	char *cmd;
};
static struct worker *workers;
static size_t nworkers;

/* Fills m's cells from usage u and allocation r (n x S) and D. */
static void
mgr_cells(struct mgr *m, size_t S, const double *D, const double *u,
	const double *r)
{
	for (size_t a = 0; a < m->n; a++) {
		m->cap[a] = 100;
		m->w[a] = 1;
		for (size_t j = 0; j < S; j++) {
			size_t c = a * S + j;
			bool idle;
			ovb_rsv_cell(D[j], u[c], r[c], opt_floor, &m->lb[c], &m->ub[c],
				&m->t[c], &idle);
			m->u[c] = u[c];
			m->idle[c] = idle;
			m->needy[c] = !idle;
			m->unused[c] = fmax(0, r[c] - u[c]);
		}
	}
}

static bool
put_stat(FILE *f, const struct ovb_rsv_stat *st)
{
	double v[9] = { st->V, st->dev[0], st->dev[1], st->dev[2], st->acc,
		st->shortfall, st->sec[0], st->sec[1], st->sec[2] };
	return ovb_wire_put_f64(f, v, 9) &&
		ovb_wire_put_u64(f, (uint64_t)st->lp_iter) &&
		ovb_wire_put_u64(f, (uint64_t)st->qp_iter) &&
		ovb_wire_put_u64(f, (uint64_t)st->ipm_iter) &&
		ovb_wire_put_u64(f, (uint64_t)st->evals) &&
		ovb_wire_put_u64(f, st->warm) && ovb_wire_put_u64(f, st->how);
}

static bool
get_stat(FILE *f, struct ovb_rsv_stat *st)
{
	double v[9];
	uint64_t a[6];
	if (!ovb_wire_get_f64(f, v, 9))
		return false;
	for (int k = 0; k < 6; k++)
		if (!ovb_wire_get_u64(f, &a[k]))
			return false;
	memset(st, 0, sizeof *st);
	st->V = v[0], st->dev[0] = v[1], st->dev[1] = v[2], st->dev[2] = v[3];
	st->acc = v[4], st->shortfall = v[5];
	st->sec[0] = v[6], st->sec[1] = v[7], st->sec[2] = v[8];
	st->lp_iter = (long)a[0], st->qp_iter = (long)a[1];
	st->ipm_iter = (long)a[2], st->evals = (long)a[3];
	st->warm = a[4] != 0;
	st->how = a[5] == OVB_RSV_IPM ? OVB_RSV_IPM : a[5] == OVB_RSV_STEP1 ?
		OVB_RSV_STEP1 : OVB_RSV_NEWTON;
	return true;
}

static int
serve_bad(const char *what)
{
	ovb_warn("--serve: <stdin>: %s (not the ovb-worker %d protocol of "
		"formats/worker.md)", what, OVB_WIRE_VERSION);
	return OVB_EDATA;
}

/* --serve: the worker loop on in/out.  0 at the end of input. */
static int
serve(FILE *in, FILE *out, const char *name)
{
	uint64_t v, S, a[4];
	int m0 = ovb_wire_get_magic(in, &v);
	if (m0 < 0)
		return serve_bad("no greeting");
	if (m0 > 0)
		return serve_bad("bad magic");
	if (v != OVB_WIRE_VERSION)
		return serve_bad("unknown protocol version");
	if (!ovb_wire_get_u64(in, &S) || S == 0 || S > 1000000)
		return serve_bad("bad class count");
	for (int k = 0; k < 4; k++)
		if (!ovb_wire_get_u64(in, &a[k]))
			return serve_bad("short greeting");
	double f[4], *D = ovb_xmalloc(S * sizeof *D);
	if (!ovb_wire_get_f64(in, f, 4) || !ovb_wire_get_f64(in, D, S)) {
		free(D);
		return serve_bad("short greeting");
	}
	bool good = a[0] <= 1 && a[1] >= 1 && a[1] <= 3 && a[2] <= 1 &&
		f[0] >= 0 && f[0] <= 100 && f[1] >= 1e-9 && f[1] <= 0.01 &&
		f[2] >= 0 && f[2] <= 100 && f[3] >= 0 && f[3] <= 1;
	for (size_t j = 0; good && j < S; j++)
		good = D[j] >= 0 && D[j] <= 100;
	if (!good) {
		free(D);
		return serve_bad("bad options or shares");
	}
	opt.method = a[0] ? OVB_RSV_BANK : OVB_RSV_LP;
	opt.steps = (int)a[1];
	opt.cold = a[2] != 0;
	opt_floor = f[0], opt.accuracy = f[1], opt.bank_c = f[2];
	opt.bank_keep = f[3];
	if (!ovb_wire_put_magic(out) || fflush(out)) {
		int e = errno;
		free(D);
		return ovb_write_error(out, name, e);
	}
	struct mgr *grp = NULL;
	size_t ngrp = 0, *done = NULL, ndone = 0, cdone = 0;
	double *buf = NULL;
	size_t nbuf = 0;
	int st = 0;
	for (;;) {
		uint64_t tag, g, n;
		if (!ovb_wire_get_u64(in, &tag))
			break;
		if (tag == MSG_SYNC) {
			/* Solves come here, after the whole batch has been read,
			 * so the parent's writes never wait for a solve. */
			for (size_t k = 0; k < ndone; k++) {
				struct mgr *m = &grp[done[k]];
				m->status = mgr_solve(m, S, m->why, sizeof m->why);
			}
			bool ok = true;
			for (size_t k = 0; ok && k < ndone; k++) {
				struct mgr *m = &grp[done[k]];
				int s2 = m->status;
				ok = ovb_wire_put_u64(out, (uint64_t)s2);
				if (ok && s2) {
					size_t len = strlen(m->why);
					ok = ovb_wire_put_u64(out, len) &&
						fwrite(m->why, 1, len, out) == len;
				} else if (ok) {
					ok = put_stat(out, &m->st) && ovb_wire_put_f64(out,
						ovb_rsv_cols2(m->rsv), S) && ovb_wire_put_f64(out,
						m->R, m->n * S);
				}
			}
			ndone = 0;
			if (!ok || fflush(out)) {
				st = ovb_write_error(out, name, errno);
				break;
			}
			continue;
		}
		if (!ovb_wire_get_u64(in, &g) || g > 100000000) {
			st = serve_bad("bad group");
			break;
		}
		if (g >= ngrp) {
			grp = ovb_xrealloc(grp, g + 1, sizeof *grp);
			memset(grp + ngrp, 0, (g + 1 - ngrp) * sizeof *grp);
			ngrp = g + 1;
		}
		struct mgr *m = &grp[g];
		if (tag == MSG_CELLS) {
			if (!ovb_wire_get_u64(in, &n) || n == 0 || n > 100000000 ||
			    (m->rsv && m->n != n)) {
				st = serve_bad("bad node count");
				break;
			}
			if (!m->rsv)
				mgr_init(m, n, S);
			if (nbuf < 2 * n * S) {
				nbuf = 2 * n * S;
				buf = ovb_xrealloc(buf, nbuf, sizeof *buf);
			}
			if (!ovb_wire_get_f64(in, buf, 2 * n * S)) {
				st = serve_bad("short cells");
				break;
			}
			mgr_cells(m, S, D, buf, buf + n * S);
		} else if (tag == MSG_START) {
			if (!m->rsv) {
				st = serve_bad("a start point without cells");
				break;
			}
			if (!m->start)
				m->start = ovb_xmalloc(m->n * S * sizeof *m->start);
			if (!ovb_wire_get_f64(in, m->start, m->n * S)) {
				st = serve_bad("short start point");
				break;
			}
			m->has_start = true;
		} else if (tag == MSG_SOLVE) {
			if (!m->rsv || !ovb_wire_get_f64(in, m->T, S)) {
				st = serve_bad("a solve without cells, or short");
				break;
			}
			*OVB_PUSH(done, ndone, cdone) = g;
		} else {
			st = serve_bad("unknown message");
			break;
		}
	}
	for (size_t g = 0; g < ngrp; g++)
		if (grp[g].rsv)
			mgr_free(&grp[g]);
	free(grp), free(done), free(buf), free(D);
	return st;
}

/* The command of worker w: --worker-cmd with %h the host (from --hosts,
 * round-robin) and %% a percent sign. */
static char *
worker_cmd(size_t w)
{
	size_t nh = 1;
	for (const char *p = opt_hosts; *p; p++)
		nh += *p == ',';
	size_t h = w % nh;
	const char *host = opt_hosts;
	for (size_t k = 0; k < h; k++)
		host = strchr(host, ',') + 1;
	size_t hl = strcspn(host, ",");
	size_t len = 0, cap = strlen(opt_worker_cmd) + 1;
	char *s = ovb_xmalloc(cap);
	for (const char *p = opt_worker_cmd; *p; p++) {
		const char *add = p;
		size_t al = 1;
		if (p[0] == '%' && p[1] == 'h')
			add = host, al = hl, p++;
		else if (p[0] == '%' && p[1] == '%')
			p++;
		if (len + al + 1 > cap) {
			cap = 2 * (len + al + 1);
			s = ovb_xrealloc(s, cap, 1);
		}
		memcpy(s + len, add, al);
		len += al;
	}
	s[len] = 0;
	return s;
}

static struct sigaction pipe_before;

static int
workers_start(struct run *x)
{
	nworkers = opt_jobs < x->G ? opt_jobs : x->G;
	workers = ovb_xcalloc(nworkers, sizeof *workers);
	/* a worker that dies is a write error on its pipe, not our death; the
	 * caller's disposition comes back in workers_stop */
	struct sigaction ign;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &pipe_before);
	fflush(NULL);
	for (size_t w = 0; w < nworkers; w++) {
		int a[2], b[2];
		struct worker *wk = &workers[w];
		wk->cmd = opt_worker_cmd ? worker_cmd(w) : NULL;
		/* close-on-exec: a command worker holds its own ends only */
		if (pipe2(a, O_CLOEXEC) || pipe2(b, O_CLOEXEC)) {
			ovb_warn("pipe: %s", strerror(errno));
			return OVB_ESOFT;
		}
		pid_t pid;
		if (wk->cmd) {
			char *argv[] = { "sh", "-c", wk->cmd, NULL };
			int e = ovb_proc_spawn(&pid, "/bin/sh", argv, a[0], b[1],
				-1);
			if (e) {
				ovb_warn("worker %zu: %s: cannot run /bin/sh: %s",
					w + 1, wk->cmd, strerror(e));
				return OVB_EUNAVAIL;
			}
		} else if ((pid = fork()) < 0) {
			ovb_warn("fork: %s", strerror(errno));
			return OVB_ESOFT;
		}
		if (!wk->cmd && pid == 0) {
			/* a worker in this process's image: no program to run */
			close(a[1]);
			close(b[0]);
			for (size_t v = 0; v < w; v++) {
				fclose(workers[v].to);
				fclose(workers[v].from);
			}
			FILE *in = fdopen(a[0], "rb"), *out = fdopen(b[1], "wb");
			if (!in || !out)
				_exit(OVB_ESOFT);
			/* its output ends as every tool's does (lib/io.c) */
			int st = serve(in, out, "<pipe to the parent>");
			int st2 = ovb_stream_close(out, "<pipe to the parent>",
				true);
			_exit(st > st2 ? st : st2);
		}
		close(a[0]);
		close(b[1]);
		wk->pid = pid;
		wk->to = fdopen(a[1], "wb");
		wk->from = fdopen(b[0], "rb");
		if (!wk->to || !wk->from) {
			ovb_warn("fdopen: %s", strerror(errno));
			return OVB_ESOFT;
		}
		uint64_t hello[4] = { opt.method == OVB_RSV_BANK, (uint64_t)opt.steps,
			opt.cold, 0 };
		double f[4] = { opt_floor, opt.accuracy, opt.bank_c, opt.bank_keep };
		bool ok = ovb_wire_put_magic(wk->to) &&
			ovb_wire_put_u64(wk->to, x->S);
		for (int k = 0; ok && k < 4; k++)
			ok = ovb_wire_put_u64(wk->to, hello[k]);
		ok = ok && ovb_wire_put_f64(wk->to, f, 4) &&
			ovb_wire_put_f64(wk->to, x->rs->share, x->S) && !fflush(wk->to);
		if (!ok) {
			ovb_warn("worker %zu%s%s: cannot write to it", w + 1, wk->cmd ?
				": " : "", wk->cmd ? wk->cmd : "");
			return OVB_EUNAVAIL;
		}
	}
	for (size_t w = 0; w < nworkers; w++) {
		uint64_t v;
		if (ovb_wire_get_magic(workers[w].from, &v) || v !=
		    OVB_WIRE_VERSION) {
			ovb_warn("worker %zu%s%s: no ovb-worker %d greeting (did the "
				"command start 'ovb-reserves --serve'?)", w + 1,
				workers[w].cmd ? ": " : "", workers[w].cmd ?
				workers[w].cmd : "", OVB_WIRE_VERSION);
			return OVB_EUNAVAIL;
		}
	}
	return 0;
}

static void
workers_stop(void)
{
	for (size_t w = 0; w < nworkers; w++) {
		if (workers[w].to)
			fclose(workers[w].to);
		if (workers[w].from)
			fclose(workers[w].from);
	}
	for (size_t w = 0; w < nworkers; w++) {
		if (workers[w].pid > 0)
			waitpid(workers[w].pid, NULL, 0);
		free(workers[w].cmd);
	}
	free(workers);
	workers = NULL;
	nworkers = 0;
	sigaction(SIGPIPE, &pipe_before, NULL);
}

/* One pass of the groups through the workers: the round's cells first
 * when cells, then the targets A (G x S); R and each group's column
 * sums after step 2 (cols, G x S) back. */
static int
groups_by_workers(struct run *x, bool cells, const double *A, double *R,
	double *cols)
{
	size_t S = x->S;
	double *buf = NULL;
	size_t nbuf = 0;
	for (size_t w = 0; w < nworkers; w++) {
		FILE *f = workers[w].to;
		bool ok = true;
		for (size_t g = w; ok && g < x->G; g += nworkers) {
			size_t n = x->gstart[g + 1] - x->gstart[g];
			if (cells) {
				if (nbuf < 2 * n * S) {
					nbuf = 2 * n * S;
					buf = ovb_xrealloc(buf, nbuf, sizeof *buf);
				}
				for (size_t a = 0; a < n; a++) {
					size_t i = x->order[x->gstart[g] + a];
					memcpy(buf + a * S, x->u + i * S, S * sizeof *buf);
					memcpy(buf + (n + a) * S, x->r + i * S, S * sizeof *buf);
				}
				ok = ovb_wire_put_u64(f, MSG_CELLS) && ovb_wire_put_u64(f, g)
					&& ovb_wire_put_u64(f, n) && ovb_wire_put_f64(f, buf,
					2 * n * S);
			}
			if (ok && x->use_R1) {
				if (nbuf < n * S) {
					nbuf = n * S;
					buf = ovb_xrealloc(buf, nbuf, sizeof *buf);
				}
				for (size_t a = 0; a < n; a++)
					memcpy(buf + a * S, x->R1 + x->order[x->gstart[g] + a] *
						S, S * sizeof *buf);
				ok = ovb_wire_put_u64(f, MSG_START) && ovb_wire_put_u64(f, g)
					&& ovb_wire_put_f64(f, buf, n * S);
			}
			ok = ok && ovb_wire_put_u64(f, MSG_SOLVE) &&
				ovb_wire_put_u64(f, g) && ovb_wire_put_f64(f, A + g * S, S);
		}
		if (!ok || !ovb_wire_put_u64(f, MSG_SYNC) || fflush(f)) {
			free(buf);
			goto lost;
		}
	}
	free(buf);
	int status = 0;
	for (size_t w = 0; w < nworkers; w++) {
		FILE *f = workers[w].from;
		for (size_t g = w; g < x->G; g += nworkers) {
			uint64_t st;
			if (!ovb_wire_get_u64(f, &st))
				goto lost;
			if (st && st != OVB_EDATA && st != OVB_ESOFT)
				goto lost;
			if (st) {
				uint64_t len;
				char why[sizeof x->why];
				if (!ovb_wire_get_u64(f, &len) || len >= sizeof why ||
				    fread(why, 1, len, f) != len)
					goto lost;
				why[len] = 0;
				if (!status) {
					status = (int)st;
					memcpy(x->why, why, sizeof why);
				}
				continue;
			}
			if (!get_stat(f, &x->grp[g].st) || !ovb_wire_get_f64(f,
			    cols + g * S, S))
				goto lost;
			for (size_t a = x->gstart[g]; a < x->gstart[g + 1]; a++)
				if (!ovb_wire_get_f64(f, R + x->order[a] * S, S))
					goto lost;
		}
	}
	return status;
lost:
	snprintf(x->why, sizeof x->why, "a worker process died or broke the "
		"ovb-worker protocol%s%s", opt_worker_cmd ? " (--worker-cmd " : "",
		opt_worker_cmd ? "failed?)" : "");
	return OVB_EUNAVAIL;
}

/* ---- grouping ---- */

struct simkey { size_t node, cls; double excess; };

static int
simcmp(const void *a, const void *b)
{
	const struct simkey *p = a, *q = b;
	if (p->cls != q->cls)
		return p->cls < q->cls ? -1 : 1;
	if (p->excess != q->excess)
		return p->excess > q->excess ? -1 : 1;
	return p->node < q->node ? -1 : p->node > q->node;
}

/* Nodes in group order: file order, shuffled, or sorted by the class most
 * over-represented in round 1's u (largest u - D), then by that excess. */
static void
make_groups(struct run *x)
{
	size_t N = x->N, S = x->S;
	x->order = ovb_xmalloc(N * sizeof *x->order);
	for (size_t i = 0; i < N; i++)
		x->order[i] = i;
	if (opt_grouping == G_RANDOM) {
		uint64_t s = opt_seed;
		for (size_t i = N; i > 1; i--) {
			size_t j = (size_t)(ovb_rng_next(&s) % i), t = x->order[i - 1];
			x->order[i - 1] = x->order[j];
			x->order[j] = t;
		}
	} else if (opt_grouping == G_SIMILAR) {
		struct simkey *k = ovb_xmalloc(N * sizeof *k);
		const double *u = x->rs->round[0].u;
		for (size_t i = 0; i < N; i++) {
			k[i] = (struct simkey){ i, 0, -INFINITY };
			for (size_t j = 0; j < S; j++) {
				double e = u[i * S + j] - x->rs->share[j];
				if (e > k[i].excess)
					k[i].cls = j, k[i].excess = e;
			}
		}
		ovb_qsort(k, N, sizeof *k, simcmp);
		for (size_t i = 0; i < N; i++)
			x->order[i] = k[i].node;
		free(k);
	}
	x->G = opt_fanout && opt_fanout < N ? (N + opt_fanout - 1) / opt_fanout : 1;
	x->gstart = ovb_xmalloc((x->G + 1) * sizeof *x->gstart);
	for (size_t g = 0; g <= x->G; g++)
		x->gstart[g] = g * (N / x->G) + (g < N % x->G ? g : N % x->G);
}

/* ---- rounds ---- */

static double
cluster_dev(const struct run *x, const double *R)
{
	double v = 0;
	for (size_t j = 0; j < x->S; j++) {
		long double c = 0;
		for (size_t i = 0; i < x->N; i++)
			c += R[i * x->S + j];
		v += fabs((double)(c - (double)x->N * x->rs->share[j]));
	}
	return v;
}

static void
add_stat(struct round_stat *rs, const struct ovb_rsv_stat *st)
{
	rs->lp_iter += st->lp_iter;
	rs->qp_iter += st->qp_iter;
	rs->ipm_iter += st->ipm_iter;
	rs->acc = fmax(rs->acc, st->acc);
	rs->cpu += st->sec[0] + st->sec[1] + st->sec[2];
	for (int p = 0; p < 3; p++)
		rs->sec[p] += st->sec[p];
	rs->warm |= st->warm;
}

/* The bank's top level: a lower bound of the flat step-1 V from the leaf
 * cells, by max-flow min-cut, and the cut that splits each group in two.
 * With L[j] = sum_i lb, J the classes with L[j] < T[j], e[j] = T[j] -
 * L[j], V = sum_{j not in J} (L[j] - T[j]) + sum_J e[j] - F, F
 * the largest flow from the classes (at most e[j] each) through the cells
 * (at most ub - lb) into the nodes (at most 100 - sum_j lb).  Any set A of
 * classes is a cut: F <= sum_{J \ A} e[j] + sum_i min(c[i], sum_{j in A}
 * d[i,j]).  A is found by flipping single classes while the cut shrinks,
 * from A = J and from A = {}; the least cut found gives the bound. */
static double
cut_bound(const struct run *x, unsigned char *Kbest)
{
	size_t N = x->N, S = x->S;
	double *e = ovb_xmalloc(S * sizeof *e), *c = ovb_xmalloc(N * sizeof *c),
		*sA = ovb_xmalloc(N * sizeof *sA);
	bool *inJ = ovb_xmalloc(S * sizeof *inJ), *A = ovb_xmalloc(S * sizeof *A);
	long double base = 0, sumE = 0;
	for (size_t j = 0; j < S; j++) {
		long double L = 0, T = (long double)N * x->rs->share[j];
		for (size_t i = 0; i < N; i++)
			L += x->lb[i * S + j];
		inJ[j] = L < T;
		e[j] = inJ[j] ? (double)(T - L) : 0;
		if (inJ[j])
			sumE += e[j];
		else
			base += L - T;
	}
	for (size_t i = 0; i < N; i++) {
		long double L = 0;
		for (size_t j = 0; j < S; j++)
			L += x->lb[i * S + j];
		c[i] = fmax(0, (double)(100 - L));
	}
	long double best = sumE;                /* A = {} */
	memset(Kbest, 0, S);
	for (int start = 0; start < 2; start++) {
		long double cut = 0;
		for (size_t j = 0; j < S; j++) {
			A[j] = start && inJ[j];
			if (inJ[j] && !A[j])
				cut += e[j];
		}
		for (size_t i = 0; i < N; i++) {
			long double v = 0;
			for (size_t j = 0; j < S; j++)
				if (A[j])
					v += x->ub[i * S + j] - x->lb[i * S + j];
			sA[i] = (double)v;
			cut += fminl(c[i], v);
		}
		for (int pass = 0; pass < 100; pass++) {
			bool moved = false;
			for (size_t j = 0; j < S; j++) {
				if (!inJ[j])
					continue;
				double sg = A[j] ? -1 : 1;
				long double dlt = A[j] ? e[j] : -e[j];
				for (size_t i = 0; i < N; i++) {
					double d = x->ub[i * S + j] - x->lb[i * S + j];
					dlt += fmin(c[i], sA[i] + sg * d) - fmin(c[i], sA[i]);
				}
				if (dlt < -1e-9 * (1 + fabsl(cut))) {
					A[j] = !A[j];
					for (size_t i = 0; i < N; i++)
						sA[i] += sg * (x->ub[i * S + j] - x->lb[i * S + j]);
					cut += dlt;
					moved = true;
				}
			}
			if (!moved)
				break;
		}
		/* recompute the cut exactly from A (no drift) */
		cut = 0;
		for (size_t j = 0; j < S; j++)
			if (inJ[j] && !A[j])
				cut += e[j];
		for (size_t i = 0; i < N; i++) {
			long double v = 0;
			for (size_t j = 0; j < S; j++)
				if (A[j])
					v += x->ub[i * S + j] - x->lb[i * S + j];
			cut += fminl(c[i], v);
		}
		if (cut < best) {
			best = cut;
			for (size_t j = 0; j < S; j++)
				Kbest[j] = A[j];
		}
	}
	free(e), free(c), free(sA), free(inJ), free(A);
	return (double)(base + sumE - best);
}

/* The top level's problem from the leaf cells: each group as two
 * aggregate nodes, its nodes on the sink side of the cut K (c[i] <
 * sum_K d[i,j]: K's classes could fill them) and the others, cells
 * summed, each class's bound min(ub - lb, c) per node.  With K a minimum
 * cut, the flat V is then the top level's V as well: the cut's capacity
 * is the parts' capacities plus the K classes' bounds. */
static void
top_build(struct run *x, const unsigned char *K)
{
	struct mgr *m = &x->top;
	size_t S = x->S, P = 2 * x->G;
	for (size_t j = 0; j < S; j++)
		m->T[j] = (double)x->N * x->rs->share[j];
	memset(m->lb, 0, P * S * sizeof *m->lb);
	memset(m->ub, 0, P * S * sizeof *m->ub);
	memset(m->t, 0, P * S * sizeof *m->t);
	memset(m->u, 0, P * S * sizeof *m->u);
	memset(m->unused, 0, P * S * sizeof *m->unused);
	memset(m->idle, 0, P * S);
	memset(m->needy, 0, P * S);
	for (size_t p = 0; p < P; p++)
		m->cap[p] = 0, m->w[p] = 0;
	for (size_t g = 0; g < x->G; g++) {
		for (size_t a = x->gstart[g]; a < x->gstart[g + 1]; a++) {
			size_t i = x->order[a];
			long double L = 0, dK = 0;
			for (size_t j = 0; j < S; j++) {
				L += x->lb[i * S + j];
				if (K[j])
					dK += x->ub[i * S + j] - x->lb[i * S + j];
			}
			double room = fmax(0, (double)(100 - L));
			size_t p = 2 * g + (room < dK);
			m->cap[p] += 100;
			m->w[p] += 1;
			for (size_t j = 0; j < S; j++) {
				size_t c = i * S + j, d = p * S + j;
				m->lb[d] += x->lb[c];
				m->ub[d] += x->lb[c] + fmin(x->ub[c] - x->lb[c], room);
				m->t[d] += x->t[c];
				m->u[d] += x->u[c];
				m->unused[d] += x->unused[c];
				m->idle[d] |= x->idle[c];
				m->needy[d] |= x->needy[c];
			}
		}
	}
	for (size_t p = 0; p < P; p++)
		if (m->w[p] == 0)
			m->w[p] = 1;    /* an empty part: capacity 0, cells 0 */
}

/* ---- the top level of the lp: Dantzig-Wolfe on step 1's flow ----
 *
 * Step 1 is a maximum flow: with L[j] = sum_i lb, J the classes with L[j]
 * < T[j] and e[j] = T[j] - L[j], V = sum_{j not in J} (L[j] - T[j]) +
 * sum_J e[j] - F, F the largest flow from the classes (at most e[j] each)
 * through the cells (at most d = ub - lb) into the nodes (at most c = 100
 * - sum_j lb).  The class amounts f a set of nodes can take form a
 * polymatroid (rank sum_i min(c[i], sum_{j in A} d[i,j])), so the linear
 * function w.f is maximized over it by the greedy rule: each node fills
 * the classes in decreasing order of w > 0.  The top level is the master
 * problem of column generation over the cluster's vertices: maximize the
 * flow of a convex combination of them, with f[j] <= e[j]; the prices pi
 * of the class rows (and sigma of the convexity row) ask for the vertex
 * of weights w = 1 - pi, which enters when it improves (w.v > sigma).
 * Every pi >= 0 proves F <= pi.e + max_f (1 - pi).f (weak duality): a
 * certified lower bound of the flat V.  A cluster vertex is the sum of
 * the groups' vertices for the same weights, so the master's combination
 * taken group by group, f[g], is feasible in every group: the groups meet
 * their targets, and when the bound and the master meet, the groups'
 * deviation is the flat V.  Targets: L[g,j] + f[g,j], plus the
 * class's remaining deficit e[j] - sum_g f[g,j] divided among the groups
 * by size (any such division keeps the flow: no group can take more in
 * total than its share of the maximum, nor more of a class than its
 * target). */

struct dwkey { double p; size_t k; };

static int
dwcmp(const void *a, const void *b)
{
	const struct dwkey *p = a, *q = b;
	if (p->p != q->p)
		return p->p < q->p ? -1 : 1;
	return p->k < q->k ? -1 : p->k > q->k;
}

/* Classes by increasing price (decreasing weight 1 - pi), those with pi <
 * 1 only; returns how many. */
static size_t
dw_order(const double *pi, size_t m, struct dwkey *key)
{
	size_t nw = 0;
	for (size_t k = 0; k < m; k++)
		if (pi[k] < 1)
			key[nw++] = (struct dwkey){ pi[k], k };
	ovb_qsort(key, nw, sizeof *key, dwcmp);
	return nw;
}

/* The greedy vertex of nodes order[a0..a1) for the order key (nw
 * classes), added to v (m), times lam. */
static void
dw_greedy(const struct run *x, size_t a0, size_t a1, const size_t *J,
	const double *c, const struct dwkey *key, size_t nw, double lam,
	double *v, double *Rn)
{
	size_t S = x->S;
	for (size_t a = a0; a < a1; a++) {
		size_t i = x->order[a];
		const double *lo = x->lb + i * S, *hi = x->ub + i * S;
		double rem = c[i];
		for (size_t q = 0; q < nw && rem > 0; q++) {
			size_t k = key[q].k, j = J[k];
			double f = fmin(hi[j] - lo[j], rem);
			if (f > 0) {
				v[k] += lam * f;
				if (Rn)
					Rn[i * S + j] += lam * f;
				rem -= f;
			}
		}
	}
}

/* Targets of the groups (Ag, G x S) for the leaf cells; *lbound the
 * certified lower bound of the flat V, *rounds the pricing rounds run.
 * The master has one block, the whole cluster (its vertex for weights w
 * is the sum of the groups' vertices for w), and each group's target is
 * the master's combination of its own vertices.  One block rather than
 * one per group: the master stays m + 1 rows at any scale, and the
 * groups' targets share one combination; with a block per group (the
 * textbook form) the targets sit on vertices of each group's own
 * polytope and step 2 in the groups needed 7-15x more Newton iterations
 * (the barrier fallback in 21-30 of 100 groups against 1, 10,000 x 100). */
static void
dw_targets(struct run *x, double *Ag, double *lbound, size_t *rounds)
{
	size_t N = x->N, S = x->S, G = x->G, m = 0;
	size_t *J = ovb_xmalloc(S * sizeof *J);
	double *e = ovb_xmalloc(S * sizeof *e), *c = ovb_xmalloc(N * sizeof *c);
	long double base = 0, sumE = 0;
	memset(Ag, 0, G * S * sizeof *Ag);
	memcpy(x->R1, x->lb, N * S * sizeof *x->R1);
	for (size_t g = 0; g < G; g++)
		for (size_t a = x->gstart[g]; a < x->gstart[g + 1]; a++) {
			size_t i = x->order[a];
			long double L = 0;
			for (size_t j = 0; j < S; j++) {
				Ag[g * S + j] += x->lb[i * S + j];
				L += x->lb[i * S + j];
			}
			c[i] = fmax(0, (double)(100 - L));
		}
	for (size_t j = 0; j < S; j++) {
		long double L = 0, T = (long double)N * x->rs->share[j];
		for (size_t g = 0; g < G; g++)
			L += Ag[g * S + j];
		if (L < T - 1e-12L * (1 + T)) {
			J[m] = j;
			e[m++] = (double)(T - L);
			sumE += T - L;
		} else {
			base += L - T;
		}
	}
	*rounds = 0;
	*lbound = (double)(base + sumE);
	x->use_R1 = true;       /* lb everywhere: optimal when J is empty */
	if (!m) {
		free(J), free(e), free(c);
		return;
	}
	/* rows: the classes (flow at most e), the convexity row */
	glp_prob *lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MAX);
	glp_add_rows(lp, (int)(m + 1));
	for (size_t k = 0; k < m; k++)
		glp_set_row_bnds(lp, (int)(1 + k), GLP_UP, 0, e[k]);
	glp_set_row_bnds(lp, (int)(1 + m), GLP_UP, 0, 1);
	glp_smcp p;
	glp_init_smcp(&p);
	p.msg_lev = GLP_MSG_OFF;
	p.meth = GLP_PRIMAL;
	struct dwkey *key = ovb_xmalloc(m * sizeof *key);
	double *pi = ovb_xcalloc(m, sizeof *pi), *v = ovb_xmalloc(m *
		sizeof *v), *pis = NULL, *el = ovb_xmalloc((m + 2) * sizeof *el);
	int *ind = ovb_xmalloc((m + 2) * sizeof *ind);
	size_t npis = 0, cpis = 0;
	long double best = INFINITY, z = 0;
	for (size_t it = 0; it < opt_iterate; it++) {
		/* the cluster's vertex for weights 1 - pi: column it + 1 */
		size_t nw = dw_order(pi, m, key);
		memset(v, 0, m * sizeof *v);
		dw_greedy(x, 0, N, J, c, key, nw, 1, v, NULL);
		long double ub = 0, val = 0, obj = 0;
		for (size_t k = 0; k < m; k++)
			ub += (long double)pi[k] * e[k];
		for (size_t q = 0; q < nw; q++)
			val += (long double)(1 - key[q].p) * v[key[q].k];
		ub += val;
		if (ub < best)
			best = ub;
		*rounds = it + 1;
		if (it && best - z <= 1e-9L * (1 + sumE))
			break;
		double sg = it ? fmax(0, glp_get_row_dual(lp, (int)(1 + m))) : 0;
		if (!(val > sg + 1e-9 * (1 + sg)))
			break;          /* nothing prices out */
		int nz = 0;
		for (size_t k = 0; k < m; k++)
			if (v[k] > 0) {
				ind[++nz] = (int)(1 + k);
				el[nz] = v[k];
				obj += v[k];
			}
		ind[++nz] = (int)(1 + m);
		el[nz] = 1;
		int col = glp_add_cols(lp, 1);
		glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
		glp_set_obj_coef(lp, col, (double)obj);
		glp_set_mat_col(lp, col, nz, ind, el);
		glp_set_col_stat(lp, col, GLP_NL);
		for (size_t k = 0; k < m; k++)
			*OVB_PUSH(pis, npis, cpis) = pi[k];
		if (glp_simplex(lp, &p) || glp_get_status(lp) != GLP_OPT) {
			glp_std_basis(lp);      /* once more from the slack basis */
			if (glp_simplex(lp, &p) || glp_get_status(lp) != GLP_OPT)
				break;
		}
		z = glp_get_obj_val(lp);
		for (size_t k = 0; k < m; k++)
			pi[k] = fmin(1, fmax(0, glp_get_row_dual(lp, (int)(1 + k))));
	}
	/* the combination, group by group, into Ag (above L); then the
	 * deficits by group size */
	double *F = ovb_xcalloc(m, sizeof *F);
	int ncol = glp_get_num_cols(lp);
	for (int col = 1; col <= ncol; col++) {
		double lam = fmin(glp_get_col_prim(lp, col), 1);
		if (!(lam > 0))
			continue;
		size_t nw = dw_order(pis + (size_t)(col - 1) * m, m, key);
		for (size_t g = 0; g < G; g++) {
			memset(v, 0, m * sizeof *v);
			dw_greedy(x, x->gstart[g], x->gstart[g + 1], J, c, key, nw,
				lam, v, x->R1);
			for (size_t k = 0; k < m; k++) {
				Ag[g * S + J[k]] += v[k];
				F[k] += v[k];
			}
		}
	}
	for (size_t k = 0; k < m; k++) {
		double def = fmax(0, e[k] - F[k]);
		for (size_t g = 0; g < G && def > 0; g++)
			Ag[g * S + J[k]] += def * (double)(x->gstart[g + 1] -
				x->gstart[g]) / (double)N;
	}
	*lbound = (double)(base + sumE - best);
	/* Only a converged master's point is optimal in every group; else
	 * the groups solve step 1 themselves and may carry more flow. */
	x->use_R1 = best - z <= 1e-9L * (1 + sumE);
	glp_delete_prob(lp);
	free(J), free(e), free(c), free(key), free(pi), free(v), free(pis);
	free(el), free(ind), free(F);
}

/* The hierarchy's round: the top level divides each class among the
 * groups (targets Ag), the groups solve.  lp: the top level is the
 * column generation above, whose duals give the lower bound; bank: each
 * group as two aggregate nodes (top_build), the lower bound the cut's. */
static int
solve_hier(struct run *x, size_t k, double *R)
{
	struct round_stat *rs = &x->rst[k];
	size_t S = x->S, G = x->G;
	struct mgr *top = &x->top;
	double *cols = ovb_xmalloc(G * S * sizeof *cols), *Ag = ovb_xmalloc(G *
		S * sizeof *Ag);
	int st = 0;
	if (opt.method == OVB_RSV_LP) {
		double t0 = ovb_now(), lbound;
		dw_targets(x, Ag, &lbound, &rs->iters);
		rs->V = fmax(0, lbound);
		rs->cpu += ovb_now() - t0;
		rs->sec[0] += ovb_now() - t0;
	} else {
		unsigned char *K = ovb_xmalloc(S);
		cut_bound(x, K);
		top_build(x, K);
		free(K);
		if ((st = mgr_solve(top, S, x->why, sizeof x->why)))
			goto out;
		add_stat(rs, &top->st);
		for (size_t g = 0; g < G; g++)
			for (size_t j = 0; j < S; j++)
				Ag[g * S + j] = top->R[2 * g * S + j] +
					top->R[(2 * g + 1) * S + j];
		rs->iters = 1;
	}
	if (nworkers) {
		st = groups_by_workers(x, true, Ag, R, cols);
	} else {
		for (size_t g = 0; !st && g < G; g++) {
			st = group_solve(x, g, Ag + g * S, R);
			if (!st)
				memcpy(cols + g * S, ovb_rsv_cols2(x->grp[g].rsv),
					S * sizeof *cols);
		}
	}
	if (st)
		goto out;
	double dev2 = 0;
	for (size_t j = 0; j < S; j++) {
		long double c = 0;
		for (size_t g = 0; g < G; g++)
			c += cols[g * S + j];
		dev2 += fabs((double)(c - (double)x->N * x->rs->share[j]));
	}
	for (size_t g = 0; g < G; g++) {
		add_stat(rs, &x->grp[g].st);
		rs->acc_best = fmax(rs->acc_best, x->grp[g].st.acc);
	}
	rs->dev[0] = rs->dev[1] = dev2;
	rs->dev[2] = cluster_dev(x, R);
	rs->acc = rs->acc_best;
out:
	free(cols), free(Ag);
	return st;
}

static int
solve_round(struct run *x, size_t k, const double *r, double *R)
{
	struct round_stat *rs = &x->rst[k];
	double t0 = ovb_now();
	leaf_cells(x, x->rs->round[k].u, r);
	int st;
	if (x->G == 1) {
		struct mgr *m = &x->top;
		for (size_t i = 0; i < x->N; i++)
			m->cap[i] = 100, m->w[i] = 1;
		for (size_t j = 0; j < x->S; j++)
			m->T[j] = (double)x->N * x->rs->share[j];
		size_t c = x->N * x->S;
		memcpy(m->lb, x->lb, c * sizeof *m->lb);
		memcpy(m->ub, x->ub, c * sizeof *m->ub);
		memcpy(m->t, x->t, c * sizeof *m->t);
		memcpy(m->u, x->u, c * sizeof *m->u);
		memcpy(m->unused, x->unused, c * sizeof *m->unused);
		memcpy(m->idle, x->idle, c);
		memcpy(m->needy, x->needy, c);
		if ((st = mgr_solve(m, x->S, x->why, sizeof x->why)))
			return st;
		memcpy(R, m->R, c * sizeof *R);
		rs->V = m->st.V;
		memcpy(rs->dev, m->st.dev, sizeof rs->dev);
		add_stat(rs, &m->st);
	} else if ((st = solve_hier(x, k, R))) {
		return st;
	}
	rs->wall = ovb_now() - t0;
	return 0;
}

/* Runs every round; fills r (round 1 by default D or equal) and R. */
static int
run_rounds(struct run *x, struct ovb_reserves *rs)
{
	size_t N = x->N, S = x->S, c = N * S;
	int st = 0;
	bool given = rs->round[0].r != NULL;
	for (size_t k = 0; k < rs->nround; k++) {
		struct ovb_round *rd = &rs->round[k];
		if (!rd->r)
			rd->r = ovb_xmalloc(c * sizeof *rd->r);
		if (!k && !given)
			for (size_t a = 0; a < c; a++)
				rd->r[a] = opt_equal ? 100.0 / (double)S : rs->share[a % S];
		if (!rd->R)
			rd->R = ovb_xmalloc(c * sizeof *rd->R);
	}
	x->r0 = rs->round[0].r;
	if (x->G > 1 && (opt_jobs > 1 || opt_worker_cmd) &&
	    (st = workers_start(x)))
		return st;
	for (size_t k = 0; k < rs->nround && !st; k++) {
		struct ovb_round *rd = &rs->round[k];
		if (k)
			memcpy(rd->r, rs->round[k - 1].R, c * sizeof *rd->r);
		if ((st = solve_round(x, k, rd->r, rd->R)))
			ovb_err_at(x->name, rd->line, "round %zu: %s", k + 1, x->why);
		else
			quantize(x, rd->R);
		ovb_progress("rounds", (double)k + 1, (double)rs->nround);
	}
	ovb_progress_end();
	if (nworkers)
		workers_stop();
	return st;
}

/* ---- output ---- */

static void
shares(const struct run *x, const double *M, double *out)
{
	for (size_t j = 0; j < x->S; j++) {
		long double c = 0;
		for (size_t i = 0; i < x->N; i++)
			c += M[i * x->S + j];
		out[j] = (double)(c / (long double)x->N);
	}
}

/* A share as reported: on the 1e-9 grid of R, so sums of grid values do
 * not print as 59.99999999999999. */
static double
grid(double v)
{
	return round(v * 1e9) / 1e9;
}

static void
verbose_table(const struct run *x)
{
	const struct ovb_reserves *rs = x->rs;
	double *a = ovb_xmalloc(x->S * sizeof *a);
	fprintf(stderr, "%s: %s, %zu nodes, %zu classes, %zu group%s\n",
		program_invocation_short_name, opt.method == OVB_RSV_LP ? "lp" :
		"bank", x->N, x->S, x->G, x->G == 1 ? "" : "s");
	fprintf(stderr, "round\t%s\tdev\tms", opt.method == OVB_RSV_LP ? "V" :
		"-");
	if (ovb_verbose > 1)
		fprintf(stderr, "\tlp_it\tqp_it\tbound\twarm\tms1\tms2\tms3\t"
			"ipm_it");
	for (size_t j = 0; j < x->S; j++)
		fprintf(stderr, "\t%s/%g", rs->class[j], rs->share[j]);
	fputc('\n', stderr);
	for (size_t k = 0; k < rs->nround; k++) {
		const struct round_stat *st = &x->rst[k];
		fprintf(stderr, "%zu\t%.6g\t%.6g\t%.1f", k + 1, st->V, st->dev[2],
			st->wall * 1e3);
		if (ovb_verbose > 1)
			fprintf(stderr, "\t%ld\t%ld\t%.2g\t%s\t%.1f\t%.1f\t%.1f\t%ld",
				st->lp_iter, st->qp_iter, st->acc, st->warm ? "warm" :
				"cold", st->sec[0] * 1e3, st->sec[1] * 1e3, st->sec[2] * 1e3,
				st->ipm_iter);
		shares(x, rs->round[k].R, a);
		for (size_t j = 0; j < x->S; j++)
			fprintf(stderr, "\t%.3f", a[j]);
		fputc('\n', stderr);
	}
	free(a);
}

static void
write_report(FILE *f, const struct run *x)
{
	const struct ovb_reserves *rs = x->rs;
	double *a = ovb_xmalloc(x->S * sizeof *a), *b = ovb_xmalloc(x->S *
		sizeof *b);
	fputs("round\tclass\tdesired\tallocated\tused\tdeviation\n", f);
	for (size_t k = 0; k < rs->nround; k++) {
		shares(x, rs->round[k].R, a);
		shares(x, rs->round[k].u, b);
		for (size_t j = 0; j < x->S; j++) {
			char d[32], p[32], q[32], e[32];
			fprintf(f, "%zu\t%s\t%s\t%s\t%s\t%s\n", k + 1, rs->class[j],
				ovb_fmt_real(d, rs->share[j]), ovb_fmt_real(p, grid(a[j])),
				ovb_fmt_real(q, grid(b[j])),
				ovb_fmt_real(e, grid(a[j] - rs->share[j])));
		}
	}
	free(a);
	free(b);
}

static void
write_notes(FILE *f, const struct run *x)
{
	const struct ovb_reserves *rs = x->rs;
	char a[32], b[32];
	if (opt.method == OVB_RSV_LP)
		fprintf(f, "# ovb-reserves: lp steps 1-%d, floor %s%%, step 2 "
			"accuracy %s points", opt.steps, ovb_fmt_real(a, opt_floor),
			ovb_fmt_real(b, opt.accuracy));
	else
		fprintf(f, "# ovb-reserves: bank, floor %s%%, c %s, keep %s",
			ovb_fmt_real(a, opt_floor), ovb_fmt_real(b, opt.bank_c),
			ovb_fmt_real((char[32]){ 0 }, opt.bank_keep));
	if (x->G > 1)
		fprintf(f, ", %zu groups of at most %zu nodes (%s)", x->G,
			opt_fanout, opt_grouping == G_RANDOM ? "random" :
			opt_grouping == G_SIMILAR ? "similar" : "contiguous");
	fputs("\n# deviation: sum over classes of |sum_i R[i,j] - N D[j]|, "
	      "in points of one node\n", f);
	for (size_t k = 0; k < rs->nround; k++) {
		const struct round_stat *st = &x->rst[k];
		if (opt.method == OVB_RSV_BANK) {
			fprintf(f, "# round %zu: deviation %.17g\n", k + 1, st->dev[2]);
			continue;
		}
		if (x->G > 1) {
			double gap = fmax(0, st->dev[1] - st->V);
			fprintf(f, "# round %zu: lower bound %.17g (of the flat V); "
				"deviation %.17g after step %d, %.3g points above the "
				"bound", k + 1, st->V, st->dev[1], opt.steps < 2 ? 1 : 2,
				gap);
			if (st->V > 0)
				fprintf(f, " (%.3g%%)", 100 * gap / st->V);
			fprintf(f, " (%zu pricing round%s)", st->iters, st->iters == 1 ?
				"" : "s");
			if (opt.steps == 3)
				fprintf(f, ", %.17g after step 3", st->dev[2]);
			if (opt.steps >= 2)
				fprintf(f, "; step 2 within %.3g points of each manager's "
					"optimum", st->acc);
			fputc('\n', f);
		}
		else if (opt.steps == 3)
			fprintf(f, "# round %zu: V %.17g; deviation %.17g after step "
				"2, %.17g after step 3; step 2 within %.3g points of the "
				"optimum\n", k + 1, st->V, st->dev[1], st->dev[2],
				st->acc);
		else if (opt.steps == 2)
			fprintf(f, "# round %zu: V %.17g; deviation %.17g after step "
				"2, which is within %.3g points of the optimum\n", k + 1,
				st->V, st->dev[1], st->acc);
		else
			fprintf(f, "# round %zu: V %.17g (a vertex of step 1)\n",
				k + 1, st->V);
	}
}

static int
write_plan(FILE *f, const struct run *x, const struct ovb_cluster *cl)
{
	const struct ovb_reserves *rs = x->rs;
	const double *R = rs->round[rs->nround - 1].R;
	struct ovb_plan p;
	memset(&p, 0, sizeof p);
	for (size_t j = 0; j < x->S; j++)
		for (size_t i = 0; i < x->N; i++) {
			double cpu = 1;
			if (cl)
				cpu = cl->node[ovb_names_get(&cl->byname,
					rs->node[i])].cap[OVB_CPU];
			struct ovb_placed *q = OVB_PUSH(p.p, p.n, p.cap);
			memset(q, 0, sizeof *q);
			q->app = ovb_xstrdup(rs->class[j]);
			q->capsule = ovb_xstrdup(rs->node[i]);
			q->node = ovb_xstrdup(rs->node[i]);
			q->has_qos[OVB_CPU] = true;
			q->sigma[OVB_CPU] = R[i * x->S + j] / 100 * cpu;
			q->tau[OVB_CPU] = opt_tau;
		}
	int st = ovb_plan_write(f, &p);
	ovb_plan_free(&p);
	return st;
}

static int
read_cluster(const struct run *x, struct ovb_cluster *cl)
{
	FILE *f;
	const char *name;
	int st = ovb_open_in(opt_cluster, &f, &name);
	if (st)
		return st;
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, name);
	st = ovb_cluster_read(&lx, cl);
	for (size_t i = 0; !st && i < x->N; i++)
		if (ovb_names_get(&cl->byname, x->rs->node[i]) == OVB_NONE)
			st = ovb_err_at(name, 0, "node %s of %s is not in the "
				"cluster", x->rs->node[i], x->name);
	ovb_lex_free(&lx);
	ovb_close_in(f);
	return st;
}

static int
read_input(struct ovb_reserves *rs, const char **name)
{
	FILE *f;
	int st = ovb_open_in(opt_input, &f, name);
	if (st)
		return st;
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, *name);
	st = ovb_reserves_read(&lx, rs);
	if (!st && !rs->nround)
		st = ovb_err_at(*name, 0, "no rounds: nothing to allocate (a "
			"round needs its usage u)");
	if (!st && (double)rs->nclass * opt_floor > 100 + 1e-9)
		st = ovb_err_at(*name, 0, "%zu classes with a floor of %g%% each "
			"need more than a node (give a smaller --floor)",
			rs->nclass, opt_floor);
	ovb_lex_free(&lx);
	ovb_close_in(f);
	return st;
}

static void
run_init(struct run *x, const struct ovb_reserves *rs, const char *name)
{
	memset(x, 0, sizeof *x);
	x->rs = rs;
	x->name = name;
	x->N = rs->nnode;
	x->S = rs->nclass;
	size_t c = x->N * x->S;
	x->lb = ovb_xmalloc(c * sizeof *x->lb);
	x->ub = ovb_xmalloc(c * sizeof *x->ub);
	x->t = ovb_xmalloc(c * sizeof *x->t);
	x->unused = ovb_xmalloc(c * sizeof *x->unused);
	x->idle = ovb_xmalloc(c);
	x->needy = ovb_xmalloc(c);
	x->rst = ovb_xcalloc(rs->nround, sizeof *x->rst);
	make_groups(x);
	mgr_init(&x->top, x->G == 1 ? x->N : 2 * x->G, x->S);
	if (x->G > 1) {
		if (opt.method == OVB_RSV_LP)
			x->R1 = ovb_xmalloc(c * sizeof *x->R1);
		x->grp = ovb_xmalloc(x->G * sizeof *x->grp);
		for (size_t g = 0; g < x->G; g++)
			mgr_init(&x->grp[g], x->gstart[g + 1] - x->gstart[g], x->S);
	}
}

static void
run_free(struct run *x)
{
	mgr_free(&x->top);
	for (size_t g = 0; x->grp && g < x->G; g++)
		mgr_free(&x->grp[g]);
	free(x->grp), free(x->order), free(x->gstart), free(x->lb), free(x->ub);
	free(x->t), free(x->unused), free(x->idle), free(x->needy), free(x->rst);
	free(x->R1);
}

int
main(int argc, char **argv)
{
	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (opt_serve) {
		ovb_stdin_expects = "ovb-worker requests (formats/worker.md)";
		int sst = ovb_stdin_tty();
		if (!sst)
			sst = serve(stdin, stdout, "<stdout>");
		glp_free_env();
		struct ovb_out o = { .f = stdout };
		return ovb_out_end(&o, sst);
	}
	struct ovb_reserves rs;
	memset(&rs, 0, sizeof rs);
	struct ovb_cluster cl;
	memset(&cl, 0, sizeof cl);
	const char *name = NULL;
	struct run x;
	bool have_run = false;
	int st = read_input(&rs, &name);
	if (!st) {
		run_init(&x, &rs, name);
		have_run = true;
		if (opt_cluster)
			st = read_cluster(&x, &cl);
	}
	if (!st)
		st = run_rounds(&x, &rs);
	if (!st && ovb_verbose)
		verbose_table(&x);
	struct ovb_out out;
	if (!st && !(st = ovb_out_open(&out, ovb_opt_output))) {
		if (opt_report)
			write_report(out.f, &x);
		else if (opt_plan)
			st = write_plan(out.f, &x, opt_cluster ? &cl : NULL);
		else if (!(st = ovb_reserves_write(out.f, &rs)))
			write_notes(out.f, &x);
		st = ovb_out_end(&out, st);
	}
	if (have_run)
		run_free(&x);
	ovb_reserves_free(&rs);
	ovb_cluster_free(&cl);
	glp_free_env();
	return st;
}
