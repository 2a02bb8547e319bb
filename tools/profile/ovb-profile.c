/* ovb-profile: QoS requirements (sigma, rho, tau, U, O) from usage
 * distributions and token-bucket curves.
 *
 * Reads ovb-usage and ovb-curve files (any number, in any order; stdin
 * when none or "-"), pairs distributions and curves by capsule and
 * resource, and writes one ovb-profile block per pair, in the order of the
 * distributions: sigma is the (1-O)*100th percentile of U, rho = rho(sigma)
 * from the curve, tau and O as given, U and the curve copied.  Output is
 * all or nothing; the exit status is the largest of all inputs'.
 *
 * A mem distribution (window peaks, a level) needs no curve: its block has
 * the request, the (1-O)*100th percentile of the peaks, and the limit, the
 * largest peak x (1 + --mem-margin).
 *
 * A usage block's lost D (intervals left out for lost events) is copied;
 * above a share of O/2 it is a warning (--strict: 65); so is a cpu block's
 * wait (runnable waits) above 5 % of its busy time, unless counted as
 * demand.  With --cluster, a
 * sigma no node's capacity holds is a warning naming the interval at
 * which the curve shows it would fit; neither changes the output. */
#include <argp.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_O = 'O', OPT_TAU = 't', OPT_SET = 0x100, OPT_STRICT,
	OPT_MARGIN, OPT_CLUSTER };

static bool opt_strict;
static size_t nshort;     /* percentiles that are a maximum by count */
static size_t nlost;      /* distributions that lost more than O/2 */
static size_t nwait;      /* cpu distributions that waited above 5 % */

struct set { char *capsule; double O, tau; bool used; };

static double opt_O = NAN, opt_tau = NAN, opt_margin = 0.15;
static const char *opt_cluster;
static struct ovb_cluster cluster;
static bool have_cluster;
static struct set *sets;
static size_t nsets, capsets;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Requirements:", 1 },
	{ "tolerance", OPT_O, "O", 0,
	  "Overbooking tolerance, 0 <= O < 1 (required): sigma is the "
	  "(1-O)*100th percentile of U", 0 },
	{ "tau", OPT_TAU, "SECONDS", 0, "Guarantee period tau > 0 (required "
	  "unless every distribution is mem's)", 0 },
	{ "mem-margin", OPT_MARGIN, "M", 0,
	  "mem: the limit is the largest window peak x (1 + M), M >= 0 "
	  "(default 0.15)", 0 },
	{ "strict", OPT_STRICT, NULL, 0,
	  "Warnings are errors (65, no output): a percentile that is U's "
	  "maximum only because U has too few intervals; more than O/2 of "
	  "the intervals left out for lost events (lost D); a capsule that "
	  "waited for a CPU while runnable more than 5 % of its busy time "
	  "(wait, not counted as demand)", 0 },
	{ "set", OPT_SET, "CAPSULE:KEY=VALUE[,KEY=VALUE]", 0,
	  "Override O or tau for one capsule (KEY O or tau); repeatable", 0 },
	{ "cluster", OPT_CLUSTER, "FILE", 0,
	  "An ovb-cluster file: warn when a capsule's sigma exceeds every "
	  "node's capacity of its resource, naming the measurement interval "
	  "at which it would fit", 0 },
	{ 0 }
};

static const char doc[] =
	"Assemble QoS profiles (sigma, rho, tau, U, O) from usage "
	"distributions and token-bucket curves."
	"\v"
	"Each FILE is an ovb-usage file (from ovb-usage) or an ovb-curve file "
	"(from ovb-tbucket), recognised by its first record.  For every "
	"(capsule, resource) in both, one ovb-profile block "
	"(formats/profile.md) is written.  sigma is the nearest-rank "
	"(1-O)*100th percentile of U: exactly when U carries that percentile "
	"(ovb-usage -p), else the upper edge of the bin holding its rank "
	"(never below the exact value).  rho is rho(sigma) from the curve, "
	"linear between its breakpoints.  tau and O are as given; U and the "
	"curve are copied.\n\n"
	"A mem distribution (ovb-usage -r mem: the window peaks of a level, "
	"in B) needs no curve and gets no token bucket: its block has the "
	"request, the (1-O)*100th percentile of the peaks (found as sigma "
	"is), and the limit, the largest peak (U's percentile 100, else the "
	"upper edge of its highest bin) x (1 + --mem-margin), rounded up to "
	"a whole byte; tau does not apply.\n\n"
	"When sigma is below the curve's mean (possible for large O), no "
	"burst bounds the long-run usage: rho is rho(mean), the curve is left "
	"out of the block (a profile's sigma may not lie below its curve), "
	"and a warning says so.  Pairs with only a distribution or only a "
	"curve are left out with a warning.\n\n"
	"Lost events: a usage block's 'lost D' (intervals ovb-usage left out "
	"for gaps of lost events) is copied; above a share D/(N+D) of O/2 the "
	"(1-O) tail may be in them: a warning, an error with --strict.\n\n"
	"Runnable waits: a cpu block's 'wait' (how long the capsule's tasks "
	"waited for a CPU while runnable, from ovb-onoff through ovb-usage) "
	"is copied; above 5 % of its busy time U is what a busy host let it "
	"have, not what it needed: a warning naming the capsule and the "
	"share, an error with --strict, unless ovb-onoff --demand counted "
	"the waits as demand (AS demand).  Without the record the wait was "
	"not measured (-v says so), never 0.\n\n"
	"The interval: with --cluster FILE, a sigma above every node's "
	"capacity of its resource (no node could hold it) is a warning that "
	"names the least measurement interval at which no interval's usage "
	"exceeds the largest capacity, from the curve: over any I s the "
	"capsule uses at most sigma' + rho(sigma')/I for each of its points, "
	"so I >= min rho/(C - sigma') (none when the mean is at least C).  "
	"The profile is written as without it; --strict does not refuse it.\n\n"
	"EXAMPLES:\n"
	"  ovb-profile -O 0.01 -t 1 web.usage web.curve -o web.profile\n"
	"  ovb-usage t.onoff >u; ovb-tbucket t.onoff >c; ovb-profile -O 0.05 "
	"-t 0.1 u c\n"
	"  ovb-profile -O 0.01 -t 1 --set db:O=0,tau=0.1 u c   stricter db\n"
	"  ovb-profile -O 0.01 -t 1 --cluster cluster u c     the I that fits\n\n"
	OVB_EXIT_DOC_NOCHECK;

static double
tolerance(struct argp_state *st, const char *opt, const char *s)
{
	double v = ovb_arg_real(st, opt, s, -DBL_MAX, DBL_MAX);
	if (v < 0 || v >= 1)    /* as formats/apps.md: 0 <= O < 1 */
		argp_error(st, "%s: %s is outside [0,1): the tolerance O is "
			"at least 0 and below 1", opt, s);
	return v;
}

static double
period(struct argp_state *st, const char *opt, const char *s)
{
	double v = ovb_arg_real(st, opt, s, 0, 1e9);
	if (!(v > 0))
		argp_error(st, "%s: the period tau must be positive", opt);
	return v;
}

static void
add_set(struct argp_state *st, char *arg)
{
	char *colon = strchr(arg, ':');
	if (!colon)
		argp_error(st, "--set: '%s' is not CAPSULE:KEY=VALUE", arg);
	*colon = '\0';
	if (!ovb_valid_name(arg))
		argp_error(st, "--set: '%s' is not a capsule name", arg);
	struct set *s = NULL;
	for (size_t i = 0; i < nsets; i++)
		if (strcmp(sets[i].capsule, arg) == 0)
			s = &sets[i];
	if (!s) {
		s = OVB_PUSH(sets, nsets, capsets);
		*s = (struct set){ arg, NAN, NAN, false };
	}
	char *kv = colon + 1, *save = NULL, *key, *val;
	for (char *t; (t = strtok_r(kv, ",", &save)); kv = NULL) {
		if (!ovb_kv(t, &key, &val))
			argp_error(st, "--set: '%s' is not KEY=VALUE", t);
		if (strcmp(key, "O") == 0)
			s->O = tolerance(st, "--set O", val);
		else if (strcmp(key, "tau") == 0)
			s->tau = period(st, "--set tau", val);
		else
			argp_error(st, "--set: unknown key '%s' (O, tau)", key);
	}
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_O: opt_O = tolerance(st, "-O", arg); return 0;
	case OPT_TAU: opt_tau = period(st, "-t", arg); return 0;
	case OPT_SET: add_set(st, arg); return 0;
	case OPT_STRICT: opt_strict = true; return 0;
	case OPT_CLUSTER: opt_cluster = arg; return 0;
	case OPT_MARGIN:
		opt_margin = ovb_arg_real(st, "--mem-margin", arg, 0, 1e6);
		return 0;
	case ARGP_KEY_SUCCESS:
		if (isnan(opt_O))
			argp_error(st, "the tolerance -O is required");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE...]", doc,
	ovb_cli_child, NULL, NULL };

struct input {
	struct ovb_usage u;
	struct ovb_curves c;
	char **ufile, **cfile;       /* the file of each d[i] and c[i] */
};

static bool
same(const char *cap1, enum ovb_res r1, const char *cap2, enum ovb_res r2)
{
	return r1 == r2 && strcmp(cap1, cap2) == 0;
}

/* Moves the blocks just read into in, refusing a (capsule, resource)
 * already read. */
static int
take_usage(struct input *in, struct ovb_usage *u, const char *file)
{
	for (size_t i = 0; i < u->n; i++) {
		struct ovb_dist *d = &u->d[i];
		for (size_t j = 0; j < in->u.n; j++)
			if (same(in->u.d[j].capsule, in->u.d[j].res, d->capsule,
			    d->res))
				return ovb_err_at(file, 0, "usage %s %s was "
					"already read from %s", d->capsule,
					ovb_res_name(d->res), in->ufile[j]);
		in->ufile = ovb_xrealloc(in->ufile, in->u.n + 1,
			sizeof *in->ufile);
		in->ufile[in->u.n] = ovb_xstrdup(file);
		*OVB_PUSH(in->u.d, in->u.n, in->u.cap) = *d;
		memset(d, 0, sizeof *d);
	}
	return 0;
}

static int
take_curves(struct input *in, struct ovb_curves *c, const char *file)
{
	for (size_t i = 0; i < c->n; i++) {
		struct ovb_curve *cv = &c->c[i];
		for (size_t j = 0; j < in->c.n; j++)
			if (same(in->c.c[j].capsule, in->c.c[j].res, cv->capsule,
			    cv->res))
				return ovb_err_at(file, 0, "curve %s %s was "
					"already read from %s", cv->capsule,
					ovb_res_name(cv->res), in->cfile[j]);
		in->cfile = ovb_xrealloc(in->cfile, in->c.n + 1,
			sizeof *in->cfile);
		in->cfile[in->c.n] = ovb_xstrdup(file);
		*OVB_PUSH(in->c.c, in->c.n, in->c.cap) = *cv;
		memset(cv, 0, sizeof *cv);
	}
	return 0;
}

/* One input (ovb_read_input's take): usage or curves. */
static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	struct input *in = ctx;
	int st;
	if (strcmp(fmt->name, "usage") == 0) {
		struct ovb_usage u;
		if (!(st = ovb_usage_read(lx, &u)))
			st = take_usage(in, &u, lx->name);
		ovb_usage_free(&u);
	} else if (strcmp(fmt->name, "curve") == 0) {
		struct ovb_curves c;
		if (!(st = ovb_curve_read(lx, &c)))
			st = take_curves(in, &c, lx->name);
		ovb_curve_free(&c);
	} else
		st = ovb_err(lx, "this is an ovb-%s file; expected ovb-usage "
			"or ovb-curve", fmt->name);
	return st;
}

/* --cluster FILE: an ovb-cluster file, nothing else. */
static int
take_cluster(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)ctx;
	if (strcmp(fmt->name, "cluster"))
		return ovb_err(lx, "--cluster: this is an ovb-%s file; expected "
			"ovb-cluster", fmt->name);
	int st = ovb_cluster_read(lx, &cluster);
	have_cluster = !st;
	return st;
}

static const struct ovb_curve *
curve_of(const struct input *in, const struct ovb_dist *d)
{
	for (size_t i = 0; i < in->c.n; i++)
		if (same(in->c.c[i].capsule, in->c.c[i].res, d->capsule, d->res))
			return &in->c.c[i];
	return NULL;
}

/* The (1-O)*100th percentile: U's own when it has it, else the upper edge
 * of the bin holding its rank. */
static double
percentile(const struct ovb_dist *d, double O, bool *exact)
{
	double p = 100 - 100 * O;
	for (int i = 0; i < d->npct; i++)
		if (fabs(d->pct_p[i] - p) <= 1e-9) {
			*exact = true;
			return d->pct_v[i];
		}
	*exact = false;
	const struct ovb_hist *h = &d->h;
	uint64_t rank = ovb_pct_rank(p, h->n), cum = 0;
	size_t k = 0;
	while (k + 1 < h->nbins && (cum += h->count[k]) < rank)
		k++;
	return ovb_hist_hi(h, k);
}

static void
dist_copy(struct ovb_dist *to, const struct ovb_dist *from)
{
	*to = *from;
	to->capsule = ovb_xstrdup(from->capsule);
	to->h.count = ovb_xcalloc(from->h.nbins ? from->h.nbins : 1,
		sizeof *to->h.count);
	memcpy(to->h.count, from->h.count, from->h.nbins * sizeof *to->h.count);
	ovb_trace_copy(&to->trace, &from->trace);
	ovb_tod_copy(&to->tod, &from->tod);    /* time-of-day windows */
}

static void
settings(const char *capsule, double *O, double *tau)
{
	*O = opt_O;
	*tau = opt_tau;
	for (size_t i = 0; i < nsets; i++)
		if (strcmp(sets[i].capsule, capsule) == 0) {
			sets[i].used = true;
			if (!isnan(sets[i].O))
				*O = sets[i].O;
			if (!isnan(sets[i].tau))
				*tau = sets[i].tau;
		}
}


/* With n intervals, the (1 - O) percentile (nearest rank) is the maximum
 * whenever n O < 1: U then says nothing about the tail O is about. */
static void
check_count(const struct ovb_dist *d, double O)
{
	if (O <= 0 || (double)d->h.n * O >= 1)
		return;
	nshort++;
	if (!ovb_quiet || opt_strict)
		ovb_warn("%s%s %s: percentile %g of %llu intervals is their "
			"maximum (O = %g needs at least %.0f; measure longer or with "
			"a smaller -I)", opt_strict ? "error: " : "warning: ",
			d->capsule, ovb_res_name(d->res), 100 - 100 * O,
			(unsigned long long)d->h.n, O, ceil(1 / O));
}

/* Intervals left out for lost events (lost D): above a share of O/2 the
 * (1-O) tail may lie in them (formats/profile.md, "Lost events"). */
static void
check_lost(const struct ovb_dist *d, double O)
{
	if (!d->lost)
		return;
	double share = (double)d->lost / ((double)d->h.n + (double)d->lost);
	bool over = ovb_dist_lost_too_many(d, O);
	nlost += over;
	if (over ? !ovb_quiet || opt_strict : ovb_verbose > 0)
		ovb_warn("%s%s %s: %llu of %llu measurement intervals (%.3g %%) "
			"were left out for gaps of lost events, %s O/2 = %g %%%s",
			over ? opt_strict ? "error: " : "warning: " : "",
			d->capsule, ovb_res_name(d->res),
			(unsigned long long)d->lost, (unsigned long long)(d->h.n +
			d->lost), 100 * share, over ? "more than" : "at most",
			50 * O, over ? ": the tail above the (1-O) percentile may "
			"be in them; record again with a larger ovb-capture "
			"--mmap-pages" : "");
}

/* How long the capsule's tasks waited for a CPU while runnable (wait, cpu
 * blocks): above OVB_WAIT_PCT % of its busy time, unless counted as demand
 * (ovb-onoff --demand), U is of what a busy host let it have: a warning
 * (--strict: 65).  Without the record the wait was not measured, never 0
 * (formats/profile.md, "Runnable waits"). */
static void
check_wait(const struct ovb_dist *d)
{
	const struct ovb_wait *w = &d->wait;
	if (d->res != OVB_CPU)
		return;
	if (!w->has) {
		if (ovb_verbose)
			ovb_warn("%s cpu: runnable wait not measured (no wait "
				"record: an ovb-onoff file from before it, or a "
				"series)", d->capsule);
		return;
	}
	bool over = !w->demand && ovb_wait_over(w);
	nwait += over;
	char say[256];
	if (over ? !ovb_quiet || opt_strict : ovb_verbose > 0)
		ovb_warn("%s%s cpu: %s%s%d %%%s", over ? opt_strict ? "error: " :
			"warning: " : "", d->capsule,
			ovb_wait_say(say, sizeof say, w), w->demand ? ": counted "
			"as demand (ovb-onoff --demand), so not judged against " :
			over ? ", more than " : ", at most ", OVB_WAIT_PCT,
			over ? ": U is what a busy host let it have, not what it "
			"needed; profile it with ovb-onoff --demand, or on a "
			"quieter host" : "");
}

/* --cluster: a sigma above every node's capacity of its resource can be
 * placed nowhere; the curve names an interval at which it would fit
 * (lib/tbucket.c, ovb_tb_interval_within; formats/profile.md). */
static void
check_fits(const struct ovb_qos *q, const struct ovb_curve *cv)
{
	enum ovb_res r = q->U.res;
	if (!have_cluster || r == OVB_MEM || (int)r >= ovb_cluster_nres(&cluster))
		return;
	double cap = 0;
	for (size_t i = 0; i < cluster.n; i++)
		if (cluster.node[i].cap[r] > cap)
			cap = cluster.node[i].cap[r];
	if (!(q->sigma > cap) || ovb_quiet)
		return;
	const char *unit = ovb_res_rate_unit(r), *amount = r == OVB_CPU ?
		"cpu-s" : "B";
	char s[32], c[32], i[32], m[32], x[32], a[32], rb[32];
	ovb_fmt_real(s, q->sigma);
	ovb_fmt_real(c, cap);
	ovb_fmt_real(i, q->U.interval);
	double at, I = ovb_tb_interval_within(cv->pt, cv->n, cap, &at);
	char fit[512];
	if (isinf(I))
		snprintf(fit, sizeof fit, "no interval fits: its long-run mean "
			"rate, %s %s, is at least that (a larger node, or split the "
			"capsule)", ovb_fmt_real(m, cv->mean), unit);
	else if (I == 0)
		snprintf(fit, sizeof fit, "its peak rate is below that at any "
			"interval: sigma is above it only by the bin width %s %s "
			"(give ovb-usage a smaller -w, or -p %s for the exact "
			"percentile)", ovb_fmt_real(m, q->U.h.width), unit,
			ovb_fmt_real(x, 100 - 100 * q->O));
	else {
		/* I rounded up to 3 significant digits */
		double e = pow(10, floor(log10(I)) - 2), up = ceil(I / e) * e;
		if (up < I)
			up = nextafter(up, INFINITY);
		snprintf(fit, sizeof fit, "it would fit at I >= %s s (ovb-usage "
			"-I %s): by the curve, the capsule uses at most sigma' + "
			"rho(sigma')/I over any I s, here sigma' = %s %s with "
			"rho %s %s, so no interval exceeds %s %s; a shorter I may "
			"fit too (measure it)", ovb_fmt_real(x, I),
			ovb_fmt_real(m, up), ovb_fmt_real(a, at), unit,
			ovb_fmt_real(rb, ovb_curve_at(cv->pt, cv->n, at)), amount,
			c, unit);
	}
	ovb_warn("warning: %s %s: sigma (rate) %s %s at I = %s s exceeds "
		"every node of %s (the largest %s capacity is %s %s): no node "
		"can hold it; %s", q->U.capsule, ovb_res_name(r), s, unit, i,
		opt_cluster, ovb_res_name(r), c, unit, fit);
}

static void
profile_one(struct ovb_profiles *p, const struct ovb_dist *d,
	const struct ovb_curve *cv)
{
	struct ovb_qos *q = OVB_PUSH(p->q, p->n, p->cap);
	memset(q, 0, sizeof *q);
	const char *cap = d->capsule, *res = ovb_res_name(d->res);
	const char *unit = ovb_res_rate_unit(d->res);
	bool exact;
	settings(cap, &q->O, &q->tau);
	check_count(d, q->O);
	check_lost(d, q->O);
	check_wait(d);
	q->sigma = percentile(d, q->O, &exact);
	q->rho = ovb_curve_at(cv->pt, cv->n, q->sigma);
	dist_copy(&q->U, d);
	if (!q->U.trace.has)     /* where and when: the usage's, or the curve's */
		ovb_trace_copy(&q->U.trace, &cv->trace);
	char a[32], b[32], c[32];
	ovb_fmt_real(a, 100 - 100 * q->O);
	ovb_fmt_real(b, q->sigma);
	if (ovb_verbose)
		ovb_warn("%s %s: sigma %s %s is U's percentile %s (%s)", cap,
			res, b, unit, a, exact ? "exact" : "upper edge of its bin");
	if (q->sigma < cv->pt[0].sigma) {
		if (!ovb_quiet)
			ovb_warn("%s %s: sigma %s %s (U's percentile %s) is "
				"below the curve's mean %s %s: rho is rho(mean) "
				"and the curve is left out", cap, res, b, unit, a,
				ovb_fmt_real(c, cv->pt[0].sigma), unit);
		return;
	}
	q->curve = ovb_xcalloc(cv->n, sizeof *q->curve);
	memcpy(q->curve, cv->pt, cv->n * sizeof *q->curve);
	q->ncurve = q->capcurve = cv->n;
	check_fits(q, cv);
}

/* A mem block: request = the (1-O) percentile of the window peaks,
 * limit = the largest peak x (1 + margin), up to a whole byte. */
static void
profile_mem(struct ovb_profiles *p, const struct ovb_dist *d)
{
	struct ovb_qos *q = OVB_PUSH(p->q, p->n, p->cap);
	memset(q, 0, sizeof *q);
	bool exact, exact_max;
	double tau;
	settings(d->capsule, &q->O, &tau);
	check_count(d, q->O);
	check_lost(d, q->O);
	q->sigma = percentile(d, q->O, &exact);
	double peak = percentile(d, 0, &exact_max);
	q->limit = ceil(peak * (1 + opt_margin));
	if (q->limit < q->sigma)    /* a margin of 0 and a fractional peak */
		q->limit = q->sigma;
	q->rho = 0;
	q->tau = d->interval;
	dist_copy(&q->U, d);
	char a[32], b[32], c[32];
	if (ovb_verbose)
		ovb_warn("%s mem: request %s B is U's percentile %s (%s), limit "
			"%s B the largest window peak x %g", d->capsule,
			ovb_fmt_real(b, q->sigma), ovb_fmt_real(a, 100 - 100 * q->O),
			exact ? "exact" : "upper edge of its bin",
			ovb_fmt_real(c, q->limit), 1 + opt_margin);
}

static int
assemble(const struct input *in, struct ovb_profiles *p)
{
	for (size_t i = 0; i < in->u.n; i++) {
		const struct ovb_dist *d = &in->u.d[i];
		const struct ovb_curve *cv = curve_of(in, d);
		if (d->unmeasured) {    /* said again: no requirement of it */
			if (!ovb_quiet)
				ovb_warn("%s %s: not measured (%s); the profile "
					"says so (unmeasured)", d->capsule,
					ovb_res_name(d->res), in->ufile[i]);
			struct ovb_qos *q = OVB_PUSH(p->q, p->n, p->cap);
			memset(q, 0, sizeof *q);
			q->tau = 1;
			dist_copy(&q->U, d);
			continue;
		}
		if (d->res == OVB_MEM) {
			profile_mem(p, d);
			continue;
		}
		if (cv && isnan(opt_tau)) {
			ovb_warn("the period -t is required (%s %s is not mem)",
				d->capsule, ovb_res_name(d->res));
			return OVB_EUSAGE;
		}
		if (cv)
			profile_one(p, d, cv);
		else if (!ovb_quiet)
			ovb_warn("%s %s: a usage distribution (%s) but no curve; "
				"left out", d->capsule, ovb_res_name(d->res),
				in->ufile[i]);
	}
	for (size_t i = 0; i < in->c.n && !ovb_quiet; i++)
		if (!ovb_profile_find(p, in->c.c[i].capsule, in->c.c[i].res))
			ovb_warn("%s %s: a curve (%s) but no usage distribution; "
				"left out", in->c.c[i].capsule,
				ovb_res_name(in->c.c[i].res), in->cfile[i]);
	for (size_t i = 0; i < nsets; i++)
		if (!sets[i].used) {
			ovb_warn("--set: capsule %s is in no profile",
				sets[i].capsule);
			return OVB_EUSAGE;
		}
	if (!p->n)
		return ovb_err_at(NULL, 0, "no capsule and resource has both a "
			"usage distribution and a curve");
	return 0;
}

static void
input_free(struct input *in)
{
	for (size_t i = 0; i < in->u.n; i++)
		free(in->ufile[i]);
	for (size_t i = 0; i < in->c.n; i++)
		free(in->cfile[i]);
	free(in->ufile);
	free(in->cfile);
	ovb_usage_free(&in->u);
	ovb_curve_free(&in->c);
}

int
main(int argc, char **argv)
{
	int first, status;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct input in;
	memset(&in, 0, sizeof in);
	struct ovb_profiles p;
	memset(&p, 0, sizeof p);
	struct ovb_out out;
	if ((status = ovb_out_open(&out, ovb_opt_output)))
		return status;
	if (opt_cluster)
		status = ovb_read_input(opt_cluster, take_cluster, NULL);
	if (!status)
		status = ovb_read_inputs(argc - first, argv + first, take, &in);
	if (!status)
		status = assemble(&in, &p);
	if (!status && opt_strict && (nshort || nlost || nwait))
		status = OVB_EDATA;
	if (!status)
		status = ovb_profile_write(out.f, &p);
	status = ovb_out_end(&out, status);
	input_free(&in);
	ovb_profile_free(&p);
	if (opt_cluster)
		ovb_cluster_free(&cluster);
	free(sets);
	return status;
}
