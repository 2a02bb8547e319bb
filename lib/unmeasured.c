/* unmeasured.c: a resource the trace did not measure is not a resource
 * used at rate 0.  The placing and enforcing tools (ovb-place, ovb-check,
 * ovb-fit, ovb-enforce) refuse a capsule whose profile says `unmeasured`
 * for a resource they place or render, unless the user says
 * --unmeasured=zero (then a warning says what is read as 0); a lower bound
 * on a resource the capsule does not use is an error at its line.
 *
 * Invariants: nothing is refused that the cluster or the target does not
 * place (net-rx on a cluster without receive capacities, net under a CPU
 * target); every refusal names the application, the capsule, the
 * resource and the file and line to change. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

bool ovb_unmeasured_zero;

static const struct argp_option unmeasured_options[] = {
	{ NULL, 0, NULL, 0, "Resources a trace did not measure:", 95 },
	{ "unmeasured", 0x1a0, "refuse|zero", 0, "A capsule whose profile "
	  "says a resource was not measured (unmeasured: a trace without "
	  "its events, ovb-onoff --no-net): refuse it (default, status 65 "
	  "naming the capsule and the resource) or read it as 0, with a "
	  "warning", 0 },
	{ 0 }
};

static error_t
parse_unmeasured(int key, char *arg, struct argp_state *st)
{
	if (key != 0x1a0)
		return ARGP_ERR_UNKNOWN;
	if (!strcmp(arg, "zero"))
		ovb_unmeasured_zero = true;
	else if (!strcmp(arg, "refuse"))
		ovb_unmeasured_zero = false;
	else
		argp_error(st, "--unmeasured: '%s' is not refuse or zero", arg);
	return 0;
}

const struct argp ovb_unmeasured_argp = { unmeasured_options,
	parse_unmeasured, NULL, NULL, NULL, NULL, NULL };

static const struct argp cli_argp = { NULL, NULL, NULL, NULL, ovb_cli_child,
	NULL, NULL };

const struct argp_child ovb_unmeasured_children[] = {
	{ &ovb_unmeasured_argp, 0, NULL, 0 },
	{ &cli_argp, 0, NULL, 0 },
	{ 0 }
};

/* Does cl place resource r (net-rx and mem only where it gives them)? */
static bool
placed(const struct ovb_cluster *cl, int r)
{
	return r == OVB_MEM ? ovb_cluster_has_mem(cl) : r < ovb_cluster_nres(cl);
}

static const char *const lb_key[OVB_NCAP] = { "lb-cpu", "lb-net",
	"lb-net-rx", "lb-mem" };

int
ovb_capsule_measured(const struct ovb_app *app, const struct ovb_capsule *c,
	const struct ovb_qos *const q[OVB_NCAP], const struct ovb_cluster *cl,
	const char *file, bool warn)
{
	bool any = false;
	for (int r = 0; r < OVB_NCAP; r++)
		any = any || q[r];
	if (c->profile && !any)
		return 0;       /* a profile in no file: the caller's error */
	for (int r = 0; r < OVB_NCAP; r++) {
		if (!placed(cl, r))
			continue;
		const char *res = ovb_res_name((enum ovb_res)r);
		bool unm = c->profile && q[r] && q[r]->U.unmeasured;
		if (unm && !ovb_unmeasured_zero)
			return ovb_err_at(file, c->line, "application %s, capsule "
				"%s: %s was not measured (profile %s %s at %s:%lu "
				"says unmeasured: a trace without its events); "
				"give the capsule plain values (cpu=, net=) or "
				"pass --unmeasured=zero to read it as 0",
				app->name, c->name, res, c->profile, res,
				q[r]->file ? q[r]->file : "-", q[r]->line);
		if (unm && warn && !ovb_quiet)
			ovb_warn("%s:%lu: application %s, capsule %s: %s was not "
				"measured (%s:%lu); read as 0 (--unmeasured=zero)",
				file, c->line, app->name, c->name, res,
				q[r]->file ? q[r]->file : "-", q[r]->line);
		bool uses = c->profile ? q[r] && !unm : c->resv[r] > 0;
		if (c->lb[r] > 0 && !uses) {
			char v[32];
			return ovb_err_at(file, c->line, "application %s, capsule "
				"%s: %s=%s bounds %s, which the capsule does not "
				"use (%s%s%s); a lower bound guarantees only what "
				"the capsule uses", app->name, c->name, lb_key[r],
				ovb_fmt_real(v, c->lb[r]), res, c->profile ?
				"its profile " : "no plain reservation of it",
				c->profile ? c->profile : "", !c->profile ? "" :
				unm ? " did not measure it: read as 0" :
				" has no block of it");
		}
	}
	return 0;
}

int
ovb_apps_measured(const struct ovb_apps *apps, const char *file,
	const struct ovb_profiles *p, const struct ovb_cluster *cl)
{
	struct ovb_profidx idx;
	ovb_profidx_init(&idx, p);
	bool any_unm = false;   /* else only capsules with a lower bound */
	for (size_t i = 0; i < p->n && !any_unm; i++)
		any_unm = p->q[i].U.unmeasured;
	int st = 0;
	for (size_t a = 0; a < apps->n && !st; a++)
		for (size_t k = 0; k < apps->app[a].ncap && !st; k++) {
			const struct ovb_capsule *c = &apps->app[a].cap[k];
			const struct ovb_qos *q[OVB_NCAP] = { NULL };
			bool lb = false;
			for (int r = 0; r < OVB_NCAP; r++)
				lb = lb || c->lb[r] > 0;
			if (!any_unm && !lb)
				continue;
			for (int r = 0; r < OVB_NCAP && c->profile; r++)
				q[r] = ovb_profidx_find(&idx, c->profile,
					(enum ovb_res)r);
			st = ovb_capsule_measured(&apps->app[a], c, q, cl, file,
				true);
		}
	ovb_profidx_free(&idx);
	return st;
}

bool
ovb_read_as_zero(const struct ovb_qos *const q[OVB_NCAP])
{
	for (int r = 0; r < OVB_NCAP; r++)
		if (q[r] && q[r]->U.unmeasured)
			return true;
	return false;
}

int
ovb_nothing_measured(const struct ovb_app *app, const struct ovb_capsule *c,
	const char *file)
{
	return ovb_err_at(file, c->line, "application %s, capsule %s: "
		"profile=%s: nothing to place, every resource of it the cluster "
		"places was not measured and is read as 0 (--unmeasured=zero)",
		app->name, c->name, c->profile);
}
