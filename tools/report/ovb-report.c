/* ovb-report: tables, plots and one HTML page from profiles, usage
 * distributions, token-bucket curves, a plan with its cluster, and the
 * results of a capacity experiment.
 *
 * Reads any number of FILEs (stdin when none or "-"), told apart by their
 * first record: ovb-profile, ovb-usage, ovb-curve, one ovb-cluster, one
 * ovb-plan (which needs the cluster and the profiles it names), the
 * optional ovb-apps file of the plan (lower bounds), and gain tables
 * (ovb-gain, or its older form).  Writes, as asked: tables for terminals
 * (--format text) or pipelines (tsv: exact numbers in base units), one plot
 * drawn by gnuplot (--plot KIND; SVG, or PNG when -o ends in .png), or one
 * self-contained HTML page with every table and plot (--format html).
 *
 * Invariants:
 * - a number in a table is the one its input holds (percentiles, sigma,
 *   rho, a plan's risk record), or is computed here and labelled so: a
 *   node's Pr(Y > C) "computed" and its Eq. 1 load (lib/node.c, the model
 *   ovb-place and ovb-check use, on the plan's qos records, the profiles'
 *   U and the apps file's lower bounds), shown where the plan has no risk
 *   record; with --mode tod, a node's Eq. 1 load and Pr(Y > C) per
 *   window of the day are ovb_tod_node's (lib/tod.c, ovb-check --mode
 *   tod's), and a window a capsule has no samples in shows none;
 * - the same inputs give the same bytes (text, TSV, HTML, SVG);
 * - nothing is written on error: output is made in memory first, -o is
 *   atomic, and a plot file is gnuplot's output into the temporary that is
 *   renamed only when gnuplot succeeded;
 * - plots are lib/plot.c's (gnuplot without a shell, data inline); the
 *   only input text in a script is names, which the formats restrict to
 *   [A-Za-z0-9_.:+@/-];
 * - no state at file scope but constants: the options are one struct opts
 *   (argp's state->input), the inputs and what is derived from them one
 *   struct report that main owns and passes down (const where a function
 *   only reads it), and what one plot draws a struct pick passed to it. */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovb.h"

enum { OPT_FORMAT = 'f', OPT_TABLE = 't', OPT_PLOT = 'p', OPT_CAPSULE = 'c',
	OPT_RES = 'r', OPT_NODE = 'n', OPT_INTERVAL = 'I',
	OPT_NOPLOTS = 0x100, OPT_TITLE, OPT_CONFIG, OPT_MODE };

enum format { F_TEXT, F_TSV, F_HTML };
enum plot { P_NONE, P_PDF, P_CDF, P_CURVE, P_NODE, P_CLUSTER, P_GAIN,
	P_TRADE, P_FIT, P_USAGE, P_BACKTEST, P_WINDOWS, NPLOT };
enum tabid { T_NODES, T_WINDOWS, T_APPS, T_PLACEMENTS, T_REJECTS, T_CAPSULES,
	T_TRACES, T_USAGE, T_GAIN, T_TRADE, T_MARKET, T_FIT, T_BACKTEST,
	NTABLE };

static const char *const format_names[] = { "text", "tsv", "html" };
static const char *const plot_names[NPLOT] = { "", "pdf", "cdf", "curve",
	"node", "cluster", "gain", "trade", "fit", "usage", "backtest",
	"" /* windows: the page's only */ };
static const char *const table_names[NTABLE] = { "nodes", "windows", "apps",
	"placements", "rejects", "capsules", "traces", "usage", "gain",
	"trade", "market", "fit", "backtest" };

/* The options as parsed (argp's state->input). */
struct opts {
	enum format format;
	bool format_given, noplots, title_given, png;
	bool tod;                        /* --mode tod: the windows table */
	enum plot plot;
	unsigned tables;                 /* a bit per table; 0: all */
	const char *capsule, *node, *config;
	int res;                         /* -1: not given */
	uint64_t interval;               /* ns; 0: the profile's, or 1 s */
	const char *title;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Tables and pages:", 1 },
	{ "format", OPT_FORMAT, "FORMAT", 0,
	  "text (default: aligned tables for a terminal), tsv (tab-separated, "
	  "exact numbers in base units, for pipelines) or html (one "
	  "self-contained page: every table and plot)", 0 },
	{ "table", OPT_TABLE, "NAME[,NAME...]", 0,
	  "Only these tables (in html, with their plots): nodes, windows, apps, "
	  "placements, rejects, capsules, traces, usage, gain, trade, market, "
	  "fit, backtest (default: every one the inputs allow)", 0 },
	{ "mode", OPT_MODE, "MODE", 0,
	  "The plan's mode, as ovb-check --mode: eq1 (default) or tod (made "
	  "by ovb-place --mode tod; the plan does not record it): adds the "
	  "windows table, per node, resource and window of the day its Eq. 1 "
	  "load and Pr(Y > C) against O_min (lib/tod.c, ovb-check --mode tod's "
	  "numbers)", 0 },
	{ "interval", OPT_INTERVAL, "SECONDS", 0,
	  "Usage over time: the measurement interval I of ovb-onoff inputs "
	  "(default: the interval of the capsule's profile or usage "
	  "distribution, else 1 s; rounded to ns), or a multiple of an "
	  "ovb-series' interval (default: the series' own)", 0 },
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
	  "applications vs overbooking tolerance), trade (per day: lent and "
	  "nodes above capacity, a line per ovb-trade file), fit (an ovb-fit "
	  "answer: copies that fit or nodes needed vs overbooking tolerance), "
	  "usage (a capsule's usage per measurement interval over time, from "
	  "an ovb-onoff or ovb-series file, with its sigma and p99), backtest "
	  "(an ovb-backtest file: node-period promises held vs density, a "
	  "point per configuration, the Pareto front marked)", 0 },
	{ "capsule", OPT_CAPSULE, "NAME", 0,
	  "The capsule of a pdf, cdf, curve or usage plot", 0 },
	{ "node", OPT_NODE, "NAME", 0, "The node of a node plot", 0 },
	{ "config", OPT_CONFIG, "ID", 0,
	  "A backtest plot of the configurations of ID's group only (the "
	  "same node size, O, windows, plan and periods: its methods; default "
	  "every configuration)", 0 },
	{ "res", OPT_RES, "RES", 0,
	  "The resource: cpu, net, net-rx or mem (a node: those its cluster "
	  "places)", 0 },
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
	"Pr(Y > C) against O_min, rejections) and, optionally, the ovb-apps "
	"file it was made from (for the lower bounds lb-cpu= and lb-net= in "
	"the Eq. 1 load; without it lb is 0), gain tables, and one ovb-fit "
	"answer (formats/fit.md: copies that fit, or nodes needed, against "
	"O), and one ovb-backtest file (formats/backtest.md).  A usage "
	"block of a capsule and resource that a profile also has is not used "
	"(the profile carries the same U).\n\n"
	"ovb-onoff files (busy periods, from ovb-onoff) and ovb-series files "
	"(samples, from ovb-import) give the usage over time of each capsule "
	"and resource (cpu, net, and net-rx when received bytes are "
	"recorded): the usage in each measurement interval, measured as "
	"ovb-usage does (lib/measure.c: intervals overlapping a gap of lost "
	"events, or missing a sample, left out), in intervals of -I (onoff: "
	"else the interval of the capsule's profile or usage given, else 1 s; "
	"series: else the series' own).  The usage table lists them; the page "
	"and --plot usage draw each over time (onoff: s from the trace start; "
	"series: UTC dates) with the capsule's sigma (rate) and the p99 of "
	"its U as horizontal lines when its profile or usage is given.  At "
	"most 2000 boxes are drawn: beyond, each box covers that many "
	"consecutive intervals and is as high as the largest usage among "
	"them (the caption says so).  A capsule and resource given twice is "
	"an error.\n\n"
	"The apps table shows each application of the plan: its capsules, "
	"their nodes and sigma (rate), and the overflow probability Pr(Y > C) "
	"of each capsule's node; a rejected application shows the capsule no "
	"node takes, the node nearest to taking it and what that node lacks "
	"(from the plan's reject record).  The traces table shows where and "
	"when each capsule was measured (the trace records of the profile, "
	"usage and curve files: host, kernel, UTC start, length).\n\n"
	"A gain table (ovb-gain, formats/gain.md) holds the results of a "
	"capacity experiment (Fig. 7 of the overbooking paper): after the "
	"magic line 'ovb-gain 1', one line 'run NODES O PLACED' per run with "
	"the number of nodes (integer >= 1), the overbooking tolerance O (0 "
	"<= O < 1) and the number of applications placed (integer).  The "
	"older form, a header line 'nodes O placed' and then 'NODES O "
	"PLACED' per run, is still read.  Runs with the same nodes and O are "
	"averaged, with a 95% "
	"confidence interval (Student's t); gain is the mean over the mean at "
	"O = 0 with the same nodes.\n\n"
	"ovb-trade files (replays of Sharc's resource trading) give the trade "
	"table, a row per file and calendar month (UTC): the mean lent (R - A "
	"over the lenders), capsule-intervals with usage above A, node-"
	"intervals above capacity, and how many intervals reclaiming lenders "
	"took to get R back (median, 90th percentile, max); give a replay "
	"with and one without trading side by side.  An ovb-cluster with an "
	"ovb-bids file (and optionally the ovb-migrations plan of "
	"ovb-rebalance) gives the market table: per VM and resource its bid, "
	"its share of the whole cluster (alloc_i) against what it gets on its "
	"node (alloc_r), the error, its charge and its moves; the prices, the "
	"largest error and the lower bound in the note.\n\n"
	"An ovb-backtest file (placement methods replayed, from ovb-backtest) "
	"gives the backtest table, a row per configuration: its method, plan, "
	"node size, O and windows, VMs placed and nodes used (sums over the "
	"periods), the density (VMs per node) against that of the sum of "
	"(1-O) percentiles (method pct) of the same group (configurations "
	"differing only in method) and against peak provisioning (the "
	"file's VS-PEAK), the gap closed (the file's gap records: the share "
	"of the nodes a VM placed between pct and the hindsight the method "
	"saves), the "
	"node-period promises held of those measured "
	"(held / (held + broken), missing samples as zero usage; missing: "
	"the nodes with a VM without samples, counted in held or broken too "
	"unless none of its VMs had a sample), the worst overflow frequency, "
	"the VMs moved (of those placed), a one-shot plan's validity and its "
	"broken node-periods that start before it, and the "
	"methods of its group that dominate it (hold at least as large a "
	"share and pack at least as densely, one strictly, the hindsight, "
	"the clairvoyant and clairvoyant-pct excepted: yardsticks, not "
	"rivals; 'none': it "
	"is on "
	"its group's Pareto front).  The page and --plot backtest draw the "
	"share held against density, a point per configuration with measured "
	"nodes, methods told apart by point type, colour and key, the 95% "
	"line, and the plot's Pareto front ringed and joined; density in VMs "
	"per node when every configuration drawn has one node size, else "
	"against peak.  The page draws every configuration together (when "
	"there are several groups) and each group apart.\n\n"
	"Y, a node's aggregate usage of a resource, is the sum of the U of "
	"its capsules (a plain reservation: its sigma, always), convolved on "
	"a grid as ovb-place does: the largest bin width of the node's "
	"profiled capsules, at least CAPACITY/POINTS when the plan has "
	"'grid POINTS'; values only move up, so Pr(Y > C) is conservative.  "
	"The nodes table shows the plan's Pr(Y > C) next to this one; a "
	"difference is warned about.  The node model is ovb-place's and "
	"ovb-check's (formats/plan.md), on the plan's qos records.\n\n"
	"With --mode tod (a plan of ovb-place --mode tod, on profiles with "
	"time-of-day windows, ovb-usage --tod; the plan does not record its "
	"mode) the windows table shows, per node and rate resource, a row per "
	"window of the day: the hours of a weekday or a weekend day in which "
	"every capsule's window is the same (on the windows' clock, UTC + "
	"their offset), its capacity, the Eq. 1 load and Pr(Y > C) in that "
	"window as ovb-check --mode tod computes them (lib/tod.c: each "
	"capsule's sigma the window's (1-O) percentile and rho its curve "
	"there, Y the windows' U convolved), O_min, and the status: ok, over "
	"C (Eq. 1), over O (Eq. 3), or unmeasured when a capsule has no "
	"samples in the window (no load or Pr(Y > C) shown: never taken as "
	"0).  TSV: from_h and to_h the window's hours [from, to), offset_s "
	"the clock's offset in s, status ok, eq1, eq3, eq1+eq3 or "
	"unmeasured (ovb-check's kinds), unmeasured the capsules without "
	"samples.  Members whose windows have different clocks are an error "
	"(65, at the plan's place record).  The page draws, per "
	"node and resource, the Eq. 1 load against C and Pr(Y > C) against "
	"O_min per hour of a weekday and a weekend day (unmeasured hours "
	"crossed, Pr(Y > C) = 0 on the log scale's floor).\n\n"
	"Plots need gnuplot (Debian package gnuplot-nox); OVB_GNUPLOT names "
	"another binary.  Without it, text and TSV tables still work, and "
	"plots exit with status 69.\n\n"
	"EXAMPLES:\n"
	"  ovb-report fixtures.profile              the capsules table\n"
	"  ovb-report cluster plan *.profile        every table of a plan\n"
	"  ovb-report -f tsv -t nodes cluster plan *.profile | cut -f1,2,8,10\n"
	"  ovb-report --mode tod -t windows cluster plan *.profile\n"
	"  ovb-report -f html cluster plan *.profile runs.gain -o report.html\n"
	"  ovb-report -p pdf -c web -r cpu web.profile -o web-cpu.svg\n"
	"  ovb-report -p node -n n1 -r cpu cluster plan *.profile -o n1.png\n"
	"  ovb-report aug.trade aug-notrade.trade   the trade table\n"
	"  ovb-report -p trade aug.trade aug-notrade.trade -o trade.svg\n"
	"  ovb-report cluster bids migrations       the market table\n"
	"  ovb-report -f html web.onoff web.profile -o r.html  usage over time\n"
	"  ovb-report -p usage -c vm1 -r cpu july.series -o vm1.svg\n"
	"  ovb-report bt                            the backtest table\n"
	"  ovb-report -p backtest --config c8 bt -o c8.svg\n\n"
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
	struct opts *o = st->input;
	char *copy = ovb_xstrdup(arg), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t;
	    t = strtok_r(NULL, ",", &save)) {
		int i = lookup(table_names, NTABLE, t);
		if (i < 0)
			argp_error(st, "--table: unknown table '%s' (nodes, windows, apps, "
				"placements, rejects, capsules, traces, usage, gain, "
				"trade, market, fit, backtest)", t);
		o->tables |= 1u << i;
	}
	free(copy);
	if (!o->tables)
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
	struct opts *o = st->input;
	int i;
	switch (key) {
	case OPT_FORMAT:
		if ((i = lookup(format_names, 3, arg)) < 0)
			argp_error(st, "--format: unknown format '%s' (text, tsv, "
				"html)", arg);
		o->format = (enum format)i;
		o->format_given = true;
		return 0;
	case OPT_TABLE: parse_tables(st, arg); return 0;
	case OPT_PLOT:
		if ((i = lookup(plot_names, NPLOT, arg)) < 0)
			argp_error(st, "--plot: unknown kind '%s' (pdf, cdf, curve, "
				"node, cluster, gain, trade, fit, usage, backtest)",
				arg);
		o->plot = (enum plot)i;
		return 0;
	case OPT_CAPSULE:
	case OPT_NODE:
		if (!ovb_valid_name(arg))
			argp_error(st, "--%s: '%s' is not a name",
				key == OPT_NODE ? "node" : "capsule", arg);
		*(key == OPT_NODE ? &o->node : &o->capsule) = arg;
		return 0;
	case OPT_RES:
		if ((o->res = ovb_res_parse(arg)) < 0)
			argp_error(st, "--res: unknown resource '%s' (cpu, net, "
				"net-rx, mem)", arg);
		return 0;
	case OPT_INTERVAL:
		o->interval = (uint64_t)llround(ovb_arg_real(st, "-I", arg,
			0.001, 1e9) * 1e9);
		return 0;
	case OPT_CONFIG:
		if (!ovb_valid_name(arg))
			argp_error(st, "--config: '%s' is not a name", arg);
		o->config = arg;
		return 0;
	case OPT_MODE:
		if (strcmp(arg, "tod") && strcmp(arg, "eq1"))
			argp_error(st, "--mode: '%s' is not eq1 or tod", arg);
		o->tod = !strcmp(arg, "tod");
		return 0;
	case OPT_NOPLOTS: o->noplots = true; return 0;
	case OPT_TITLE: o->title = arg; o->title_given = true; return 0;
	case ARGP_KEY_SUCCESS:
		if (o->plot && (o->format_given || o->tables || o->noplots ||
		    o->title_given || o->tod))
			argp_error(st, "--plot draws one plot; --format, --table, "
				"--mode, --no-plots and --title are for tables and "
				"pages");
		if (!o->plot && (o->capsule || o->node || o->res >= 0))
			argp_error(st, "--capsule, --node and --res choose what "
				"--plot draws");
		if (o->node && o->plot != P_NODE)
			argp_error(st, "--node is for --plot node");
		if (o->config && o->plot != P_BACKTEST)
			argp_error(st, "--config is for --plot backtest");
		if (o->capsule && o->plot != P_PDF && o->plot != P_CDF &&
		    o->plot != P_CURVE && o->plot != P_USAGE)
			argp_error(st, "--capsule is for --plot pdf, cdf, curve and "
				"usage");
		if (o->res >= 0 && (o->plot == P_CLUSTER || o->plot == P_GAIN ||
		    o->plot == P_FIT || o->plot == P_BACKTEST))
			argp_error(st, "--res is for --plot pdf, cdf, curve, node "
				"and usage");
		if ((o->noplots || o->title_given) && o->format != F_HTML)
			argp_error(st, "--no-plots and --title are for --format "
				"html");
		if (o->plot && ovb_opt_output && strcmp(ovb_opt_output, "-")) {
			if (ends_with(ovb_opt_output, ".png"))
				o->png = true;
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

/* The canonical text of v (TSV cells). */
static char *
xreal(double v)
{
	char b[32];
	return ovb_xstrdup(ovb_fmt_real(b, v));
}

/* ---- inputs ---- */

struct in_prof { const char *file; struct ovb_profiles p; };
struct in_usage { const char *file; struct ovb_usage u; };
struct in_curve { const char *file; struct ovb_curves c; };

/* The inputs as read. */
struct inputs {
	struct in_prof *prof;
	struct in_usage *usage;
	struct in_curve *curve;
	size_t nprof, capprof, nusage, capusage, ncurve, capcurve;
	struct ovb_cluster cluster;
	struct ovb_plan plan;
	struct ovb_apps apps;    /* the lower bounds lb of Eq. 1 */
	const char *cluster_file, *plan_file, *apps_file;
	bool cluster_read, plan_read, apps_read; /* to free, even after an error */
	struct ovb_fit fit;      /* an ovb-fit answer */
	const char *fit_file;
	struct ovb_run *run;     /* of every gain table */
	size_t nrun, caprun;
	const char **file;       /* every input, as named in messages */
	size_t nfile, capfile;
};

/* Trading replays (ovb-trade) and markets (ovb-bids, ovb-migrations). */
struct in_trade;
struct extra {
	struct in_trade *tr;
	size_t ntr, captr;
	struct ovb_bids bids;
	struct ovb_migrations mig;
	const char *bids_file, *mig_file;
	bool bids_read, mig_read;
};

/* Usage over time: ovb-onoff and ovb-series inputs, a line per capsule
 * and resource. */
struct in_onoff;
struct in_series;
struct tline;
struct timeline {
	struct in_onoff *on;
	struct in_series *se;
	struct tline *tl;
	size_t non, capon, nse, capse, ntl, captl;
};

/* An ovb-backtest file and a row per configuration. */
struct btrow;
struct btests {
	struct ovb_backtest b;
	const char *file;
	bool read;
	struct btrow *row;          /* one per configuration, in file order */
	size_t nrow;
};

/* What one plot draws: the capsule and resource (pdf, cdf, curve), the
 * node and resource (node), the line over time (usage), the backtest
 * group (backtest: the index of its first row; -1: every row).  The other
 * plots draw their whole input (NULL). */
struct pick {
	const struct row *row;
	const struct nres *nr;
	const struct tline *tl;
	long group;
};

/* The page's figures drawn by one gnuplot: a first pass of html_page
 * collects their scripts (collect), ovb_plot_capture_all draws them, the
 * second pass takes the k-th figure's SVG for the k-th figure (the pages
 * of both passes are the same but for the figures). */
struct figs {
	bool collect;
	char **script, **svg;
	size_t *len, *n, count, next;
	int nfig;                   /* the figures written so far */
};

/* One report: its options, its inputs, what is derived from them, and
 * the page being written.  Passed down to whatever needs it. */
struct row;
struct nres;
struct report {
	const struct opts *o;
	struct inputs in;
	struct extra ex;
	struct timeline tv;
	struct btests bt;
	struct row *rows;           /* a row per capsule and resource */
	size_t nrows, caprows;
	struct nres *nres;          /* a node and resource each */
	size_t nnres;
	struct ovb_plot_gain *gains;    /* runs averaged per (nodes, O) */
	size_t ngains;
	struct figs F;
};

/* Trading replays and markets (issues 12, 13): at the end of the file. */
static bool extra_read(struct report *rep, const char *fmt,
	struct ovb_lex *lx, int *st);
static bool extra_possible(const struct report *rep, enum tabid id);
static bool market_given(const struct report *rep);
static void table_trade(const struct report *rep, struct ovb_table *t);
static void table_market(const struct report *rep, struct ovb_table *t);
static void plot_trade(const struct report *rep, FILE *g);
static void extra_free(struct report *rep);
/* Usage over time (issue 17): at the end of the file. */
struct tline;
static bool tl_read(struct report *rep, const char *fmt, struct ovb_lex *lx,
	int *st);
static int build_tl(struct report *rep);
static void table_usage(const struct report *rep, struct ovb_table *t);
static int usage_figures(struct report *rep, FILE *f);
static void tl_script(const struct report *rep, FILE *g, const struct tline *t);
static int select_tl(const struct report *rep, const struct tline **out);
static size_t tl_count(const struct report *rep);
static void tl_free(struct report *rep);
/* Backtests (issue 14): at the end of the file. */
static bool bt_read(struct report *rep, const char *fmt, struct ovb_lex *lx,
	int *st);
static bool bt_given(const struct report *rep);
static void table_backtest(const struct report *rep, struct ovb_table *t);
static void bt_script(const struct report *rep, FILE *g, long group);
static int bt_select(const struct report *rep, long *group);
static int bt_figures(struct report *rep, FILE *f);
static void bt_summary(const struct report *rep, FILE *f);
static void bt_free(struct report *rep);
/* An ovb-fit answer, one per report. */
static int
read_fit(struct report *rep, struct ovb_lex *lx)
{
	struct inputs *in = &rep->in;
	if (in->fit_file) {
		ovb_err(lx, "a second ovb-fit file (the first is %s): give one "
			"answer", in->fit_file);
		return OVB_EUSAGE;
	}
	int st = ovb_fit_read(lx, &in->fit);
	if (st)
		ovb_fit_free(&in->fit);
	else
		in->fit_file = lx->name;
	return st;
}

/* Reads one input with its format's reader (ovb_read_input's take). */
static int
read_format(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	struct report *rep = ctx;
	struct inputs *in = &rep->in;
	const char *name = lx->name;
	int st;
	*OVB_PUSH(in->file, in->nfile, in->capfile) = name;
	if (!strcmp(fmt->name, "profile")) {
		struct in_prof *p = OVB_PUSH(in->prof, in->nprof, in->capprof);
		p->file = name;
		if ((st = ovb_profile_read(lx, &p->p))) {
			ovb_profile_free(&p->p);
			in->nprof--;
		}
	} else if (!strcmp(fmt->name, "usage")) {
		struct in_usage *u = OVB_PUSH(in->usage, in->nusage, in->capusage);
		u->file = name;
		if ((st = ovb_usage_read(lx, &u->u))) {
			ovb_usage_free(&u->u);
			in->nusage--;
		}
	} else if (!strcmp(fmt->name, "curve")) {
		struct in_curve *c = OVB_PUSH(in->curve, in->ncurve, in->capcurve);
		c->file = name;
		if ((st = ovb_curve_read(lx, &c->c))) {
			ovb_curve_free(&c->c);
			in->ncurve--;
		}
	} else if (!strcmp(fmt->name, "cluster") ||
	    !strcmp(fmt->name, "plan") || !strcmp(fmt->name, "apps")) {
		int k = !strcmp(fmt->name, "cluster") ? 0 :
			!strcmp(fmt->name, "plan") ? 1 : 2;
		const char **have = k == 0 ? &in->cluster_file : k == 1 ?
			&in->plan_file : &in->apps_file;
		if (*have) {
			ovb_err(lx, "a second ovb-%s file (the first is %s): give "
				"one plan, its cluster and its apps", fmt->name, *have);
			return OVB_EUSAGE;
		}
		*(k == 0 ? &in->cluster_read : k == 1 ? &in->plan_read :
			&in->apps_read) = true;
		st = k == 0 ? ovb_cluster_read(lx, &in->cluster) : k == 1 ?
			ovb_plan_read(lx, &in->plan) : ovb_apps_read(lx, &in->apps);
		if (!st)
			*have = name;
	} else if (!strcmp(fmt->name, "gain")) {
		struct ovb_gain g;
		if (!(st = ovb_gain_read(lx, &g)))
			for (size_t i = 0; i < g.n; i++)
				*OVB_PUSH(in->run, in->nrun, in->caprun) = g.run[i];
		ovb_gain_free(&g);
	} else if (!strcmp(fmt->name, "fit")) {
		st = read_fit(rep, lx);
	} else if (extra_read(rep, fmt->name, lx, &st) ||
	    tl_read(rep, fmt->name, lx, &st) || bt_read(rep, fmt->name, lx, &st)) {
		;
	} else {
		st = ovb_err(lx, "this is an ovb-%s file; ovb-report reads "
			"ovb-profile, ovb-usage, ovb-curve, ovb-cluster, ovb-plan, "
			"ovb-apps, ovb-gain, ovb-trade, ovb-bids, ovb-migrations, "
			"ovb-fit, ovb-onoff, ovb-series and ovb-backtest",
			fmt->name);
	}
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
	const struct ovb_trace *curve_trace;  /* the curve file's, or NULL */
};

static struct row *
row_of(const struct report *rep, const char *capsule, enum ovb_res res)
{
	for (size_t i = 0; i < rep->nrows; i++)
		if (rep->rows[i].res == res && !strcmp(rep->rows[i].capsule, capsule))
			return &rep->rows[i];
	return NULL;
}

/* The profile row of profile capsule name and res, or NULL. */
static const struct row *
profile_row(const struct report *rep, const char *name, enum ovb_res res)
{
	const struct row *r = row_of(rep, name, res);
	return r && r->q ? r : NULL;
}

static int
build_rows(struct report *rep)
{
	struct inputs *in = &rep->in;
	for (size_t i = 0; i < in->nprof; i++)
		for (size_t j = 0; j < in->prof[i].p.n; j++) {
			const struct ovb_qos *q = &in->prof[i].p.q[j];
			const struct row *old = row_of(rep, q->U.capsule, q->U.res);
			if (old)
				return ovb_err_at(in->prof[i].file, 0, "profile %s %s "
					"was already read from %s", q->U.capsule,
					ovb_res_name(q->U.res), old->file);
			*OVB_PUSH(rep->rows, rep->nrows, rep->caprows) = (struct row){
				q->U.capsule, q->U.res, &q->U, q,
				q->ncurve ? q->curve : NULL, q->ncurve,
				in->prof[i].file, q->ncurve ? in->prof[i].file : NULL,
				NULL };
		}
	for (size_t i = 0; i < in->nusage; i++)
		for (size_t j = 0; j < in->usage[i].u.n; j++) {
			const struct ovb_dist *d = &in->usage[i].u.d[j];
			const struct row *old = row_of(rep, d->capsule, d->res);
			if (old && old->q) {
				if (ovb_verbose)
					ovb_warn("%s: usage %s %s: the profile in %s "
						"is used instead", in->usage[i].file,
						d->capsule, ovb_res_name(d->res),
						old->file);
				continue;
			}
			if (old)
				return ovb_err_at(in->usage[i].file, 0, "usage %s %s "
					"was already read from %s", d->capsule,
					ovb_res_name(d->res), old->file);
			*OVB_PUSH(rep->rows, rep->nrows, rep->caprows) = (struct row){
				d->capsule, d->res, d, NULL, NULL, 0,
				in->usage[i].file, NULL, NULL };
		}
	for (size_t i = 0; i < in->ncurve; i++)
		for (size_t j = 0; j < in->curve[i].c.n; j++) {
			const struct ovb_curve *cv = &in->curve[i].c.c[j];
			struct row *r = row_of(rep, cv->capsule, cv->res);
			if (!r) {
				if (!ovb_quiet)
					ovb_warn("%s: curve %s %s: no profile or "
						"usage distribution of it; left out",
						in->curve[i].file, cv->capsule,
						ovb_res_name(cv->res));
				continue;
			}
			if (r->curve_file && r->curve_file != r->file)
				return ovb_err_at(in->curve[i].file, 0, "curve %s %s "
					"was already read from %s", cv->capsule,
					ovb_res_name(cv->res), r->curve_file);
			if (r->pt)
				continue;       /* the profile's own curve */
			r->pt = cv->pt;
			r->npt = cv->n;
			r->curve_file = in->curve[i].file;
			r->curve_trace = &cv->trace;
		}
	return 0;
}

/* ---- the plan: checks against the cluster, the profiles, the apps ---- */

/* The capsule the plan places, in its application's last definition in
 * the apps file (a new application or op=modify), or NULL. */
static const struct ovb_capsule *
apps_capsule(const struct report *rep, const struct ovb_placed *pl)
{
	const struct inputs *in = &rep->in;
	const struct ovb_capsule *c = NULL;
	for (size_t i = 0; i < in->apps.n; i++) {
		const struct ovb_app *a = &in->apps.app[i];
		if (strcmp(a->name, pl->app))
			continue;
		c = NULL;
		for (size_t j = 0; a->op != OVB_OP_TERMINATE && j < a->ncap; j++)
			if (!strcmp(a->cap[j].name, pl->capsule))
				c = &a->cap[j];
	}
	return c;
}

static const struct ovb_node *
node_named(const struct report *rep, const char *name)
{
	const struct inputs *in = &rep->in;
	size_t i = ovb_names_get(&in->cluster.byname, name);
	return i == OVB_NONE ? NULL : &in->cluster.node[i];
}

static int
check_plan(const struct report *rep)
{
	const struct inputs *in = &rep->in;
	if (in->apps_file && !in->plan_file) {
		ovb_warn("%s: an apps file gives a plan's lower bounds: give the "
			"ovb-plan file too", in->apps_file);
		return OVB_EUSAGE;
	}
	if (!in->plan_file)
		return 0;
	if (!in->cluster_file) {
		ovb_warn("%s: a plan needs its cluster: give the ovb-cluster file "
			"too", in->plan_file);
		return OVB_EUSAGE;
	}
	const struct ovb_plan *p = &in->plan;
	for (size_t i = 0; i < p->n; i++) {
		const struct ovb_placed *pl = &p->p[i];
		if (!node_named(rep, pl->node))
			return ovb_err_at(in->plan_file, pl->line, "place %s %s: node "
				"%s is not in the cluster (%s)", pl->app, pl->capsule,
				pl->node, in->cluster_file);
		if (in->apps_file && !apps_capsule(rep, pl))
			return ovb_err_at(in->plan_file, pl->line, "place %s %s: the "
				"apps file (%s) has no capsule %s of a live application "
				"%s", pl->app, pl->capsule, in->apps_file, pl->capsule,
				pl->app);
		if (!pl->profile)
			continue;
		bool any = false;
		for (int r = 0; r < OVB_NRES; r++)
			any |= profile_row(rep, pl->profile, (enum ovb_res)r) != NULL;
		if (!any)
			return ovb_err_at(in->plan_file, pl->line, "place %s %s: "
				"profile '%s' is in no profile file%s", pl->app,
				pl->capsule, pl->profile, in->nprof ? "" :
				" (no ovb-profile file was given)");
		for (int r = 0; r < OVB_NCAP; r++)
			if (pl->has_qos[r] && !profile_row(rep, pl->profile,
			    (enum ovb_res)r))
				return ovb_err_at(in->plan_file, pl->line,
					"place %s %s: profile '%s' has no %s block, "
					"but the plan has its qos %s", pl->app,
					pl->capsule, pl->profile,
					ovb_res_name((enum ovb_res)r),
					ovb_res_name((enum ovb_res)r));
	}
	for (size_t i = 0; i < p->nrisk; i++) {
		const struct ovb_noderisk *k = &p->risk[i];
		const struct ovb_node *n = node_named(rep, k->node);
		if (!n)
			return ovb_err_at(in->plan_file, k->line, "risk %s %s: node "
				"%s is not in the cluster (%s)", k->node,
				ovb_res_name(k->res), k->node, in->cluster_file);
		double c = n->cap[k->res];
		if (fabs(k->capacity - c) > 1e-9 * c) {
			char a[32], b[32];
			return ovb_err_at(in->plan_file, k->line, "risk %s %s: "
				"capacity %s is not the cluster's %s %s (%s)",
				k->node, ovb_res_name(k->res),
				ovb_fmt_real(a, k->capacity), ovb_fmt_real(b, c),
				ovb_res_rate_unit(k->res), in->cluster_file);
		}
	}
	return 0;
}

/* ---- nodes: the node model (lib/node.c) on the plan's placements ---- */

struct nres {
	const struct ovb_node *node;
	enum ovb_res res;
	double cap;
	size_t nmem, capmem;
	size_t *mem;                    /* indices into in.plan.p */
	struct ovb_need *need;          /* their needs, as the plan states */
	const struct ovb_noderisk *risk;
	struct ovb_nverdict v;          /* computed (lib/nstate.c, as the
	                                   placer and ovb-check decide):
	                                   Eq. 1, grid, Pr(Y > C), Eq. 3;
	                                   mem: exposure, limits */
	/* --mode tod, a rate resource with members: the node's test per
	 * window (lib/tod.c, ovb-check --mode tod's) and its windows */
	struct ovb_tod_stat *tod;
	const struct ovb_qos **q;       /* the members' profile blocks */
	int run[OVB_TOD_SLOTS + 1], nrun;
};

/* A placed capsule's needs on resource r: the plan's qos record (the
 * effective sigma, rho, tau and O), U from its profile (none: a plain
 * reservation), and lb from the apps file (none given: 0). */
static struct ovb_need
need_of(const struct report *rep, const struct ovb_placed *pl, int r)
{
	const struct inputs *in = &rep->in;
	const struct row *row = pl->profile ? profile_row(rep, pl->profile,
		(enum ovb_res)r) : NULL;
	const struct ovb_capsule *c = in->apps_file ? apps_capsule(rep, pl) : NULL;
	struct ovb_need n = { .used = true, .sigma = pl->sigma[r],
		.rho = pl->rho[r], .tau = pl->tau[r], .O = pl->O[r],
		.lb = c ? c->lb[r] : 0, .h = row ? &row->U->h : NULL,
		.interval = row ? row->U->interval : 0,
		.agg = in->plan.aggregate || in->plan.nsigma,
		.level = r == OVB_MEM,
		.limit = r == OVB_MEM ? pl->limit : 0 };
	if (r == OVB_MEM && in->plan.mem_promise)  /* the plan's mem-rule */
		ovb_need_promise(&n, in->plan.mem_O);
	return n;
}

/* --mode tod: nr's test per window of the day, on the members' windows
 * (lib/tod.c, the code ovb-check --mode tod decides by); 0, or 65 when
 * the members' windows have different clocks. */
static int
build_tod(const struct report *rep, struct nres *nr)
{
	const struct inputs *in = &rep->in;
	nr->q = ovb_xcalloc(nr->nmem, sizeof *nr->q);
	for (size_t j = 0; j < nr->nmem; j++) {
		const struct ovb_placed *pl = &in->plan.p[nr->mem[j]];
		const struct row *row = pl->profile ? profile_row(rep,
			pl->profile, nr->res) : NULL;
		nr->q[j] = row ? row->q : NULL;
	}
	nr->tod = ovb_xmalloc(sizeof *nr->tod);
	const char *why = NULL;
	if (ovb_tod_node(nr->need, nr->q, nr->nmem, nr->cap, in->plan.grid,
	    nr->tod, &why)) {
		/* the first member on another clock than the first's */
		size_t a = nr->nmem, b = nr->nmem;
		for (size_t j = 0; j < nr->nmem; j++)
			if (nr->q[j] && nr->q[j]->U.tod.has) {
				if (a == nr->nmem)
					a = j;
				else if (nr->q[j]->U.tod.offset !=
				    nr->q[a]->U.tod.offset && b == nr->nmem)
					b = j;
			}
		const struct ovb_placed *pl = &in->plan.p[nr->mem[b < nr->nmem ?
			b : nr->nmem - 1]];
		return ovb_err_at(in->plan_file, pl->line, "node %s %s: %s "
			"(--mode tod)", nr->node->name, ovb_res_name(nr->res), why);
	}
	nr->nrun = ovb_tod_runs(nr->need, nr->q, nr->nmem, nr->run);
	return 0;
}

static int
build_nodes(struct report *rep)
{
	struct inputs *in = &rep->in;
	if (!in->cluster_file)
		return 0;
	rep->nres = ovb_xcalloc(in->cluster.n * OVB_NCAP, sizeof *rep->nres);
	for (size_t i = 0; i < in->cluster.n; i++)
		for (int r = 0; r < OVB_NCAP; r++) {
			if (r == OVB_MEM ? !ovb_cluster_has_mem(&in->cluster) :
			    r >= ovb_cluster_nres(&in->cluster))
				continue;
			struct nres *nr = &rep->nres[rep->nnres++];
			nr->node = &in->cluster.node[i];
			nr->res = (enum ovb_res)r;
			nr->cap = nr->node->cap[r];
			for (size_t j = 0; j < in->plan.n; j++) {
				const struct ovb_placed *pl = &in->plan.p[j];
				if (!pl->has_qos[r] ||
				    strcmp(pl->node, nr->node->name))
					continue;
				*OVB_PUSH(nr->mem, nr->nmem, nr->capmem) = j;
			}
			nr->need = ovb_xcalloc(nr->nmem + 1, sizeof *nr->need);
			for (size_t j = 0; j < nr->nmem; j++)
				nr->need[j] = need_of(rep,
					&in->plan.p[nr->mem[j]], r);
			for (size_t j = 0; j < in->plan.nrisk; j++)
				if (in->plan.risk[j].res == nr->res &&
				    !strcmp(in->plan.risk[j].node, nr->node->name))
					nr->risk = &in->plan.risk[j];
			ovb_nstate_judge(nr->need, nr->nmem, nr->node, r,
				in->plan.grid, &nr->v);
			int st;
			if (rep->o->tod && in->plan_file && r != OVB_MEM &&
			    nr->nmem && (st = build_tod(rep, nr)))
				return st;
			const struct ovb_noderisk *k = nr->risk;
			double pr = nr->v.st.pr;
			if (k && fabs(k->risk - pr) > 1e-9 + 1e-9 * pr && !ovb_quiet) {
				char a[32], b[32];
				ovb_warn("%s:%lu: risk %s %s: Pr(Y > C) is %s in "
					"the plan but %s from the profiles given",
					in->plan_file, k->line, k->node,
					ovb_res_name(k->res), ovb_fmt_real(a, k->risk),
					ovb_fmt_real(b, pr));
			}
		}
	return 0;
}

/* What the tables show: the plan's numbers where it has them. */
static double
shown_load(const struct nres *nr)
{
	return nr->risk ? nr->risk->load : nr->v.st.eq1.load;
}

static double
shown_omin(const struct nres *nr)
{
	return nr->risk ? nr->risk->omin : nr->v.st.eq1.omin;
}

static double
shown_pr(const struct nres *nr)
{
	return nr->risk ? nr->risk->risk : nr->v.st.pr;
}

/* The checks: Eq. 1 by the node model's exact decision on the plan's
 * placements (formats/plan.md, "How a rule is decided": no margin, the
 * decision of ovb-check, whatever load the risk record states); Eq. 3 by
 * the plan's risk record when it has one (U may be missing here), else
 * the node model's exact decision. */
static bool
eq1_holds(const struct nres *nr)
{
	return nr->v.st.eq1_ok;
}

static bool
eq3_holds(const struct nres *nr)
{
	return !nr->nmem || (nr->risk ? nr->risk->risk <= nr->risk->omin :
		nr->v.st.eq3_ok);
}

/* ---- gain: runs averaged per (nodes, O) ---- */


static int
cmp_run(const void *a, const void *b)
{
	const struct ovb_run *x = a, *y = b;
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
build_gains(struct report *rep)
{
	struct inputs *in = &rep->in;
	if (in->nrun)
		ovb_qsort(in->run, in->nrun, sizeof *in->run, cmp_run);
	rep->gains = ovb_xcalloc(in->nrun ? in->nrun : 1, sizeof *rep->gains);
	for (size_t i = 0, j; i < in->nrun; i = j) {
		double sum = 0, ss = 0;
		for (j = i; j < in->nrun && in->run[j].nodes == in->run[i].nodes &&
		    in->run[j].O == in->run[i].O; j++)
			sum += (double)in->run[j].placed;
		size_t n = j - i;
		double mean = sum / (double)n;
		for (size_t k = i; k < j; k++)
			ss += ((double)in->run[k].placed - mean) *
				((double)in->run[k].placed - mean);
		struct ovb_plot_gain *g = &rep->gains[rep->ngains++];
		*g = (struct ovb_plot_gain){ in->run[i].nodes, in->run[i].O, n, mean,
			0, NAN };
		if (n > 1)
			g->ci = t975(n - 1) * sqrt(ss / (double)(n - 1)) /
				sqrt((double)n);
	}
	for (size_t i = 0; i < rep->ngains; i++)
		for (size_t k = 0; k < rep->ngains; k++)
			if (rep->gains[k].nodes == rep->gains[i].nodes &&
			    rep->gains[k].O == 0 && rep->gains[k].mean > 0)
				rep->gains[i].gain = rep->gains[i].mean /
					rep->gains[k].mean;
}

/* ---- tables (lib/table.c) ---- */

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
all_pcts(const struct report *rep, double *p, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < rep->nrows; i++)
		for (int j = 0; j < rep->rows[i].U->npct; j++) {
			bool have = false;
			for (size_t k = 0; k < n; k++)
				have |= p[k] == rep->rows[i].U->pct_p[j];
			if (!have && n < max)
				p[n++] = rep->rows[i].U->pct_p[j];
		}
	ovb_qsort(p, n, sizeof *p, cmp_double);
	return n;
}

static const struct ovb_tcol capsule_cols[] = {
	{ "capsule", "capsule", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "intervals", "intervals", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "I", "interval_s", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "bin width", "width", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "mean", "mean", NULL, OVB_TC_BOTH | OVB_TC_NUM },
};
static const struct ovb_tcol capsule_qos_cols[] = {
	{ "sigma (rate)", "sigma", "σ (rate)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "rho (burst)", "rho", "ρ (burst)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "tau", "tau_s", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "O", "O", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ NULL, "rate_unit", NULL, OVB_TC_TSV },
	{ NULL, "burst_unit", NULL, OVB_TC_TSV },
	{ NULL, "file", NULL, OVB_TC_TSV },
};

static void
table_capsules(const struct report *rep, struct ovb_table *t)
{
	double P[2 * OVB_MAXPCT];
	size_t np = all_pcts(rep, P, 2 * OVB_MAXPCT);
	t->title = "Capsules: usage distributions U and the chosen QoS";
	bool unmeasured = false;
	for (size_t i = 0; i < rep->nrows; i++)
		unmeasured |= rep->rows[i].U->unmeasured;
	t->note = unmeasured ? "percentiles: exact, from the usage files "
		"(nearest rank); sigma (rate) = the (1-O)*100th percentile, rho "
		"(burst) = rho(sigma) on the token-bucket curve; not measured: "
		"the trace did not measure the resource (no U, no QoS; never 0)" :
		"percentiles: exact, from the usage files (nearest rank); "
		"sigma (rate) = the (1-O)*100th percentile, rho (burst) = "
		"rho(sigma) on the token-bucket curve";
	OVB_TABLE_COLS(t, capsule_cols);
	for (size_t k = 0; k < np; k++) {
		char b[32];
		const char *head = ovb_table_keep(t, ovb_xasprintf("p%s",
			ovb_fmt_real(b, P[k])));
		ovb_table_col(t, head, head, OVB_TC_BOTH | OVB_TC_NUM);
	}
	OVB_TABLE_COLS(t, capsule_qos_cols);
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct row *r = &rep->rows[i];
		const struct ovb_dist *U = r->U;
		const char *ru = ovb_res_rate_unit(r->res), *bu = ovb_res_amount_unit(r->res);
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_xstrdup(r->capsule), NULL);
		ovb_table_put(t, ovb_xstrdup(ovb_res_name(r->res)), NULL);
		if (U->unmeasured) {    /* no U, no QoS: never a 0 */
			ovb_table_put(t, ovb_xstrdup("not measured"),
				ovb_xstrdup("unmeasured"));
			for (size_t k = 0; k < 3 + np + 4; k++)
				ovb_table_put(t, dash(), NULL);
			ovb_table_put(t, NULL, ovb_xstrdup(ru));
			ovb_table_put(t, NULL, ovb_xstrdup(bu));
			ovb_table_put(t, NULL, ovb_xstrdup(r->file));
			continue;
		}
		ovb_table_put(t, ovb_xasprintf("%llu", (unsigned long long)U->h.n), NULL);
		ovb_table_put(t, ovb_plot_qty(U->interval, "s"), xreal(U->interval));
		ovb_table_put(t, ovb_plot_qty(U->h.width, ru), xreal(U->h.width));
		if (U->has_mean)
			ovb_table_put(t, ovb_plot_qty(U->mean, ru), xreal(U->mean));
		else
			ovb_table_put(t, dash(), NULL);
		for (size_t k = 0; k < np; k++) {
			int j = 0;
			while (j < U->npct && U->pct_p[j] != P[k])
				j++;
			if (j < U->npct)
				ovb_table_put(t, ovb_plot_qty(U->pct_v[j], ru), xreal(U->pct_v[j]));
			else
				ovb_table_put(t, dash(), NULL);
		}
		if (r->q) {
			ovb_table_put(t, ovb_plot_qty(r->q->sigma, ru), xreal(r->q->sigma));
			ovb_table_put(t, ovb_plot_qty(r->q->rho, bu), xreal(r->q->rho));
			ovb_table_put(t, ovb_plot_qty(r->q->tau, "s"), xreal(r->q->tau));
			ovb_table_put(t, ovb_plot_qty(r->q->O, NULL), xreal(r->q->O));
		} else
			for (int k = 0; k < 4; k++)
				ovb_table_put(t, dash(), NULL);
		ovb_table_put(t, NULL, ovb_xstrdup(ru));
		ovb_table_put(t, NULL, ovb_xstrdup(bu));
		ovb_table_put(t, NULL, ovb_xstrdup(r->file));
	}
}

static const struct ovb_tcol trace_cols[] = {
	{ "capsule", "capsule", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "host", "host", NULL, OVB_TC_BOTH },
	{ "kernel", "kernel", NULL, OVB_TC_BOTH },
	{ "start (UTC)", "start", NULL, OVB_TC_BOTH },
	{ "length", "length_s", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ NULL, "file", NULL, OVB_TC_TSV },
};

static bool
row_traced(const struct row *r)
{
	return r->U->trace.has || (r->q == NULL && r->curve_trace &&
		r->curve_trace->has);
}

static const struct ovb_trace *
row_trace(const struct row *r)
{
	return r->U->trace.has ? &r->U->trace : r->curve_trace;
}

static void
table_traces(const struct report *rep, struct ovb_table *t)
{
	t->title = "Traces: where and when each capsule was measured";
	t->note = "from the perf.data header (HOSTNAME, OSRELEASE, CLOCK_DATA) "
		"through ovb-onoff's trace record; start: the wall-clock time of "
		"the trace's first instant; length: its span";
	OVB_TABLE_COLS(t, trace_cols);
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct row *r = &rep->rows[i];
		if (!row_traced(r))
			continue;
		const struct ovb_trace *tr = row_trace(r);
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_xstrdup(r->capsule), NULL);
		ovb_table_put(t, ovb_xstrdup(ovb_res_name(r->res)), NULL);
		ovb_table_put(t, ovb_xstrdup(tr->host ? tr->host : "-"), NULL);
		ovb_table_put(t, ovb_xstrdup(tr->kernel ? tr->kernel : "-"), NULL);
		ovb_table_put(t, tr->start ? ovb_xasprintf("%.19s", tr->start) : dash(),
			ovb_xstrdup(tr->start ? tr->start : "-"));
		ovb_table_put(t, ovb_plot_qty(tr->length, "s"), xreal(tr->length));
		ovb_table_put(t, NULL, ovb_xstrdup(r->file));
	}
}

static const struct ovb_tcol placement_cols[] = {
	{ "app", "app", NULL, OVB_TC_BOTH },
	{ "capsule", "capsule", NULL, OVB_TC_BOTH },
	{ "node", "node", NULL, OVB_TC_BOTH },
	{ "profile", "profile", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "sigma (rate)", "sigma", "σ (rate)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "rho (burst)", "rho", "ρ (burst)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "tau", "tau_s", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "O", "O", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "enforced by", NULL, NULL, OVB_TC_TEXT | OVB_TC_WRAP },
	{ NULL, "rate_unit", NULL, OVB_TC_TSV },
	{ NULL, "burst_unit", NULL, OVB_TC_TSV },
	{ NULL, "resv_x_cpu_s", NULL, OVB_TC_TSV },
	{ NULL, "resv_y_s", NULL, OVB_TC_TSV },
	{ NULL, "weight", NULL, OVB_TC_TSV },
	{ NULL, "bucket_rate_Bps", NULL, OVB_TC_TSV },
	{ NULL, "bucket_burst_B", NULL, OVB_TC_TSV },
};

static void
table_placements(const struct report *rep, struct ovb_table *t)
{
	const struct inputs *in = &rep->in;
	t->title = "Placements: capsule -> node, effective QoS, enforcement";
	t->note = "enforcement (section 4.1): a CPU reservation of x cpu-s "
		"every y s, or a network token bucket (rate, burst)";
	OVB_TABLE_COLS(t, placement_cols);
	for (size_t i = 0; i < in->plan.n; i++) {
		const struct ovb_placed *pl = &in->plan.p[i];
		bool any = false;
		for (int r = 0; r < OVB_NCAP || !any; r++) {
			bool has = r < OVB_NCAP && pl->has_qos[r];
			if (r < OVB_NCAP && !has)
				continue;
			any = true;
			enum ovb_res res = (enum ovb_res)(r < OVB_NCAP ? r : 0);
			ovb_table_row(t, false);
			ovb_table_put(t, ovb_xstrdup(pl->app), NULL);
			ovb_table_put(t, ovb_xstrdup(pl->capsule), NULL);
			ovb_table_put(t, ovb_xstrdup(pl->node), NULL);
			ovb_table_put(t, ovb_xstrdup(pl->profile ? pl->profile : "-"), NULL);
			if (!has) {         /* a placed capsule without qos */
				for (size_t k = 4; k < t->ncol; k++)
					ovb_table_put(t, dash(), NULL);
				break;
			}
			const char *ru = ovb_res_rate_unit(res), *bu = ovb_res_amount_unit(res);
			ovb_table_put(t, ovb_xstrdup(ovb_res_name(res)), NULL);
			ovb_table_put(t, ovb_plot_qty(pl->sigma[r], ru), xreal(pl->sigma[r]));
			ovb_table_put(t, ovb_plot_qty(pl->rho[r], bu), xreal(pl->rho[r]));
			ovb_table_put(t, ovb_plot_qty(pl->tau[r], "s"), xreal(pl->tau[r]));
			ovb_table_put(t, ovb_plot_qty(pl->O[r], NULL), xreal(pl->O[r]));
			bool cpu = res == OVB_CPU;
			if (cpu && pl->has_cpu_resv) {
				char *x = ovb_plot_qty(pl->x, "cpu-s"), *y = ovb_plot_qty(pl->y, "s");
				ovb_table_put(t, ovb_xasprintf("%s every %s, weight %.4g", x, y,
					pl->weight), NULL);
				free(x);
				free(y);
			} else if (res == OVB_NET && pl->has_tbucket) {
				char *x = ovb_plot_qty(pl->tb_sigma, "B/s"),
					*y = ovb_plot_qty(pl->tb_rho, "B");
				ovb_table_put(t, ovb_xasprintf("bucket %s, %s", x, y), NULL);
				free(x);
				free(y);
			} else
				ovb_table_put(t, dash(), NULL);
			ovb_table_put(t, NULL, ovb_xstrdup(ru));
			ovb_table_put(t, NULL, ovb_xstrdup(bu));
			/* the token bucket shapes what is sent (tc), not net-rx */
			bool c = cpu && pl->has_cpu_resv,
				b = res == OVB_NET && pl->has_tbucket;
			ovb_table_put(t, NULL, c ? xreal(pl->x) : dash());
			ovb_table_put(t, NULL, c ? xreal(pl->y) : dash());
			ovb_table_put(t, NULL, c ? xreal(pl->weight) : dash());
			ovb_table_put(t, NULL, b ? xreal(pl->tb_sigma) : dash());
			ovb_table_put(t, NULL, b ? xreal(pl->tb_rho) : dash());
		}
	}
}

static char *
members_text(const struct report *rep, const struct nres *nr)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	for (size_t i = 0; i < nr->nmem; i++) {
		const struct ovb_placed *pl = &rep->in.plan.p[nr->mem[i]];
		fprintf(f, "%s%s/%s", i ? "," : "", pl->app, pl->capsule);
	}
	if (!nr->nmem)
		fputs("-", f);
	fclose(f);
	return s;
}

/* reserved/capacity in percent: in long double, so that a tiny capacity
 * (1e-300) or a huge one (1e308) gives a number, not inf or 0 */
static char *
used_text(double load, double cap, bool tsv)
{
	long double u = 100.0L * (long double)load / (long double)cap;
	double d = (double)u;
	if (!tsv)
		return ovb_plot_used(load, cap);
	return isfinite(d) && (d != 0 || u == 0) ? xreal(d) :
		ovb_xasprintf("%.17Lg", u);
}

static const struct ovb_tcol node_cols[] = {
	{ "node", "node", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "capsules", "capsules", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "reserved", "reserved", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "capacity", "capacity", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "used", "used_pct", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "headroom", "headroom", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "Pr(Y>C) plan", "pr_plan", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "Pr(Y>C) computed", "pr_computed", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "O_min", "omin", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "check", "check", NULL, OVB_TC_BOTH | OVB_TC_CHECK },
	{ NULL, "unit", NULL, OVB_TC_TSV },
	{ NULL, "reserved_computed", NULL, OVB_TC_TSV },
	{ NULL, "omin_computed", NULL, OVB_TC_TSV },
	{ NULL, "grid", NULL, OVB_TC_TSV },
	{ "members", "members", NULL, OVB_TC_BOTH | OVB_TC_WRAP | OVB_TC_LIST },
	{ NULL, "oom_exposure", NULL, OVB_TC_TSV },
};

static char *utc_text(uint64_t s);

static void
table_nodes(const struct report *rep, struct ovb_table *t)
{
	const struct inputs *in = &rep->in;
	t->title = "Nodes: reserved vs capacity (Eq. 1), Pr(Y > C) vs O_min "
		"(Eq. 3)";
	static const char note[] = "reserved = the plan's Eq. 1 load sum "
		"(sigma tau_min + rho)(1 - O)/tau_min; Pr(Y > C): the plan's, and "
		"computed here from the capsules' U; headroom = capacity - "
		"reserved; mem (a level, in B): reserved = the sum of the "
		"requests, Y the sum of the window peaks, and the check gives "
		"the OOM exposure E[(Y-C)+] and whether the limits fit in "
		"capacity + mem-pool";
	t->note = note;
	if (in->plan.valid_until) {
		char *u = utc_text(in->plan.valid_until);
		t->note = ovb_table_keep(t, ovb_xasprintf("%s; the plan's promise "
			"is stated until %s (valid-until %llu s since the epoch)",
			note, u, (unsigned long long)in->plan.valid_until));
		free(u);
	}
	OVB_TABLE_COLS(t, node_cols);
	bool mem = ovb_cluster_has_mem(&in->cluster);
	if (!mem)               /* oom_exposure, the last, only with mem */
		t->ncol--;
	for (size_t i = 0; i < rep->nnres; i++) {
		const struct nres *nr = &rep->nres[i];
		const char *u = ovb_res_rate_unit(nr->res);
		double load = shown_load(nr);
		bool e1 = eq1_holds(nr), e3 = eq3_holds(nr);
		ovb_table_row(t, !e1 || !e3 || !nr->v.limits_ok);
		ovb_table_put(t, ovb_xstrdup(nr->node->name), NULL);
		ovb_table_put(t, ovb_xstrdup(ovb_res_name(nr->res)), NULL);
		ovb_table_put(t, ovb_xasprintf("%zu", nr->nmem), NULL);
		ovb_table_put(t, ovb_plot_qty(load, u), xreal(load));
		ovb_table_put(t, ovb_plot_qty(nr->cap, u), xreal(nr->cap));
		ovb_table_put(t, used_text(load, nr->cap, false),
			used_text(load, nr->cap, true));
		ovb_table_put(t, ovb_plot_qty(nr->cap - load, u), xreal(nr->cap - load));
		ovb_table_put(t, nr->risk ? ovb_plot_qty(nr->risk->risk, NULL) : dash(),
			nr->risk ? xreal(nr->risk->risk) : NULL);
		ovb_table_put(t, ovb_plot_qty(nr->v.st.pr, NULL), xreal(nr->v.st.pr));
		if (nr->nmem)
			ovb_table_put(t, ovb_plot_qty(shown_omin(nr), NULL), xreal(shown_omin(nr)));
		else
			ovb_table_put(t, dash(), NULL);
		const char *verdict = e1 && e3 ? "ok" : !e1 && !e3 ?
			"Eq.1+Eq.3 violated" : !e1 ? "Eq.1 violated" :
			"Eq.3 violated";
		if (nr->res == OVB_MEM) {
			char *q = ovb_plot_qty(nr->v.exposure, "B");
			ovb_table_put(t, ovb_xasprintf("%s%s, OOM exposure %s", verdict,
				nr->v.limits_ok ? "" : ", limits violated", q), NULL);
			free(q);
		} else
			ovb_table_put(t, ovb_xstrdup(verdict), NULL);
		ovb_table_put(t, NULL, ovb_xstrdup(u));
		ovb_table_put(t, NULL, xreal(nr->v.st.eq1.load));
		ovb_table_put(t, NULL, nr->nmem ? xreal(nr->v.st.eq1.omin) : dash());
		ovb_table_put(t, NULL, nr->v.st.g ? xreal(nr->v.st.g) : dash());
		ovb_table_put(t, members_text(rep, nr), NULL);
		if (mem)
			ovb_table_put(t, NULL, nr->res == OVB_MEM ? xreal(nr->v.exposure) :
				dash());
	}
}

/* ---- windows (--mode tod): each node's test per window of the day ---- */

/* The clock of nr's windows ("UTC+02:00"; the first member's with windows,
 * ovb_tod_node having refused others), or NULL. */
static char *
clock_text(const struct nres *nr, int64_t *offset)
{
	for (size_t j = 0; j < nr->nmem; j++)
		if (nr->q[j] && nr->q[j]->U.tod.has) {
			long long o = nr->q[j]->U.tod.offset, a = llabs(o);
			*offset = o;
			return ovb_xasprintf("UTC%c%02lld:%02lld%s", o < 0 ? '-' :
				'+', a / 3600, a % 3600 / 60, a % 60 ? "+" : "");
		}
	return NULL;
}

static const struct ovb_tcol window_cols[] = {
	{ "node", "node", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "days", "days", NULL, OVB_TC_BOTH },
	{ "hours", NULL, NULL, OVB_TC_TEXT | OVB_TC_NUM },
	{ NULL, "from_h", NULL, OVB_TC_TSV },
	{ NULL, "to_h", NULL, OVB_TC_TSV },
	{ "clock", "offset_s", NULL, OVB_TC_BOTH },
	{ "capacity", "capacity", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "Eq.1 load", "load", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "Pr(Y>C)", "pr", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "O_min", "omin", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "status", "status", NULL, OVB_TC_BOTH | OVB_TC_CHECK },
	{ NULL, "unit", NULL, OVB_TC_TSV },
	{ NULL, "grid", NULL, OVB_TC_TSV },
	{ NULL, "unmeasured", NULL, OVB_TC_TSV },
};

/* The members of nr without samples in slot s ("a/c,b/d"). */
static char *
unmeasured_text(const struct report *rep, const struct nres *nr, int s)
{
	char *t = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&t, &len);
	bool any = false;
	for (size_t i = 0; i < nr->nmem; i++) {
		struct ovb_need w;
		if (ovb_tod_need(&nr->need[i], nr->q[i], s, &w))
			continue;
		const struct ovb_placed *pl = &rep->in.plan.p[nr->mem[i]];
		fprintf(f, "%s%s/%s", any ? "," : "", pl->app, pl->capsule);
		any = true;
	}
	fclose(f);
	return t;
}

static void
table_windows(const struct report *rep, struct ovb_table *t)
{
	t->title = "Windows: Pr(Y > C) per node and window of the day "
		"(--mode tod)";
	t->note = "a row per node, resource and window: the hours of a "
		"weekday or weekend day in which each capsule's window "
		"(ovb-usage --tod) is the same, on the windows' clock (UTC + "
		"their offset); Eq. 1 load and Pr(Y > C) as ovb-check --mode "
		"tod computes them in that window (lib/tod.c: each capsule's "
		"sigma the window's (1-O) percentile, rho its curve there, Y the "
		"windows' U convolved), against O_min; unmeasured: a capsule has "
		"no samples in the window, nothing decided there (never taken "
		"as 0).  The plan holds in mode tod when every row is ok; the "
		"nodes table's check is the whole-U test";
	OVB_TABLE_COLS(t, window_cols);
	for (size_t i = 0; i < rep->nnres; i++) {
		const struct nres *nr = &rep->nres[i];
		if (!nr->tod)
			continue;
		const char *u = ovb_res_rate_unit(nr->res);
		int64_t off = 0;
		char *clock = clock_text(nr, &off);
		for (int k = 0; k < nr->nrun; k++) {
			int s = nr->run[k], e = nr->run[k + 1];
			const struct ovb_nodestat *ns = &nr->tod->slot[s];
			bool me = nr->tod->measured[s];
			bool ok = me && ns->eq1_ok && ns->eq3_ok;
			ovb_table_row(t, !ok);
			ovb_table_put(t, ovb_xstrdup(nr->node->name), NULL);
			ovb_table_put(t, ovb_xstrdup(ovb_res_name(nr->res)), NULL);
			ovb_table_put(t, ovb_xstrdup(ovb_tod_days_name(s / 24)),
				NULL);
			int from = s % 24, to = (e - 1) % 24 + 1;
			ovb_table_put(t, ovb_xasprintf("%d-%d h", from, to), NULL);
			ovb_table_put(t, NULL, ovb_xasprintf("%d", from));
			ovb_table_put(t, NULL, ovb_xasprintf("%d", to));
			if (clock)
				ovb_table_put(t, ovb_xstrdup(clock), ovb_xasprintf(
					"%lld", (long long)off));
			else
				ovb_table_put(t, dash(), NULL);
			ovb_table_put(t, ovb_plot_qty(nr->cap, u), xreal(nr->cap));
			bool pr_ok = me && ns->pr == ns->pr;
			ovb_table_put(t, me ? ovb_plot_qty(ns->eq1.load, u) : dash(),
				me ? xreal(ns->eq1.load) : NULL);
			ovb_table_put(t, pr_ok ? ovb_plot_qty(ns->pr, NULL) : dash(),
				pr_ok ? xreal(ns->pr) : NULL);
			double omin = me ? ns->eq1.omin : nr->v.st.eq1.omin;
			ovb_table_put(t, ovb_plot_qty(omin, NULL), xreal(omin));
			char *un = me ? dash() : unmeasured_text(rep, nr, s);
			if (!me)
				ovb_table_put(t, ovb_xasprintf("unmeasured: %s has no "
					"samples", un), ovb_xstrdup("unmeasured"));
			else if (ok)
				ovb_table_put(t, ovb_xstrdup("ok"), NULL);
			else
				ovb_table_put(t, ovb_xstrdup(!ns->eq1_ok &&
					!ns->eq3_ok ? "over C and O (Eq.1+Eq.3)" :
					!ns->eq1_ok ? "over C (Eq.1)" : "over O (Eq.3)"),
					ovb_xstrdup(!ns->eq1_ok && !ns->eq3_ok ?
					"eq1+eq3" : !ns->eq1_ok ? "eq1" : "eq3"));
			ovb_table_put(t, NULL, ovb_xstrdup(u));
			ovb_table_put(t, NULL, me && ns->g ? xreal(ns->g) : dash());
			ovb_table_put(t, NULL, un);
		}
		free(clock);
	}
}

/* The page's plot of nr per hour of the day (lib/plot.c). */
static void
windows_script(const struct report *rep, FILE *g, const struct nres *nr)
{
	double load[OVB_TOD_SLOTS], pr[OVB_TOD_SLOTS];
	for (int s = 0; s < OVB_TOD_SLOTS; s++) {
		load[s] = nr->tod->slot[s].eq1.load;
		pr[s] = nr->tod->slot[s].pr;
	}
	int64_t off;
	char *clock = clock_text(nr, &off);
	struct ovb_plot_windows w = { nr->node->name, nr->res, nr->nmem,
		nr->cap, nr->v.st.eq1.omin, clock ? clock :
		"UTC: no capsule has windows", nr->tod->measured, load, pr };
	ovb_plot_windows(g, rep->o->png, &w);
	free(clock);
}

static int figure(struct report *rep, FILE *f, enum plot kind,
	const struct pick *w, const char *caption, bool wide);

/* The windows table's figures: a node and resource each. */
static int
window_figures(struct report *rep, FILE *f)
{
	int st = 0;
	bool any = false;
	for (size_t k = 0; k < rep->nnres && !st; k++) {
		const struct nres *nr = &rep->nres[k];
		if (!nr->tod)
			continue;
		if (!any)
			fputs("<h3>Eq. 1 and Eq. 3 per hour of the day</h3>\n"
			      "<div class=\"figs\">\n", f);
		any = true;
		char *c = ovb_xasprintf("Node %s, %s, per hour of a weekday and "
			"a weekend day: the Eq. 1 load of its %zu capsule%s in the "
			"window holding the hour against the capacity C (top), and "
			"Pr(Y > C) on a log scale against O_min (bottom); a cross: "
			"an hour a capsule has no samples in, not decided.",
			nr->node->name, ovb_res_name(nr->res), nr->nmem,
			nr->nmem == 1 ? "" : "s");
		st = figure(rep, f, P_WINDOWS, &(struct pick){ .nr = nr }, c,
			false);
		free(c);
	}
	if (any)
		fputs("</div>\n", f);
	return st;
}

/* ---- applications: each one's capsules, nodes and risks; rejections with
 * what the nearest node lacks ---- */

static const struct nres *
nres_of(const struct report *rep, const char *node, int r)
{
	for (size_t i = 0; i < rep->nnres; i++)
		if ((int)rep->nres[i].res == r &&
		    !strcmp(rep->nres[i].node->name, node))
			return &rep->nres[i];
	return NULL;
}

static const struct ovb_tcol app_cols[] = {
	{ "app", "app", NULL, OVB_TC_BOTH },
	{ "capsule", "capsule", NULL, OVB_TC_BOTH },
	{ "status", "status", NULL, OVB_TC_BOTH | OVB_TC_CHECK },
	{ "node", "node", NULL, OVB_TC_BOTH },
	{ "cpu sigma (rate)", "sigma_cpu", "cpu σ (rate)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "net sigma (rate)", "sigma_net", "net σ (rate)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "O", "O", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "node Pr(Y>C) cpu", "pr_cpu", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "node Pr(Y>C) net", "pr_net", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "what the node lacks", "lacks", NULL, OVB_TC_BOTH | OVB_TC_WRAP },
	{ NULL, "reason", NULL, OVB_TC_TSV },
};

/* A rejection's reason as ovb-place writes it: "capsule C: ...; nearest N,
 * RES what it lacks, ...": the capsule, the nearest node and what it
 * lacks, each NULL-free (malloc'd; "-" when the reason does not say). */
static void
parse_reason(const char *why, char **cap, char **node, char **lacks)
{
	*cap = *node = *lacks = NULL;
	if (!strncmp(why, "capsule ", 8)) {
		size_t n = strcspn(why + 8, ": ");
		*cap = strndup(why + 8, n);
	}
	const char *p = strstr(why, "; nearest ");
	if (p) {
		p += 10;
		size_t n = strcspn(p, ", ");
		*node = strndup(p, n);
		p += n;
		if (*p == ',')
			*lacks = ovb_xstrdup(p + 2 - (p[1] != ' '));
	}
	if (!*cap)
		*cap = ovb_xstrdup("-");
	if (!*node)
		*node = ovb_xstrdup("-");
	if (!*lacks)
		*lacks = ovb_xstrdup(why);
}

static void
table_apps(const struct report *rep, struct ovb_table *t)
{
	const struct inputs *in = &rep->in;
	t->title = "Applications: capsules, nodes and risks; rejections with "
		"what the nearest node lacks";
	t->note = "sigma (rate) per resource as placed (cpu in cpu, net in "
		"B/s); node Pr(Y>C): the overflow probability of the capsule's "
		"node for that resource (the plan's, or computed); a rejected "
		"application: the capsule no node takes, the node nearest to "
		"taking it and its shortfall (Eq. 1 in the resource's unit, Eq. 3 "
		"against O_min), from the plan's reject record";
	OVB_TABLE_COLS(t, app_cols);
	for (size_t i = 0; i < in->plan.n; i++) {
		const struct ovb_placed *pl = &in->plan.p[i];
		bool first = true;
		for (size_t k = 0; k < i; k++)
			first &= strcmp(in->plan.p[k].app, pl->app) != 0;
		if (!first)
			continue;
		for (size_t j = i; j < in->plan.n; j++) {
			const struct ovb_placed *c = &in->plan.p[j];
			if (strcmp(c->app, pl->app))
				continue;
			bool bad = false;
			for (int r = 0; r < OVB_NCAP; r++) {
				const struct nres *nr = nres_of(rep, c->node, r);
				bad |= c->has_qos[r] && nr && (!eq1_holds(nr) ||
					!eq3_holds(nr));
			}
			ovb_table_row(t, bad);
			ovb_table_put(t, ovb_xstrdup(c->app), NULL);
			ovb_table_put(t, ovb_xstrdup(c->capsule), NULL);
			ovb_table_put(t, ovb_xstrdup(bad ? "placed, node violated" : "ok"),
				ovb_xstrdup(bad ? "placed-violated" : "placed"));
			ovb_table_put(t, ovb_xstrdup(c->node), NULL);
			double O = -1;
			/* the view's columns: cpu and net (net-rx is in the
			 * nodes and placements tables) */
			for (int r = 0; r <= OVB_NET; r++) {
				if (!c->has_qos[r]) {
					ovb_table_put(t, dash(), NULL);
					continue;
				}
				ovb_table_put(t, ovb_plot_qty(c->sigma[r],
					ovb_res_rate_unit((enum ovb_res)r)),
					xreal(c->sigma[r]));
				O = O < 0 ? c->O[r] : fmin(O, c->O[r]);
			}
			ovb_table_put(t, O < 0 ? dash() : ovb_plot_qty(O, NULL),
				O < 0 ? NULL : xreal(O));
			for (int r = 0; r <= OVB_NET; r++) {
				const struct nres *nr = nres_of(rep, c->node, r);
				if (!c->has_qos[r] || !nr) {
					ovb_table_put(t, dash(), NULL);
					continue;
				}
				ovb_table_put(t, ovb_plot_qty(shown_pr(nr), NULL),
					xreal(shown_pr(nr)));
			}
			ovb_table_put(t, dash(), NULL);
			ovb_table_put(t, NULL, dash());
		}
	}
	for (size_t i = 0; i < in->plan.nrej; i++) {
		const struct ovb_reject *rj = &in->plan.rej[i];
		char *cap, *node, *lacks;
		parse_reason(rj->reason, &cap, &node, &lacks);
		ovb_table_row(t, true);
		ovb_table_put(t, ovb_xstrdup(rj->app), NULL);
		ovb_table_put(t, cap, NULL);
		ovb_table_put(t, ovb_xstrdup("rejected"), NULL);
		ovb_table_put(t, node, NULL);
		for (int k = 0; k < 5; k++)
			ovb_table_put(t, dash(), NULL);
		ovb_table_put(t, lacks, NULL);
		ovb_table_put(t, NULL, ovb_xstrdup(rj->reason));
	}
}

static const struct ovb_tcol reject_cols[] = {
	{ "app", "app", NULL, OVB_TC_BOTH },
	{ "reason", "reason", NULL, OVB_TC_BOTH | OVB_TC_WRAP },
};

static void
table_rejects(const struct report *rep, struct ovb_table *t)
{
	const struct inputs *in = &rep->in;
	t->title = "Rejected applications";
	t->note = NULL;
	OVB_TABLE_COLS(t, reject_cols);
	for (size_t i = 0; i < in->plan.nrej; i++) {
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_xstrdup(in->plan.rej[i].app), NULL);
		ovb_table_put(t, ovb_xstrdup(in->plan.rej[i].reason), NULL);
	}
}

static const struct ovb_tcol gain_cols[] = {
	{ "nodes", "nodes", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "O", "O", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "runs", "runs", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "placed", "placed_mean", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "+-95%", "ci95", "±95%", OVB_TC_BOTH | OVB_TC_NUM },
	{ "gain", "gain", NULL, OVB_TC_BOTH | OVB_TC_NUM },
};

static void
table_gain(const struct report *rep, struct ovb_table *t)
{
	t->title = "Capacity gained by overbooking (applications placed)";
	t->note = "mean over the runs, 95% confidence interval (Student's t); "
		"gain = mean / mean at O = 0 on as many nodes";
	OVB_TABLE_COLS(t, gain_cols);
	for (size_t i = 0; i < rep->ngains; i++) {
		const struct ovb_plot_gain *g = &rep->gains[i];
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_xasprintf("%llu", (unsigned long long)g->nodes), NULL);
		ovb_table_put(t, ovb_plot_qty(g->O, NULL), xreal(g->O));
		ovb_table_put(t, ovb_xasprintf("%zu", g->runs), NULL);
		ovb_table_put(t, ovb_xasprintf("%.1f", g->mean), xreal(g->mean));
		ovb_table_put(t, g->runs > 1 ? ovb_xasprintf("%.1f", g->ci) : dash(),
			g->runs > 1 ? xreal(g->ci) : NULL);
		ovb_table_put(t, isnan(g->gain) ? dash() : ovb_xasprintf("%.2fx", g->gain),
			isnan(g->gain) ? NULL : xreal(g->gain));
	}
}

static const struct ovb_tcol fit_cols[] = {
	{ "O", "O", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "count", "count", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "unit", "unit", NULL, OVB_TC_BOTH },
	{ "bound", "bound", NULL, OVB_TC_BOTH },
	{ "where", "where", NULL, OVB_TC_BOTH },
};

/* An ovb-fit answer: a row per O. */
static void
table_fit(const struct report *rep, struct ovb_table *t)
{
	const struct inputs *in = &rep->in;
	bool more = in->fit.q == OVB_FIT_MORE;
	t->title = more ? "Copies that fit on top of the plan (ovb-fit)" :
		"Nodes of one shape that hold the applications (ovb-fit)";
	t->note = more ? "copies of the application against the tolerance O; "
		"where: the copies' capsules per node" : "the fewest nodes of "
		"the shape against the tolerance O";
	OVB_TABLE_COLS(t, fit_cols);
	for (size_t i = 0; i < in->fit.n; i++) {
		const struct ovb_fitpoint *p = &in->fit.p[i];
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_plot_qty(p->O, NULL), xreal(p->O));
		ovb_table_put(t, p->bound == OVB_FIT_NEVER ? dash() : ovb_xasprintf("%llu",
			(unsigned long long)p->count), NULL);
		ovb_table_put(t, ovb_xstrdup(more ? "copies" : "nodes"), NULL);
		ovb_table_put(t, ovb_xstrdup(ovb_fit_bound_name(p->bound)), NULL);
		char *w = NULL;
		size_t len = 0;
		FILE *f = ovb_xmemstream(&w, &len);
		for (size_t j = 0; j < p->nwhere; j++)
			fprintf(f, "%s%s:%llu", j ? " " : "", p->where[j].node,
				(unsigned long long)p->where[j].capsules);
		fclose(f);
		ovb_table_put(t, p->nwhere ? w : (free(w), dash()), NULL);
	}
}

/* Which tables the inputs allow. */
static bool
table_possible(const struct report *rep, enum tabid id)
{
	const struct inputs *in = &rep->in;
	switch (id) {
	case T_NODES: return in->cluster_file != NULL && (in->plan_file ||
		!market_given(rep));
	case T_WINDOWS: return rep->o->tod && in->plan_file && in->cluster_file;
	case T_APPS: case T_PLACEMENTS: case T_REJECTS:
		return in->plan_file != NULL;
	case T_CAPSULES: return rep->nrows > 0;
	case T_TRACES:
		for (size_t i = 0; i < rep->nrows; i++)
			if (row_traced(&rep->rows[i]))
				return true;
		return false;
	case T_USAGE: return tl_count(rep) > 0;
	case T_GAIN: return rep->ngains > 0;
	case T_TRADE: case T_MARKET: return extra_possible(rep, id);
	case T_FIT: return in->fit_file != NULL;
	case T_BACKTEST: return bt_given(rep);
	case NTABLE: break;
	}
	return false;
}

static const char *const table_needs[NTABLE] = { "an ovb-cluster file",
	"--mode tod, an ovb-plan and its ovb-cluster file",
	"an ovb-plan file", "an ovb-plan file", "an ovb-plan file",
	"an ovb-profile or ovb-usage file",
	"a profile, usage or curve file with trace records",
	"an ovb-onoff or ovb-series file", "a gain table",
	"an ovb-trade file", "an ovb-cluster and an ovb-bids file",
	"an ovb-fit file", "an ovb-backtest file" };

static bool
table_wanted(const struct report *rep, enum tabid id)
{
	const struct opts *o = rep->o;
	return table_possible(rep, id) && (!o->tables || o->tables & 1u << id);
}

static int
check_tables(const struct report *rep)
{
	bool any = false;
	for (int i = 0; i < NTABLE; i++) {
		if (rep->o->tables & 1u << i && !table_possible(rep, (enum tabid)i)) {
			ovb_warn("--table %s: needs %s among the inputs",
				table_names[i], table_needs[i]);
			return OVB_EUSAGE;
		}
		any |= table_wanted(rep, (enum tabid)i);
	}
	if (!any)
		return ovb_err_at(NULL, 0, "nothing to report: give profiles, "
			"usage distributions, a cluster (and plan), a gain table, "
			"an ovb-fit answer, ovb-onoff or ovb-series files, or an "
			"ovb-backtest file");
	return 0;
}

/* The maker of each table, a row per table. */
static void (*const table_make[NTABLE])(const struct report *,
	struct ovb_table *) = {
	[T_NODES] = table_nodes, [T_WINDOWS] = table_windows,
	[T_APPS] = table_apps,
	[T_PLACEMENTS] = table_placements, [T_REJECTS] = table_rejects,
	[T_CAPSULES] = table_capsules, [T_TRACES] = table_traces,
	[T_USAGE] = table_usage, [T_GAIN] = table_gain,
	[T_TRADE] = table_trade, [T_MARKET] = table_market,
	[T_FIT] = table_fit, [T_BACKTEST] = table_backtest };

static void
make_table(const struct report *rep, struct ovb_table *t, enum tabid id)
{
	memset(t, 0, sizeof *t);
	t->id = id;
	table_make[id](rep, t);
}

static int
write_tables(const struct report *rep, FILE *f)
{
	int n = 0;
	for (int i = 0; i < NTABLE; i++)
		n += table_wanted(rep, (enum tabid)i);
	bool first = true;
	for (int i = 0; i < NTABLE; i++) {
		if (!table_wanted(rep, (enum tabid)i))
			continue;
		struct ovb_table t;
		make_table(rep, &t, (enum tabid)i);
		if (!first)
			fputc('\n', f);
		first = false;
		if (rep->o->format == F_TSV) {
			if (n > 1)
				fprintf(f, "# %s\n", table_names[i]);
			ovb_table_tsv(f, &t);
		} else
			ovb_table_text(f, &t);
		ovb_table_free(&t);
	}
	return 0;
}

/* ---- one plot: selection and rendering ---- */

static void
list_rows(const struct report *rep, char *buf, size_t size, bool need_curve)
{
	size_t len = 0, k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < rep->nrows && len + 1 < size; i++) {
		if (need_curve && !rep->rows[i].pt)
			continue;
		if (k++ == 12) {
			snprintf(buf + len, size - len, ", ...");
			break;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s%s %s",
			k > 1 ? ", " : "", rep->rows[i].capsule,
			ovb_res_name(rep->rows[i].res));
	}
	if (len >= size)
		buf[size - 1] = '\0';
}

static int
select_row(const struct report *rep, const struct row **out)
{
	const struct opts *o = rep->o;
	bool need_curve = o->plot == P_CURVE;
	const struct row *found = NULL;
	size_t n = 0;
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct row *r = &rep->rows[i];
		if ((o->capsule && strcmp(r->capsule, o->capsule)) ||
		    (o->res >= 0 && r->res != (enum ovb_res)o->res) ||
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
	list_rows(rep, have, sizeof have, need_curve);
	if (n == 0)
		ovb_warn("--plot %s: no %s%s%s%s%s in the inputs%s%s",
			plot_names[o->plot], need_curve ? "curve of " : "capsule",
			o->capsule ? " " : "", o->capsule ? o->capsule : "",
			o->res >= 0 ? " " : "",
			o->res >= 0 ? ovb_res_name((enum ovb_res)o->res) : "",
			*have ? "; there are: " : "", have);
	else
		ovb_warn("--plot %s: choose one with --capsule and --res: %s",
			plot_names[o->plot], have);
	return OVB_EUSAGE;
}

static int
select_node(const struct report *rep, const struct nres **out)
{
	const struct opts *o = rep->o;
	const struct nres *found = NULL;
	size_t n = 0, nused = 0;
	const struct nres *used = NULL;
	for (size_t i = 0; i < rep->nnres; i++) {
		const struct nres *nr = &rep->nres[i];
		if ((o->node && strcmp(nr->node->name, o->node)) ||
		    (o->res >= 0 && nr->res != (enum ovb_res)o->res))
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
		ovb_warn("--plot node: no node%s%s%s%s in the cluster", o->node ?
			" " : "", o->node ? o->node : "", o->res >= 0 ?
			" with resource " : "", o->res >= 0 ?
			ovb_res_name((enum ovb_res)o->res) : "");
	else
		ovb_warn("--plot node: choose one with --node and --res (cpu, "
			"net, net-rx or mem)");
	return OVB_EUSAGE;
}

/* The script of one plot, from the report's data in the plot's types. */
static void
script(const struct report *rep, FILE *g, enum plot kind, const struct pick *w)
{
	const struct opts *o = rep->o;
	const struct inputs *in = &rep->in;
	switch (kind) {
	case P_PDF: case P_CDF: case P_CURVE: {
		const struct row *r = w->row;
		const struct ovb_dist *U = r->U;
		const struct ovb_qos *q = r->q;
		struct ovb_plot_capsule c = { r->capsule, r->res, U->interval,
			U->h.width, U->h.n, U->h.nbins, U->h.count, U->has_mean,
			U->mean, U->npct, U->pct_p, U->pct_v, q != NULL,
			q ? q->sigma : 0, q ? q->rho : 0, q ? q->O : 0, r->npt,
			r->pt };
		(kind == P_PDF ? ovb_plot_pdf : kind == P_CDF ? ovb_plot_cdf :
			ovb_plot_curve)(g, o->png, &c);
		break;
	}
	case P_NODE: {
		const struct nres *nr = w->nr;
		/* Y kept whole (not clipped at C), to draw */
		struct ovb_pmf y = { 0 };
		double plain = 0;
		if (nr->v.st.g)
			ovb_node_y(nr->need, nr->nmem, NULL, nr->v.st.g, INFINITY, &y);
		for (size_t i = 0; i < nr->nmem; i++)
			plain += nr->need[i].h ? 0 : nr->need[i].sigma;
		struct ovb_plot_node n = { nr->node->name, nr->res, nr->nmem,
			nr->cap, shown_load(nr), shown_omin(nr), shown_pr(nr),
			nr->risk != NULL, eq1_holds(nr), eq3_holds(nr),
			nr->v.st.g ? &y : NULL, plain };
		ovb_plot_node(g, o->png, &n);
		ovb_pmf_free(&y);
		break;
	}
	case P_CLUSTER: {
		struct ovb_plot_load *v = ovb_xcalloc(rep->nnres, sizeof *v);
		for (size_t i = 0; i < rep->nnres; i++)
			v[i] = (struct ovb_plot_load){ rep->nres[i].node->name,
				rep->nres[i].res, rep->nres[i].cap,
				shown_load(&rep->nres[i]), !eq1_holds(&rep->nres[i]) };
		ovb_plot_cluster(g, o->png, v, rep->nnres, in->cluster.n);
		free(v);
		break;
	}
	case P_GAIN: ovb_plot_gain(g, o->png, rep->gains, rep->ngains); break;
	case P_TRADE: plot_trade(rep, g); break;
	case P_FIT: ovb_plot_fit(g, o->png, &in->fit); break;
	case P_USAGE: tl_script(rep, g, w->tl); break;
	case P_BACKTEST: bt_script(rep, g, w->group); break;
	case P_WINDOWS: windows_script(rep, g, w->nr); break;
	case P_NONE: case NPLOT: break;
	}
}

/* What --plot draws: the capsule (pdf, cdf, curve) or node it names. */
static int
plot_select(const struct report *rep, enum plot kind, struct pick *w)
{
	const struct inputs *in = &rep->in;
	switch (kind) {
	case P_PDF: case P_CDF: case P_CURVE:
		if (!rep->nrows) {
			ovb_warn("--plot %s: needs an ovb-profile or ovb-usage file",
				plot_names[kind]);
			return OVB_EUSAGE;
		}
		return select_row(rep, &w->row);
	case P_NODE: case P_CLUSTER:
		if (!in->cluster_file) {
			ovb_warn("--plot %s: needs an ovb-cluster file (and plan)",
				plot_names[kind]);
			return OVB_EUSAGE;
		}
		return kind == P_NODE ? select_node(rep, &w->nr) : 0;
	case P_GAIN:
		if (!rep->ngains) {
			ovb_warn("--plot gain: needs a gain table (ovb-gain)");
			return OVB_EUSAGE;
		}
		return 0;
	case P_TRADE:
		if (!extra_possible(rep, T_TRADE)) {
			ovb_warn("--plot trade: needs an ovb-trade file");
			return OVB_EUSAGE;
		}
		return 0;
	case P_FIT:
		if (!in->fit_file) {
			ovb_warn("--plot fit: needs an ovb-fit answer");
			return OVB_EUSAGE;
		}
		return 0;
	case P_USAGE:
		if (!tl_count(rep)) {
			ovb_warn("--plot usage: needs an ovb-onoff or ovb-series "
				"file");
			return OVB_EUSAGE;
		}
		return select_tl(rep, &w->tl);
	case P_BACKTEST:
		if (!bt_given(rep)) {
			ovb_warn("--plot backtest: needs an ovb-backtest file");
			return OVB_EUSAGE;
		}
		return bt_select(rep, &w->group);
	case P_WINDOWS: case P_NONE: case NPLOT:
		break;
	}
	return OVB_ESOFT;
}

static int
do_plot(const struct report *rep)
{
	struct pick w = { .group = -1 };
	int st = plot_select(rep, rep->o->plot, &w);
	if (st)
		return st;
	char *text = NULL;
	size_t len = 0;
	FILE *g = open_memstream(&text, &len);
	script(rep, g, rep->o->plot, &w);
	fclose(g);
	/* gnuplot's output comes back here and is written by us, so that a
	 * write error (a full disk, a closed pipe) is ours to see: gnuplot
	 * exits 0 after failing to write its own stdout */
	char *img = NULL;
	size_t nimg = 0;
	st = ovb_plot_capture(text, len, &img, &nimg);
	struct ovb_out o;
	if (!st && !(st = ovb_out_open(&o, ovb_opt_output))) {
		fwrite(img, 1, nimg, o.f);
		st = ovb_out_end(&o, 0);
	}
	free(img);
	free(text);
	return st;
}

/* ---- the HTML page ---- */

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


/* Renders one plot into the page as a figure; 0 or the error. */
static int
figure(struct report *rep, FILE *f, enum plot kind, const struct pick *w,
	const char *caption, bool wide)
{
	struct figs *F = &rep->F;
	char *text = NULL;
	size_t len = 0;
	FILE *g = open_memstream(&text, &len);
	script(rep, g, kind, w);
	fclose(g);
	if (F->collect) {
		F->script = ovb_xrealloc(F->script, F->count + 1, sizeof *F->script);
		F->len = ovb_xrealloc(F->len, F->count + 1, sizeof *F->len);
		F->script[F->count] = text;
		F->len[F->count++] = len;
		return 0;
	}
	char *svg;
	size_t n;
	int st = 0;
	if (F->next < F->count && F->svg) {
		svg = F->svg[F->next];
		n = F->n[F->next];
		F->svg[F->next++] = NULL;
	} else
		st = ovb_plot_capture(text, len, &svg, &n);
	free(text);
	if (st)
		return st;
	F->nfig++;
	/* never wider than drawn: the fonts stay at their size */
	const char *wp = strstr(svg, " width=\"");
	int width = wp ? atoi(wp + 8) : 0;
	fprintf(f, "<figure%s id=\"fig%d\"", wide ? " class=\"wide\"" : "",
		F->nfig);
	if (width > 0)
		fprintf(f, " style=\"max-width:%dpx\"", width + 14);
	fputs(">", f);
	ovb_plot_embed(f, svg, n, F->nfig, caption);
	fputs("<figcaption>", f);
	ovb_plot_html(f, caption);
	fputs("</figcaption></figure>\n", f);
	free(svg);
	return 0;
}

static bool
plots_on(const struct report *rep)
{
	return !rep->o->noplots;
}

/* Where and when the capsules were measured: the hosts and kernels, the
 * earliest start and the traces' lengths. */
static void
html_traces(const struct report *rep, FILE *f)
{
	size_t n = 0;
	const char *first = NULL, *last = NULL;
	double lmin = INFINITY, lmax = 0;
	struct ovb_names hosts = { 0 }, kernels = { 0 };
	char *hl = NULL, *kl = NULL;
	size_t hn = 0, kn = 0;
	FILE *hf = open_memstream(&hl, &hn), *kf = open_memstream(&kl, &kn);
	for (size_t i = 0; i < rep->nrows; i++) {
		if (!row_traced(&rep->rows[i]) || rep->rows[i].U->unmeasured)
			continue;
		const struct ovb_trace *t = row_trace(&rep->rows[i]);
		n++;
		const char *h = t->host ? t->host : "unknown",
			*k = t->kernel ? t->kernel : "unknown";
		if (ovb_names_get(&hosts, h) == OVB_NONE) {
			fprintf(hf, "%s%s", hosts.n ? ", " : "", h);
			ovb_names_add(&hosts, h, 0);
		}
		if (ovb_names_get(&kernels, k) == OVB_NONE) {
			fprintf(kf, "%s%s", kernels.n ? ", " : "", k);
			ovb_names_add(&kernels, k, 0);
		}
		if (t->start && (!first || strcmp(t->start, first) < 0))
			first = t->start;
		if (t->start && (!last || strcmp(t->start, last) > 0))
			last = t->start;
		lmin = fmin(lmin, t->length);
		lmax = fmax(lmax, t->length);
	}
	fclose(hf);
	fclose(kf);
	if (n) {
		char *a = ovb_plot_qty(lmin, "s"), *b = ovb_plot_qty(lmax, "s");
		fprintf(f, "<li>Measured (<a href=\"#traces\">traces</a>): %zu of "
			"them on host ", n);
		ovb_plot_html(f, hl);
		fputs(", kernel ", f);
		ovb_plot_html(f, kl);
		if (first) {
			fprintf(f, ", traces starting %.19s", first);
			if (strcmp(first, last))
				fprintf(f, " to %.19s", last);
			fputs(" UTC", f);
		}
		fprintf(f, ", %s%s%s long.</li>\n", a, lmin == lmax ? "" : " to ",
			lmin == lmax ? "" : b);
		free(a);
		free(b);
	}
	free(hl);
	free(kl);
	ovb_names_free(&hosts);
	ovb_names_free(&kernels);
}

static void
html_summary(const struct report *rep, FILE *f)
{
	const struct inputs *in = &rep->in;
	fputs("<ul class=\"sum\">\n", f);
	if (rep->nrows) {
		size_t np = 0, nu = 0;
		for (size_t i = 0; i < rep->nrows; i++) {
			nu += rep->rows[i].U->unmeasured;
			np += rep->rows[i].q != NULL && !rep->rows[i].U->unmeasured;
		}
		fprintf(f, "<li>%zu capsule resource%s profiled (%zu with a QoS "
			"profile)", rep->nrows - nu, rep->nrows - nu == 1 ? "" : "s",
			np);
		if (nu)
			fprintf(f, "; %zu not measured by their traces", nu);
		fputs(".</li>\n", f);
		html_traces(rep, f);
	}
	if (in->cluster_file) {
		size_t used = 0;
		for (size_t i = 0; i < in->cluster.n; i++) {
			bool any = false;
			for (size_t j = 0; j < in->plan.n; j++)
				any |= !strcmp(in->plan.p[j].node,
					in->cluster.node[i].name);
			used += any;
		}
		fprintf(f, "<li>Cluster: %zu node%s; ", in->cluster.n,
			in->cluster.n == 1 ? "" : "s");
		if (in->plan_file) {
			size_t napps = 0;
			for (size_t j = 0; j < in->plan.n; j++) {
				bool seen = false;
				for (size_t k = 0; k < j; k++)
					seen |= !strcmp(in->plan.p[k].app,
						in->plan.p[j].app);
				napps += !seen;
			}
			fprintf(f, "plan: %zu capsule%s of %zu application%s placed "
				"on %zu node%s, %zu application%s rejected.</li>\n",
				in->plan.n, in->plan.n == 1 ? "" : "s", napps,
				napps == 1 ? "" : "s", used, used == 1 ? "" : "s",
				in->plan.nrej, in->plan.nrej == 1 ? "" : "s");
		} else
			fputs("no plan.</li>\n", f);
		size_t bad = 0;
		const struct nres *worst = NULL;
		for (size_t i = 0; i < rep->nnres; i++) {
			const struct nres *nr = &rep->nres[i];
			bad += !eq1_holds(nr) || !eq3_holds(nr);
			if (nr->nmem && (!worst || shown_pr(nr) > shown_pr(worst)))
				worst = nr;
		}
		fprintf(f, "<li>Eq. 1 (reserved ≤ capacity) and Eq. 3 (Pr(Y > C) ≤ "
			"O_min): %s.</li>\n", bad ? "<span class=\"bad\">violated "
			"on some nodes (highlighted)</span>" : "<span class=\"ok\">"
			"hold on every node</span>");
		if (worst) {
			char *p = ovb_plot_qty(shown_pr(worst), NULL),
				*o = ovb_plot_qty(shown_omin(worst), NULL);
			fprintf(f, "<li>Largest overflow risk: node ");
			ovb_plot_html(f, worst->node->name);
			fprintf(f, " %s, Pr(Y &gt; C) = %s against O_min = %s.</li>\n",
				ovb_res_name(worst->res), p, o);
			free(p);
			free(o);
		}
	}
	if (rep->ngains) {
		const struct ovb_plot_gain *best = NULL;
		for (size_t i = 0; i < rep->ngains; i++)
			if (!isnan(rep->gains[i].gain) && (!best ||
			    rep->gains[i].gain > best->gain))
				best = &rep->gains[i];
		fprintf(f, "<li>Capacity experiment: %zu run%s", in->nrun,
			in->nrun == 1 ? "" : "s");
		if (best)
			fprintf(f, "; the largest gain is %.2fx (%llu nodes, O = "
				"%.4g)", best->gain, (unsigned long long)best->nodes,
				best->O);
		fputs(".</li>\n", f);
	}
	if (bt_given(rep))
		bt_summary(rep, f);
	fputs("</ul>\n", f);
}

/* Y of every node and resource with capsules. */
static int
node_figures(struct report *rep, FILE *f)
{
	int st = 0;
	bool any = false;
	for (size_t k = 0; k < rep->nnres && !st; k++) {
		const struct nres *nr = &rep->nres[k];
		if (!nr->nmem)
			continue;
		if (!any)
			fputs("<h3>Aggregate usage Y per node</h3>\n"
			      "<div class=\"figs\">\n", f);
		any = true;
		char *c = ovb_xasprintf("Node %s, %s: the distribution of Y, the "
			"usage of its %zu capsule%s summed (top; red: above the "
			"capacity C), and Pr(Y > x) on a log scale against O_min "
			"(bottom).", nr->node->name, ovb_res_name(nr->res),
			nr->nmem, nr->nmem == 1 ? "" : "s");
		st = figure(rep, f, P_NODE, &(struct pick){ .nr = nr }, c,
			false);
		free(c);
	}
	if (any)
		fputs("</div>\n", f);
	return st;
}

/* U (pdf and cdf) and rho(sigma) of one capsule and resource. */
static int
capsule_figures(struct report *rep, FILE *f, const struct row *r, size_t k)
{
	const char *cap = r->capsule, *res = ovb_res_name(r->res);
	fprintf(f, "<h3 id=\"cap-%zu\">", k);
	ovb_plot_html(f, cap);
	fprintf(f, " · %s</h3>\n<div class=\"figs\">\n", res);
	char *c = ovb_xasprintf("%s %s: usage distribution U (share of "
		"measurement intervals per bin) with its percentiles%s.", cap,
		res, r->q ? " and the chosen σ" : "");
	int st = figure(rep, f, P_PDF, &(struct pick){ .row = r }, c,
			false);
	free(c);
	if (!st) {
		c = ovb_xasprintf("%s %s: cumulative distribution of U with the exact "
			"percentiles.", cap, res);
		st = figure(rep, f, P_CDF, &(struct pick){ .row = r }, c,
			false);
		free(c);
	}
	if (!st && r->pt) {
		c = ovb_xasprintf("%s %s: token-bucket curve ρ(σ), the least burst at "
			"each rate%s.", cap, res, r->q ? ", and the chosen (σ, ρ)" :
			"");
		st = figure(rep, f, P_CURVE, &(struct pick){ .row = r }, c,
			false);
		free(c);
	}
	fputs("</div>\n", f);
	return st;
}

static int
html_page(struct report *rep, FILE *f)
{
	const struct opts *o = rep->o;
	struct inputs *in = &rep->in;
	int st = 0;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	      "content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"ovb-report (overbook "
	      OVB_VERSION ")\">\n<title>", f);
	ovb_plot_html(f, o->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n"
		"<h1>", css);
	ovb_plot_html(f, o->title);
	fputs("</h1>\n<p class=\"meta\">Inputs: ", f);
	for (size_t i = 0; i < in->nfile; i++) {
		if (i)
			fputs(", ", f);
		fputs("<code>", f);
		ovb_plot_html(f, in->file[i]);
		fputs("</code>", f);
	}
	fputs("</p>\n<nav>", f);
	static const char *const heads[NTABLE] = { "Nodes", "Windows",
		"Applications",
		"Placements", "Rejected applications", "Capsules", "Traces",
		"Usage over time", "Overbooking gain", "Trading", "Market",
		"Capacity against O", "Backtest" };
	for (int i = 0; i < NTABLE; i++)
		if (table_wanted(rep, (enum tabid)i))
			fprintf(f, "<a href=\"#%s\">%s</a>", table_names[i],
				heads[i]);
	fputs("</nav>\n</header>\n<main>\n<h2 id=\"summary\">Summary</h2>\n", f);
	html_summary(rep, f);
	for (int i = 0; i < NTABLE && !st; i++) {
		enum tabid id = (enum tabid)i;
		if (!table_wanted(rep, id))
			continue;
		struct ovb_table t;
		make_table(rep, &t, id);
		fprintf(f, "<section id=\"%s\">\n<h2>", table_names[i]);
		ovb_plot_html(f, t.title);
		fputs("</h2>\n", f);
		if (id == T_NODES && plots_on(rep)) {
			fputs("<div class=\"figs\">\n", f);
			st = figure(rep, f, P_CLUSTER, NULL, "Reserved (the Eq. 1 "
				"load) against capacity, per node and resource; the "
				"percentage is reserved/capacity.", true);
			fputs("</div>\n", f);
		}
		if (!st)
			ovb_table_html(f, &t);
		if (id == T_NODES && plots_on(rep) && !st)
			st = node_figures(rep, f);
		if (id == T_WINDOWS && plots_on(rep) && !st)
			st = window_figures(rep, f);
		if (id == T_CAPSULES && plots_on(rep))
			for (size_t k = 0; k < rep->nrows && !st; k++)
				st = capsule_figures(rep, f, &rep->rows[k], k);
		if (id == T_USAGE && plots_on(rep) && !st)
			st = usage_figures(rep, f);
		if (id == T_TRADE && plots_on(rep) && !st) {
			fputs("<div class=\"figs\">\n", f);
			st = figure(rep, f, P_TRADE, NULL, "Per day: the mean "
				"lent (R - A over the lenders) and the node-intervals "
				"whose usage is above capacity, a line per replay.",
				true);
			fputs("</div>\n", f);
		}
		if (id == T_GAIN && plots_on(rep) && !st) {
			fputs("<div class=\"figs\">\n", f);
			st = figure(rep, f, P_GAIN, NULL, "Applications placed "
				"against the overbooking tolerance O, per cluster size "
				"(as Fig. 7 of the paper).", false);
			fputs("</div>\n", f);
		}
		if (id == T_FIT && plots_on(rep) && !st) {
			fputs("<div class=\"figs\">\n", f);
			st = figure(rep, f, P_FIT, NULL, in->fit.q == OVB_FIT_MORE ?
				"Copies of the application that fit on top of the "
				"plan, against the overbooking tolerance O." : "The "
				"fewest nodes of the shape that hold the applications, "
				"against the overbooking tolerance O.", false);
			fputs("</div>\n", f);
		}
		if (id == T_BACKTEST && plots_on(rep) && !st)
			st = bt_figures(rep, f);
		fputs("</section>\n", f);
		ovb_table_free(&t);
	}
	fputs("</main>\n<footer>Made by ovb-report (overbook " OVB_VERSION
	      "). Units: cpu = CPUs busy (CPU-seconds per second), cpu-s = "
	      "CPU-seconds, B/s and B = bytes (k, M, G: powers of 1000). "
	      "σ is the token bucket's rate, ρ its burst.</footer>\n"
	      "</body>\n</html>\n", f);
	return st;
}

/* The figures of the page, drawn before it is written: one gnuplot for
 * all (demo plan: 27 figures, 4.0 s one by one, bench/README.md).  When
 * that fails, nothing is kept and the page draws them one by one, so a
 * failure is reported at its figure as before. */
static void
draw_all(struct report *rep)
{
	struct figs *F = &rep->F;
	char *junk = NULL;
	size_t jlen = 0;
	FILE *m = open_memstream(&junk, &jlen);
	F->collect = true;
	int st = html_page(rep, m);
	F->collect = false;
	fclose(m);
	free(junk);
	F->nfig = 0;
	if (st || !F->count)
		return;
	F->svg = ovb_xcalloc(F->count, sizeof *F->svg);
	F->n = ovb_xcalloc(F->count, sizeof *F->n);
	FILE *null = fopen("/dev/null", "w");
	ovb_set_errout(null);
	st = ovb_plot_capture_all(F->script, F->len, F->count, F->svg, F->n);
	ovb_set_errout(NULL);
	if (null)
		fclose(null);
	if (st) {
		free(F->svg);
		free(F->n);
		F->svg = NULL;
		F->n = NULL;
	}
}

static int
do_tables(struct report *rep)
{
	struct figs *F = &rep->F;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (rep->o->format == F_HTML && plots_on(rep))
		draw_all(rep);
	int st = rep->o->format == F_HTML ? html_page(rep, m) : write_tables(rep, m);
	fclose(m);
	for (size_t i = 0; i < F->count; i++) {
		free(F->script[i]);
		if (F->svg)
			free(F->svg[i]);
	}
	free(F->script), free(F->len), free(F->svg), free(F->n);
	struct ovb_out o;
	if (!st && !(st = ovb_out_open(&o, ovb_opt_output))) {
		fwrite(buf, 1, len, o.f);
		st = ovb_out_end(&o, 0);
	}
	free(buf);
	return st;
}

static void
free_all(struct report *rep)
{
	struct inputs *in = &rep->in;
	for (size_t i = 0; i < in->nprof; i++)
		ovb_profile_free(&in->prof[i].p);
	for (size_t i = 0; i < in->nusage; i++)
		ovb_usage_free(&in->usage[i].u);
	for (size_t i = 0; i < in->ncurve; i++)
		ovb_curve_free(&in->curve[i].c);
	free(in->prof);
	free(in->usage);
	free(in->curve);
	if (in->cluster_read)
		ovb_cluster_free(&in->cluster);
	if (in->plan_read)
		ovb_plan_free(&in->plan);
	if (in->apps_read)
		ovb_apps_free(&in->apps);
	free(in->run);
	ovb_fit_free(&in->fit);
	free(in->file);
	free(rep->rows);
	for (size_t i = 0; i < rep->nnres; i++) {
		free(rep->nres[i].mem);
		free(rep->nres[i].need);
		free(rep->nres[i].tod);
		free(rep->nres[i].q);
	}
	free(rep->nres);
	free(rep->gains);
	extra_free(rep);
	tl_free(rep);
	bt_free(rep);
}

/* ---- trading replays (ovb-trade, issue 12) and markets (issue 13) ---- */

struct in_trade {
	const char *file;
	struct ovb_trade t;
	struct ovb_trade_month *mo;
	struct ovb_trade_day *day;
	size_t nmo, nday;
};

static bool
extra_read(struct report *rep, const char *fmt, struct ovb_lex *lx, int *st)
{
	struct extra *ex = &rep->ex;
	if (!strcmp(fmt, "trade")) {
		struct in_trade *r = OVB_PUSH(ex->tr, ex->ntr, ex->captr);
		memset(r, 0, sizeof *r);
		r->file = lx->name;
		if ((*st = ovb_trade_read(lx, &r->t))) {
			ovb_trade_free(&r->t);
			ex->ntr--;
		} else
			r->nmo = ovb_trade_months(&r->t, &r->mo, &r->day,
				&r->nday);
		return true;
	}
	if (!strcmp(fmt, "bids") || !strcmp(fmt, "migrations")) {
		bool b = !strcmp(fmt, "bids");
		const char **have = b ? &ex->bids_file : &ex->mig_file;
		if (*have) {
			*st = ovb_err(lx, "a second ovb-%s file (the first is %s)",
				fmt, *have);
			return true;
		}
		*(b ? &ex->bids_read : &ex->mig_read) = true;
		*st = b ? ovb_bids_read(lx, &ex->bids) :
			ovb_migrations_read(lx, &ex->mig);
		if (!*st)
			*have = lx->name;
		return true;
	}
	return false;
}

static bool
market_given(const struct report *rep)
{
	return rep->ex.bids_file != NULL;
}

static bool
extra_possible(const struct report *rep, enum tabid id)
{
	const struct extra *ex = &rep->ex;
	return id == T_TRADE ? ex->ntr > 0 : id == T_MARKET ?
		ex->bids_file && rep->in.cluster_file : false;
}

/* A replay's label: trading or not, enforcement, reclaim rule. */
static char *
trade_label(const struct in_trade *r)
{
	bool any = false;
	for (size_t i = 0; i < r->t.napp; i++)
		any |= r->t.app[i].trade;
	return any ? ovb_xasprintf("%s, %s", r->t.enforce, r->t.reclaim) :
		ovb_xasprintf("no trading");
}

static const struct ovb_tcol trade_cols[] = {
	{ "replay", "replay", NULL, OVB_TC_BOTH },
	{ "file", "file", NULL, OVB_TC_BOTH },
	{ "month", "month", NULL, OVB_TC_BOTH },
	{ "intervals", "intervals", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "lent, mean", "lent_mean", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "usage above A", "above_A_fraction", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "nodes above capacity", "node_intervals_over", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "node-intervals", "node_intervals", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "reclaims", "reclaims", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "back to R: median/90th/max", "recovery_median_p90_max", NULL,
	  OVB_TC_BOTH },
	{ "abandoned", "abandoned", NULL, OVB_TC_BOTH | OVB_TC_NUM },
};

static void
table_trade(const struct report *rep, struct ovb_table *t)
{
	const struct extra *ex = &rep->ex;
	t->title = "Resource trading replayed (Sharc), per month";
	t->note = "lent: the mean over the month's intervals of the sum of R - "
		"A over the capsules lending (A < R), in the resource's rate "
		"unit; usage above A: the capsule-intervals whose usage exceeds "
		"their allocation; nodes above capacity: node-intervals whose "
		"usage sum is above the node's capacity; reclaims: from a "
		"lender's first interval of class reclaim until its allocation "
		"is R again, in intervals (in the month it ends), abandoned when "
		"the usage falls back first.";
	OVB_TABLE_COLS(t, trade_cols);
	for (size_t i = 0; i < ex->ntr; i++) {
		const struct in_trade *r = &ex->tr[i];
		const char *unit = r->t.res && !strcmp(r->t.res, "net") ?
			"B/s" : "cpu";
		for (size_t k = 0; k < r->nmo; k++) {
			const struct ovb_trade_month *m = &r->mo[k];
			double lent = m->intervals ? m->lent /
				(double)m->intervals : 0;
			double above = m->rows ? (double)m->above_A /
				(double)m->rows : 0;
			ovb_table_row(t, false);
			ovb_table_put(t, trade_label(r), NULL);
			ovb_table_put(t, ovb_xstrdup(r->file), NULL);
			ovb_table_put(t, ovb_xasprintf("%04lld-%02d", (long long)(m->month / 12),
				(int)(m->month % 12) + 1), NULL);
			ovb_table_put(t, ovb_xasprintf("%zu", m->intervals), NULL);
			ovb_table_put(t, ovb_plot_qty(lent, unit), xreal(lent));
			ovb_table_put(t, ovb_xasprintf("%.2f%%", 100 * above), xreal(above));
			ovb_table_put(t, ovb_xasprintf("%zu", m->node_over), NULL);
			ovb_table_put(t, ovb_xasprintf("%zu", m->node_intervals), NULL);
			ovb_table_put(t, ovb_xasprintf("%zu", m->reclaims), NULL);
			ovb_table_put(t, m->reclaims ? ovb_xasprintf("%llu / %llu / %llu",
				(unsigned long long)m->rec_median,
				(unsigned long long)m->rec_p90,
				(unsigned long long)m->rec_max) : dash(),
				m->reclaims ? ovb_xasprintf("%llu/%llu/%llu",
				(unsigned long long)m->rec_median,
				(unsigned long long)m->rec_p90,
				(unsigned long long)m->rec_max) : NULL);
			ovb_table_put(t, ovb_xasprintf("%zu", m->abandoned), NULL);
		}
	}
}

static void
plot_trade(const struct report *rep, FILE *g)
{
	const struct extra *ex = &rep->ex;
	struct ovb_plot_trade *v = ovb_xcalloc(ex->ntr ? ex->ntr : 1, sizeof *v);
	char **labels = ovb_xcalloc(ex->ntr ? ex->ntr : 1, sizeof *labels);
	for (size_t i = 0; i < ex->ntr; i++) {
		const struct in_trade *r = &ex->tr[i];
		char *l = trade_label(r);
		labels[i] = ovb_xasprintf("%s (%s)", l, r->file);
		free(l);
		v[i] = (struct ovb_plot_trade){ labels[i], r->t.res &&
			!strcmp(r->t.res, "net") ? "B/s" : "cpu", r->day,
			r->nday };
	}
	ovb_plot_trade(g, rep->o->png, v, ex->ntr);
	for (size_t i = 0; i < ex->ntr; i++)
		free(labels[i]);
	free(labels);
	free(v);
}

static const struct ovb_tcol market_cols[] = {
	{ "vm", "vm", NULL, OVB_TC_BOTH },
	{ "node", "node", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "bid", "bid_credit", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "share of cluster (alloc_i)", "alloc_i", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "on node (alloc_r)", "alloc_r", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "error", "e_r", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "charge", "charge_credit", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "migration", "migration", NULL, OVB_TC_BOTH },
};

static void
table_market(const struct report *rep, struct ovb_table *t)
{
	const struct inputs *in = &rep->in;
	const struct extra *ex = &rep->ex;
	t->title = "Proportional-share market (Merkat): allocations, prices, "
		"errors";
	OVB_TABLE_COLS(t, market_cols);
	struct ovb_market m;
	if (ovb_market_init(&m, &ex->bids, ex->bids_file, &in->cluster,
	    in->cluster_file)) {
		t->note = "the market could not be computed (see the message)";
		return;
	}
	double *ar[OVB_NMRES], *err = ovb_xcalloc(m.nvm ? m.nvm : 1,
		sizeof *err), emax;
	for (size_t r = 0; r < OVB_NMRES; r++)
		ar[r] = ovb_xcalloc(m.nvm ? m.nvm : 1, sizeof **ar);
	emax = ovb_market_errors(&m, m.node, ar, err);
	ovb_market_fit_printed(&m, ar, err, &emax);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "price:");
	for (size_t r = 0; r < m.nres; r++) {
		char *p = xreal(m.price[r]);
		fprintf(f, "%s %s %s credit/%s", r ? "," : "",
			ovb_mres_name(r), p, ovb_mres_unit(r));
		free(p);
	}
	char *e = xreal(emax), *b = xreal(ovb_market_bound(&m));
	fprintf(f, "; the largest error %s, no placement below %s (a lower "
		"bound); error = |alloc_i - alloc_r| / alloc_i (Eq. 2).", e, b);
	free(e);
	free(b);
	if (ex->mig_file) {
		char *e0 = xreal(ex->mig.err[0]), *e1 = xreal(ex->mig.err[1]);
		fprintf(f, "  Migration plan %s: %zu step%s, error %s -> %s:",
			ex->mig_file, ex->mig.n, ex->mig.n == 1 ? "" : "s", e0, e1);
		for (size_t i = 0; i < ex->mig.n; i++) {
			const struct ovb_step *s = &ex->mig.step[i];
			fprintf(f, "%s %zu. %s %s%s%s -> %s", i ? ";" : "", i + 1,
				s->from ? "move" : "deploy", s->vm, s->from ? " " : "",
				s->from ? s->from : "", s->to);
		}
		fprintf(f, ".");
		free(e0);
		free(e1);
	}
	fclose(f);
	t->note = ovb_table_keep(t, buf);
	const struct ovb_bids *bd = &ex->bids;
	for (size_t j = 0; j < m.nvm; j++) {
		const char *node = bd->vm[j].node;
		char *mv = NULL;
		for (size_t i = 0; ex->mig_file && i < ex->mig.n; i++)
			if (!strcmp(ex->mig.step[i].vm, bd->vm[j].name)) {
				free(mv);
				mv = ovb_xasprintf("%zu. -> %s", i + 1,
					ex->mig.step[i].to);
			}
		double charge = 0;
		for (size_t r = 0; r < m.nres; r++)
			charge += m.price[r] * (node ? ar[r][j] : m.alloc_i[r][j]);
		for (size_t r = 0; r < m.nres; r++) {
			double ai = m.alloc_i[r][j];
			ovb_table_row(t, false);
			ovb_table_put(t, ovb_xstrdup(bd->vm[j].name), NULL);
			ovb_table_put(t, ovb_xstrdup(node ? node : "-"), NULL);
			ovb_table_put(t, ovb_xstrdup(ovb_mres_name(r)), NULL);
			ovb_table_put(t, xreal(m.bid[r][j]), NULL);
			ovb_table_put(t, ovb_plot_qty(ai, ovb_mres_unit(r)), xreal(ai));
			ovb_table_put(t, node ? ovb_plot_qty(ar[r][j], ovb_mres_unit(r)) :
				dash(), node ? xreal(ar[r][j]) : NULL);
			double er = node ? fabs(ai - ar[r][j]) / ai : 0;
			ovb_table_put(t, node ? ovb_xasprintf("%.4f", er) : dash(),
				node ? xreal(er) : NULL);
			ovb_table_put(t, r ? ovb_xstrdup("") : ovb_xasprintf("%.4g credit",
				charge), r ? NULL : xreal(charge));
			ovb_table_put(t, mv && !r ? ovb_xstrdup(mv) : ovb_xstrdup(""), NULL);
		}
		free(mv);
	}
	for (size_t r = 0; r < OVB_NMRES; r++)
		free(ar[r]);
	free(err);
	ovb_market_free(&m);
}

static void
extra_free(struct report *rep)
{
	struct extra *ex = &rep->ex;
	for (size_t i = 0; i < ex->ntr; i++) {
		ovb_trade_free(&ex->tr[i].t);
		free(ex->tr[i].mo);
		free(ex->tr[i].day);
	}
	free(ex->tr);
	if (ex->bids_read)
		ovb_bids_free(&ex->bids);
	if (ex->mig_read)
		ovb_migrations_free(&ex->mig);
}

/* ---- usage over time: ovb-onoff and ovb-series inputs (issue 17) ---- */

struct in_onoff { const char *file; struct ovb_onoff o; };
struct in_series { const char *file; struct ovb_series_set ss; };
struct tline {                  /* one capsule and resource over time */
	const char *capsule, *file;
	enum ovb_res res;
	bool epoch;                 /* a series: t in s since the epoch */
	uint64_t t0, step;          /* trace start [ns]; I in t's unit */
	double interval;            /* I [s] */
	uint64_t first, length;     /* span, in t's unit */
	struct ovb_samples s;       /* the usage per interval, in time order */
	const struct row *row;      /* its U (p99) and profile (sigma) */
	const struct ovb_onoff *o;  /* an onoff's trace record, or NULL */
};

static bool
tl_read(struct report *rep, const char *fmt, struct ovb_lex *lx, int *st)
{
	struct timeline *tv = &rep->tv;
	if (!strcmp(fmt, "onoff")) {
		struct in_onoff *r = OVB_PUSH(tv->on, tv->non, tv->capon);
		memset(r, 0, sizeof *r);
		r->file = lx->name;
		if ((*st = ovb_onoff_read(lx, &r->o))) {
			ovb_onoff_free(&r->o);
			tv->non--;
		}
		return true;
	}
	if (!strcmp(fmt, "series")) {
		struct in_series *r = OVB_PUSH(tv->se, tv->nse, tv->capse);
		memset(r, 0, sizeof *r);
		r->file = lx->name;
		if ((*st = ovb_series_read(lx, &r->ss))) {
			ovb_series_free(&r->ss);
			tv->nse--;
		}
		return true;
	}
	return false;
}

static const struct tline *
tl_of(const struct report *rep, const char *capsule, enum ovb_res res)
{
	const struct timeline *tv = &rep->tv;
	for (size_t i = 0; i < tv->ntl; i++)
		if (tv->tl[i].res == res && !strcmp(tv->tl[i].capsule, capsule))
			return &tv->tl[i];
	return NULL;
}

static int
tl_add(struct report *rep, struct tline *t, unsigned long line)
{
	struct timeline *tv = &rep->tv;
	const struct tline *old = tl_of(rep, t->capsule, t->res);
	if (old) {
		ovb_samples_free(&t->s);
		return ovb_err_at(t->file, line, "usage over time of %s %s was "
			"already read from %s", t->capsule, ovb_res_name(t->res),
			old->file);
	}
	t->row = row_of(rep, t->capsule, t->res);
	*OVB_PUSH(tv->tl, tv->ntl, tv->captl) = *t;
	return 0;
}

/* An onoff capsule's interval: -I, else its profile's or usage's. */
static uint64_t
onoff_interval(const struct report *rep, const char *capsule, enum ovb_res res)
{
	const struct opts *o = rep->o;
	if (o->interval)
		return o->interval;
	const struct row *w = row_of(rep, capsule, res);
	for (int r = 0; !w && r < OVB_NRES; r++)
		w = row_of(rep, capsule, (enum ovb_res)r);
	if (w && w->U->interval >= 0.001)
		return (uint64_t)llround(w->U->interval * 1e9);
	return 1000000000;
}

/* The usage per interval of every capsule and resource, as ovb-usage
 * measures it (lib/measure.c): onoff capsules' cpu and net (net-rx when
 * received bytes are recorded), every series. */
static int
build_tl(struct report *rep)
{
	struct timeline *tv = &rep->tv;
	int st = 0;
	char a[32];
	for (size_t i = 0; i < tv->non && !st; i++) {
		const struct ovb_onoff *o = &tv->on[i].o;
		for (size_t j = 0; j < o->ncap && !st; j++) {
			const struct ovb_oncap *c = &o->cap[j];
			for (int r = 0; r < OVB_NRES && !st; r++) {
				if (r == OVB_MEM)       /* onoff has no memory */
					continue;
				if (r == OVB_NETRX && !c->nrecv &&
				    !row_of(rep, c->name, OVB_NETRX))
					continue;
				uint64_t len = onoff_interval(rep, c->name,
					(enum ovb_res)r);
				struct tline t = { c->name, tv->on[i].file,
					(enum ovb_res)r, false, o->t0, len,
					(double)len / 1e9, o->t0, o->t1 - o->t0,
					{ 0 }, NULL, o };
				ovb_measure(o, c, (enum ovb_res)r, len, &t.s);
				if (!t.s.n) {
					ovb_samples_free(&t.s);
					return ovb_err_at(t.file, 0, "capsule %s %s: no "
						"complete gap-free measurement interval of %s "
						"s in the span [%llu, %llu] ns", c->name,
						ovb_res_name((enum ovb_res)r),
						ovb_fmt_real(a, t.interval),
						(unsigned long long)o->t0,
						(unsigned long long)o->t1);
				}
				st = tl_add(rep, &t, 0);
			}
		}
	}
	for (size_t i = 0; i < tv->nse && !st; i++)
		for (size_t j = 0; j < tv->se[i].ss.n && !st; j++) {
			const struct ovb_series *se = &tv->se[i].ss.s[j];
			const char *file = tv->se[i].file;
			uint64_t len = se->interval;
			if (rep->o->interval) {
				uint64_t ns = se->interval * 1000000000;
				if (rep->o->interval % ns)
					return ovb_err_at(file, se->line, "series %s %s: "
						"-I %s s is not a multiple of its interval "
						"%llu s", se->capsule, ovb_res_name(se->res),
						ovb_fmt_real(a,
						(double)rep->o->interval / 1e9),
						(unsigned long long)se->interval);
				len = rep->o->interval / 1000000000;
			}
			struct tline t = { se->capsule, file, se->res, true, 0, len,
				(double)len, 0, 0, { 0 }, NULL, NULL };
			ovb_series_measure(se, len, &t.s);
			if (!t.s.n) {
				ovb_samples_free(&t.s);
				return ovb_err_at(file, se->line, "series %s %s: no "
					"measurement interval of %llu s has all its %llu "
					"samples", se->capsule, ovb_res_name(se->res),
					(unsigned long long)len,
					(unsigned long long)(len / se->interval));
			}
			t.first = t.s.t[0];
			t.length = t.s.t[t.s.n - 1] + len - t.first;
			st = tl_add(rep, &t, se->line);
		}
	return st;
}

static bool
tl_p99(const struct tline *t, double *v)
{
	const struct ovb_dist *U = t->row ? t->row->U : NULL;
	for (int i = 0; U && i < U->npct; i++)
		if (U->pct_p[i] == 99) {
			*v = U->pct_v[i];
			return true;
		}
	return false;
}

static struct ovb_plot_usage
tl_plot(const struct tline *t)
{
	struct ovb_plot_usage u = { t->capsule, t->res, t->interval, t->epoch,
		t->t0, t->step, t->s.n, t->s.t, t->s.v, t->row && t->row->q,
		false, t->row && t->row->q ? t->row->q->sigma : 0, 0 };
	u.has_p99 = tl_p99(t, &u.p99);
	return u;
}

static void
tl_script(const struct report *rep, FILE *g, const struct tline *t)
{
	struct ovb_plot_usage u = tl_plot(t);
	ovb_plot_usage(g, rep->o->png, &u);
}

/* The UTC time of s seconds since the epoch (malloc'd). */
static char *
utc_text(uint64_t s)
{
	time_t tt = (time_t)s;
	struct tm tm;
	char b[40];
	if (!gmtime_r(&tt, &tm) || !strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ",
	    &tm))
		return ovb_xstrdup("-");
	return ovb_xstrdup(b);
}

static const struct ovb_tcol usage_cols[] = {
	{ "capsule", "capsule", NULL, OVB_TC_BOTH },
	{ "res", "res", NULL, OVB_TC_BOTH },
	{ "I", "interval_s", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "intervals", "intervals", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "start (UTC)", "start", NULL, OVB_TC_BOTH },
	{ "length", "length_s", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "mean", "mean", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "peak", "peak", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "p99 (U)", "p99", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "sigma (rate)", "sigma", "σ (rate)", OVB_TC_BOTH | OVB_TC_NUM },
	{ "points plotted", "points", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ NULL, "intervals_per_point", NULL, OVB_TC_TSV },
	{ NULL, "rate_unit", NULL, OVB_TC_TSV },
	{ NULL, "file", NULL, OVB_TC_TSV },
};

static void
table_usage(const struct report *rep, struct ovb_table *t)
{
	const struct timeline *tv = &rep->tv;
	t->title = "Usage over time: per capsule and resource, from ovb-onoff "
		"and ovb-series";
	t->note = "the usage in each measurement interval I, as ovb-usage "
		"measures it (intervals overlapping a gap of lost events, or "
		"missing a sample, left out); p99 and sigma (rate) from the "
		"capsule's usage or profile file when given; points plotted: at "
		"most 2000, each over (max of) that many consecutive intervals, "
		"as high as the largest usage among them";
	OVB_TABLE_COLS(t, usage_cols);
	for (size_t i = 0; i < tv->ntl; i++) {
		const struct tline *l = &tv->tl[i];
		const char *ru = ovb_res_rate_unit(l->res);
		double len = l->epoch ? (double)l->length :
			(double)l->length / 1e9, p99;
		struct ovb_plot_usage u = tl_plot(l);
		size_t per, np = ovb_plot_usage_points(&u, &per);
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_xstrdup(l->capsule), NULL);
		ovb_table_put(t, ovb_xstrdup(ovb_res_name(l->res)), NULL);
		ovb_table_put(t, ovb_plot_qty(l->interval, "s"), xreal(l->interval));
		ovb_table_put(t, ovb_xasprintf("%zu", l->s.n), NULL);
		if (l->epoch)
			ovb_table_put(t, utc_text(l->first), NULL);
		else {
			struct ovb_trace tr;
			ovb_onoff_trace(l->o, &tr);
			ovb_table_put(t, tr.start ? ovb_xasprintf("%.19s", tr.start) : dash(),
				ovb_xstrdup(tr.start ? tr.start : "-"));
			ovb_trace_free(&tr);
		}
		ovb_table_put(t, ovb_plot_qty(len, "s"), xreal(len));
		ovb_table_put(t, ovb_plot_qty(l->s.mean, ru), xreal(l->s.mean));
		ovb_table_put(t, ovb_plot_qty(l->s.peak, ru), xreal(l->s.peak));
		if (tl_p99(l, &p99))
			ovb_table_put(t, ovb_plot_qty(p99, ru), xreal(p99));
		else
			ovb_table_put(t, dash(), NULL);
		if (l->row && l->row->q)
			ovb_table_put(t, ovb_plot_qty(l->row->q->sigma, ru),
				xreal(l->row->q->sigma));
		else
			ovb_table_put(t, dash(), NULL);
		ovb_table_put(t, per > 1 ? ovb_xasprintf("%zu (max of %zu)", np, per) :
			ovb_xasprintf("%zu", np), ovb_xasprintf("%zu", np));
		ovb_table_put(t, NULL, ovb_xasprintf("%zu", per));
		ovb_table_put(t, NULL, ovb_xstrdup(ru));
		ovb_table_put(t, NULL, ovb_xstrdup(l->file));
	}
}

/* A figure per capsule and resource. */
static int
usage_figures(struct report *rep, FILE *f)
{
	struct timeline *tv = &rep->tv;
	int st = 0;
	if (tv->ntl)
		fputs("<div class=\"figs\">\n", f);
	for (size_t i = 0; i < tv->ntl && !st; i++) {
		const struct tline *l = &tv->tl[i];
		const char *ru = ovb_res_rate_unit(l->res);
		struct ovb_plot_usage u = tl_plot(l);
		size_t per, np = ovb_plot_usage_points(&u, &per);
		char *lines = NULL, *bin = NULL, *sg = NULL, *pp = NULL;
		double p99;
		if (per > 1)
			bin = ovb_xasprintf("; drawn as %zu boxes, each over %zu "
				"intervals and as high as the largest usage among them",
				np, per);
		if (l->row && l->row->q)
			sg = ovb_plot_qty(l->row->q->sigma, ru);
		if (tl_p99(l, &p99))
			pp = ovb_plot_qty(p99, ru);
		lines = ovb_xasprintf("%s%s%s%s%s%s", sg || pp ? "; horizontal: " :
			"", sg ? "σ (rate) = " : "", sg ? sg : "", sg && pp ?
			" (dashed), " : sg ? " (dashed)" : "", pp ? "p99 of U = " :
			"", pp ? pp : "");
		char ib[32];
		char *c = ovb_xasprintf("%s %s: usage in each measurement interval of "
			"%s s over time (%s; from %s)%s%s%s.", l->capsule,
			ovb_res_name(l->res), ovb_fmt_real(ib, l->interval), l->epoch ?
			"dates in UTC" : "time in s from the trace start", l->file,
			bin ? bin : "", lines, pp ? " (dotted)" : "");
		st = figure(rep, f, P_USAGE, &(struct pick){ .tl = l }, c,
			false);
		free(c);
		free(lines);
		free(bin);
		free(sg);
		free(pp);
	}
	if (tv->ntl)
		fputs("</div>\n", f);
	return st;
}

static size_t
tl_count(const struct report *rep)
{
	return rep->tv.ntl;
}

static void
tl_free(struct report *rep)
{
	struct timeline *tv = &rep->tv;
	for (size_t i = 0; i < tv->ntl; i++)
		ovb_samples_free(&tv->tl[i].s);
	free(tv->tl);
	for (size_t i = 0; i < tv->non; i++)
		ovb_onoff_free(&tv->on[i].o);
	free(tv->on);
	for (size_t i = 0; i < tv->nse; i++)
		ovb_series_free(&tv->se[i].ss);
	free(tv->se);
}

/* --plot usage: the one capsule and resource --capsule and --res name. */
static int
select_tl(const struct report *rep, const struct tline **out)
{
	const struct opts *o = rep->o;
	const struct timeline *tv = &rep->tv;
	const struct tline *found = NULL;
	size_t n = 0;
	for (size_t i = 0; i < tv->ntl; i++) {
		const struct tline *l = &tv->tl[i];
		if ((o->capsule && strcmp(l->capsule, o->capsule)) ||
		    (o->res >= 0 && l->res != (enum ovb_res)o->res))
			continue;
		found = l;
		n++;
	}
	if (n == 1) {
		*out = found;
		return 0;
	}
	char have[1024];
	size_t len = 0;
	have[0] = '\0';
	for (size_t i = 0; i < tv->ntl && i < 12 && len < sizeof have; i++)
		len += (size_t)snprintf(have + len, sizeof have - len, "%s%s %s",
			i ? ", " : "", tv->tl[i].capsule,
			ovb_res_name(tv->tl[i].res));
	if (!n)
		ovb_warn("--plot usage: no capsule%s%s%s%s over time in the "
			"inputs; there are: %s", o->capsule ? " " : "",
			o->capsule ? o->capsule : "", o->res >= 0 ? " " : "",
			o->res >= 0 ? ovb_res_name((enum ovb_res)o->res) : "", have);
	else
		ovb_warn("--plot usage: choose one with --capsule and --res: %s",
			have);
	return OVB_EUSAGE;
}

/* ---- backtests: ovb-backtest files (issue 14) ---- */

struct btrow {
	const struct ovb_bt_config *c;
	const struct ovb_bt_summary *s;
	size_t group;               /* the index of its group's first row */
	uint64_t measured;          /* held + broken */
	double vs_pct;              /* density over pct's in the group; NAN */
	uint64_t bound;             /* the periods' bounds summed; 0: a
	                               period without a bound record */
	uint64_t broken_valid;      /* one-shot: broken node-periods starting
	                               before the stated validity */
	char *dom;                  /* the group's methods dominating it */
};

/* Configurations differing only in their method (and id). */
static bool
bt_same_group(const struct ovb_bt_config *a, const struct ovb_bt_config *b)
{
	return a->cpus == b->cpus && a->O == b->O && a->train == b->train &&
		a->replay == b->replay && a->rolling == b->rolling &&
		a->afresh == b->afresh && a->repair == b->repair &&
		a->compact == b->compact && a->max_moves == b->max_moves &&
		a->periods == b->periods;
}

/* held(a) / measured(a) against held(b) / measured(b), exactly. */
static int
bt_cmp_held(const struct btrow *a, const struct btrow *b)
{
	unsigned __int128 x = (unsigned __int128)a->s->held * b->measured,
		y = (unsigned __int128)b->s->held * a->measured;
	return x < y ? -1 : x > y;
}

/* Density placed/nodes, exactly (0 without nodes). */
static int
bt_cmp_density(const struct btrow *a, const struct btrow *b)
{
	unsigned __int128 x = a->s->nodes ? (unsigned __int128)a->s->placed *
		(b->s->nodes ? b->s->nodes : 1) : 0,
		y = b->s->nodes ? (unsigned __int128)b->s->placed *
		(a->s->nodes ? a->s->nodes : 1) : 0;
	return x < y ? -1 : x > y;
}

/* a dominates b: holds at least as large a share of its promises and packs
 * at least as densely, one of the two strictly (both measured). */
static bool
bt_dominates(const struct btrow *a, const struct btrow *b)
{
	if (!a->measured || !b->measured)
		return false;
	int h = bt_cmp_held(a, b), d = bt_cmp_density(a, b);
	return h >= 0 && d >= 0 && (h > 0 || d > 0);
}

static void
bt_build(struct report *rep)
{
	struct btests *bt = &rep->bt;
	const struct ovb_backtest *b = &bt->b;
	bt->row = ovb_xcalloc(b->nconf ? b->nconf : 1, sizeof *bt->row);
	bt->nrow = b->nconf;
	for (size_t i = 0; i < b->nconf; i++) {
		struct btrow *r = &bt->row[i];
		r->c = &b->conf[i];
		for (size_t k = 0; k < b->nsum; k++)
			if (b->sum[k].config == i)
				r->s = &b->sum[k];
		r->measured = r->s->held + r->s->broken;
		bool all = true;
		for (size_t k = 0; k < b->nper; k++)
			if (b->per[k].config == i) {
				all = all && b->per[k].has_bound;
				r->bound += b->per[k].bound;
			}
		if (!all)
			r->bound = 0;
		for (size_t k = 0; r->c->valid_until && k < b->nnode; k++)
			r->broken_valid += b->node[k].status == OVB_BT_BROKEN &&
				b->per[b->node[k].period].config == i &&
				b->per[b->node[k].period].start < r->c->valid_until;
		r->group = i;
		for (size_t j = 0; j < i; j++)
			if (bt_same_group(bt->row[j].c, r->c)) {
				r->group = bt->row[j].group;
				break;
			}
	}
	for (size_t i = 0; i < bt->nrow; i++) {
		struct btrow *r = &bt->row[i];
		const struct btrow *pct = NULL;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = ovb_xmemstream(&buf, &len);
		size_t nd = 0;
		for (size_t j = 0; j < bt->nrow; j++) {
			const struct btrow *o = &bt->row[j];
			if (o->group != r->group)
				continue;
			if (!pct && !strcmp(o->c->method, "pct"))
				pct = o;
			/* the yardsticks (the hindsight, the
			 * clairvoyant) are not rivals */
			if (j != i && !ovb_bt_yardstick(o->c->method) &&
			    bt_dominates(o, r))
				fprintf(f, "%s%s", nd++ ? ", " : "", o->c->method);
		}
		fclose(f);
		r->dom = buf;
		r->vs_pct = pct && pct->s->density > 0 ? r->s->density /
			pct->s->density : NAN;
	}
}

static bool
bt_read(struct report *rep, const char *fmt, struct ovb_lex *lx, int *st)
{
	struct btests *bt = &rep->bt;
	if (strcmp(fmt, "backtest"))
		return false;
	if (bt->file) {
		ovb_err(lx, "a second ovb-backtest file (the first is %s): give "
			"one", bt->file);
		*st = OVB_EUSAGE;
		return true;
	}
	bt->read = true;
	if (!(*st = ovb_backtest_read(lx, &bt->b))) {
		bt->file = lx->name;
		bt_build(rep);
	}
	return true;
}

static bool
bt_given(const struct report *rep)
{
	return rep->bt.file != NULL;
}

/* A duration in s, in its largest whole unit. */
static char *
bt_dur(uint64_t s)
{
	static const struct { uint64_t f; const char *u; } u[] = {
		{ OVB_DAY, "d" }, { 3600, "h" }, { 60, "min" } };
	for (size_t i = 0; i < sizeof u / sizeof *u; i++)
		if (s && s % u[i].f == 0)
			return ovb_xasprintf("%llu %s", (unsigned long long)(s / u[i].f),
				u[i].u);
	return ovb_xasprintf("%llu s", (unsigned long long)s);
}

static char *
bt_plan(const struct ovb_bt_config *c)
{
	char pl[32];
	return ovb_xstrdup(ovb_bt_plan_name(c, pl));
}

/* "8 cpu nodes, O = 0.01, trained 14 d, replayed 7 d, rolling, 9 periods" */
static char *
bt_group_name(const struct ovb_bt_config *c)
{
	char *n = ovb_plot_qty(c->cpus, "cpu"), *o = xreal(c->O),
		*tr = bt_dur(c->train), *re = bt_dur(c->replay), *p = bt_plan(c);
	char *s = ovb_xasprintf("%s nodes, O = %s, trained %s, replayed %s, %s, "
		"%llu period%s", n, o, tr, re, p, (unsigned long long)c->periods,
		c->periods == 1 ? "" : "s");
	free(n);
	free(o);
	free(tr);
	free(re);
	free(p);
	return s;
}

static const struct ovb_tcol bt_cols[] = {
	{ "config", "config", NULL, OVB_TC_BOTH },
	{ "method", "method", NULL, OVB_TC_BOTH },
	{ "plan", "plan", NULL, OVB_TC_BOTH },
	{ "node", "cpus", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "O", "O", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "train / replay", NULL, NULL, OVB_TC_TEXT | OVB_TC_NUM },
	{ NULL, "train_s", NULL, OVB_TC_TSV },
	{ NULL, "replay_s", NULL, OVB_TC_TSV },
	{ "periods", "periods", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "VMs/node", "density_vms_per_node", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "vs pct", "density_vs_pct", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "gap closed", "gap_closed", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "vs peak", "density_vs_peak", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "at most", "best_density", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ NULL, "bound_nodes", NULL, OVB_TC_TSV },
	{ "held", "held", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ NULL, "measured", NULL, OVB_TC_TSV },
	{ NULL, "held_fraction", NULL, OVB_TC_TSV },
	{ NULL, "broken", NULL, OVB_TC_TSV },
	{ "dominated by", "dominated_by", NULL, OVB_TC_BOTH | OVB_TC_WRAP },
	{ "missing", "missing", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "worst", "worst", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "moved", "moved", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ NULL, "moved_fraction", NULL, OVB_TC_TSV },
	{ "placed", "placed", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "nodes", "nodes", NULL, OVB_TC_BOTH | OVB_TC_NUM },
	{ "valid until", "valid_until_s", NULL, OVB_TC_BOTH },
	{ "broken while valid", "broken_while_valid", NULL, OVB_TC_BOTH | OVB_TC_NUM },
};

/* A configuration a row: the file's numbers, the shares computed here. */
static void
table_backtest(const struct report *rep, struct ovb_table *t)
{
	const struct btests *bt = &rep->bt;
	t->title = "Placement methods backtested (ovb-backtest)";
	t->note = "per configuration, summed over its periods: VMs placed, "
		"nodes used, density = VMs per node, against the sum of (1-O) "
		"percentiles (pct) of the same group and against peak "
		"provisioning; at most: the density no method could have passed "
		"placing the same VMs (VMs placed over the periods' bounds, the "
		"fewest nodes any placement could use in hindsight, `bound` "
		"records); held: node-periods whose cpu sum exceeded the node "
		"in at most a fraction O of the slots, of those measured (held + "
		"broken), a VM's missing samples counted as zero usage; "
		"missing: node-periods with a VM without samples (no slot in "
		"which every VM has one, `node` FULL 0), counted in held or "
		"broken as zero usage unless no VM on the node had a sample "
		"(then not measured; files without FULL: never measured); "
		"worst: the largest fraction of slots over; moved: VMs on another "
		"node than the period before (share of those placed); valid "
		"until: a one-shot plan's promise by the trend forecast, never "
		"past its held-out test (UTC), "
		"and its broken node-periods that start before that date; "
		"gap closed: the share of the nodes a VM placed between pct and "
		"the hindsight (the VMs packed on the period's own samples, `gap` "
		"records) the method saves; "
		"dominated by: the methods of the same group that hold at least "
		"as large a share and pack at least as densely, one strictly "
		"(the hindsight, the clairvoyant and clairvoyant-pct, "
		"yardsticks, dominate no "
		"method).";
	OVB_TABLE_COLS(t, bt_cols);
	for (size_t i = 0; i < bt->nrow; i++) {
		const struct btrow *r = &bt->row[i];
		const struct ovb_bt_config *c = r->c;
		const struct ovb_bt_summary *s = r->s;
		ovb_table_row(t, false);
		ovb_table_put(t, ovb_xstrdup(c->id), NULL);
		ovb_table_put(t, ovb_xstrdup(c->method), NULL);
		ovb_table_put(t, bt_plan(c), NULL);
		ovb_table_put(t, ovb_plot_qty(c->cpus, "cpu"), xreal(c->cpus));
		ovb_table_put(t, xreal(c->O), NULL);
		char *tr = bt_dur(c->train), *re = bt_dur(c->replay);
		ovb_table_put(t, ovb_xasprintf("%s / %s", tr, re), NULL);
		free(tr);
		free(re);
		ovb_table_put(t, NULL, ovb_xasprintf("%llu", (unsigned long long)c->train));
		ovb_table_put(t, NULL, ovb_xasprintf("%llu", (unsigned long long)c->replay));
		ovb_table_put(t, ovb_xasprintf("%llu", (unsigned long long)c->periods), NULL);
		ovb_table_put(t, ovb_xasprintf("%.2f", s->density), xreal(s->density));
		ovb_table_put(t, isnan(r->vs_pct) ? dash() : ovb_xasprintf("%.2fx",
			r->vs_pct), isnan(r->vs_pct) ? NULL : xreal(r->vs_pct));
		ovb_table_put(t, s->has_gap ? ovb_xasprintf("%.0f%%", 100 *
			s->gap) : dash(), s->has_gap ? xreal(s->gap) : NULL);
		ovb_table_put(t, s->vs_peak > 0 ? ovb_xasprintf("%.2fx", s->vs_peak) : dash(),
			xreal(s->vs_peak));
		double best = r->bound ? (double)s->placed / (double)r->bound :
			NAN;
		ovb_table_put(t, r->bound ? ovb_xasprintf("%.2f", best) : dash(), r->bound ?
			xreal(best) : NULL);
		ovb_table_put(t, NULL, r->bound ? ovb_xasprintf("%llu",
			(unsigned long long)r->bound) : dash());
		double h = r->measured ? (double)s->held / (double)r->measured :
			NAN;
		ovb_table_put(t, r->measured ? ovb_xasprintf("%llu/%llu (%.1f%%)",
			(unsigned long long)s->held, (unsigned long long)r->measured,
			100 * h) : ovb_xasprintf("0/0"), ovb_xasprintf("%llu",
			(unsigned long long)s->held));
		ovb_table_put(t, NULL, ovb_xasprintf("%llu", (unsigned long long)r->measured));
		ovb_table_put(t, NULL, r->measured ? xreal(h) : dash());
		ovb_table_put(t, NULL, ovb_xasprintf("%llu", (unsigned long long)s->broken));
		ovb_table_put(t, ovb_xstrdup(!r->measured ? "-" : *r->dom ? r->dom :
			"none"), NULL);
		ovb_table_put(t, ovb_xasprintf("%llu", (unsigned long long)s->partial), NULL);
		ovb_table_put(t, ovb_xasprintf("%.1f%%", 100 * s->worst), xreal(s->worst));
		double mv = s->placed ? (double)s->moved / (double)s->placed : 0;
		ovb_table_put(t, ovb_xasprintf("%llu (%.1f%%)", (unsigned long long)s->moved,
			100 * mv), ovb_xasprintf("%llu", (unsigned long long)s->moved));
		ovb_table_put(t, NULL, xreal(mv));
		ovb_table_put(t, ovb_xasprintf("%llu", (unsigned long long)s->placed), NULL);
		ovb_table_put(t, ovb_xasprintf("%llu", (unsigned long long)s->nodes), NULL);
		if (c->valid_until) {
			time_t tt = (time_t)c->valid_until;
			struct tm tm;
			char d[32];
			if (!gmtime_r(&tt, &tm) || !strftime(d, sizeof d,
			    "%Y-%m-%d %H:%M", &tm))
				snprintf(d, sizeof d, "%llu s",
					(unsigned long long)c->valid_until);
			ovb_table_put(t, ovb_xstrdup(d), ovb_xasprintf("%llu",
				(unsigned long long)c->valid_until));
		} else
			ovb_table_put(t, dash(), NULL);
		ovb_table_put(t, c->valid_until ? ovb_xasprintf("%llu of %llu",
			(unsigned long long)r->broken_valid,
			(unsigned long long)s->broken) : dash(), c->valid_until ?
			ovb_xasprintf("%llu", (unsigned long long)r->broken_valid) :
			NULL);
	}
}

/* --plot backtest --config ID: ID's group. */
static int
bt_select(const struct report *rep, long *group)
{
	const struct opts *o = rep->o;
	const struct btests *bt = &rep->bt;
	if (!o->config)
		return 0;
	for (size_t i = 0; i < bt->nrow; i++)
		if (!strcmp(bt->row[i].c->id, o->config)) {
			*group = (long)bt->row[i].group;
			return 0;
		}
	ovb_warn("--config: no configuration '%s' in %s", o->config,
		bt->file);
	return OVB_EUSAGE;
}

static bool
bt_drawn(const struct btrow *r, long group)
{
	return group < 0 || r->group == (size_t)group;
}

/* The points of the rows drawn: measured, and with a density against peak
 * when the node sizes differ; the Pareto front among them. */
static void
bt_script(const struct report *rep, FILE *g, long group)
{
	const struct btests *bt = &rep->bt;
	bool vs_peak = false;
	const struct btrow *first = NULL;
	for (size_t i = 0; i < bt->nrow; i++) {
		const struct btrow *r = &bt->row[i];
		if (!bt_drawn(r, group))
			continue;
		if (first && first->c->cpus != r->c->cpus)
			vs_peak = true;
		if (!first)
			first = r;
	}
	struct ovb_plot_btpoint *p = ovb_xcalloc(bt->nrow ? bt->nrow : 1,
		sizeof *p);
	const struct btrow **pr = ovb_xcalloc(bt->nrow ? bt->nrow : 1,
		sizeof *pr);
	size_t n = 0, all = 0;
	for (size_t i = 0; i < bt->nrow; i++) {
		const struct btrow *r = &bt->row[i];
		if (!bt_drawn(r, group))
			continue;
		all++;
		if (!r->measured || (vs_peak && !(r->s->vs_peak > 0)))
			continue;
		pr[n] = r;
		p[n++] = (struct ovb_plot_btpoint){ r->c->id, r->c->method,
			vs_peak ? r->s->vs_peak : r->s->density,
			(double)r->s->held / (double)r->measured, true };
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && p[i].front; j++) {
			if (j == i)
				continue;
			int h = bt_cmp_held(pr[j], pr[i]);
			int d = vs_peak ? (p[j].x > p[i].x) - (p[j].x < p[i].x) :
				bt_cmp_density(pr[j], pr[i]);
			if (h >= 0 && d >= 0 && (h > 0 || d > 0))
				p[i].front = false;
		}
	char *title;
	if (group >= 0) {
		char *gn = bt_group_name(bt->row[group].c);
		title = ovb_xasprintf("Backtest: %s", gn);
		free(gn);
	} else
		title = ovb_xasprintf("Backtest: %zu configuration%s", all,
			all == 1 ? "" : "s");
	struct ovb_plot_bt b = { title, vs_peak, n, p };
	ovb_plot_backtest(g, rep->o->png, &b);
	free(title);
	free(pr);
	free(p);
}

/* Every configuration together (when there are several groups), then each
 * group apart. */
static int
bt_figures(struct report *rep, FILE *f)
{
	const struct btests *bt = &rep->bt;
	size_t ng = 0;
	for (size_t i = 0; i < bt->nrow; i++)
		ng += bt->row[i].group == i;
	int st = 0;
	fputs("<div class=\"figs\">\n", f);
	if (ng > 1) {
		st = figure(rep, f, P_BACKTEST, &(struct pick){ .group = -1 },
			"Every configuration: the "
			"share of node-period promises held (of those measured) "
			"against density, a point per configuration; ringed: not "
			"dominated by another point of the plot (the Pareto front).",
			true);
	}
	for (size_t i = 0; i < bt->nrow && !st; i++) {
		if (bt->row[i].group != i)
			continue;
		char *gn = bt_group_name(bt->row[i].c);
		char *c = ovb_xasprintf("%s: the share of node-period promises held "
			"(of those measured) against density, a point per method; "
			"ringed: the methods no other method of the group "
			"dominates (the Pareto front).", gn);
		st = figure(rep, f, P_BACKTEST,
			&(struct pick){ .group = (long)i }, c, false);
		free(c);
		free(gn);
	}
	fputs("</div>\n", f);
	return st;
}

/* The page's summary: configurations, groups, how many hold 95%, and per
 * method in how many groups no other method dominates it. */
static void
bt_summary(const struct report *rep, FILE *f)
{
	const struct btests *bt = &rep->bt;
	size_t ng = 0, n95 = 0;
	for (size_t i = 0; i < bt->nrow; i++) {
		const struct btrow *r = &bt->row[i];
		ng += r->group == i;
		n95 += r->measured && 20 * r->s->held >= 19 * r->measured;
	}
	fprintf(f, "<li>Backtest: %zu configuration%s in %zu group%s (the same "
		"node size, O, windows and plan); %zu hold at least 95%% of "
		"their measured node-period promises.  On their group's Pareto "
		"front (no other method of the group holds as large a share "
		"and packs as densely, one strictly more), of the groups "
		"measured:", bt->nrow, bt->nrow == 1 ? "" : "s", ng, ng == 1 ?
		"" : "s", n95);
	for (size_t i = 0; i < bt->nrow; i++) {
		const char *m = bt->row[i].c->method;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(bt->row[j].c->method, m);
		if (seen)
			continue;
		size_t front = 0, meas = 0;
		for (size_t j = i; j < bt->nrow; j++) {
			const struct btrow *r = &bt->row[j];
			if (strcmp(r->c->method, m) || !r->measured)
				continue;
			meas++;
			front += !*r->dom;
		}
		fprintf(f, "%s ", i ? "," : "");
		ovb_plot_html(f, m);
		fprintf(f, " %zu of %zu", front, meas);
	}
	fputs(".</li>\n", f);
}

static void
bt_free(struct report *rep)
{
	struct btests *bt = &rep->bt;
	for (size_t i = 0; i < bt->nrow; i++)
		free(bt->row[i].dom);
	free(bt->row);
	if (bt->read)
		ovb_backtest_free(&bt->b);
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	struct opts o = { .format = F_TEXT, .plot = P_NONE, .res = -1,
		.title = "overbook report" };
	argp_parse(&argp, argc, argv, 0, &first, &o);
	struct report rep_ = { .o = &o }, *rep = &rep_;
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++)
		if ((st = ovb_read_input(nfiles ? argv[first + i] : NULL,
		    read_format, rep)) > status)
			status = st;
	if (!status)
		status = build_rows(rep);
	if (!status)
		status = build_tl(rep);
	if (!status)
		status = check_plan(rep);
	if (!status)
		status = build_nodes(rep);
	if (!status) {
		build_gains(rep);
		status = rep->o->plot ? do_plot(rep) : check_tables(rep);
		if (!status && !rep->o->plot)
			status = do_tables(rep);
	}
	free_all(rep);
	return status;
}
