/* ovb-rebalance: a migration plan that lowers a market's allocation errors
 * (Merkat's Algorithm 1, a tabu search, with its bugs fixed).
 *
 * Reads an ovb-cluster and an ovb-bids file (the placement: each VM's
 * node, '-' for a new VM) and writes an ovb-migrations plan: the moves
 * that reach the best placement found, the deployments of the new VMs,
 * the largest error before and after, and a lower bound.
 *
 * Invariants: never more than M_max moves; mem never overcommitted by a
 * move; the plan's error is never above the input's; the output depends
 * only on the inputs and options (--seed included); nothing is written on
 * an error. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_NITER = 'n', OPT_EMAX = 'e', OPT_MMAX = 'm', OPT_TENURE = 't',
	OPT_SEED = 's' };
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
	"better one, or when it is <= E_max.  Each VM tried costs O(M log M "
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
	case ARGP_KEY_SUCCESS:
		if (st->argc - st->next != 2)
			argp_error(st, "give two files: CLUSTER and BIDS");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "CLUSTER BIDS", doc,
	ovb_cli_child, NULL, NULL };

/* The plan from start to best: the deployments and moves in an order
 * where each destination has room for the VM's mem when it runs (repeated
 * passes in VM order; a cycle of full nodes, which no order can run
 * without spare room, is written in VM order). */
static void
plan(const struct ovb_market *m, const size_t *start, const size_t *best,
	struct ovb_migrations *mg)
{
	const struct ovb_bids *b = m->b;
	size_t M = m->nvm;
	double *used = ovb_xcalloc(m->nnode, sizeof *used);
	bool *done = ovb_xcalloc(M ? M : 1, sizeof *done);
	for (size_t j = 0; j < M; j++) {
		if (start[j] != OVB_NONE && m->nres > 1)
			used[start[j]] += m->amax[OVB_MMEM][j];
		done[j] = start[j] == best[j];
	}
	for (bool progress = true, force = false;;) {
		if (!progress)
			force = true;
		progress = false;
		bool left = false;
		for (size_t j = 0; j < M; j++) {
			if (done[j])
				continue;
			double need = m->nres > 1 ? m->amax[OVB_MMEM][j] : 0;
			if (!force && m->nres > 1 && used[best[j]] + need >
			    m->cap[OVB_MMEM][best[j]]) {
				left = true;
				continue;
			}
			struct ovb_step *s = OVB_PUSH(mg->step, mg->n, mg->cap);
			memset(s, 0, sizeof *s);
			s->vm = ovb_xstrdup(b->vm[j].name);
			if (start[j] != OVB_NONE) {
				s->from = ovb_xstrdup(m->c->node[start[j]].name);
				used[start[j]] -= need;
			}
			s->to = ovb_xstrdup(m->c->node[best[j]].name);
			used[best[j]] += need;
			done[j] = true;
			progress = true;
			force = false;
		}
		if (!left)
			break;
	}
	free(used);
	free(done);
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
		status = ovb_rebalance(&m, &opt, node_of, &st, in.bfile);
		if (!status) {
			mg.has_err = true;
			mg.err[0] = st.before;
			mg.err[1] = st.after;
			mg.err[2] = ovb_market_bound(&m);
			plan(&m, m.node, node_of, &mg);
			if (ovb_verbose)
				ovb_warn("%llu iterations, %llu migrations, max "
					"error %g -> %g (bound %g)",
					(unsigned long long)st.iters,
					(unsigned long long)st.moves, st.before,
					st.after, mg.err[2]);
		}
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
