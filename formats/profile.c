/* profile.c: QoS requirements (sigma, rho, tau, U, O) per capsule and
 * resource (format ovb-profile, spec: profile.md).
 *
 *	profile CAPSULE RES / sigma S RATE / rho R AMOUNT / tau T s / O P /
 *	U as in ovb-usage / [curve SIGMA RHO...]
 *	profile CAPSULE mem / request R B / limit L B / O P / U (window peaks)
 *
 * Invariants of a read block: sigma, rho >= 0, tau > 0, 0 <= O < 1; U is a
 * valid distribution; curve points have increasing sigma and non-increasing,
 * convex rho, and (sigma, rho) lies on or above the curve.  A mem block
 * (a level) has a request (read into sigma) and a limit >= it instead of
 * a token bucket; its rho is 0 and its tau U's interval (the window). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

enum { SEEN_SIGMA = 1, SEEN_RHO = 2, SEEN_TAU = 4, SEEN_O = 8,
	SEEN_REQUEST = 16, SEEN_LIMIT = 32 };
static const char *const required[] = { "sigma", "rho", "tau", "O",
	"request", "limit" };

struct block {
	struct ovb_qos *q;
	struct ovb_dist_reader u;
	unsigned seen;
};

static int
once(struct block *b, struct ovb_lex *lx, unsigned bit)
{
	if (b->seen & bit)
		return ovb_err(lx, "%s is given twice in this profile "
			"(opened at line %lu)", lx->tok[0], b->u.line);
	b->seen |= bit;
	return 0;
}

/* A once-only quantity record of the block: "KEYWORD VALUE [UNIT]". */
static int
scalar(struct block *b, struct ovb_lex *lx, unsigned bit, enum ovb_range range,
	const char *what, double *v, const char *unit)
{
	int st = once(b, lx, bit);
	return st ? st : ovb_quantity(lx, range, what, v, unit);
}

static int
qos_record(struct block *b, struct ovb_lex *lx)
{
	struct ovb_qos *q = b->q;
	const char *kw = lx->tok[0];
	enum ovb_res r = q->U.res;
	int st = 0;
	bool mem = r == OVB_MEM;
	static const char *const rate_kw[] = { "sigma", "rho", "tau", "curve" };
	for (int i = 0; i < 4; i++)
		if (mem && strcmp(kw, rate_kw[i]) == 0)
			return ovb_err(lx, "%s: a mem profile is a level with a "
				"request and a limit, not a token bucket", kw);
	if (!mem && (strcmp(kw, "request") == 0 || strcmp(kw, "limit") == 0))
		return ovb_err(lx, "%s: only a mem profile has one (a %s "
			"profile has sigma and rho)", kw, ovb_res_name(r));
	if (strcmp(kw, "request") == 0)
		st = scalar(b, lx, SEEN_REQUEST, OVB_NONNEG,
			"request (level)", &q->sigma, "B");
	else if (strcmp(kw, "limit") == 0)
		st = scalar(b, lx, SEEN_LIMIT, OVB_NONNEG,
			"limit (level)", &q->limit, "B");
	else if (strcmp(kw, "sigma") == 0)
		st = scalar(b, lx, SEEN_SIGMA, OVB_NONNEG,
			"sigma (rate)", &q->sigma, ovb_res_rate_unit(r));
	else if (strcmp(kw, "rho") == 0)
		st = scalar(b, lx, SEEN_RHO, OVB_NONNEG,
			"rho (burst)", &q->rho, ovb_res_amount_unit(r));
	else if (strcmp(kw, "tau") == 0)
		st = scalar(b, lx, SEEN_TAU, OVB_POS,
			"tau (period)", &q->tau, "s");
	else if (strcmp(kw, "O") == 0) {
		st = scalar(b, lx, SEEN_O, OVB_PROB,
			"O (tolerance)", &q->O, NULL);
		if (!st && q->O >= 1)
			st = ovb_err(lx, "O: tolerance %s must be below 1",
				lx->tok[1]);
	} else if (strcmp(kw, "curve") == 0)
		st = ovb_curve_point(lx, &q->curve, &q->ncurve, &q->capcurve);
	else if ((st = ovb_dist_record(&b->u, lx)) == 0)
		return ovb_err(lx, "unknown record '%s' in an ovb-profile file",
			kw);
	else if (st == 1)
		st = 0;
	return st;
}

static int
block_end(struct block *b, struct ovb_lex *lx)
{
	struct ovb_qos *q = b->q;
	const char *cap = q->U.capsule, *res = ovb_res_name(q->U.res);
	if (q->U.unmeasured) {  /* no requirement: nothing was measured */
		if (b->seen || q->ncurve)
			return ovb_err_at(lx->name, b->u.line, "profile %s %s: "
				"'unmeasured' says the trace did not measure it, "
				"but the block has %s", cap, res, q->ncurve ?
				"curve records" : "a requirement (sigma, rho, tau, "
				"O, request or limit)");
		q->sigma = q->rho = q->limit = q->O = 0;
		q->tau = 1;
		return ovb_dist_end(&b->u, lx);
	}
	unsigned want = q->U.res == OVB_MEM ?
		SEEN_REQUEST | SEEN_LIMIT | SEEN_O :
		SEEN_SIGMA | SEEN_RHO | SEEN_TAU | SEEN_O;
	for (int i = 0; i < 6; i++)
		if ((want & (1u << i)) && !(b->seen & (1u << i)))
			return ovb_err_at(lx->name, b->u.line, "profile %s %s: "
				"missing '%s' record", cap, res, required[i]);
	int st = ovb_dist_end(&b->u, lx);
	if (!st && q->U.res == OVB_MEM) {
		q->rho = 0;
		q->tau = q->U.interval;
		char l[32], r[32];
		if (q->limit < q->sigma)
			return ovb_err_at(lx->name, b->u.line, "profile %s mem: "
				"limit %s B is below the request %s B", cap,
				ovb_fmt_real(l, q->limit), ovb_fmt_real(r, q->sigma));
	}
	if (st || !q->ncurve)
		return st;
	if (q->sigma < q->curve[0].sigma)
		return ovb_err_at(lx->name, b->u.line, "profile %s %s: sigma %g "
			"is below the curve's first rate %g", cap, res, q->sigma,
			q->curve[0].sigma);
	double need = ovb_curve_at(q->curve, q->ncurve, q->sigma);
	if (q->rho < need - 1e-9 * fmax(need, 1e-300))
		return ovb_err_at(lx->name, b->u.line, "profile %s %s: "
			"(sigma %g, rho %g) lies below the curve, which needs "
			"rho >= %g at that rate", cap, res, q->sigma, q->rho, need);
	return 0;
}

int
ovb_profile_read(struct ovb_lex *lx, struct ovb_profiles *p)
{
	memset(p, 0, sizeof *p);
	struct ovb_names seen = { 0 };
	char **keys = NULL;
	size_t nkeys = 0;
	struct block b = { 0 };
	int st = ovb_magic(lx, "profile");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		st = 0;
		if (strcmp(lx->tok[0], "profile") == 0) {
			if (b.q && (st = block_end(&b, lx)))
				break;
			struct ovb_qos *q = OVB_PUSH(p->q, p->n, p->cap);
			memset(q, 0, sizeof *q);
			memset(&b, 0, sizeof b);
			if ((st = ovb_block_open(lx, &seen, &keys, &nkeys, &q->U))) {
				p->n--;
				ovb_dist_free(&q->U);
				break;
			}
			b.q = q;
			q->line = lx->line;
			ovb_dist_begin(&b.u, &q->U, lx->line);
		} else if (!b.q)
			st = ovb_err(lx, "'%s' before any 'profile CAPSULE RES' "
				"record", lx->tok[0]);
		else
			st = qos_record(&b, lx);
	}
	if (!st && b.q)
		st = block_end(&b, lx);
	else if (!st)
		st = ovb_err(lx, "no profiles");
	free(b.u.binseen);
	ovb_block_keys_free(&seen, keys, nkeys);
	return st;
}

int
ovb_profile_write(FILE *f, const struct ovb_profiles *p)
{
	ovb_put_magic(f, "profile");
	fputs("# profile CAPSULE RES; sigma RATE UNIT (rate); rho BURST UNIT "
	      "(burst);\n# tau PERIOD s; O TOLERANCE; U as in ovb-usage; "
	      "curve SIGMA RHO\n", f);
	for (size_t i = 0; i < p->n; i++)
		if (p->q[i].U.res == OVB_MEM) {
			fputs("# mem: request LEVEL B; limit LEVEL B; U of the "
			      "window peaks\n", f);
			break;
		}
	for (size_t i = 0; i < p->n; i++) {
		const struct ovb_qos *q = &p->q[i];
		enum ovb_res r = q->U.res;
		if (q->U.unmeasured) {
			fprintf(f, "profile %s %s\n", q->U.capsule,
				ovb_res_name(r));
			ovb_dist_put(f, &q->U);
			continue;
		}
		if (r == OVB_MEM) {
			fprintf(f, "profile %s mem\nrequest", q->U.capsule);
			ovb_put_real(f, q->sigma);
			fputs(" B\nlimit", f);
			ovb_put_real(f, q->limit);
			fputs(" B\nO", f);
			ovb_put_real(f, q->O);
			fputc('\n', f);
			ovb_dist_put(f, &q->U);
			continue;
		}
		fprintf(f, "profile %s %s\nsigma", q->U.capsule, ovb_res_name(r));
		ovb_put_real(f, q->sigma);
		fprintf(f, " %s\nrho", ovb_res_rate_unit(r));
		ovb_put_real(f, q->rho);
		fprintf(f, " %s\ntau", ovb_res_amount_unit(r));
		ovb_put_real(f, q->tau);
		fputs(" s\nO", f);
		ovb_put_real(f, q->O);
		fputc('\n', f);
		ovb_dist_put(f, &q->U);
		for (size_t j = 0; j < q->ncurve; j++) {
			fputs("curve", f);
			ovb_put_real(f, q->curve[j].sigma);
			ovb_put_real(f, q->curve[j].rho);
			fputc('\n', f);
		}
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_profile_free(struct ovb_profiles *p)
{
	for (size_t i = 0; i < p->n; i++) {
		ovb_dist_free(&p->q[i].U);
		free(p->q[i].curve);
		free(p->q[i].file);
	}
	free(p->q);
	memset(p, 0, sizeof *p);
}

int
ovb_profile_merge(struct ovb_profiles *all, struct ovb_profiles *p,
	const char *file)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct ovb_qos *q = &p->q[i], *old = ovb_profile_find(all,
			q->U.capsule, q->U.res);
		const struct ovb_qos *dup = old;   /* one file has no two */
		if (dup) {
			int st = ovb_err_at(file, q->line, "profile %s %s is "
				"defined twice: also at %s:%lu (a capsule and "
				"resource may have one profile)", q->U.capsule,
				ovb_res_name(q->U.res), dup->file ? dup->file : file,
				dup->line);
			ovb_profile_free(p);
			return st;
		}
	}
	for (size_t i = 0; i < p->n; i++) {
		struct ovb_qos *q = OVB_PUSH(all->q, all->n, all->cap);
		*q = p->q[i];
		q->file = ovb_xstrdup(file);
	}
	free(p->q);
	memset(p, 0, sizeof *p);
	return 0;
}

const struct ovb_qos *
ovb_profile_find(const struct ovb_profiles *p, const char *capsule,
	enum ovb_res res)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->q[i].U.res == res && strcmp(p->q[i].U.capsule, capsule) == 0)
			return &p->q[i];
	return NULL;
}

const struct ovb_qos *
ovb_profiles_forecast(const struct ovb_profiles *p)
{
	const struct ovb_qos *first = NULL;
	for (size_t i = 0; i < p->n; i++) {
		const struct ovb_qos *q = &p->q[i];
		if (q->U.res == OVB_MEM)
			continue;
		if (!q->U.forecast)
			return NULL;
		if (!first || q->U.forecast < first->U.forecast)
			first = q;
	}
	return first;
}
