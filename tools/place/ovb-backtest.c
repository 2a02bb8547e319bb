/* ovb-backtest: placement methods replayed against what really happened.
 *
 * Reads ovb-series files (the cpu series of VMs, e.g. ovb-import of the
 * Bitbrains traces; several files, months, are merged) and, for every
 * configuration (method, node size, tolerance O, training window, one-shot
 * or rolling), profiles each VM on the training window, places the VMs on
 * identical nodes by the method's node test, and replays the next period
 * through the plan: per node the slots in which some VM on it has a
 * sample and those whose exact cpu sum exceeds the node's size, a VM
 * without a sample in a slot counting 0 (missing samples as zero usage).
 * A node's promise is that at most a fraction O of its slots overflow; a
 * node none of whose VMs has a sample in the period is "missing", neither
 * held nor broken; FULL, the slots in which every VM has a sample, shows
 * the nodes with a VM without samples (0).  The bound counts the same
 * slots.  A one-shot plan's validity is never past what was tested: the
 * method's plan made on the window's first half, replayed on its second
 * (heldout_test).  The output is an ovb-backtest table
 * (formats/backtest.md).
 *
 * Methods are rows of one table (methods[] below: the name, the node
 * test, the per-VM reservation, the profile, the memory summand).  Every
 * method is placed by lib/place.c's engine, as ovb-place places
 * (--policy, default first-fit-decreasing, which packs: every method
 * and the hindsight are placed in the same order): overbook is Eq. 1
 * and Eq. 3 (--mode eq1); aggregate, drift and calibrated the aggregate
 * mode on their own profiles; peak, pct, vpa and mean exact sums of
 * plain cpu= reservations, with memory plain mem= (the method's memory
 * summand) and mem-limit= (the VM's limit) reservations; nsigma the
 * nsigma mode (--mode nsigma --nsigma N: the sum of the VMs' U means + N
 * sqrt(the sum of their variances) <= C, exactly) on overbook's profiles.
 * A period's inputs are written in the project's
 * formats, read back by the readers ovb-place uses, and placed on the
 * least number K of identical nodes n1..nK on which the policy does as
 * well as on one node a VM (as many placed, no more nodes left broken):
 * --keep writes those very texts, so ovb-place on them makes the same
 * plan, byte for byte.  Rolling re-plans from the previous period's plan
 * (ovb-place's --max-moves: every VM stays where it was while its node
 * holds, the broken nodes are repaired by at most --max-moves moves,
 * unbounded by default, then the rest placed; a VM no node takes alone
 * leaves, op=terminate, as a fresh plan would reject it); --consolidate
 * then empties nodes, by the moves --max-moves M leaves (compact:M) or,
 * the repair unbounded, by at most C moves (--consolidate=C,
 * consolidate:C).  calibrated's samples are
 * lib/drift.c's (recency weights, the trend to the horizon, an inflation
 * k): k is the least on the grid whose plan, made on the training window
 * without its last week(s), keeps every node's promise on the week(s)
 * held out.  The hindsight, the clairvoyant and clairvoyant-pct are
 * yardsticks, placed on the replayed period's own samples: the hindsight
 * afresh every period, the clairvoyant re-planned from its last plan like
 * the others, so that its gap is what knowing the future earns under the
 * same plan kind and moves; clairvoyant-pct is pct on the period's own
 * samples, re-planned as the clairvoyant: what knowing every VM's own
 * tail earns without multiplexing.  The same inputs give the same bytes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

enum method { M_OVERBOOK, M_AGG, M_DRIFT, M_PEAK, M_PCT, M_NSIGMA, M_VPA,
	M_CAL, M_MEAN, M_TOD, M_HIND, M_JOINT, M_SEER, M_SEERPCT, NMETHOD };

enum { OPT_METHOD = 'm', OPT_JOBS = 'j', OPT_CPUS = 0x100, OPT_O, OPT_TRAIN, OPT_REPLAY,
	OPT_PLAN, OPT_PERIODS, OPT_START, OPT_NODES, OPT_TAU, OPT_GRID,
	OPT_NSIGMA, OPT_HALF, OPT_VPA_PCT, OPT_VPA_MARGIN, OPT_GROWTH,
	OPT_MOVES, OPT_CAL_HALF, OPT_TREND_Q, OPT_KMIN, OPT_KMAX, OPT_KSTEP,
	OPT_MEM, OPT_POOL, OPT_MMARGIN, OPT_MWIN, OPT_POLICY, OPT_KEEP,
	OPT_TOD_MIN, OPT_TOD_OFFSET, OPT_MRULE, OPT_CONSOLIDATE,
	OPT_JOINT_MARGIN };

#define MAXLIST 16
static bool opt_method[NMETHOD];
static bool method_given;
static double opt_cpus[MAXLIST] = { 4, 8, 16 }, opt_O[MAXLIST] = { 0.01,
	0.05 };
static size_t ncpus = 3, nO = 2;
static uint64_t opt_train[MAXLIST] = { 14 * OVB_DAY, 28 * OVB_DAY };
static size_t ntrain = 2;
static uint64_t opt_replay = 7 * OVB_DAY, opt_periods, opt_start, opt_nodes;
static bool opt_rolling = true, opt_oneshot, opt_afresh, plan_given,
	start_given;
static double opt_growth_max = 4;
static double opt_tau = OVB_DAY, opt_nsigma = 3, opt_half = OVB_DAY,
	opt_vpa_pct = 90, opt_vpa_margin = 0.15, opt_joint_margin;
static uint64_t opt_grid = 1000;
static bool opt_repair, opt_consolidate;
static uint64_t opt_moves, opt_cons;    /* --consolidate=C: C; 0: none */
static struct ovb_drift opt_drift = { .half_life = 7 * OVB_DAY,
	.day = OVB_DAY,
	.trend_q = 0.9, .growth_max = 4 };
static double opt_kmin = 0.5, opt_kmax = 4, opt_kstep = 0.05;
/* memory: node sizes [GiB] paired with opt_cpus (one value: every size;
 * none: MEM_PER_CPU GiB a cpu), the reclaimable pool (none: POOL_SHARE of
 * the node's memory), the limit's margin, the window of the peaks */
#define MEM_PER_CPU 4.0
#define POOL_SHARE 0.25
static double opt_mem[MAXLIST], opt_pool[MAXLIST];
static size_t nmem, npool;
static double opt_mmargin = 0.15;
static int opt_policy;          /* ovb_place_policy(--policy) */
static const char *opt_keep;    /* --keep DIR */
static uint64_t opt_mwin = 3600;
static uint64_t opt_tod_min;    /* 0: ceil(10 / O) */
static bool opt_promise;        /* --mem-rule promise */
static int64_t opt_tod_offset;
static size_t opt_jobs = 1;        /* --jobs */

/* The options of one method or two: given while -m runs none of their
 * methods, they change nothing, and that is said (a warning: the run is
 * the same). */
#define MBIT(m) (1u << (m))
static const struct {
	int key;
	const char *name;
	unsigned methods;       /* MBIT of each method that reads it */
} method_opts[] = {
	{ OPT_GROWTH, "--growth-max", MBIT(M_DRIFT) | MBIT(M_CAL) },
	{ OPT_CAL_HALF, "--cal-half-life", MBIT(M_CAL) },
	{ OPT_TREND_Q, "--trend-quantile", MBIT(M_CAL) },
	{ OPT_KMIN, "--k-min", MBIT(M_CAL) },
	{ OPT_KMAX, "--k-max", MBIT(M_CAL) },
	{ OPT_KSTEP, "--k-step", MBIT(M_CAL) },
	{ OPT_NSIGMA, "--nsigma", MBIT(M_NSIGMA) },
	{ OPT_HALF, "--half-life", MBIT(M_VPA) },
	{ OPT_VPA_PCT, "--vpa-pct", MBIT(M_VPA) },
	{ OPT_VPA_MARGIN, "--vpa-margin", MBIT(M_VPA) },
	{ OPT_TOD_MIN, "--tod-min", MBIT(M_TOD) },
	{ OPT_TOD_OFFSET, "--tod-offset", MBIT(M_TOD) },
	{ OPT_JOINT_MARGIN, "--joint-margin", MBIT(M_JOINT) },
};
#define NMETHOD_OPTS (sizeof method_opts / sizeof method_opts[0])
static bool method_opt_given[NMETHOD_OPTS];
static double prog_done, prog_total;   /* progress: periods replayed */

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Configurations (every combination is run):", 1 },
	{ "method", OPT_METHOD, "LIST", 0,
	  "overbook, aggregate, drift, peak, pct, nsigma, vpa, calibrated, "
	  "mean, tod, hindsight, joint, clairvoyant or clairvoyant-pct "
	  "(default: the first eight)",
	  0 },
	{ "cpus", OPT_CPUS, "LIST", 0,
	  "Node sizes [cpu] (default 4,8,16)", 0 },
	{ "tolerance", OPT_O, "LIST", 0,
	  "Tolerances O, 0 <= O < 1 (default 0.01,0.05)", 0 },
	{ "train", OPT_TRAIN, "LIST", 0,
	  "Training windows: N seconds, or N followed by s, m, h, d or w "
	  "(default 14d,28d)", 0 },
	{ "replay", OPT_REPLAY, "DURATION", 0,
	  "The replayed period (default 7d)", 0 },
	{ "plan", OPT_PLAN, "LIST", 0,
	  "rolling (re-planned every period on the training window before "
	  "it, from the last plan; the default), afresh (the same, from "
	  "scratch every period: moves unbounded) and/or one-shot (planned "
	  "once on the first window)", 0 },
	{ "periods", OPT_PERIODS, "N", 0,
	  "Periods replayed (default: until the series end)", 0 },
	{ "start", OPT_START, "T", 0,
	  "The first training window starts at T [s since the epoch] "
	  "(default: the first sample's time rounded up to a day, UTC)", 0 },
	{ "nodes", OPT_NODES, "K", 0,
	  "A pool of K nodes (default 0: as many as needed)", 0 },
	{ "policy", OPT_POLICY, "POLICY", 0,
	  "The engine's placement policy, as ovb-place --policy: "
	  "first-fit-decreasing (default: the densest; the hindsight's), "
	  "worst-fit, best-fit, tolerance or random (seed 1)", 0 },
	{ "jobs", OPT_JOBS, "N", 0,
	  "Run the groups of configurations (plan kind x training window x "
	  "tolerance: every node size and method of one group share its "
	  "profiles) in up to N processes at once (default 1); the output is "
	  "the same bytes for every N", 0 },
	{ "keep", OPT_KEEP, "DIR", 0,
	  "Write each configuration's periods as DIR/cID/pK/: cluster, apps, "
	  "profiles, previous (the plan re-planned from), plan and cmd, the "
	  "ovb-place command that makes plan from them (run in that "
	  "directory)", 0 },
	{ "max-moves", OPT_MOVES, "M", 0,
	  "rolling: every VM stays on its node of the period before, the "
	  "nodes the new profiles break are repaired by at most M moves (as "
	  "ovb-place --max-moves M on the previous plan), then the rest is "
	  "placed; default: moves unbounded", 0 },
	{ "consolidate", OPT_CONSOLIDATE, "C", OPTION_ARG_OPTIONAL,
	  "rolling: after the repair, moves empty whole nodes (ovb-place "
	  "--consolidate): with --max-moves M, those the repair leaves of M "
	  "(the plan compact:M); --consolidate=C without --max-moves, the "
	  "repair unbounded and then at most C moves (the plan "
	  "consolidate:C)", 0 },
	{ NULL, 0, NULL, 0, "Memory (when the series have mem series):", 2 },
	{ "mem", OPT_MEM, "LIST", 0,
	  "Node memory [GiB] of each --cpus size, in order (one value: every "
	  "size; default 4 GiB a cpu; 0: memory not modeled)", 0 },
	{ "mem-pool", OPT_POOL, "LIST", 0,
	  "The reclaimable pool [GiB] beyond node memory that the VMs' limits "
	  "may use, per --cpus size as --mem (default a quarter of the node's "
	  "memory)", 0 },
	{ "mem-rule", OPT_MRULE, "RULE", 0,
	  "pool (default: the requests within node memory, the limits within "
	  "it plus the pool, Pr(sum of window peaks > MEM) <= O) or promise "
	  "(only Pr(sum of window peaks > MEM) <= O, the limits for "
	  "enforcement: ovb-place --mem-rule promise; every method but "
	  "nsigma, whose mode has no such rule)", 0 },
	{ "mem-margin", OPT_MMARGIN, "M", 0,
	  "A VM's memory limit is its largest window peak times 1 + M, "
	  "rounded up to a byte (default 0.15, as ovb-profile)", 0 },
	{ "mem-window", OPT_MWIN, "DURATION", 0,
	  "Memory window peaks: the largest sample of each window [kW, "
	  "(k+1)W) of the training period with a sample, W a multiple of "
	  "the series' interval (default 1h, as ovb-usage -r mem)", 0 },
	{ NULL, 0, NULL, 0, "Methods:", 3 },
	{ "tod-min", OPT_TOD_MIN, "MIN", 0,
	  "tod: adjacent hours of a day type are merged into a window until "
	  "it holds at least MIN training intervals, as ovb-usage --tod MIN "
	  "(default ceil(10 / O): ten intervals at or above the window's "
	  "(1-O) percentile)", 0 },
	{ "tod-offset", OPT_TOD_OFFSET, "SECONDS", 0,
	  "tod: the windows' clock is UTC + SECONDS, as ovb-usage "
	  "--tod-offset (default 0; -86399..86399, a multiple of the "
	  "interval; Bitbrains, CEST: 7200)", 0 },
	{ "tau", OPT_TAU, "S", 0,
	  "overbook: the period tau of Eq. 1 [s] (default 86400)", 0 },
	{ "grid", OPT_GRID, "POINTS", 0,
	  "overbook, aggregate: a node's grid is at least CPUS/POINTS wide "
	  "(default 1000, as ovb-place)", 0 },
	{ "growth-max", OPT_GROWTH, "F", 0,
	  "drift, calibrated: the trend's factor is at most F (default 4)",
	  0 },
	{ "cal-half-life", OPT_CAL_HALF, "S", 0,
	  "calibrated: the samples' weights halve every S seconds back from "
	  "the window's end, and so do the trend's days' (default 604800; "
	  "0: no recency weighting)", 0 },
	{ "trend-quantile", OPT_TREND_Q, "Q", 0,
	  "calibrated: the trend is the least-squares line of each day's "
	  "nearest-rank Q quantile, 0 <= Q <= 1 (default 0.9)", 0 },
	{ "k-min", OPT_KMIN, "K", 0,
	  "calibrated: the least inflation tried (default 0.5)", 0 },
	{ "k-max", OPT_KMAX, "K", 0,
	  "calibrated: the largest inflation tried, taken when none holds "
	  "(default 4)", 0 },
	{ "k-step", OPT_KSTEP, "K", 0,
	  "calibrated: the inflations tried are K-MIN + i K-STEP "
	  "(default 0.05)", 0 },
	{ "nsigma", OPT_NSIGMA, "N", 0,
	  "nsigma: a node holds while the sum of means + N sqrt(sum of "
	  "variances) <= CPUS (default 3)", 0 },
	{ "half-life", OPT_HALF, "S", 0,
	  "vpa: the samples' weights halve every S seconds back from the "
	  "window's end (default 86400)", 0 },
	{ "vpa-pct", OPT_VPA_PCT, "P", 0,
	  "vpa: the weighted percentile (default 90)", 0 },
	{ "vpa-margin", OPT_VPA_MARGIN, "M", 0,
	  "vpa: the reservation is the percentile times 1 + M (default 0.15)",
	  0 },
	{ "joint-margin", OPT_JOINT_MARGIN, "M", 0,
	  "joint: its cpu samples of the training window times 1 + M, a "
	  "headroom (as if its nodes had CPUS / (1 + M) cpu); the kept "
	  "series are the samples scaled (default 0)", 0 },
	{ 0 }
};

static const char doc[] =
	"Backtest placement methods on usage series: profile on a training "
	"window, place, replay the next period, per configuration."
	"\v"
	"SERIES are ovb-series files (ovb-import); the cpu series are the "
	"VMs, in order of first appearance.  Methods, each placing VMs on "
	"nodes of CPUS cpu with tolerance O, from each VM's samples in the "
	"training window:\n"
	"  overbook  the paper's Eq. 1 and Eq. 3 (as ovb-place: sigma the "
	"(1-O) percentile, rho = rho(sigma), tau --tau)\n"
	"  aggregate overbook's aggregate mode (ovb-place --mode aggregate): "
	"Eq. 3 alone, Pr(sum > CPUS) <= O for independent VMs (the "
	"independence convolution; no lower bounds here)\n"
	"  drift     aggregate on the samples scaled by their trend: the "
	"least-squares line over the window at the end of the period planned "
	"for, over its mean (at least 1, at most --growth-max)\n"
	"  peak      the sum of the VMs' peaks <= CPUS\n"
	"  pct       the sum of the (1-O) percentiles <= CPUS (p99 at O = 1%)\n"
	"  nsigma    sum of means + N sqrt(sum of variances) <= CPUS, of the "
	"VMs' U (ovb-place --mode nsigma)\n"
	"  vpa       the sum of 1.15 x the p90 of a histogram decaying with a "
	"24 h half-life <= CPUS (the Kubernetes VPA recommender's rule)\n"
	"  calibrated  aggregate on drift-aware samples: weighted by recency "
	"(--cal-half-life), each scaled by the trend of the daily quantiles "
	"(--trend-quantile) from its time to the end of the period planned "
	"for, and all by an inflation k calibrated inside the training "
	"window: the least k (--k-min, --k-step, --k-max) whose plan, made "
	"on the window without its last L = min(REPLAY, TRAIN/2) (and, when "
	"TRAIN >= 4 L, also without its last 2 L, held out L) and forecast "
	"to the end of the part held out, keeps every node's promise on "
	"the held-out part (VMs without samples there left out); per node "
	"size and O.  -v prints each k, -vv every held-out node\n"
	"  mean      the sum of the training means <= CPUS (not in the "
	"default set)\n"
	"  tod       Eq. 1 and Eq. 3 in every time-of-day window (ovb-place "
	"--mode tod: weekday and weekend hours merged to at least --tod-min "
	"training intervals a window; not in the default set)\n"
	"  hindsight the yardstick, not a forecast: the VMs the others place "
	"that have samples in the period, placed on those samples (ovb-place "
	"--mode joint on the period: a node holds when its exact sum exceeds "
	"CPUS in at most a fraction O of the slots, as the replay counts), "
	"afresh every period; with pct, every configuration's gap record: "
	"the share of the nodes between pct and hindsight it saves "
	"(not in the default set)\n"
	"  joint     the same test on the training window's samples "
	"(ovb-place --mode joint --slots overlap on the window: the VMs' sum "
	"above CPUS in at most a fraction O of the slots from the latest "
	"arrival to the earliest departure of the node's VMs, a VM before "
	"its first sample not taken as idle), re-planned as the others (not "
	"in the default set)\n"
	"  clairvoyant  a yardstick too: the hindsight's test on the period's "
	"own samples, but re-planned from its last plan as the others "
	"(--max-moves, --consolidate): what a method that knew the future "
	"reaches under the same plan kind and moves; under --plan afresh "
	"and one-shot it is the hindsight (not in the default set)\n"
	"  clairvoyant-pct  a third yardstick: pct on the period's own "
	"samples (each VM's (1-O) percentile of the period replayed, summed "
	"<= CPUS), re-planned as the clairvoyant: a perfect forecast of every "
	"VM's own tail that does not multiplex; the clairvoyant's gap less "
	"its is what multiplexing earns (not in the default set)\n"
	"Placement: every method is placed by ovb-place's engine with "
	"--policy (default first-fit-decreasing, the densest and the "
	"hindsight's) on the fewest nodes on which it does as well as on one "
	"node a VM; rolling re-plans from the previous plan (--max-moves); "
	"--keep DIR writes each period's inputs and the ovb-place command "
	"that makes the same plan.\n"
	"The promise of every method is the same: a node's cpu sum exceeds "
	"CPUS in at most a fraction O of the replayed slots.  peak is always "
	"computed: VS-PEAK is each configuration's density (VMs per node) "
	"over peak's in the same configuration.\n\n"
	"Memory (mem series of the same VMs): each VM's window peaks (the "
	"largest sample of each --mem-window of the training window with "
	"a sample), its request (their (1-O) percentile) and limit (the "
	"largest times 1 + --mem-margin, rounded up), as ovb-profile makes "
	"them.  Every method also holds a node's limits to its "
	"memory plus --mem-pool, and applies its rule to memory: overbook, "
	"aggregate, drift and calibrated ovb-place's (Pr(sum of window peaks "
	"> MEM) <= O, Eq. 3 with the peaks independent, and the sum of "
	"requests <= MEM); peak the sum of "
	"the largest peaks; pct the sum of requests; nsigma the window "
	"peaks' U's means and variances, and the sum of requests; vpa 1.15 "
	"x the decayed p90 of daily "
	"peaks.  The replay counts, per node, the slots whose memory sum "
	"exceeds MEM (promise: at most a fraction O) and, per VM, the slots "
	"in which its memory exceeds its limit (OOM kills).\n\n"
	"Each period also states a bound: no placement of its VMs, by any "
	"method, uses fewer nodes if every node is to keep its cpu promise "
	"(in hindsight, from the replayed samples), nor fewer than their "
	"memory limits need (the sum over MEM + POOL); summed over the "
	"periods it caps the density any method could reach.\n\n"
	"Progress goes to stderr when it is a terminal.\n\n"
	"EXAMPLES:\n"
	"  ovb-backtest all.series > bt.txt\n"
	"  ovb-backtest -j 2 --cpus 16,32,64 fleet.series > bt.txt\n"
	"  ovb-backtest -m overbook,pct --cpus 8 --tolerance 0.01 --train 14d "
	"jul.series aug.series sep.series\n"
	"  ovb-backtest --plan one-shot --train 31d --replay 31d all.series\n"
	"  ovb-backtest -m overbook --cpus 8 --keep kept all.series; "
	"(cd kept/c1/p1 && sh cmd | cmp - plan)\n\n"
	OVB_EXIT_DOC_NOCHECK;


/* Splits a comma-separated list (checked by ovb_arg_list) in place. */
static int method_of(const char *name);

static size_t
split(struct argp_state *st, const char *opt, char *arg, char **item)
{
	ovb_arg_list(st, opt, arg);
	size_t n = 0;
	for (char *save = NULL, *t = strtok_r(arg, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (n == MAXLIST)
			argp_error(st, "%s: more than %d items", opt, MAXLIST);
		item[n++] = t;
	}
	return n;
}

static const char *method_names(char *buf, size_t len);
static void unused_method_opts(void);

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	char *item[MAXLIST];
	size_t n;
	for (size_t i = 0; i < NMETHOD_OPTS; i++)
		if (method_opts[i].key == key)
			method_opt_given[i] = true;
	switch (key) {
	case OPT_POLICY:
		if ((opt_policy = ovb_place_policy(arg)) < 0)
			argp_error(st, "--policy: '%s' is not worst-fit, "
				"best-fit, tolerance, random or "
				"first-fit-decreasing", arg);
		return 0;
	case OPT_JOBS:
		opt_jobs = ovb_arg_u64(st, "--jobs", arg, 1, 1024);
		return 0;
	case OPT_KEEP:
		opt_keep = arg;
		return 0;
	case OPT_METHOD:
		n = split(st, "--method", arg, item);
		for (size_t i = 0; i < n; i++) {
			int m = method_of(item[i]);
			if (m < 0) {
				char names[256];
				argp_error(st, "--method: '%s' is not %s",
					item[i], method_names(names,
					sizeof names));
			}
			opt_method[m] = true;
		}
		method_given = true;
		return 0;
	case OPT_CPUS:
		n = split(st, "--cpus", arg, item);
		for (size_t i = 0; i < n; i++)
			opt_cpus[i] = ovb_arg_real(st, "--cpus", item[i], 1e-9,
				1e9);
		ncpus = n;
		return 0;
	case OPT_O:
		n = split(st, "--tolerance", arg, item);
		for (size_t i = 0; i < n; i++) {
			opt_O[i] = ovb_arg_real(st, "--tolerance", item[i], 0, 1);
			if (opt_O[i] >= 1)
				argp_error(st, "--tolerance: %s is not below 1",
					item[i]);
		}
		nO = n;
		return 0;
	case OPT_TRAIN:
		n = split(st, "--train", arg, item);
		for (size_t i = 0; i < n; i++)
			opt_train[i] = ovb_arg_seconds(st, "--train", item[i],
				1, OVB_DURATION_MAX);
		ntrain = n;
		return 0;
	case OPT_REPLAY:
		opt_replay = ovb_arg_seconds(st, "--replay", arg,
			1, OVB_DURATION_MAX);
		return 0;
	case OPT_PLAN:
		n = split(st, "--plan", arg, item);
		opt_rolling = opt_oneshot = opt_afresh = false;
		for (size_t i = 0; i < n; i++) {
			if (!strcmp(item[i], "rolling"))
				opt_rolling = true;
			else if (!strcmp(item[i], "one-shot"))
				opt_oneshot = true;
			else if (!strcmp(item[i], "afresh"))
				opt_afresh = true;
			else
				argp_error(st, "--plan: '%s' is not rolling, "
					"afresh or one-shot", item[i]);
		}
		plan_given = true;
		return 0;
	case OPT_PERIODS:
		opt_periods = ovb_arg_u64(st, "--periods", arg, 1, 100000);
		return 0;
	case OPT_START:
		opt_start = ovb_arg_u64(st, "--start", arg, 0, UINT64_C(1) << 61);
		start_given = true;
		return 0;
	case OPT_NODES:
		opt_nodes = ovb_arg_u64(st, "--nodes", arg, 0, 1000000);
		return 0;
	case OPT_TAU:
		opt_tau = ovb_arg_real(st, "--tau", arg, 1e-9, 1e12);
		return 0;
	case OPT_GRID:
		opt_grid = ovb_arg_u64(st, "--grid", arg, 0, 100000000);
		return 0;
	case OPT_MOVES:
		opt_moves = ovb_arg_u64(st, "--max-moves", arg, 0, UINT64_MAX);
		opt_repair = true;
		return 0;
	case OPT_CONSOLIDATE:
		opt_consolidate = true;
		if (arg)
			opt_cons = ovb_arg_u64(st, "--consolidate", arg, 1,
				UINT64_MAX);
		return 0;
	case OPT_MRULE:
		if (strcmp(arg, "pool") && strcmp(arg, "promise"))
			argp_error(st, "--mem-rule: '%s' is not pool or promise",
				arg);
		opt_promise = !strcmp(arg, "promise");
		return 0;
	case OPT_MEM:
	case OPT_POOL: {
		const char *o = key == OPT_MEM ? "--mem" : "--mem-pool";
		double *x = key == OPT_MEM ? opt_mem : opt_pool;
		n = split(st, o, arg, item);
		for (size_t i = 0; i < n; i++)
			x[i] = ovb_arg_real(st, o, item[i], 0, 1e9);
		*(key == OPT_MEM ? &nmem : &npool) = n;
		return 0;
	}
	case OPT_MMARGIN:
		opt_mmargin = ovb_arg_real(st, "--mem-margin", arg, 0, 100);
		return 0;
	case OPT_TOD_MIN:
		opt_tod_min = ovb_arg_u64(st, "--tod-min", arg, 1,
			UINT64_C(1) << 53);
		return 0;
	case OPT_TOD_OFFSET:
		opt_tod_offset = ovb_arg_i64(st, "--tod-offset", arg,
			OVB_DAY - 1);
		return 0;
	case OPT_MWIN:
		opt_mwin = ovb_arg_seconds(st, "--mem-window", arg,
			1, OVB_DURATION_MAX);
		return 0;
	case OPT_GROWTH:
		opt_growth_max = ovb_arg_real(st, "--growth-max", arg, 1, 1e6);
		opt_drift.growth_max = opt_growth_max;
		return 0;
	case OPT_CAL_HALF:
		opt_drift.half_life = ovb_arg_real(st, "--cal-half-life", arg, 0,
			1e12);
		return 0;
	case OPT_TREND_Q:
		opt_drift.trend_q = ovb_arg_real(st, "--trend-quantile", arg, 0,
			1);
		return 0;
	case OPT_KMIN:
		opt_kmin = ovb_arg_real(st, "--k-min", arg, 1e-6, 1e6);
		return 0;
	case OPT_KMAX:
		opt_kmax = ovb_arg_real(st, "--k-max", arg, 1e-6, 1e6);
		return 0;
	case OPT_KSTEP:
		opt_kstep = ovb_arg_real(st, "--k-step", arg, 1e-6, 1e6);
		return 0;
	case OPT_NSIGMA:
		opt_nsigma = ovb_arg_real(st, "--nsigma", arg, 0, 1000);
		return 0;
	case OPT_HALF:
		opt_half = ovb_arg_real(st, "--half-life", arg, 1, 1e12);
		return 0;
	case OPT_VPA_PCT:
		opt_vpa_pct = ovb_arg_real(st, "--vpa-pct", arg, 0, 100);
		return 0;
	case OPT_VPA_MARGIN:
		opt_vpa_margin = ovb_arg_real(st, "--vpa-margin", arg, 0, 100);
		return 0;
	case OPT_JOINT_MARGIN:
		opt_joint_margin = ovb_arg_real(st, "--joint-margin", arg, 0,
			100);
		return 0;
	case ARGP_KEY_SUCCESS:
		if (nmem > 1 && nmem != ncpus)
			argp_error(st, "--mem: %zu sizes for %zu --cpus sizes",
				nmem, ncpus);
		for (size_t i = 0; nmem > 1 && i < nmem; i++)
			if (!(opt_mem[i] > 0))
				argp_error(st, "--mem: 0 (memory not modeled) "
					"must be the only value");
		if (npool > 1 && npool != ncpus)
			argp_error(st, "--mem-pool: %zu sizes for %zu --cpus "
				"sizes", npool, ncpus);
		if (!method_given)     /* the rows before mean */
			for (int k = 0; k < M_MEAN; k++)
				opt_method[k] = true;
		(void)plan_given;
		if (opt_kmax < opt_kmin)
			argp_error(st, "--k-max %g is below --k-min %g", opt_kmax,
				opt_kmin);
		unused_method_opts();
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "SERIES...", doc,
	ovb_cli_child, NULL, NULL };

/* ---- VMs and their profiles ---- */

struct vm {
	const struct ovb_series *s;     /* cpu */
	const char *file;               /* where s was read */
	const struct ovb_series *m;     /* mem; NULL: none */
	const char *mfile;
};
static struct vm *vms;
static size_t nvm;
static uint64_t interval;           /* I [s], common to every series */

/* [lo, hi) of s's samples with t in [a, b). */
static void
window(const struct ovb_series *s, uint64_t a, uint64_t b, size_t *lo,
	size_t *hi)
{
	size_t l = 0, h = s->n;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (s->t[m] < a)
			l = m + 1;
		else
			h = m;
	}
	*lo = l;
	h = s->n;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (s->t[m] < b)
			l = m + 1;
		else
			h = m;
	}
	*hi = l;
}

/* s's samples with t in [a, b) as a series of their own (sharing s's
 * arrays); their number. */
static size_t
window_view(const struct ovb_series *s, uint64_t a, uint64_t b,
	struct ovb_series *view)
{
	size_t lo, hi;
	window(s, a, b, &lo, &hi);
	*view = *s;
	view->t = s->t + lo;
	view->v = s->v + lo;
	view->n = view->cap = hi - lo;
	return view->n;
}

struct prof {
	bool ok;                /* samples in the training window */
	double peak, pct, mean, var, vpa, rho;
	struct ovb_dist d;      /* U on 0.01 cpu bins */
	struct ovb_need need;   /* overbook's (Eq. 1 and 3, the eq1 mode) */
	double growth;          /* drift: the trend's factor to the horizon */
	struct ovb_dist dd;     /* drift: U of the samples times growth */
	struct ovb_need dneed;  /* drift: aggregate mode on dd */
	struct ovb_dist cd;     /* calibrated: the forecast samples times k */
	struct ovb_need cneed;  /* calibrated: aggregate mode on cd */
	struct ovb_dist td;     /* tod: d with its time-of-day windows */
	struct mprof {          /* memory [B] (when modeled) */
		double peak, req, lim;  /* largest window peak, request, limit */
		double top;             /* the largest sample */
		double mean, var, vpa;  /* of the window peaks; vpa's */
		struct ovb_dist d;      /* U: the window peaks */
		struct ovb_need need;   /* aggregate mode on d */
	} mp;
};

struct wv { double v, w; };

static int
cmp_wv(const void *a, const void *b)
{
	const struct wv *x = a, *y = b;
	return (x->v > y->v) - (x->v < y->v);
}

/* The weighted percentile opt_vpa_pct of wv[0..n) (n >= 1), sorting it. */
static double
wpct(struct wv *wv, size_t n)
{
	double W = 0, cum = 0;
	for (size_t i = 0; i < n; i++)
		W += wv[i].w;
	ovb_qsort(wv, n, sizeof *wv, cmp_wv);
	double target = W * opt_vpa_pct / 100;
	for (size_t i = 0; i < n; i++)
		if ((cum += wv[i].w) >= target)
			return wv[i].v;
	return wv[n - 1].v;
}

/* tod: p->td, p->d with time-of-day windows (lib/tod.c, as ovb-usage
 * --tod MIN --tod-offset makes them, MIN --tod-min or ceil(10 / O): at
 * least 10 intervals at or above a window's (1-O) percentile; O 0: a
 * window a day type) from the intervals sm->t, tv in time order, and
 * each window's token-bucket curve from view. */
static int
tod_profile(size_t v, struct prof *p, const struct ovb_samples *sm,
	const double *tv, const struct ovb_series *view, double O)
{
	uint64_t min = opt_tod_min ? opt_tod_min : O > 0 ?
		(uint64_t)ceil(10 / O) : UINT64_MAX;
	p->td = p->d;
	p->td.tod = (struct ovb_tod){ 0 };
	p->td.h.count = ovb_xcalloc(p->d.h.nbins + 1, sizeof *p->td.h.count);
	memcpy(p->td.h.count, p->d.h.count, p->d.h.nbins *
		sizeof *p->td.h.count);
	ovb_tod_fill(&p->td, sm->t, tv, sm->n, opt_tod_offset, min);
	const char *why = NULL;
	if (ovb_tod_curves(&p->td, view, &why))
		return ovb_err_at(vms[v].file, vms[v].s->line, "vm %s: a "
			"time-of-day window's token-bucket curve: %s",
			vms[v].s->capsule, why ? why : "?");
	return 0;
}

/* The profile of VM v over the training window [a, b) at tolerance O. */
static int
profile(size_t v, uint64_t a, uint64_t b, uint64_t horizon, double O,
	struct prof *p)
{
	memset(p, 0, sizeof *p);
	const struct ovb_series *s = vms[v].s;
	struct ovb_series view;
	if (!window_view(s, a, b, &view))
		return 0;
	struct ovb_samples sm;
	ovb_series_measure(&view, interval, &sm);
	if (!sm.n) {
		ovb_samples_free(&sm);
		return 0;
	}
	/* tod: the intervals in time order (ovb_dist_fill sorts sm.v) */
	double *tv = NULL;
	if (opt_method[M_TOD]) {
		tv = ovb_xcalloc(sm.n, sizeof *tv);
		memcpy(tv, sm.v, sm.n * sizeof *tv);
	}
	/* the weighted percentile first: ovb_dist_fill sorts sm.v */
	struct wv *wv = ovb_xcalloc(view.n, sizeof *wv);
	for (size_t i = 0; i < view.n; i++) {
		wv[i].v = view.v[i];
		wv[i].w = exp2(-((double)(b - view.t[i]) - (double)interval) /
			opt_half);
	}
	p->vpa = wpct(wv, view.n) * (1 + opt_vpa_margin);
	free(wv);
	double sum2 = 0;
	for (size_t i = 0; i < sm.n; i++)
		sum2 += (sm.v[i] - sm.mean) * (sm.v[i] - sm.mean);
	p->var = sum2 / (double)sm.n;
	p->mean = sm.mean;
	p->peak = sm.peak;
	double sm_mean = sm.mean;
	double pc = 100 - 100 * O;
	p->d.capsule = s->capsule;
	p->d.res = OVB_CPU;
	p->d.interval = (double)interval;
	if (!ovb_dist_fill(&p->d, &sm, ovb_auto_width(OVB_CPU, sm.peak), &pc,
	    1)) {
		free(tv);
		ovb_samples_free(&sm);
		return ovb_err_at(vms[v].file, s->line, "vm %s: its usage "
			"needs more than "
			"%d bins of %g cpu", s->capsule, OVB_MAXBINS,
			ovb_auto_width(OVB_CPU, sm.peak));
	}
	if (tv) {
		int st = tod_profile(v, p, &sm, tv, &view, O);
		free(tv);
		if (st) {
			ovb_samples_free(&sm);
			return st;
		}
	}
	ovb_samples_free(&sm);
	p->pct = p->d.pct_v[0];
	struct ovb_curve cv;
	const char *why = NULL;
	memset(&cv, 0, sizeof cv);
	if (ovb_series_tbucket(&view, &cv, &why)) {
		free(p->d.h.count);
		return ovb_err_at(vms[v].file, s->line, "vm %s: no "
			"token-bucket curve: %s",
			s->capsule, why ? why : "?");
	}
	p->rho = ovb_curve_at(cv.pt, cv.n, p->pct);
	free(cv.capsule);
	free(cv.pt);
	p->need = (struct ovb_need){ .used = true, .sigma = p->pct,
		.rho = p->rho, .tau = opt_tau, .O = O, .h = &p->d.h,
		.interval = (double)interval };
	/* drift: the least-squares line of the samples over the window,
	 * its value at the horizon (the end of the period planned for)
	 * over its mean, at least 1: the samples are scaled by it */
	double tm = 0, vm = 0, stt = 0, stv = 0;
	for (size_t i = 0; i < view.n; i++) {
		tm += (double)(view.t[i] - a);
		vm += view.v[i];
	}
	tm /= (double)view.n;
	vm /= (double)view.n;
	for (size_t i = 0; i < view.n; i++) {
		double dt = (double)(view.t[i] - a) - tm;
		stt += dt * dt;
		stv += dt * (view.v[i] - vm);
	}
	double slope = stt > 0 ? stv / stt : 0;
	double at = (double)(horizon - a) - tm;
	p->growth = vm > 0 ? (vm + slope * at) / vm : 1;
	if (!(p->growth >= 1))
		p->growth = 1;
	if (p->growth > opt_growth_max)
		p->growth = opt_growth_max;
	struct ovb_samples sd = { .n = view.n };
	sd.v = ovb_xcalloc(view.n, sizeof *sd.v);
	for (size_t i = 0; i < view.n; i++) {
		sd.v[i] = view.v[i] * p->growth;
		if (sd.v[i] > sd.peak)
			sd.peak = sd.v[i];
	}
	sd.mean = sm_mean * p->growth;
	p->dd = p->d;
	p->dd.h.count = NULL;
	bool ok = ovb_dist_fill(&p->dd, &sd, ovb_auto_width(OVB_CPU, sd.peak),
		&pc, 1);
	ovb_samples_free(&sd);
	if (!ok) {
		free(p->d.h.count);
		return ovb_err_at(vms[v].file, s->line, "vm %s: its drifted "
			"usage needs more than %d bins", s->capsule, OVB_MAXBINS);
	}
	p->dneed = p->need;
	p->dneed.h = &p->dd.h;
	p->dneed.sigma = p->dd.pct_v[0];
	p->dneed.agg = true;
	p->ok = true;
	return 0;
}

/* ---- methods: rows of one table ----
 *
 * A method is its name, the node test (T_EQ1: Eq. 1 and Eq. 3, the
 * paper's mode; T_AGG: Eq. 3 on the node's sum, Eq. 1 reduced to the
 * lower bounds, ovb-place --mode aggregate; T_SUM: the exact sum of the
 * per-VM reservations at most C, no (1 - O) discount; T_NSIGMA: the
 * U's means + n sqrt(their summed variance) at most C, exactly,
 * ovb-place --mode nsigma), the per-VM cpu reservation (the summand of
 * T_SUM), the profile a profiled test uses (sigma, rho and U) and the
 * per-VM memory summand of T_SUM.  Every test is placed by lib/place.c's
 * engine, as ovb-place places (T_SUM as plain cpu= reservations, with
 * memory mem= the summand and mem-limit= the limit). */
enum test { T_EQ1, T_AGG, T_SUM, T_NSIGMA, T_TOD, T_JOINT };

static double sz_eq1(const struct prof *p)
{ return ovb_eq1_term(&p->need, p->need.tau); }
static double sz_pct(const struct prof *p) { return p->pct; }
static double sz_drift(const struct prof *p) { return p->dneed.sigma; }
static double sz_cal(const struct prof *p) { return p->cneed.sigma; }
static double sz_peak(const struct prof *p) { return p->peak; }
static double sz_nsigma(const struct prof *p)
{ return p->mean + opt_nsigma * sqrt(p->var); }
static double sz_vpa(const struct prof *p) { return p->vpa; }
static double sz_mean(const struct prof *p) { return p->mean; }
static const struct ovb_need *nd_plain(const struct prof *p)
{ return &p->need; }
static const struct ovb_need *nd_drift(const struct prof *p)
{ return &p->dneed; }
static const struct ovb_need *nd_cal(const struct prof *p)
{ return &p->cneed; }
static const struct ovb_dist *u_plain(const struct prof *p) { return &p->d; }
static const struct ovb_dist *u_drift(const struct prof *p) { return &p->dd; }
static const struct ovb_dist *u_cal(const struct prof *p) { return &p->cd; }
static const struct ovb_dist *u_tod(const struct prof *p) { return &p->td; }
static double ms_req(const struct mprof *p) { return p->req; }
static double ms_peak(const struct mprof *p) { return p->peak; }
static double ms_vpa(const struct mprof *p) { return p->vpa; }
static double ms_mean(const struct mprof *p) { return p->mean; }

static const struct mrow {
	const char *name;
	enum test test;
	double (*size)(const struct prof *p);
	const struct ovb_need *(*need)(const struct prof *p);
	const struct ovb_dist *(*u)(const struct prof *p);
	double (*msize)(const struct mprof *p);
	bool afresh;            /* planned afresh every period, never re-planned
	                           from the last plan */
	bool on_period;         /* profiled on the period replayed itself (the
	                           hindsight, the clairvoyant): planned every
	                           period, no validity */
} methods[] = {
	[M_OVERBOOK] = { "overbook", T_EQ1, sz_eq1, nd_plain, u_plain, ms_req,
		false, false },
	[M_AGG] = { "aggregate", T_AGG, sz_pct, nd_plain, u_plain, ms_req,
		false, false },
	[M_DRIFT] = { "drift", T_AGG, sz_drift, nd_drift, u_drift, ms_req,
		false, false },
	[M_PEAK] = { "peak", T_SUM, sz_peak, NULL, NULL, ms_peak,
		false, false },
	[M_PCT] = { "pct", T_SUM, sz_pct, NULL, NULL, ms_req, false, false },
	[M_NSIGMA] = { "nsigma", T_NSIGMA, sz_nsigma, nd_plain, u_plain, ms_req,
		false, false },
	[M_VPA] = { "vpa", T_SUM, sz_vpa, NULL, NULL, ms_vpa, false, false },
	[M_CAL] = { "calibrated", T_AGG, sz_cal, nd_cal, u_cal, ms_req,
		false, false },
	[M_MEAN] = { "mean", T_SUM, sz_mean, NULL, NULL, ms_mean,
		false, false },
	[M_TOD] = { "tod", T_TOD, sz_eq1, nd_plain, u_tod, ms_req,
		false, false },
	[M_HIND] = { "hindsight", T_JOINT, sz_pct, nd_plain, u_plain, ms_req,
		.afresh = true, .on_period = true },
	[M_JOINT] = { "joint", T_JOINT, sz_pct, nd_plain, u_plain, ms_req,
		false, false },
	[M_SEER] = { "clairvoyant", T_JOINT, sz_pct, nd_plain, u_plain, ms_req,
		.on_period = true },
	[M_SEERPCT] = { "clairvoyant-pct", T_SUM, sz_pct, NULL, NULL, ms_req,
		.on_period = true },
};

/* The row named NAME, or -1. */
static int
method_of(const char *name)
{
	for (int k = 0; k < NMETHOD; k++)
		if (!strcmp(name, methods[k].name))
			return k;
	return -1;
}

/* "overbook, aggregate, ... or clairvoyant": every row's name, in buf. */
static const char *
method_names(char *buf, size_t len)
{
	size_t at = 0;
	for (int k = 0; k < NMETHOD && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", !k ? "" :
			k == NMETHOD - 1 ? " or " : ", ", methods[k].name);
	return buf;
}

/* Says each option of method_opts given whose methods -m does not run. */
static void
unused_method_opts(void)
{
	unsigned run = 0;
	for (int m = 0; m < NMETHOD; m++)
		run |= opt_method[m] ? MBIT(m) : 0;
	for (size_t i = 0; !ovb_quiet && i < NMETHOD_OPTS; i++) {
		unsigned want = method_opts[i].methods;
		if (!method_opt_given[i] || (run & want))
			continue;
		char names[64] = "";
		size_t len = 0, k = 0;
		for (int m = 0; m < NMETHOD; m++)
			if (want & MBIT(m))
				len += (size_t)snprintf(names + len,
					sizeof names - len, "%s%s",
					k++ ? " and " : "", methods[m].name);
		ovb_warn("%s: %s %s not run (-m): it changes nothing",
			method_opts[i].name, names, k > 1 ? "are" : "is");
	}
}

static double
size_of(enum method m, const struct prof *p)
{
	return methods[m].size(p);
}

/* ---- memory ---- */

static bool mem_on;             /* the VMs' memory is modeled */

/* hindsight: the VMs' cpu series (copies sharing their arrays: the joint
 * mode's file) and their table for the period replayed, [from, to) */
static struct ovb_series_set cpu_set;
static struct ovb_joint hind_j;
/* joint: the same on the training window */
static struct ovb_joint train_j;



/* VM v's memory profile over [a, b), as ovb-usage -r mem and ovb-profile
 * make it: window peaks (the largest sample of each window [kW, (k+1)W)
 * in [a, b) with a sample, W = opt_mwin: the largest peak is the largest
 * sample), the request (their (1-O) percentile), the limit (the largest x
 * (1 + margin), rounded up to a whole byte).  Clears p->ok when v has no
 * memory sample there (it cannot be placed). */
static int
mem_profile(size_t v, uint64_t a, uint64_t b, double O, struct prof *p)
{
	struct mprof *mp = &p->mp;
	free(mp->d.h.count);
	memset(mp, 0, sizeof *mp);
	const struct ovb_series *s = vms[v].m;
	struct ovb_series view;
	if (!s || !window_view(s, a, b, &view)) {
		p->ok = false;
		return 0;
	}
	struct ovb_samples sm;
	ovb_series_peaks(&view, opt_mwin, &sm);
	if (!sm.n) {
		ovb_samples_free(&sm);
		p->ok = false;
		return 0;
	}
	size_t nday = (size_t)((b - a + OVB_DAY - 1) / OVB_DAY);
	struct wv *day = ovb_xcalloc(nday, sizeof *day);
	for (size_t i = 0; i < view.n; i++) {
		if (view.v[i] > mp->top)
			mp->top = view.v[i];
		size_t d = (size_t)((view.t[i] - a) / OVB_DAY);
		if (view.v[i] > day[d].v)
			day[d].v = view.v[i];
		day[d].w = 1;   /* a day with a sample */
	}
	/* vpa: the weighted percentile of the daily peaks, each weighed at
	 * its day's end (the window's end at most) */
	size_t nd = 0;
	for (size_t d = 0; d < nday; d++)
		if (day[d].w) {
			uint64_t end = a + (d + 1) * OVB_DAY;
			if (end > b)
				end = b;
			day[nd].v = day[d].v;
			day[nd++].w = exp2(-(double)(b - end) / opt_half);
		}
	mp->vpa = wpct(day, nd) * (1 + opt_vpa_margin);
	free(day);
	double sum2 = 0;
	for (size_t i = 0; i < sm.n; i++)
		sum2 += (sm.v[i] - sm.mean) * (sm.v[i] - sm.mean);
	mp->mean = sm.mean;
	mp->var = sum2 / (double)sm.n;
	mp->peak = sm.peak;
	mp->lim = ceil(sm.peak * (1 + opt_mmargin));
	double pc = 100 - 100 * O;
	mp->d.capsule = s->capsule;
	mp->d.res = s->res;
	mp->d.interval = (double)opt_mwin;
	/* bins as net's: the least 1, 2 or 5 times a power of ten at least
	 * peak/100 */
	bool ok = ovb_dist_fill(&mp->d, &sm, ovb_auto_width(OVB_NET, sm.peak),
		&pc, 1);
	ovb_samples_free(&sm);
	if (!ok)
		return ovb_err_at(vms[v].mfile, s->line, "vm %s: its memory "
			"needs more than %d bins", s->capsule, OVB_MAXBINS);
	mp->req = mp->d.pct_v[0];
	mp->need = (struct ovb_need){ .used = true, .sigma = mp->req,
		.tau = OVB_PLAIN_TAU, .O = O, .h = &mp->d.h,
		.interval = (double)opt_mwin, .agg = true };
	return 0;
}

/* ---- what a method places ---- */

/* The need a profiled method's VMs carry (T_EQ1, T_AGG, T_NSIGMA). */
static const struct ovb_need *
need_of(enum method m, const struct prof *p)
{
	return methods[m].need(p);
}

/* Is a VM of method m a profiled capsule (T_SUM: plain reservations)? */
static bool
profiled(enum method m)
{
	return methods[m].test != T_SUM;
}

/* The method's per-VM memory summand (T_SUM's mem=). */
static double
mem_size(enum method m, const struct mprof *p)
{
	return methods[m].msize(p);
}

/* ---- one configuration ---- */

struct text { char *buf; size_t len; };

struct cfg {
	size_t id;                      /* its ID, c1, c2, ... (--keep) */
	struct text plan;               /* the last plan (engine methods) */
	enum method m;
	double cpus, O;
	uint64_t train;
	bool rolling;                   /* planned every period */
	bool afresh;                    /* from scratch (--plan afresh) */
	struct ovb_backtest bt;         /* this configuration's records */
	size_t *prev;                   /* per VM: node index, OVB_NONE */
	uint64_t valid;                 /* one-shot: the forecast's date */
	bool has_test, test_passed;     /* one-shot: the held-out test */
	uint64_t test_mid, test_end;
	double k;                       /* calibrated: the last plan's k */
	double placed, nodes;           /* for VS-PEAK */
	double mem, pool;               /* node memory, its pool [B]; 0: off */
	bool promise;                   /* memory by the promise rule */
};

/* The joint table of c's method (the period's: hindsight's and the
 * clairvoyant's; the training window's: joint's). */
static const struct ovb_joint *
jtab(const struct cfg *c)
{
	return methods[c->m].on_period ? &hind_j : &train_j;
}

/* joint's table: the cpu samples of [a, b), the spans seen (a forecast:
 * a VM that had not arrived is not idle), each times 1 + --joint-margin. */
static void
joint_train(uint64_t a, uint64_t b)
{
	size_t bad = 0;
	memset(&train_j, 0, sizeof train_j);
	if (ovb_joint_make(&train_j, &cpu_set, a, b, "series", &bad))
		abort();        /* one interval */
	train_j.overlap = true;
	for (size_t r = 0; opt_joint_margin && r < train_j.nrows; r++)
		for (size_t k = 0; k < train_j.nslots; k++)
			train_j.v[r][k] *= 1 + opt_joint_margin;
}

/* ---- placing through the engine (lib/place.c), as ovb-place places ----
 *
 * A period's inputs are written in the project's formats (a cluster of K
 * identical nodes n1..nK, one application per VM with one capsule "vm",
 * the VMs' profiles, the previous period's plan when re-planning), read
 * back by the formats' readers, and placed by ovb_place_run with
 * ovb-place's options: --keep writes these very texts, so ovb-place on
 * them makes the same plan, byte for byte.  K is the least number of
 * nodes (at least the previous plan's) on which the policy places as many
 * VMs, with as few nodes left broken by the repair, as on one node a VM. */

static _Noreturn void
nomem(void)
{
	ovb_warn("out of memory");
	exit(OVB_ESOFT);
}

static FILE *
text_open(struct text *t)
{
	free(t->buf);
	t->buf = NULL;
	t->len = 0;
	return ovb_xmemstream(&t->buf, &t->len);
}

static void
text_close(FILE *f)
{
	if (fclose(f))
		nomem();
}

/* Reads text t (named name in messages) by rd into out. */
static int
text_read(const struct text *t, const char *name,
	int (*rd)(struct ovb_lex *lx, void *out), void *out)
{
	FILE *f = fmemopen(t->buf, t->len, "r");
	if (!f)
		nomem();
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, name);
	int st = rd(&lx, out);
	ovb_lex_free(&lx);
	fclose(f);
	return st;
}

static int rd_cluster(struct ovb_lex *lx, void *o)
{ return ovb_cluster_read(lx, o); }
static int rd_apps(struct ovb_lex *lx, void *o)
{ return ovb_apps_read(lx, o); }
static int rd_plan(struct ovb_lex *lx, void *o)
{ return ovb_plan_read(lx, o); }

/* Profiles as ovb-place takes a file of them (merged, remembering it). */
static int
rd_prof(struct ovb_lex *lx, void *o)
{
	struct ovb_profiles p;
	int st = ovb_profile_read(lx, &p);
	if (!st)
		return ovb_profile_merge(o, &p, lx->name);
	ovb_profile_free(&p);
	return st;
}

/* The cluster: K nodes of c's size (and memory). */
static void
cluster_text(const struct cfg *c, size_t K, struct text *t)
{
	FILE *f = text_open(t);
	char a[32], b[32];
	fputs("ovb-cluster 1\n# node NAME CPU cpu NET B/s [mem M B mem-pool "
		"P B]: ovb-backtest's identical nodes\n", f);
	for (size_t k = 0; k < K; k++) {
		fprintf(f, "node n%zu %s cpu 125000000 B/s", k + 1,
			ovb_fmt_real(a, c->cpus));
		if (c->mem > 0) {
			fprintf(f, " mem %s B", ovb_fmt_real(b, c->mem));
			if (c->pool > 0)
				fprintf(f, " mem-pool %s B",
					ovb_fmt_real(a, c->pool));
		}
		fputc('\n', f);
	}
	text_close(f);
}

/* The profiles of the placeable VMs: a convolving method's profile (its
 * sigma, rho, tau, O and U) and, when memory is modeled, the memory
 * block (request, limit, the window peaks' U); a sum's VMs have none
 * (plain cpu= and mem= reservations). */
static void
profile_text(const struct cfg *c, const struct prof *pr, struct text *t)
{
	struct ovb_profiles ps = { 0 };
	for (size_t v = 0; v < nvm; v++) {
		if (!pr[v].ok)
			continue;
		if (profiled(c->m)) {
			const struct ovb_need *n = need_of(c->m, &pr[v]);
			*OVB_PUSH(ps.q, ps.n, ps.cap) = (struct ovb_qos){
				.sigma = n->sigma, .rho = n->rho,
				.tau = n->tau, .O = c->O,
				.U = *methods[c->m].u(&pr[v]) };
		}
		if (c->mem > 0 && profiled(c->m)) {
			const struct mprof *mp = &pr[v].mp;
			*OVB_PUSH(ps.q, ps.n, ps.cap) = (struct ovb_qos){
				.sigma = mp->req, .tau = (double)opt_mwin,
				.limit = mp->lim, .O = c->O, .U = mp->d };
		}
	}
	free(t->buf);
	*t = (struct text){ 0 };        /* none: no profiles file */
	if (ps.n) {
		FILE *f = text_open(t);
		ovb_profile_write(f, &ps);
		text_close(f);
	}
	free(ps.q);     /* the blocks' U belong to pr */
}

/* Is VM name placed or rejected in plan p? */
static bool
in_plan(const struct ovb_plan *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->p[i].app, name))
			return true;
	for (size_t i = 0; i < p->nrej; i++)
		if (!strcmp(p->rej[i].app, name))
			return true;
	return false;
}

/* The applications: re-planning, each VM of the previous plan op=modify
 * (op=terminate without a profile now, or when gone[v]: no node takes it
 * alone, as a fresh plan would reject it), then the others op=new (one
 * run, which a decreasing policy sorts), each in the series' order. */
static void
apps_text(const struct cfg *c, const struct prof *pr,
	const struct ovb_plan *prev, const bool *gone, struct text *t)
{
	struct ovb_apps as = { 0 };
	for (int pass = prev ? 0 : 1; pass < 2; pass++)
		for (size_t v = 0; v < nvm; v++) {
			const char *name = vms[v].s->capsule;
			bool old = prev && in_plan(prev, name);
			if (old != !pass || (!pr[v].ok && !old))
				continue;
			struct ovb_app *a = OVB_PUSH(as.app, as.n, as.cap);
			*a = (struct ovb_app){ .name = ovb_xstrdup(name),
				.op = !old ? OVB_OP_NEW : pr[v].ok && !(gone &&
				gone[v]) ? OVB_OP_MODIFY : OVB_OP_TERMINATE,
				.O = NAN,
				.tau = NAN, .aggregate = NAN };
			if (a->op == OVB_OP_TERMINATE)
				continue;
			struct ovb_capsule *k = OVB_PUSH(a->cap, a->ncap,
				a->capcap);
			*k = (struct ovb_capsule){ .name = ovb_xstrdup("vm"),
				.O = NAN, .tau = NAN, .epsilon = NAN };
			if (profiled(c->m)) {
				k->profile = ovb_xstrdup(name);
				continue;
			}
			k->resv[OVB_CPU] = size_of(c->m, &pr[v]);
			if (c->mem > 0) {       /* mem= and mem-limit= */
				k->resv[OVB_MEM] = mem_size(c->m, &pr[v].mp);
				k->limit = pr[v].mp.lim;
			}
			if (!(k->resv[OVB_CPU] > 0 || k->resv[OVB_MEM] > 0 ||
			    k->limit > 0))
				/* ovb-apps wants a positive reservation:
				 * a VM that needs nothing asks 1 B/s of net */
				k->resv[OVB_NET] = 1;
		}
	FILE *f = text_open(t);
	ovb_apps_write(f, &as);
	text_close(f);
	ovb_apps_free(&as);
}

/* One period's inputs, read back as ovb-place reads them. */
struct period_in {
	struct text cluster, apps, prof;
	struct ovb_apps a;
	struct ovb_profiles p;
	struct ovb_plan prev;
	bool have_prev;
};

static void
period_in_free(struct period_in *in)
{
	free(in->cluster.buf);
	free(in->apps.buf);
	free(in->prof.buf);
	ovb_apps_free(&in->a);
	ovb_profile_free(&in->p);
	ovb_plan_free(&in->prev);       /* read in part, or zeroed */
	memset(in, 0, sizeof *in);
}

/* ovb-place's options for c (the command of --keep, after the name). */
static void
place_options(FILE *f, const struct cfg *c, bool have_prev)
{
	fprintf(f, " --policy %s --seed 1 --grid %llu",
		ovb_place_policy_name(opt_policy),
		(unsigned long long)opt_grid);
	if (methods[c->m].test == T_AGG)
		fputs(" --mode aggregate", f);
	if (methods[c->m].test == T_TOD)
		fputs(" --mode tod", f);
	if (methods[c->m].test == T_JOINT)
		fprintf(f, " --mode joint --series series --from %llu --to "
			"%llu%s", (unsigned long long)jtab(c)->from,
			(unsigned long long)jtab(c)->to, jtab(c)->overlap ?
			" --slots overlap" : "");
	if (methods[c->m].test == T_NSIGMA) {
		char n[32];
		fprintf(f, " --mode nsigma --nsigma %s", ovb_fmt_real(n,
			opt_nsigma));
	}
	if (c->promise)
		fputs(" --mem-rule promise", f);
	if (have_prev) {
		fprintf(f, " --max-moves %llu", (unsigned long long)(opt_repair
			? opt_moves : UINT64_MAX));
		if (opt_cons)
			fprintf(f, " --consolidate=%llu",
				(unsigned long long)opt_cons);
		else if (opt_consolidate)
			fputs(" --consolidate", f);
	}
}

/* The engine on in with K nodes: 0 or the status; res set. */
static int
engine_run(const struct cfg *c, struct period_in *in, size_t K, int policy,
	struct ovb_place_res *res)
{
	struct ovb_cluster cl;
	cluster_text(c, K, &in->cluster);
	int st = text_read(&in->cluster, "cluster", rd_cluster, &cl);
	memset(res, 0, sizeof *res);
	if (st) {
		ovb_cluster_free(&cl);
		return st;
	}
	struct ovb_place_req q = { .cluster = &cl, .apps = &in->a,
		.prof = &in->p, .existing = in->have_prev ? &in->prev : NULL,
		.cluster_file = "cluster", .apps_file = "apps",
		.plan_file = "previous", .policy = policy, .seed = 1,
		.grid = opt_grid, .aggregate = methods[c->m].test == T_AGG,
		.nsigma = methods[c->m].test == T_NSIGMA, .nsigma_n = opt_nsigma,
		.tod = methods[c->m].test == T_TOD,
		.joint = methods[c->m].test == T_JOINT ? jtab(c) : NULL,
		.mem_promise = c->promise, .mem_O = NAN,
		.mode_given = methods[c->m].test != T_EQ1,
		.repair = in->have_prev,
		.max_moves = opt_repair ? opt_moves : UINT64_MAX,
		.consolidate = opt_consolidate, .cons_max = opt_cons };
	q.forecast = ovb_profiles_forecast(&in->p);
	bool quiet = ovb_quiet;
	ovb_quiet = true;       /* a trial's warnings are not the answer's */
	st = ovb_place_run(&q, res);
	ovb_quiet = quiet;
	ovb_cluster_free(&cl);
	return st;
}

/* Writes t to DIR/NAME, whole or not at all. */
static int
keep_file(const char *dir, const char *name, const char *buf, size_t len)
{
	char *path = NULL;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		nomem();
	struct ovb_out o;
	int st = ovb_out_open(&o, path);
	if (!st) {
		fwrite(buf, 1, len, o.f);
		st = ovb_out_close(&o, true);
	}
	free(path);
	return st;
}

static int
keep_dir(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST) {
		ovb_warn("%s: cannot create: %s", path, strerror(errno));
		return OVB_EIO;
	}
	return 0;
}

/* hindsight's and joint's kept samples: the cpu series of the VMs
 * placed, their samples in the joint mode's table, the very numbers the
 * plan was made on (joint's times 1 + --joint-margin). */
static int
keep_series(const char *dir, const struct cfg *c, const struct period_in *in)
{
	const struct ovb_joint *j = jtab(c);
	struct ovb_series_set ss = { 0 };
	for (size_t v = 0; v < nvm; v++) {
		bool app = false;       /* each has samples in the window */
		for (size_t i = 0; i < in->a.n && !app; i++)
			app = !strcmp(in->a.app[i].name, vms[v].s->capsule);
		const double *row;
		if (!app || ovb_joint_find(j, vms[v].s->capsule, OVB_CPU, &row))
			continue;
		struct ovb_series s = *vms[v].s;
		s.t = ovb_xmalloc(j->nslots * sizeof *s.t);
		s.v = ovb_xmalloc(j->nslots * sizeof *s.v);
		s.n = 0;
		for (size_t k = 0; k < j->nslots; k++)
			if (!isnan(row[k])) {
				s.t[s.n] = j->t[k];
				s.v[s.n++] = row[k];
			}
		s.cap = s.n;
		*OVB_PUSH(ss.s, ss.n, ss.cap) = s;
	}
	struct text t = { 0 };
	FILE *f = text_open(&t);
	int st = ovb_series_write(f, &ss);
	text_close(f);
	if (!st)
		st = keep_file(dir, "series", t.buf, t.len);
	free(t.buf);
	for (size_t i = 0; i < ss.n; i++) {
		free(ss.s[i].t);
		free(ss.s[i].v);
	}
	free(ss.s);
	return st;
}

/* --keep: period k of c's inputs, plan and command in DIR/cID/pK. */
static int
keep_period(const struct cfg *c, uint64_t k, const struct period_in *in,
	const struct text *plan)
{
	const char *dir = opt_keep ? opt_keep : ".";
	char *d1 = NULL, *d2 = NULL;
	if (asprintf(&d1, "%s/c%zu", dir, c->id) < 0 ||
	    asprintf(&d2, "%s/p%llu", d1, (unsigned long long)k) < 0)
		nomem();
	int st = keep_dir(dir);
	if (!st)
		st = keep_dir(d1);
	if (!st)
		st = keep_dir(d2);
	struct text cmd = { 0 };
	FILE *f = text_open(&cmd);
	fputs("ovb-place", f);
	place_options(f, c, in->have_prev);
	fprintf(f, " cluster apps%s%s\n", in->prof.buf ? " profiles" : "",
		in->have_prev ? " previous" : "");
	text_close(f);
	if (!st)
		st = keep_file(d2, "cmd", cmd.buf, cmd.len);
	if (!st && in->cluster.buf)
		st = keep_file(d2, "cluster", in->cluster.buf, in->cluster.len);
	if (!st && in->apps.buf)
		st = keep_file(d2, "apps", in->apps.buf, in->apps.len);
	if (!st && in->prof.buf)
		st = keep_file(d2, "profiles", in->prof.buf, in->prof.len);
	if (!st && in->have_prev)
		st = keep_file(d2, "previous", c->plan.buf, c->plan.len);
	if (!st && plan && plan->buf)
		st = keep_file(d2, "plan", plan->buf, plan->len);
	if (!st && methods[c->m].test == T_JOINT)
		st = keep_series(d2, c, in);
	free(cmd.buf);
	free(d1);
	free(d2);
	return st;
}

/* The VMs no node takes alone: those rejected by a fresh plan (no
 * previous plan) on nok nodes by worst-fit, which gives each VM a node of
 * its own; NULL when every one fits.  The profiles are in's. */
static bool *
alone_out(const struct cfg *c, const struct prof *pr, struct period_in *in,
	size_t nok, int *st)
{
	struct period_in f = { 0 };
	apps_text(c, pr, NULL, NULL, &f.apps);
	*st = text_read(&f.apps, "apps", rd_apps, &f.a);
	f.p = in->p;                    /* borrowed */
	struct ovb_place_res r = { 0 };
	if (!*st && f.a.n)
		*st = engine_run(c, &f, nok, ovb_place_policy("worst-fit"), &r);
	bool *out = NULL;
	for (size_t i = 0; !*st && i < r.plan.nrej; i++)
		for (size_t v = 0; v < nvm; v++)
			if (!strcmp(vms[v].s->capsule, r.plan.rej[i].app)) {
				if (!out)
					out = ovb_xcalloc(nvm + 1, sizeof *out);
				out[v] = true;
			}
	ovb_plan_free(&r.plan);
	f.p = (struct ovb_profiles){ 0 };
	period_in_free(&f);
	return out;
}

/* Do plans a and b place the same VMs on the same nodes? */
static bool
same_places(const struct ovb_plan *a, const struct ovb_plan *b)
{
	if (a->n != b->n || a->nrej != b->nrej)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->p[i].app, b->p[i].app) ||
		    strcmp(a->p[i].node, b->p[i].node))
			return false;
	return true;
}

/* Places the profiled VMs of c through the engine: node_of[v] the node
 * index or OVB_NONE, *nused the nodes used; c->plan becomes the plan's
 * text.  period: the period number for --keep (0: not kept). */
static int
place_engine(struct cfg *c, const struct prof *pr, size_t *node_of,
	size_t *nused, size_t *placed, uint64_t period)
{
	struct period_in in = { 0 };
	int st = 0;
	size_t nok = 0, prevmax = 0;
	for (size_t v = 0; v < nvm; v++) {
		nok += pr[v].ok;
		node_of[v] = OVB_NONE;
	}
	if (c->rolling && c->plan.buf) {
		st = text_read(&c->plan, "previous", rd_plan, &in.prev);
		in.have_prev = !st;
		for (size_t v = 0; !st && v < nvm; v++)
			if (c->prev[v] != OVB_NONE && c->prev[v] + 1 > prevmax)
				prevmax = c->prev[v] + 1;
	}
	bool *gone = NULL;
	if (!st) {
		profile_text(c, pr, &in.prof);
		if (in.prof.buf)
			st = text_read(&in.prof, "profiles", rd_prof, &in.p);
	}
	if (!st && in.have_prev)
		gone = alone_out(c, pr, &in, nok ? nok : 1, &st);
	if (!st) {
		apps_text(c, pr, in.have_prev ? &in.prev : NULL, gone,
			&in.apps);
		st = text_read(&in.apps, "apps", rd_apps, &in.a);
	}
	free(gone);
	size_t K = opt_nodes ? opt_nodes : nok > prevmax ? nok : prevmax;
	if (!K)
		K = 1;
	struct ovb_place_res res = { 0 };
	if (!st && !in.a.n) {   /* nothing to place */
		free(c->plan.buf);
		c->plan = (struct text){ 0 };
		period_in_free(&in);
		*placed = *nused = 0;
		return 0;
	}
	if (!st)
		st = engine_run(c, &in, K, opt_policy, &res);
	/* the least K as good as K nodes: as many placed, no more nodes
	 * left broken, by trying K = 1, 2, ... (from the previous plan's).
	 * First fit on a fresh plan needs no search: it places a VM on the
	 * first node that takes it, so on fewer nodes than the last it used
	 * it would reject the VMs it put beyond them; K is that last node,
	 * run again for that cluster's plan (kept when the same VMs go to
	 * the same nodes, as they do; else the whole search). */
	size_t want = res.plan.n, warn = res.nwarnings, k1 = prevmax ? prevmax :
		1, k0 = k1, last = K;
	if (!st && !opt_nodes && opt_policy ==
	    ovb_place_policy("first-fit-decreasing")) {
		last = k0;
		for (size_t i = 0; i < res.plan.n; i++) {
			size_t k = 0;
			if (sscanf(res.plan.p[i].node, "n%zu", &k) == 1 &&
			    k > last)
				last = k;
		}
		if (!in.have_prev)
			k0 = last;
	}
	for (size_t k = k0; !st && !opt_nodes && k < K; k++) {
		struct ovb_place_res r;
		st = engine_run(c, &in, k, opt_policy, &r);
		if (!st && r.plan.n >= want && r.nwarnings <= warn &&
		    (k0 == k1 || same_places(&r.plan, &res.plan))) {
			ovb_plan_free(&res.plan);
			res = r;
			K = k;
			break;
		}
		ovb_plan_free(&r.plan);
		if (k0 != k1) {         /* not the same: the whole search */
			k = k1 - 1;
			k0 = k1;
		}
	}
	*placed = *nused = 0;
	if (!st) {
		for (size_t i = 0; i < res.plan.n; i++) {
			const struct ovb_placed *p = &res.plan.p[i];
			size_t v = 0, k = 0;
			while (v < nvm && strcmp(vms[v].s->capsule, p->app))
				v++;
			if (v == nvm || sscanf(p->node, "n%zu", &k) != 1 || !k)
				abort();        /* the engine's own names */
			node_of[v] = k - 1;
			++*placed;
		}
		bool *used = ovb_xcalloc(K + 1, sizeof *used);
		for (size_t v = 0; v < nvm; v++)
			if (node_of[v] != OVB_NONE && !used[node_of[v]]) {
				used[node_of[v]] = true;
				++*nused;
			}
		free(used);
		struct text plan = { 0 };
		FILE *f = text_open(&plan);
		ovb_plan_write(f, &res.plan);
		text_close(f);
		/* the period's plan is kept with the inputs it came from */
		if (period && opt_keep && c->id) {
			cluster_text(c, K, &in.cluster);
			st = keep_period(c, period, &in, &plan);
		}
		free(c->plan.buf);
		c->plan = plan;
	}
	ovb_plan_free(&res.plan);
	period_in_free(&in);
	return st;
}

/* Places the profiled VMs of c by its method, through the engine:
 * node_of[v] the node index or OVB_NONE; *placed, *nused; 0 or the
 * status.  period: for --keep (0: not kept). */
static int
place(struct cfg *c, const struct prof *pr, size_t *node_of, size_t *nused,
	size_t *placed, uint64_t period)
{
	return place_engine(c, pr, node_of, nused, placed, period);
}

/* A cursor over the slots of [a, b) in which every one of n series has
 * a sample (any false), or at least one has (any true: a series without
 * a sample in the slot counts 0 there, missing samples as zero usage); x
 * holds their samples at the current one. */
struct slots {
	const struct ovb_series *const *s;
	size_t n, *lo, *hi;
	double *x;
	bool any;
};

/* False when no slot is to come: a series has no sample in [a, b) (any
 * false), or none has (any true). */
static bool
slots_open(struct slots *it, const struct ovb_series *const *s, size_t n,
	uint64_t a, uint64_t b, bool any)
{
	*it = (struct slots){ .s = s, .n = n, .any = any,
		.lo = ovb_xcalloc(n, sizeof *it->lo),
		.hi = ovb_xcalloc(n, sizeof *it->hi),
		.x = ovb_xcalloc(n, sizeof *it->x) };
	bool every = true, some = false;
	for (size_t i = 0; i < n; i++) {
		window(s[i], a, b, &it->lo[i], &it->hi[i]);
		every = every && it->lo[i] < it->hi[i];
		some = some || it->lo[i] < it->hi[i];
	}
	return any ? some : every;
}

/* The next slot in which at least one series has a sample, the others
 * counting 0. */
static bool
slots_next_any(struct slots *it)
{
	bool some = false;
	uint64_t t = 0;
	for (size_t i = 0; i < it->n; i++)
		if (it->lo[i] < it->hi[i] && (!some ||
		    it->s[i]->t[it->lo[i]] < t)) {
			t = it->s[i]->t[it->lo[i]];
			some = true;
		}
	for (size_t i = 0; some && i < it->n; i++) {
		it->x[i] = 0;
		if (it->lo[i] < it->hi[i] && it->s[i]->t[it->lo[i]] == t)
			it->x[i] = it->s[i]->v[it->lo[i]++];
	}
	return some;
}

static bool
slots_next(struct slots *it)
{
	if (it->any)
		return slots_next_any(it);
	const struct ovb_series *s0 = it->s[0];
	while (it->lo[0] < it->hi[0]) {
		uint64_t t = s0->t[it->lo[0]];
		it->x[0] = s0->v[it->lo[0]++];
		bool all = true;
		for (size_t i = 1; i < it->n && all; i++) {
			const struct ovb_series *s = it->s[i];
			while (it->lo[i] < it->hi[i] && s->t[it->lo[i]] < t)
				it->lo[i]++;
			all = it->lo[i] < it->hi[i] && s->t[it->lo[i]] == t;
			if (all)
				it->x[i] = s->v[it->lo[i]];
		}
		if (all)
			return true;
	}
	return false;
}

static void
slots_close(struct slots *it)
{
	free(it->lo);
	free(it->hi);
	free(it->x);
}

/* The series of on[0..n), cpu or mem (NULL when a VM has none). */
static const struct ovb_series **
series_of(const size_t *on, size_t n, bool mem)
{
	const struct ovb_series **s = ovb_xcalloc(n + 1, sizeof *s);
	for (size_t i = 0; i < n; i++)
		if (!(s[i] = mem ? vms[on[i]].m : vms[on[i]].s)) {
			free(s);
			return NULL;
		}
	return s;
}

/* Replays [a, b) through node k's VMs: slots where every one has a
 * sample (any false) or at least one has (any true, the others counting
 * 0), and those whose exact sum exceeds C; cpu, or memory when mem. */
static void
replay(const size_t *on, size_t n, uint64_t a, uint64_t b, double C,
	uint64_t *slots, uint64_t *over, bool mem, bool any)
{
	*slots = *over = 0;
	const struct ovb_series **s = series_of(on, n, mem);
	if (!s)
		return;
	struct slots it;
	slots_open(&it, s, n, a, b, any);
	while (slots_next(&it)) {
		++*slots;
		*over += ovb_sum_cmp(it.x, n, C) > 0;
	}
	slots_close(&it);
	free(s);
}

/* The least K in [1, kmax] with sum(x[0..n)) <= K cap exactly (kmax + 1
 * when none), by sum(x, K - 1 times -cap) > cap: buf holds n + kmax
 * doubles, buf[n..n + kmax) -cap each (the caller's, once). */
static uint64_t
least_k(const double *x, size_t n, double cap, uint64_t kmax, double *buf)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	double qd = s / cap;
	uint64_t q = !(qd < (double)kmax) ? kmax + 1 : qd < 1 ? 1 :
		(uint64_t)ceil(qd);
	if (buf != x)
		memcpy(buf, x, n * sizeof *buf);
#define OVER(K) (ovb_sum_cmp(buf, n + (K) - 1, cap) > 0)
	while (q > 1 && !OVER(q - 1))
		q--;
	while (q <= kmax && OVER(q))
		q++;
#undef OVER
	return q;
}

/* n + kmax doubles, the last kmax -cap, for least_k. */
static double *
least_k_buf(size_t n, uint64_t kmax, double cap)
{
	double *buf = ovb_xcalloc(n + kmax + 1, sizeof *buf);
	for (uint64_t j = 0; j < kmax; j++)
		buf[n + j] = -cap;
	return buf;
}

/* The fewest nodes a placement of the VMs on[0..n) can use with every
 * node keeping its cpu promise in [a, b): some node overflows in every
 * slot where their sum (a VM without a sample there counting 0, as the
 * node records count it) exceeds K C, and the nodes' overflows number at
 * most K O R (R the grid's slots in [a, b)), so K is at least the least
 * K with #{such slots} <= K O R.  At most n (more nodes than VMs are
 * never used); 1 when none of them has a sample in [a, b). */
static uint64_t
cpu_bound(const size_t *on, size_t n, uint64_t a, uint64_t b, double C,
	double O)
{
	const struct ovb_series **s = series_of(on, n, false);
	struct slots it;
	uint64_t K = 1;
	if (slots_open(&it, s, n, a, b, true)) {
		double *buf = least_k_buf(n, n, C);
		/* above[k]: the slots whose least K is k + 1, then (summed
		 * from the top) those whose sum exceeds k C */
		uint64_t *above = ovb_xcalloc(n + 2, sizeof *above);
		while (slots_next(&it))
			above[least_k(it.x, n, C, n, buf) - 1]++;
		for (size_t k = n; k-- > 0;)
			above[k] += above[k + 1];
		uint64_t R = (b + interval - 1) / interval -
			(a + interval - 1) / interval;
		for (K = 1; K < n; K++)
			if (R > UINT64_MAX / K || ovb_bt_held(above[K], K * R, O))
				break;
		free(above);
		free(buf);
	}
	slots_close(&it);
	free(s);
	return K;
}

/* The fewest nodes whose memory, MEM + POOL each, holds the limits of
 * on[0..n): at most n. */
static uint64_t
mem_bound(const size_t *on, size_t n, const struct prof *pr, double cap)
{
	double *buf = least_k_buf(n, n, cap);
	for (size_t i = 0; i < n; i++)
		buf[i] = pr[on[i]].mp.lim;
	uint64_t K = least_k(buf, n, cap, n, buf);
	free(buf);
	return K > n ? n : K;
}

/* The bound of period p of c, placed as node_of. */
static void
bound(struct cfg *c, struct ovb_bt_period *p, uint64_t a, uint64_t b,
	const size_t *node_of, const struct prof *pr)
{
	size_t *on = ovb_xcalloc(nvm + 1, sizeof *on), n = 0;
	for (size_t v = 0; v < nvm; v++)
		if (node_of[v] != OVB_NONE)
			on[n++] = v;
	p->has_bound = true;
	p->bcpu = n ? cpu_bound(on, n, a, b, c->cpus, c->O) : 0;
	p->bmem = n && c->mem > 0 && !(c->rolling && !c->afresh &&
		opt_repair) &&
		!c->promise ?
		mem_bound(on, n, pr, c->mem + c->pool) : 0;
	p->bound = !n ? 0 : p->bcpu > p->bmem ? p->bcpu : p->bmem;
	free(on);
}

static char *
node_name(size_t k)
{
	char b[32];
	snprintf(b, sizeof b, "n%zu", k + 1);
	return ovb_xstrdup(b);
}

/* The place records of the plan node_of (period: their .period) pushed
 * onto *pl; returns the number of nodes it names (the highest + 1). */
static size_t
put_places(const size_t *node_of, size_t period, struct ovb_bt_place **pl,
	size_t *n, size_t *cap)
{
	size_t maxk = 0;
	for (size_t v = 0; v < nvm; v++)
		if (node_of[v] != OVB_NONE) {
			struct ovb_bt_place *p = OVB_PUSH(*pl, *n, *cap);
			p->period = period;
			p->vm = ovb_xstrdup(vms[v].s->capsule);
			p->node = node_name(node_of[v]);
			if (node_of[v] + 1 > maxk)
				maxk = node_of[v] + 1;
		}
	return maxk;
}

/* The VMs the plan node_of puts on node k, into on[]; how many. */
static size_t
on_node(const size_t *node_of, size_t k, size_t *on)
{
	size_t n = 0;
	for (size_t v = 0; v < nvm; v++)
		if (node_of[v] == k)
			on[n++] = v;
	return n;
}

/* Node nd (the VMs on[0..n)) replayed on [a, b) against c's cpus: the
 * slots in which one of them has a sample, those over, the status
 * (missing samples as zero usage; missing: no slot). */
static void
cpu_replay(const struct cfg *c, const size_t *on, size_t n, uint64_t a,
	uint64_t b, struct ovb_bt_node *nd)
{
	replay(on, n, a, b, c->cpus, &nd->slots, &nd->over, false, true);
	nd->status = !nd->slots ? OVB_BT_MISSING :
		ovb_bt_held(nd->over, nd->slots, c->O) ? OVB_BT_HELD :
		OVB_BT_BROKEN;
}

/* Period k (1..) of c: [a, b) replayed through the plan node_of. */
static void
record(struct cfg *c, uint64_t k, uint64_t a, uint64_t b,
	const size_t *node_of, size_t placed, size_t nused, size_t moved,
	size_t rejected, const struct prof *pr)
{
	struct ovb_backtest *bt = &c->bt;
	struct ovb_bt_period *p = OVB_PUSH(bt->per, bt->nper, bt->capper);
	*p = (struct ovb_bt_period){ .config = 0, .k = k, .start = a,
		.end = b, .placed = placed, .rejected = rejected,
		.nodes = nused, .moved = moved };
	size_t maxk = put_places(node_of, bt->nper - 1, &bt->pl, &bt->npl,
		&bt->cappl);
	size_t *on = ovb_xcalloc(nvm + 1, sizeof *on);
	for (size_t nk = 0; nk < maxk; nk++) {
		size_t n = on_node(node_of, nk, on);
		if (!n)
			continue;
		struct ovb_bt_node *nd = OVB_PUSH(bt->node, bt->nnode,
			bt->capnode);
		nd->period = bt->nper - 1;
		nd->node = node_name(nk);
		nd->vms = n;
		/* missing samples as zero usage; full: the slots in
		 * which every VM has a sample (0: the node had a VM without
		 * samples, or none in common) */
		cpu_replay(c, on, n, a, b, nd);
		uint64_t fover;
		replay(on, n, a, b, c->cpus, &nd->full, &fover, false, false);
		nd->mstatus = OVB_BT_NONE;
		nd->mslots = nd->mover = 0;
		if (c->mem > 0) {
			replay(on, n, a, b, c->mem, &nd->mslots, &nd->mover,
				true, false);
			nd->mstatus = !nd->mslots ? OVB_BT_MISSING :
				ovb_bt_held(nd->mover, nd->mslots, c->O) ?
				OVB_BT_HELD : OVB_BT_BROKEN;
		}
	}
	free(on);
	bound(c, &bt->per[bt->nper - 1], a, b, node_of, pr);
	/* OOM kills: the slots in which a VM's memory exceeds its limit */
	for (size_t v = 0; c->mem > 0 && v < nvm; v++) {
		if (node_of[v] == OVB_NONE || !vms[v].m)
			continue;
		const struct ovb_series *s = vms[v].m;
		size_t lo, hi;
		window(s, a, b, &lo, &hi);
		uint64_t kills = 0;
		double top = 0;
		for (size_t j = lo; j < hi; j++) {
			kills += s->v[j] > pr[v].mp.lim;
			if (s->v[j] > top)
				top = s->v[j];
		}
		if (!kills)
			continue;
		struct ovb_bt_oom *o = OVB_PUSH(bt->oom, bt->noom, bt->capoom);
		*o = (struct ovb_bt_oom){ .period = bt->nper - 1,
			.vm = ovb_xstrdup(s->capsule),
			.node = node_name(node_of[v]), .kills = kills,
			.limit = pr[v].mp.lim, .tpeak = pr[v].mp.top,
			.rpeak = top, .unseen = top > pr[v].mp.top };
	}
}

/* The summary of c from its records. */
static void
summarize(struct cfg *c)
{
	struct ovb_backtest *bt = &c->bt;
	struct ovb_bt_summary s = { 0 };
	for (size_t i = 0; i < bt->nper; i++) {
		s.placed += bt->per[i].placed;
		s.nodes += bt->per[i].nodes;
		s.moved += bt->per[i].moved;
	}
	for (size_t i = 0; i < bt->nnode; i++) {
		const struct ovb_bt_node *n = &bt->node[i];
		s.held += n->status == OVB_BT_HELD;
		s.broken += n->status == OVB_BT_BROKEN;
		s.missing += n->status == OVB_BT_MISSING;
		s.partial += !n->full;
		if (n->status != OVB_BT_MISSING) {
			double f = (double)n->over / (double)n->slots;
			if (f > s.worst)
				s.worst = f;
		}
		s.mheld += n->mstatus == OVB_BT_HELD;
		s.mbroken += n->mstatus == OVB_BT_BROKEN;
		s.mmissing += n->mstatus == OVB_BT_MISSING;
		s.mover += n->mover;
		if (n->mslots) {
			double f = (double)n->mover / (double)n->mslots;
			if (f > s.mworst)
				s.mworst = f;
		}
	}
	for (size_t i = 0; i < bt->noom; i++) {
		s.oom++;
		s.kills += bt->oom[i].kills;
	}
	s.density = s.nodes ? (double)s.placed / (double)s.nodes : 0;
	*OVB_PUSH(bt->sum, bt->nsum, bt->capsum) = s;
}

/* Does every node of the plan node_of keep Pr(Y > C) <= O with the
 * VMs' forecast profiles fp (the aggregate mode on trend-scaled samples)? */
static bool
forecast_holds(const struct cfg *c, const size_t *node_of,
	const struct prof *fp)
{
	size_t maxk = 0;
	for (size_t v = 0; v < nvm; v++)
		if (node_of[v] != OVB_NONE && node_of[v] + 1 > maxk)
			maxk = node_of[v] + 1;
	struct ovb_need *need = ovb_xcalloc(nvm + 1, sizeof *need);
	bool ok = true;
	for (size_t k = 0; k < maxk && ok; k++) {
		size_t n = 0;
		for (size_t v = 0; v < nvm; v++)
			if (node_of[v] == k && fp[v].ok)
				need[n++] = c->m == M_CAL ? fp[v].cneed :
					fp[v].dneed;
		if (!n)
			continue;
		double g = ovb_node_grid(need, n, NULL, c->cpus, opt_grid);
		if (!ovb_grid_holds(need, n, NULL, g)) {
			ok = false;
			break;
		}
		struct ovb_pmf y;
		ovb_node_y(need, n, NULL, g, c->cpus, &y);
		double p = ovb_pmf_tail(&y, c->cpus);
		ovb_pmf_free(&y);
		ok = ovb_eq3_decide(need, n, NULL, g, c->cpus, c->O, p);
	}
	free(need);
	return ok;
}

/* ---- calibrated: drift-aware samples and their inflation k ---- */

/* Every VM's forecast samples (lib/drift.c) of one window; for a fold of
 * the calibration, [ha, hb) is the part held out after it. */
struct calwin {
	uint64_t ha, hb;
	double **x;
	uint64_t **w;
	size_t **order;         /* x's indices in ascending order of x */
	size_t *n;
};

static void
calwin_make(struct calwin *cw, uint64_t a, uint64_t b, uint64_t horizon)
{
	cw->x = ovb_xcalloc(nvm + 1, sizeof *cw->x);
	cw->w = ovb_xcalloc(nvm + 1, sizeof *cw->w);
	cw->n = ovb_xcalloc(nvm + 1, sizeof *cw->n);
	cw->order = ovb_xcalloc(nvm + 1, sizeof *cw->order);
	for (size_t v = 0; v < nvm; v++) {
		const struct ovb_series *s = vms[v].s;
		cw->n[v] = ovb_drift_series(s->t, s->v, s->n, interval, a, b,
			horizon, &opt_drift, &cw->x[v], &cw->w[v]);
		cw->order[v] = ovb_drift_order(cw->x[v], cw->n[v]);
	}
}

static void
calwin_free(struct calwin *cw)
{
	for (size_t v = 0; cw->x && v < nvm; v++) {
		free(cw->x[v]);
		free(cw->w[v]);
		free(cw->order[v]);
	}
	free(cw->order);
	free(cw->x);
	free(cw->w);
	free(cw->n);
	memset(cw, 0, sizeof *cw);
}

/* p's calibrated need: VM v's forecast samples in cw times k, in the
 * aggregate mode (a VM without samples there needs nothing). */
static int
cal_prof(struct prof *p, size_t v, const struct calwin *cw, double k,
	double O)
{
	free(p->cd.h.count);
	memset(&p->cd, 0, sizeof p->cd);
	p->cneed = (struct ovb_need){ .used = true, .tau = opt_tau, .O = O,
		.agg = true };
	if (!cw->n[v])
		return 0;
	double pc = 100 - 100 * O;
	p->cd.capsule = vms[v].s->capsule;
	p->cd.res = OVB_CPU;
	p->cd.interval = (double)interval;
	if (!ovb_drift_dist_ordered(&p->cd, cw->x[v], cw->w[v], cw->order[v],
	    cw->n[v], k, ovb_auto_width(OVB_CPU, 0), &pc, 1))
		return ovb_err_at(vms[v].file, vms[v].s->line, "vm %s: its "
			"calibrated usage (k = %g) needs more than %d bins",
			vms[v].s->capsule, k, OVB_MAXBINS);
	p->cneed.sigma = p->cd.pct_v[0];
	p->cneed.h = &p->cd.h;
	p->cneed.interval = (double)interval;
	return 0;
}

struct calarg {
	const struct cfg *c;
	uint64_t period;
	const struct calwin *fold;
	size_t nfold;
	struct prof *tmp;
	size_t *node_of;
	int status;
};

static void replay(const size_t *on, size_t n, uint64_t a, uint64_t b,
	double C, uint64_t *slots, uint64_t *over, bool mem, bool any);

/* -vv: one line per node of a fold's plan at k, for t/oracle/drift.py. */
static void
cal_dump_node(const struct calarg *ca, size_t f, double k, size_t nk,
	const size_t *on, size_t n, uint64_t slots, uint64_t over, bool ok)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	for (size_t i = 0; i < n; i++)
		fprintf(m, " %s", vms[on[i]].s->capsule);
	fclose(m);
	ovb_warn("calibrated: cpus %.17g O %.17g train %llu period %llu fold "
		"%zu held-out %llu %llu k %.17g node n%zu slots %llu over %llu "
		"%s:%s", ca->c->cpus, ca->c->O, (unsigned long long)ca->c->train,
		(unsigned long long)ca->period, f + 1,
		(unsigned long long)ca->fold[f].ha,
		(unsigned long long)ca->fold[f].hb, k, nk + 1,
		(unsigned long long)slots, (unsigned long long)over,
		ok ? "held" : "broken", buf ? buf : "");
	free(buf);
}

/* Does the plan at inflation k, made on each fold's window, keep every
 * node's promise on the part held out after it? */
static bool
cal_holds(double k, void *arg)
{
	struct calarg *ca = arg;
	if (ca->status)
		return true;
	size_t *on = ovb_xcalloc(nvm + 1, sizeof *on);
	bool ok = true;
	for (size_t f = 0; ok && f < ca->nfold; f++) {
		const struct calwin *cw = &ca->fold[f];
		for (size_t v = 0; v < nvm && !ca->status; v++) {
			ca->status = cal_prof(&ca->tmp[v], v, cw, k, ca->c->O);
			/* a VM without samples held out would leave its
			 * node unmeasured: it is not placed */
			size_t lo, hi;
			window(vms[v].s, cw->ha, cw->hb, &lo, &hi);
			ca->tmp[v].ok = cw->n[v] > 0 && hi > lo;
		}
		if (ca->status)
			break;
		struct cfg t = { .m = M_CAL, .cpus = ca->c->cpus,
			.O = ca->c->O };
		size_t nused, placed;
		/* k is cpu's: the folds are placed by cpu alone (MEM 0) */
		ca->status = place(&t, ca->tmp, ca->node_of, &nused, &placed,
			0);
		free(t.plan.buf);
		if (ca->status)
			break;
		for (size_t nk = 0; ok && nk < nvm; nk++) {
			size_t n = on_node(ca->node_of, nk, on);
			if (!n)
				continue;
			uint64_t slots, over;
			replay(on, n, cw->ha, cw->hb, ca->c->cpus, &slots, &over,
				false, false);
			/* no slot in common: not known to hold */
			ok = slots && ovb_bt_held(over, slots, ca->c->O);
			if (ovb_verbose > 1)
				cal_dump_node(ca, f, k, nk, on, n, slots, over,
					ok);
		}
	}
	free(on);
	return ok;
}

/* The calibrated plan's profiles of configuration c (the period [b - R,
 * b) planned on the window [ta, tb)): k from the folds, then every VM's
 * forecast samples on the whole window times k in pr[v].cd. */
static int
calibrate(struct cfg *c, const struct calwin *fold, size_t nfold,
	const struct calwin *fin, struct prof *pr, uint64_t k_period)
{
	struct prof *tmp = ovb_xcalloc(nvm + 1, sizeof *tmp);
	struct calarg ca = { .c = c, .period = k_period, .fold = fold, .nfold = nfold,
		.tmp = tmp, .node_of = ovb_xcalloc(nvm + 1, sizeof(size_t)) };
	double k = ovb_calib_least_k(opt_kmin, opt_kmax, opt_kstep, cal_holds,
		&ca);
	for (size_t v = 0; v < nvm; v++)
		free(tmp[v].cd.h.count);
	free(tmp);
	free(ca.node_of);
	if (ca.status)
		return ca.status;
	c->k = k;
	if (ovb_verbose)
		ovb_warn("calibrated: cpus %g O %g train %llu s, period %llu: "
			"k = %g", c->cpus, c->O, (unsigned long long)c->train,
			(unsigned long long)k_period, k);
	for (size_t v = 0; v < nvm; v++) {
		int st = cal_prof(&pr[v], v, fin, k, c->O);
		if (st)
			return st;
		if (ovb_verbose > 1 && fin->n[v])
			ovb_warn("calibrated: cpus %.17g O %.17g train %llu "
				"period %llu vm %s k %.17g weight %llu sigma "
				"%.17g", c->cpus, c->O,
				(unsigned long long)c->train,
				(unsigned long long)k_period, vms[v].s->capsule, k,
				(unsigned long long)pr[v].cd.h.n, pr[v].cneed.sigma);
	}
	return 0;
}

/* calibrated's windows of a plan made on [ta, ta + W) for the horizon
 * b: the folds held out at the end of the window, min(REPLAY, W/2) each
 * (two when the window holds four), and the whole window (fin); made
 * only when calibrated is run.  Returns the number of folds. */
static size_t
cal_windows(uint64_t ta, uint64_t W, uint64_t b, struct calwin fold[2],
	struct calwin *fin)
{
	uint64_t L = opt_replay < W / 2 ? opt_replay : W / 2;
	size_t nfold = W >= 4 * L ? 2 : 1;
	for (size_t f = 0; opt_method[M_CAL] && f < nfold; f++) {
		uint64_t hb = ta + W - f * L;
		calwin_make(&fold[f], ta, hb - L, hb);
		fold[f].ha = hb - L;
		fold[f].hb = hb;
	}
	if (opt_method[M_CAL])
		calwin_make(fin, ta, ta + W, b);
	return nfold;
}

/* ---- the run ---- */

static void profiles_free(struct prof *pr);

/* hindsight's profiles hp of period [a, b): of the VMs profiled in pr,
 * those with samples in [a, b), on them (their sizes for the decreasing
 * order, and memory's requests and limits); hind_j their samples. */
static int
hindsight(const struct prof *pr, struct prof *hp, uint64_t a, uint64_t b,
	double O)
{
	profiles_free(hp);
	int st = 0;
	for (size_t v = 0; !st && v < nvm; v++) {
		memset(&hp[v], 0, sizeof hp[v]);
		if (!pr[v].ok)
			continue;
		st = profile(v, a, b, b, O, &hp[v]);
		if (!st && hp[v].ok && mem_on)
			st = mem_profile(v, a, b, O, &hp[v]);
	}
	ovb_joint_free(&hind_j);
	size_t bad = 0;
	if (!st && ovb_joint_make(&hind_j, &cpu_set, a, b, "series", &bad))
		abort();        /* one interval: checked when read */
	return st;
}

static void
profiles_free(struct prof *pr)
{
	for (size_t v = 0; v < nvm; v++) {
		/* NULL each: a profile that fails before it fills one again
		 * is freed once more at the end */
		free(pr[v].d.h.count);
		pr[v].d.h.count = NULL;
		free(pr[v].dd.h.count);
		pr[v].dd.h.count = NULL;
		free(pr[v].cd.h.count);
		pr[v].cd.h.count = NULL;
		free(pr[v].td.h.count);
		pr[v].td.h.count = NULL;
		ovb_tod_free(&pr[v].td.tod);
		free(pr[v].mp.d.h.count);
		pr[v].mp.d.h.count = NULL;
	}
}

/* Appends c's records to out, as configuration id. */
static void
append(struct ovb_backtest *out, struct cfg *c, size_t id, uint64_t nper)
{
	char b[32];
	snprintf(b, sizeof b, "c%zu", id);
	struct ovb_bt_config *cf = OVB_PUSH(c->bt.conf, c->bt.nconf,
		c->bt.capconf);
	*cf = (struct ovb_bt_config){ .id = ovb_xstrdup(b),
		.method = ovb_xstrdup(methods[c->m].name), .cpus = c->cpus,
		.O = c->O, .train = c->train, .replay = opt_replay,
		.rolling = c->rolling, .afresh = c->afresh,
		.repair = c->rolling && !c->afresh && opt_repair,
		.compact = c->rolling && !c->afresh && opt_consolidate,
		.max_moves = opt_repair ? opt_moves : opt_cons,
		.valid_until = c->rolling ? 0 :
		c->valid, .periods = nper, .mem = c->mem, .pool = c->pool,
		.promise = c->promise, .has_test = c->has_test,
		.test_passed = c->test_passed, .test_mid = c->test_mid,
		.test_end = c->test_end };
	/* c->bt's records are the configuration's: index 0 */
	for (size_t i = 0; i < c->bt.nper; i++)
		c->bt.per[i].config = 0;
	c->bt.sum[0].config = 0;
	ovb_backtest_cat(out, &c->bt);
}

/* One-shot: the held-out test of every configuration of cf (n of them)
 * whose method plans on a training window.  The method's plan made on
 * the window's first half [ta, mid) (its profiles forecast to end = ta +
 * W, calibrated's k from folds inside that half, joint's samples that
 * half's), cpu alone, is replayed on [mid, end) with the honest counts
 * (a VM without a sample in a slot counting 0; a node with none at all
 * missing); it passed when some node was measured and none broke.  The
 * validity is then at most end + (end - mid), else end: a promise is not
 * stated past the span a plan of the method was seen to keep one.  The
 * records hplace and hnode go to each configuration's own. */
static int
heldout_test(struct cfg *cf, size_t n, uint64_t ta, uint64_t W, double O)
{
	uint64_t mid = ta + W / 2, end = ta + W;
	int status = 0;
	struct prof *hp = ovb_xcalloc(nvm + 1, sizeof *hp);
	size_t *node_of = ovb_xcalloc(nvm + 1, sizeof *node_of);
	size_t *on = ovb_xcalloc(nvm + 1, sizeof *on);
	for (size_t v = 0; !status && v < nvm; v++)
		status = profile(v, ta, mid, end, O, &hp[v]);
	struct calwin fold[2] = { { 0 } }, fin = { 0 };
	size_t nfold = cal_windows(ta, mid - ta, end, fold, &fin);
	struct ovb_joint keep = train_j;
	if (opt_method[M_JOINT])
		joint_train(ta, mid);
	for (size_t i = 0; !status && i < n; i++) {
		struct cfg *c = &cf[i];
		if (!opt_method[c->m] || methods[c->m].on_period)
			continue;
		struct cfg t = { .m = c->m, .cpus = c->cpus, .O = c->O,
			.train = c->train };
		if (c->m == M_CAL && (status = calibrate(&t, fold, nfold, &fin,
		    hp, 0)))
			break;
		size_t nused, placed;
		/* cpu alone (MEM 0), as the validity is cpu's */
		status = place(&t, hp, node_of, &nused, &placed, 0);
		free(t.plan.buf);
		if (status)
			break;
		size_t maxk = put_places(node_of, 0, &c->bt.tpl, &c->bt.ntpl,
			&c->bt.captpl);
		for (size_t nk = 0; nk < maxk; nk++) {
			size_t m = on_node(node_of, nk, on);
			if (!m)
				continue;
			struct ovb_bt_node *nd = OVB_PUSH(c->bt.tnode,
				c->bt.ntnode, c->bt.captnode);
			*nd = (struct ovb_bt_node){ .period = 0,
				.node = node_name(nk), .vms = m,
				.mstatus = OVB_BT_NONE };
			cpu_replay(c, on, m, mid, end, nd);
		}
		c->has_test = true;
		c->test_passed = ovb_bt_test_passed(c->bt.tnode, c->bt.ntnode);
		c->test_mid = mid;
		c->test_end = end;
	}
	if (opt_method[M_JOINT]) {
		ovb_joint_free(&train_j);
		train_j = keep;
	}
	for (size_t f = 0; f < 2; f++)
		calwin_free(&fold[f]);
	calwin_free(&fin);
	profiles_free(hp);
	free(hp);
	free(node_of);
	free(on);
	return status;
}

/* One group of configurations: the plan kind pl (0 rolling, 1 one-shot,
 * 2 afresh),
 * training window it and tolerance io, every node size and method, their
 * IDs from id0 + 1 on; appended to out.  The groups share nothing but the
 * VMs: ovb-backtest -j runs them in processes of their own. */
static int
run_group(int pl, size_t it, size_t io, uint64_t S, uint64_t maxtrain,
	uint64_t nper, size_t id0, struct ovb_backtest *out, bool progress)
{
	int status = 0;
	size_t id = id0, ids = id0;
	struct prof *pr = ovb_xcalloc(nvm + 1, sizeof *pr);
	struct prof *hp = ovb_xcalloc(nvm + 1, sizeof *hp);    /* hindsight */
	size_t *node_of = ovb_xcalloc(nvm + 1, sizeof *node_of);
	struct cfg *cf = ovb_xcalloc(ncpus * NMETHOD, sizeof *cf);
	uint64_t W = opt_train[it];
	for (size_t ic = 0; ic < ncpus; ic++)
		for (int m = 0; m < NMETHOD; m++) {
			struct cfg *c = &cf[ic * NMETHOD + m];
			/* the ID append() will give it */
			*c = (struct cfg){ .id = opt_method[m] ?
				++ids : 0, .m = (enum method)m,
				.cpus = opt_cpus[ic], .O = opt_O[io],
				.train = W, .rolling = pl != 1,
				.afresh = pl == 2 };
			if (mem_on) {
				c->mem = ldexp(nmem ? opt_mem[nmem >
					1 ? ic : 0] : MEM_PER_CPU *
					c->cpus, 30);
				c->pool = npool ? ldexp(opt_pool[
					npool > 1 ? ic : 0], 30) :
					POOL_SHARE * c->mem;
				c->promise = opt_promise &&
					methods[m].test != T_NSIGMA;
			}
			c->prev = ovb_xcalloc(nvm + 1,
				sizeof *c->prev);
			for (size_t v = 0; v < nvm; v++)
				c->prev[v] = OVB_NONE;
		}
	/* the replayed periods come after the longest window */
	uint64_t first_start = S + maxtrain;
	for (uint64_t k = 1; !status && k <= nper; k++) {
		uint64_t a = first_start + (k - 1) * opt_replay,
			b = a + opt_replay;
		bool plan_now = pl != 1 || k == 1;
		/* calibrated: the folds held out at the end
		 * of the window, min(REPLAY, W/2) each */
		struct calwin fold[2] = { { 0 } }, fin = { 0 };
		size_t nfold = 0;
		if (plan_now) {
			profiles_free(pr);
			uint64_t ta = pl != 1 ? a - W :
				first_start - W;
			for (size_t v = 0; !status && v < nvm; v++) {
				status = profile(v, ta, ta + W,
					b, opt_O[io], &pr[v]);
				if (!status && mem_on)
					status = mem_profile(v,
						ta, ta + W,
						opt_O[io], &pr[v]);
			}
			nfold = cal_windows(ta, W, b, fold, &fin);
			/* joint: the training window's
			 * samples */
			ovb_joint_free(&train_j);
			if (opt_method[M_JOINT])
				joint_train(ta, ta + W);
		}
		/* the methods profiled on the period (the hindsight,
		 * the clairvoyant): the VMs placed by the others (those
		 * profiled now) on their samples of the period, made
		 * once for all of them */
		bool on_period = false;
		for (int m = 0; m < NMETHOD; m++)
			on_period = on_period || (opt_method[m] &&
				methods[m].on_period);
		if (!status && on_period)
			status = hindsight(pr, hp, a, b, opt_O[io]);
		for (size_t ic = 0; !status && ic < ncpus; ic++)
		for (int m = 0; !status && m < NMETHOD; m++) {
			struct cfg *c = &cf[ic * NMETHOD + m];
			size_t placed = 0, nused = 0, moved = 0,
				rej = 0;
			const struct prof *mp =
				methods[m].on_period ? hp : pr;
			bool now = plan_now || methods[m].on_period;
			/* peak's density is VS-PEAK's unit */
			if (!opt_method[m] && m != M_PEAK)
				continue;
			if (plan_now && m == M_CAL) {
				status = calibrate(c, fold, nfold,
					&fin, pr, k);
				if (status)
					break;
			}
			if (now) {
				if (methods[m].afresh || c->afresh) {
					free(c->plan.buf);
					c->plan = (struct text){ 0 };
				}
				status = place(c, mp, node_of,
					&nused, &placed, k);
				if (status)
					break;
				/* a one-shot plan moves nothing: the
				 * yardsticks' packings, made anew every
				 * period of one, are not moves */
				for (size_t v = 0; v < nvm; v++) {
					if (node_of[v] == OVB_NONE)
						continue;
					moved += c->rolling && k > 1 &&
						c->prev[v] != OVB_NONE &&
						c->prev[v] != node_of[v];
				}
				memcpy(c->prev, node_of,
					nvm * sizeof *node_of);
			} else {
				memcpy(node_of, c->prev,
					nvm * sizeof *node_of);
				for (size_t v = 0; v < nvm; v++)
					placed += node_of[v] !=
						OVB_NONE;
				nused = c->bt.per[0].nodes;
			}
			rej = nvm - placed;
			record(c, k, a, b, node_of, placed,
				nused, moved, rej, mp);
			c->placed += (double)placed;
			c->nodes += (double)nused;
		}
		for (size_t f = 0; f < 2; f++)
			calwin_free(&fold[f]);
		calwin_free(&fin);
		if (progress)
			ovb_progress("configurations", ++prog_done, prog_total);
	}
	if (!status && pl == 1)
		status = heldout_test(cf, ncpus * NMETHOD, first_start - W, W,
			opt_O[io]);
	/* one-shot: until when does the trend forecast keep
	 * every node's promise?  The end of the last period
	 * forecast to hold on every node */
	for (uint64_t k = 1; !status && pl == 1 && k <= nper;
	     k++) {
		uint64_t a = first_start + (k - 1) * opt_replay,
			b = a + opt_replay, ta = first_start - W;
		struct prof *fp = ovb_xcalloc(nvm + 1, sizeof *fp);
		for (size_t v = 0; !status && v < nvm; v++)
			status = profile(v, ta, ta + W, b, opt_O[io],
				&fp[v]);
		/* calibrated: its own forecast, at the plan's k */
		struct calwin fw = { 0 };
		struct prof *fc = ovb_xcalloc(nvm + 1, sizeof *fc);
		if (opt_method[M_CAL])
			calwin_make(&fw, ta, ta + W, b);
		for (size_t i = 0; !status && i < ncpus * NMETHOD;
		     i++) {
			struct cfg *c = &cf[i];
			if (c->valid || !opt_method[c->m] ||
			    methods[c->m].on_period)
				continue;
			for (size_t v = 0; !status && c->m == M_CAL &&
			     v < nvm; v++) {
				status = cal_prof(&fc[v], v, &fw, c->k,
					c->O);
				fc[v].ok = fw.n[v] > 0;
			}
			if (status)
				break;
			if (!forecast_holds(c, c->prev, c->m == M_CAL ?
			    fc : fp))
				c->valid = a;
			else if (k == nper)
				c->valid = b;
		}
		calwin_free(&fw);
		profiles_free(fc);
		free(fc);
		profiles_free(fp);
		free(fp);
	}
	/* never past what the held-out test saw kept */
	for (size_t i = 0; !status && pl == 1 && i < ncpus * NMETHOD; i++) {
		struct cfg *c = &cf[i];
		uint64_t cap = ovb_bt_test_cap(c->test_mid, c->test_end,
			c->test_passed);
		if (c->has_test && c->valid > cap)
			c->valid = cap;
	}
	for (size_t ic = 0; ic < ncpus; ic++) {
		const struct cfg *peak = &cf[ic * NMETHOD + M_PEAK];
		double pd = peak->nodes ? peak->placed /
			peak->nodes : 0;
		for (int m = 0; !status && m < NMETHOD; m++) {
			struct cfg *c = &cf[ic * NMETHOD + m];
			summarize(c);
			double d = c->bt.sum[0].density;
			c->bt.sum[0].vs_peak = pd > 0 ? d / pd : 0;
		}
		/* the gap closed: pct's nodes to the hindsight's (after a
		 * failure the summaries may not exist) */
		bool gap = !status && opt_method[M_PCT] && opt_method[M_HIND];
		const struct ovb_bt_summary *sp =
			gap ? cf[ic * NMETHOD + M_PCT].bt.sum : NULL,
			*sh = gap ? cf[ic * NMETHOD + M_HIND].bt.sum : NULL;
		gap = gap && sp->placed && sh->placed &&
			ovb_bt_has_gap(sp->nodes, sp->placed, sh->nodes,
			sh->placed);
		/* copies: append() moves the summaries */
		uint64_t pn = gap ? sp->nodes : 0, pp = gap ? sp->placed : 0,
			hn = gap ? sh->nodes : 0, hpl = gap ? sh->placed : 0;
		for (int m = 0; m < NMETHOD; m++) {
			struct cfg *c = &cf[ic * NMETHOD + m];
			if (!status && opt_method[m]) {
				struct ovb_bt_summary *sm =
					&c->bt.sum[0];
				/* nodes a VM placed: none placed, no gap */
				sm->has_gap = gap && sm->placed;
				if (sm->has_gap) {
					sm->gap_pct = pn;
					sm->gap_pct_placed = pp;
					sm->gap_hind = hn;
					sm->gap_hind_placed = hpl;
					sm->gap = ovb_bt_gap(pn, pp,
						sm->nodes, sm->placed, hn,
						hpl);
				}
				append(out, c, ++id, nper);
			}
			ovb_backtest_free(&c->bt);
			free(c->prev);
			free(c->plan.buf);
		}
	}
	profiles_free(pr);
	free(pr);
	profiles_free(hp);
	free(hp);
	free(node_of);
	free(cf);
	return status;
}

struct group { int pl; size_t it, io, id0; };

/* The groups in order into out: in this process (--jobs 1), or each in a
 * child of its own, at most opt_jobs at once, each writing its part to a
 * file of its own that is read back and appended in group order: the
 * same bytes either way.  A child that fails has said why on stderr; the
 * first failure in group order is the status. */
static int
run_groups(const struct group *g, size_t ng, uint64_t S, uint64_t maxtrain,
	uint64_t nper, struct ovb_backtest *out)
{
	prog_total = (double)ng * (double)nper;
	if (opt_jobs <= 1 || ng <= 1) {
		int status = 0;
		for (size_t k = 0; k < ng && !status; k++)
			status = run_group(g[k].pl, g[k].it, g[k].io, S, maxtrain,
				nper, g[k].id0, out, true);
		return status;
	}
	FILE **part = ovb_xcalloc(ng, sizeof *part);
	pid_t *pid = ovb_xcalloc(ng, sizeof *pid);
	int *st = ovb_xcalloc(ng, sizeof *st);
	size_t next = 0, running = 0, done = 0;
	int status = 0;
	bool failed = false;
	fflush(NULL);
	while (done < ng) {
		while (!status && !failed && next < ng && running < opt_jobs) {
			if (!(part[next] = tmpfile())) {
				status = ovb_err_at(NULL, 0, "a temporary file: %s",
					strerror(errno));
				break;
			}
			pid_t c = fork();
			if (c < 0) {
				status = ovb_err_at(NULL, 0, "fork: %s",
					strerror(errno));
				fclose(part[next]);
				part[next] = NULL;
				break;
			}
			if (c == 0) {
				struct ovb_backtest mine = { 0 };
				int s = run_group(g[next].pl, g[next].it,
					g[next].io, S, maxtrain, nper, g[next].id0,
					&mine, false);
				if (!s)
					s = ovb_backtest_write(part[next], &mine);
				if (!s && fflush(part[next]))
					s = OVB_EIO;
				fflush(stderr);
				_exit(s);
			}
			pid[next++] = c;
			running++;
		}
		if (!running)
			break;
		int ws;
		pid_t c = wait(&ws);
		/* after a failure no group is started: it is the status */
		if (c < 0) {
			status = status ? status : ovb_err_at(NULL, 0, "wait: %s",
				strerror(errno));
			break;
		}
		for (size_t k = 0; k < next; k++)
			if (pid[k] == c) {
				st[k] = WIFEXITED(ws) ? WEXITSTATUS(ws) : OVB_ESOFT;
				failed |= st[k] != 0;
				if (!WIFEXITED(ws))
					ovb_warn("error: the child of group %zu died "
						"of signal %d", k + 1, WTERMSIG(ws));
				pid[k] = 0;
			}
		running--;
		done++;
		ovb_progress("configurations", (double)done * (double)nper,
			prog_total);
	}
	for (size_t k = 0; k < ng; k++) {
		if (!status && part[k] && st[k])
			status = st[k];
		if (!status && part[k]) {
			struct ovb_backtest in = { 0 };
			struct ovb_lex lx;
			rewind(part[k]);
			ovb_lex_init(&lx, part[k], "(a group's part)");
			status = ovb_backtest_read(&lx, &in);
			ovb_lex_free(&lx);
			if (!status)
				ovb_backtest_cat(out, &in);
			ovb_backtest_free(&in);
		}
		if (part[k])
			fclose(part[k]);
	}
	if (!status && next < ng)
		status = OVB_ESOFT;
	free(part);
	free(pid);
	free(st);
	return status;
}

int
main(int argc, char **argv)
{
	int first, status = 0;
	opt_policy = ovb_place_policy("first-fit-decreasing");
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	if (opt_consolidate && !opt_repair && !opt_cons) {
		ovb_warn("--consolidate needs its moves: --max-moves M (the "
			"plan compact:M) or --consolidate=C (consolidate:C)");
		return OVB_EUSAGE;
	}
	if (opt_repair && opt_cons) {
		ovb_warn("--consolidate=C is the plan consolidate:C, its repair "
			"unbounded: not with --max-moves (--max-moves M "
			"--consolidate: the plan compact:M)");
		return OVB_EUSAGE;
	}
	struct ovb_series_set all = { 0 };
	const char **files = NULL;
	static char dash[] = "-";
	char *stdin_only[] = { dash };
	status = argc > first ? ovb_series_load(argv + first,
		(size_t)(argc - first), &all, &files) :
		ovb_series_load(stdin_only, 1, &all, &files);
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; !status && i < all.n; i++) {
		const struct ovb_series *s = &all.s[i];
		if (s->res != OVB_CPU)
			continue;
		if (interval && s->interval != interval) {
			status = ovb_err_at(files[i], s->line, "series %s cpu: "
				"interval %llu s, but %llu s before", s->capsule,
				(unsigned long long)s->interval,
				(unsigned long long)interval);
			break;
		}
		interval = s->interval;
		vms = ovb_xrealloc(vms, nvm + 1, sizeof *vms);
		/* m NULL until a mem series names the VM */
		vms[nvm++] = (struct vm){ .s = s, .file = files[i] };
		*OVB_PUSH(cpu_set.s, cpu_set.n, cpu_set.cap) = *s;
		if (s->t[0] < t0)
			t0 = s->t[0];
		if (s->t[s->n - 1] + s->interval > t1)
			t1 = s->t[s->n - 1] + s->interval;
	}
	if (!status && !nvm)
		status = ovb_err_at(argc - first == 1 ? argv[first] : NULL, 0,
			"no cpu series: nothing to place");
	/* memory: the mem series of the VMs (a mem series without a cpu
	 * one is not a VM) */
	for (size_t i = 0; !status && i < all.n; i++) {
		const struct ovb_series *s = &all.s[i];
		if (s->res != OVB_MEM)
			continue;
		if (s->interval != interval) {
			status = ovb_err_at(files[i], s->line, "series %s mem: "
				"interval %llu s, but %llu s for cpu",
				s->capsule, (unsigned long long)s->interval,
				(unsigned long long)interval);
			break;
		}
		for (size_t v = 0; v < nvm; v++)
			if (!strcmp(vms[v].s->capsule, s->capsule)) {
				vms[v].m = s;
				vms[v].mfile = files[i];
				mem_on = true;
			}
	}
	if (nmem == 1 && opt_mem[0] == 0)
		mem_on = false;
	else if (!status && nmem && !mem_on)
		status = ovb_err_at(argc - first == 1 ? argv[first] : NULL, 0,
			"--mem: no mem series to replay");
	if (!status && mem_on && opt_mwin % interval)
		status = ovb_err_at(argc - first == 1 ? argv[first] : NULL, 0,
			"--mem-window %llu s is not a multiple of the series' "
			"interval %llu s", (unsigned long long)opt_mwin,
			(unsigned long long)interval);
	if (!status && opt_method[M_TOD] && (3600 % interval ||
	    opt_tod_offset % (int64_t)interval))
		status = ovb_err_at(argc - first == 1 ? argv[first] : NULL, 0,
			"tod: the series' interval %llu s must divide 1 h and "
			"--tod-offset %lld s (an interval in one hour of the day)",
			(unsigned long long)interval, (long long)opt_tod_offset);
	uint64_t S = start_given ? opt_start :
		(t0 + OVB_DAY - 1) / OVB_DAY * OVB_DAY;
	uint64_t maxtrain = 0;
	for (size_t i = 0; i < ntrain; i++)
		if (opt_train[i] > maxtrain)
			maxtrain = opt_train[i];
	/* periods: every configuration replays the same N periods, those
	 * after the longest training window */
	uint64_t nper = opt_periods;
	if (!status && !nper && S + maxtrain < t1)
		nper = (t1 - S - maxtrain + opt_replay - 1) / opt_replay;
	if (!status && !nper)
		status = ovb_err_at(argc - first == 1 ? argv[first] : NULL, 0,
			"the series end (%llu) before the first replayed period "
			"(start %llu + training %llu s)",
			(unsigned long long)t1, (unsigned long long)S,
			(unsigned long long)maxtrain);
	bool plans[3] = { opt_rolling, opt_oneshot, opt_afresh };
	struct ovb_backtest out = { 0 };
	size_t per = 0;                 /* configurations in a group */
	for (int m = 0; m < NMETHOD; m++)
		per += opt_method[m] ? ncpus : 0;
	struct group *g = ovb_xcalloc(3 * ntrain * nO, sizeof *g);
	size_t ng = 0;
	for (int pl = 0; !status && pl < 3; pl++)
		for (size_t it = 0; plans[pl] && it < ntrain; it++)
			for (size_t io = 0; io < nO; io++, ng++)
				g[ng] = (struct group){ pl, it, io, ng * per };
	if (!status)
		status = run_groups(g, ng, S, maxtrain, nper, &out);
	free(g);
	ovb_joint_free(&hind_j);
	ovb_joint_free(&train_j);
	free(cpu_set.s);
	if (!status) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		if (!f)
			status = OVB_ESOFT;
		else {
			status = ovb_backtest_write(f, &out);
			if (fclose(f))
				status = OVB_EIO;
		}
		status = ovb_out_buffer(buf, len, status);
		free(buf);
	}
	ovb_backtest_free(&out);
	ovb_series_free(&all);
	free(files);
	free(vms);
	return status;
}
