/* ovb-report: tables, plots and one HTML page from profiles, usage
 * distributions, token-bucket curves, a plan with its cluster, and the
 * results of a capacity experiment.
 *
 * Reads any number of FILEs (stdin when none or "-"), told apart by their
 * first record: ovb-profile, ovb-usage, ovb-curve, one ovb-cluster, one
 * ovb-plan (which needs the cluster and the profiles it names), and gain
 * tables (header "nodes O placed").  Writes, as asked: tables for terminals
 * (--format text) or pipelines (tsv: exact numbers in base units), one plot
 * drawn by gnuplot (--plot KIND; SVG, or PNG when -o ends in .png), or one
 * self-contained HTML page with every table and plot (--format html).
 *
 * Invariants:
 * - a number in a table is the one its input holds (percentiles, sigma,
 *   rho, a plan's risk record), or is computed here and labelled so: a
 *   node's Pr(Y > C) "computed" (Y the sum of its capsules' U, built as
 *   ovb-place builds it, with risk.c, in plan order), and the Eq. 1 load
 *   of a node the plan has no risk record for;
 * - the same inputs give the same bytes (text, TSV, HTML, SVG);
 * - nothing is written on error: output is made in memory first, -o is
 *   atomic, and a plot file is gnuplot's output into the temporary that is
 *   renamed only when gnuplot succeeded;
 * - gnuplot runs without a shell (fork, exec of "gnuplot" or $OVB_GNUPLOT,
 *   with -d: no init files); its script goes down a pipe with the data
 *   inline ($name << EOD), and the only input text in it is names, which
 *   the formats restrict to [A-Za-z0-9_.:+@/-]. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

enum { OPT_FORMAT = 'f', OPT_TABLE = 't', OPT_PLOT = 'p', OPT_CAPSULE = 'c',
	OPT_RES = 'r', OPT_NODE = 'n', OPT_NOPLOTS = 0x100, OPT_TITLE };

enum format { F_TEXT, F_TSV, F_HTML };
enum plot { P_NONE, P_PDF, P_CDF, P_CURVE, P_NODE, P_CLUSTER, P_GAIN, NPLOT };
enum tabid { T_NODES, T_PLACEMENTS, T_REJECTS, T_CAPSULES, T_GAIN, NTABLE };

static const char *const format_names[] = { "text", "tsv", "html" };
static const char *const plot_names[NPLOT] = { "", "pdf", "cdf", "curve",
	"node", "cluster", "gain" };
static const char *const table_names[NTABLE] = { "nodes", "placements",
	"rejects", "capsules", "gain" };

static enum format opt_format = F_TEXT;
static bool opt_format_given, opt_noplots, opt_title_given, opt_png;
static enum plot opt_plot = P_NONE;
static unsigned opt_tables;              /* a bit per table; 0: all */
static const char *opt_capsule, *opt_node;
static int opt_res = -1;
static const char *opt_title = "overbook report";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Tables and pages:", 1 },
	{ "format", OPT_FORMAT, "FORMAT", 0,
	  "text (default: aligned tables for a terminal), tsv (tab-separated, "
	  "exact numbers in base units, for pipelines) or html (one "
	  "self-contained page: every table and plot)", 0 },
	{ "table", OPT_TABLE, "NAME[,NAME...]", 0,
	  "Only these tables (in html, with their plots): nodes, placements, "
	  "rejects, capsules, gain (default: every one the inputs allow)", 0 },
	{ NULL, 0, NULL, 0, "HTML pages:", 2 },
	{ "no-plots", OPT_NOPLOTS, NULL, 0,
	  "The tables only (needs no gnuplot)", 0 },
	{ "title", OPT_TITLE, "TEXT", 0,
	  "The page's title (default 'overbook report')", 0 },
	{ NULL, 0, NULL, 0,
	  "One plot, drawn by gnuplot (SVG; PNG when -o ends in .png):", 3 },
	{ "plot", OPT_PLOT, "KIND", 0,
	  "pdf or cdf (a capsule's usage distribution U with its "
	  "percentiles), curve (its token-bucket curve rho(sigma) with the "
	  "chosen point), node (a node's aggregate usage Y against its "
	  "capacity), cluster (reserved vs capacity per node), gain (placed "
	  "applications vs overbooking tolerance)", 0 },
	{ "capsule", OPT_CAPSULE, "NAME", 0,
	  "The capsule of a pdf, cdf or curve plot", 0 },
	{ "node", OPT_NODE, "NAME", 0, "The node of a node plot", 0 },
	{ "res", OPT_RES, "RES", 0,
	  "The resource: cpu, net or net-rx (a node: cpu or net)", 0 },
	{ 0 }
};

static const char doc[] =
	"Tables, plots and one HTML page from profiles, usage distributions, "
	"plans and capacity experiments."
	"\v"
	"Inputs, in any order, told apart by their first record: ovb-profile "
	"and ovb-usage files (capsules: percentiles, sigma (rate), rho "
	"(burst), tau, O), ovb-curve files (rho(sigma) for capsules whose "
	"profile has none), one ovb-plan with its ovb-cluster and the "
	"profiles it names (placements, per node reserved vs capacity and "
	"Pr(Y > C) against O_min, rejections), and gain tables.  A usage "
	"block of a capsule and resource that a profile also has is not used "
	"(the profile carries the same U).\n\n"
	"A gain table holds the results of a capacity experiment (Fig. 7 of "
	"the overbooking paper): a header line 'nodes O placed', then one "
	"line per run with the number of nodes (integer >= 1), the "
	"overbooking tolerance O (0 <= O < 1) and the number of applications "
	"placed (integer); fields separated by tabs or blanks, '#' comments "
	"allowed.  Runs with the same nodes and O are averaged, with a 95% "
	"confidence interval (Student's t); gain is the mean over the mean at "
	"O = 0 with the same nodes.\n\n"
	"Y, a node's aggregate usage of a resource, is the sum of the U of "
	"its capsules (a plain reservation: its sigma, always), convolved on "
	"a grid as ovb-place does: the largest bin width of the node's "
	"profiled capsules, at least CAPACITY/POINTS when the plan has "
	"'grid POINTS'; values only move up, so Pr(Y > C) is conservative.  "
	"The nodes table shows the plan's Pr(Y > C) next to this one; a "
	"difference is warned about.\n\n"
	"Plots need gnuplot (Debian package gnuplot-nox); OVB_GNUPLOT names "
	"another binary.  Without it, text and TSV tables still work, and "
	"plots exit with status 69.\n\n"
	"EXAMPLES:\n"
	"  ovb-report fixtures.profile              the capsules table\n"
	"  ovb-report cluster plan *.profile        every table of a plan\n"
	"  ovb-report -f tsv -t nodes cluster plan *.profile | cut -f1,2,8,10\n"
	"  ovb-report -f html cluster plan *.profile gain.tsv -o report.html\n"
	"  ovb-report -p pdf -c web -r cpu web.profile -o web-cpu.svg\n"
	"  ovb-report -p node -n n1 -r cpu cluster plan *.profile -o n1.png\n\n"
	"Exit status: 0 success; 64 usage error; 65 bad input data; 66 cannot "
	"open an input; 69 gnuplot missing or failed; 70 internal error; 74 "
	"I/O error.\n";

static int
lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (names[i][0] && strcmp(names[i], s) == 0)
			return i;
	return -1;
}

static void
parse_tables(struct argp_state *st, const char *arg)
{
	char *copy = ovb_xstrdup(arg), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t;
	    t = strtok_r(NULL, ",", &save)) {
		int i = lookup(table_names, NTABLE, t);
		if (i < 0)
			argp_error(st, "--table: unknown table '%s' (nodes, "
				"placements, rejects, capsules, gain)", t);
		opt_tables |= 1u << i;
	}
	free(copy);
	if (!opt_tables)
		argp_error(st, "--table: no table named");
}

static bool
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && strcmp(s + n - m, tail) == 0;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	int i;
	switch (key) {
	case OPT_FORMAT:
		if ((i = lookup(format_names, 3, arg)) < 0)
			argp_error(st, "--format: unknown format '%s' (text, tsv, "
				"html)", arg);
		opt_format = (enum format)i;
		opt_format_given = true;
		return 0;
	case OPT_TABLE: parse_tables(st, arg); return 0;
	case OPT_PLOT:
		if ((i = lookup(plot_names, NPLOT, arg)) < 0)
			argp_error(st, "--plot: unknown kind '%s' (pdf, cdf, curve, "
				"node, cluster, gain)", arg);
		opt_plot = (enum plot)i;
		return 0;
	case OPT_CAPSULE:
	case OPT_NODE:
		if (!ovb_valid_name(arg))
			argp_error(st, "--%s: '%s' is not a name",
				key == OPT_NODE ? "node" : "capsule", arg);
		*(key == OPT_NODE ? &opt_node : &opt_capsule) = arg;
		return 0;
	case OPT_RES:
		if ((opt_res = ovb_res_parse(arg)) < 0)
			argp_error(st, "--res: unknown resource '%s' (cpu, net, "
				"net-rx)", arg);
		return 0;
	case OPT_NOPLOTS: opt_noplots = true; return 0;
	case OPT_TITLE: opt_title = arg; opt_title_given = true; return 0;
	case ARGP_KEY_SUCCESS:
		if (opt_plot && (opt_format_given || opt_tables || opt_noplots ||
		    opt_title_given))
			argp_error(st, "--plot draws one plot; --format, --table, "
				"--no-plots and --title are for tables and pages");
		if (!opt_plot && (opt_capsule || opt_node || opt_res >= 0))
			argp_error(st, "--capsule, --node and --res choose what "
				"--plot draws");
		if (opt_node && opt_plot != P_NODE)
			argp_error(st, "--node is for --plot node");
		if (opt_capsule && opt_plot != P_PDF && opt_plot != P_CDF &&
		    opt_plot != P_CURVE)
			argp_error(st, "--capsule is for --plot pdf, cdf and curve");
		if (opt_res >= 0 && (opt_plot == P_CLUSTER || opt_plot == P_GAIN))
			argp_error(st, "--res is for --plot pdf, cdf, curve and "
				"node");
		if ((opt_noplots || opt_title_given) && opt_format != F_HTML)
			argp_error(st, "--no-plots and --title are for --format "
				"html");
		if (opt_plot && ovb_opt_output && strcmp(ovb_opt_output, "-")) {
			if (ends_with(ovb_opt_output, ".png"))
				opt_png = true;
			else if (!ends_with(ovb_opt_output, ".svg"))
				argp_error(st, "-o %s: a plot is written to "
					"FILE.svg or FILE.png", ovb_opt_output);
		}
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE...]", doc,
	ovb_cli_child, NULL, NULL };

/* ---- small helpers ---- */

static char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s;
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		ovb_warn("out of memory");
		exit(OVB_ESOFT);
	}
	return s;
}

/* The canonical text of v (TSV cells). */
static char *
xreal(double v)
{
	char b[32];
	return ovb_xstrdup(ovb_fmt_real(b, v));
}

/* v to 4 significant digits with its unit; B and B/s take decimal k, M,
 * G, T prefixes (unit NULL: the number alone). */
static char *
hq(double v, const char *unit)
{
	if (!unit)
		return xasprintf("%.4g", v);
	const char *pre = "";
	double a = fabs(v);
	if (unit[0] == 'B') {
		static const struct { double f; const char *p; } si[] = {
			{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
		for (size_t i = 0; i < sizeof si / sizeof *si; i++)
			if (a >= si[i].f) {
				v /= si[i].f;
				pre = si[i].p;
				break;
			}
	}
	return xasprintf("%.4g %s%s", v, pre, unit);
}

static const char *
rate_unit(enum ovb_res r)
{
	return ovb_res_rate_unit(r);
}

static const char *
burst_unit(enum ovb_res r)
{
	return ovb_res_amount_unit(r);
}

/* What a resource measures, for axis labels. */
static const char *
res_word(enum ovb_res r)
{
	return r == OVB_CPU ? "CPU usage" : r == OVB_NET ?
		"network usage (sent)" : "network usage (received)";
}

/* An axis scale: values are divided by div and shown in unit. */
struct scale { double div; char unit[16]; };

static struct scale
scale_for(const char *base, double maxv)
{
	struct scale s = { 1, "" };
	const char *pre = "";
	if (base[0] == 'B') {
		if (maxv >= 1e9) { s.div = 1e9; pre = "G"; }
		else if (maxv >= 1e6) { s.div = 1e6; pre = "M"; }
		else if (maxv >= 1e3) { s.div = 1e3; pre = "k"; }
	}
	snprintf(s.unit, sizeof s.unit, "%s%s", pre, base);
	return s;
}

/* ---- inputs ---- */

struct in_prof { const char *file; struct ovb_profiles p; };
struct in_usage { const char *file; struct ovb_usage u; };
struct in_curve { const char *file; struct ovb_curves c; };
struct run { uint64_t nodes, placed; double O; };

static struct {
	struct in_prof *prof;
	struct in_usage *usage;
	struct in_curve *curve;
	size_t nprof, capprof, nusage, capusage, ncurve, capcurve;
	struct ovb_cluster cluster;
	struct ovb_plan plan;
	const char *cluster_file, *plan_file;
	bool cluster_read, plan_read;   /* to free, even after an error */
	struct run *run;
	size_t nrun, caprun;
	const char **file;       /* every input, as named in messages */
	size_t nfile, capfile;
} in;

static int
read_gain(struct ovb_lex *lx)
{
	size_t n0 = in.nrun;
	int st;
	while ((st = ovb_lex_next(lx)) == 1) {
		struct run r;
		if ((st = ovb_arity(lx, 3, 3, "NODES O PLACED")) ||
		    (st = ovb_tok_u64(lx, 0, "nodes", &r.nodes)) ||
		    (st = ovb_tok_prob(lx, 1, "O", &r.O)) ||
		    (st = ovb_tok_u64(lx, 2, "placed", &r.placed)))
			return st;
		if (r.nodes < 1)
			return ovb_err(lx, "nodes: a cluster has at least 1 node");
		if (r.O >= 1)
			return ovb_err(lx, "O: the tolerance %s is not below 1",
				lx->tok[1]);
		*OVB_PUSH(in.run, in.nrun, in.caprun) = r;
	}
	if (!st && in.nrun == n0)
		return ovb_err(lx, "no runs after the header 'nodes O placed'");
	return st;
}

static bool
gain_header(const struct ovb_lex *lx)
{
	return lx->ntok == 3 && !strcmp(lx->tok[0], "nodes") &&
		!strcmp(lx->tok[1], "O") && !strcmp(lx->tok[2], "placed");
}

static int
read_format(struct ovb_lex *lx, const struct ovb_format *fmt,
	const char *name)
{
	int st;
	if (!strcmp(fmt->name, "profile")) {
		struct in_prof *p = OVB_PUSH(in.prof, in.nprof, in.capprof);
		p->file = name;
		if ((st = ovb_profile_read(lx, &p->p))) {
			ovb_profile_free(&p->p);
			in.nprof--;
		}
	} else if (!strcmp(fmt->name, "usage")) {
		struct in_usage *u = OVB_PUSH(in.usage, in.nusage, in.capusage);
		u->file = name;
		if ((st = ovb_usage_read(lx, &u->u))) {
			ovb_usage_free(&u->u);
			in.nusage--;
		}
	} else if (!strcmp(fmt->name, "curve")) {
		struct in_curve *c = OVB_PUSH(in.curve, in.ncurve, in.capcurve);
		c->file = name;
		if ((st = ovb_curve_read(lx, &c->c))) {
			ovb_curve_free(&c->c);
			in.ncurve--;
		}
	} else if (!strcmp(fmt->name, "cluster") ||
	    !strcmp(fmt->name, "plan")) {
		bool cl = !strcmp(fmt->name, "cluster");
		const char **have = cl ? &in.cluster_file : &in.plan_file;
		if (*have) {
			ovb_err(lx, "a second ovb-%s file (the first is %s): give "
				"one plan and its cluster", fmt->name, *have);
			return OVB_EUSAGE;
		}
		*(cl ? &in.cluster_read : &in.plan_read) = true;
		st = cl ? ovb_cluster_read(lx, &in.cluster) :
			ovb_plan_read(lx, &in.plan);
		if (!st)
			*have = name;
	} else {
		st = ovb_err(lx, "this is an ovb-%s file; ovb-report reads "
			"ovb-profile, ovb-usage, ovb-curve, ovb-cluster, ovb-plan "
			"and gain tables ('nodes O placed')", fmt->name);
	}
	return st;
}

static int
read_one(const char *path)
{
	FILE *f;
	const char *name;
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	*OVB_PUSH(in.file, in.nfile, in.capfile) = name;
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, name);
	st = ovb_lex_next(&lx);
	if (st == 1 && gain_header(&lx))
		st = read_gain(&lx);
	else if (st == 0 || st == 1) {
		if (st == 1)
			ovb_lex_unread(&lx);
		const struct ovb_format *fmt = ovb_format_sniff(&lx, &st);
		if (fmt)
			st = read_format(&lx, fmt, name);
	}
	ovb_lex_free(&lx);
	ovb_close_in(f);
	return st;
}

/* ---- capsules: one row per (capsule, resource) ---- */

struct row {
	const char *capsule;
	enum ovb_res res;
	const struct ovb_dist *U;
	const struct ovb_qos *q;        /* NULL: a usage distribution only */
	const struct ovb_pt *pt;        /* rho(sigma), or NULL */
	size_t npt;
	const char *file, *curve_file;
};
static struct row *rows;
static size_t nrows, caprows;

static struct row *
row_of(const char *capsule, enum ovb_res res)
{
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].res == res && !strcmp(rows[i].capsule, capsule))
			return &rows[i];
	return NULL;
}

/* The profile row of profile capsule name and res, or NULL. */
static const struct row *
profile_row(const char *name, enum ovb_res res)
{
	const struct row *r = row_of(name, res);
	return r && r->q ? r : NULL;
}

static int
build_rows(void)
{
	for (size_t i = 0; i < in.nprof; i++)
		for (size_t j = 0; j < in.prof[i].p.n; j++) {
			const struct ovb_qos *q = &in.prof[i].p.q[j];
			const struct row *old = row_of(q->U.capsule, q->U.res);
			if (old)
				return ovb_err_at(in.prof[i].file, 0, "profile %s %s "
					"was already read from %s", q->U.capsule,
					ovb_res_name(q->U.res), old->file);
			*OVB_PUSH(rows, nrows, caprows) = (struct row){
				q->U.capsule, q->U.res, &q->U, q,
				q->ncurve ? q->curve : NULL, q->ncurve,
				in.prof[i].file, q->ncurve ? in.prof[i].file : NULL };
		}
	for (size_t i = 0; i < in.nusage; i++)
		for (size_t j = 0; j < in.usage[i].u.n; j++) {
			const struct ovb_dist *d = &in.usage[i].u.d[j];
			const struct row *old = row_of(d->capsule, d->res);
			if (old && old->q) {
				if (ovb_verbose)
					ovb_warn("%s: usage %s %s: the profile in %s "
						"is used instead", in.usage[i].file,
						d->capsule, ovb_res_name(d->res),
						old->file);
				continue;
			}
			if (old)
				return ovb_err_at(in.usage[i].file, 0, "usage %s %s "
					"was already read from %s", d->capsule,
					ovb_res_name(d->res), old->file);
			*OVB_PUSH(rows, nrows, caprows) = (struct row){
				d->capsule, d->res, d, NULL, NULL, 0,
				in.usage[i].file, NULL };
		}
	for (size_t i = 0; i < in.ncurve; i++)
		for (size_t j = 0; j < in.curve[i].c.n; j++) {
			const struct ovb_curve *cv = &in.curve[i].c.c[j];
			struct row *r = row_of(cv->capsule, cv->res);
			if (!r) {
				if (!ovb_quiet)
					ovb_warn("%s: curve %s %s: no profile or "
						"usage distribution of it; left out",
						in.curve[i].file, cv->capsule,
						ovb_res_name(cv->res));
				continue;
			}
			if (r->curve_file && r->curve_file != r->file)
				return ovb_err_at(in.curve[i].file, 0, "curve %s %s "
					"was already read from %s", cv->capsule,
					ovb_res_name(cv->res), r->curve_file);
			if (r->pt)
				continue;       /* the profile's own curve */
			r->pt = cv->pt;
			r->npt = cv->n;
			r->curve_file = in.curve[i].file;
		}
	return 0;
}

/* ---- the plan: checks against the cluster and the profiles ---- */

static const struct ovb_node *
node_named(const char *name)
{
	size_t i = ovb_names_get(&in.cluster.byname, name);
	return i == OVB_NONE ? NULL : &in.cluster.node[i];
}

static int
check_plan(void)
{
	if (!in.plan_file)
		return 0;
	if (!in.cluster_file) {
		ovb_warn("%s: a plan needs its cluster: give the ovb-cluster file "
			"too", in.plan_file);
		return OVB_EUSAGE;
	}
	const struct ovb_plan *p = &in.plan;
	for (size_t i = 0; i < p->n; i++) {
		const struct ovb_placed *pl = &p->p[i];
		if (!node_named(pl->node))
			return ovb_err_at(in.plan_file, pl->line, "place %s %s: node "
				"%s is not in the cluster (%s)", pl->app, pl->capsule,
				pl->node, in.cluster_file);
		if (!pl->profile)
			continue;
		bool any = false;
		for (int r = 0; r < OVB_NRES; r++)
			any |= profile_row(pl->profile, (enum ovb_res)r) != NULL;
		if (!any)
			return ovb_err_at(in.plan_file, pl->line, "place %s %s: "
				"profile '%s' is in no profile file%s", pl->app,
				pl->capsule, pl->profile, in.nprof ? "" :
				" (no ovb-profile file was given)");
		for (int r = 0; r < OVB_NCAP; r++)
			if (pl->has_qos[r] && !profile_row(pl->profile,
			    (enum ovb_res)r))
				return ovb_err_at(in.plan_file, pl->line,
					"place %s %s: profile '%s' has no %s block, "
					"but the plan has its qos %s", pl->app,
					pl->capsule, pl->profile,
					ovb_res_name((enum ovb_res)r),
					ovb_res_name((enum ovb_res)r));
	}
	for (size_t i = 0; i < p->nrisk; i++) {
		const struct ovb_noderisk *k = &p->risk[i];
		const struct ovb_node *n = node_named(k->node);
		if (!n)
			return ovb_err_at(in.plan_file, k->line, "risk %s %s: node "
				"%s is not in the cluster (%s)", k->node,
				ovb_res_name(k->res), k->node, in.cluster_file);
		double c = n->cap[k->res];
		if (fabs(k->capacity - c) > 1e-9 * c) {
			char a[32], b[32];
			return ovb_err_at(in.plan_file, k->line, "risk %s %s: "
				"capacity %s is not the cluster's %s %s (%s)",
				k->node, ovb_res_name(k->res),
				ovb_fmt_real(a, k->capacity), ovb_fmt_real(b, c),
				rate_unit(k->res), in.cluster_file);
		}
	}
	return 0;
}

/* ---- nodes: Y and the numbers of Eq. 1 and Eq. 3 ---- */

#define MAXDISP 240      /* boxes of a node plot */

struct group {           /* Y's grid points lo..hi, drawn as one box */
	size_t lo, hi;
	double p, tail;      /* Pr(lo <= index <= hi), Pr(Y > value of hi) */
	bool over;           /* above the capacity */
};

struct nres {
	const struct ovb_node *node;
	enum ovb_res res;
	double cap;
	size_t nmem, capmem, nprofiled;
	size_t *mem;                    /* indices into in.plan.p */
	const struct ovb_noderisk *risk;
	double load, omin, pr;          /* computed: Eq. 1, O_min, Pr(Y > C) */
	double g, plain;                /* grid (0: plain only), plain sum */
	size_t ngroup;
	struct group *group;
	size_t ny;                      /* Y's grid points */
};
static struct nres *nres;
static size_t nnres;

static double
plain_rate(const struct ovb_placed *pl, int r)
{
	return pl->sigma[r];
}

/* Eq. 1 load over tau_min and O_min from the plan's qos records. */
static void
eq1(struct nres *nr)
{
	const struct ovb_placed *P = in.plan.p;
	int r = nr->res;
	double tmin = INFINITY, load = 0, omin = NAN;
	for (size_t i = 0; i < nr->nmem; i++)
		tmin = fmin(tmin, P[nr->mem[i]].tau[r]);
	for (size_t i = 0; i < nr->nmem; i++) {
		const struct ovb_placed *pl = &P[nr->mem[i]];
		load += (pl->sigma[r] * tmin + pl->rho[r]) * (1 - pl->O[r]) / tmin;
		omin = i == 0 || pl->O[r] < omin ? pl->O[r] : omin;
	}
	nr->load = load;
	nr->omin = omin;
}

static void
to_pmf(const struct ovb_placed *pl, int r, double g, struct ovb_pmf *u)
{
	const struct row *row = pl->profile ? profile_row(pl->profile,
		(enum ovb_res)r) : NULL;
	if (row) {
		ovb_pmf_from_hist(u, &row->U->h, g);
		return;
	}
	size_t k = ovb_grid_up(plain_rate(pl, r), g);
	u->g = g;
	u->n = k + 1;
	u->p = ovb_xcalloc(k + 1, sizeof *u->p);
	u->p[k] = 1;
}

/* Y as the plan's contract defines it (formats/plan.md): the grid is the
 * largest bin width of the node's profiled capsules, at least C/POINTS;
 * each capsule's U (a plain reservation: a point mass at its sigma) moves
 * up to it on its own, and the U's are convolved.  Without a profiled
 * capsule Y is the exact sum of the plain reservations.  (ovb-place also
 * lumps the mass above C, which changes no Pr(Y > x) for x <= C; here Y is
 * kept whole to draw.) */
static void
aggregate(struct nres *nr, struct ovb_pmf *y)
{
	const struct ovb_placed *P = in.plan.p;
	int r = nr->res;
	nr->g = 0;
	nr->plain = 0;
	memset(y, 0, sizeof *y);
	for (size_t i = 0; i < nr->nmem; i++) {
		const struct ovb_placed *pl = &P[nr->mem[i]];
		const struct row *row = pl->profile ? profile_row(pl->profile,
			(enum ovb_res)r) : NULL;
		if (!row)
			nr->plain += plain_rate(pl, r);
		else if (row->U->h.width > nr->g)
			nr->g = row->U->h.width;
	}
	if (!nr->g)
		return;
	if (in.plan.grid && nr->cap / (double)in.plan.grid > nr->g)
		nr->g = nr->cap / (double)in.plan.grid;
	ovb_pmf_zero(y, nr->g);
	for (size_t i = 0; i < nr->nmem; i++) {
		struct ovb_pmf u;
		to_pmf(&P[nr->mem[i]], r, nr->g, &u);
		ovb_pmf_add(y, &u);
		ovb_pmf_free(&u);
	}
}

/* Y's grid points in at most MAXDISP boxes, a box boundary at C. */
static void
make_groups(struct nres *nr, const struct ovb_pmf *y)
{
	size_t n = y->n;
	double *tail = ovb_xcalloc(n, sizeof *tail);
	ovb_pmf_tails(y, tail);
	/* the last index not above C, or -1 */
	long long kc = -1;
	for (size_t k = 0; k < n; k++)
		if ((double)k * y->g <= nr->cap)
			kc = (long long)k;
		else
			break;
	size_t step = (n + MAXDISP - 1) / MAXDISP;
	if (step < 1)
		step = 1;
	nr->group = ovb_xcalloc(n / step + 3, sizeof *nr->group);
	nr->ngroup = 0;
	/* below: boxes end at kc, counted down */
	size_t nbelow = kc < 0 ? 0 : (size_t)kc + 1;
	size_t first = nbelow % step ? nbelow % step : step;
	for (size_t lo = 0; lo < nbelow;) {
		size_t hi = (lo == 0 ? first : lo + step) - 1;
		nr->group[nr->ngroup++] = (struct group){ lo, hi, 0, 0, false };
		lo = hi + 1;
	}
	for (size_t lo = nbelow; lo < n; lo += step) {
		size_t hi = lo + step - 1 < n ? lo + step - 1 : n - 1;
		nr->group[nr->ngroup++] = (struct group){ lo, hi, 0, 0, true };
	}
	for (size_t i = 0; i < nr->ngroup; i++) {
		struct group *gr = &nr->group[i];
		for (size_t k = gr->lo; k <= gr->hi; k++)
			gr->p += y->p[k];
		gr->tail = tail[gr->hi];
	}
	free(tail);
}

static void
build_nodes(void)
{
	if (!in.cluster_file)
		return;
	nres = ovb_xcalloc(in.cluster.n * OVB_NCAP, sizeof *nres);
	for (size_t i = 0; i < in.cluster.n; i++)
		for (int r = 0; r < OVB_NCAP; r++) {
			struct nres *nr = &nres[nnres++];
			nr->node = &in.cluster.node[i];
			nr->res = (enum ovb_res)r;
			nr->cap = nr->node->cap[r];
			for (size_t j = 0; j < in.plan.n; j++) {
				const struct ovb_placed *pl = &in.plan.p[j];
				if (!pl->has_qos[r] ||
				    strcmp(pl->node, nr->node->name))
					continue;
				*OVB_PUSH(nr->mem, nr->nmem, nr->capmem) = j;
				nr->nprofiled += pl->profile != NULL;
			}
			for (size_t j = 0; j < in.plan.nrisk; j++)
				if (in.plan.risk[j].res == nr->res &&
				    !strcmp(in.plan.risk[j].node, nr->node->name))
					nr->risk = &in.plan.risk[j];
			eq1(nr);
			struct ovb_pmf y;
			aggregate(nr, &y);
			if (nr->g) {
				nr->pr = ovb_pmf_tail(&y, nr->cap);
				nr->ny = y.n;
				make_groups(nr, &y);
				ovb_pmf_free(&y);
			} else
				nr->pr = nr->plain > nr->cap ? 1 : 0;
			const struct ovb_noderisk *k = nr->risk;
			if (k && fabs(k->risk - nr->pr) > 1e-9 + 1e-9 * nr->pr &&
			    !ovb_quiet) {
				char a[32], b[32];
				ovb_warn("%s:%lu: risk %s %s: Pr(Y > C) is %s in "
					"the plan but %s from the profiles given",
					in.plan_file, k->line, k->node,
					ovb_res_name(k->res), ovb_fmt_real(a, k->risk),
					ovb_fmt_real(b, nr->pr));
			}
		}
}

/* What the tables show: the plan's numbers where it has them. */
static double
shown_load(const struct nres *nr)
{
	return nr->risk ? nr->risk->load : nr->load;
}

static double
shown_omin(const struct nres *nr)
{
	return nr->risk ? nr->risk->omin : nr->omin;
}

static double
shown_pr(const struct nres *nr)
{
	return nr->risk ? nr->risk->risk : nr->pr;
}

static bool
eq1_holds(const struct nres *nr)
{
	return shown_load(nr) <= nr->cap * (1 + 1e-9);
}

static bool
eq3_holds(const struct nres *nr)
{
	return !nr->nmem || shown_pr(nr) <= shown_omin(nr);
}

/* ---- gain: runs averaged per (nodes, O) ---- */

struct gain { uint64_t nodes; double O, mean, ci, gain; size_t runs; };
static struct gain *gains;
static size_t ngains;

static int
cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	if (x->nodes != y->nodes)
		return x->nodes < y->nodes ? -1 : 1;
	if (x->O != y->O)
		return x->O < y->O ? -1 : 1;
	return x->placed < y->placed ? -1 : x->placed > y->placed;
}

/* Student's t at 97.5% for df degrees of freedom. */
static double
t975(size_t df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571,
		2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
		2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
		2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	return df <= 30 ? t[df] : 1.96 + 2.5 / (double)df;
}

static void
build_gains(void)
{
	if (in.nrun)
		ovb_qsort(in.run, in.nrun, sizeof *in.run, cmp_run);
	gains = ovb_xcalloc(in.nrun ? in.nrun : 1, sizeof *gains);
	for (size_t i = 0, j; i < in.nrun; i = j) {
		double sum = 0, ss = 0;
		for (j = i; j < in.nrun && in.run[j].nodes == in.run[i].nodes &&
		    in.run[j].O == in.run[i].O; j++)
			sum += (double)in.run[j].placed;
		size_t n = j - i;
		double mean = sum / (double)n;
		for (size_t k = i; k < j; k++)
			ss += ((double)in.run[k].placed - mean) *
				((double)in.run[k].placed - mean);
		struct gain *g = &gains[ngains++];
		*g = (struct gain){ in.run[i].nodes, in.run[i].O, mean, 0, NAN, n };
		if (n > 1)
			g->ci = t975(n - 1) * sqrt(ss / (double)(n - 1)) /
				sqrt((double)n);
	}
	for (size_t i = 0; i < ngains; i++)
		for (size_t k = 0; k < ngains; k++)
			if (gains[k].nodes == gains[i].nodes && gains[k].O == 0 &&
			    gains[k].mean > 0)
				gains[i].gain = gains[i].mean / gains[k].mean;
}

/* ---- tables ---- */

enum { W_TEXT = 1, W_TSV = 2, W_BOTH = 3 };
#define MAXCOL (24 + OVB_MAXPCT * 2)

struct col { const char *head, *tsv; unsigned where; bool num; };
struct table {
	enum tabid id;
	const char *title, *note;
	size_t ncol, nrow, caprow, ncell, capcell;
	struct col col[MAXCOL];
	char **cell;             /* 2 per column and row: text, TSV */
	bool *bad;               /* a row that fails a check */
};

static void
tcol(struct table *t, const char *head, const char *tsv, unsigned where,
	bool num)
{
	t->col[t->ncol++] = (struct col){ head, tsv, where, num };
}

static void
trow(struct table *t, bool bad)
{
	t->bad = ovb_xrealloc(t->bad, t->nrow + 1, sizeof *t->bad);
	t->bad[t->nrow++] = bad;
}

/* The next cell of the current row: text for terminals and pages, and the
 * exact TSV text (NULL: the same); both malloc'd, owned by the table. */
static void
tput(struct table *t, char *text, char *tsv)
{
	*OVB_PUSH(t->cell, t->ncell, t->capcell) = text;
	*OVB_PUSH(t->cell, t->ncell, t->capcell) = tsv ? tsv : ovb_xstrdup(text);
}

static const char *
tcell(const struct table *t, size_t row, size_t col, bool tsv)
{
	return t->cell[2 * (row * t->ncol + col) + tsv];
}

static void
table_free(struct table *t)
{
	for (size_t i = 0; i < t->ncell; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->bad);
}

static char *
dash(void)
{
	return ovb_xstrdup("-");
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The percentiles any row has, ascending. */
static size_t
all_pcts(double *p, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < nrows; i++)
		for (int j = 0; j < rows[i].U->npct; j++) {
			bool have = false;
			for (size_t k = 0; k < n; k++)
				have |= p[k] == rows[i].U->pct_p[j];
			if (!have && n < max)
				p[n++] = rows[i].U->pct_p[j];
		}
	ovb_qsort(p, n, sizeof *p, cmp_double);
	return n;
}

static void
table_capsules(struct table *t)
{
	static char heads[2 * OVB_MAXPCT][40];
	double P[2 * OVB_MAXPCT];
	size_t np = all_pcts(P, 2 * OVB_MAXPCT);
	t->title = "Capsules: usage distributions U and the chosen QoS";
	t->note = "percentiles: exact, from the usage files (nearest rank); "
		"sigma (rate) = the (1-O)*100th percentile, rho (burst) = "
		"rho(sigma) on the token-bucket curve";
	tcol(t, "capsule", "capsule", W_BOTH, false);
	tcol(t, "res", "res", W_BOTH, false);
	tcol(t, "intervals", "intervals", W_BOTH, true);
	tcol(t, "I", "interval_s", W_BOTH, true);
	tcol(t, "bin width", "width", W_BOTH, true);
	tcol(t, "mean", "mean", W_BOTH, true);
	for (size_t k = 0; k < np; k++) {
		char b[32];
		snprintf(heads[k], sizeof heads[k], "p%s", ovb_fmt_real(b, P[k]));
		tcol(t, heads[k], heads[k], W_BOTH, true);
	}
	tcol(t, "sigma (rate)", "sigma", W_BOTH, true);
	tcol(t, "rho (burst)", "rho", W_BOTH, true);
	tcol(t, "tau", "tau_s", W_BOTH, true);
	tcol(t, "O", "O", W_BOTH, true);
	tcol(t, NULL, "rate_unit", W_TSV, false);
	tcol(t, NULL, "burst_unit", W_TSV, false);
	tcol(t, NULL, "file", W_TSV, false);
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		const struct ovb_dist *U = r->U;
		const char *ru = rate_unit(r->res), *bu = burst_unit(r->res);
		trow(t, false);
		tput(t, ovb_xstrdup(r->capsule), NULL);
		tput(t, ovb_xstrdup(ovb_res_name(r->res)), NULL);
		tput(t, xasprintf("%llu", (unsigned long long)U->h.n), NULL);
		tput(t, hq(U->interval, "s"), xreal(U->interval));
		tput(t, hq(U->h.width, ru), xreal(U->h.width));
		if (U->has_mean)
			tput(t, hq(U->mean, ru), xreal(U->mean));
		else
			tput(t, dash(), NULL);
		for (size_t k = 0; k < np; k++) {
			int j = 0;
			while (j < U->npct && U->pct_p[j] != P[k])
				j++;
			if (j < U->npct)
				tput(t, hq(U->pct_v[j], ru), xreal(U->pct_v[j]));
			else
				tput(t, dash(), NULL);
		}
		if (r->q) {
			tput(t, hq(r->q->sigma, ru), xreal(r->q->sigma));
			tput(t, hq(r->q->rho, bu), xreal(r->q->rho));
			tput(t, hq(r->q->tau, "s"), xreal(r->q->tau));
			tput(t, hq(r->q->O, NULL), xreal(r->q->O));
		} else
			for (int k = 0; k < 4; k++)
				tput(t, dash(), NULL);
		tput(t, NULL, ovb_xstrdup(ru));
		tput(t, NULL, ovb_xstrdup(bu));
		tput(t, NULL, ovb_xstrdup(r->file));
	}
}

static void
table_placements(struct table *t)
{
	t->title = "Placements: capsule -> node, effective QoS, enforcement";
	t->note = "enforcement (section 4.1): a CPU reservation of x cpu-s "
		"every y s, or a network token bucket (rate, burst)";
	tcol(t, "app", "app", W_BOTH, false);
	tcol(t, "capsule", "capsule", W_BOTH, false);
	tcol(t, "node", "node", W_BOTH, false);
	tcol(t, "profile", "profile", W_BOTH, false);
	tcol(t, "res", "res", W_BOTH, false);
	tcol(t, "sigma (rate)", "sigma", W_BOTH, true);
	tcol(t, "rho (burst)", "rho", W_BOTH, true);
	tcol(t, "tau", "tau_s", W_BOTH, true);
	tcol(t, "O", "O", W_BOTH, true);
	tcol(t, "enforced by", NULL, W_TEXT, false);
	tcol(t, NULL, "rate_unit", W_TSV, false);
	tcol(t, NULL, "burst_unit", W_TSV, false);
	tcol(t, NULL, "resv_x_cpu_s", W_TSV, false);
	tcol(t, NULL, "resv_y_s", W_TSV, false);
	tcol(t, NULL, "weight", W_TSV, false);
	tcol(t, NULL, "bucket_rate_Bps", W_TSV, false);
	tcol(t, NULL, "bucket_burst_B", W_TSV, false);
	for (size_t i = 0; i < in.plan.n; i++) {
		const struct ovb_placed *pl = &in.plan.p[i];
		bool any = false;
		for (int r = 0; r < OVB_NCAP || !any; r++) {
			bool has = r < OVB_NCAP && pl->has_qos[r];
			if (r < OVB_NCAP && !has)
				continue;
			any = true;
			enum ovb_res res = (enum ovb_res)(r < OVB_NCAP ? r : 0);
			trow(t, false);
			tput(t, ovb_xstrdup(pl->app), NULL);
			tput(t, ovb_xstrdup(pl->capsule), NULL);
			tput(t, ovb_xstrdup(pl->node), NULL);
			tput(t, ovb_xstrdup(pl->profile ? pl->profile : "-"), NULL);
			if (!has) {         /* a placed capsule without qos */
				for (size_t k = 4; k < t->ncol; k++)
					tput(t, dash(), NULL);
				break;
			}
			const char *ru = rate_unit(res), *bu = burst_unit(res);
			tput(t, ovb_xstrdup(ovb_res_name(res)), NULL);
			tput(t, hq(pl->sigma[r], ru), xreal(pl->sigma[r]));
			tput(t, hq(pl->rho[r], bu), xreal(pl->rho[r]));
			tput(t, hq(pl->tau[r], "s"), xreal(pl->tau[r]));
			tput(t, hq(pl->O[r], NULL), xreal(pl->O[r]));
			bool cpu = res == OVB_CPU;
			if (cpu && pl->has_cpu_resv) {
				char *x = hq(pl->x, "cpu-s"), *y = hq(pl->y, "s");
				tput(t, xasprintf("%s every %s, weight %.4g", x, y,
					pl->weight), NULL);
				free(x);
				free(y);
			} else if (!cpu && pl->has_tbucket) {
				char *x = hq(pl->tb_sigma, "B/s"),
					*y = hq(pl->tb_rho, "B");
				tput(t, xasprintf("bucket %s, %s", x, y), NULL);
				free(x);
				free(y);
			} else
				tput(t, dash(), NULL);
			tput(t, NULL, ovb_xstrdup(ru));
			tput(t, NULL, ovb_xstrdup(bu));
			bool c = cpu && pl->has_cpu_resv, b = !cpu && pl->has_tbucket;
			tput(t, NULL, c ? xreal(pl->x) : dash());
			tput(t, NULL, c ? xreal(pl->y) : dash());
			tput(t, NULL, c ? xreal(pl->weight) : dash());
			tput(t, NULL, b ? xreal(pl->tb_sigma) : dash());
			tput(t, NULL, b ? xreal(pl->tb_rho) : dash());
		}
	}
}

static char *
members_text(const struct nres *nr)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	for (size_t i = 0; i < nr->nmem; i++) {
		const struct ovb_placed *pl = &in.plan.p[nr->mem[i]];
		fprintf(f, "%s%s/%s", i ? "," : "", pl->app, pl->capsule);
	}
	if (!nr->nmem)
		fputs("-", f);
	fclose(f);
	return s;
}

static void
table_nodes(struct table *t)
{
	t->title = "Nodes: reserved vs capacity (Eq. 1), Pr(Y > C) vs O_min "
		"(Eq. 3)";
	t->note = "reserved = the plan's Eq. 1 load sum (sigma tau_min + rho)"
		"(1 - O)/tau_min; Pr(Y > C): the plan's, and computed here from "
		"the capsules' U; headroom = capacity - reserved";
	tcol(t, "node", "node", W_BOTH, false);
	tcol(t, "res", "res", W_BOTH, false);
	tcol(t, "capsules", "capsules", W_BOTH, true);
	tcol(t, "reserved", "reserved", W_BOTH, true);
	tcol(t, "capacity", "capacity", W_BOTH, true);
	tcol(t, "used", "used_pct", W_BOTH, true);
	tcol(t, "headroom", "headroom", W_BOTH, true);
	tcol(t, "Pr(Y>C) plan", "pr_plan", W_BOTH, true);
	tcol(t, "Pr(Y>C) computed", "pr_computed", W_BOTH, true);
	tcol(t, "O_min", "omin", W_BOTH, true);
	tcol(t, "check", "check", W_BOTH, false);
	tcol(t, NULL, "unit", W_TSV, false);
	tcol(t, NULL, "reserved_computed", W_TSV, false);
	tcol(t, NULL, "omin_computed", W_TSV, false);
	tcol(t, NULL, "grid", W_TSV, false);
	tcol(t, "members", "members", W_BOTH, false);
	for (size_t i = 0; i < nnres; i++) {
		const struct nres *nr = &nres[i];
		const char *u = rate_unit(nr->res);
		double load = shown_load(nr);
		bool e1 = eq1_holds(nr), e3 = eq3_holds(nr);
		trow(t, !e1 || !e3);
		tput(t, ovb_xstrdup(nr->node->name), NULL);
		tput(t, ovb_xstrdup(ovb_res_name(nr->res)), NULL);
		tput(t, xasprintf("%zu", nr->nmem), NULL);
		tput(t, hq(load, u), xreal(load));
		tput(t, hq(nr->cap, u), xreal(nr->cap));
		tput(t, xasprintf("%.1f%%", 100 * load / nr->cap),
			xreal(100 * load / nr->cap));
		tput(t, hq(nr->cap - load, u), xreal(nr->cap - load));
		tput(t, nr->risk ? hq(nr->risk->risk, NULL) : dash(),
			nr->risk ? xreal(nr->risk->risk) : NULL);
		tput(t, hq(nr->pr, NULL), xreal(nr->pr));
		if (nr->nmem)
			tput(t, hq(shown_omin(nr), NULL), xreal(shown_omin(nr)));
		else
			tput(t, dash(), NULL);
		tput(t, ovb_xstrdup(e1 && e3 ? "ok" : !e1 && !e3 ?
			"Eq.1+Eq.3 violated" : !e1 ? "Eq.1 violated" :
			"Eq.3 violated"), NULL);
		tput(t, NULL, ovb_xstrdup(u));
		tput(t, NULL, xreal(nr->load));
		tput(t, NULL, nr->nmem ? xreal(nr->omin) : dash());
		tput(t, NULL, nr->g ? xreal(nr->g) : dash());
		tput(t, members_text(nr), NULL);
	}
}

static void
table_rejects(struct table *t)
{
	t->title = "Rejected applications";
	t->note = NULL;
	tcol(t, "app", "app", W_BOTH, false);
	tcol(t, "reason", "reason", W_BOTH, false);
	for (size_t i = 0; i < in.plan.nrej; i++) {
		trow(t, false);
		tput(t, ovb_xstrdup(in.plan.rej[i].app), NULL);
		tput(t, ovb_xstrdup(in.plan.rej[i].reason), NULL);
	}
}

static void
table_gain(struct table *t)
{
	t->title = "Capacity gained by overbooking (applications placed)";
	t->note = "mean over the runs, 95% confidence interval (Student's t); "
		"gain = mean / mean at O = 0 on as many nodes";
	tcol(t, "nodes", "nodes", W_BOTH, true);
	tcol(t, "O", "O", W_BOTH, true);
	tcol(t, "runs", "runs", W_BOTH, true);
	tcol(t, "placed", "placed_mean", W_BOTH, true);
	tcol(t, "+-95%", "ci95", W_BOTH, true);
	tcol(t, "gain", "gain", W_BOTH, true);
	for (size_t i = 0; i < ngains; i++) {
		const struct gain *g = &gains[i];
		trow(t, false);
		tput(t, xasprintf("%llu", (unsigned long long)g->nodes), NULL);
		tput(t, hq(g->O, NULL), xreal(g->O));
		tput(t, xasprintf("%zu", g->runs), NULL);
		tput(t, xasprintf("%.1f", g->mean), xreal(g->mean));
		tput(t, g->runs > 1 ? xasprintf("%.1f", g->ci) : dash(),
			g->runs > 1 ? xreal(g->ci) : NULL);
		tput(t, isnan(g->gain) ? dash() : xasprintf("%.2fx", g->gain),
			isnan(g->gain) ? NULL : xreal(g->gain));
	}
}

/* Which tables the inputs allow. */
static bool
table_possible(enum tabid id)
{
	switch (id) {
	case T_NODES: return in.cluster_file != NULL;
	case T_PLACEMENTS: case T_REJECTS: return in.plan_file != NULL;
	case T_CAPSULES: return nrows > 0;
	case T_GAIN: return ngains > 0;
	case NTABLE: break;
	}
	return false;
}

static const char *const table_needs[NTABLE] = { "an ovb-cluster file",
	"an ovb-plan file", "an ovb-plan file",
	"an ovb-profile or ovb-usage file", "a gain table" };

static bool
table_wanted(enum tabid id)
{
	return table_possible(id) && (!opt_tables || opt_tables & 1u << id);
}

static int
check_tables(void)
{
	bool any = false;
	for (int i = 0; i < NTABLE; i++) {
		if (opt_tables & 1u << i && !table_possible((enum tabid)i)) {
			ovb_warn("--table %s: needs %s among the inputs",
				table_names[i], table_needs[i]);
			return OVB_EUSAGE;
		}
		any |= table_wanted((enum tabid)i);
	}
	if (!any)
		return ovb_err_at(NULL, 0, "nothing to report: give profiles, "
			"usage distributions, a cluster (and plan) or a gain table");
	return 0;
}

static void
make_table(struct table *t, enum tabid id)
{
	memset(t, 0, sizeof *t);
	t->id = id;
	switch (id) {
	case T_NODES: table_nodes(t); break;
	case T_PLACEMENTS: table_placements(t); break;
	case T_REJECTS: table_rejects(t); break;
	case T_CAPSULES: table_capsules(t); break;
	case T_GAIN: table_gain(t); break;
	case NTABLE: break;
	}
}

static void
text_table(FILE *f, const struct table *t)
{
	size_t w[MAXCOL] = { 0 };
	for (size_t c = 0; c < t->ncol; c++) {
		if (!(t->col[c].where & W_TEXT))
			continue;
		w[c] = strlen(t->col[c].head);
		for (size_t r = 0; r < t->nrow; r++) {
			size_t n = strlen(tcell(t, r, c, false));
			w[c] = n > w[c] ? n : w[c];
		}
	}
	size_t last = 0;
	for (size_t c = 0; c < t->ncol; c++)
		if (t->col[c].where & W_TEXT)
			last = c;
	fprintf(f, "%s\n", t->title);
	for (size_t r = 0; r <= t->nrow; r++) {
		bool sep = false;
		for (size_t c = 0; c < t->ncol; c++) {
			if (!(t->col[c].where & W_TEXT))
				continue;
			const char *s = r ? tcell(t, r - 1, c, false) :
				t->col[c].head;
			int pad = (int)w[c];
			if (sep)
				fputs("  ", f);
			sep = true;
			if (t->col[c].num)
				fprintf(f, "%*s", pad, s);
			else if (c == last)
				fputs(s, f);
			else
				fprintf(f, "%-*s", pad, s);
		}
		fputc('\n', f);
	}
	if (!t->nrow)
		fputs("(none)\n", f);
	if (t->note && t->nrow)
		fprintf(f, "(%s)\n", t->note);
}

static void
tsv_table(FILE *f, const struct table *t)
{
	for (size_t r = 0; r <= t->nrow; r++) {
		bool sep = false;
		for (size_t c = 0; c < t->ncol; c++) {
			if (!(t->col[c].where & W_TSV))
				continue;
			if (sep)
				fputc('\t', f);
			sep = true;
			fputs(r ? tcell(t, r - 1, c, true) : t->col[c].tsv, f);
		}
		fputc('\n', f);
	}
}

static int
write_tables(FILE *f)
{
	int n = 0;
	for (int i = 0; i < NTABLE; i++)
		n += table_wanted((enum tabid)i);
	bool first = true;
	for (int i = 0; i < NTABLE; i++) {
		if (!table_wanted((enum tabid)i))
			continue;
		struct table t;
		make_table(&t, (enum tabid)i);
		if (!first)
			fputc('\n', f);
		first = false;
		if (opt_format == F_TSV) {
			if (n > 1)
				fprintf(f, "# %s\n", table_names[i]);
			tsv_table(f, &t);
		} else
			text_table(f, &t);
		table_free(&t);
	}
	return 0;
}

/* ---- gnuplot ---- */

/* A gnuplot string expression: single-quoted (no escapes, no backquote
 * substitution inside; '' is a quote), a newline joined in as "\n";
 * other control characters and backquotes (never in names) become '?'. */
static void
gq(FILE *g, const char *s)
{
	putc('\'', g);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", g);
		else if (*s == '\n')
			fputs("'.\"\\n\".'", g);
		else if (*s == '`' || (unsigned char)*s < 0x20)
			putc('?', g);
		else
			putc(*s, g);
	putc('\'', g);
}

/* gq of a formatted string. */
static void gqf(FILE *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void
gqf(FILE *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s;
	if (vasprintf(&s, fmt, ap) < 0) {
		ovb_warn("out of memory");
		exit(OVB_ESOFT);
	}
	va_end(ap);
	gq(g, s);
	free(s);
}

static void
gnum(FILE *g, double v)
{
	fprintf(g, "%.12g", v);
}

#define C_U "#4682b4"        /* distributions */
#define C_SIGMA "#d95f02"    /* the chosen sigma, (sigma, rho) */
#define C_MEAN "#2ca02c"
#define C_PCT "#555555"
#define C_CAP "#c62828"      /* capacity, overflow */
#define C_LOAD "#1f4e9a"     /* Eq. 1 reserved */
#define C_GRAY "#d9d9d9"

static void
gp_head(FILE *g, int w, int h)
{
	fputs("set encoding utf8\n", g);
	if (opt_png)
		fprintf(g, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %d,%d noenhanced font "
			"'sans-serif,10' background rgb 'white'\n} else {\n"
			"  set terminal png size %d,%d noenhanced background "
			"rgb 'white'\n}\n", w, h, w, h);
	else
		fprintf(g, "set terminal svg size %d,%d noenhanced font "
			"'sans-serif,12' background rgb 'white'\n", w, h);
	fputs("set border 3 lw 1\nset tics nomirror out\n"
	      "set grid back lc rgb '#e4e4e4' lw 1 dt 1\n"
	      "set key opaque box lc rgb '#bbbbbb' samplen 2 spacing 1.15 "
	      "width 1\nset style fill solid 0.8 noborder\n", g);
}

/* Runs gnuplot on script with its output to outfd: 0, or 69 (gnuplot
 * missing or failed, reported) or 70. */
static int
gp_run(const char *script, size_t len, int outfd)
{
	const char *bin = getenv("OVB_GNUPLOT");
	if (!bin || !*bin)
		bin = "gnuplot";
	int pin[2], perr[2];
	FILE *errf = tmpfile();
	if (!errf || pipe2(pin, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
		ovb_warn("cannot run gnuplot: %s", strerror(errno));
		return OVB_ESOFT;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		ovb_warn("cannot run gnuplot: %s", strerror(errno));
		return OVB_ESOFT;
	}
	if (pid == 0) {
		if (dup2(pin[0], 0) >= 0 && dup2(outfd, 1) >= 0 &&
		    dup2(fileno(errf), 2) >= 0)
			execlp(bin, bin, "-d", (char *)NULL);
		int e = errno;
		ssize_t w = write(perr[1], &e, sizeof e);
		(void)w;
		_exit(127);
	}
	close(pin[0]);
	close(perr[1]);
	int e = 0;
	ssize_t n;
	while ((n = read(perr[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(perr[0]);
	struct sigaction ign, old;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	for (size_t done = 0; n != (ssize_t)sizeof e && done < len;) {
		ssize_t w = write(pin[1], script + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;          /* gnuplot stopped reading: see its status */
		done += (size_t)w;
	}
	close(pin[1]);
	sigaction(SIGPIPE, &old, NULL);
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof e) {
		fclose(errf);
		ovb_warn("cannot run %s: %s (plots need gnuplot: install the "
			"Debian package gnuplot-nox, or name its binary in "
			"OVB_GNUPLOT)", bin, strerror(e));
		return OVB_EUNAVAIL;
	}
	char msg[2048];
	size_t m = 0;
	rewind(errf);
	m = fread(msg, 1, sizeof msg - 1, errf);
	msg[m] = '\0';
	fclose(errf);
	while (m && (msg[m - 1] == '\n' || msg[m - 1] == ' '))
		msg[--m] = '\0';
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		if (WIFEXITED(ws))
			ovb_warn("%s failed (exit status %d)%s%s", bin,
				WEXITSTATUS(ws), m ? ": " : "", msg);
		else
			ovb_warn("%s failed (signal %d)%s%s", bin, WTERMSIG(ws),
				m ? ": " : "", msg);
		return OVB_EUNAVAIL;
	}
	if (m && ovb_verbose)
		ovb_warn("gnuplot said: %s", msg);
	return 0;
}

/* Merges the percentiles with equal values: "p95,p99 = 2.614 MB/s". */
struct mark { double v; char what[96]; };

static size_t
pct_marks(const struct ovb_dist *U, struct mark *m)
{
	size_t n = 0;
	for (int i = 0; i < U->npct; i++) {
		char b[32];
		ovb_fmt_real(b, U->pct_p[i]);
		size_t j = 0;
		while (j < n && m[j].v != U->pct_v[i])
			j++;
		if (j == n) {
			m[n].v = U->pct_v[i];
			snprintf(m[n++].what, sizeof m->what, "p%s", b);
		} else {
			size_t l = strlen(m[j].what);
			snprintf(m[j].what + l, sizeof m->what - l, ",p%s", b);
		}
	}
	return n;
}

/* A vertical line across the graph at x, drawn with style. */
static void
vline(FILE *g, double x, const char *style)
{
	fputs("set arrow from ", g);
	gnum(g, x);
	fputs(", graph 0 to ", g);
	gnum(g, x);
	fprintf(g, ", graph 1 nohead %s front\n", style);
}

static double
dist_max(const struct ovb_dist *U)
{
	return ovb_hist_hi(&U->h, U->h.nbins - 1);
}

static void
title_of_row(FILE *g, const struct row *r, const char *what)
{
	char b[32];
	fputs("set title ", g);
	gqf(g, "%s · %s: %s (%llu intervals of %s s)", r->capsule,
		ovb_res_name(r->res), what, (unsigned long long)r->U->h.n,
		ovb_fmt_real(b, r->U->interval));
	fputs("\n", g);
}

/* Fig. 4(a): U as a histogram, bar k over ((k-1)w, kw], with its
 * percentiles, mean and sigma. */
static void
plot_pdf(FILE *g, const struct row *r)
{
	const struct ovb_dist *U = r->U;
	const struct ovb_hist *h = &U->h;
	double top = dist_max(U);
	if (r->q)
		top = fmax(top, r->q->sigma);
	struct scale sc = scale_for(rate_unit(r->res), top);
	double w = h->width / sc.div, pmax = 0;
	for (size_t k = 0; k < h->nbins; k++)
		pmax = fmax(pmax, (double)h->count[k] / (double)h->n);
	gp_head(g, 640, 450);
	title_of_row(g, r, "usage distribution U");
	fputs("set xlabel ", g);
	gqf(g, "%s per measurement interval [%s]", res_word(r->res), sc.unit);
	fputs("\nset ylabel 'probability (share of intervals)'\n", g);
	fputs("set xrange [", g);
	gnum(g, -w / 2);
	fputs(":", g);
	gnum(g, top / sc.div * 1.06 + w);
	fputs("]\nset yrange [0:", g);
	gnum(g, pmax * 1.3);
	fputs("]\nset key below vertical maxrows 3 width 1 noopaque nobox\n"
	      "$U << EOD\n", g);
	for (size_t k = 1; k < h->nbins; k++)
		if (h->count[k]) {
			gnum(g, ((double)k - 0.5) * w);
			putc(' ', g);
			gnum(g, (double)h->count[k] / (double)h->n);
			putc(' ', g);
			gnum(g, w);
			putc('\n', g);
		}
	fputs("EOD\n$Z << EOD\n0 ", g);
	gnum(g, (double)h->count[0] / (double)h->n);
	fputs("\nEOD\n", g);
	struct mark m[OVB_MAXPCT];
	size_t nm = pct_marks(U, m);
	for (size_t i = 0; i < nm; i++) {
		double x = m[i].v / sc.div;
		fputs("set arrow from ", g);
		gnum(g, x);
		fputs(", graph 0 to ", g);
		gnum(g, x);
		fputs(", graph 0.8 nohead dt 2 lw 1 lc rgb '" C_PCT "' front\n"
		      "set label ", g);
		gq(g, m[i].what);
		fputs(" at ", g);
		gnum(g, x);
		fputs(", graph 0.81 rotate by 90 left font ',9' tc rgb '" C_PCT
		      "' front\n", g);
	}
	if (U->has_mean)
		vline(g, U->mean / sc.div, "dt 4 lw 2 lc rgb '" C_MEAN "'");
	if (r->q)
		vline(g, r->q->sigma / sc.div, "lw 2.5 lc rgb '" C_SIGMA "'");
	fputs("plot $U using 1:2:3 with boxes lc rgb '" C_U "' title ", g);
	char b[32];
	gqf(g, "U: bins of %s %s", ovb_fmt_real(b, h->width / sc.div),
		sc.unit);
	if (h->count[0])
		fputs(", $Z using 1:2 with impulses lw 6 lc rgb '" C_LOAD "' "
		      "title 'usage exactly 0'", g);
	if (nm)
		fputs(", NaN with lines dt 2 lc rgb '" C_PCT "' title "
		      "'percentiles (exact)'", g);
	if (U->has_mean) {
		char *v = hq(U->mean, rate_unit(r->res));
		fputs(", NaN with lines dt 4 lw 2 lc rgb '" C_MEAN "' title ", g);
		gqf(g, "mean = %s", v);
		free(v);
	}
	if (r->q) {
		char *v = hq(r->q->sigma, rate_unit(r->res));
		fputs(", NaN with lines lw 2.5 lc rgb '" C_SIGMA "' title ", g);
		gqf(g, "σ (rate) = %s, O = %.4g", v, r->q->O);
		free(v);
	}
	fputs("\n", g);
}

/* Fig. 4(b): the CDF at the bins' upper edges, with the percentiles. */
static void
plot_cdf(FILE *g, const struct row *r)
{
	const struct ovb_dist *U = r->U;
	const struct ovb_hist *h = &U->h;
	double top = dist_max(U);
	if (r->q)
		top = fmax(top, r->q->sigma);
	struct scale sc = scale_for(rate_unit(r->res), top);
	double w = h->width / sc.div, xmax = top / sc.div * 1.06 + w;
	gp_head(g, 640, 420);
	title_of_row(g, r, "cumulative distribution of U");
	fputs("set xlabel ", g);
	gqf(g, "%s per measurement interval [%s]", res_word(r->res), sc.unit);
	fputs("\nset ylabel 'Pr(usage ≤ x)'\nset xrange [", g);
	gnum(g, -w);
	fputs(":", g);
	gnum(g, xmax);
	fputs("]\nset yrange [0:1.05]\nset ytics 0.1\n$F << EOD\n", g);
	uint64_t cum = 0;
	for (size_t k = 0; k < h->nbins; k++) {
		cum += h->count[k];
		gnum(g, (double)k * w);
		putc(' ', g);
		gnum(g, (double)cum / (double)h->n);
		putc('\n', g);
	}
	gnum(g, xmax);
	fputs(" 1\nEOD\n$P << EOD\n", g);
	for (int i = 0; i < U->npct; i++) {
		gnum(g, U->pct_v[i] / sc.div);
		putc(' ', g);
		gnum(g, U->pct_p[i] / 100);
		putc('\n', g);
	}
	fputs("EOD\n", g);
	/* short tags beside the points (alternating sides, away from the
	 * edges), and the values listed in a box */
	double P[OVB_MAXPCT];
	int np = U->npct;
	memcpy(P, U->pct_p, (size_t)np * sizeof *P);
	ovb_qsort(P, (size_t)np, sizeof *P, cmp_double);
	char *box = NULL;
	size_t boxlen = 0;
	FILE *bf = open_memstream(&box, &boxlen);
	for (int i = 0; i < np; i++) {
		int j = 0;
		while (U->pct_p[j] != P[i])
			j++;
		char b[32];
		char *v = hq(U->pct_v[j], rate_unit(r->res));
		ovb_fmt_real(b, P[i]);
		fprintf(bf, "%sp%s = %s", i ? "\n" : "", b, v);
		free(v);
		double x = U->pct_v[j] / sc.div;
		bool left = x > 0.8 * xmax || (i % 2 && x > 0.1 * xmax);
		fputs("set label ", g);
		gqf(g, "p%s", b);
		fputs(" at ", g);
		gnum(g, x);
		fputs(", ", g);
		gnum(g, P[i] / 100);
		fputs(left ? " right offset -0.7," : " left offset 0.7,", g);
		fputs(i % 2 ? "0.55" : "-0.55", g);
		fputs(" font ',9' tc rgb '" C_PCT "' front\n", g);
	}
	fclose(bf);
	if (np) {
		fputs("set label ", g);
		gq(g, box);
		fputs(" at graph 0.97, graph 0.52 right front font ',10' "
		      "boxed\nset style textbox opaque border lc rgb '#bbbbbb'\n",
		      g);
	}
	free(box);
	fputs("set key at graph 0.97, graph 0.02 right bottom\n", g);
	fputs("plot $F using 1:2 with steps lw 2 lc rgb '" C_U "' title "
	      "'Pr(usage ≤ x), bins at their upper edge'", g);
	if (np)
		fputs(", $P using 1:2 with points pt 7 ps 1 lc rgb '" C_SIGMA
		      "' title 'percentiles (exact)'", g);
	fputs("\n", g);
}

/* Fig. 4(c): the token-bucket curve rho(sigma) and the chosen point; on
 * log scales when the rates or bursts span more than 1.5 decades (network
 * curves run from the mean rate to the rate of the largest single
 * transfer). */
static void
plot_curve(FILE *g, const struct row *r)
{
	const struct ovb_pt *pt = r->pt;
	size_t n = r->npt;
	double smin = pt[0].sigma, smax = pt[n - 1].sigma, rmax = pt[0].rho;
	double rpos = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (pt[i].rho > 0)
			rpos = fmin(rpos, pt[i].rho);
	if (r->q) {
		smax = fmax(smax, r->q->sigma);
		rmax = fmax(rmax, r->q->rho);
		if (r->q->rho > 0)
			rpos = fmin(rpos, r->q->rho);
	}
	if (!(smax > 0))
		smax = 1;
	if (!(rmax > 0))
		rmax = 1;
	bool logx = smin > 0 && smax / smin > 30;
	bool logy = isfinite(rpos) && rmax / rpos > 30;
	struct scale sx = scale_for(rate_unit(r->res), smax),
		sy = scale_for(burst_unit(r->res), rmax);
	double xlo = logx ? smin / sx.div / 1.5 : 0;
	double xmax = smax / sx.div * (logx ? 1.5 : 1.08);
	double ylo = logy ? rpos / sy.div / 3 : 0;
	gp_head(g, 640, 450);
	fputs("set title ", g);
	gqf(g, "%s · %s: token-bucket curve ρ(σ)%s", r->capsule,
		ovb_res_name(r->res), logx || logy ? " (log scale)" : "");
	fputs("\nset xlabel ", g);
	gqf(g, "σ: token-bucket rate [%s]", sx.unit);
	fputs("\nset ylabel ", g);
	gqf(g, "ρ: least burst at rate σ [%s]", sy.unit);
	fputs(logx ? "\nset logscale x\nset format x '%g'\n" : "\n", g);
	fputs(logy ? "set logscale y\nset format y '%g'\n" : "", g);
	fputs("set xrange [", g);
	gnum(g, xlo);
	fputs(":", g);
	gnum(g, xmax);
	fputs("]\nset yrange [", g);
	gnum(g, ylo);
	fputs(":", g);
	gnum(g, rmax / sy.div * (logy ? 3 : 1.15));
	fputs("]\nset key below vertical maxrows 3 width 1 noopaque nobox\n",
	      g);
	if (!logx) {  /* no finite burst below the mean rate */
		fputs("set object 1 rect from graph 0, graph 0 to first ", g);
		gnum(g, smin / sx.div);
		fputs(", graph 1 fc rgb '#eeeeee' fs solid 1.0 noborder behind\n"
		      "set label 'below the mean rate' at graph 0.01, graph 0.04 "
		      "left font ',9' tc rgb '#777777'\n", g);
	}
	fputs("$C << EOD\n", g);
	double bottom = logy ? ylo : 0;
	for (size_t i = 0; i < n; i++) {
		gnum(g, pt[i].sigma / sx.div);
		putc(' ', g);
		gnum(g, fmax(pt[i].rho / sy.div, bottom));
		putc('\n', g);
	}
	gnum(g, xmax);
	putc(' ', g);
	gnum(g, fmax(pt[n - 1].rho / sy.div, bottom));
	/* the line: rho(sigma) is linear between breakpoints, which on a
	 * log scale is a curve, so draw it point by point */
	fputs("\nEOD\n$L << EOD\n", g);
	for (size_t i = 0; i + 1 < n; i++)
		for (int k = 0; k < (logx || logy ? 32 : 1); k++) {
			double f = k / (logx || logy ? 32.0 : 1.0);
			double x = pt[i].sigma + f * (pt[i + 1].sigma - pt[i].sigma);
			double y = pt[i].rho + f * (pt[i + 1].rho - pt[i].rho);
			gnum(g, x / sx.div);
			putc(' ', g);
			gnum(g, fmax(y / sy.div, bottom));
			putc('\n', g);
		}
	gnum(g, pt[n - 1].sigma / sx.div);
	putc(' ', g);
	gnum(g, fmax(pt[n - 1].rho / sy.div, bottom));
	putc('\n', g);
	gnum(g, xmax);
	putc(' ', g);
	gnum(g, fmax(pt[n - 1].rho / sy.div, bottom));
	fputs("\nEOD\n", g);
	if (r->q) {
		double x = r->q->sigma / sx.div, y = fmax(r->q->rho / sy.div,
			bottom);
		fputs("set arrow from first ", g);
		gnum(g, x);
		fputs(", graph 0 to first ", g);
		gnum(g, x);
		fputs(", first ", g);
		gnum(g, y);
		fputs(" nohead dt 2 lc rgb '" C_SIGMA "'\nset arrow from graph 0, "
		      "first ", g);
		gnum(g, y);
		fputs(" to first ", g);
		gnum(g, x);
		fputs(", first ", g);
		gnum(g, y);
		fputs(" nohead dt 2 lc rgb '" C_SIGMA "'\n", g);
	}
	char *mean = hq(pt[0].sigma, rate_unit(r->res));
	fputs("plot $L using 1:2 with lines lw 2 lc rgb '" C_U "' title "
	      "'ρ(σ): usage over any t is at most σ t + ρ', $C every ::0::", g);
	fprintf(g, "%zu", n - 1);
	fputs(" using 1:2 with points pt 7 ps 0.6 lc rgb '" C_U "' title ", g);
	gqf(g, "breakpoints, from the mean rate %s", mean);
	free(mean);
	if (r->q) {
		char *sg = hq(r->q->sigma, rate_unit(r->res)),
			*rh = hq(r->q->rho, burst_unit(r->res));
		fputs(", '+' using (", g);
		gnum(g, r->q->sigma / sx.div);
		fputs("):(", g);
		gnum(g, fmax(r->q->rho / sy.div, bottom));
		fputs(") every ::0::0 with points pt 9 ps 2.2 lc rgb '" C_SIGMA
		      "' title ", g);
		gqf(g, "chosen: σ = %s, ρ = %s (O = %.4g)", sg, rh, r->q->O);
		free(sg);
		free(rh);
	}
	fputs("\n", g);
}

/* A node's Y: its distribution with the capacity and the overflow tail
 * (top), and Pr(Y > x) on a log scale against O_min (bottom). */
static void
plot_node(FILE *g, const struct nres *nr)
{
	const char *u = rate_unit(nr->res);
	double load = shown_load(nr), omin = shown_omin(nr), pr = shown_pr(nr);
	double g0 = nr->g ? nr->g : nr->cap / 100;
	double ymax = nr->g ? (double)(nr->ny - 1) * nr->g : nr->plain;
	double xtop = fmax(fmax(ymax, nr->cap), load) * 1.06;
	struct scale sc = scale_for(u, xtop);
	double d = sc.div, x0 = 0;
	/* room left of 0 for the box of Y = 0 (((0-1)g, 0]) when it has mass */
	if ((nr->g && nr->ngroup && nr->group[0].lo == 0 && nr->group[0].p > 0)
	    || (!nr->g && nr->plain == 0))
		x0 = -g0 / d;
	double floor_ = 1e-6;
	if (nr->nmem && omin > 0)
		floor_ = fmin(floor_, omin / 20);
	if (pr > 0)
		floor_ = fmin(floor_, pr / 20);
	if (floor_ < 1e-15)
		floor_ = 1e-15;
	gp_head(g, 640, 640);
	fputs("set multiplot title ", g);
	gqf(g, "node %s · %s: aggregate usage Y of %zu capsule%s",
		nr->node->name, ovb_res_name(nr->res), nr->nmem,
		nr->nmem == 1 ? "" : "s");
	fputs("\nset lmargin at screen 0.12\nset rmargin at screen 0.96\n"
	      "set xrange [", g);
	gnum(g, x0);
	fputs(":", g);
	gnum(g, xtop / d);
	fputs("]\n", g);
	/* the overflow region and the capacity, in both panels */
	fputs("set object 1 rect from first ", g);
	gnum(g, nr->cap / d);
	fputs(", graph 0 to graph 1, graph 1 fc rgb '" C_CAP "' fs "
	      "transparent solid 0.07 noborder behind\n", g);
	fputs("set arrow 1 from ", g);
	gnum(g, nr->cap / d);
	fputs(", graph 0 to ", g);
	gnum(g, nr->cap / d);
	fputs(", graph 1 nohead lw 2.5 lc rgb '" C_CAP "' front\n", g);
	fputs("set arrow 2 from ", g);
	gnum(g, load / d);
	fputs(", graph 0 to ", g);
	gnum(g, load / d);
	fputs(", graph 1 nohead dt 2 lw 1.5 lc rgb '" C_LOAD "' front\n", g);
	/* top: Pr(Y in box) */
	fputs("$Y << EOD\n", g);
	double pmax = 0;
	for (int over = 0; over < 2; over++) {
		for (size_t i = 0; i < nr->ngroup; i++) {
			const struct group *gr = &nr->group[i];
			if (gr->over != over)
				continue;
			double lo = ((double)gr->lo - 1) * nr->g,
				hi = (double)gr->hi * nr->g;
			gnum(g, (lo + hi) / 2 / d);
			putc(' ', g);
			gnum(g, gr->p);
			putc(' ', g);
			gnum(g, (hi - lo) / d);
			putc('\n', g);
			pmax = fmax(pmax, gr->p);
		}
		if (!nr->g && !over) {  /* plain reservations only: one point */
			gnum(g, (nr->plain - g0 / 2) / d);
			fputs(" 1 ", g);
			gnum(g, g0 / d);
			putc('\n', g);
			pmax = 1;
		}
		fputs(over ? "EOD\n" : "\n\n", g);
	}
	if (!(pmax > 0))
		pmax = 1;
	bool ok = eq1_holds(nr) && eq3_holds(nr);
	char *cap = hq(nr->cap, u), *ld = hq(load, u), *prs = hq(pr, NULL),
		*om = nr->nmem ? hq(omin, NULL) : ovb_xstrdup("-");
	fputs("set label 10 ", g);
	gqf(g, "Eq. 1 %s (reserved %s capacity)   Eq. 3 %s (Pr(Y > C) = %s "
		"%s O_min = %s)", eq1_holds(nr) ? "holds" : "VIOLATED",
		eq1_holds(nr) ? "≤" : ">", eq3_holds(nr) ? "holds" : "VIOLATED",
		prs, eq3_holds(nr) ? "≤" : ">", om);
	fprintf(g, " at screen 0.54, screen 0.912 center font ',10' tc rgb "
		"'%s'\n", ok ? "#1b7a1b" : C_CAP);
	fputs("set ylabel 'Pr(Y in bin)' offset 1.2,0\nset format x ''\n"
	      "set xlabel ''\n"
	      "set yrange [0:", g);
	gnum(g, pmax * 1.15);
	fputs("]\nset tmargin at screen 0.885\nset bmargin at screen 0.615\n"
	      "unset key\n", g);
	fputs("plot $Y index 0 using 1:2:3 with boxes lc rgb '" C_U "', "
	      "$Y index 1 using 1:2:3 with boxes lc rgb '" C_CAP "'\n"
	      "unset label 10\n", g);
	/* bottom: Pr(Y > x), and the key of both panels */
	fputs("set format x '%g'\nset xlabel ", g);
	gqf(g, "%s of the node, summed over its capsules [%s]",
		res_word(nr->res), sc.unit);
	fputs("\nset ylabel 'Pr(Y > x)' offset 1.2,0\nset logscale y\n"
	      "set format y '%.0e'\n"
	      "set yrange [", g);
	gnum(g, floor_);
	fputs(":2]\nset tmargin at screen 0.585\nset bmargin at screen 0.27\n"
	      "set key at screen 0.54, screen 0.16 center top vertical "
	      "maxrows 4 nobox noopaque width 1 samplen 2.5\n$T << EOD\n", g);
	gnum(g, x0);
	fputs(" 1\n", g);
	if (nr->g)
		for (size_t i = 0; i < nr->ngroup; i++) {
			const struct group *gr = &nr->group[i];
			gnum(g, (double)gr->hi * nr->g / d);
			putc(' ', g);
			gnum(g, fmax(gr->tail, floor_ / 10));
			putc('\n', g);
		}
	else {
		gnum(g, nr->plain / d);
		putc(' ', g);
		gnum(g, floor_ / 10);
		putc('\n', g);
	}
	gnum(g, xtop / d);
	putc(' ', g);
	gnum(g, floor_ / 10);
	fputs("\nEOD\n", g);
	if (nr->nmem && omin > 0) {
		fputs("set arrow 3 from graph 0, first ", g);
		gnum(g, omin);
		fputs(" to graph 1, first ", g);
		gnum(g, omin);
		fputs(" nohead dt 3 lw 2 lc rgb '" C_MEAN "' front\n", g);
	}
	fputs("plot NaN with boxes lc rgb '" C_U "' title 'Pr(Y in bin), Y ≤ C', "
	      "NaN with boxes lc rgb '" C_CAP "' title 'Y > C (overflow)', "
	      "NaN with lines lw 2.5 lc rgb '" C_CAP "' title ", g);
	gqf(g, "capacity C = %s", cap);
	fputs(", NaN with lines dt 2 lw 1.5 lc rgb '" C_LOAD "' title ", g);
	gqf(g, "reserved (Eq. 1) = %s", ld);
	fputs(", $T using 1:2 with steps lw 2 lc rgb '" C_U "' title "
	      "'Pr(Y > x)'", g);
	if (nr->nmem) {
		fputs(", NaN with lines dt 3 lw 2 lc rgb '" C_MEAN "' title ", g);
		gqf(g, "O_min = %s (Eq. 3 limit)", om);
	}
	fputs(", '+' using (", g);
	gnum(g, nr->cap / d);
	fputs("):(", g);
	gnum(g, fmax(pr, floor_));
	fputs(") every ::0::0 with points pt 7 ps 1.3 lc rgb '" C_CAP
	      "' title ", g);
	gqf(g, "Pr(Y > C) = %s%s", prs, nr->risk ? " (plan)" : "");
	fputs("\nunset multiplot\n", g);
	free(cap);
	free(ld);
	free(prs);
	free(om);
}

/* Reserved (Eq. 1) vs capacity per node, a panel per resource. */
static void
plot_cluster(FILE *g)
{
	size_t n = in.cluster.n;
	int w = n > 12 ? (int)(220 + 40 * n) : 720;
	if (w > 2400)
		w = 2400;
	gp_head(g, w, 620);
	fputs("set multiplot layout 2,1 title 'Reserved (Eq. 1 load) vs "
	      "capacity per node'\nset lmargin 11\nset rmargin 3\n"
	      "set style fill solid 1.0 border lc rgb '#888888'\n"
	      "set grid noxtics\nset xtics scale 0\n", g);
	if (n > 12)
		fputs("set xtics rotate by -40 left\n", g);
	fputs("set xrange [-0.6:", g);
	gnum(g, (double)n - 0.4);
	fputs("]\nset key top right horizontal\n", g);
	for (int r = 0; r < OVB_NCAP; r++) {
		double top = 0;
		for (size_t i = 0; i < nnres; i++)
			if ((int)nres[i].res == r)
				top = fmax(top, fmax(nres[i].cap,
					shown_load(&nres[i])));
		struct scale sc = scale_for(rate_unit((enum ovb_res)r), top);
		fprintf(g, "$D%d << EOD\n", r);
		size_t k = 0;
		for (size_t i = 0; i < nnres; i++) {
			if ((int)nres[i].res != r)
				continue;
			double load = shown_load(&nres[i]);
			fprintf(g, "%zu %s ", k++, nres[i].node->name);
			gnum(g, nres[i].cap / sc.div);
			putc(' ', g);
			gnum(g, load / sc.div);
			putc(' ', g);
			gnum(g, eq1_holds(&nres[i]) ? 0 : 1);
			putc('\n', g);
		}
		fputs("EOD\nset ylabel ", g);
		gqf(g, "%s [%s]", r == OVB_CPU ? "CPU" : "network (sent)",
			sc.unit);
		fputs("\nset yrange [0:", g);
		gnum(g, top / sc.div * 1.3);
		fputs("]\n", g);
		fprintf(g, "plot $D%d using 1:3:(0.78):xtic(2) with boxes fc rgb '"
			C_GRAY "' title 'capacity', $D%d using 1:($5 > 0.5 ? NaN : $4)"
			":(0.46) with boxes fc rgb '" C_LOAD "' title 'reserved', "
			"$D%d using 1:($5 > 0.5 ? $4 : NaN):(0.46) with boxes fc rgb '"
			C_CAP "' title 'reserved > capacity'", r, r, r);
		if (n <= 24)
			fprintf(g, ", $D%d using 1:4:(sprintf('%%.0f%%%%', 100 * $4 / "
				"$3)) with labels offset 0,0.7 font ',9' notitle", r);
		fputs("\n", g);
	}
	fputs("unset multiplot\n", g);
}

/* Fig. 7: applications placed against the overbooking tolerance, a line
 * per cluster size. */
static void
plot_gain(FILE *g)
{
	gp_head(g, 680, 440);
	fputs("set title 'Capacity gained by overbooking'\n"
	      "set xlabel 'overbooking tolerance O [%]'\n"
	      "set ylabel 'applications placed (mean, 95% CI)'\n"
	      "set key top left\nset yrange [0:*]\nset offsets 0, 0, graph "
	      "0.1, 0\n", g);
	double omax = 0;
	for (size_t i = 0; i < ngains; i++)
		omax = fmax(omax, 100 * gains[i].O);
	if (!(omax > 0))
		omax = 1;
	fputs("set xrange [", g);
	gnum(g, -0.04 * omax);
	fputs(":", g);
	gnum(g, 1.04 * omax);
	fputs("]\n", g);
	size_t nb = 0;
	for (size_t i = 0, j; i < ngains; i = j, nb++) {
		fprintf(g, "$G%zu << EOD\n", nb);
		for (j = i; j < ngains && gains[j].nodes == gains[i].nodes; j++) {
			gnum(g, 100 * gains[j].O);
			putc(' ', g);
			gnum(g, gains[j].mean);
			putc(' ', g);
			gnum(g, gains[j].ci);
			putc('\n', g);
		}
		fputs("EOD\n", g);
	}
	fputs("plot ", g);
	nb = 0;
	for (size_t i = 0, j; i < ngains; i = j, nb++) {
		for (j = i; j < ngains && gains[j].nodes == gains[i].nodes; j++)
			;
		fprintf(g, "%s$G%zu using 1:2:3 with yerrorlines lw 2 pt 7 ps 0.8 "
			"title ", nb ? ", " : "", nb);
		const struct gain *last = &gains[j - 1];
		if (!isnan(last->gain) && last->O > 0)
			gqf(g, "%llu node%s: %.2fx at O = %.4g",
				(unsigned long long)gains[i].nodes,
				gains[i].nodes == 1 ? "" : "s", last->gain, last->O);
		else
			gqf(g, "%llu node%s", (unsigned long long)gains[i].nodes,
				gains[i].nodes == 1 ? "" : "s");
	}
	fputs("\n", g);
}

/* ---- one plot: selection and rendering ---- */

static void
list_rows(char *buf, size_t size, bool need_curve)
{
	size_t len = 0, k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nrows && len + 1 < size; i++) {
		if (need_curve && !rows[i].pt)
			continue;
		if (k++ == 12) {
			snprintf(buf + len, size - len, ", ...");
			break;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s %s",
			k > 1 ? ", " : "", rows[i].capsule,
			ovb_res_name(rows[i].res));
	}
	if (len >= size)
		buf[size - 1] = '\0';
}

static int
select_row(const struct row **out)
{
	bool need_curve = opt_plot == P_CURVE;
	const struct row *found = NULL;
	size_t n = 0;
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		if ((opt_capsule && strcmp(r->capsule, opt_capsule)) ||
		    (opt_res >= 0 && r->res != (enum ovb_res)opt_res) ||
		    (need_curve && !r->pt))
			continue;
		found = r;
		n++;
	}
	if (n == 1) {
		*out = found;
		return 0;
	}
	char have[1024];
	list_rows(have, sizeof have, need_curve);
	if (n == 0)
		ovb_warn("--plot %s: no %s%s%s%s%s in the inputs%s%s",
			plot_names[opt_plot], need_curve ? "curve of " : "capsule",
			opt_capsule ? " " : "", opt_capsule ? opt_capsule : "",
			opt_res >= 0 ? " " : "",
			opt_res >= 0 ? ovb_res_name((enum ovb_res)opt_res) : "",
			*have ? "; there are: " : "", have);
	else
		ovb_warn("--plot %s: choose one with --capsule and --res: %s",
			plot_names[opt_plot], have);
	return OVB_EUSAGE;
}

static int
select_node(const struct nres **out)
{
	const struct nres *found = NULL;
	size_t n = 0, nused = 0;
	const struct nres *used = NULL;
	for (size_t i = 0; i < nnres; i++) {
		const struct nres *nr = &nres[i];
		if ((opt_node && strcmp(nr->node->name, opt_node)) ||
		    (opt_res >= 0 && nr->res != (enum ovb_res)opt_res))
			continue;
		found = nr;
		n++;
		if (nr->nmem) {
			used = nr;
			nused++;
		}
	}
	if (n > 1 && nused == 1) {
		found = used;
		n = 1;
	}
	if (n == 1) {
		*out = found;
		return 0;
	}
	if (n == 0)
		ovb_warn("--plot node: no node%s%s%s%s in the cluster", opt_node ?
			" " : "", opt_node ? opt_node : "", opt_res >= 0 ?
			" with resource " : "", opt_res >= 0 ?
			ovb_res_name((enum ovb_res)opt_res) : "");
	else
		ovb_warn("--plot node: choose one with --node and --res (cpu or "
			"net)");
	return OVB_EUSAGE;
}

static int
plot_script(FILE *g, enum plot kind)
{
	const struct row *r;
	const struct nres *nr;
	int st = 0;
	switch (kind) {
	case P_PDF: case P_CDF: case P_CURVE:
		if (!nrows) {
			ovb_warn("--plot %s: needs an ovb-profile or ovb-usage file",
				plot_names[kind]);
			return OVB_EUSAGE;
		}
		if ((st = select_row(&r)))
			return st;
		if (kind == P_PDF)
			plot_pdf(g, r);
		else if (kind == P_CDF)
			plot_cdf(g, r);
		else
			plot_curve(g, r);
		return 0;
	case P_NODE: case P_CLUSTER:
		if (!in.cluster_file) {
			ovb_warn("--plot %s: needs an ovb-cluster file (and plan)",
				plot_names[kind]);
			return OVB_EUSAGE;
		}
		if (kind == P_CLUSTER) {
			plot_cluster(g);
			return 0;
		}
		if ((st = select_node(&nr)))
			return st;
		plot_node(g, nr);
		return 0;
	case P_GAIN:
		if (!ngains) {
			ovb_warn("--plot gain: needs a gain table ('nodes O "
				"placed')");
			return OVB_EUSAGE;
		}
		plot_gain(g);
		return 0;
	case P_NONE: case NPLOT:
		break;
	}
	return OVB_ESOFT;
}

static int
do_plot(void)
{
	char *script = NULL;
	size_t len = 0;
	FILE *g = open_memstream(&script, &len);
	int st = plot_script(g, opt_plot);
	fclose(g);
	struct ovb_out o;
	if (!st && !(st = ovb_out_open(&o, ovb_opt_output))) {
		fflush(o.f);
		st = gp_run(script, len, fileno(o.f));
		int st2 = ovb_out_close(&o, st == 0);
		if (!st)
			st = st2;
		if (!st && (!ovb_opt_output || !strcmp(ovb_opt_output, "-")))
			st = ovb_fshut_stdout();
	}
	free(script);
	return st;
}

/* ---- the HTML page ---- */

static void
hesc(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: putc(*s, f);
		}
}

static const char css[] =
	":root{color-scheme:light}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'DejaVu Sans','Liberation Sans',sans-serif;color:#1b1b1b;"
	"background:#fff;margin:0 auto;max-width:1280px;padding:18px 28px}\n"
	"h1{font-size:1.65em;margin:.2em 0 .1em}\n"
	"h2{font-size:1.3em;margin:1.8em 0 .5em;padding-bottom:.2em;"
	"border-bottom:2px solid #d8d8d8}\n"
	"h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
	"p.meta{color:#555;margin:.2em 0}\n"
	"nav{margin:.8em 0 0;font-size:.95em}\nnav a{margin-right:1.1em}\n"
	"a{color:#1f4e9a}\n"
	"ul.sum{margin:.6em 0;padding-left:1.2em}\n"
	".wrap{overflow-x:auto;margin:.4em 0 .3em}\n"
	"table{border-collapse:collapse;font-size:13px;"
	"font-variant-numeric:tabular-nums}\n"
	"th,td{padding:3px 6px;border-bottom:1px solid #e2e2e2;"
	"text-align:left;white-space:nowrap;vertical-align:top}\n"
	"th{background:#f2f2f2;font-weight:600;border-bottom:1px solid #bbb}\n"
	"td.n,th.n{text-align:right}\n"
	"td.w{white-space:normal;min-width:14em}\n"
	"tr.bad td{background:#fdecea}\n"
	".ok{color:#1b7a1b;font-weight:600}.bad{color:#b71c1c;"
	"font-weight:600}\n"
	"p.note{font-size:12.5px;color:#555;margin:.2em 0 1em}\n"
	".figs{display:grid;grid-template-columns:repeat(auto-fill,"
	"minmax(560px,1fr));gap:14px;margin:.6em 0}\n"
	"figure{margin:0;border:1px solid #e2e2e2;padding:6px;"
	"break-inside:avoid;background:#fff}\n"
	"figure.wide{grid-column:1/-1}\n"
	"figure svg{display:block;width:100%;height:auto}\n"
	"figcaption{font-size:12.5px;color:#444;padding:4px 2px 0}\n"
	"footer{margin-top:2.5em;color:#777;font-size:12px}\n"
	"@media print{\n"
	"  @page{size:A4;margin:12mm}\n"
	"  body{max-width:none;padding:0;font-size:10pt}\n"
	"  nav{display:none}\n"
	"  a{color:inherit;text-decoration:none}\n"
	"  h2{break-after:avoid}h3{break-after:avoid}\n"
	"  .wrap{overflow:visible}\n"
	"  table{font-size:8.5pt}th,td{white-space:normal;padding:2px 5px}\n"
	"  tr{break-inside:avoid}\n"
	"  .figs{display:block}\n"
	"  figure{border:none;padding:0;margin:0 0 6mm;width:100%}\n"
	"  figure svg{max-height:120mm}\n"
	"}\n";

static void
html_table(FILE *f, const struct table *t)
{
	fputs("<div class=\"wrap\"><table>\n<thead><tr>", f);
	for (size_t c = 0; c < t->ncol; c++) {
		if (!(t->col[c].where & W_TEXT))
			continue;
		fputs(t->col[c].num ? "<th class=\"n\">" : "<th>", f);
		if (!strncmp(t->col[c].head, "sigma", 5)) {
			fputs("σ", f);
			hesc(f, t->col[c].head + 5);
		} else if (!strncmp(t->col[c].head, "rho", 3)) {
			fputs("ρ", f);
			hesc(f, t->col[c].head + 3);
		} else if (!strcmp(t->col[c].head, "+-95%"))
			fputs("±95%", f);
		else
			hesc(f, t->col[c].head);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < t->nrow; r++) {
		fputs(t->bad[r] ? "<tr class=\"bad\">" : "<tr>", f);
		for (size_t c = 0; c < t->ncol; c++) {
			if (!(t->col[c].where & W_TEXT))
				continue;
			const char *s = tcell(t, r, c, false);
			bool wrap = !strcmp(t->col[c].head, "members") ||
				!strcmp(t->col[c].head, "reason") ||
				!strcmp(t->col[c].head, "enforced by");
			fputs(t->col[c].num ? "<td class=\"n\">" : wrap ?
				"<td class=\"w\">" : "<td>", f);
			if (!strcmp(t->col[c].head, "check")) {
				fputs(strcmp(s, "ok") ? "<span class=\"bad\">" :
					"<span class=\"ok\">", f);
				hesc(f, s);
				fputs("</span>", f);
			} else if (wrap && strchr(s, ',') &&
			    !strcmp(t->col[c].head, "members")) {
				for (const char *p = s; *p; p++) {
					char ch[2] = { *p, 0 };
					hesc(f, ch);
					if (*p == ',')
						fputs("<wbr>", f);
				}
			} else
				hesc(f, s);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	if (!t->nrow)
		fputs("<p class=\"note\">None.</p>\n", f);
	else if (t->note) {
		fputs("<p class=\"note\">", f);
		hesc(f, t->note);
		fputs("</p>\n", f);
	}
}

/* Copies gnuplot's SVG into the page: no XML prolog, its ids prefixed
 * with the figure's number (several SVGs share one document), and its
 * title made the caption. */
static void
embed_svg(FILE *f, const char *svg, size_t len, int fig, const char *title)
{
	const char *p = strstr(svg, "<svg");
	if (!p)
		return;
	const char *end = svg + len;
	/* the ids it defines */
	struct ovb_names ids;
	memset(&ids, 0, sizeof ids);
	char **keys = NULL;
	size_t nkeys = 0, capkeys = 0;
	for (const char *s = p; (s = strstr(s, "id=")) && s + 4 < end; s++) {
		char q = s[3];
		if ((q != '\'' && q != '"') || (s > p && !strchr(" \t\n", s[-1])))
			continue;
		const char *e = strchr(s + 4, q);
		if (!e)
			break;
		char *k = strndup(s + 4, (size_t)(e - s - 4));
		if (ovb_names_add(&ids, k, 0))
			*OVB_PUSH(keys, nkeys, capkeys) = k;
		else
			free(k);
	}
	while (p < end) {
		if (!strncmp(p, "<title>", 7)) {
			const char *e = strstr(p, "</title>");
			if (e) {
				fputs("<title>", f);
				hesc(f, title);
				fputs("</title>", f);
				p = e + 8;
				continue;
			}
		}
		if ((*p == ' ' || *p == '\t' || *p == '\n') && !strncmp(p + 1,
		    "id=", 3) && (p[4] == '\'' || p[4] == '"')) {
			fprintf(f, "%.5sf%d-", p, fig);
			p += 5;
			continue;
		}
		if (*p == '#') {
			size_t n = strcspn(p + 1, "'\")");
			if (p + 1 + n < end && n < 128) {
				char k[130];
				memcpy(k, p + 1, n);
				k[n] = '\0';
				if (ovb_names_get(&ids, k) != OVB_NONE) {
					fprintf(f, "#f%d-", fig);
					p++;
					continue;
				}
			}
		}
		putc(*p++, f);
	}
	ovb_names_free(&ids);
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
}

static int nfig;

/* Renders one plot into the page as a figure; 0 or the error. */
static int
figure(FILE *f, enum plot kind, const struct row *r, const struct nres *nr,
	const char *caption, bool wide)
{
	char *script = NULL;
	size_t len = 0;
	FILE *g = open_memstream(&script, &len);
	switch (kind) {
	case P_PDF: plot_pdf(g, r); break;
	case P_CDF: plot_cdf(g, r); break;
	case P_CURVE: plot_curve(g, r); break;
	case P_NODE: plot_node(g, nr); break;
	case P_CLUSTER: plot_cluster(g); break;
	case P_GAIN: plot_gain(g); break;
	case P_NONE: case NPLOT: break;
	}
	fclose(g);
	FILE *out = tmpfile();
	if (!out) {
		free(script);
		ovb_warn("cannot create a temporary file: %s", strerror(errno));
		return OVB_EIO;
	}
	int st = gp_run(script, len, fileno(out));
	free(script);
	if (!st) {
		char *svg = NULL;
		size_t n = 0, cap = 0;
		char buf[65536];
		size_t k;
		rewind(out);
		while ((k = fread(buf, 1, sizeof buf, out)) > 0) {
			if (n + k + 1 > cap) {
				cap = 2 * (n + k + 1);
				svg = ovb_xrealloc(svg, cap, 1);
			}
			memcpy(svg + n, buf, k);
			n += k;
		}
		if (!svg) {
			ovb_warn("gnuplot wrote no SVG");
			st = OVB_EUNAVAIL;
		} else {
			svg[n] = '\0';
			nfig++;
			/* never wider than drawn: the fonts stay at their size */
			const char *wp = strstr(svg, " width=\"");
			int width = wp ? atoi(wp + 8) : 0;
			fprintf(f, "<figure%s id=\"fig%d\"", wide ?
				" class=\"wide\"" : "", nfig);
			if (width > 0)
				fprintf(f, " style=\"max-width:%dpx\"", width + 14);
			fputs(">", f);
			embed_svg(f, svg, n, nfig, caption);
			fputs("<figcaption>", f);
			hesc(f, caption);
			fputs("</figcaption></figure>\n", f);
		}
		free(svg);
	}
	fclose(out);
	return st;
}

static bool
plots_on(void)
{
	return !opt_noplots;
}

static void
html_summary(FILE *f)
{
	fputs("<ul class=\"sum\">\n", f);
	if (nrows) {
		size_t np = 0;
		for (size_t i = 0; i < nrows; i++)
			np += rows[i].q != NULL;
		fprintf(f, "<li>%zu capsule resource%s profiled (%zu with a QoS "
			"profile).</li>\n", nrows, nrows == 1 ? "" : "s", np);
	}
	if (in.cluster_file) {
		size_t used = 0;
		for (size_t i = 0; i < in.cluster.n; i++) {
			bool any = false;
			for (size_t j = 0; j < in.plan.n; j++)
				any |= !strcmp(in.plan.p[j].node,
					in.cluster.node[i].name);
			used += any;
		}
		fprintf(f, "<li>Cluster: %zu node%s; ", in.cluster.n,
			in.cluster.n == 1 ? "" : "s");
		if (in.plan_file) {
			size_t napps = 0;
			for (size_t j = 0; j < in.plan.n; j++) {
				bool seen = false;
				for (size_t k = 0; k < j; k++)
					seen |= !strcmp(in.plan.p[k].app,
						in.plan.p[j].app);
				napps += !seen;
			}
			fprintf(f, "plan: %zu capsule%s of %zu application%s placed "
				"on %zu node%s, %zu application%s rejected.</li>\n",
				in.plan.n, in.plan.n == 1 ? "" : "s", napps, napps == 1 ?
				"" : "s", used, used == 1 ? "" : "s", in.plan.nrej,
				in.plan.nrej == 1 ? "" : "s");
		} else
			fputs("no plan.</li>\n", f);
		size_t bad = 0;
		const struct nres *worst = NULL;
		for (size_t i = 0; i < nnres; i++) {
			const struct nres *nr = &nres[i];
			bad += !eq1_holds(nr) || !eq3_holds(nr);
			if (nr->nmem && (!worst || shown_pr(nr) > shown_pr(worst)))
				worst = nr;
		}
		fprintf(f, "<li>Eq. 1 (reserved ≤ capacity) and Eq. 3 (Pr(Y > C) ≤ "
			"O_min): %s.</li>\n", bad ? "<span class=\"bad\">violated "
			"on some nodes (highlighted)</span>" : "<span class=\"ok\">"
			"hold on every node</span>");
		if (worst) {
			char *p = hq(shown_pr(worst), NULL),
				*o = hq(shown_omin(worst), NULL);
			fprintf(f, "<li>Largest overflow risk: node ");
			hesc(f, worst->node->name);
			fprintf(f, " %s, Pr(Y &gt; C) = %s against O_min = %s.</li>\n",
				ovb_res_name(worst->res), p, o);
			free(p);
			free(o);
		}
	}
	if (ngains) {
		const struct gain *best = NULL;
		for (size_t i = 0; i < ngains; i++)
			if (!isnan(gains[i].gain) && (!best ||
			    gains[i].gain > best->gain))
				best = &gains[i];
		fprintf(f, "<li>Capacity experiment: %zu run%s", in.nrun,
			in.nrun == 1 ? "" : "s");
		if (best)
			fprintf(f, "; the largest gain is %.2fx (%llu nodes, O = "
				"%.4g)", best->gain, (unsigned long long)best->nodes,
				best->O);
		fputs(".</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* Y of every node and resource with capsules. */
static int
node_figures(FILE *f)
{
	int st = 0;
	bool any = false;
	for (size_t k = 0; k < nnres && !st; k++) {
		const struct nres *nr = &nres[k];
		if (!nr->nmem)
			continue;
		if (!any)
			fputs("<h3>Aggregate usage Y per node</h3>\n"
			      "<div class=\"figs\">\n", f);
		any = true;
		char *c = xasprintf("Node %s, %s: the distribution of Y, the "
			"usage of its %zu capsule%s summed (top; red: above the "
			"capacity C), and Pr(Y > x) on a log scale against O_min "
			"(bottom).", nr->node->name, ovb_res_name(nr->res),
			nr->nmem, nr->nmem == 1 ? "" : "s");
		st = figure(f, P_NODE, NULL, nr, c, false);
		free(c);
	}
	if (any)
		fputs("</div>\n", f);
	return st;
}

/* U (pdf and cdf) and rho(sigma) of one capsule and resource. */
static int
capsule_figures(FILE *f, const struct row *r, size_t k)
{
	const char *cap = r->capsule, *res = ovb_res_name(r->res);
	fprintf(f, "<h3 id=\"cap-%zu\">", k);
	hesc(f, cap);
	fprintf(f, " · %s</h3>\n<div class=\"figs\">\n", res);
	char *c = xasprintf("%s %s: usage distribution U (share of "
		"measurement intervals per bin) with its percentiles%s.", cap,
		res, r->q ? " and the chosen σ" : "");
	int st = figure(f, P_PDF, r, NULL, c, false);
	free(c);
	if (!st) {
		c = xasprintf("%s %s: cumulative distribution of U with the exact "
			"percentiles.", cap, res);
		st = figure(f, P_CDF, r, NULL, c, false);
		free(c);
	}
	if (!st && r->pt) {
		c = xasprintf("%s %s: token-bucket curve ρ(σ), the least burst at "
			"each rate%s.", cap, res, r->q ? ", and the chosen (σ, ρ)" :
			"");
		st = figure(f, P_CURVE, r, NULL, c, false);
		free(c);
	}
	fputs("</div>\n", f);
	return st;
}

static int
html_page(FILE *f)
{
	int st = 0;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"ovb-report (overbook "
	      OVB_VERSION ")\">\n<title>", f);
	hesc(f, opt_title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n"
		"<h1>", css);
	hesc(f, opt_title);
	fputs("</h1>\n<p class=\"meta\">Inputs: ", f);
	for (size_t i = 0; i < in.nfile; i++) {
		if (i)
			fputs(", ", f);
		fputs("<code>", f);
		hesc(f, in.file[i]);
		fputs("</code>", f);
	}
	fputs("</p>\n<nav>", f);
	static const char *const heads[NTABLE] = { "Nodes", "Placements",
		"Rejected applications", "Capsules", "Overbooking gain" };
	for (int i = 0; i < NTABLE; i++)
		if (table_wanted((enum tabid)i))
			fprintf(f, "<a href=\"#%s\">%s</a>", table_names[i],
				heads[i]);
	fputs("</nav>\n</header>\n<main>\n<h2 id=\"summary\">Summary</h2>\n", f);
	html_summary(f);
	for (int i = 0; i < NTABLE && !st; i++) {
		enum tabid id = (enum tabid)i;
		if (!table_wanted(id))
			continue;
		struct table t;
		make_table(&t, id);
		fprintf(f, "<section id=\"%s\">\n<h2>", table_names[i]);
		hesc(f, t.title);
		fputs("</h2>\n", f);
		if (id == T_NODES && plots_on()) {
			fputs("<div class=\"figs\">\n", f);
			st = figure(f, P_CLUSTER, NULL, NULL, "Reserved (the Eq. 1 "
				"load) against capacity, per node and resource; the "
				"percentage is reserved/capacity.", true);
			fputs("</div>\n", f);
		}
		if (!st)
			html_table(f, &t);
		if (id == T_NODES && plots_on() && !st)
			st = node_figures(f);
		if (id == T_CAPSULES && plots_on())
			for (size_t k = 0; k < nrows && !st; k++)
				st = capsule_figures(f, &rows[k], k);
		if (id == T_GAIN && plots_on() && !st) {
			fputs("<div class=\"figs\">\n", f);
			st = figure(f, P_GAIN, NULL, NULL, "Applications placed "
				"against the overbooking tolerance O, per cluster size "
				"(as Fig. 7 of the paper).", false);
			fputs("</div>\n", f);
		}
		fputs("</section>\n", f);
		table_free(&t);
	}
	fputs("</main>\n<footer>Made by ovb-report (overbook " OVB_VERSION
	      "). Units: cpu = CPUs busy (CPU-seconds per second), cpu-s = "
	      "CPU-seconds, B/s and B = bytes (k, M, G: powers of 1000). "
	      "σ is the token bucket's rate, ρ its burst.</footer>\n"
	      "</body>\n</html>\n", f);
	return st;
}

static int
do_tables(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int st = opt_format == F_HTML ? html_page(m) : write_tables(m);
	fclose(m);
	struct ovb_out o;
	if (!st && !(st = ovb_out_open(&o, ovb_opt_output))) {
		fwrite(buf, 1, len, o.f);
		st = ovb_out_close(&o, true);
		if (!st && (!ovb_opt_output || !strcmp(ovb_opt_output, "-")))
			st = ovb_fshut_stdout();
	}
	free(buf);
	return st;
}

static void
free_all(void)
{
	for (size_t i = 0; i < in.nprof; i++)
		ovb_profile_free(&in.prof[i].p);
	for (size_t i = 0; i < in.nusage; i++)
		ovb_usage_free(&in.usage[i].u);
	for (size_t i = 0; i < in.ncurve; i++)
		ovb_curve_free(&in.curve[i].c);
	free(in.prof);
	free(in.usage);
	free(in.curve);
	if (in.cluster_read)
		ovb_cluster_free(&in.cluster);
	if (in.plan_read)
		ovb_plan_free(&in.plan);
	free(in.run);
	free(in.file);
	free(rows);
	for (size_t i = 0; i < nnres; i++) {
		free(nres[i].mem);
		free(nres[i].group);
	}
	free(nres);
	free(gains);
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++)
		if ((st = read_one(nfiles ? argv[first + i] : NULL)) > status)
			status = st;
	if (!status)
		status = build_rows();
	if (!status)
		status = check_plan();
	if (!status) {
		build_nodes();
		build_gains();
		status = opt_plot ? do_plot() : check_tables();
		if (!status && !opt_plot)
			status = do_tables();
	}
	free_all();
	return status;
}
