/* apps.c: arriving applications (format ovb-apps, spec: apps.md), and the
 * Sharc resource specification language read into the same structure.
 *
 *	app NAME [O=P] [tau=T] [aggregate=V] [trade=yes|no] [op=...]
 *	    [spread=KEY]
 *	capsule NAME (profile=P | [cpu=V] [net=V] [net-rx=V] [mem=B]
 *	        [mem-limit=B]) [node=N] [lb-cpu=V] [lb-net=V] [O=P] [tau=T]
 *	        [epsilon=E]
 *	trust APP V
 *
 * Invariants of a read stream: application names unique, capsule names
 * unique within their application, every application but a terminated
 * one has a capsule, each capsule has a profile or a positive plain
 * reservation that covers its lower bounds (a plain memory limit at least
 * its request), tolerances in [0,1), periods
 * and aggregates > 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

struct reader {
	struct ovb_apps *a;
	struct ovb_names byname;
	/* Sharc RSL state of the current application */
	uint64_t rsl_ncap;
	bool rsl_seen_ncap, rsl_seen_aggr, rsl_seen_trade;
	int rsl_star;             /* capsules with Resv '*' */
};

static struct ovb_app *
cur(struct reader *r)
{
	return r->a->n ? &r->a->app[r->a->n - 1] : NULL;
}

static int
new_app(struct reader *r, struct ovb_lex *lx, const char *name)
{
	if (!ovb_valid_name(name))
		return ovb_err(lx, "application name '%s' is not a valid name",
			name);
	size_t first = ovb_names_get(&r->byname, name);
	if (first != OVB_NONE)
		return ovb_err(lx, "application '%s' is defined twice (first at "
			"line %lu)", name, r->a->app[first].line);
	struct ovb_app *app = OVB_PUSH(r->a->app, r->a->n, r->a->cap);
	memset(app, 0, sizeof *app);
	app->name = ovb_xstrdup(name);
	app->O = app->tau = app->aggregate = NAN;
	app->line = lx->line;
	ovb_names_add(&r->byname, app->name, r->a->n - 1);
	return 0;
}

static struct ovb_capsule *
new_capsule(struct ovb_app *app, const char *name, unsigned long line)
{
	struct ovb_capsule *c = OVB_PUSH(app->cap, app->ncap, app->capcap);
	memset(c, 0, sizeof *c);
	c->name = ovb_xstrdup(name);
	c->O = c->tau = c->epsilon = NAN;
	c->line = line;
	return c;
}

/* A key=value option's number, checked for range; NAN-valued fields are
 * "not given", so a repeated key is caught by the caller. */
static int
kv_real(struct ovb_lex *lx, const char *key, const char *val,
	enum ovb_range range, double *v)
{
	double x;
	if (!ovb_parse_real(val, &x))
		return ovb_err(lx, "%s=%s: not a finite decimal number", key, val);
	if ((range == OVB_NONNEG || range == OVB_PROB) && x < 0)
		return ovb_err(lx, "%s=%s: negative", key, val);
	if (range == OVB_POS && x <= 0)
		return ovb_err(lx, "%s=%s: must be greater than 0", key, val);
	if (range == OVB_PROB && x >= 1)
		return ovb_err(lx, "%s=%s: a tolerance must be in [0,1)", key, val);
	*v = x;
	return 0;
}

static int
app_record(struct reader *r, struct ovb_lex *lx)
{
	int st = ovb_arity(lx, 2, -1, "app NAME [O=P] [tau=T] [aggregate=V] "
		"[trade=yes|no] [op=new|modify|terminate] [spread=KEY]");
	if (st || (st = new_app(r, lx, lx->tok[1])))
		return st;
	struct ovb_app *app = cur(r);
	unsigned seen = 0;
	for (int i = 2; i < lx->ntok && !st; i++) {
		char *key, *val;
		static const char *const keys[] = { "O", "tau", "aggregate",
			"trade", "op", "spread" };
		unsigned k = 0;
		if (!ovb_kv(lx->tok[i], &key, &val))
			return ovb_err(lx, "app: '%s' is not KEY=VALUE", lx->tok[i]);
		while (k < 6 && strcmp(key, keys[k]))
			k++;
		if (k == 6)
			return ovb_err(lx, "app: unknown key '%s' (O, tau, "
				"aggregate, trade, op, spread)", key);
		if (seen & (1u << k))
			return ovb_err(lx, "app: %s= is given twice", key);
		seen |= 1u << k;
		if (k == 0)
			st = kv_real(lx, key, val, OVB_PROB, &app->O);
		else if (k == 1)
			st = kv_real(lx, key, val, OVB_POS, &app->tau);
		else if (k == 2)
			st = kv_real(lx, key, val, OVB_POS, &app->aggregate);
		else if (k == 3 && (!strcmp(val, "yes") || !strcmp(val, "no")))
			app->trade = val[0] == 'y';
		else if (k == 4 && !strcmp(val, "new"))
			app->op = OVB_OP_NEW;
		else if (k == 4 && !strcmp(val, "modify"))
			app->op = OVB_OP_MODIFY;
		else if (k == 4 && !strcmp(val, "terminate"))
			app->op = OVB_OP_TERMINATE;
		else if (k == 5) {
			if (!ovb_valid_name(val))
				return ovb_err(lx, "app: spread=%s: not a label key",
					val);
			app->spread = ovb_xstrdup(val);
		} else
			st = ovb_err(lx, "app: %s=%s: expected %s", key, val,
				k == 3 ? "yes or no" : "new, modify or terminate");
	}
	return st;
}

static const char *const capkeys[] = { "profile", "cpu", "net", "node",
	"lb-cpu", "lb-net", "O", "tau", "epsilon", "net-rx", "lb-net-rx", "mem",
	"mem-limit" };
enum { K_PROFILE, K_CPU, K_NET, K_NODE, K_LBCPU, K_LBNET, K_O, K_TAU, K_EPS,
	K_NETRX, K_LBNETRX, K_MEM, K_MEMLIM, K_N };

static int
capsule_option(struct ovb_lex *lx, struct ovb_capsule *c, int k,
	const char *key, const char *val)
{
	switch (k) {
	case K_PROFILE:
	case K_NODE:
		if (!ovb_valid_name(val))
			return ovb_err(lx, "capsule: %s=%s is not a valid name",
				key, val);
		*(k == K_PROFILE ? &c->profile : &c->node) = ovb_xstrdup(val);
		return 0;
	case K_CPU: return kv_real(lx, key, val, OVB_NONNEG, &c->resv[OVB_CPU]);
	case K_NET: return kv_real(lx, key, val, OVB_NONNEG, &c->resv[OVB_NET]);
	case K_LBCPU: return kv_real(lx, key, val, OVB_NONNEG, &c->lb[OVB_CPU]);
	case K_LBNET: return kv_real(lx, key, val, OVB_NONNEG, &c->lb[OVB_NET]);
	case K_NETRX:
		return kv_real(lx, key, val, OVB_NONNEG, &c->resv[OVB_NETRX]);
	case K_LBNETRX:
		return kv_real(lx, key, val, OVB_NONNEG, &c->lb[OVB_NETRX]);
	case K_MEM: return kv_real(lx, key, val, OVB_NONNEG, &c->resv[OVB_MEM]);
	case K_MEMLIM: return kv_real(lx, key, val, OVB_NONNEG, &c->limit);
	case K_O: return kv_real(lx, key, val, OVB_PROB, &c->O);
	case K_TAU: return kv_real(lx, key, val, OVB_POS, &c->tau);
	default: return kv_real(lx, key, val, OVB_NONNEG, &c->epsilon);
	}
}

static int
check_capsule(struct ovb_lex *lx, const struct ovb_capsule *c, unsigned seen)
{
	bool plain = seen & (1u << K_CPU | 1u << K_NET | 1u << K_NETRX |
		1u << K_MEM | 1u << K_MEMLIM);
	if (c->profile && plain)
		return ovb_err(lx, "capsule %s: profile= and a plain reservation "
			"(cpu=, net=, net-rx=, mem=, mem-limit=) exclude each other",
			c->name);
	if (!c->profile && !(c->resv[OVB_CPU] > 0 || c->resv[OVB_NET] > 0 ||
	    c->resv[OVB_NETRX] > 0 || c->resv[OVB_MEM] > 0 || c->limit > 0))
		return ovb_err(lx, "capsule %s: needs profile=NAME or a positive "
			"cpu=, net=, net-rx=, mem= or mem-limit= reservation",
			c->name);
	if ((seen & 1u << K_MEMLIM) && c->limit < c->resv[OVB_MEM])
		return ovb_err(lx, "capsule %s: mem-limit=%g is below its "
			"mem=%g", c->name, c->limit, c->resv[OVB_MEM]);
	for (int i = 0; i < OVB_NCAP && !c->profile; i++)
		if (c->lb[i] > c->resv[i])
			return ovb_err(lx, "capsule %s: lower bound lb-%s=%g is above "
				"its reservation %g", c->name, ovb_res_name(i),
				c->lb[i], c->resv[i]);
	return 0;
}

static int
capsule_record(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_app *app = cur(r);
	int st = ovb_arity(lx, 2, -1, "capsule NAME (profile=P | cpu=V net=V "
		"net-rx=V mem=B mem-limit=B) [node=N] [lb-cpu=V] [lb-net=V] "
		"[lb-net-rx=V] [O=P] [tau=T] [epsilon=E]");
	if (st || (st = ovb_tok_name(lx, 1, "capsule name")))
		return st;
	if (!app)
		return ovb_err(lx, "capsule before any 'app NAME' record");
	for (size_t i = 0; i < app->ncap; i++)
		if (!strcmp(app->cap[i].name, lx->tok[1]))
			return ovb_err(lx, "capsule '%s' of application '%s' is "
				"defined twice", lx->tok[1], app->name);
	struct ovb_capsule *c = new_capsule(app, lx->tok[1], lx->line);
	unsigned seen = 0;
	for (int i = 2; i < lx->ntok; i++) {
		char *key, *val;
		int k = 0;
		if (!ovb_kv(lx->tok[i], &key, &val))
			return ovb_err(lx, "capsule: '%s' is not KEY=VALUE",
				lx->tok[i]);
		while (k < K_N && strcmp(key, capkeys[k]))
			k++;
		if (k == K_N)
			return ovb_err(lx, "capsule: unknown key '%s'", key);
		if (seen & (1u << k))
			return ovb_err(lx, "capsule: %s= is given twice", key);
		seen |= 1u << k;
		if ((st = capsule_option(lx, c, k, key, val)))
			return st;
	}
	return check_capsule(lx, c, seen);
}

static int
trust_record(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_app *app = cur(r);
	double v;
	int st = ovb_arity(lx, 3, 3, "trust APP V");
	if (st || (st = ovb_tok_name(lx, 1, "application name")) ||
	    (st = ovb_tok_prob(lx, 2, "trust", &v)))
		return st;
	if (!app)
		return ovb_err(lx, "trust before any 'app NAME' record");
	if (!strcmp(lx->tok[1], app->name))
		return ovb_err(lx, "trust: an application's trust of itself is "
			"not a setting");
	for (size_t i = 0; i < app->ntrust; i++)
		if (!strcmp(app->trust[i].app, lx->tok[1]))
			return ovb_err(lx, "trust of '%s' is given twice",
				lx->tok[1]);
	struct ovb_trust *t = OVB_PUSH(app->trust, app->ntrust, app->captrust);
	t->app = ovb_xstrdup(lx->tok[1]);
	t->v = v;
	return 0;
}

static int
app_end(struct ovb_lex *lx, const struct ovb_app *app)
{
	if (app && app->ncap == 0 && app->op != OVB_OP_TERMINATE)
		return ovb_err_at(lx->name, app->line, "application '%s' has no "
			"capsules", app->name);
	return 0;
}

/* ---- Sharc RSL (Fig. 2 of the Sharc paper) ---- */

static int
rsl_value(struct ovb_lex *lx, int i, const char *what, double *v, bool star)
{
	if (star && !strcmp(lx->tok[i], "*")) {
		*v = NAN;
		return 0;
	}
	return ovb_tok_nonneg(lx, i, what, v);
}

static int
rsl_app_end(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_app *app = cur(r);
	if (!app)
		return 0;
	static const char *const need[] = { "AggregateResv", "TradeResources",
		"Capsules" };
	bool seen[] = { r->rsl_seen_aggr, r->rsl_seen_trade, r->rsl_seen_ncap };
	for (int i = 0; i < 3 && app->op != OVB_OP_TERMINATE; i++)
		if (!seen[i])
			return ovb_err_at(lx->name, app->line, "application %s: "
				"missing '%s' record", app->name, need[i]);
	if (app->ncap == 0 && app->op != OVB_OP_TERMINATE)
		return ovb_err_at(lx->name, app->line, "application %s has no "
			"capsules", app->name);
	if (app->ncap != r->rsl_ncap)
		return ovb_err_at(lx->name, app->line, "application %s: Capsules "
			"says %llu, but %zu Capsule records follow", app->name,
			(unsigned long long)r->rsl_ncap, app->ncap);
	double sum = 0;
	for (size_t i = 0; i < app->ncap; i++)
		if (!isnan(app->cap[i].resv[OVB_CPU]))
			sum += app->cap[i].resv[OVB_CPU];
	if (!isnan(app->aggregate)) {
		double rest = app->aggregate - sum;
		double tol = 1e-9 * app->aggregate;
		if (r->rsl_star ? rest <= tol : fabs(rest) > tol)
			return ovb_err_at(lx->name, app->line, "application %s: "
				"capsule reservations add up to %g, AggregateResv "
				"is %g", app->name, sum, app->aggregate);
		for (size_t i = 0; i < app->ncap; i++)
			if (isnan(app->cap[i].resv[OVB_CPU]))
				app->cap[i].resv[OVB_CPU] = rest / r->rsl_star;
	}
	for (size_t i = 0; i < app->ncap; i++)
		if (app->cap[i].lb[OVB_CPU] > app->cap[i].resv[OVB_CPU])
			return ovb_err_at(lx->name, app->line, "application %s: "
				"capsule %zu: LB %g is above its reservation %g",
				app->name, i + 1, app->cap[i].lb[OVB_CPU],
				app->cap[i].resv[OVB_CPU]);
	return 0;
}

static int
rsl_application(struct reader *r, struct ovb_lex *lx)
{
	int st = rsl_app_end(r, lx);
	if (st || (st = ovb_arity(lx, 3, 3, "Application ID New|Modify|Terminate")))
		return st;
	static const char *const ops[] = { "New", "Modify", "Terminate" };
	int op = 0;
	while (op < 3 && strcmp(lx->tok[2], ops[op]))
		op++;
	if (op == 3)
		return ovb_err(lx, "Application: '%s' is not New, Modify or "
			"Terminate", lx->tok[2]);
	if ((st = new_app(r, lx, lx->tok[1])))
		return st;
	cur(r)->op = (enum ovb_op)op;
	r->rsl_ncap = 0;
	r->rsl_seen_ncap = r->rsl_seen_aggr = r->rsl_seen_trade = false;
	r->rsl_star = 0;
	return 0;
}

static int
rsl_capsule(struct reader *r, struct ovb_lex *lx, struct ovb_app *app)
{
	uint64_t i;
	double resv, lb, eps;
	int st = ovb_arity(lx, 10, 10, "Capsule I Resv R|* Node ID|* LB L|* "
		"Epsilon E|*");
	if (st || (st = ovb_tok_u64(lx, 1, "capsule number", &i)))
		return st;
	static const char *const kw[] = { "Resv", "Node", "LB", "Epsilon" };
	for (int k = 0; k < 4; k++)
		if (strcmp(lx->tok[2 + 2 * k], kw[k]))
			return ovb_err(lx, "Capsule: expected '%s', found '%s'",
				kw[k], lx->tok[2 + 2 * k]);
	if (!r->rsl_seen_ncap)
		return ovb_err(lx, "Capsule before 'Capsules N'");
	if (i != app->ncap + 1 || i > r->rsl_ncap)
		return ovb_err(lx, "Capsule %s: expected capsule %zu of %llu",
			lx->tok[1], app->ncap + 1, (unsigned long long)r->rsl_ncap);
	if ((st = rsl_value(lx, 3, "Resv", &resv, true)) ||
	    (st = rsl_value(lx, 7, "LB", &lb, true)) ||
	    (st = rsl_value(lx, 9, "Epsilon", &eps, true)))
		return st;
	if (!isnan(resv) && (resv <= 0 || resv > 1))
		return ovb_err(lx, "Capsule %s: Resv %s is not in (0,1]",
			lx->tok[1], lx->tok[3]);
	if (isnan(resv) && isnan(app->aggregate))
		return ovb_err(lx, "Capsule %s: Resv is '*' but the application "
			"has no AggregateResv", lx->tok[1]);
	const char *node = lx->tok[5];
	if (strcmp(node, "*") && !ovb_valid_name(node))
		return ovb_err(lx, "Capsule %s: Node '%s' is not a valid name",
			lx->tok[1], node);
	char name[32];
	snprintf(name, sizeof name, "c%llu", (unsigned long long)i);
	struct ovb_capsule *c = new_capsule(app, name, lx->line);
	c->resv[OVB_CPU] = resv;
	c->lb[OVB_CPU] = isnan(lb) ? 0 : lb;
	c->epsilon = eps;
	c->node = strcmp(node, "*") ? ovb_xstrdup(node) : NULL;
	r->rsl_star += isnan(resv);
	return 0;
}

static int
rsl_record(struct reader *r, struct ovb_lex *lx)
{
	const char *kw = lx->tok[0];
	struct ovb_app *app = cur(r);
	int st;
	if (!strcmp(kw, "Application"))
		return rsl_application(r, lx);
	if (!app)
		return ovb_err(lx, "%s before any Application record", kw);
	if (!strcmp(kw, "Capsule"))
		return rsl_capsule(r, lx, app);
	bool *seen = !strcmp(kw, "AggregateResv") ? &r->rsl_seen_aggr :
		!strcmp(kw, "TradeResources") ? &r->rsl_seen_trade :
		!strcmp(kw, "Capsules") ? &r->rsl_seen_ncap : NULL;
	if (!seen)
		return ovb_err(lx, "unknown Sharc RSL record '%s' (Application, "
			"AggregateResv, TradeResources, Capsules, Capsule)", kw);
	if (*seen)
		return ovb_err(lx, "%s is given twice for application %s", kw,
			app->name);
	if (app->ncap)
		return ovb_err(lx, "%s after the Capsule records", kw);
	*seen = true;
	if ((st = ovb_arity(lx, 2, 2, "KEYWORD VALUE")))
		return st;
	if (seen == &r->rsl_seen_ncap)
		return ovb_tok_u64(lx, 1, "Capsules", &r->rsl_ncap);
	if (seen == &r->rsl_seen_trade) {
		if (strcmp(lx->tok[1], "yes") && strcmp(lx->tok[1], "no"))
			return ovb_err(lx, "TradeResources: expected yes or no");
		app->trade = lx->tok[1][0] == 'y';
		return 0;
	}
	if ((st = rsl_value(lx, 1, "AggregateResv", &app->aggregate, true)))
		return st;
	if (app->aggregate == 0)
		return ovb_err(lx, "AggregateResv: must be greater than 0");
	return 0;
}

int
ovb_apps_read(struct ovb_lex *lx, struct ovb_apps *a)
{
	memset(a, 0, sizeof *a);
	struct reader r = { .a = a };
	int st = ovb_lex_next(lx);
	if (st != 0 && st != 1)
		return st;      /* the first line unreadable: reported */
	bool rsl = st == 1 && !strcmp(lx->tok[0], "Application");
	if (st == 1)
		ovb_lex_unread(lx);
	st = rsl ? 0 : ovb_magic(lx, "apps");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0];
		if (rsl)
			st = rsl_record(&r, lx);
		else if (!strcmp(kw, "app"))
			st = app_end(lx, cur(&r)) ? OVB_EDATA : app_record(&r, lx);
		else if (!strcmp(kw, "capsule"))
			st = capsule_record(&r, lx);
		else if (!strcmp(kw, "trust"))
			st = trust_record(&r, lx);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-apps file",
				kw);
	}
	if (!st)
		st = rsl ? rsl_app_end(&r, lx) : app_end(lx, cur(&r));
	ovb_names_free(&r.byname);
	return st;
}

static void
put_opt(FILE *f, const char *key, double v)
{
	if (isnan(v))
		return;
	fprintf(f, " %s=", key);
	char buf[32];
	fputs(ovb_fmt_real(buf, v), f);
}

int
ovb_apps_write(FILE *f, const struct ovb_apps *a)
{
	static const char *const ops[] = { "new", "modify", "terminate" };
	ovb_put_magic(f, "apps");
	fputs("# app NAME [O=P] [tau=T s] [aggregate=V cpu] [trade=yes|no] "
	      "[op=new|modify|terminate] [spread=KEY]\n# capsule NAME (profile=P | cpu=V[cpu] "
	      "net=V[B/s]) [node=N] [lb-cpu=V] [lb-net=V] [O=P] [tau=T]\n"
	      "#   [epsilon=E]; trust APP V\n", f);
	for (size_t i = 0; i < a->n; i++) {
		const struct ovb_app *app = &a->app[i];
		fprintf(f, "app %s", app->name);
		put_opt(f, "O", app->O);
		put_opt(f, "tau", app->tau);
		put_opt(f, "aggregate", app->aggregate);
		if (app->trade)
			fputs(" trade=yes", f);
		if (app->op != OVB_OP_NEW)
			fprintf(f, " op=%s", ops[app->op]);
		if (app->spread)
			fprintf(f, " spread=%s", app->spread);
		fputc('\n', f);
		for (size_t j = 0; j < app->ncap; j++) {
			const struct ovb_capsule *c = &app->cap[j];
			fprintf(f, "capsule %s", c->name);
			if (c->profile)
				fprintf(f, " profile=%s", c->profile);
			else {
				put_opt(f, "cpu", c->resv[OVB_CPU]);
				put_opt(f, "net", c->resv[OVB_NET]);
				if (c->resv[OVB_NETRX] > 0)
					put_opt(f, "net-rx", c->resv[OVB_NETRX]);
				if (c->resv[OVB_MEM] > 0 ||
				    c->limit > c->resv[OVB_MEM])
					put_opt(f, "mem", c->resv[OVB_MEM]);
				if (c->limit > c->resv[OVB_MEM])
					put_opt(f, "mem-limit", c->limit);
			}
			if (c->node)
				fprintf(f, " node=%s", c->node);
			if (c->lb[OVB_CPU] > 0)
				put_opt(f, "lb-cpu", c->lb[OVB_CPU]);
			if (c->lb[OVB_NET] > 0)
				put_opt(f, "lb-net", c->lb[OVB_NET]);
			if (c->lb[OVB_NETRX] > 0)
				put_opt(f, "lb-net-rx", c->lb[OVB_NETRX]);
			put_opt(f, "O", c->O);
			put_opt(f, "tau", c->tau);
			put_opt(f, "epsilon", c->epsilon);
			fputc('\n', f);
		}
		for (size_t j = 0; j < app->ntrust; j++) {
			fprintf(f, "trust %s", app->trust[j].app);
			ovb_put_real(f, app->trust[j].v);
			fputc('\n', f);
		}
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_apps_free(struct ovb_apps *a)
{
	for (size_t i = 0; i < a->n; i++) {
		struct ovb_app *app = &a->app[i];
		for (size_t j = 0; j < app->ncap; j++) {
			free(app->cap[j].name);
			free(app->cap[j].profile);
			free(app->cap[j].node);
		}
		for (size_t j = 0; j < app->ntrust; j++)
			free(app->trust[j].app);
		free(app->cap);
		free(app->trust);
		free(app->name);
		free(app->spread);
	}
	free(a->app);
	memset(a, 0, sizeof *a);
}
