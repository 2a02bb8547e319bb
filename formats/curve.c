/* curve.c: token-bucket curves (format ovb-curve, spec: curve.md).
 *
 *	curve CAPSULE RES / mean M UNIT / peak P UNIT / point SIGMA RHO...
 *
 * rho(sigma) is the least burst such that the capsule's usage over any
 * interval of length t is at most sigma t + rho.  It is convex, piecewise
 * linear and non-increasing; the points are its breakpoints over
 * [mean, peak].  Invariants of a read block: 0 <= mean <= peak, at least
 * one point, the first at sigma = mean and the last at sigma = peak. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

enum { SEEN_MEAN = 1, SEEN_PEAK = 2 };

int
ovb_curve_point(const struct ovb_lex *lx, struct ovb_pt **pt, size_t *n,
	size_t *cap)
{
	struct ovb_pt p;
	char syntax[32];
	snprintf(syntax, sizeof syntax, "%s SIGMA RHO", lx->tok[0]);
	int st = ovb_arity(lx, 3, 3, syntax);
	if (st || (st = ovb_tok_nonneg(lx, 1, "sigma (rate)", &p.sigma)) ||
	    (st = ovb_tok_nonneg(lx, 2, "rho (burst)", &p.rho)))
		return st;
	if (*n) {
		const struct ovb_pt *q = &(*pt)[*n - 1];
		if (p.sigma <= q->sigma)
			return ovb_err(lx, "%s: sigma %s is not greater than the "
				"previous point's", lx->tok[0], lx->tok[1]);
		if (p.rho > q->rho)
			return ovb_err(lx, "%s: rho %s increases; rho(sigma) is "
				"non-increasing", lx->tok[0], lx->tok[2]);
		if (*n >= 2) {
			const struct ovb_pt *o = q - 1;
			double s1 = (q->rho - o->rho) / (q->sigma - o->sigma);
			double s2 = (p.rho - q->rho) / (p.sigma - q->sigma);
			if (s2 < s1 - 1e-9 * (fabs(s1) + fabs(s2)))
				return ovb_err(lx, "%s: the point (%s, %s) makes "
					"rho(sigma) non-convex", lx->tok[0],
					lx->tok[1], lx->tok[2]);
		}
	}
	*OVB_PUSH(*pt, *n, *cap) = p;
	return 0;
}

double
ovb_curve_at(const struct ovb_pt *c, size_t n, double s)
{
	if (s <= c[0].sigma)
		return c[0].rho;
	if (s >= c[n - 1].sigma)
		return c[n - 1].rho;
	size_t i = 1;
	while (c[i].sigma < s)
		i++;
	double f = (s - c[i - 1].sigma) / (c[i].sigma - c[i - 1].sigma);
	return c[i - 1].rho + f * (c[i].rho - c[i - 1].rho);
}

static bool
close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static int
block_end(struct ovb_lex *lx, const struct ovb_curve *c, unsigned seen,
	unsigned long line)
{
	const char *cap = c->capsule, *res = ovb_res_name(c->res);
	if (!(seen & SEEN_MEAN) || !(seen & SEEN_PEAK))
		return ovb_err_at(lx->name, line, "curve %s %s: missing '%s' "
			"record", cap, res, seen & SEEN_MEAN ? "peak" : "mean");
	if (c->n == 0)
		return ovb_err_at(lx->name, line, "curve %s %s: no points", cap,
			res);
	if (c->peak < c->mean)
		return ovb_err_at(lx->name, line, "curve %s %s: peak %g is below "
			"mean %g", cap, res, c->peak, c->mean);
	if (!close_to(c->pt[0].sigma, c->mean) ||
	    !close_to(c->pt[c->n - 1].sigma, c->peak))
		return ovb_err_at(lx->name, line, "curve %s %s: points must run "
			"from sigma = mean (%g) to sigma = peak (%g)", cap, res,
			c->mean, c->peak);
	return 0;
}

int
ovb_curve_read(struct ovb_lex *lx, struct ovb_curves *cs)
{
	memset(cs, 0, sizeof *cs);
	struct ovb_names seen = { 0 };
	char **keys = NULL;
	size_t nkeys = 0;
	struct ovb_curve *c = NULL;
	unsigned got = 0;
	unsigned long line = 0;
	int st = ovb_magic(lx, "curve");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0];
		st = 0;
		if (!strcmp(kw, "curve")) {
			if (c && (st = block_end(lx, c, got, line)))
				break;
			struct ovb_dist d;
			memset(&d, 0, sizeof d);
			if ((st = ovb_block_open(lx, &seen, &keys, &nkeys, &d))) {
				free(d.capsule);
				break;
			}
			c = OVB_PUSH(cs->c, cs->n, cs->cap);
			memset(c, 0, sizeof *c);
			c->capsule = d.capsule;
			c->res = d.res;
			got = 0;
			line = lx->line;
		} else if (!c)
			st = ovb_err(lx, "'%s' before any 'curve CAPSULE RES' "
				"record", kw);
		else if (!strcmp(kw, "point"))
			st = ovb_curve_point(lx, &c->pt, &c->n, &c->cap);
		else if (!strcmp(kw, "mean") || !strcmp(kw, "peak")) {
			unsigned bit = kw[0] == 'm' ? SEEN_MEAN : SEEN_PEAK;
			if (got & bit)
				st = ovb_err(lx, "%s is given twice in this curve", kw);
			else
				st = ovb_quantity(lx, OVB_NONNEG, kw, bit == SEEN_MEAN ?
					&c->mean : &c->peak, ovb_res_rate_unit(c->res));
			got |= bit;
		} else if (!strcmp(kw, "trace"))
			st = ovb_trace_read(lx, &c->trace);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-curve file",
				kw);
	}
	if (!st && c)
		st = block_end(lx, c, got, line);
	else if (!st)
		st = ovb_err(lx, "no curves");
	ovb_block_keys_free(&seen, keys, nkeys);
	return st;
}

int
ovb_curve_write(FILE *f, const struct ovb_curves *cs)
{
	ovb_put_magic(f, "curve");
	fputs("# curve CAPSULE RES; mean RATE UNIT; peak RATE UNIT;\n"
	      "# point SIGMA RHO: breakpoints of the least burst rho(sigma) "
	      "[cpu-s|B] at rate sigma [cpu|B/s]\n", f);
	for (size_t i = 0; i < cs->n; i++) {
		const struct ovb_curve *c = &cs->c[i];
		const char *unit = ovb_res_rate_unit(c->res);
		fprintf(f, "curve %s %s\nmean", c->capsule, ovb_res_name(c->res));
		ovb_put_real(f, c->mean);
		fprintf(f, " %s\npeak", unit);
		ovb_put_real(f, c->peak);
		fprintf(f, " %s\n", unit);
		ovb_trace_put(f, &c->trace);
		for (size_t j = 0; j < c->n; j++) {
			fputs("point", f);
			ovb_put_real(f, c->pt[j].sigma);
			ovb_put_real(f, c->pt[j].rho);
			fputc('\n', f);
		}
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_curve_free(struct ovb_curves *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->c[i].capsule);
		free(cs->c[i].pt);
		ovb_trace_free(&cs->c[i].trace);
	}
	free(cs->c);
	memset(cs, 0, sizeof *cs);
}
