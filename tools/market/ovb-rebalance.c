/* ovb-rebalance: a migration plan that lowers a market's allocation errors
 * (Merkat's Algorithm 1, a tabu search, with its bugs fixed).
 *
 * Reads an ovb-cluster and an ovb-bids file (the placement: each VM's
 * node, '-' for a new VM) and writes an ovb-migrations plan: the moves
 * that reach the best placement found, the deployments of the new VMs,
 * the largest error before and after, and a lower bound.
 *
 * Small instances are searched exactly (lib/migrate.c); larger ones by
 * the tabu search, its plan built greedily with staging moves.
 *
 * Invariants: never more than M_max moves, staging ones included; the
 * steps run in the order written with every node's mem within capacity
 * after each; the plan's error is never above the input's; the output
 * depends only on the inputs and options (--seed included); nothing is
 * written on an error. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_NITER = 'n', OPT_EMAX = 'e', OPT_MMAX = 'm', OPT_TENURE = 't',
	OPT_SEED = 's', OPT_TABU = 0x100 };
static bool opt_tabu;
static struct ovb_tabu_opt opt = { .niter = 100, .emax = 0,
	.mmax = UINT64_MAX, .tenure = 10, .seed = 1 };

static const struct argp_option options[] = {
	{ "niter", OPT_NITER, "N", 0, "N_iter: stop after N iterations without "
	  "a better placement (default 100)", 0 },
	{ "emax", OPT_EMAX, "E", 0, "E_max: stop once the largest error is <= E "
	  "(a fraction, default 0: search to the end)", 0 },
	{ "mmax", OPT_MMAX, "M", 0, "M_max: at most M migrations (default: no "
	  "limit)", 0 },
	{ "tenure", OPT_TENURE, "T", 0, "iterations a (VM, node) pair stays "
	  "tabu after the VM left the node (default 10; 0: no tabu list)", 0 },
	{ "seed", OPT_SEED, "S", 0, "seed of the random tie-breaking "
	  "(default 1)", 0 },
	{ "tabu", OPT_TABU, NULL, 0, "the tabu search and its greedy plan "
	  "even where the exact search fits (to compare them)", 0 },
	{ 0 }
};

static const char doc[] =
	"A migration plan that lowers the allocation errors of a "
	"proportional-share market (Merkat's Algorithm 1, fixed)."
	"\v"
	"CLUSTER is an ovb-cluster file, BIDS an ovb-bids file with the "
	"placement (formats/bids.md); either order.  New VMs (node -) go "
	"first to the least loaded node (cpu bids per cpu) where their mem "
	"fits.  Then a tabu search: at each iteration the VM of largest error "
	"(Eq. 2; ties at random from --seed) that has an allowed move goes "
	"to the node that minimizes the largest error of all VMs (then their "
	"sum); a move back to a node the VM left less than T iterations ago "
	"is tabu unless it gives a new best; a move that would make more than "
	"M_max VMs leave their input node, or overcommit a node's mem (the "
	"VMs' mem a_max), is not allowed.  The search keeps a copy of the "
	"best placement met and stops after N_iter iterations without a "
	"better one, or when it is <= E_max.  Instances of (N + 1)^M <= "
	"131072 placements (N nodes, M VMs) are searched exactly instead: "
	"the least max error that an order of at most M_max moves reaches "
	"with every node's mem within capacity after each step, then the "
	"fewest moves.  A plan runs in the order written: a swap between full "
	"nodes goes through a third node with room, and that staging move "
	"counts in M_max; when the best placement cannot be reached so, the "
	"plan reaches the best one that can, and stderr says why.  "
	"Each VM tried costs O(M log M "
	"+ N) (every node's water-filling once, with the VM added); an "
	"iteration tries the VMs by decreasing error until one can move, "
	"usually the first.  "
	"Output: ovb-migrations (formats/migrations.md).\n\n"
	"EXAMPLES:\n"
	"  ovb-rebalance t/data/market-fig3.cluster t/data/example.bids\n"
	"  ovb-rebalance --mmax 100 --emax 0.01 --seed 7 cluster bids -o plan\n\n"
	OVB_EXIT_DOC_NOCHECK;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_NITER: opt.niter = ovb_arg_u64(st, "-n", arg, 1, 1000000000); return 0;
	case OPT_EMAX: opt.emax = ovb_arg_real(st, "-e", arg, 0, 1e300); return 0;
	case OPT_MMAX: opt.mmax = ovb_arg_u64(st, "-m", arg, 0, UINT64_MAX); return 0;
	case OPT_TENURE: opt.tenure = ovb_arg_u64(st, "-t", arg, 0, 1000000); return 0;
	case OPT_SEED: opt.seed = ovb_arg_u64(st, "-s", arg, 0, UINT64_MAX); return 0;
	case OPT_TABU: opt_tabu = true; return 0;
	case ARGP_KEY_SUCCESS:
		if (st->argc - st->next != 2)
			argp_error(st, "give two files: CLUSTER and BIDS");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "CLUSTER BIDS", doc,
	ovb_cli_child, NULL, NULL };

/* The plan of the best placement: found exactly on small instances, else
 * the tabu search's best when a greedy plan reaches it within M_max, else
 * the latest earlier best one that it reaches (lib/migrate.c).  why: the
 * reason a better placement was not taken. */
static int
plan(const struct ovb_market *m, struct ovb_tabu_stat *st, size_t *node_of,
	struct ovb_mstep **steps, size_t *nsteps, char *why, size_t whylen,
	const char *bfile)
{
	size_t M = m->nvm;
	if (!opt_tabu && st->before > opt.emax && ovb_exact_fits(m))
		return ovb_rebalance_exact(m, &opt, m->node, node_of, st, steps,
			nsteps, why, whylen, bfile);
	char w[512];
	const size_t *target;
	double err;
	for (size_t h = 0; (target = ovb_tabu_hist(st, M, h, &err)); h++) {
		uint64_t moves = ovb_migrate_plan(m, m->node, target, steps,
			nsteps, w, sizeof w);
		if (moves <= opt.mmax) {
			memcpy(node_of, target, M * sizeof *node_of);
			st->after = err;
			st->moves = moves;
			return 0;
		}
		if (!h && moves == UINT64_MAX)
			snprintf(why, whylen, "the best placement found (max "
				"error %.17g) has no executable order: %s", err, w);
		else if (!h)
			snprintf(why, whylen, "the best placement found (max "
				"error %.17g) needs %llu moves (staging included), "
				"above M_max %llu", err, (unsigned long long)moves,
				(unsigned long long)opt.mmax);
		free(*steps);
		*steps = NULL;
		*nsteps = 0;
	}
	/* the start is reached by deployments alone */
	return ovb_err_at(bfile, 0, "no executable plan: %s", why);
}

int
main(int argc, char **argv)
{
	int first, status;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct ovb_market_in in;
	struct ovb_market m;
	status = ovb_market_load(argc - first, argv + first, &in, &m);
	struct ovb_migrations mg;
	memset(&mg, 0, sizeof mg);
	size_t *node_of = NULL;
	if (!status) {
		node_of = ovb_xcalloc(m.nvm, sizeof *node_of);
		memcpy(node_of, m.node, m.nvm * sizeof *node_of);
		struct ovb_tabu_stat st;
		struct ovb_mstep *steps = NULL;
		size_t nsteps = 0;
		char why[768] = "";
		status = ovb_rebalance(&m, &opt, node_of, &st, in.bfile);
		if (!status)
			status = plan(&m, &st, node_of, &steps, &nsteps, why,
				sizeof why, in.bfile);
		if (!status) {
			mg.has_err = true;
			mg.err[0] = st.before;
			mg.err[1] = st.after;
			mg.err[2] = ovb_market_bound(&m);
			for (size_t i = 0; i < nsteps; i++) {
				const struct ovb_mstep *p = &steps[i];
				struct ovb_step *s = OVB_PUSH(mg.step, mg.n,
					mg.cap);
				memset(s, 0, sizeof *s);
				s->vm = ovb_xstrdup(m.b->vm[p->vm].name);
				if (p->from != OVB_NONE)
					s->from = ovb_xstrdup(
						m.c->node[p->from].name);
				s->to = ovb_xstrdup(m.c->node[p->to].name);
			}
			if (why[0])
				ovb_warn("note: %s; the plan reaches max error "
					"%.17g", why, st.after);
			if (ovb_verbose)
				ovb_warn("%llu iterations, %llu migrations, max "
					"error %g -> %g (bound %g)",
					(unsigned long long)st.iters,
					(unsigned long long)st.moves, st.before,
					st.after, mg.err[2]);
		}
		free(steps);
		free(st.hist);
		free(st.hist_err);
	}
	if (!status) {
		struct ovb_out out;
		if (!(status = ovb_out_open(&out, ovb_opt_output))) {
			int ws = ovb_migrations_write(out.f, &mg);
			status = ovb_out_end(&out, ws);
		}
	}
	free(node_of);
	ovb_migrations_free(&mg);
	ovb_market_free(&m);
	ovb_market_in_free(&in);
	return status;
}
