/* ovb-rt: VSched's real-time reservations, checked.
 *
 * Admission (the default): per node, the periodic tasks (slice every
 * period) of an ovb-rt file are partitioned over its CPUs by first-fit
 * decreasing utilization, each CPU admitting a set by the EDF test sum
 * slice/period <= CAP, decided exactly on the doubles (GMP); when
 * first-fit decreasing leaves a task out of a node of at most 20 tasks, an
 * exhaustive search decides whether any partition exists.  Exit 1 when a
 * node cannot take its tasks, with the reason.
 *
 * --search U: VSched's period search (section 4.2 of the paper) replayed
 * against the file's rate table r(period, U): start at --period0 with
 * slice = U period; while |r - target| > eps, period -= --dperiod (slice
 * follows); at or below --min-period, back to --period0.  Prints every
 * schedule tried; stops where it converges, or after one full cycle of
 * resets (exit 1: no period meets the tolerance). */
#include <argp.h>
#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_SEARCH = 0x100, OPT_TARGET, OPT_EPS, OPT_P0, OPT_DP, OPT_PMIN };

static bool opt_search;
static double opt_U, opt_target = NAN, opt_eps = 0.05, opt_p0 = 0.2,
	opt_dp = 0.002, opt_pmin = 0.002;

static const struct argp_option options[] = {
	{ "search", OPT_SEARCH, "U", 0, "Replay VSched's period search at "
	  "utilization U, (0, 1], against the rate table", 0 },
	{ "target", OPT_TARGET, "R", 0, "The target rate r_target, [0, 1] "
	  "(required with --search)", 0 },
	{ "eps", OPT_EPS, "E", 0, "The tolerance epsilon, [0, 1] (default "
	  "0.05)", 0 },
	{ "period0", OPT_P0, "S", 0, "The initial period and the reset value, "
	  "in s (default 0.2)", 0 },
	{ "dperiod", OPT_DP, "S", 0, "Delta_period, in s (default 0.002)", 0 },
	{ "min-period", OPT_PMIN, "S", 0, "min_period, in s (default 0.002)",
	  0 },
	{ 0 }
};

static const char doc[] =
	"VSched's real-time reservations: EDF admission and partitioning per "
	"node, or the paper's period search replayed."
	"\v"
	"Admission prints 'assign NODE TASK CPU U' per task, 'cpu NODE K SUM' "
	"per CPU, and 'reject NODE TASK: REASON' for a task no partition "
	"holds (exit 1).  The search prints 'try STEP PERIOD[s] SLICE[s] R "
	"ERROR', 'reset', and 'converged PERIOD SLICE' or 'cycle' (exit 1).\n\n"
	"EXAMPLES:\n"
	"  ovb-rt tasks.rt                           partition every node's "
	"tasks\n"
	"  ovb-rt --search 0.5 --target 0.5 rates.rt replay the period search\n"
	"  ovb-rt --search 0.5 --target 0.5 --eps 0.01 --dperiod 0.004 rates.rt\n\n"
	OVB_EXIT_DOC;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_SEARCH:
		opt_search = true;
		opt_U = ovb_arg_real(st, "--search", arg, 0, 1);
		if (!(opt_U > 0))
			argp_error(st, "--search: U must be above 0");
		return 0;
	case OPT_TARGET:
		opt_target = ovb_arg_real(st, "--target", arg, 0, 1);
		return 0;
	case OPT_EPS: opt_eps = ovb_arg_real(st, "--eps", arg, 0, 1); return 0;
	case OPT_P0: opt_p0 = ovb_arg_real(st, "--period0", arg, 1e-6, 1e6);
		return 0;
	case OPT_DP: opt_dp = ovb_arg_real(st, "--dperiod", arg, 1e-9, 1e6);
		return 0;
	case OPT_PMIN:
		opt_pmin = ovb_arg_real(st, "--min-period", arg, 0, 1e6);
		return 0;
	case ARGP_KEY_SUCCESS:
		if (opt_search && isnan(opt_target))
			argp_error(st, "--search needs --target");
		if (!opt_search && !isnan(opt_target))
			argp_error(st, "--target is for --search");
		if (opt_search && !(opt_pmin < opt_p0))
			argp_error(st, "--min-period must be below --period0");
		if (opt_search && (opt_p0 - opt_pmin) / opt_dp > 1e6)
			argp_error(st, "more than 1000000 periods to search");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE]", doc,
	ovb_cli_child, NULL, NULL };

static struct ovb_rt R;
static bool have;

static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)ctx;
	if (strcmp(fmt->name, "rt"))
		return ovb_err(lx, "an ovb-%s file is not an input of ovb-rt "
			"(rt)", fmt->name);
	int st = ovb_rt_read(lx, &R);
	have = !st;
	return st;
}

/* ---- admission ---- */

struct part {
	size_t n, cpus;
	size_t *t;              /* task indices, u decreasing */
	mpq_t *u, *load, cap;
	size_t *cpu;            /* per position in t */
};

static int
by_u(const void *a, const void *b, void *ctx)
{
	const struct part *p = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	(void)p;
	mpq_t x, y;
	mpq_inits(x, y, NULL);
	mpq_set_d(x, R.task[i].slice);
	mpq_set_d(y, R.task[i].period);
	mpq_div(x, x, y);
	mpq_set_d(y, R.task[j].slice);
	mpq_t z;
	mpq_init(z);
	mpq_set_d(z, R.task[j].period);
	mpq_div(y, y, z);
	int c = mpq_cmp(y, x);
	mpq_clears(x, y, z, NULL);
	return c ? c : (i > j) - (i < j);
}

static bool
fits(struct part *p, size_t k, size_t c)
{
	mpq_t s;
	mpq_init(s);
	mpq_add(s, p->load[c], p->u[k]);
	bool ok = mpq_cmp(s, p->cap) <= 0;
	mpq_clear(s);
	return ok;
}

/* Exhaustive: tasks k.. onto the CPUs; an empty CPU is tried once. */
static bool
dfs(struct part *p, size_t k)
{
	if (k == p->n)
		return true;
	bool empty_tried = false;
	for (size_t c = 0; c < p->cpus; c++) {
		bool empty = mpq_sgn(p->load[c]) == 0;
		if (empty && empty_tried)
			continue;
		empty_tried |= empty;
		if (!fits(p, k, c))
			continue;
		mpq_add(p->load[c], p->load[c], p->u[k]);
		p->cpu[k] = c;
		if (dfs(p, k + 1))
			return true;
		mpq_sub(p->load[c], p->load[c], p->u[k]);
	}
	return false;
}

static int
admit_node(FILE *f, size_t ni)
{
	const struct ovb_rtnode *nd = &R.node[ni];
	struct part p;
	memset(&p, 0, sizeof p);
	p.cpus = nd->cpus;
	p.t = ovb_xcalloc(R.ntask + 1, sizeof *p.t);
	for (size_t i = 0; i < R.ntask; i++)
		if (R.task[i].node == ni)
			p.t[p.n++] = i;
	qsort_r(p.t, p.n, sizeof *p.t, by_u, &p);
	size_t ncpu = nd->cpus < p.n + 1 ? nd->cpus : p.n + 1;
	p.cpus = ncpu;          /* more CPUs than tasks never help */
	p.u = ovb_xcalloc(p.n + 1, sizeof *p.u);
	p.load = ovb_xcalloc(ncpu, sizeof *p.load);
	p.cpu = ovb_xcalloc(p.n + 1, sizeof *p.cpu);
	mpq_init(p.cap);
	mpq_set_d(p.cap, nd->cap);
	mpq_t tot, z;
	mpq_inits(tot, z, NULL);
	for (size_t k = 0; k < p.n; k++) {
		mpq_init(p.u[k]);
		mpq_set_d(p.u[k], R.task[p.t[k]].slice);
		mpq_set_d(z, R.task[p.t[k]].period);
		mpq_div(p.u[k], p.u[k], z);
		mpq_add(tot, tot, p.u[k]);
	}
	for (size_t c = 0; c < ncpu; c++)
		mpq_init(p.load[c]);
	fprintf(f, "# node %s: %llu CPUs, EDF cap %.17g per CPU, %zu tasks, "
		"sum U %.17g\n", nd->name, (unsigned long long)nd->cpus,
		nd->cap, p.n, mpq_get_d(tot));
	/* first-fit decreasing */
	bool all = true;
	size_t *ffd = ovb_xcalloc(p.n + 1, sizeof *ffd);
	for (size_t k = 0; k < p.n; k++) {
		ffd[k] = SIZE_MAX;
		for (size_t c = 0; c < ncpu && ffd[k] == SIZE_MAX; c++)
			if (fits(&p, k, c)) {
				mpq_add(p.load[c], p.load[c], p.u[k]);
				ffd[k] = c;
			}
		all &= ffd[k] != SIZE_MAX;
	}
	int st = 0;
	const char *how = "first-fit decreasing";
	if (!all && p.n <= 20) {
		for (size_t c = 0; c < ncpu; c++)
			mpq_set_ui(p.load[c], 0, 1);
		if (dfs(&p, 0)) {
			all = true;
			memcpy(ffd, p.cpu, p.n * sizeof *ffd);
			how = "exhaustive search (first-fit decreasing failed)";
		} else {
			/* back to first-fit decreasing's loads for the reasons */
			for (size_t c = 0; c < ncpu; c++)
				mpq_set_ui(p.load[c], 0, 1);
			for (size_t k = 0; k < p.n; k++)
				if (ffd[k] != SIZE_MAX)
					mpq_add(p.load[ffd[k]], p.load[ffd[k]],
						p.u[k]);
		}
	}
	if (all) {
		for (size_t c = 0; c < ncpu; c++)
			mpq_set_ui(p.load[c], 0, 1);
		for (size_t k = 0; k < p.n; k++)
			mpq_add(p.load[ffd[k]], p.load[ffd[k]], p.u[k]);
	}
	fprintf(f, "# node %s: %s\n", nd->name, all ? how :
		p.n <= 20 ? "no partition exists (exhaustive search)" :
		"first-fit decreasing leaves tasks out (over 20 tasks: no "
		"exhaustive search)");
	for (size_t k = 0; k < p.n; k++) {
		const struct ovb_rttask *t = &R.task[p.t[k]];
		if (ffd[k] != SIZE_MAX) {
			fprintf(f, "assign %s %s %zu %.17g\n", nd->name,
				t->name, ffd[k], mpq_get_d(p.u[k]));
			continue;
		}
		st = OVB_FAIL;
		mpq_t room;
		mpq_init(room);
		double best = -1;
		for (size_t c = 0; c < ncpu; c++) {
			mpq_sub(room, p.cap, p.load[c]);
			best = fmax(best, mpq_get_d(room));
		}
		mpq_clear(room);
		mpq_set_d(z, nd->cpus);
		mpq_mul(z, z, p.cap);
		fprintf(f, "reject %s %s: U %.17g %s\n", nd->name, t->name,
			mpq_get_d(p.u[k]),
			mpq_cmp(p.u[k], p.cap) > 0 ? "is above the cap of one CPU" :
			mpq_cmp(tot, z) > 0 ? "and the node's sum U is above "
			"CPUS x CAP" : "fits no CPU's room");
		fprintf(f, "# largest room left %.17g\n", best);
	}
	for (size_t c = 0; c < ncpu && c < nd->cpus; c++)
		fprintf(f, "cpu %s %zu %.17g\n", nd->name, c,
			mpq_get_d(p.load[c]));
	for (size_t k = 0; k < p.n; k++)
		mpq_clear(p.u[k]);
	for (size_t c = 0; c < ncpu; c++)
		mpq_clear(p.load[c]);
	mpq_clears(p.cap, tot, z, NULL);
	free(p.t);
	free(p.u);
	free(p.load);
	free(p.cpu);
	free(ffd);
	return st;
}

/* ---- the period search ---- */

static const struct ovb_rtrate *
rate_at(double period, double U)
{
	for (size_t i = 0; i < R.nrate; i++)
		if (R.rate[i].U == U &&
		    fabs(R.rate[i].period - period) <= 1e-9 * period)
			return &R.rate[i];
	return NULL;
}

static int
search(FILE *f)
{
	size_t nper = (size_t)floor((opt_p0 - opt_pmin) / opt_dp) + 1;
	size_t k = 0, resets = 0;
	fprintf(f, "# VSched period search: U %.17g, target %.17g, eps "
		"%.17g, period0 %.17g s, dperiod %.17g s, min-period %.17g s\n",
		opt_U, opt_target, opt_eps, opt_p0, opt_dp, opt_pmin);
	for (size_t step = 0;; step++) {
		double p = opt_p0 - (double)k * opt_dp;
		const struct ovb_rtrate *r = rate_at(p, opt_U);
		if (!r) {
			ovb_warn("the rate table has no rate at period %.17g s "
				"and U %.17g (step %zu of the search)", p,
				opt_U, step);
			return OVB_EDATA;
		}
		double e = r->r - opt_target;
		fprintf(f, "try %zu %.17g %.17g %.17g %.17g\n", step, p,
			opt_U * p, r->r, e);
		if (fabs(e) <= opt_eps) {
			fprintf(f, "converged %.17g %.17g\n", p, opt_U * p);
			return 0;
		}
		k++;
		if (k >= nper || opt_p0 - (double)k * opt_dp <= opt_pmin) {
			k = 0;
			fprintf(f, "reset\n");
			if (++resets == 2) {
				fprintf(f, "cycle: no period from %.17g s down to "
					"%.17g s brings the rate within %.17g of "
					"%.17g at U %.17g\n", opt_p0, opt_pmin,
					opt_eps, opt_target, opt_U);
				return OVB_FAIL;
			}
		}
	}
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	if (argc - first > 1) {
		ovb_warn("one input file at most");
		return OVB_EUSAGE;
	}
	status = ovb_read_input(first < argc ? argv[first] : NULL, take, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = ovb_xmemstream(&buf, &len);
	if (!status && opt_search)
		status = search(f);
	else if (!status)
		for (size_t i = 0; i < R.nnode; i++)
			if ((st = admit_node(f, i)) > status)
				status = st;
	fclose(f);
	status = ovb_out_buffer(buf, len, status);
	free(buf);
	if (have)
		ovb_rt_free(&R);
	return status;
}
