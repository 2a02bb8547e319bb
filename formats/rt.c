/* rt.c: format ovb-rt, VSched's real-time reservations (spec: rt.md).
 *
 *	node NAME CPUS CAP
 *	task NODE NAME PERIOD SLICE
 *	rate PERIOD U R
 *
 * Invariants after a successful read: node names unique, CPUS >= 1,
 * 0 < CAP <= 1; a task's node is declared before it, (NODE, NAME) unique,
 * PERIOD > 0, 0 < SLICE <= PERIOD; a rate's (PERIOD, U) unique, PERIOD > 0,
 * 0 < U <= 1, R >= 0; records kept in file order. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static int
read_node(struct ovb_lex *lx, struct ovb_rt *rt)
{
	struct ovb_rtnode n = { NULL, 0, 0, lx->line };
	int st;
	if ((st = ovb_arity(lx, 4, 4, "node NAME CPUS CAP")) ||
	    (st = ovb_tok_name(lx, 1, "node")) ||
	    (st = ovb_tok_u64(lx, 2, "CPUS", &n.cpus)) ||
	    (st = ovb_tok_pos(lx, 3, "CAP", &n.cap)))
		return st;
	if (n.cpus < 1 || n.cpus > 1000000)
		return ovb_err(lx, "CPUS: %s is not in 1..1000000", lx->tok[2]);
	if (n.cap > 1)
		return ovb_err(lx, "CAP: %s is above 1 (a CPU's whole time)",
			lx->tok[3]);
	if (ovb_names_get(&rt->byname, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "node %s: a second node record", lx->tok[1]);
	n.name = ovb_xstrdup(lx->tok[1]);
	ovb_names_add(&rt->byname, n.name, rt->nnode);
	*OVB_PUSH(rt->node, rt->nnode, rt->capnode) = n;
	return 0;
}

static int
read_task(struct ovb_lex *lx, struct ovb_rt *rt)
{
	struct ovb_rttask t = { 0, NULL, 0, 0, lx->line };
	int st;
	if ((st = ovb_arity(lx, 5, 5, "task NODE NAME PERIOD SLICE")) ||
	    (st = ovb_tok_name(lx, 1, "node")) ||
	    (st = ovb_tok_name(lx, 2, "task")) ||
	    (st = ovb_tok_pos(lx, 3, "PERIOD", &t.period)) ||
	    (st = ovb_tok_pos(lx, 4, "SLICE", &t.slice)))
		return st;
	if ((t.node = ovb_names_get(&rt->byname, lx->tok[1])) == OVB_NONE)
		return ovb_err(lx, "node %s: no node record before this task",
			lx->tok[1]);
	if (t.slice > t.period)
		return ovb_err(lx, "SLICE: %s s is longer than the period %s s",
			lx->tok[4], lx->tok[3]);
	for (size_t i = 0; i < rt->ntask; i++)
		if (rt->task[i].node == t.node &&
		    !strcmp(rt->task[i].name, lx->tok[2]))
			return ovb_err(lx, "task %s: a second one on node %s "
				"(line %lu)", lx->tok[2], lx->tok[1],
				rt->task[i].line);
	t.name = ovb_xstrdup(lx->tok[2]);
	*OVB_PUSH(rt->task, rt->ntask, rt->captask) = t;
	return 0;
}

static int
read_rate(struct ovb_lex *lx, struct ovb_rt *rt)
{
	struct ovb_rtrate r = { 0, 0, 0, lx->line };
	int st;
	if ((st = ovb_arity(lx, 4, 4, "rate PERIOD U R")) ||
	    (st = ovb_tok_pos(lx, 1, "PERIOD", &r.period)) ||
	    (st = ovb_tok_pos(lx, 2, "U", &r.U)) ||
	    (st = ovb_tok_nonneg(lx, 3, "R", &r.r)))
		return st;
	if (r.U > 1)
		return ovb_err(lx, "U: %s is above 1", lx->tok[2]);
	for (size_t i = 0; i < rt->nrate; i++)
		if (rt->rate[i].period == r.period && rt->rate[i].U == r.U)
			return ovb_err(lx, "rate: a second rate at period %s "
				"and U %s (line %lu)", lx->tok[1], lx->tok[2],
				rt->rate[i].line);
	*OVB_PUSH(rt->rate, rt->nrate, rt->caprate) = r;
	return 0;
}

int
ovb_rt_read(struct ovb_lex *lx, struct ovb_rt *rt)
{
	memset(rt, 0, sizeof *rt);
	int st = ovb_magic(lx, "rt");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *k = lx->tok[0];
		if (!strcmp(k, "node"))
			st = read_node(lx, rt);
		else if (!strcmp(k, "task"))
			st = read_task(lx, rt);
		else if (!strcmp(k, "rate"))
			st = read_rate(lx, rt);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-rt file "
				"(expected node, task, rate)", k);
	}
	if (!st && !rt->nnode && !rt->nrate)
		st = ovb_err(lx, "no node and no rate records");
	return st;
}

int
ovb_rt_write(FILE *f, const struct ovb_rt *rt)
{
	char b[32];
	ovb_put_magic(f, "rt");
	fprintf(f, "# node NAME CPUS CAP: CPUS CPUs, each admitting sum "
		"slice/period <= CAP\n# task NODE NAME PERIOD[s] SLICE[s]; "
		"rate PERIOD[s] U R: the rate at (period, U), a fraction of "
		"the maximum\n");
	for (size_t i = 0; i < rt->nnode; i++)
		fprintf(f, "node %s %llu %s\n", rt->node[i].name,
			(unsigned long long)rt->node[i].cpus,
			ovb_fmt_real(b, rt->node[i].cap));
	for (size_t i = 0; i < rt->ntask; i++) {
		fprintf(f, "task %s %s", rt->node[rt->task[i].node].name,
			rt->task[i].name);
		ovb_put_real(f, rt->task[i].period);
		ovb_put_real(f, rt->task[i].slice);
		fputc('\n', f);
	}
	for (size_t i = 0; i < rt->nrate; i++) {
		fprintf(f, "rate");
		ovb_put_real(f, rt->rate[i].period);
		ovb_put_real(f, rt->rate[i].U);
		ovb_put_real(f, rt->rate[i].r);
		fputc('\n', f);
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_rt_free(struct ovb_rt *rt)
{
	for (size_t i = 0; i < rt->nnode; i++)
		free(rt->node[i].name);
	for (size_t i = 0; i < rt->ntask; i++)
		free(rt->task[i].name);
	free(rt->node);
	free(rt->task);
	free(rt->rate);
	ovb_names_free(&rt->byname);
	memset(rt, 0, sizeof *rt);
}
