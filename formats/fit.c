/* fit.c: format ovb-fit, the answers of ovb-fit's what-if questions
 * (spec: fit.md).
 *
 *	fit more APP | fit nodes SHAPE CPU cpu NET B/s
 *	search METHOD
 *	point O COUNT UNIT BOUND
 *	where NODE CAPSULES
 *
 * Invariants after a successful read: one fit record, first; one search
 * record; at least one point, in strictly increasing O; UNIT is copies for
 * `fit more` and nodes for `fit nodes`; BOUND never only with COUNT 0 and
 * only for nodes, at-most only for nodes; where records only in a `fit more` file, after their
 * point, NODE unique within the point, CAPSULES >= 1. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static const char *const bound_name[] = { "exact", "at-least", "at-most",
	"never" };

const char *
ovb_fit_bound_name(enum ovb_fit_bound b)
{
	return bound_name[b];
}

static int
read_fit(struct ovb_lex *lx, struct ovb_fit *fit)
{
	int st;
	if (lx->ntok < 3)
		return ovb_err(lx, "fit: expected 'fit more APP' or 'fit nodes "
			"SHAPE CPU cpu NET B/s'");
	if (!strcmp(lx->tok[1], "more")) {
		if ((st = ovb_arity(lx, 3, 3, "fit more APP")) ||
		    (st = ovb_tok_name(lx, 2, "fit more: APP")))
			return st;
		fit->q = OVB_FIT_MORE;
	} else if (!strcmp(lx->tok[1], "nodes")) {
		if ((st = ovb_arity(lx, 7, 7, "fit nodes SHAPE CPU cpu NET B/s")) ||
		    (st = ovb_tok_name(lx, 2, "fit nodes: SHAPE")) ||
		    (st = ovb_tok_pos(lx, 3, "fit nodes: CPU", &fit->cap[OVB_CPU])) ||
		    (st = ovb_tok_unit(lx, 4, "cpu")) ||
		    (st = ovb_tok_pos(lx, 5, "fit nodes: NET", &fit->cap[OVB_NET])) ||
		    (st = ovb_tok_unit(lx, 6, "B/s")))
			return st;
		fit->q = OVB_FIT_NODES;
	} else
		return ovb_err(lx, "fit: '%s' is not a question (more or nodes)",
			lx->tok[1]);
	fit->name = ovb_xstrdup(lx->tok[2]);
	return 0;
}

static int
read_point(struct ovb_lex *lx, struct ovb_fit *fit)
{
	struct ovb_fitpoint p = { .line = lx->line };
	const char *unit = fit->q == OVB_FIT_MORE ? "copies" : "nodes";
	int st;
	if ((st = ovb_arity(lx, 5, 5, "point O COUNT UNIT BOUND")) ||
	    (st = ovb_tok_prob(lx, 1, "point: O", &p.O)) ||
	    (st = ovb_tok_u64(lx, 2, "point: COUNT", &p.count)))
		return st;
	if (p.O >= 1)
		return ovb_err(lx, "point: the tolerance O = %s is not below 1",
			lx->tok[1]);
	if (strcmp(lx->tok[3], unit))
		return ovb_err(lx, "point: the unit of a 'fit %s' answer is '%s', "
			"not '%s'", fit->q == OVB_FIT_MORE ? "more" : "nodes", unit,
			lx->tok[3]);
	int b = 0;
	while (b < 4 && strcmp(lx->tok[4], bound_name[b]))
		b++;
	if (b == 4)
		return ovb_err(lx, "point: '%s' is not exact, at-least, at-most or "
			"never", lx->tok[4]);
	p.bound = (enum ovb_fit_bound)b;
	if (p.bound == OVB_FIT_NEVER && (fit->q != OVB_FIT_NODES || p.count))
		return ovb_err(lx, "point: 'never' is the answer of a 'fit nodes' "
			"question with COUNT 0 only");
	if (p.bound == OVB_FIT_AT_MOST && fit->q != OVB_FIT_NODES)
		return ovb_err(lx, "point: 'at-most' is the answer of a 'fit nodes' "
			"question only");
	if (p.bound != OVB_FIT_NEVER && fit->q == OVB_FIT_NODES && !p.count)
		return ovb_err(lx, "point: 0 nodes hold nothing (COUNT >= 1, or "
			"0 never)");
	if (fit->n && !(p.O > fit->p[fit->n - 1].O))
		return ovb_err(lx, "point: O = %s is not above the previous "
			"point's (line %lu): points go in increasing O, once each",
			lx->tok[1], fit->p[fit->n - 1].line);
	*OVB_PUSH(fit->p, fit->n, fit->cap_p) = p;
	return 0;
}

static int
read_where(struct ovb_lex *lx, struct ovb_fit *fit)
{
	int st;
	uint64_t k;
	if ((st = ovb_arity(lx, 3, 3, "where NODE CAPSULES")) ||
	    (st = ovb_tok_name(lx, 1, "where: NODE")) ||
	    (st = ovb_tok_u64(lx, 2, "where: CAPSULES", &k)))
		return st;
	if (fit->q != OVB_FIT_MORE)
		return ovb_err(lx, "where: only in the answer of 'fit more' (the "
			"plan holds the nodes' placements)");
	if (!fit->n)
		return ovb_err(lx, "where: before any point record");
	if (!k)
		return ovb_err(lx, "where: CAPSULES is at least 1 (a node with "
			"none is left out)");
	struct ovb_fitpoint *p = &fit->p[fit->n - 1];
	for (size_t i = 0; i < p->nwhere; i++)
		if (!strcmp(p->where[i].node, lx->tok[1]))
			return ovb_err(lx, "where: node %s twice for the point of "
				"line %lu", lx->tok[1], p->line);
	struct ovb_fitwhere *w = OVB_PUSH(p->where, p->nwhere, p->capwhere);
	w->node = ovb_xstrdup(lx->tok[1]);
	w->capsules = k;
	return 0;
}

int
ovb_fit_read(struct ovb_lex *lx, struct ovb_fit *fit)
{
	memset(fit, 0, sizeof *fit);
	bool have_fit = false;
	int st = ovb_magic(lx, "fit");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *k = lx->tok[0];
		if (!strcmp(k, "fit")) {
			if (have_fit)
				st = ovb_err(lx, "fit: a second question");
			else {
				have_fit = true;
				st = read_fit(lx, fit);
			}
			continue;
		}
		if (!have_fit) {
			st = ovb_err(lx, "'%s' before the fit record (the question "
				"comes first)", k);
			continue;
		}
		if (!strcmp(k, "search")) {
			if (fit->search)
				st = ovb_err(lx, "search: given twice");
			else if (!(st = ovb_arity(lx, 2, 2, "search METHOD")) &&
			    !(st = ovb_tok_name(lx, 1, "search: METHOD")))
				fit->search = ovb_xstrdup(lx->tok[1]);
		} else if (!strcmp(k, "point"))
			st = read_point(lx, fit);
		else if (!strcmp(k, "where"))
			st = read_where(lx, fit);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-fit file "
				"(expected fit, search, point or where)", k);
	}
	if (!st && !have_fit)
		st = ovb_err(lx, "no fit record (the question)");
	if (!st && !fit->search)
		st = ovb_err(lx, "no search record (how the answer was found)");
	if (!st && !fit->n)
		st = ovb_err(lx, "no point records");
	return st;
}

int
ovb_fit_write(FILE *f, const struct ovb_fit *fit)
{
	char b[32];
	ovb_put_magic(f, "fit");
	fprintf(f, "# fit more APP | fit nodes SHAPE CPU cpu NET B/s: the "
		"question\n# search METHOD: ovb-place's policy, or exhaustive\n"
		"# point O COUNT UNIT BOUND: COUNT copies of APP fit on top of "
		"the plan, or nodes of the shape hold the apps, at tolerance O "
		"(BOUND exact, at-least, at-most or never)\n"
		"# where NODE CAPSULES: the copies' capsules on NODE, for the "
		"point above\n");
	if (fit->q == OVB_FIT_MORE)
		fprintf(f, "fit more %s\n", fit->name);
	else {
		fprintf(f, "fit nodes %s %s cpu", fit->name,
			ovb_fmt_real(b, fit->cap[OVB_CPU]));
		fprintf(f, " %s B/s\n", ovb_fmt_real(b, fit->cap[OVB_NET]));
	}
	fprintf(f, "search %s\n", fit->search);
	for (size_t i = 0; i < fit->n; i++) {
		const struct ovb_fitpoint *p = &fit->p[i];
		fprintf(f, "point %s %llu %s %s\n", ovb_fmt_real(b, p->O),
			(unsigned long long)p->count, fit->q == OVB_FIT_MORE ?
			"copies" : "nodes", bound_name[p->bound]);
		for (size_t j = 0; j < p->nwhere; j++)
			fprintf(f, "where %s %llu\n", p->where[j].node,
				(unsigned long long)p->where[j].capsules);
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_fit_free(struct ovb_fit *fit)
{
	for (size_t i = 0; i < fit->n; i++) {
		for (size_t j = 0; j < fit->p[i].nwhere; j++)
			free(fit->p[i].where[j].node);
		free(fit->p[i].where);
	}
	free(fit->p);
	free(fit->name);
	free(fit->search);
	memset(fit, 0, sizeof *fit);
}
