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
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_RES = 'r', OPT_CAPSULE = 'c' };

static bool opt_res[OVB_NRES], opt_res_given;
static struct ovb_names opt_caps;
static size_t ncaps;
static char **caps;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Selection:", 1 },
	{ "resource", OPT_RES, "RES[,...]", 0,
	  "cpu, net (bytes sent), net-rx (bytes received) or all (default: "
	  "cpu,net); repeatable", 0 },
	{ "capsule", OPT_CAPSULE, "NAME[,...]", 0,
	  "Only these capsules (default: all); repeatable", 0 },
	{ 0 }
};

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
	"resource, with a warning.\n\n"
	"EXAMPLES:\n"
	"  ovb-tbucket web.onoff -o web.curve\n"
	"  ovb-tbucket -r cpu -c web,db trace.onoff\n"
	"  ovb-tbucket -r all trace.onoff | ovb-fmt   curves for every resource\n"
	"  ovb-import --bitbrains 2013-7/*.csv.gz | ovb-tbucket\n\n"
	OVB_EXIT_DOC;

/* A comma-separated list without empty items. */
static void
check_list(struct argp_state *st, const char *opt, const char *arg)
{
	size_t n = strlen(arg);
	if (!n || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"))
		argp_error(st, "%s: '%s' has an empty item", opt, arg);
}

static void
add_res(struct argp_state *st, char *arg)
{
	check_list(st, "-r", arg);
	for (char *s, *save = NULL; (s = strtok_r(arg, ",", &save)); arg = NULL) {
		int r = strcmp(s, "all") == 0 ? OVB_NRES : ovb_res_parse(s);
		if (r < 0)
			argp_error(st, "-r: unknown resource '%s' (cpu, net, "
				"net-rx, all)", s);
		for (int i = 0; i < OVB_NRES; i++)
			opt_res[i] |= r == OVB_NRES || r == i;
	}
	opt_res_given = true;
}

static void
add_caps(struct argp_state *st, char *arg)
{
	check_list(st, "-c", arg);
	for (char *s, *save = NULL; (s = strtok_r(arg, ",", &save)); arg = NULL) {
		if (!ovb_valid_name(s))
			argp_error(st, "-c: '%s' is not a capsule name", s);
		if (ovb_names_add(&opt_caps, s, ncaps)) {
			caps = ovb_xrealloc(caps, ncaps + 1, sizeof *caps);
			caps[ncaps++] = s;
		}
	}
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_RES: add_res(st, arg); return 0;
	case OPT_CAPSULE: add_caps(st, arg); return 0;
	case ARGP_KEY_SUCCESS:
		if (!opt_res_given)
			opt_res[OVB_CPU] = opt_res[OVB_NET] = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE...]", doc,
	ovb_cli_child, NULL, NULL };

struct state {
	struct ovb_curves cs;
	struct ovb_names seen;
	char **name, **owner;
	size_t nseen;
	bool *found;
};

static int
claim(struct state *s, const char *file, const char *name)
{
	size_t i = ovb_names_get(&s->seen, name);
	if (i != OVB_NONE)
		return ovb_err_at(file, 0, "capsule %s was already read from %s",
			name, s->owner[i]);
	s->name = ovb_xrealloc(s->name, s->nseen + 1, sizeof *s->name);
	s->owner = ovb_xrealloc(s->owner, s->nseen + 1, sizeof *s->owner);
	s->name[s->nseen] = ovb_xstrdup(name);
	s->owner[s->nseen] = ovb_xstrdup(file);
	ovb_names_add(&s->seen, s->name[s->nseen], s->nseen);
	s->nseen++;
	return 0;
}

static int
curve_one(struct state *s, const char *file, const struct ovb_onoff *o,
	const struct ovb_oncap *c, enum ovb_res r)
{
	struct ovb_curve cv;
	const char *why;
	int st = ovb_tbucket(o, c, r, &cv, &why);
	ovb_progress_end();
	if (st) {
		free(cv.capsule);
		free(cv.pt);
		return ovb_err_at(file, 0, "capsule %s %s: %s", c->name,
			ovb_res_name(r), why);
	}
	*OVB_PUSH(s->cs.c, s->cs.n, s->cs.cap) = cv;
	return 0;
}

static int
curves_of(struct state *s, const char *file, const struct ovb_onoff *o)
{
	int st = 0;
	for (size_t i = 0; !st && i < o->ncap; i++) {
		const struct ovb_oncap *c = &o->cap[i];
		size_t k = ovb_names_get(&opt_caps, c->name);
		if (ncaps && k == OVB_NONE)
			continue;
		if (ncaps)
			s->found[k] = true;
		if ((st = claim(s, file, c->name)))
			break;
		for (int r = 0; !st && r < OVB_NRES; r++)
			if (opt_res[r])
				st = curve_one(s, file, o, c, (enum ovb_res)r);
	}
	return st;
}

static int
curves_of_series(struct state *s, const char *file,
	const struct ovb_series_set *ss)
{
	struct ovb_names done = { 0 };
	int st = 0;
	for (size_t i = 0; !st && i < ss->n; i++) {
		const char *name = ss->s[i].capsule;
		if (!ovb_names_add(&done, name, i))
			continue;
		size_t k = ovb_names_get(&opt_caps, name);
		if (ncaps && k == OVB_NONE)
			continue;
		if (ncaps)
			s->found[k] = true;
		if ((st = claim(s, file, name)))
			break;
		for (int r = 0; !st && r < OVB_NRES; r++) {
			if (!opt_res[r])
				continue;
			const struct ovb_series *se = ovb_series_find(ss, name,
				(enum ovb_res)r);
			if (!se) {
				if (!ovb_quiet)
					ovb_warn("%s: capsule %s has no %s series; "
						"left out", file, name,
						ovb_res_name((enum ovb_res)r));
				continue;
			}
			struct ovb_curve cv;
			const char *why;
			st = ovb_series_tbucket(se, &cv, &why);
			ovb_progress_end();
			if (st) {
				free(cv.capsule);
				free(cv.pt);
				st = ovb_err_at(file, se->line, "series %s %s: %s",
					name, ovb_res_name(se->res), why);
			} else
				*OVB_PUSH(s->cs.c, s->cs.n, s->cs.cap) = cv;
		}
	}
	ovb_names_free(&done);
	return st;
}

/* 1: the input is an ovb-series file; 0: read it as onoff; or an error. */
static int
is_series(struct ovb_lex *lx)
{
	int st = ovb_lex_next(lx);
	if (st == 1) {
		ovb_lex_unread(lx);
		return strcmp(lx->tok[0], "ovb-series") == 0;
	}
	if (st == 0)
		ovb_lex_unread(lx);
	return st;
}

static int
read_one(struct state *s, const char *path)
{
	FILE *f;
	const char *name;
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, name);
	if ((st = is_series(&lx)) == 1) {
		struct ovb_series_set ss;
		if (!(st = ovb_series_read(&lx, &ss)))
			st = curves_of_series(s, name, &ss);
		ovb_series_free(&ss);
	} else if (st == 0) {
		struct ovb_onoff o;
		if (!(st = ovb_onoff_read(&lx, &o)))
			st = curves_of(s, name, &o);
		ovb_onoff_free(&o);
	}
	ovb_lex_free(&lx);
	ovb_close_in(f);
	return st;
}

static int
finish(struct state *s)
{
	int st = 0;
	for (size_t i = 0; i < ncaps; i++)
		if (!s->found[i])
			st = ovb_err_at(NULL, 0, "capsule %s (-c) is in no input",
				caps[i]);
	if (!st && !s->cs.n)
		st = ovb_err_at(NULL, 0, "no capsules in the input: no curves "
			"to compute");
	return st;
}

static void
state_free(struct state *s)
{
	for (size_t i = 0; i < s->nseen; i++) {
		free(s->name[i]);
		free(s->owner[i]);
	}
	ovb_names_free(&s->seen);
	free(s->name);
	free(s->owner);
	free(s->found);
	ovb_curve_free(&s->cs);
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct state s;
	memset(&s, 0, sizeof s);
	s.found = ovb_xcalloc(ncaps + 1, sizeof *s.found);
	struct ovb_out out;
	if ((status = ovb_out_open(&out, ovb_opt_output)))
		return status;
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++)
		if ((st = read_one(&s, nfiles ? argv[first + i] : NULL)) > status)
			status = st;
	if (!status)
		status = finish(&s);
	if (!status)
		status = ovb_curve_write(out.f, &s.cs);
	if ((st = ovb_out_close(&out, status == 0)) > status)
		status = st;
	if (!ovb_opt_output && (st = ovb_fshut_stdout()) > status)
		status = st;
	state_free(&s);
	ovb_names_free(&opt_caps);
	free(caps);
	return status;
}
