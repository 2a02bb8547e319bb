/* ovb-convolve: the distribution of the sum Y of independent usages, and
 * Pr(Y > C) for given capacities (Eq. 3 of the overbooking paper).
 *
 * Reads ovb-usage and ovb-profile files (any number, in any order, told
 * apart by their magic line; stdin when none or "-"), selects the
 * distributions of one resource (-r) and/or of chosen capsules (-c), puts
 * them on one grid and convolves them (the z-transform product of the
 * paper's footnote 1).  Prints Pr(Y > C) for each -C, and with --dist
 * writes Y as an ovb-usage block.
 *
 * Invariants: a bin's value is its upper edge k w, and on the common grid
 * it only ever moves up (ovb_grid_up), so every Pr(Y > C) printed is at
 * least the one of the bins' own values; "above C" is decided by grid
 * index exactly as in lib/pmf.c; with --exact every count is an exact
 * integer and Pr(Y > C) an exact rational; --dist writes Y's exact counts
 * (or, beyond 2^64-1 combinations, counts rounded up conservatively); the
 * output depends only on the inputs and options, in their order, and
 * appears whole or not at all. */
#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_RES = 'r', OPT_CAPSULE = 'c', OPT_CAP = 'C', OPT_GRID = 'g',
	OPT_EXACT = 0x100, OPT_DIST, OPT_NAME, OPT_TSV };

static int opt_res = -1;
static const char **opt_capsule;
static size_t nopt_capsule, capopt_capsule;
static double *opt_C;
static size_t nopt_C, capopt_C;
static double opt_grid;        /* 0: the largest bin width */
static bool opt_exact, opt_dist, opt_tsv;
static const char *opt_name = "sum";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Selection:", 1 },
	{ "resource", OPT_RES, "RES", 0,
	  "Only the distributions of RES (cpu, net or net-rx)", 0 },
	{ "capsule", OPT_CAPSULE, "CAPSULE", 0,
	  "Only the distributions of CAPSULE; repeatable", 0 },
	{ NULL, 0, NULL, 0, "Question:", 2 },
	{ "capacity", OPT_CAP, "VALUE", 0,
	  "Print Pr(Y > VALUE), VALUE >= 0 in the resource's rate unit (cpu, "
	  "B/s); repeatable", 0 },
	{ "grid", OPT_GRID, "WIDTH", 0,
	  "Common grid width > 0 (default: the largest bin width)", 0 },
	{ "exact", OPT_EXACT, NULL, 0,
	  "Exact integer arithmetic (GMP): Pr(Y > C) as a rational and its "
	  "decimal", 0 },
	{ NULL, 0, NULL, 0, "Output:", 3 },
	{ "dist", OPT_DIST, NULL, 0,
	  "Write Y as an ovb-usage file, the -C results as comments after it",
	  0 },
	{ "name", OPT_NAME, "NAME", 0, "Capsule name of Y in --dist (default "
	  "sum)", 0 },
	{ "tsv", OPT_TSV, NULL, 0,
	  "Tab-separated: capacity, unit, probability (and exact with "
	  "--exact), after a header line", 0 },
	{ 0 }
};

static const char doc[] =
	"The distribution of the sum Y of independent usages, and Pr(Y > C)."
	"\v"
	"Each FILE is an ovb-usage or ovb-profile file (a profile's U is "
	"used), recognised by its first record; a (capsule, resource) may "
	"come only once over all files.  The selected distributions (all, or "
	"those of -r and -c) must be of one resource.  Each histogram bin "
	"stands for its upper edge k*W and is moved up to the least point of "
	"the common grid at or above it, never down, so Pr(Y > C) is never "
	"below the one of the bins' own values; values above C are the grid "
	"points k*g > C, strictly (the paper's sum from x = C would count "
	"Y = C too).  The usages are taken as independent, as Eq. 3 of "
	"the paper does; their measurement intervals should be the same.\n\n"
	"Output: one line per -C, 'Pr(Y > 4 cpu) = 0.0123' (the shortest "
	"decimal that reads back as the computed double); with --exact "
	"'Pr(Y > 4 cpu) = 123/10000 = 0.0123', or '= 1/3 ~ "
	"0.33333333333333333333' when 20 significant digits do not end it.  "
	"--dist writes Y's exact counts (combinations of intervals; divided "
	"by their gcd) as an ovb-usage block of width g; beyond 2^64-1 "
	"combinations they are rounded up to 10^18 intervals, every "
	"Pr(Y >= x) rounded up (a warning says so).\n\n"
	"EXAMPLES:\n"
	"  ovb-convolve -r cpu -C 4 -C 8 web.profile db.profile\n"
	"  ovb-convolve --exact -c web -c db -r cpu -C 2 all.usage\n"
	"  ovb-convolve -r net -g 1e6 --dist --name n1 *.profile -o n1.usage\n"
	"  ovb-convolve --tsv -r cpu $(seq -f '-C %g' 1 8) u.usage\n\n"
	OVB_EXIT_DOC_NOCHECK;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_RES:
		if ((opt_res = ovb_res_parse(arg)) < 0)
			argp_error(st, "-r: unknown resource '%s' (cpu, net, "
				"net-rx)", arg);
		return 0;
	case OPT_CAPSULE:
		if (!ovb_valid_name(arg))
			argp_error(st, "-c: '%s' is not a capsule name", arg);
		*OVB_PUSH(opt_capsule, nopt_capsule, capopt_capsule) = arg;
		return 0;
	case OPT_CAP:
		*OVB_PUSH(opt_C, nopt_C, capopt_C) =
			ovb_arg_real(st, "-C", arg, 0, 1e300);
		return 0;
	case OPT_GRID:
		opt_grid = ovb_arg_real(st, "-g", arg, 0, 1e300);
		if (!(opt_grid > 0))
			argp_error(st, "-g: the grid width must be positive");
		return 0;
	case OPT_EXACT: opt_exact = true; return 0;
	case OPT_DIST: opt_dist = true; return 0;
	case OPT_TSV: opt_tsv = true; return 0;
	case OPT_NAME:
		if (!ovb_valid_name(arg))
			argp_error(st, "--name: '%s' is not a capsule name", arg);
		opt_name = arg;
		return 0;
	case ARGP_KEY_SUCCESS:
		if (!nopt_C && !opt_dist)
			argp_error(st, "nothing to do: give -C CAPACITY or --dist");
		if (opt_tsv && opt_dist)
			argp_error(st, "--tsv and --dist exclude each other");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE...]", doc,
	ovb_cli_child, NULL, NULL };

/* Every distribution read, in input order. */
struct input {
	struct ovb_dist *d;
	char **file;
	size_t n, cap;
};

static int
take_dist(struct input *in, struct ovb_dist *d, const char *file)
{
	for (size_t j = 0; j < in->n; j++)
		if (in->d[j].res == d->res && !strcmp(in->d[j].capsule,
		    d->capsule))
			return ovb_err_at(file, 0, "%s %s was already read from "
				"%s: a (capsule, resource) may come only once",
				d->capsule, ovb_res_name(d->res), in->file[j]);
	if (in->n == in->cap)
		in->file = ovb_xrealloc(in->file, in->cap ? 2 * in->cap : 8,
			sizeof *in->file);
	in->file[in->n] = ovb_xstrdup(file);
	*OVB_PUSH(in->d, in->n, in->cap) = *d;
	memset(d, 0, sizeof *d);
	return 0;
}

/* One input (ovb_read_input's take): usage or profiles. */
static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	struct input *in = ctx;
	int st;
	if (!strcmp(fmt->name, "usage")) {
		struct ovb_usage u;
		if (!(st = ovb_usage_read(lx, &u)))
			for (size_t i = 0; i < u.n && !st; i++)
				st = take_dist(in, &u.d[i], lx->name);
		ovb_usage_free(&u);
	} else if (!strcmp(fmt->name, "profile")) {
		struct ovb_profiles p;
		if (!(st = ovb_profile_read(lx, &p)))
			for (size_t i = 0; i < p.n && !st; i++)
				st = take_dist(in, &p.q[i].U, lx->name);
		ovb_profile_free(&p);
	} else
		st = ovb_err(lx, "this is an ovb-%s file; expected ovb-usage or "
			"ovb-profile", fmt->name);
	return st;
}

/* The indexes of the selected distributions, all of one resource. */
static int
select_dists(const struct input *in, size_t **sel, size_t *nsel)
{
	*sel = ovb_xcalloc(in->n, sizeof **sel);
	*nsel = 0;
	for (size_t i = 0; i < in->n; i++) {
		const struct ovb_dist *d = &in->d[i];
		bool ok = opt_res < 0 || d->res == (enum ovb_res)opt_res;
		if (ok && nopt_capsule) {
			ok = false;
			for (size_t j = 0; j < nopt_capsule; j++)
				ok = ok || !strcmp(opt_capsule[j], d->capsule);
		}
		if (ok)
			(*sel)[(*nsel)++] = i;
	}
	for (size_t j = 0; j < nopt_capsule; j++) {
		bool found = false;
		for (size_t i = 0; i < *nsel; i++)
			found = found || !strcmp(in->d[(*sel)[i]].capsule,
				opt_capsule[j]);
		if (!found) {
			if (opt_res >= 0)
				ovb_warn("-c %s: no %s distribution of capsule %s in "
					"the inputs", opt_capsule[j],
					ovb_res_name(opt_res), opt_capsule[j]);
			else
				ovb_warn("-c %s: no distribution of capsule %s in the "
					"inputs", opt_capsule[j], opt_capsule[j]);
			return OVB_EUSAGE;
		}
	}
	if (!*nsel) {
		if (opt_res >= 0)
			return ovb_err_at(NULL, 0, "no %s distribution in the inputs",
				ovb_res_name(opt_res));
		return ovb_err_at(NULL, 0, "no distribution in the inputs");
	}
	for (size_t i = 1; i < *nsel; i++) {
		const struct ovb_dist *a = &in->d[(*sel)[0]], *b = &in->d[(*sel)[i]];
		if (a->res != b->res) {
			ovb_warn("the selection mixes %s (%s) and %s (%s); choose "
				"one resource with -r", ovb_res_name(a->res),
				a->capsule, ovb_res_name(b->res), b->capsule);
			return OVB_EUSAGE;
		}
	}
	return 0;
}

/* The common measurement interval, or NAN when they differ. */
static double
common_interval(const struct input *in, const size_t *sel, size_t nsel)
{
	double I = in->d[sel[0]].interval;
	for (size_t i = 1; i < nsel; i++)
		if (in->d[sel[i]].interval != I)
			return NAN;
	return I;
}

struct result {
	double g;
	enum ovb_res res;
	bool exact;
	struct ovb_pmf y;       /* when !exact */
	struct ovb_xpmf x;      /* when exact or --dist */
};

static void
convolve(const struct input *in, const size_t *sel, size_t nsel,
	struct result *R)
{
	double g = opt_grid;
	if (!g)
		for (size_t i = 0; i < nsel; i++)
			if (in->d[sel[i]].h.width > g)
				g = in->d[sel[i]].h.width;
	R->g = g;
	R->res = in->d[sel[0]].res;
	R->exact = opt_exact;
	if (!opt_exact)
		ovb_pmf_zero(&R->y, g);
	if (opt_exact || opt_dist)
		ovb_xpmf_zero(&R->x, g);
	const char *unit = ovb_res_rate_unit(R->res);
	for (size_t i = 0; i < nsel; i++) {
		const struct ovb_dist *d = &in->d[sel[i]];
		if (ovb_verbose && d->h.width != g) {
			char a[32], b[32];
			ovb_warn("%s %s: bins of %s %s moved up onto the grid of "
				"%s %s", d->capsule, ovb_res_name(d->res),
				ovb_fmt_real(a, d->h.width), unit,
				ovb_fmt_real(b, g), unit);
		}
		if (!opt_exact) {
			struct ovb_pmf u;
			ovb_pmf_from_hist(&u, &d->h, g);
			ovb_pmf_add(&R->y, &u);
			ovb_pmf_free(&u);
		}
		if (opt_exact || opt_dist) {
			struct ovb_xpmf u;
			ovb_xpmf_from_hist(&u, &d->h, g);
			ovb_xpmf_add(&R->x, &u);
			ovb_xpmf_free(&u);
		}
	}
	if (ovb_verbose) {
		char a[32];
		ovb_warn("Y: %zu distribution%s of %s on a grid of %s %s, %zu "
			"grid points", nsel, nsel == 1 ? "" : "s",
			ovb_res_name(R->res), ovb_fmt_real(a, g), unit,
			opt_exact || opt_dist ? R->x.n : R->y.n);
	}
}

/* One -C result in the text or TSV form. */
static void
put_result(FILE *f, const struct result *R, double C, const char *prefix)
{
	const char *unit = ovb_res_rate_unit(R->res);
	char cbuf[32], pbuf[32];
	ovb_fmt_real(cbuf, C);
	if (!R->exact) {
		ovb_fmt_real(pbuf, ovb_pmf_tail(&R->y, C));
		if (opt_tsv)
			fprintf(f, "%s\t%s\t%s\n", cbuf, unit, pbuf);
		else
			fprintf(f, "%sPr(Y > %s %s) = %s\n", prefix, cbuf, unit,
				pbuf);
		return;
	}
	mpq_t pr;
	mpq_init(pr);
	ovb_xpmf_tail(pr, &R->x, C);
	bool ex;
	char *dec = ovb_mpq_decimal(pr, 20, &ex);
	char *rat = ovb_mpq_str(pr);
	if (opt_tsv)
		fprintf(f, "%s\t%s\t%s\t%s\n", cbuf, unit, dec, rat);
	else if (!strcmp(rat, dec))
		fprintf(f, "%sPr(Y > %s %s) = %s\n", prefix, cbuf, unit, dec);
	else
		fprintf(f, "%sPr(Y > %s %s) = %s %s %s\n", prefix, cbuf, unit, rat,
			ex ? "=" : "~", dec);
	free(dec);
	free(rat);
	mpq_clear(pr);
}

/* Y as an ovb-usage file: its exact counts, or conservatively rounded. */
static int
put_dist(FILE *f, const struct result *R, double interval)
{
	struct ovb_dist d;
	memset(&d, 0, sizeof d);
	bool exact;
	if (ovb_xpmf_hist(&R->x, &d.h, &exact) < 0) {
		char a[32];
		ovb_warn("Y spans %zu points of the grid of %s %s, more than an "
			"ovb-usage histogram holds (%d); choose a coarser grid with "
			"-g", R->x.n, ovb_fmt_real(a, R->g),
			ovb_res_rate_unit(R->res), OVB_MAXBINS);
		return OVB_EDATA;
	}
	if (!exact && !ovb_quiet) {
		char *t = mpz_get_str(NULL, 10, R->x.total);
		ovb_warn("Y has %s combinations of intervals, more than an "
			"ovb-usage file counts: written over 10^18 intervals with "
			"every Pr(Y >= x) rounded up", t);
		free(t);
	}
	d.capsule = (char *)opt_name;
	d.res = R->res;
	d.interval = interval;
	/* the mean of the values written, k g each */
	mpz_t s;
	mpq_t m, g;
	mpz_init(s);
	mpq_inits(m, g, NULL);
	for (size_t k = 1; k < d.h.nbins; k++) {
		mpz_t t;
		mpz_init_set_ui(t, (unsigned long)d.h.count[k]);
		mpz_addmul_ui(s, t, (unsigned long)k);
		mpz_clear(t);
	}
	mpq_set_z(m, s);
	mpz_set_ui(s, (unsigned long)d.h.n);
	mpq_set_den(m, s);
	mpq_canonicalize(m);
	mpq_set_d(g, R->g);
	mpq_mul(m, m, g);
	d.has_mean = true;
	char *dec = ovb_mpq_decimal(m, 40, NULL);
	d.mean = strtod(dec, NULL);       /* the double nearest (to 40 digits) */
	free(dec);
	mpz_clear(s);
	mpq_clears(m, g, NULL);
	struct ovb_usage u = { 1, 1, &d };
	int st = ovb_usage_write(f, &u);
	free(d.h.count);
	return st;
}

static void
input_free(struct input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		ovb_dist_free(&in->d[i]);
		free(in->file[i]);
	}
	free(in->d);
	free(in->file);
}

static int
run(struct input *in, FILE *out)
{
	size_t *sel, nsel;
	int st = select_dists(in, &sel, &nsel);
	if (st) {
		free(sel);
		return st;
	}
	double interval = common_interval(in, sel, nsel);
	if (isnan(interval)) {
		if (opt_dist) {   /* name the first that differs */
			size_t j = 1;
			while (j < nsel && in->d[sel[j]].interval ==
			    in->d[sel[0]].interval)
				j++;
			const struct ovb_dist *a = &in->d[sel[0]];
			const struct ovb_dist *b = &in->d[sel[j < nsel ? j : 0]];
			char x[32], y[32];
			st = ovb_err_at(in->file[sel[j < nsel ? j : 0]], 0,
				"--dist: the distributions have different "
				"measurement intervals (%s %s: %s s; %s %s in %s: "
				"%s s), so Y has none", b->capsule,
				ovb_res_name(b->res), ovb_fmt_real(x, b->interval),
				a->capsule, ovb_res_name(a->res), in->file[sel[0]],
				ovb_fmt_real(y, a->interval));
			free(sel);
			return st;
		}
		if (!ovb_quiet)
			ovb_warn("warning: the distributions have different "
				"measurement intervals");
	}
	/* Y's grid points: the sum of each U's largest index */
	double g = opt_grid, points = 1;
	for (size_t i = 0; i < nsel && !opt_grid; i++)
		g = fmax(g, in->d[sel[i]].h.width);
	size_t widest = sel[0];
	double most = 0;
	for (size_t i = 0; i < nsel; i++) {
		const struct ovb_hist *h = &in->d[sel[i]].h;
		double p = ceil(ovb_hist_hi(h, h->nbins - 1) / g);
		points += p;
		if (!(p <= most))
			most = p, widest = sel[i];
	}
	if (!(points <= 1e8)) {
		char a[32];
		const struct ovb_dist *d = &in->d[widest];
		ovb_err_at(in->file[widest], 0, "Y would span %.3g points of the "
			"grid of %s %s (%s %s alone spans %.3g); choose a coarser "
			"grid with -g", points, ovb_fmt_real(a, g),
			ovb_res_rate_unit(d->res), d->capsule, ovb_res_name(d->res),
			most);
		free(sel);
		return opt_grid ? OVB_EUSAGE : OVB_EDATA;  /* -g or the data */
	}
	struct result R;
	memset(&R, 0, sizeof R);
	convolve(in, sel, nsel, &R);
	if (opt_dist) {
		st = put_dist(out, &R, interval);
		for (size_t i = 0; i < nopt_C && !st; i++)
			put_result(out, &R, opt_C[i], "# ");
	} else {
		if (opt_tsv)
			fprintf(out, "capacity\tunit\tprobability%s\n",
				opt_exact ? "\texact" : "");
		for (size_t i = 0; i < nopt_C; i++)
			put_result(out, &R, opt_C[i], "");
	}
	if (!opt_exact)
		ovb_pmf_free(&R.y);
	ovb_xpmf_free(&R.x);
	free(sel);
	return st;
}

int
main(int argc, char **argv)
{
	int first, status;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct input in;
	memset(&in, 0, sizeof in);
	status = ovb_read_inputs(argc - first, argv + first, take, &in);
	/* computed into memory first: nothing is written on error */
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = ovb_xmemstream(&buf, &len);
	if (!status)
		status = run(&in, mem);
	fclose(mem);
	if (!status)
		status = ovb_out_buffer(buf, len, 0);
	free(buf);
	input_free(&in);
	free(opt_capsule);
	free(opt_C);
	return status;
}
