/* gain.c: format ovb-gain, the runs of a capacity experiment (spec:
 * gain.md).
 *
 *	run NODES O PLACED
 *
 * The header-only form of before the magic line ("nodes O placed", then
 * "NODES O PLACED" per line) is still read; the writer writes ovb-gain 1.
 *
 * Invariants after a successful read: at least one run; every NODES >= 1,
 * 0 <= O < 1; runs in file order. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

bool
ovb_gain_header(const struct ovb_lex *lx)
{
	return lx->ntok == 3 && !strcmp(lx->tok[0], "nodes") &&
		!strcmp(lx->tok[1], "O") && !strcmp(lx->tok[2], "placed");
}

/* One run from tok[i..i+2]. */
static int
read_run(struct ovb_lex *lx, int i, struct ovb_gain *g)
{
	struct ovb_run r = { 0, 0, 0, lx->line };
	int st;
	if ((st = ovb_tok_u64(lx, i, "nodes", &r.nodes)) ||
	    (st = ovb_tok_prob(lx, i + 1, "O", &r.O)) ||
	    (st = ovb_tok_u64(lx, i + 2, "placed", &r.placed)))
		return st;
	if (r.nodes < 1)
		return ovb_err(lx, "nodes: a cluster has at least 1 node");
	if (r.O >= 1)
		return ovb_err(lx, "O: the tolerance %s is not below 1",
			lx->tok[i + 1]);
	*OVB_PUSH(g->run, g->n, g->cap) = r;
	return 0;
}

int
ovb_gain_read(struct ovb_lex *lx, struct ovb_gain *g)
{
	memset(g, 0, sizeof *g);
	int st = ovb_lex_next(lx);
	bool old = st == 1 && ovb_gain_header(lx);
	if (st == 1 || st == 0) {
		if (st == 1 && !old)
			ovb_lex_unread(lx);
		st = old ? 0 : ovb_magic(lx, "gain");
	}
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		if (old)
			st = ovb_arity(lx, 3, 3, "NODES O PLACED");
		else if (strcmp(lx->tok[0], "run"))
			st = ovb_err(lx, "unknown record '%s' in an ovb-gain file "
				"(expected run)", lx->tok[0]);
		else
			st = ovb_arity(lx, 4, 4, "run NODES O PLACED");
		if (!st)
			st = read_run(lx, !old, g);
	}
	if (!st && !g->n)
		st = ovb_err(lx, old ? "no runs after the header 'nodes O "
			"placed'" : "no runs");
	return st;
}

int
ovb_gain_write(FILE *f, const struct ovb_gain *g)
{
	ovb_put_magic(f, "gain");
	fprintf(f, "# run NODES O PLACED: PLACED applications placed on NODES "
		"nodes at overbooking tolerance O\n");
	for (size_t i = 0; i < g->n; i++) {
		char b[32];
		fprintf(f, "run %llu %s %llu\n", (unsigned long long)g->run[i].nodes,
			ovb_fmt_real(b, g->run[i].O),
			(unsigned long long)g->run[i].placed);
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_gain_free(struct ovb_gain *g)
{
	free(g->run);
	memset(g, 0, sizeof *g);
}
