/* cliopt.c: options that several tools share beyond lib/cli.c's common
 * ones, each an argp child a tool lists among its children (elfutils
 * style): --grid of the placers (ovb-place, ovb-fit), the drift-aware
 * options of U (ovb-usage), the samples of --mode joint (ovb-place,
 * ovb-check) and the memory rule (ovb-place, ovb-check).  Each child's
 * values are one extern object, read by the tool after argp_parse.
 *
 * Invariants: an option means the same and takes the same values (the
 * same range, the same message when out of it) in every tool listing its
 * child; a child without its option given leaves the documented default. */
#include <argp.h>
#include <math.h>
#include <string.h>

#include "ovb.h"

/* ---- --grid ---- */

uint64_t ovb_cliopt_grid = 1000;

static const struct argp_option grid_options[] = {
	{ NULL, 0, NULL, 0, "Grid:", 0 },
	{ "grid", 0x4701, "POINTS", 0,
	  "A node's distributions sit on a grid at least CAPACITY/POINTS wide "
	  "(conservative; default 1000; 0: the profiles' bin widths alone; a "
	  "plan added to keeps its own grid)", 0 },
	{ 0 }
};

static error_t
parse_grid(int key, char *arg, struct argp_state *st)
{
	if (key != 0x4701)
		return ARGP_ERR_UNKNOWN;
	ovb_cliopt_grid = ovb_arg_u64(st, "--grid", arg, 0, 100000000);
	return 0;
}

const struct argp ovb_cliopt_grid_argp = { grid_options, parse_grid, NULL,
	NULL, NULL, NULL, NULL };

/* ---- the drift-aware U of series ---- */

struct ovb_cliopt_drift ovb_cliopt_drift = {
	.d = { .half_life = 0, .day = OVB_DAY, .trend_q = 0.9,
		.growth_max = 4 },
	.holdout = 7 * OVB_DAY,
};

enum { OPT_HALF = 0x4710, OPT_HORIZON, OPT_TREND_Q, OPT_GROWTH,
	OPT_CALIBRATE, OPT_HOLDOUT };

static const struct argp_option drift_options[] = {
	{ NULL, 0, NULL, 0, "Drift-aware U (ovb-series input only; not mem, "
	  "whose U is its window peaks):", 0 },
	{ "half-life", OPT_HALF, "DURATION", 0,
	  "Each interval counts with the integer weight round(1024 "
	  "2^-(age/DURATION)), at least 1, its age taken from the series' "
	  "end; DURATION is N seconds, or N followed by s, m, h, d or w", 0 },
	{ "horizon", OPT_HORIZON, "DURATION", 0,
	  "Forecast to the series' end + DURATION: each interval scaled by "
	  "the least-squares line of the daily quantiles (weighted as "
	  "--half-life) from its middle to the horizon, at least 1; the "
	  "usage written says until when (forecast T), and a plan placed "
	  "on it is valid until then (ovb-place)", 0 },
	{ "trend-quantile", OPT_TREND_Q, "Q", 0,
	  "The daily quantile the trend is fitted to, 0..1 (default 0.9)", 0 },
	{ "growth-max", OPT_GROWTH, "F", 0,
	  "An interval's trend factor is at most F (default 4)", 0 },
	{ "calibrate", OPT_CALIBRATE, "O", 0,
	  "Inflate U by the least k of 0.5, 0.55, ..., 4 such that, fitted "
	  "without the last --holdout of the series and forecast to its end, "
	  "the held-out intervals exceed k times the (1-O) percentile in at "
	  "most a fraction O of them (4 when none is)", 0 },
	{ "holdout", OPT_HOLDOUT, "DURATION", 0,
	  "--calibrate: the part held out (default 7d; at most half the "
	  "series' span)", 0 },
	{ 0 }
};

static error_t
parse_drift(int key, char *arg, struct argp_state *st)
{
	struct ovb_cliopt_drift *o = &ovb_cliopt_drift;
	switch (key) {
	case OPT_HALF:
		o->d.half_life = (double)ovb_arg_seconds(st, "--half-life", arg,
			1, OVB_DURATION_MAX);
		o->on = true;
		return 0;
	case OPT_HORIZON:
		o->horizon = ovb_arg_seconds(st, "--horizon", arg, 1,
			OVB_DURATION_MAX);
		o->horizon_given = o->on = true;
		return 0;
	case OPT_TREND_Q:
		o->d.trend_q = ovb_arg_real(st, "--trend-quantile", arg, 0, 1);
		return 0;
	case OPT_GROWTH:
		o->d.growth_max = ovb_arg_real(st, "--growth-max", arg, 1, 1e6);
		return 0;
	case OPT_CALIBRATE:
		o->cal_O = ovb_arg_real(st, "--calibrate", arg, 0, 1);
		if (o->cal_O >= 1)
			argp_error(st, "--calibrate: %s is not below 1", arg);
		o->calibrate = o->on = true;
		return 0;
	case OPT_HOLDOUT:
		o->holdout = ovb_arg_seconds(st, "--holdout", arg, 1,
			OVB_DURATION_MAX);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp ovb_cliopt_drift_argp = { drift_options, parse_drift,
	NULL, NULL, NULL, NULL, NULL };

/* ---- the samples of --mode joint ---- */

struct ovb_cliopt_joint ovb_cliopt_joint = { .to = OVB_SERIES_MAXT };

enum { OPT_SERIES = 0x4720, OPT_FROM, OPT_TO, OPT_SLOTS };

static const struct argp_option joint_options[] = {
	{ NULL, 0, NULL, 0, "The samples of --mode joint:", 0 },
	{ "series", OPT_SERIES, "FILE", 0,
	  "The ovb-series file of --mode joint: a capsule's samples of cpu, "
	  "net and net-rx are the series named as its profile (a capsule "
	  "without one, or without a sample in the window, is never read as "
	  "0: ovb-place rejects it, ovb-check reports it unmeasured)", 0 },
	{ "from", OPT_FROM, "T", 0,
	  "Only the slots at T [s since the epoch] and after (default: the "
	  "file's first)", 0 },
	{ "to", OPT_TO, "T", 0,
	  "Only the slots before T [s since the epoch] (default: all)", 0 },
	{ "slots", OPT_SLOTS, "any|overlap", 0,
	  "A node's slots: any, those where some capsule of it has a sample, "
	  "one without counting 0 (a replay's count; the default), or "
	  "overlap, only those from the latest first sample to the earliest "
	  "last sample of its capsules (a forecast from history: before a "
	  "VM arrived or after it went is not 0; a gap inside counts 0; "
	  "capsules never seen at the same time never share a node; "
	  "ovb-check: as the plan's mode line says)", 0 },
	{ 0 }
};

static error_t
parse_joint(int key, char *arg, struct argp_state *st)
{
	struct ovb_cliopt_joint *o = &ovb_cliopt_joint;
	switch (key) {
	case OPT_SERIES:
		o->series = arg;
		return 0;
	case OPT_FROM:
		o->from = ovb_arg_u64(st, "--from", arg, 0, OVB_SERIES_MAXT);
		return 0;
	case OPT_TO:
		o->to = ovb_arg_u64(st, "--to", arg, 0, OVB_SERIES_MAXT);
		return 0;
	case OPT_SLOTS:
		if (strcmp(arg, "any") && strcmp(arg, "overlap"))
			argp_error(st, "--slots: '%s' is not any or overlap", arg);
		o->overlap = !strcmp(arg, "overlap");
		o->slots_given = true;
		return 0;
	case ARGP_KEY_SUCCESS:  /* (KEY_END does not come with arg_index) */
		if (o->from >= o->to)
			argp_error(st, "--from %llu is not before --to %llu",
				(unsigned long long)o->from,
				(unsigned long long)o->to);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp ovb_cliopt_joint_argp = { joint_options, parse_joint,
	NULL, NULL, NULL, NULL, NULL };

/* ---- the memory rule ---- */

struct ovb_cliopt_mem ovb_cliopt_mem = { .O = NAN };

enum { OPT_MEM_RULE = 0x4730, OPT_MEM_TOL };

static const struct argp_option mem_options[] = {
	{ NULL, 0, NULL, 0, "Memory rule:", 0 },
	{ "mem-rule", OPT_MEM_RULE, "RULE", 0,
	  "pool: on a node of memory C and mem-pool P, the sum of the "
	  "requests <= C, the sum of the limits <= C + P and Pr(Y > C) <= "
	  "O_min, Y the sum of the window peaks; promise: Pr(Y > C) <= O_mem "
	  "alone (memory overbooked against a tolerance; the requests and "
	  "limits stay in the plan for enforcement, no placement rule; the "
	  "plan records mem-rule promise).  Default: a plan's mem-rule record "
	  "(ovb-place keeps a given plan's, ovb-check judges by it), else "
	  "pool", 0 },
	{ "mem-tolerance", OPT_MEM_TOL, "O", 0,
	  "--mem-rule promise's O_mem, 0 <= O < 1, in place of the least O "
	  "of the node's capsules (default: theirs)", 0 },
	{ 0 }
};

static error_t
parse_mem(int key, char *arg, struct argp_state *st)
{
	struct ovb_cliopt_mem *o = &ovb_cliopt_mem;
	switch (key) {
	case OPT_MEM_RULE:
		if (strcmp(arg, "pool") && strcmp(arg, "promise"))
			argp_error(st, "--mem-rule: '%s' is not pool or promise",
				arg);
		o->promise = !strcmp(arg, "promise");
		o->given = true;
		return 0;
	case OPT_MEM_TOL:
		o->O = ovb_arg_real(st, "--mem-tolerance", arg, 0, 1);
		if (o->O >= 1)
			argp_error(st, "--mem-tolerance: %s is not below 1", arg);
		return 0;
	case ARGP_KEY_SUCCESS:
		if (!isnan(o->O) && !o->promise)
			argp_error(st, "--mem-tolerance is the O_mem of "
				"--mem-rule promise");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp ovb_cliopt_mem_argp = { mem_options, parse_mem,
	NULL, NULL, NULL, NULL, NULL };
