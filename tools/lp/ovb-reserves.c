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
 * share among the groups; the groups are independent (--jobs runs them in
 * worker processes).
 *
 * Invariants: every R has 0 <= R <= 100 and at most 100 per node; with
 * the LP and steps 1-2, floor <= R <= the usage cap and the deviation is
 * V within 1e-7 sum_j (1 + T[j]); results do not depend on --jobs.  Input is checked
 * before any solving; output is all or nothing. */
#include <argp.h>
#include <errno.h>
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
	OPT_GROUPING, OPT_SEED, OPT_PLAN, OPT_CLUSTER, OPT_TAU, OPT_REPORT };
enum grouping { G_CONTIGUOUS, G_RANDOM, G_SIMILAR };

static struct ovb_rsv_opt opt = { .method = OVB_RSV_LP, .steps = 3,
	.accuracy = 1e-4, .bank_c = 2, .bank_keep = 0 };
static double opt_floor = 1, opt_tau = 1;
static bool opt_equal, opt_plan, opt_report;
static size_t opt_fanout, opt_jobs = 1;
static enum grouping opt_grouping = G_CONTIGUOUS;
static uint64_t opt_seed = 1;
static const char *opt_cluster, *opt_input;

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
	  "Solve the groups in N worker processes (default 1)", 0 },
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
	"The top level solves the same problem with each group as one node "
	"(capacity, bounds, u + k, usage summed; weight 1/size in Eq. 2), and "
	"its allocation of class j to a group is that group's target.  "
	"similar: nodes sorted by the class with the largest u - D in round "
	"1.  --jobs N: the groups in N forked worker processes.\n\n"
	"--report: per round and class, the desired share D, the allocated "
	"share sum_i R / N, the used share sum_i u / N (usage under that "
	"round's r) and allocated - D.\n\n"
	"EXAMPLES:\n"
	"  ovb-reserves t/data/example.reserves         R for every round\n"
	"  ovb-reserves -v --report rounds.reserves     shares per round (TSV)\n"
	"  ovb-reserves -m bank --bank-keep 1 r.reserves  bank, temporal\n"
	"  ovb-reserves --fanout 100 -j 2 big.reserves  hierarchy, 2 workers\n"
	"  ovb-reserves --plan --cluster c.cluster r.reserves | ovb-fmt\n\n"
	OVB_EXIT_DOC;

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
		return 0;
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
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE]", doc,
	ovb_cli_child, NULL, NULL };

/* ---- the run: data, groups, managers ---- */

struct round_stat {
	double V, dev[3], acc, wall, cpu, sec[3];
	long lp_iter, qp_iter;
	bool warm;
};

struct mgr {                    /* one manager's problem and buffers */
	size_t n;
	struct ovb_rsv *rsv;
	double *cap, *w, *T, *lb, *ub, *t, *u, *unused, *R;
	unsigned char *idle, *needy;
	struct ovb_rsv_stat st;
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
}

static void
mgr_free(struct mgr *m)
{
	ovb_rsv_free(m->rsv);
	free(m->cap), free(m->w), free(m->T), free(m->lb), free(m->ub);
	free(m->t), free(m->u), free(m->unused), free(m->R);
	free(m->idle), free(m->needy);
}

static int
mgr_solve(struct mgr *m, size_t s, char *why, size_t len)
{
	struct ovb_rsv_in in = { .n = m->n, .s = s, .cap = m->cap, .w = m->w,
		.T = m->T, .lb = m->lb, .ub = m->ub, .t = m->t, .u = m->u,
		.unused = m->unused, .idle = m->idle, .needy = m->needy };
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
	int st = mgr_solve(m, S, x->why, sizeof x->why);
	if (!st)
		for (size_t a = 0; a < m->n; a++)
			memcpy(Rout + x->order[x->gstart[g] + a] * S, m->R + a * S,
				S * sizeof *Rout);
	return st;
}

/* The top level: each group as one node, its cells summed. */
static int
top_solve(struct run *x)
{
	struct mgr *m = &x->top;
	size_t S = x->S;
	for (size_t j = 0; j < S; j++)
		m->T[j] = (double)x->N * x->rs->share[j];
	memset(m->lb, 0, x->G * S * sizeof *m->lb);
	memset(m->ub, 0, x->G * S * sizeof *m->ub);
	memset(m->t, 0, x->G * S * sizeof *m->t);
	memset(m->u, 0, x->G * S * sizeof *m->u);
	memset(m->unused, 0, x->G * S * sizeof *m->unused);
	memset(m->idle, 0, x->G * S);
	memset(m->needy, 0, x->G * S);
	for (size_t g = 0; g < x->G; g++) {
		size_t ng = x->gstart[g + 1] - x->gstart[g];
		m->cap[g] = 100 * (double)ng;
		m->w[g] = (double)ng;
		for (size_t a = 0; a < ng; a++) {
			size_t i = x->order[x->gstart[g] + a];
			for (size_t j = 0; j < S; j++) {
				size_t c = i * S + j, d = g * S + j;
				m->lb[d] += x->lb[c];
				m->ub[d] += x->ub[c];
				m->t[d] += x->t[c];
				m->u[d] += x->u[c];
				m->unused[d] += x->unused[c];
				m->idle[d] |= x->idle[c];
				m->needy[d] |= x->needy[c];
			}
		}
	}
	return mgr_solve(m, S, x->why, sizeof x->why);
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

/* ---- worker processes for the groups (--jobs) ---- */

struct worker {
	pid_t pid;
	int to, from;
};
static struct worker *workers;
static size_t nworkers;

static bool
xwrite(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t k = write(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k, n -= (size_t)k;
	}
	return true;
}

static bool
xread(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t k = read(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		c += k, n -= (size_t)k;
	}
	return true;
}

/* A worker: per round, reads the round number and the targets of its
 * groups, solves them, and answers status, why, stats and R. */
static void
worker_loop(struct run *x, size_t w, int in, int out)
{
	size_t S = x->S, N = x->N;
	double *T = ovb_xmalloc(S * sizeof *T), *R = ovb_xcalloc(N * S, sizeof *R),
		*prev = ovb_xcalloc(N * S, sizeof *prev);
	uint64_t k;
	while (xread(in, &k, sizeof k)) {
		const struct ovb_round *rd = &x->rs->round[k];
		const double *r = k ? prev : x->r0;
		leaf_cells(x, rd->u, r);
		int st = 0;
		for (size_t g = w; g < x->G; g += nworkers) {
			if (!xread(in, T, S * sizeof *T))
				_exit(OVB_ESOFT);
			if (!st)
				st = group_solve(x, g, T, R);
		}
		int32_t st32 = st;
		xwrite(out, &st32, sizeof st32);
		if (st) {
			xwrite(out, x->why, sizeof x->why);
			continue;
		}
		for (size_t g = w; g < x->G; g += nworkers) {
			xwrite(out, &x->grp[g].st, sizeof x->grp[g].st);
			for (size_t a = x->gstart[g]; a < x->gstart[g + 1]; a++)
				xwrite(out, R + x->order[a] * S, S * sizeof *R);
		}
		quantize(x, R);         /* the r the parent will use */
		memcpy(prev, R, N * S * sizeof *R);
	}
	_exit(0);
}

static int
workers_start(struct run *x)
{
	nworkers = opt_jobs < x->G ? opt_jobs : x->G;
	workers = ovb_xcalloc(nworkers, sizeof *workers);
	signal(SIGPIPE, SIG_IGN);
	fflush(NULL);
	for (size_t w = 0; w < nworkers; w++) {
		int a[2], b[2];
		if (pipe(a) || pipe(b)) {
			ovb_warn("pipe: %s", strerror(errno));
			return OVB_ESOFT;
		}
		pid_t pid = fork();
		if (pid < 0) {
			ovb_warn("fork: %s", strerror(errno));
			return OVB_ESOFT;
		}
		if (pid == 0) {
			close(a[1]);
			close(b[0]);
			for (size_t v = 0; v < w; v++) {
				close(workers[v].to);
				close(workers[v].from);
			}
			worker_loop(x, w, a[0], b[1]);
		}
		close(a[0]);
		close(b[1]);
		workers[w] = (struct worker){ pid, a[1], b[0] };
	}
	return 0;
}

static void
workers_stop(void)
{
	for (size_t w = 0; w < nworkers; w++) {
		close(workers[w].to);
		close(workers[w].from);
	}
	for (size_t w = 0; w < nworkers; w++)
		waitpid(workers[w].pid, NULL, 0);
	free(workers);
	workers = NULL;
	nworkers = 0;
	signal(SIGPIPE, SIG_DFL);
}

static int
groups_by_workers(struct run *x, size_t k, double *R)
{
	size_t S = x->S;
	uint64_t k64 = k;
	for (size_t w = 0; w < nworkers; w++) {
		bool ok = xwrite(workers[w].to, &k64, sizeof k64);
		for (size_t g = w; ok && g < x->G; g += nworkers)
			ok = xwrite(workers[w].to, x->top.R + g * S, S * sizeof *R);
		if (!ok)
			goto lost;
	}
	int status = 0;
	for (size_t w = 0; w < nworkers; w++) {
		int32_t st;
		if (!xread(workers[w].from, &st, sizeof st))
			goto lost;
		if (st) {
			char why[sizeof x->why];
			if (!xread(workers[w].from, why, sizeof why))
				goto lost;
			if (!status) {
				status = st;
				memcpy(x->why, why, sizeof why);
			}
			continue;
		}
		for (size_t g = w; g < x->G; g += nworkers) {
			if (!xread(workers[w].from, &x->grp[g].st, sizeof x->grp[g].st))
				goto lost;
			for (size_t a = x->gstart[g]; a < x->gstart[g + 1]; a++)
				if (!xread(workers[w].from, R + x->order[a] * S,
				    S * sizeof *R))
					goto lost;
		}
	}
	return status;
lost:
	snprintf(x->why, sizeof x->why, "a worker process died");
	return OVB_ESOFT;
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
	rs->acc = fmax(rs->acc, st->acc);
	rs->cpu += st->sec[0] + st->sec[1] + st->sec[2];
	for (int p = 0; p < 3; p++)
		rs->sec[p] += st->sec[p];
	rs->warm |= st->warm;
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
	} else {
		if ((st = top_solve(x)))
			return st;
		add_stat(rs, &x->top.st);
		rs->V = x->top.st.V;
		if (nworkers)
			st = groups_by_workers(x, k, R);
		else
			for (size_t g = 0; !st && g < x->G; g++)
				st = group_solve(x, g, x->top.R + g * x->S, R);
		if (st)
			return st;
		for (size_t g = 0; g < x->G; g++) {
			add_stat(rs, &x->grp[g].st);
			for (int p = 0; p < 2; p++)
				rs->dev[p] += x->grp[g].st.dev[p];
		}
		rs->dev[2] = cluster_dev(x, R);
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
	if (x->G > 1 && opt_jobs > 1 && (st = workers_start(x)))
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
		fprintf(stderr, "\tlp_it\tqp_it\tbound\twarm\tms1\tms2\tms3");
	for (size_t j = 0; j < x->S; j++)
		fprintf(stderr, "\t%s/%g", rs->class[j], rs->share[j]);
	fputc('\n', stderr);
	for (size_t k = 0; k < rs->nround; k++) {
		const struct round_stat *st = &x->rst[k];
		fprintf(stderr, "%zu\t%.6g\t%.6g\t%.1f", k + 1, st->V, st->dev[2],
			st->wall * 1e3);
		if (ovb_verbose > 1)
			fprintf(stderr, "\t%ld\t%ld\t%.2g\t%s\t%.1f\t%.1f\t%.1f",
				st->lp_iter, st->qp_iter, st->acc, st->warm ? "warm" :
				"cold", st->sec[0] * 1e3, st->sec[1] * 1e3, st->sec[2] * 1e3);
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
		if (x->G > 1)
			fprintf(f, "# round %zu: top-level V %.17g; deviation %.17g; "
				"step 2 within %.3g points of each manager's optimum\n",
				k + 1, st->V, st->dev[2], st->acc);
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
	mgr_init(&x->top, x->G == 1 ? x->N : x->G, x->S);
	if (x->G > 1) {
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
}

int
main(int argc, char **argv)
{
	argp_parse(&argp, argc, argv, 0, NULL, NULL);
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
		int st2 = ovb_out_close(&out, st == 0);
		if (st2 > st)
			st = st2;
		if (!ovb_opt_output && (st2 = ovb_fshut_stdout()) > st)
			st = st2;
	}
	if (have_run)
		run_free(&x);
	ovb_reserves_free(&rs);
	ovb_cluster_free(&cl);
	glp_free_env();
	return st;
}
