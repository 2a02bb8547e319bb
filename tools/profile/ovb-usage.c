/* ovb-usage: usage distributions U from On-Off traces.
 *
 * Reads each ovb-onoff FILE (stdin when none or "-"), cuts its span into
 * measurement intervals of length I from its start, and writes one
 * ovb-usage file holding U of every chosen capsule and resource, in input
 * order.  A final partial interval is dropped and so is every interval that
 * overlaps a gap of lost events.  An ovb-series FILE (recognised by its
 * magic) gives one interval per sample, or per L/I samples with -I L: the
 * intervals [kL, (k+1)L) whose samples are all present.  A mem series (a
 * level, not a rate) gives the window peaks instead: per window [kW,
 * (k+1)W) (--window, default 1 h) with a sample, the largest of them.
 * With --tod MIN (series, rates), U is also kept per time-of-day window
 * (lib/tod.c: weekday and weekend hours merged to at least MIN
 * intervals, each with its own token-bucket curve); a window without an
 * interval is written with N 0, unmeasured.
 * Percentiles and the mean are exact (the
 * per-interval usages are kept, not only their bins).  Output is all or
 * nothing: with any bad input nothing is written and the exit status is
 * the largest of all inputs' statuses. */
#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_INTERVAL = 'I', OPT_WIDTH = 'w', OPT_PCT = 'p',
	OPT_WINDOW = 0x100, OPT_TOD, OPT_TOD_OFFSET };

static uint64_t opt_interval = 1000000000;      /* ns */
static bool opt_interval_given;
static uint64_t opt_window = 3600;              /* s: mem's window W */
static double opt_width[OVB_NRES];              /* 0: automatic */
static double opt_pct[OVB_MAXPCT] = { 50, 90, 95, 99, 100 };
static int opt_npct = 5;
/* drift-aware U of series (lib/drift.c): lib/cliopt.c's child */
#define D ovb_cliopt_drift
/* time-of-day windows of series (lib/tod.c): 0 none, else the minimum */
static uint64_t opt_tod;
static int64_t opt_tod_offset;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Measurement:", 1 },
	{ "interval", OPT_INTERVAL, "SECONDS", 0,
	  "Measurement interval I (default 1, at least 0.001; rounded to ns; "
	  "for series input: the series' interval, or a multiple of it)",
	  0 },
	{ "window", OPT_WINDOW, "W", 0,
	  "mem (series only): U is the distribution of the window peaks, the "
	  "largest sample of each window [kW, (k+1)W) that has one; W in s, "
	  "or with a unit m, h, d (default 1h); a multiple of the series' "
	  "interval", 0 },
	{ "width", OPT_WIDTH, "[RES=]WIDTH", 0,
	  "Bin width in RES's rate unit, for RES or for every resource "
	  "(default: cpu 0.01; net, net-rx: 1, 2 or 5 times a power of ten, "
	  "about 100 bins up to the peak); repeatable", 0 },
	{ "pct", OPT_PCT, "P[,...]", 0,
	  "Also give the P-th percentiles (always: 50, 90, 95, 99, 100)", 0 },
	{ NULL, 0, NULL, 0, "Time-of-day windows (ovb-series input only, rates; "
	  "formats/usage.md):", 4 },
	{ "tod", OPT_TOD, "MIN", 0,
	  "Also U per window of the day: weekday (Mon-Fri) and weekend hours, "
	  "adjacent hours merged in order until a window holds at least MIN "
	  "intervals (a last run below MIN joins the window before it; a day "
	  "type with fewer than MIN in all is one window, unmeasured when it "
	  "has none); the interval must divide 1 h", 0 },
	{ "tod-offset", OPT_TOD_OFFSET, "SECONDS", 0,
	  "The windows' clock is UTC + SECONDS (default 0; -86399..86399, a "
	  "multiple of the interval; Bitbrains, CEST: 7200)", 0 },
	{ 0 }
};

static const char doc[] =
	"Measure usage distributions U from On-Off traces."
	"\v"
	"Reads ovb-onoff files and writes one ovb-usage file (formats/usage.md) "
	"with U of each capsule and resource.  Usage in an interval is the "
	"CPU time of the capsule's busy periods in it divided by I (in cpu: 1 "
	"is one CPU busy throughout; more with several CPUs), or its bytes "
	"sent or received at instants in it divided by I (in B/s).  Bin 0 "
	"counts usage exactly 0, bin K usage in ((K-1)W, KW].  The mean and "
	"the percentiles (nearest rank) are computed from the exact "
	"per-interval usages, not from the bins.  Intervals overlapping a gap "
	"of lost events are left out (a warning says how many); a trace "
	"without one complete gap-free interval is an error.\n\n"
	"An ovb-series FILE (formats/series.md, from ovb-import) is read as "
	"well: each sample is the usage of one measurement interval, so I is "
	"the series' sampling interval unless -I gives a multiple L of it; "
	"then the usage in [kL, (k+1)L) (k L seconds since the epoch) is the "
	"exact mean of its L/I samples, and intervals missing a sample are "
	"left out (-v says how many).  A capsule without a series for a "
	"chosen resource is left out of that resource, with a warning.\n\n"
	"Memory (-r mem, series only) is a level, not a rate: its U is the "
	"distribution of the window peaks (block maxima), one value per "
	"window [kW, (k+1)W) of --window W (default 1h; -I does not apply): "
	"the largest of its samples, in B; a window missing some of its W/I "
	"samples still counts (a level seen is a level held, so the largest "
	"peak is the largest sample; -v says how many).  The block's "
	"interval is W.\n\n"
	"EXAMPLES:\n"
	"  ovb-usage web.onoff -o web.usage        cpu and net, 1 s intervals\n"
	"  ovb-usage -I 0.1 -r cpu -w 0.05 a.onoff 100 ms, bins of 0.05 CPU\n"
	"  ovb-usage -r all -w net=1e6 -c web,db t.onoff\n"
	"  ovb-usage -p 97.5 t.onoff | ovb-fmt     an extra exact percentile\n"
	"  ovb-import --bitbrains 2013-7/*.csv.gz | ovb-usage -r all\n"
	"  ovb-usage -r mem --window 1h july.series   hourly memory peaks\n\n"
	OVB_EXIT_DOC_NOCHECK;

static void
add_width(struct argp_state *st, char *arg)
{
	char *key, *val;
	int r = OVB_NRES;
	if (ovb_kv(arg, &key, &val) && (r = ovb_res_parse(key)) < 0)
		argp_error(st, "-w: unknown resource '%s' (cpu, net, net-rx, "
			"mem)",
			key);
	const char *s = r == OVB_NRES ? arg : val;
	double w = ovb_arg_real(st, "-w", s, 0, 1e15);
	if (!(w > 0))
		argp_error(st, "-w: the width must be positive");
	for (int i = 0; i < OVB_NRES; i++)
		if (r == OVB_NRES || r == i)
			opt_width[i] = w;
}

static void
add_pct(struct argp_state *st, char *arg)
{
	ovb_arg_list(st, "-p", arg);
	for (char *s, *save = NULL; (s = strtok_r(arg, ",", &save)); arg = NULL) {
		double p = ovb_arg_real(st, "-p", s, 0, 100);
		bool have = false;
		for (int i = 0; i < opt_npct; i++)
			have |= opt_pct[i] == p;
		if (have)
			continue;
		if (opt_npct == OVB_MAXPCT)
			argp_error(st, "-p: at most %d percentiles in all (5 are "
				"always given)", OVB_MAXPCT);
		opt_pct[opt_npct++] = p;
	}
}


static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_INTERVAL:
		opt_interval = (uint64_t)llround(ovb_arg_real(st, "-I", arg,
			0.001, 1e9) * 1e9);
		opt_interval_given = true;
		return 0;
	case OPT_WINDOW:
		opt_window = ovb_arg_seconds(st, "--window", arg, 1,
			OVB_SERIES_MAXI);
		return 0;
	case OPT_WIDTH: add_width(st, arg); return 0;
	case OPT_PCT: add_pct(st, arg); return 0;
	case OPT_TOD:
		opt_tod = ovb_arg_u64(st, "--tod", arg, 1, UINT64_C(1) << 53);
		return 0;
	case OPT_TOD_OFFSET:
		opt_tod_offset = ovb_arg_i64(st, "--tod-offset", arg,
			OVB_DAY - 1);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* -r, -c, -o, -q, -v (lib/cli.c) and the drift-aware options */
static const struct argp select_argp = { NULL, NULL, NULL, NULL,
	ovb_select_children, NULL, NULL };
static const struct argp_child children[] = {
	{ &ovb_cliopt_drift_argp, 0, NULL, 3 },
	{ &select_argp, 0, NULL, 0 },
	{ 0 }
};
static const struct argp argp = { options, parse_opt, "[FILE...]", doc,
	children, NULL, NULL };

/* U of capsule and r from its samples (freed here), in intervals of I. */
static int
put_dist(struct ovb_usage *u, const char *file, const char *capsule,
	enum ovb_res r, double interval, struct ovb_samples *smp)
{
	struct ovb_samples sm = *smp;
	double w = opt_width[r] ? opt_width[r] : ovb_auto_width(r, sm.peak);
	struct ovb_dist d;
	memset(&d, 0, sizeof d);
	int st = 0;
	if (ovb_dist_fill(&d, &sm, w, opt_pct, opt_npct)) {
		d.capsule = ovb_xstrdup(capsule);
		d.res = r;
		d.interval = interval;
		*OVB_PUSH(u->d, u->n, u->cap) = d;
	} else {
		char a[32], b[32];
		const char *unit = ovb_res_rate_unit(r);
		st = ovb_err_at(file, 0, "capsule %s %s: peak usage %s %s with "
			"bins of %s %s needs more than %d bins; give a larger -w",
			capsule, ovb_res_name(r), ovb_fmt_real(a, sm.peak), unit,
			ovb_fmt_real(b, w), unit, OVB_MAXBINS);
	}
	ovb_samples_free(&sm);
	return st;
}

/* The held-out test of --calibrate at k. */
struct heldout {
	const double *y;        /* the held-out intervals' usage */
	size_t n;
	double s;               /* the fit's (1-O) percentile at k = 1 */
};

static bool
heldout_holds(double k, void *arg)
{
	const struct heldout *h = arg;
	uint64_t over = 0;
	for (size_t i = 0; i < h->n; i++)
		over += h->y[i] > k * h->s;
	return ovb_bt_held(over, h->n, D.cal_O);
}

/* The drift-aware U of one series' intervals sm (in time order, len s
 * each; freed here). */
static int
put_drift(struct ovb_usage *u, const char *file, const struct ovb_series *se,
	uint64_t len, struct ovb_samples *sm)
{
	uint64_t a = sm->t[0], end = sm->t[sm->n - 1] + len;
	uint64_t H = end + (D.horizon_given ? D.horizon : 0);
	if (H > (UINT64_C(1) << 62)) {
		ovb_samples_free(sm);
		return ovb_err_at(file, se->line, "series %s %s: its end + "
			"--horizon is %llu s, beyond 2^62 s since the epoch",
			se->capsule, ovb_res_name(se->res),
			(unsigned long long)H);
	}
	struct ovb_drift p = D.d;
	if (!D.horizon_given)
		p.day = 0;      /* no trend */
	double k = 1;
	char ks[32];
	if (D.calibrate) {
		uint64_t L = D.holdout < (end - a) / 2 ? D.holdout :
			(end - a) / 2;
		double *x, pc = 100 - 100 * D.cal_O;
		uint64_t *w;
		size_t n = ovb_drift_series(sm->t, sm->v, sm->n, len, a, end - L,
			end, &p, &x, &w);
		size_t lo = 0;
		while (lo < sm->n && sm->t[lo] < end - L)
			lo++;
		struct ovb_dist fd;
		memset(&fd, 0, sizeof fd);
		if (!n || lo == sm->n || !L) {
			free(x);
			free(w);
			ovb_samples_free(sm);
			return ovb_err_at(file, se->line, "series %s %s: "
				"--calibrate: no intervals both before and in "
				"the last %llu s held out", se->capsule,
				ovb_res_name(se->res), (unsigned long long)L);
		}
		double top = 0;
		for (size_t i = 0; i < n; i++)
			if (x[i] > top)
				top = x[i];
		/* only the exact percentile is wanted: any width will do */
		bool ok = ovb_drift_dist(&fd, x, w, n, 1, top > 0 ? top / 1000 :
			1, &pc, 1);
		free(x);
		free(w);
		if (!ok) {
			ovb_samples_free(sm);
			return ovb_err_at(file, se->line, "series %s %s: "
				"--calibrate: the fit needs too many bins",
				se->capsule, ovb_res_name(se->res));
		}
		struct heldout h = { .y = sm->v + lo, .n = sm->n - lo,
			.s = fd.pct_v[0] };
		free(fd.h.count);
		k = ovb_calib_least_k(0.5, 4, 0.05, heldout_holds, &h);
		if (ovb_verbose)
			ovb_warn("%s: series %s %s: calibrated on [%llu, %llu) "
				"held out: k = %s", file, se->capsule,
				ovb_res_name(se->res),
				(unsigned long long)(end - L),
				(unsigned long long)end, ovb_fmt_real(ks, k));
	}
	double *x;
	uint64_t *w;
	size_t n = ovb_drift_series(sm->t, sm->v, sm->n, len, a, end, H, &p,
		&x, &w);
	double peak = 0;
	for (size_t i = 0; i < n; i++)
		if (k * x[i] > peak)
			peak = k * x[i];
	double wd = opt_width[se->res] ? opt_width[se->res] :
		ovb_auto_width(se->res, peak);
	struct ovb_dist d;
	memset(&d, 0, sizeof d);
	int st = 0;
	if (ovb_drift_dist(&d, x, w, n, k, wd, opt_pct, opt_npct)) {
		d.capsule = ovb_xstrdup(se->capsule);
		d.res = se->res;
		d.interval = (double)len;
		/* a forecast to H: every sample scaled to H by a factor
		 * that grows with the time it is scaled to, so U is at
		 * least the forecast of any time up to H */
		d.forecast = D.horizon_given ? H : 0;
		*OVB_PUSH(u->d, u->n, u->cap) = d;
	} else {
		char b[32];
		st = ovb_err_at(file, se->line, "series %s %s: its drift-aware "
			"usage with bins of %s %s needs more than %d bins; give "
			"a larger -w", se->capsule, ovb_res_name(se->res),
			ovb_fmt_real(b, wd), ovb_res_rate_unit(se->res),
			OVB_MAXBINS);
	}
	free(x);
	free(w);
	ovb_samples_free(sm);
	return st;
}

static int
measure_one(void *u, const char *file, const struct ovb_onoff *o,
	const struct ovb_oncap *c, enum ovb_res r)
{
	if (D.on)
		return ovb_err_at(file, 0, "--half-life, --horizon and "
			"--calibrate need ovb-series input");
	if (opt_tod)
		return ovb_err_at(file, 0, "--tod needs ovb-series input (times "
			"of the day)");
	struct ovb_usage *uu = u;
	if (!ovb_onoff_measured(o, r)) {   /* said, not written as 0 */
		if (!ovb_quiet)
			ovb_warn("%s: capsule %s: %s was not measured (the trace "
				"has no %s events, or ovb-onoff --no-net); "
				"written as unmeasured", file, c->name,
				ovb_res_name(r), r == OVB_NETRX ? "receive" :
				"send");
		struct ovb_dist *d = OVB_PUSH(uu->d, uu->n, uu->cap);
		memset(d, 0, sizeof *d);
		d->capsule = ovb_xstrdup(c->name);
		d->res = r;
		d->unmeasured = true;
		ovb_onoff_trace(o, &d->trace);
		return 0;
	}
	struct ovb_samples sm;
	ovb_measure(o, c, r, opt_interval, &sm);
	size_t lost = sm.ngap;
	int st = put_dist(u, file, c->name, r, (double)opt_interval / 1e9, &sm);
	struct ovb_usage *us = u;
	if (!st) { /* where and when, from the onoff file's trace record */
		ovb_onoff_trace(o, &us->d[us->n - 1].trace);
		/* and the intervals left out for lost events (lost D) */
		us->d[us->n - 1].lost = lost;
		/* and, for cpu, how long its tasks waited runnable (wait) */
		if (r == OVB_CPU)
			us->d[us->n - 1].wait = c->wait;
	}
	return st;
}

/* Once per file: are there intervals, and did gaps cost some? */
static int
check_intervals(void *u, const char *file, const struct ovb_onoff *o)
{
	(void)u;
	uint64_t total = (o->t1 - o->t0) / opt_interval;
	char i[32];
	ovb_fmt_real(i, (double)opt_interval / 1e9);
	if (total > OVB_MAXINTERVALS)   /* before any per-interval array */
		return ovb_err_at(file, o->span_line, "span [%llu, %llu] ns "
			"holds %llu measurement intervals of %s s, more than "
			"the limit of %u; give a larger -I",
			(unsigned long long)o->t0, (unsigned long long)o->t1,
			(unsigned long long)total, i, OVB_MAXINTERVALS);
	struct ovb_oncap none;
	memset(&none, 0, sizeof none);
	struct ovb_samples sm;
	ovb_measure(o, &none, OVB_CPU, opt_interval, &sm);
	size_t n = sm.n, ngap = sm.ngap;
	ovb_samples_free(&sm);
	if (!n)
		return ovb_err_at(file, 0, "no complete gap-free measurement "
			"interval of %s s in the span [%llu, %llu] ns (%llu "
			"complete, %zu overlapping gaps)", i,
			(unsigned long long)o->t0, (unsigned long long)o->t1,
			(unsigned long long)total, ngap);
	if (ngap && !ovb_quiet)
		ovb_warn("%s: %zu of %llu measurement intervals of %s s overlap "
			"gaps of lost events and are left out", file, ngap,
			(unsigned long long)total, i);
	return 0;
}

/* A mem series: U of the window peaks, windows of --window s. */
static int
measure_peaks(void *u, const char *file, const struct ovb_series *se)
{
	uint64_t len = opt_window;
	if (len % se->interval)
		return ovb_err_at(file, se->line, "series %s mem: the window "
			"--window %llu s is not a multiple of its interval %llu s",
			se->capsule, (unsigned long long)len,
			(unsigned long long)se->interval);
	struct ovb_samples sm;
	ovb_series_peaks(se, len, &sm);
	if (sm.ngap && ovb_verbose)
		ovb_warn("%s: series %s mem: %zu of %zu windows of %llu s miss "
			"some samples (their peaks are of those present)", file,
			se->capsule, sm.ngap, sm.n, (unsigned long long)len);
	return put_dist(u, file, se->capsule, se->res, (double)len, &sm);
}

/* U with its time-of-day windows (the intervals sm, len s each, in time
 * order; freed here). */
static int
put_tod(struct ovb_usage *u, const char *file, const struct ovb_series *se,
	uint64_t len, struct ovb_samples *sm)
{
	if (3600 % len || (opt_tod_offset % (int64_t)len)) {
		ovb_samples_free(sm);
		return ovb_err_at(file, se->line, "series %s %s: --tod: its "
			"intervals of %llu s must divide 1 h and --tod-offset "
			"%lld s (an interval in one hour of the day)", se->capsule,
			ovb_res_name(se->res), (unsigned long long)len,
			(long long)opt_tod_offset);
	}
	size_t n = sm->n;
	uint64_t *t = ovb_xcalloc(n, sizeof *t);
	double *v = ovb_xcalloc(n, sizeof *v);
	memcpy(t, sm->t, n * sizeof *t);        /* put_dist sorts v */
	memcpy(v, sm->v, n * sizeof *v);
	int st = put_dist(u, file, se->capsule, se->res, (double)len, sm);
	const char *why = NULL;
	if (!st) {
		struct ovb_dist *d = &u->d[u->n - 1];
		ovb_tod_fill(d, t, v, n, opt_tod_offset, opt_tod);
		/* each window's own token-bucket curve */
		if (ovb_tod_curves(d, se, &why))
			st = ovb_err_at(file, se->line, "series %s %s: --tod: a "
				"window's token-bucket curve: %s", se->capsule,
				ovb_res_name(se->res), why);
	}
	free(t);
	free(v);
	return st;
}

/* One series: U in intervals of len s (a multiple of its interval). */
static int
measure_series(void *u, const char *file,
	const struct ovb_series *se)
{
	uint64_t len = se->interval;
	char a[32];
	if (se->res == OVB_MEM && D.on)
		return ovb_err_at(file, se->line, "series %s mem: --half-life, "
			"--horizon and --calibrate are for rates (cpu, net, "
			"net-rx), not for mem's window peaks", se->capsule);
	if (se->res == OVB_MEM && opt_tod)
		return ovb_err_at(file, se->line, "series %s mem: --tod is for "
			"rates (cpu, net, net-rx), not for mem's window peaks",
			se->capsule);
	if (opt_tod && D.on)
		return ovb_err_at(file, se->line, "series %s %s: --tod does not "
			"go with --half-life, --horizon or --calibrate",
			se->capsule, ovb_res_name(se->res));
	if (se->res == OVB_MEM)
		return measure_peaks(u, file, se);
	if (opt_interval_given) {
		uint64_t ns = se->interval * 1000000000;
		if (opt_interval % ns)
			return ovb_err_at(file, se->line, "series %s %s: -I %s s "
				"is not a multiple of its interval %llu s",
				se->capsule, ovb_res_name(se->res),
				ovb_fmt_real(a, (double)opt_interval / 1e9),
				(unsigned long long)se->interval);
		len = opt_interval / 1000000000;
	}
	struct ovb_samples sm;
	ovb_series_measure(se, len, &sm);
	if (!sm.n) {
		ovb_samples_free(&sm);
		return ovb_err_at(file, se->line, "series %s %s: no "
			"measurement interval of %llu s has all its %llu "
			"samples", se->capsule, ovb_res_name(se->res),
			(unsigned long long)len,
			(unsigned long long)(len / se->interval));
	}
	if (sm.ngap && ovb_verbose)
		ovb_warn("%s: series %s %s: %zu of %zu measurement intervals of "
			"%llu s miss samples and are left out", file,
			se->capsule, ovb_res_name(se->res), sm.ngap,
			sm.ngap + sm.n, (unsigned long long)len);
	if (D.on)
		return put_drift(u, file, se, len, &sm);
	if (opt_tod)
		return put_tod(u, file, se, len, &sm);
	return put_dist(u, file, se->capsule, se->res, (double)len, &sm);
}

static int
write_usage(void *u, FILE *f)
{
	if (!((struct ovb_usage *)u)->n)
		return ovb_err_at(NULL, 0, "no capsules in the input: nothing "
			"to measure");
	return ovb_usage_write(f, u);
}

static const struct ovb_profile_fn measure = { check_intervals,
	measure_one, measure_series, write_usage };

int
main(int argc, char **argv)
{
	int first;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct ovb_usage u;
	memset(&u, 0, sizeof u);
	int status = ovb_run_profiling(argc - first, argv + first, &ovb_sel,
		&measure, &u);
	ovb_usage_free(&u);
	ovb_select_free(&ovb_sel);
	return status;
}
