/* ovb-market: the allocations, errors and prices of a Merkat market.
 *
 * Reads an ovb-cluster file (cpu capacities; mem=MiB labels when the VMs
 * bid for mem) and an ovb-bids file (bids, caps a_max, placement), in any
 * order, and writes per VM and resource alloc_i (the capped proportional
 * share of the whole cluster, Eq. 1 by water-filling), alloc_r (the same
 * over its node), e_r (Eq. 2); per VM its max error and its charge; per
 * resource the price max(reserve, sum of bids / capacity); the largest
 * error and a lower bound on the best placement's.
 *
 * Invariants: the output depends only on the inputs; with --exact every
 * number is the exact rational of the inputs' doubles; nothing is written
 * on an error. */
#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_EXACT = 0x100, OPT_BUDGET, OPT_NVMS, OPT_VMCPU, OPT_VMMEM,
	OPT_POLICY, OPT_PERF, OPT_VREF, OPT_VLOW, OPT_VHIGH, OPT_BIDMIN,
	OPT_BIDMAX, OPT_ALLOCMIN };
static const char *opt_policy;
static double *opt_perf;
static size_t nopt_perf, capopt_perf;
static struct ovb_vpolicy opt_vp = { .v_ref = -1, .v_low = -1, .v_high = -1,
	.bid_min = 0, .bid_max = -1 };
static double opt_allocmin;
static bool opt_exact;
static double opt_budget = -1, opt_vm[OVB_NMRES];
static uint64_t opt_nvms = 1;

static const struct argp_option options[] = {
	{ "exact", OPT_EXACT, NULL, 0, "Exact rationals (GMP) of the inputs' "
	  "numbers: every value as NUM/DEN", 0 },
	{ "budget", OPT_BUDGET, "CREDITS", 0, "Algorithm 3: how many new VMs "
	  "BUDGET buys at their caps (with --vm-cpu, --nvms)", 0 },
	{ "nvms", OPT_NVMS, "N", 0, "the most VMs asked for (default 1)", 0 },
	{ "vm-cpu", OPT_VMCPU, "CPU", 0, "a new VM's cpu cap a_max, in cpu", 0 },
	{ "vm-mem", OPT_VMMEM, "MIB", 0, "a new VM's mem cap a_max, in MiB "
	  "(when the VMs bid for mem)", 0 },
	{ "policy", OPT_POLICY, "VM", 0, "Algorithm 2: replay VM's bid policy "
	  "over --perf (with --vref, --vlow, --vhigh, --bid-max)", 0 },
	{ "perf", OPT_PERF, "V,...", 0, "the VM's performance per period (a "
	  "cost: higher is worse, e.g. seconds per step), > 0", 0 },
	{ "vref", OPT_VREF, "V", 0, "the reference performance v_ref", 0 },
	{ "vlow", OPT_VLOW, "V", 0, "below it, bids go down", 0 },
	{ "vhigh", OPT_VHIGH, "V", 0, "above it, bids go up", 0 },
	{ "bid-min", OPT_BIDMIN, "CREDITS", 0, "a bid's floor (default 0)", 0 },
	{ "bid-max", OPT_BIDMAX, "CREDITS", 0, "the VM's budget per period, all "
	  "resources", 0 },
	{ "alloc-min", OPT_ALLOCMIN, "FRACTION", 0, "alloc_min as a fraction of "
	  "a_max (default 0)", 0 },
	{ 0 }
};

static const char doc[] =
	"The allocations, allocation errors and prices of a proportional-share "
	"market (Merkat)."
	"\v"
	"CLUSTER is an ovb-cluster file (capacity: the node's cpu; mem from "
	"its label mem=MiB when the VMs bid for mem), BIDS an ovb-bids file "
	"(formats/bids.md); either order.  Output records:\n"
	"  price RES P credit/UNIT   max(reserve, sum of bids / capacity)\n"
	"  alloc VM NODE RES ALLOC_I ALLOC_R E_R   in the resource's unit\n"
	"  vm VM NODE ERROR CHARGE credit   max_r e_r; sum_r price x alloc_r\n"
	"  error max E, error bound LB   the largest error; a lower bound on "
	"that of every placement\n"
	"A VM not placed (node -) has alloc_r, e_r and error '-' and is "
	"charged for alloc_i.  Numbers are the shortest decimals that read "
	"back as the computed doubles; --exact computes in rationals from the "
	"exact values of the inputs' doubles (a decimal like 0.1 is taken as "
	"the double nearest it) and writes NUM/DEN.\n\n"
	"--budget (Algorithm 3, fixed) asks how many more VMs, each with caps "
	"--vm-cpu (and --vm-mem), up to --nvms, a tenant can run at their "
	"caps for BUDGET credit given the bids in BIDS: 'afford N vms TOTAL "
	"credit' and 'afford-bid RES BID credit' per VM; the price used is "
	"that of the other bids (sum / capacity), not the market price.\n\n"
	"EXAMPLES:\n"
	"  ovb-market t/data/market-fig3.cluster t/data/example.bids\n"
	"  ovb-market --exact cluster bids -o market.txt\n"
	"  ovb-market --budget 50 --nvms 8 --vm-cpu 25 cluster bids\n"
	"  ovb-market --policy v1 --perf 2,1.5,0.5 --vref 1 --vlow 0.75 "
	"--vhigh 0.95 --bid-max 40 cluster bids\n\n"
	OVB_EXIT_DOC_NOCHECK;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	(void)arg;
	switch (key) {
	case OPT_EXACT: opt_exact = true; return 0;
	case OPT_BUDGET: opt_budget = ovb_arg_real(st, "--budget", arg, 0, 1e300); return 0;
	case OPT_NVMS: opt_nvms = ovb_arg_u64(st, "--nvms", arg, 1, 1000000000); return 0;
	case OPT_VMCPU: opt_vm[OVB_MCPU] = ovb_arg_real(st, "--vm-cpu", arg, 0, 1e300); return 0;
	case OPT_VMMEM: opt_vm[OVB_MMEM] = ovb_arg_real(st, "--vm-mem", arg, 0, 1e300); return 0;
	case OPT_POLICY:
		if (!ovb_valid_name(arg))
			argp_error(st, "--policy: '%s' is not a VM name", arg);
		opt_policy = arg;
		return 0;
	case OPT_PERF:
		ovb_arg_list(st, "--perf", arg);
		for (char *save = NULL, *t = strtok_r(arg, ",", &save); t;
		    t = strtok_r(NULL, ",", &save)) {
			double v = ovb_arg_real(st, "--perf", t, 0, 1e300);
			if (!(v > 0))
				argp_error(st, "--perf: %s is not > 0", t);
			*OVB_PUSH(opt_perf, nopt_perf, capopt_perf) = v;
		}
		return 0;
	case OPT_VREF: opt_vp.v_ref = ovb_arg_real(st, "--vref", arg, 1e-300, 1e300); return 0;
	case OPT_VLOW: opt_vp.v_low = ovb_arg_real(st, "--vlow", arg, 0, 1e300); return 0;
	case OPT_VHIGH: opt_vp.v_high = ovb_arg_real(st, "--vhigh", arg, 0, 1e300); return 0;
	case OPT_BIDMIN: opt_vp.bid_min = ovb_arg_real(st, "--bid-min", arg, 0, 1e300); return 0;
	case OPT_BIDMAX: opt_vp.bid_max = ovb_arg_real(st, "--bid-max", arg, 0, 1e300); return 0;
	case OPT_ALLOCMIN: opt_allocmin = ovb_arg_real(st, "--alloc-min", arg, 0, 1); return 0;
	case ARGP_KEY_ARG: return ARGP_ERR_UNKNOWN;
	case ARGP_KEY_SUCCESS:
		if (st->argc - st->next != 2)
			argp_error(st, "give two files: CLUSTER and BIDS");
		if (opt_budget >= 0 && !(opt_vm[OVB_MCPU] > 0))
			argp_error(st, "--budget needs --vm-cpu > 0");
		if (opt_policy && (!nopt_perf || opt_vp.v_ref < 0 ||
		    opt_vp.v_low < 0 || opt_vp.v_high < 0 || opt_vp.bid_max < 0))
			argp_error(st, "--policy needs --perf, --vref, --vlow, "
				"--vhigh and --bid-max");
		if (opt_policy && !(opt_vp.v_low < opt_vp.v_high))
			argp_error(st, "--vlow must be below --vhigh");
		if (opt_policy && opt_exact)
			argp_error(st, "--policy and --exact exclude each other");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "CLUSTER BIDS", doc,
	ovb_cli_child, NULL, NULL };

static void
put(FILE *f, double v)
{
	ovb_put_real(f, v);
}

static void
run_double(const struct ovb_market *m, FILE *f)
{
	const struct ovb_bids *b = m->b;
	double *ar[OVB_NMRES], *err = ovb_xcalloc(m->nvm, sizeof *err);
	for (size_t r = 0; r < OVB_NMRES; r++)
		ar[r] = ovb_xcalloc(m->nvm, sizeof **ar);
	double emax = ovb_market_errors(m, m->node, ar, err);
	ovb_market_fit_printed(m, ar, err, &emax);
	fputs("# price RES P credit/UNIT: max(reserve, sum of bids / "
		"capacity)\n", f);
	for (size_t r = 0; r < m->nres; r++) {
		fprintf(f, "price %s", ovb_mres_name(r));
		put(f, m->price[r]);
		fprintf(f, " credit/%s\n", ovb_mres_unit(r));
	}
	fputs("# alloc VM NODE RES ALLOC_I ALLOC_R E_R (cpu in cpu, mem in "
		"MiB)\n", f);
	for (size_t j = 0; j < m->nvm; j++)
		for (size_t r = 0; r < m->nres; r++) {
			const char *node = b->vm[j].node;
			fprintf(f, "alloc %s %s %s", b->vm[j].name, node ? node :
				"-", ovb_mres_name(r));
			put(f, m->alloc_i[r][j]);
			if (node) {
				put(f, ar[r][j]);
				put(f, fabs(m->alloc_i[r][j] - ar[r][j]) /
					m->alloc_i[r][j]);
				fputc('\n', f);
			} else
				fputs(" - -\n", f);
		}
	fputs("# vm VM NODE ERROR CHARGE credit: max_r e_r, sum_r price x "
		"alloc_r\n", f);
	for (size_t j = 0; j < m->nvm; j++) {
		const char *node = b->vm[j].node;
		double charge = 0;
		for (size_t r = 0; r < m->nres; r++)
			charge += m->price[r] * (node ? ar[r][j] :
				m->alloc_i[r][j]);
		fprintf(f, "vm %s %s", b->vm[j].name, node ? node : "-");
		if (node)
			put(f, err[j]);
		else
			fputs(" -", f);
		put(f, charge);
		fputs(" credit\n", f);
	}
	fputs("error max", f);
	put(f, emax);
	fputs("\nerror bound", f);
	put(f, ovb_market_bound(m));
	fputc('\n', f);
	for (size_t r = 0; r < OVB_NMRES; r++)
		free(ar[r]);
	free(err);
}

static void
putq(FILE *f, const mpq_t q)
{
	char *s = ovb_mpq_str(q);
	fprintf(f, " %s", s);
	free(s);
}

static mpq_t *
qvec(size_t n)
{
	mpq_t *v = ovb_xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < n; i++)
		mpq_init(v[i]);
	return v;
}

static void
qfree(mpq_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mpq_clear(v[i]);
	free(v);
}

/* The same computation in rationals. */
static void
run_exact(const struct ovb_market *m, FILE *f)
{
	const struct ovb_bids *b = m->b;
	size_t M = m->nvm, N = m->nnode;
	mpq_t *bid[OVB_NMRES], *amax[OVB_NMRES], *ai[OVB_NMRES], *ar[OVB_NMRES];
	mpq_t price[OVB_NMRES], *err = qvec(M), C, t, u, emax;
	mpq_inits(C, t, u, emax, NULL);
	mpq_t *gb = qvec(M), *ga = qvec(M), *gx = qvec(M);
	size_t *gi = ovb_xcalloc(M, sizeof *gi);
	fputs("# price RES P credit/UNIT: max(reserve, sum of bids / "
		"capacity)\n", f);
	for (size_t r = 0; r < m->nres; r++) {
		bid[r] = qvec(M);
		amax[r] = qvec(M);
		ai[r] = qvec(M);
		ar[r] = qvec(M);
		mpq_init(price[r]);
		mpq_set_ui(C, 0, 1);
		for (size_t n = 0; n < N; n++) {
			mpq_set_d(t, m->cap[r][n]);
			mpq_add(C, C, t);
		}
		for (size_t j = 0; j < M; j++) {
			mpq_set_d(bid[r][j], m->bid[r][j]);
			mpq_set_d(amax[r][j], m->amax[r][j]);
			mpq_add(price[r], price[r], bid[r][j]);
		}
		ovb_xwaterfill(bid[r], amax[r], M, C, ai[r]);
		mpq_div(price[r], price[r], C);
		mpq_set_d(t, b->reserve[r]);
		if (mpq_cmp(t, price[r]) > 0)
			mpq_set(price[r], t);
		for (size_t n = 0; n < N; n++) {
			size_t k = 0;
			for (size_t j = 0; j < M; j++)
				if (m->node[j] == n) {
					gi[k] = j;
					mpq_set(gb[k], bid[r][j]);
					mpq_set(ga[k], amax[r][j]);
					k++;
				}
			mpq_set_d(C, m->cap[r][n]);
			ovb_xwaterfill(gb, ga, k, C, gx);
			for (size_t i = 0; i < k; i++)
				mpq_set(ar[r][gi[i]], gx[i]);
		}
		fprintf(f, "price %s", ovb_mres_name(r));
		putq(f, price[r]);
		fprintf(f, " credit/%s\n", ovb_mres_unit(r));
	}
	fputs("# alloc VM NODE RES ALLOC_I ALLOC_R E_R (cpu in cpu, mem in "
		"MiB)\n", f);
	for (size_t j = 0; j < M; j++)
		for (size_t r = 0; r < m->nres; r++) {
			const char *node = b->vm[j].node;
			fprintf(f, "alloc %s %s %s", b->vm[j].name, node ? node :
				"-", ovb_mres_name(r));
			putq(f, ai[r][j]);
			if (node) {
				mpq_sub(t, ai[r][j], ar[r][j]);
				mpq_abs(t, t);
				mpq_div(t, t, ai[r][j]);
				if (mpq_cmp(t, err[j]) > 0)
					mpq_set(err[j], t);
				if (mpq_cmp(t, emax) > 0)
					mpq_set(emax, t);
				putq(f, ar[r][j]);
				putq(f, t);
				fputc('\n', f);
			} else
				fputs(" - -\n", f);
		}
	fputs("# vm VM NODE ERROR CHARGE credit: max_r e_r, sum_r price x "
		"alloc_r\n", f);
	for (size_t j = 0; j < M; j++) {
		const char *node = b->vm[j].node;
		mpq_set_ui(u, 0, 1);
		for (size_t r = 0; r < m->nres; r++) {
			mpq_mul(t, price[r], node ? ar[r][j] : ai[r][j]);
			mpq_add(u, u, t);
		}
		fprintf(f, "vm %s %s", b->vm[j].name, node ? node : "-");
		if (node)
			putq(f, err[j]);
		else
			fputs(" -", f);
		putq(f, u);
		fputs(" credit\n", f);
	}
	fputs("error max", f);
	putq(f, emax);
	fputs("\nerror bound", f);
	put(f, ovb_market_bound(m));
	fputs(" # a double, as in the default mode\n", f);
	for (size_t r = 0; r < m->nres; r++) {
		qfree(bid[r], M);
		qfree(amax[r], M);
		qfree(ai[r], M);
		qfree(ar[r], M);
		mpq_clear(price[r]);
	}
	qfree(err, M);
	qfree(gb, M);
	qfree(ga, M);
	qfree(gx, M);
	free(gi);
	mpq_clears(C, t, u, emax, NULL);
}

static void
put_afford(const struct ovb_market *m, FILE *f)
{
	double bid[OVB_NMRES];
	uint64_t n = ovb_market_afford(m, opt_vm, opt_nvms, opt_budget, bid);
	double total = 0;
	for (size_t r = 0; r < m->nres; r++)
		total += bid[r] * (double)n;
	fputs("# afford N vms TOTAL credit; afford-bid RES BID credit (per "
		"VM, to get its cap; Algorithm 3)\n", f);
	fprintf(f, "afford %llu vms", (unsigned long long)n);
	put(f, total);
	fputs(" credit\n", f);
	for (size_t r = 0; r < m->nres; r++) {
		fprintf(f, "afford-bid %s", ovb_mres_name(r));
		put(f, bid[r]);
		fputs(" credit\n", f);
	}
}

/* Algorithm 2 over --perf: per period, the market with the current bids,
 * then the VM's new bids. */
static int
replay(struct ovb_market *m, FILE *f, const char *bfile)
{
	size_t j = ovb_names_get(&m->b->byname, opt_policy);
	if (j == OVB_NONE)
		return ovb_err_at(bfile, 0, "--policy: vm '%s' is not in the "
			"file", opt_policy);
	double *ar[OVB_NMRES], *err = ovb_xcalloc(m->nvm, sizeof *err);
	for (size_t r = 0; r < OVB_NMRES; r++)
		ar[r] = ovb_xcalloc(m->nvm, sizeof **ar);
	struct ovb_vpolicy p = opt_vp;
	double bid[OVB_NMRES], last[OVB_NMRES] = { 0, 0 }, alloc[OVB_NMRES];
	for (size_t r = 0; r < m->nres; r++) {
		p.alloc_max[r] = m->amax[r][j];
		p.alloc_min[r] = opt_allocmin * m->amax[r][j];
		bid[r] = m->bid[r][j];
	}
	fputs("# policy PERIOD VM V then per resource RES ALLOC BID: the "
		"allocation in the period, the bid for the next (Algorithm 2)\n",
		f);
	for (size_t k = 0; k < nopt_perf; k++) {
		for (size_t r = 0; r < m->nres; r++) {
			m->bid[r][j] = bid[r];
			ovb_waterfill(m->bid[r], m->amax[r], m->nvm, m->total[r],
				m->alloc_i[r]);
		}
		ovb_market_errors(m, m->node, ar, err);
		for (size_t r = 0; r < m->nres; r++)
			alloc[r] = m->node[j] != OVB_NONE ? ar[r][j] :
				m->alloc_i[r][j];
		ovb_vertical_bid(&p, m->nres, opt_perf[k], alloc, bid, last);
		fprintf(f, "policy %zu %s", k + 1, opt_policy);
		put(f, opt_perf[k]);
		for (size_t r = 0; r < m->nres; r++) {
			fprintf(f, " %s", ovb_mres_name(r));
			put(f, alloc[r]);
			put(f, bid[r]);
		}
		fputc('\n', f);
	}
	for (size_t r = 0; r < OVB_NMRES; r++)
		free(ar[r]);
	free(err);
	return 0;
}

int
main(int argc, char **argv)
{
	int first, status;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct ovb_market_in in;
	struct ovb_market m;
	status = ovb_market_load(argc - first, argv + first, &in, &m);
	char *buf = NULL;
	size_t len = 0;
	if (!status) {
		FILE *mem = ovb_xmemstream(&buf, &len);
		fputs("# ovb-market: Merkat proportional share (Eq. 1-2)\n", mem);
		if (opt_exact)
			run_exact(&m, mem);
		else
			run_double(&m, mem);
		if (opt_budget >= 0 && m.nres > 1 && !(opt_vm[OVB_MMEM] > 0)) {
			fclose(mem);
			free(buf);
			buf = NULL;
			status = ovb_err_at(in.bfile, 0, "the vms bid for mem: "
				"--budget needs --vm-mem > 0");
			goto out;
		}
		if (opt_budget >= 0)
			put_afford(&m, mem);
		if (opt_policy && (status = replay(&m, mem, in.bfile))) {
			fclose(mem);
			goto out;
		}
		fclose(mem);
		status = ovb_out_buffer(buf, len, 0);
	}
out:
	free(buf);
	ovb_market_free(&m);
	ovb_market_in_free(&in);
	free(opt_perf);
	return status;
}
