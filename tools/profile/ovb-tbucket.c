/* ovb-tbucket: exact token-bucket curves rho(sigma) from On-Off traces.
 *
 * Reads each ovb-onoff FILE (stdin when none or "-") and writes one
 * ovb-curve file with, for every chosen capsule and resource in input
 * order, the least burst rho for each rate sigma such that the capsule's
 * usage over any interval [s, t] within a gap-free part of the trace is at
 * most sigma (t - s) + rho.  The curve is convex, piecewise linear and
 * non-increasing; its breakpoints over [mean, peak] are computed exactly
 * (rational arithmetic on integer ns and amounts) and rounded to doubles
 * once.  Output is all or nothing, as in ovb-usage.  An ovb-series FILE
 * (recognised by its magic) gives the curve of its piecewise-constant
 * usage, a missing sample splitting it like a gap. */
#include <argp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"


static const char doc[] =
	"Compute exact token-bucket curves rho(sigma) from On-Off traces."
	"\v"
	"Writes an ovb-curve file (formats/curve.md).  A is the capsule's "
	"cumulative usage: for cpu it rises at CPUS cpu-s per s during busy "
	"periods (continuous); for net and net-rx it steps by the bytes of "
	"each transfer at its instant, and an interval [s, t] counts the "
	"bytes at s and at t, so rho never drops below the most bytes moved "
	"at one instant.  rho(sigma) = max over s <= t in one gap-free part "
	"of A(t) - A(s) - sigma (t - s); intervals never cross a gap of lost "
	"events.  The points run from sigma = mean (usage over the gap-free "
	"time) to sigma = peak (beyond it rho stays constant: 0 for cpu, "
	"where peak is the most CPUs busy at once).  Each point is the "
	"double nearest the exact rational breakpoint (relative error about "
	"1e-16); a breakpoint is dropped only when its rounded neighbours "
	"would not read back as convex, which leaves an upper bound.  Cost: "
	"one pass over the trace per breakpoint, about two per breakpoint in "
	"all; progress is shown on a terminal.\n\n"
	"An ovb-series FILE (formats/series.md, from ovb-import) is read as "
	"well: A rises continuously with slope V over each sample's period "
	"[T, T+I), a missing sample splits the series like a gap, the mean is "
	"that of the samples, the peak the largest sample, and rho(peak) = 0.  "
	"A capsule without a series for a chosen resource is left out of that "
	"resource, with a warning.  mem, a level rather than a rate, has no "
	"curve: -r all leaves it out, -r mem alone is a usage error.\n\n"
	"EXAMPLES:\n"
	"  ovb-tbucket web.onoff -o web.curve\n"
	"  ovb-tbucket -r cpu -c web,db trace.onoff\n"
	"  ovb-tbucket -r all trace.onoff | ovb-fmt   curves for every resource\n"
	"  ovb-import --bitbrains 2013-7/*.csv.gz | ovb-tbucket\n\n"
	OVB_EXIT_DOC_NOCHECK;

static const struct argp argp = { NULL, NULL, "[FILE...]", doc,
	ovb_select_children, NULL, NULL };

/* Keeps the curve, or reports why there is none: "KIND CAPSULE RES: why"
 * at file:line. */
static int
keep(struct ovb_curves *cs, struct ovb_curve *cv, int st, const char *why,
	const char *file, unsigned long line, const char *kind)
{
	ovb_progress_end();
	/* every number written must read back: a burst of usages near the
	 * largest double over a long time is beyond it */
	bool finite = !st && isfinite(cv->mean) && isfinite(cv->peak);
	for (size_t i = 0; finite && i < cv->n; i++)
		finite = isfinite(cv->pt[i].sigma) && isfinite(cv->pt[i].rho);
	if (!st && !finite) {
		st = OVB_EDATA;
		why = "the burst rho exceeds the largest double (usage near "
			"1.8e308 for a long time)";
	}
	if (st) {
		st = ovb_err_at(file, line, "%s %s %s: %s", kind, cv->capsule,
			ovb_res_name(cv->res), why);
		free(cv->capsule);
		free(cv->pt);
		return st;
	}
	*OVB_PUSH(cs->c, cs->n, cs->cap) = *cv;
	return 0;
}

static int
curve_one(void *cs, const char *file, const struct ovb_onoff *o,
	const struct ovb_oncap *c, enum ovb_res r)
{
	struct ovb_curve cv;
	const char *why;
	if (!ovb_onoff_measured(o, r)) {   /* no curve of what was not seen */
		if (!ovb_quiet)
			ovb_warn("%s: capsule %s: %s was not measured (the trace "
				"has no %s events, or ovb-onoff --no-net); no "
				"curve", file, c->name, ovb_res_name(r),
				r == OVB_NETRX ? "receive" : "send");
		return 0;
	}
	int st = ovb_tbucket(o, c, r, &cv, &why);
	if (!st)   /* where and when, from the onoff file's trace record */
		ovb_onoff_trace(o, &cv.trace);
	return keep(cs, &cv, st, why, file, 0, "capsule");
}

static int
curve_series(void *cs, const char *file, const struct ovb_series *se)
{
	struct ovb_curve cv;
	const char *why;
	int st = ovb_series_tbucket(se, &cv, &why);
	return keep(cs, &cv, st, why, file, se->line, "series");
}

static int
write_curves(void *cs, FILE *f)
{
	if (!((struct ovb_curves *)cs)->n)
		return ovb_err_at(NULL, 0, "no capsules in the input: no curves "
			"to compute");
	return ovb_curve_write(f, cs);
}

static const struct ovb_profile_fn curves = { NULL, curve_one,
	curve_series, write_curves };

int
main(int argc, char **argv)
{
	int first;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	/* memory is a level, not a rate: no token bucket (-r all skips it) */
	ovb_sel.res[OVB_MEM] = false;
	bool any = false;
	for (int r = 0; r < OVB_NRES; r++)
		any |= ovb_sel.res[r];
	if (!any) {
		ovb_warn("-r mem: memory is a level, not a rate; it has no "
			"token-bucket curve (its profile needs none)");
		return OVB_EUSAGE;
	}
	struct ovb_curves cs;
	memset(&cs, 0, sizeof cs);
	int status = ovb_run_profiling(argc - first, argv + first, &ovb_sel,
		&curves, &cs);
	ovb_curve_free(&cs);
	ovb_select_free(&ovb_sel);
	return status;
}
