/* reserves.c: Cluster Reserves matrices (format ovb-reserves, spec:
 * reserves.md).
 *
 *	class NAME D / node NAME / round K /
 *	u NODE CLASS PCT / r NODE CLASS PCT / R NODE CLASS PCT
 *
 * Invariants of a read file: shares in [0,100] adding up to at most 100;
 * names unique; rounds numbered 1.. consecutively; in every round u is
 * complete and r, R are absent or complete; entries in [0,100], given
 * once; per node and matrix the entries add up to at most 100. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

#define ROWTOL 1e-6
static const char mats[] = "urR";

struct reader {
	struct ovb_reserves *r;
	unsigned char *given[3];     /* entries given in the current round */
	size_t ngiven[3];
	unsigned long first_round_line;
};

static double **
matrix(struct ovb_round *rd, int m)
{
	return m == 0 ? &rd->u : m == 1 ? &rd->r : &rd->R;
}

static int
read_class(struct reader *rr, struct ovb_lex *lx)
{
	struct ovb_reserves *r = rr->r;
	double d;
	int st = ovb_arity(lx, 3, 3, "class NAME SHARE");
	if (st || (st = ovb_tok_name(lx, 1, "class name")) ||
	    (st = ovb_tok_nonneg(lx, 2, "class share (percent)", &d)))
		return st;
	if (d > 100)
		return ovb_err(lx, "class: share %s%% is above 100", lx->tok[2]);
	if (ovb_names_get(&r->classes, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "class '%s' is defined twice", lx->tok[1]);
	double sum = d;
	for (size_t j = 0; j < r->nclass; j++)
		sum += r->share[j];
	if (sum > 100 + ROWTOL)
		return ovb_err(lx, "class: shares add up to %g%%, above 100", sum);
	size_t cap = r->capclass;
	*OVB_PUSH(r->class, r->nclass, r->capclass) = ovb_xstrdup(lx->tok[1]);
	if (cap != r->capclass)
		r->share = ovb_xrealloc(r->share, r->capclass, sizeof *r->share);
	r->share[r->nclass - 1] = d;
	ovb_names_add(&r->classes, r->class[r->nclass - 1], r->nclass - 1);
	return 0;
}

static int
read_node(struct reader *rr, struct ovb_lex *lx)
{
	struct ovb_reserves *r = rr->r;
	int st = ovb_arity(lx, 2, 2, "node NAME");
	if (st || (st = ovb_tok_name(lx, 1, "node name")))
		return st;
	if (ovb_names_get(&r->nodes, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "node '%s' is defined twice", lx->tok[1]);
	*OVB_PUSH(r->node, r->nnode, r->capnode) = ovb_xstrdup(lx->tok[1]);
	ovb_names_add(&r->nodes, r->node[r->nnode - 1], r->nnode - 1);
	return 0;
}

/* Checks the finished round: u complete, r and R complete or absent, row
 * sums at most 100. */
static int
round_end(struct reader *rr, struct ovb_lex *lx)
{
	struct ovb_reserves *r = rr->r;
	if (!r->nround)
		return 0;
	struct ovb_round *rd = &r->round[r->nround - 1];
	size_t cells = r->nnode * r->nclass;
	for (int m = 0; m < 3; m++) {
		double *a = *matrix(rd, m);
		if (rr->ngiven[m] == 0 && m > 0)
			continue;
		for (size_t c = 0; c < cells; c++)
			if (!rr->given[m] || !rr->given[m][c])
				return ovb_err_at(lx->name, rd->line, "round %zu: %c "
					"has no entry for node %s class %s (a "
					"matrix needs every node x class)", r->nround,
					mats[m], r->node[c / r->nclass],
					r->class[c % r->nclass]);
		for (size_t i = 0; i < r->nnode; i++) {
			double sum = 0;
			for (size_t j = 0; j < r->nclass; j++)
				sum += a[i * r->nclass + j];
			if (sum > 100 + ROWTOL)
				return ovb_err_at(lx->name, rd->line, "round %zu: "
					"%c of node %s adds up to %g%%, above 100",
					r->nround, mats[m], r->node[i], sum);
		}
	}
	return 0;
}

static int
read_round(struct reader *rr, struct ovb_lex *lx)
{
	struct ovb_reserves *r = rr->r;
	uint64_t k;
	int st = round_end(rr, lx);
	if (st || (st = ovb_arity(lx, 2, 2, "round K")) ||
	    (st = ovb_tok_u64(lx, 1, "round number", &k)))
		return st;
	if (k != r->nround + 1)
		return ovb_err(lx, "round %s: expected round %zu (rounds are "
			"numbered 1, 2, ... in order)", lx->tok[1], r->nround + 1);
	if (!r->nclass || !r->nnode)
		return ovb_err(lx, "round: class and node records must come first");
	struct ovb_round *rd = OVB_PUSH(r->round, r->nround, r->capround);
	memset(rd, 0, sizeof *rd);
	rd->line = lx->line;
	for (int m = 0; m < 3; m++) {
		free(rr->given[m]);
		rr->given[m] = NULL;
		rr->ngiven[m] = 0;
	}
	return 0;
}

static int
read_entry(struct reader *rr, struct ovb_lex *lx, int m)
{
	struct ovb_reserves *r = rr->r;
	char syntax[32];
	snprintf(syntax, sizeof syntax, "%c NODE CLASS PERCENT", mats[m]);
	double v;
	int st = ovb_arity(lx, 4, 4, syntax);
	if (st || (st = ovb_tok_nonneg(lx, 3, "percent", &v)))
		return st;
	if (!r->nround)
		return ovb_err(lx, "%s: before any 'round K' record", lx->tok[0]);
	if (v > 100)
		return ovb_err(lx, "%s: %s%% is above 100", lx->tok[0], lx->tok[3]);
	size_t i = ovb_names_get(&r->nodes, lx->tok[1]);
	size_t j = ovb_names_get(&r->classes, lx->tok[2]);
	if (i == OVB_NONE)
		return ovb_err(lx, "%s: unknown node '%s'", lx->tok[0], lx->tok[1]);
	if (j == OVB_NONE)
		return ovb_err(lx, "%s: unknown class '%s'", lx->tok[0],
			lx->tok[2]);
	size_t cells = r->nnode * r->nclass, c = i * r->nclass + j;
	double **a = matrix(&r->round[r->nround - 1], m);
	if (!*a) {
		*a = ovb_xcalloc(cells, sizeof **a);
		rr->given[m] = ovb_xcalloc(cells, 1);
	}
	if (rr->given[m][c])
		return ovb_err(lx, "%s %s %s is given twice in this round",
			lx->tok[0], lx->tok[1], lx->tok[2]);
	rr->given[m][c] = 1;
	rr->ngiven[m]++;
	(*a)[c] = v;
	return 0;
}

int
ovb_reserves_read(struct ovb_lex *lx, struct ovb_reserves *r)
{
	memset(r, 0, sizeof *r);
	struct reader rr = { .r = r };
	int st = ovb_magic(lx, "reserves");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0], *m = strchr(mats, kw[0]);
		if ((!strcmp(kw, "class") || !strcmp(kw, "node")) && r->nround)
			st = ovb_err(lx, "%s: class and node records must come "
				"before the first round", kw);
		else if (!strcmp(kw, "class"))
			st = read_class(&rr, lx);
		else if (!strcmp(kw, "node"))
			st = read_node(&rr, lx);
		else if (!strcmp(kw, "round"))
			st = read_round(&rr, lx);
		else if (m && kw[0] && !kw[1])
			st = read_entry(&rr, lx, (int)(m - mats));
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-reserves "
				"file", kw);
	}
	if (!st)
		st = round_end(&rr, lx);
	/* zero classes or nodes is valid by the grammar (a round needs
	 * both, which read_round checks); ovb-reserves needs a round */
	for (int m = 0; m < 3; m++)
		free(rr.given[m]);
	return st;
}

int
ovb_reserves_write(FILE *f, const struct ovb_reserves *r)
{
	ovb_put_magic(f, "reserves");
	fputs("# class NAME SHARE[%]; node NAME; round K;\n"
	      "# u|r|R NODE CLASS PERCENT[% of the node]: usage, allocation, "
	      "new allocation\n", f);
	for (size_t j = 0; j < r->nclass; j++) {
		fprintf(f, "class %s", r->class[j]);
		ovb_put_real(f, r->share[j]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < r->nnode; i++)
		fprintf(f, "node %s\n", r->node[i]);
	for (size_t k = 0; k < r->nround; k++) {
		fprintf(f, "round %zu\n", k + 1);
		for (int m = 0; m < 3; m++) {
			double *a = *matrix(&r->round[k], m);
			for (size_t c = 0; a && c < r->nnode * r->nclass; c++) {
				fprintf(f, "%c %s %s", mats[m], r->node[c / r->nclass],
					r->class[c % r->nclass]);
				ovb_put_real(f, a[c]);
				fputc('\n', f);
			}
		}
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_reserves_free(struct ovb_reserves *r)
{
	for (size_t j = 0; j < r->nclass; j++)
		free(r->class[j]);
	for (size_t i = 0; i < r->nnode; i++)
		free(r->node[i]);
	for (size_t k = 0; k < r->nround; k++) {
		free(r->round[k].u);
		free(r->round[k].r);
		free(r->round[k].R);
	}
	free(r->class);
	free(r->share);
	free(r->node);
	free(r->round);
	ovb_names_free(&r->classes);
	ovb_names_free(&r->nodes);
	memset(r, 0, sizeof *r);
}
