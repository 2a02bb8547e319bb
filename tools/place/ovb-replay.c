/* ovb-replay: was the plan's promise kept on what really happened?
 *
 * For every node and resource with a risk record in PLAN, adds up the
 * usage series of the capsules placed there slot by slot, over the slots
 * in which every one of them has a sample, and counts the slots whose sum
 * exceeds the node's capacity in CLUSTER.  The promise (Eq. 3 of the
 * overbooking paper) is that this happens with probability at most O_min,
 * the least tolerance of the node's capsules; it is kept when the
 * empirical fraction of overflowing slots is at most O_min.
 *
 * The correlation guard (--guard, the profiling period's series) computes
 * the same empirical fraction over the profiling period and the
 * independence-based one, from the same capsules' samples in the same
 * slots: each capsule's usage histogram (bins of width C/POINTS, values
 * at their upper edges) convolved.  When the capsules' usages are
 * independent the empirical fraction is at most the convolution's (up to
 * sampling noise; the upper edges make it conservative); when it is
 * larger, independence under-estimated the node's risk.
 *
 * Memory (a plan's mem records): the node's levels add up per slot as
 * the rates do; besides, every capsule placed with a mem qos has each of
 * its samples compared with its limit: one above it is an OOM kill, a
 * broken promise (exit 1 unless --no-fail). */
#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_TSV = 0x100, OPT_NO_FAIL, OPT_GUARD, OPT_FAIL_CORR, OPT_GRID,
	OPT_ALPHA, OPT_ZERO };

static bool opt_tsv, opt_no_fail, opt_fail_corr, opt_zero;
static size_t nguard;
static char **guard_files;
static uint64_t opt_grid = 1000;
static double opt_alpha = 1;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Output:", 1 },
	{ "tsv", OPT_TSV, NULL, 0,
	  "Tab-separated values with a header line, numbers in full "
	  "precision, instead of the table", 0 },
	{ "no-fail", OPT_NO_FAIL, NULL, 0,
	  "Exit 0 even when a promise was broken (for reporting)", 0 },
	{ "missing-as-zero", OPT_ZERO, NULL, 0,
	  "Count the slots where any capsule of the node has a sample, a "
	  "missing sample as usage 0 (overflows are then a lower bound)", 0 },
	{ NULL, 0, NULL, 0, "Correlation guard:", 2 },
	{ "guard", OPT_GUARD, "SERIES", 0,
	  "The series of the profiling period: compare the empirical "
	  "Pr(Y > C) there with the independence-based one; repeatable", 0 },
	{ "fail-correlated", OPT_FAIL_CORR, NULL, 0,
	  "Exit 1 when the guard finds that independence under-estimates a "
	  "node's risk", 0 },
	{ "grid", OPT_GRID, "POINTS", 0,
	  "The guard's histograms have bins of width C/POINTS (default 1000)",
	  0 },
	{ "alpha", OPT_ALPHA, "P", 0,
	  "Count a node as correlated only when the p-value of its excess is "
	  "at most P (default 1: any excess)", 0 },
	{ 0 }
};

static const char doc[] =
	"Replay usage series through a placement plan: how often did demand "
	"exceed capacity, against the promised overbooking tolerance?"
	"\v"
	"PLAN is an ovb-plan file (from ovb-place), CLUSTER the ovb-cluster "
	"file it was made for, and each SERIES an ovb-series file (from "
	"ovb-import) of the period to check (several files, e.g. months, are "
	"merged).  For every risk record of the "
	"plan (a node and a resource, cpu or net), the capsules placed on the "
	"node are looked up in the series: a capsule's series is the one "
	"named after its profile (the place record's PROFILE), else the one "
	"named after the capsule.  Their samples are added up in every slot "
	"of the grid where each of them has one (all must have the same "
	"interval); a slot overflows when the exact sum exceeds the node's "
	"capacity C in CLUSTER.  The report gives per node and resource the "
	"number of capsules, the slots, the overflows, the empirical overflow "
	"fraction, the plan's promised Pr(Y > C) and O_min (its risk "
	"record), and whether the promise was kept: empirical <= O_min.  With "
	"--missing-as-zero the slots are those where any of the capsules has "
	"a sample, and a missing sample counts as usage 0 (a VM that was off; "
	"when missing means unknown, the overflows are a lower bound).\n\n"
	"Memory (risk records of mem, B): the levels add up per slot as the "
	"rates do; besides, each capsule placed with a mem qos has its samples "
	"compared with its limit, and one above it is an OOM kill: a line "
	"'oom APP/CAPSULE NODE: K of N samples above its limit L B (largest "
	"X B)' per such capsule, then 'mem limits kept: ...' (not in --tsv); "
	"an OOM kill is a broken promise.\n\n"
	"With --guard, the same capsules' series of the profiling period are "
	"aligned likewise, and two risks are computed over those slots: the "
	"empirical fraction of slots whose sum exceeds C, and the one that "
	"assumes independence (the convolution of the capsules' usage "
	"histograms, bins of width C/POINTS taken at their upper edges, as "
	"the plan's risk is computed).  Independent usages give an empirical "
	"risk within sampling noise of at most the convolution's; a larger "
	"one means the usages are correlated and the plan's risk is "
	"under-estimated: a warning on stderr names the node, resource and "
	"capsules and says by how much, with the p-value of the excess (the "
	"binomial probability of at least as many overflowing slots if the "
	"independence-based risk were true; small values rule out sampling "
	"noise).  --alpha 0.05 counts only such nodes as correlated.\n\n"
	"Exit status 1 when a promise was broken (unless --no-fail), or with "
	"--fail-correlated when the guard warned.\n\n"
	"EXAMPLES:\n"
	"  ovb-replay plan cluster aug.series sep.series\n"
	"  ovb-replay --tsv --no-fail plan cluster aug.series >aug.tsv\n"
	"  ovb-replay --guard july.series --fail-correlated plan cluster "
	"aug.series\n\n"
	OVB_EXIT_DOC;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_TSV: opt_tsv = true; return 0;
	case OPT_NO_FAIL: opt_no_fail = true; return 0;
	case OPT_ZERO: opt_zero = true; return 0;
	case OPT_FAIL_CORR: opt_fail_corr = true; return 0;
	case OPT_GUARD:
		guard_files = ovb_xrealloc(guard_files, nguard + 1,
			sizeof *guard_files);
		guard_files[nguard++] = arg;
		return 0;
	case OPT_GRID:
		opt_grid = ovb_arg_u64(st, "--grid", arg, 1, 100000);
		return 0;
	case OPT_ALPHA:
		opt_alpha = ovb_arg_real(st, "--alpha", arg, 0, 1);
		return 0;
	case ARGP_KEY_SUCCESS:
		if (st->argc - st->next < 3)
			argp_error(st, "expected PLAN CLUSTER SERIES...");
		if (opt_fail_corr && !nguard)
			argp_error(st, "--fail-correlated needs --guard");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt,
	"PLAN CLUSTER SERIES...", doc, ovb_cli_child, NULL, NULL };

/* ---- inputs ---- */

struct wanted { const char *fmt; void *obj; };

/* ovb_read_input's take: the wanted format's reader, whatever the file
 * is (the reader's magic check names what it got instead). */
static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	const struct wanted *w = ctx;
	(void)fmt;
	return ovb_format_by_name(w->fmt)->read(lx, w->obj);
}

static int
read_file(const char *path, const char *fmt, void *obj)
{
	struct wanted w = { fmt, obj };
	return ovb_read_input(path, take, &w);
}

/* Series files merged into one set (ovb_series_load). */
struct seriesdb {
	struct ovb_series_set all;
	const char **file;
};

static int
read_series(struct seriesdb *db, char **paths, size_t n)
{
	return ovb_series_load(paths, n, &db->all, &db->file);
}

/* ---- one node and resource ---- */

struct member {
	const struct ovb_placed *p;
	const struct ovb_series *s;
};

struct result {
	const struct ovb_noderisk *r;
	double cap;
	size_t ncap;
	uint64_t slots, over;
	double emp;
	bool kept;
	bool unmeasured;      /* a capsule without samples, or no slot in
	                         common: neither kept nor broken */
	bool guarded, correlated;
	uint64_t gslots, gover;
	double gemp, gind, gp;
};

/* The series of each capsule on the node, in plan order. */
/* With soft, a capsule without a series makes it return -1 (reported as
 * a warning) rather than an error. */
static int
members(const struct ovb_plan *plan, const char *planfile,
	const struct ovb_noderisk *r, const struct seriesdb *db,
	const char *what, struct member **out, size_t *n, bool soft)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct ovb_placed *p = &plan->p[i];
		if (strcmp(p->node, r->node) != 0)
			continue;
		const struct ovb_series *s = NULL;
		if (p->profile)
			s = ovb_series_find(&db->all, p->profile, r->res);
		if (!s)
			s = ovb_series_find(&db->all, p->capsule, r->res);
		if (!s && soft) {
			free(*out);
			*out = NULL;
			if (!ovb_quiet)
				ovb_warn("%s:%lu: node %s %s unmeasured: capsule %s of %s "
					"has no %s series named %s in the %s series",
					planfile, p->line, p->node, ovb_res_name(r->res),
					p->capsule, p->app, ovb_res_name(r->res),
					p->profile ? p->profile : p->capsule, what);
			return -1;
		}
		if (!s) {
			free(*out);
			*out = NULL;
			return ovb_err_at(planfile, p->line, "capsule %s of %s on "
				"%s: no %s series named %s%s%s in the %s series",
				p->capsule, p->app, p->node, ovb_res_name(r->res),
				p->profile ? p->profile : p->capsule,
				p->profile && strcmp(p->profile, p->capsule) ?
				" or " : "", p->profile && strcmp(p->profile,
				p->capsule) ? p->capsule : "", what);
		}
		struct member *m = OVB_PUSH(*out, *n, cap);
		m->p = p;
		m->s = s;
	}
	for (size_t i = 1; i < *n; i++)
		if ((*out)[i].s->interval != (*out)[0].s->interval) {
			int st = ovb_err_at(planfile, r->line, "node %s %s: the "
				"%s series of %s and %s have different intervals "
				"(%llu s, %llu s)", r->node, ovb_res_name(r->res),
				what, (*out)[0].s->capsule, (*out)[i].s->capsule,
				(unsigned long long)(*out)[0].s->interval,
				(unsigned long long)(*out)[i].s->interval);
			free(*out);
			*out = NULL;
			return st;
		}
	return 0;
}

/* Calls fn for every slot where all n series have a sample (with
 * --missing-as-zero: any of them, the others 0), with their values in
 * v[0..n). */
static void
align(const struct member *m, size_t n, double *v,
	void (*fn)(void *, const double *), void *arg)
{
	size_t *i = ovb_xcalloc(n, sizeof *i);
	for (;;) {
		/* the earliest sample not yet used, and the latest of the
		 * series' next samples */
		uint64_t lo = UINT64_MAX, hi = 0;
		bool end = false;
		for (size_t k = 0; k < n; k++) {
			if (i[k] >= m[k].s->n) {
				end = true;
				continue;
			}
			uint64_t t = m[k].s->t[i[k]];
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
		if (opt_zero ? lo == UINT64_MAX : end)
			break;
		uint64_t t = opt_zero ? lo : hi;
		bool all = true;
		for (size_t k = 0; k < n; k++) {
			if (!opt_zero)
				while (i[k] < m[k].s->n && m[k].s->t[i[k]] < t)
					i[k]++;
			if (i[k] < m[k].s->n && m[k].s->t[i[k]] == t)
				v[k] = m[k].s->v[i[k]++];
			else
				v[k] = 0, all = false;
		}
		if (all || opt_zero)
			fn(arg, v);
	}
	free(i);
}

struct count { size_t n; double cap; uint64_t slots, over; };

static void
count_slot(void *arg, const double *v)
{
	struct count *c = arg;
	c->slots++;
	c->over += ovb_sum_cmp(v, c->n, c->cap) > 0;
}

/* Per capsule, the values of the aligned slots. */
struct collect { size_t n, len, cap; double **v; };

static void
collect_slot(void *arg, const double *v)
{
	struct collect *c = arg;
	if (c->len == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		for (size_t k = 0; k < c->n; k++)
			c->v[k] = ovb_xrealloc(c->v[k], c->cap, sizeof **c->v);
	}
	for (size_t k = 0; k < c->n; k++)
		c->v[k][c->len] = v[k];
	c->len++;
}

/* Pr(sum of independent U_k > cap), U_k the histogram of v[k][0..len)
 * with bins of width w (values above cap, which overflow alone, are
 * lumped just above it). */
static double
independent(double **v, size_t n, size_t len, double cap, double w)
{
	struct ovb_pmf y;
	ovb_pmf_zero(&y, w);
	for (size_t k = 0; k < n; k++) {
		struct ovb_hist h;
		memset(&h, 0, sizeof h);
		h.width = w;
		h.n = len;
		size_t top = ovb_hist_bin(cap, w) + 1;
		h.count = ovb_xcalloc(top + 1, sizeof *h.count);
		for (size_t i = 0; i < len; i++) {
			size_t b = v[k][i] > cap ? top : ovb_hist_bin(v[k][i], w);
			h.count[b]++;
			if (b + 1 > h.nbins)
				h.nbins = b + 1;
		}
		struct ovb_pmf u;
		ovb_pmf_from_hist(&u, &h, w);
		ovb_pmf_add(&y, &u);
		ovb_pmf_clip(&y, cap);
		ovb_pmf_free(&u);
		free(h.count);
	}
	double p = ovb_pmf_tail(&y, cap);
	ovb_pmf_free(&y);
	return p;
}

/* Pr(X >= k), X binomial with n trials of probability p. */
static double
binomial_tail(uint64_t n, uint64_t k, double p)
{
	if (k == 0)
		return 1;
	if (!(p > 0))
		return 0;
	if (p >= 1)
		return 1;
	double lp = log(p), lq = log1p(-p), s = 0;
	for (uint64_t j = k; j <= n; j++) {
		double l = lgamma((double)n + 1) - lgamma((double)j + 1) -
			lgamma((double)(n - j) + 1) + (double)j * lp +
			(double)(n - j) * lq;
		double t = exp(l);
		s += t;
		if (t < s * 1e-17 && (double)j > (double)n * p)
			break;
	}
	return s > 1 ? 1 : s;
}

static void
names(char *buf, size_t size, const struct member *m, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t k = 0; k < n && len + 1 < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s%s",
			k ? ", " : "", m[k].p->capsule,
			strcmp(m[k].p->capsule, m[k].s->capsule) ? " [series " :
			"", strcmp(m[k].p->capsule, m[k].s->capsule) ?
			m[k].s->capsule : "", strcmp(m[k].p->capsule,
			m[k].s->capsule) ? "]" : "");
	if (len >= size && size > 4)
		strcpy(buf + size - 4, "...");
}

static int
guard(struct result *res, const struct ovb_plan *plan, const char *planfile,
	const struct seriesdb *gdb)
{
	struct member *m;
	size_t n;
	int st = members(plan, planfile, res->r, gdb, "--guard", &m, &n, false);
	if (st)
		return st;
	double *v = ovb_xcalloc(n + 1, sizeof *v);
	struct count c = { n, res->cap, 0, 0 };
	align(m, n, v, count_slot, &c);
	struct collect col = { n, 0, 0, ovb_xcalloc(n + 1, sizeof(double *)) };
	align(m, n, v, collect_slot, &col);
	const char *rn = ovb_res_name(res->r->res);
	char who[512];
	names(who, sizeof who, m, n);
	res->guarded = true;
	res->gslots = c.slots;
	res->gover = c.over;
	if (!c.slots) {
		if (!ovb_quiet)
			ovb_warn("guard: node %s %s (%s): the profiling series "
				"have no slot in common; nothing to compare",
				res->r->node, rn, who);
	} else {
		res->gemp = (double)c.over / (double)c.slots;
		res->gind = independent(col.v, n, col.len, res->cap,
			res->cap / (double)opt_grid);
		res->gp = binomial_tail(c.slots, c.over, res->gind);
		res->correlated = res->gemp > res->gind * (1 + 1e-9) + 1e-12 &&
			res->gp <= opt_alpha;
		if (res->correlated && !ovb_quiet) {
			char a[32], f[64] = "independence says never";
			ovb_fmt_real(a, res->cap);
			if (res->gind > 0)
				snprintf(f, sizeof f, "%.3g times the "
					"independence-based value",
					res->gemp / res->gind);
			ovb_warn("guard: node %s %s (%s): over the profiling period "
				"the sum exceeded C = %s %s in %llu of %llu slots "
				"(%.4g), but independence gives Pr(Y > C) = %.4g: "
				"under-estimated by %.4g (%s; p-value %.3g: the "
				"chance of as many overflows if independent); the "
				"capsules' usages are correlated", res->r->node, rn,
				who, a, ovb_res_rate_unit(res->r->res),
				(unsigned long long)c.over,
				(unsigned long long)c.slots, res->gemp, res->gind,
				res->gemp - res->gind, f, res->gp);
		}
	}
	for (size_t k = 0; k < n; k++)
		free(col.v[k]);
	free(col.v);
	free(v);
	free(m);
	return 0;
}

static int
replay(struct result *res, const struct ovb_plan *plan, const char *planfile,
	const struct ovb_cluster *cl, const struct seriesdb *db,
	const struct seriesdb *gdb)
{
	const struct ovb_noderisk *r = res->r;
	const char *rn = ovb_res_name(r->res);
	size_t ni = ovb_names_get(&cl->byname, r->node);
	if (ni == OVB_NONE)
		return ovb_err_at(planfile, r->line, "node %s is not in the "
			"cluster", r->node);
	res->cap = cl->node[ni].cap[r->res];
	if (fabs(res->cap - r->capacity) > 1e-9 * fmax(res->cap, r->capacity)
	    && !ovb_quiet) {
		char a[32], b[32];
		ovb_warn("node %s %s: the plan's capacity %s differs from the "
			"cluster's %s; replaying against the cluster's", r->node,
			rn, ovb_fmt_real(a, r->capacity),
			ovb_fmt_real(b, res->cap));
	}
	struct member *m;
	size_t n;
	int st = members(plan, planfile, r, db, "replayed", &m, &n, true);
	if (st < 0) {
		res->unmeasured = true;
		for (size_t i = 0; i < plan->n; i++)
			res->ncap += !strcmp(plan->p[i].node, r->node);
		return 0;
	}
	if (st)
		return st;
	res->ncap = n;
	if (!n) {
		res->kept = true;
		free(m);
		return 0;
	}
	double *v = ovb_xcalloc(n, sizeof *v);
	struct count c = { n, res->cap, 0, 0 };
	align(m, n, v, count_slot, &c);
	free(v);
	char who[512];
	names(who, sizeof who, m, n);
	free(m);
	if (!c.slots) {
		if (!ovb_quiet)
			ovb_warn("%s:%lu: node %s %s unmeasured: the series of its "
				"capsules (%s) have no slot in common", planfile,
				r->line, r->node, rn, who);
		res->unmeasured = true;
		return 0;
	}
	res->slots = c.slots;
	res->over = c.over;
	res->emp = (double)c.over / (double)c.slots;
	res->kept = res->emp <= r->omin;
	if (ovb_verbose)
		ovb_warn("node %s %s (%s): %llu of %llu slots over C", r->node,
			rn, who, (unsigned long long)c.over,
			(unsigned long long)c.slots);
	if (gdb)
		return guard(res, plan, planfile, gdb);
	return 0;
}

/* ---- the report ---- */

enum { NCOLS = 14 };

static void
row_text(const struct result *x, char cell[NCOLS][48], bool tsv)
{
	const struct ovb_noderisk *r = x->r;
	char *(*num)(char *, double) = ovb_fmt_real;
	snprintf(cell[0], 48, "%s", r->node);
	snprintf(cell[1], 48, "%s", ovb_res_name(r->res));
	snprintf(cell[2], 48, "%zu", x->ncap);
	snprintf(cell[3], 48, "%llu", (unsigned long long)x->slots);
	snprintf(cell[4], 48, "%llu", (unsigned long long)x->over);
	if (!x->slots)
		strcpy(cell[5], "-");
	else if (tsv)
		num(cell[5], x->emp);
	else
		snprintf(cell[5], 48, "%.6g", x->emp);
	if (tsv) {
		num(cell[6], r->risk);
		num(cell[7], r->omin);
	} else {
		snprintf(cell[6], 48, "%.6g", r->risk);
		snprintf(cell[7], 48, "%.6g", r->omin);
	}
	strcpy(cell[8], x->unmeasured ? "unmeasured" : x->kept ? "yes" : "no");
	if (!x->guarded) {
		for (int i = 9; i < NCOLS; i++)
			strcpy(cell[i], "-");
		return;
	}
	snprintf(cell[9], 48, "%llu", (unsigned long long)x->gslots);
	if (!x->gslots) {
		for (int i = 10; i < NCOLS; i++)
			strcpy(cell[i], "-");
		return;
	}
	if (tsv) {
		num(cell[10], x->gemp);
		num(cell[11], x->gind);
		num(cell[12], x->gp);
	} else {
		snprintf(cell[10], 48, "%.6g", x->gemp);
		snprintf(cell[11], 48, "%.6g", x->gind);
		snprintf(cell[12], 48, "%.3g", x->gp);
	}
	strcpy(cell[13], x->correlated ? "yes" : "no");
}

static void
report(FILE *f, const struct result *res, size_t n, bool guarded)
{
	static const char *const head[NCOLS] = { "node", "res", "capsules",
		"slots", "overflows", "empirical", "promised", "omin", "kept",
		"guard_slots", "guard_empirical", "guard_independent",
		"guard_pvalue", "correlated" };
	int ncol = guarded ? NCOLS : 9;
	char (*cell)[NCOLS][48] = ovb_xcalloc(n + 1, sizeof *cell);
	for (int i = 0; i < ncol; i++)
		snprintf(cell[0][i], 48, "%s", head[i]);
	for (size_t k = 0; k < n; k++)
		row_text(&res[k], cell[k + 1], opt_tsv);
	int width[NCOLS] = { 0 };
	for (size_t k = 0; k <= n; k++)
		for (int i = 0; i < ncol; i++)
			if ((int)strlen(cell[k][i]) > width[i])
				width[i] = (int)strlen(cell[k][i]);
	for (size_t k = 0; k <= n; k++) {
		for (int i = 0; i < ncol; i++) {
			if (opt_tsv)
				fprintf(f, "%s%s", i ? "\t" : "", cell[k][i]);
			else if (i < 2)
				fprintf(f, "%s%-*s", i ? "  " : "", width[i],
					cell[k][i]);
			else
				fprintf(f, "  %*s", width[i], cell[k][i]);
		}
		fputc('\n', f);
	}
	if (!opt_tsv) {
		size_t kept = 0, corr = 0, un = 0;
		for (size_t k = 0; k < n; k++) {
			kept += res[k].kept && !res[k].unmeasured;
			corr += res[k].correlated;
			un += res[k].unmeasured;
		}
		fprintf(f, "promises kept: %zu of %zu", kept, n - un);
		if (un)
			fprintf(f, " (%zu unmeasured: a capsule without samples)",
				un);
		fputc('\n', f);
		if (guarded)
			fprintf(f, "correlated (independence under-estimates "
				"the risk): %zu of %zu\n", corr, n);
	}
	free(cell);
}

/* Memory's limits: for every capsule placed with a mem qos and a mem
 * series, the samples above its limit (an OOM kill each, as a cgroup's
 * memory.max would do it).  Lines "oom APP/CAPSULE NODE: ..." for those
 * with any, then a count (not in --tsv); the number of such capsules. */
static size_t
oom_report(FILE *f, const struct ovb_plan *plan, const struct seriesdb *db)
{
	size_t with = 0, over = 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct ovb_placed *p = &plan->p[i];
		if (!p->has_qos[OVB_MEM])
			continue;
		const struct ovb_series *s = p->profile ?
			ovb_series_find(&db->all, p->profile, OVB_MEM) : NULL;
		if (!s)
			s = ovb_series_find(&db->all, p->capsule, OVB_MEM);
		if (!s)
			continue;
		with++;
		size_t k = 0;
		double top = 0;
		for (size_t j = 0; j < s->n; j++) {
			k += s->v[j] > p->limit;
			top = fmax(top, s->v[j]);
		}
		if (!k)
			continue;
		over++;
		if (!opt_tsv)
			fprintf(f, "oom %s/%s %s: %zu of %zu samples above its "
				"limit %.17g B (largest %.17g B)\n", p->app,
				p->capsule, p->node, k, s->n, p->limit, top);
	}
	if (with && !opt_tsv)
		fprintf(f, "mem limits kept: %zu of %zu capsules (the others "
			"OOM-killed)\n", with - over, with);
	return over;
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	const char *planfile = argv[first], *clfile = argv[first + 1];
	struct ovb_plan plan;
	struct ovb_cluster cl;
	struct seriesdb db, gdb;
	memset(&plan, 0, sizeof plan);
	memset(&cl, 0, sizeof cl);
	memset(&db, 0, sizeof db);
	memset(&gdb, 0, sizeof gdb);
	if ((st = read_file(planfile, "plan", &plan)) > status)
		status = st;
	if ((st = read_file(clfile, "cluster", &cl)) > status)
		status = st;
	if ((st = read_series(&db, argv + first + 2,
	    (size_t)(argc - first - 2))) > status)
		status = st;
	if (nguard && (st = read_series(&gdb, guard_files, nguard)) > status)
		status = st;
	struct result *res = ovb_xcalloc(plan.nrisk + 1, sizeof *res);
	size_t noom = 0;
	for (size_t i = 0; !status && i < plan.nrisk; i++) {
		res[i].r = &plan.risk[i];
		status = replay(&res[i], &plan, planfile, &cl, &db,
			nguard ? &gdb : NULL);
	}
	if (!status && !plan.nrisk)
		status = ovb_err_at(planfile, 0, "no risk records: nothing to "
			"replay");
	struct ovb_out out;
	if (!status && !(status = ovb_out_open(&out, ovb_opt_output))) {
		report(out.f, res, plan.nrisk, nguard > 0);
		noom = oom_report(out.f, &plan, &db);
		status = ovb_out_end(&out, 0);
	}
	if (!status) {
		for (size_t i = 0; i < plan.nrisk; i++) {
			if (!res[i].kept && !res[i].unmeasured && !opt_no_fail)
				status = OVB_FAIL;
			if (res[i].correlated && opt_fail_corr)
				status = OVB_FAIL;
		}
		if (noom && !opt_no_fail)
			status = OVB_FAIL;
	}
	free(res);
	ovb_plan_free(&plan);
	ovb_cluster_free(&cl);
	ovb_series_free(&db.all);
	free(db.file);
	ovb_series_free(&gdb.all);
	free(gdb.file);
	free(guard_files);
	return status;
}
