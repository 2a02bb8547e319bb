/* bids.c: format ovb-bids, a Merkat market's bids, caps and placement
 * (spec: bids.md).
 *
 *	reserve RES PRICE credit/UNIT
 *	vm NAME NODE|-
 *	bid VM RES BID credit AMAX UNIT
 *
 * RES is cpu (UNIT cpu) or mem (UNIT MiB).  Invariants after a successful
 * read: at least one vm; names unique; every vm has a cpu bid, at most one
 * bid per resource, and either every vm has a mem bid or none has; bids
 * and caps finite and > 0; reserve prices finite and >= 0, at most one per
 * resource. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static const char *const mres_price[OVB_NMRES] = { "credit/cpu", "credit/MiB" };

static int
res_tok(struct ovb_lex *lx, int i, int *r)
{
	if ((*r = ovb_mres_parse(lx->tok[i])) < 0)
		return ovb_err(lx, "%s: unknown resource '%s' (cpu or mem)",
			lx->tok[0], lx->tok[i]);
	return 0;
}

static int
read_reserve(struct ovb_lex *lx, struct ovb_bids *b)
{
	int r, st = ovb_arity(lx, 4, 4, "reserve RES PRICE credit/UNIT");
	double v;
	if (st || (st = res_tok(lx, 1, &r)))
		return st;
	if (b->has_reserve[r])
		return ovb_err(lx, "reserve %s given twice", ovb_mres_name(r));
	if ((st = ovb_tok_nonneg(lx, 2, "reserve price", &v)) ||
	    (st = ovb_tok_unit(lx, 3, mres_price[r])))
		return st;
	b->has_reserve[r] = true;
	b->reserve[r] = v;
	return 0;
}

static int
read_vm(struct ovb_lex *lx, struct ovb_bids *b)
{
	int st = ovb_arity(lx, 3, 3, "vm NAME NODE|-");
	if (st || (st = ovb_tok_name(lx, 1, "vm name")))
		return st;
	if (strcmp(lx->tok[2], "-") && (st = ovb_tok_name(lx, 2, "vm node")))
		return st;
	size_t dup = ovb_names_get(&b->byname, lx->tok[1]);
	if (dup != OVB_NONE)
		return ovb_err(lx, "vm '%s' is defined twice (first at line %lu)",
			lx->tok[1], b->vm[dup].line);
	struct ovb_vm *v = OVB_PUSH(b->vm, b->n, b->cap);
	memset(v, 0, sizeof *v);
	v->name = ovb_xstrdup(lx->tok[1]);
	v->node = strcmp(lx->tok[2], "-") ? ovb_xstrdup(lx->tok[2]) : NULL;
	v->line = lx->line;
	ovb_names_add(&b->byname, v->name, b->n - 1);
	return 0;
}

static int
read_bid(struct ovb_lex *lx, struct ovb_bids *b)
{
	int r, st = ovb_arity(lx, 7, 7, "bid VM RES BID credit AMAX UNIT");
	if (st)
		return st;
	size_t i = ovb_names_get(&b->byname, lx->tok[1]);
	if (i == OVB_NONE)
		return ovb_err(lx, "bid: vm '%s' is not defined above", lx->tok[1]);
	if ((st = res_tok(lx, 2, &r)))
		return st;
	struct ovb_vm *v = &b->vm[i];
	if (v->bid[r].line)
		return ovb_err(lx, "bid: vm %s has a %s bid already (line %lu)",
			v->name, ovb_mres_name(r), v->bid[r].line);
	double bid, amax;
	if ((st = ovb_tok_pos(lx, 3, "bid", &bid)) ||
	    (st = ovb_tok_unit(lx, 4, "credit")) ||
	    (st = ovb_tok_pos(lx, 5, "a_max", &amax)) ||
	    (st = ovb_tok_unit(lx, 6, ovb_mres_unit(r))))
		return st;
	v->bid[r].bid = bid;
	v->bid[r].amax = amax;
	v->bid[r].line = lx->line;
	return 0;
}

int
ovb_bids_read(struct ovb_lex *lx, struct ovb_bids *b)
{
	memset(b, 0, sizeof *b);
	int st = ovb_magic(lx, "bids");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		if (!strcmp(lx->tok[0], "vm"))
			st = read_vm(lx, b);
		else if (!strcmp(lx->tok[0], "bid"))
			st = read_bid(lx, b);
		else if (!strcmp(lx->tok[0], "reserve"))
			st = read_reserve(lx, b);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-bids file "
				"(expected vm, bid or reserve)", lx->tok[0]);
	}
	if (st)
		return st;
	if (b->n == 0)
		return ovb_err(lx, "no vms");
	for (size_t i = 0; i < b->n; i++) {
		const struct ovb_vm *v = &b->vm[i];
		if (!v->bid[OVB_MCPU].line)
			return ovb_err_at(lx->name, v->line, "vm %s has no cpu "
				"bid", v->name);
		if (!v->bid[OVB_MMEM].line != !b->vm[0].bid[OVB_MMEM].line)
			return ovb_err_at(lx->name, v->line, "vm %s has %s mem "
				"bid and vm %s has %s: either every vm bids for "
				"mem or none", v->name, v->bid[OVB_MMEM].line ?
				"a" : "no", b->vm[0].name,
				b->vm[0].bid[OVB_MMEM].line ? "one" : "none");
	}
	b->has_mem = b->vm[0].bid[OVB_MMEM].line != 0;
	return 0;
}

int
ovb_bids_write(FILE *f, const struct ovb_bids *b)
{
	ovb_put_magic(f, "bids");
	fputs("# reserve RES PRICE credit/UNIT\n"
		"# vm NAME NODE|-\n"
		"# bid VM RES BID credit AMAX UNIT\n", f);
	for (int r = 0; r < OVB_NMRES; r++)
		if (b->has_reserve[r]) {
			fprintf(f, "reserve %s", ovb_mres_name(r));
			ovb_put_real(f, b->reserve[r]);
			fprintf(f, " %s\n", mres_price[r]);
		}
	for (size_t i = 0; i < b->n; i++) {
		const struct ovb_vm *v = &b->vm[i];
		fprintf(f, "vm %s %s\n", v->name, v->node ? v->node : "-");
		for (int r = 0; r < OVB_NMRES; r++) {
			if (!v->bid[r].line)
				continue;
			fprintf(f, "bid %s %s", v->name, ovb_mres_name(r));
			ovb_put_real(f, v->bid[r].bid);
			fputs(" credit", f);
			ovb_put_real(f, v->bid[r].amax);
			fprintf(f, " %s\n", ovb_mres_unit(r));
		}
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_bids_free(struct ovb_bids *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->vm[i].name);
		free(b->vm[i].node);
	}
	free(b->vm);
	ovb_names_free(&b->byname);
	memset(b, 0, sizeof *b);
}
