/* migrations.c: format ovb-migrations, a market's migration plan (spec:
 * migrations.md).
 *
 *	error before|after|bound E
 *	move VM FROM TO
 *	deploy VM NODE
 *
 * Invariants after a successful read: the three error records once each
 * (has_err) or none, values finite and >= 0; moves and deployments in file order, a VM at
 * most once over both, FROM != TO. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static const char *const which[3] = { "before", "after", "bound" };

static int
read_error(struct ovb_lex *lx, struct ovb_migrations *m, unsigned *seen)
{
	int st = ovb_arity(lx, 3, 3, "error before|after|bound E");
	if (st)
		return st;
	for (int k = 0; k < 3; k++) {
		if (strcmp(lx->tok[1], which[k]))
			continue;
		if (*seen & (1u << k))
			return ovb_err(lx, "error %s given twice", which[k]);
		*seen |= 1u << k;
		return ovb_tok_nonneg(lx, 2, "error", &m->err[k]);
	}
	return ovb_err(lx, "error: '%s' is not before, after or bound",
		lx->tok[1]);
}

/* vms: a VM's name -> its slot in *last, the index of its latest step. */
static int
read_step(struct ovb_lex *lx, struct ovb_migrations *m, struct ovb_names *vms,
	size_t **last, size_t *nlast, bool deploy)
{
	int st = deploy ? ovb_arity(lx, 3, 3, "deploy VM NODE") :
		ovb_arity(lx, 4, 4, "move VM FROM TO");
	for (int i = 1; !st && i < lx->ntok; i++)
		st = ovb_tok_name(lx, i, i == 1 ? "vm name" : "node name");
	if (st)
		return st;
	if (!deploy && !strcmp(lx->tok[2], lx->tok[3]))
		return ovb_err(lx, "move: vm %s from node %s to itself",
			lx->tok[1], lx->tok[2]);
	/* a VM's later steps (a staging move, then the move on) start
	 * where its previous one ended; a deployment is a VM's first */
	size_t slot = ovb_names_get(vms, lx->tok[1]);
	if (slot != OVB_NONE) {
		const struct ovb_step *p = &m->step[(*last)[slot]];
		if (deploy)
			return ovb_err(lx, "deploy of vm %s, which has a step "
				"before (line %lu)", lx->tok[1], p->line);
		if (strcmp(p->to, lx->tok[2]))
			return ovb_err(lx, "vm %s moves from %s, but its step at "
				"line %lu took it to %s", lx->tok[1], lx->tok[2],
				p->line, p->to);
	}
	struct ovb_step *s = OVB_PUSH(m->step, m->n, m->cap);
	memset(s, 0, sizeof *s);
	s->vm = ovb_xstrdup(lx->tok[1]);
	s->from = deploy ? NULL : ovb_xstrdup(lx->tok[2]);
	s->to = ovb_xstrdup(lx->tok[deploy ? 2 : 3]);
	s->line = lx->line;
	if (slot == OVB_NONE) {
		*last = ovb_xrealloc(*last, *nlast + 1, sizeof **last);
		slot = (*nlast)++;
		ovb_names_add(vms, s->vm, slot);
	}
	(*last)[slot] = m->n - 1;
	return 0;
}

int
ovb_migrations_read(struct ovb_lex *lx, struct ovb_migrations *m)
{
	memset(m, 0, sizeof *m);
	struct ovb_names vms = { 0 };
	size_t *last = NULL, nlast = 0;
	unsigned seen = 0;
	int st = ovb_magic(lx, "migrations");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		if (!strcmp(lx->tok[0], "error"))
			st = read_error(lx, m, &seen);
		else if (!strcmp(lx->tok[0], "move"))
			st = read_step(lx, m, &vms, &last, &nlast, false);
		else if (!strcmp(lx->tok[0], "deploy"))
			st = read_step(lx, m, &vms, &last, &nlast, true);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-migrations "
				"file (expected error, move or deploy)",
				lx->tok[0]);
	}
	ovb_names_free(&vms);
	free(last);
	/* all three error records, or none (a placement's moves) */
	for (int k = 0; !st && seen && k < 3; k++)
		if (!(seen & (1u << k)))
			st = ovb_err(lx, "no 'error %s' record", which[k]);
	m->has_err = seen != 0;
	return st;
}

int
ovb_migrations_write(FILE *f, const struct ovb_migrations *m)
{
	ovb_put_magic(f, "migrations");
	if (m->has_err)
		fputs("# error before|after|bound E (the largest allocation "
			"error e_r, Eq. 2)\n", f);
	for (int k = 0; m->has_err && k < 3; k++) {
		fprintf(f, "error %s", which[k]);
		ovb_put_real(f, m->err[k]);
		fputc('\n', f);
	}
	fputs("# move VM FROM TO, deploy VM NODE: in order\n", f);
	for (size_t i = 0; i < m->n; i++) {
		const struct ovb_step *s = &m->step[i];
		if (s->from)
			fprintf(f, "move %s %s %s\n", s->vm, s->from, s->to);
		else
			fprintf(f, "deploy %s %s\n", s->vm, s->to);
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_migrations_free(struct ovb_migrations *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->step[i].vm);
		free(m->step[i].from);
		free(m->step[i].to);
	}
	free(m->step);
	memset(m, 0, sizeof *m);
}
