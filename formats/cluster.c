/* cluster.c: format ovb-cluster, the nodes of a cluster and their
 * capacities (spec: cluster.md).
 *
 *	node NAME CPU cpu NET B/s [net-rx RX B/s] [mem M B [mem-pool P B]]
 *	     [KEY=VALUE...]
 *
 * Invariants after a successful read: at least one node, names unique,
 * capacities finite and > 0 (a pool >= 0), label keys unique per node; a
 * net-rx capacity on every node or on none, and so a mem capacity. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static int
read_labels(struct ovb_lex *lx, struct ovb_node *nd, int from)
{
	nd->nlabel = (size_t)(lx->ntok - from);
	nd->label = ovb_xcalloc(nd->nlabel, sizeof *nd->label);
	for (size_t i = 0; i < nd->nlabel; i++) {
		char *tok = lx->tok[from + (int)i], *key, *val;
		char *copy = ovb_xstrdup(tok);
		if (!ovb_kv(copy, &key, &val) || !ovb_valid_name(key) ||
		    !ovb_valid_name(val)) {
			free(copy);
			return ovb_err(lx, "node: label '%s' is not KEY=VALUE "
				"with names on both sides", tok);
		}
		size_t keylen = strlen(key) + 1; /* with the '=' */
		free(copy);
		for (size_t j = 0; j < i; j++)
			if (strncmp(nd->label[j], tok, keylen) == 0)
				return ovb_err(lx, "node: label '%.*s' given twice",
					(int)keylen - 1, tok);
		nd->label[i] = ovb_xstrdup(tok);
	}
	return 0;
}

/* A capacity far outside real hardware is read as given, with a warning
 * once the file is read without error (a typo: 125 B/s for 125000000
 * B/s, a CPU count in millicores): CPUs from 0.01 to 10000, a link from 1
 * Mbit/s to 1 Tbit/s. */
bool ovb_cluster_hw_warn;

static void
plausible(const struct ovb_lex *lx, const struct ovb_node *nd)
{
	const double *cap = nd->cap;
	static const struct { int r; double lo, hi; const char *range; } p[] = {
		{ OVB_CPU, 0.01, 10000, "0.01 to 10000 cpu" },
		{ OVB_NET, 125000, 125e9, "125000 B/s (1 Mbit/s) to 125e9 B/s "
		  "(1 Tbit/s)" },
		{ OVB_NETRX, 125000, 125e9, "125000 B/s (1 Mbit/s) to 125e9 B/s "
		  "(1 Tbit/s)" },
	};
	for (size_t i = 0; i < sizeof p / sizeof *p && !ovb_quiet; i++) {
		double v = cap[p[i].r];
		if (v > 0 && (v < p[i].lo || v > p[i].hi))
			ovb_warn("%s:%lu: node %s: %s capacity %g %s is outside "
				"real hardware (%s): read as given; a typo?",
				lx->name, nd->line, nd->name,
				ovb_res_name((enum ovb_res)p[i].r), v,
				ovb_res_rate_unit((enum ovb_res)p[i].r), p[i].range);
	}
}

static int
read_node(struct ovb_lex *lx, struct ovb_cluster *c)
{
	int st = ovb_arity(lx, 6, -1, "node NAME CPU cpu NET B/s [net-rx RX B/s] "
		"[mem M B [mem-pool P B]] [KEY=VALUE...]");
	if (st || (st = ovb_tok_name(lx, 1, "node name")))
		return st;
	size_t dup = ovb_names_get(&c->byname, lx->tok[1]);
	if (dup != OVB_NONE)
		return ovb_err(lx, "node '%s' is defined twice (first at line %lu)",
			lx->tok[1], c->node[dup].line);
	double cap[OVB_NCAP] = { 0 };
	if ((st = ovb_tok_pos(lx, 2, "node CPU capacity", &cap[OVB_CPU])) ||
	    (st = ovb_tok_unit(lx, 3, "cpu")) ||
	    (st = ovb_tok_pos(lx, 4, "node network capacity", &cap[OVB_NET])) ||
	    (st = ovb_tok_unit(lx, 5, "B/s")))
		return st;
	int from = 6;
	if (lx->ntok > 6 && !strcmp(lx->tok[6], "net-rx")) {
		if (lx->ntok < 9)
			return ovb_err(lx, "node: net-rx needs a capacity and its "
				"unit: net-rx RX B/s");
		if ((st = ovb_tok_pos(lx, 7, "node receive capacity",
		    &cap[OVB_NETRX])) || (st = ovb_tok_unit(lx, 8, "B/s")))
			return st;
		from = 9;
	}
	double pool = 0;
	if (lx->ntok > from && !strcmp(lx->tok[from], "mem")) {
		if (lx->ntok < from + 3)
			return ovb_err(lx, "node: mem needs a capacity and its "
				"unit: mem M B");
		if ((st = ovb_tok_pos(lx, from + 1, "node memory capacity",
		    &cap[OVB_MEM])) || (st = ovb_tok_unit(lx, from + 2, "B")))
			return st;
		from += 3;
		if (lx->ntok > from && !strcmp(lx->tok[from], "mem-pool")) {
			if (lx->ntok < from + 3)
				return ovb_err(lx, "node: mem-pool needs a size and "
					"its unit: mem-pool P B");
			if ((st = ovb_tok_nonneg(lx, from + 1, "node memory pool",
			    &pool)) || (st = ovb_tok_unit(lx, from + 2, "B")))
				return st;
			from += 3;
		}
	} else if (lx->ntok > from && !strcmp(lx->tok[from], "mem-pool"))
		return ovb_err(lx, "node: mem-pool without a mem capacity "
			"before it (mem M B mem-pool P B)");
	if (c->n && (cap[OVB_MEM] > 0) != (c->node[0].cap[OVB_MEM] > 0))
		return ovb_err(lx, "node '%s' gives %s mem capacity but node "
			"'%s' (line %lu) %s: give it on every node or on none",
			lx->tok[1], cap[OVB_MEM] > 0 ? "a" : "no",
			c->node[0].name, c->node[0].line,
			cap[OVB_MEM] > 0 ? "does not" : "does");
	if (c->n && (cap[OVB_NETRX] > 0) != (c->node[0].cap[OVB_NETRX] > 0))
		return ovb_err(lx, "node '%s' gives %s net-rx capacity but node "
			"'%s' (line %lu) %s: give it on every node or on none",
			lx->tok[1], cap[OVB_NETRX] > 0 ? "a" : "no",
			c->node[0].name, c->node[0].line,
			cap[OVB_NETRX] > 0 ? "does not" : "does");
	struct ovb_node *nd = OVB_PUSH(c->node, c->n, c->cap);
	memset(nd, 0, sizeof *nd);
	nd->name = ovb_xstrdup(lx->tok[1]);
	nd->line = lx->line;
	memcpy(nd->cap, cap, sizeof cap);
	nd->pool = pool;
	ovb_names_add(&c->byname, nd->name, c->n - 1);
	return read_labels(lx, nd, from);
}

int
ovb_cluster_read(struct ovb_lex *lx, struct ovb_cluster *c)
{
	memset(c, 0, sizeof *c);
	int st = ovb_magic(lx, "cluster");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		if (strcmp(lx->tok[0], "node") == 0)
			st = read_node(lx, c);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-cluster "
				"file (expected node)", lx->tok[0]);
	}
	if (!st && c->n == 0)
		st = ovb_err(lx, "no nodes");
	/* a valid file: each node outside real hardware a warning */
	for (size_t i = 0; !st && ovb_cluster_hw_warn && i < c->n; i++)
		plausible(lx, &c->node[i]);
	return st;
}

int
ovb_cluster_write(FILE *f, const struct ovb_cluster *c)
{
	ovb_put_magic(f, "cluster");
	fprintf(f, "# node NAME CPU cpu NET B/s%s%s [KEY=VALUE...]\n",
		ovb_cluster_nres(c) == 3 ? " net-rx RX B/s" : "",
		ovb_cluster_has_mem(c) ? " mem M B [mem-pool P B]" : "");
	for (size_t i = 0; i < c->n; i++) {
		const struct ovb_node *nd = &c->node[i];
		fprintf(f, "node %s", nd->name);
		ovb_put_real(f, nd->cap[OVB_CPU]);
		fputs(" cpu", f);
		ovb_put_real(f, nd->cap[OVB_NET]);
		fputs(" B/s", f);
		if (nd->cap[OVB_NETRX] > 0) {
			fputs(" net-rx", f);
			ovb_put_real(f, nd->cap[OVB_NETRX]);
			fputs(" B/s", f);
		}
		if (nd->cap[OVB_MEM] > 0) {
			fputs(" mem", f);
			ovb_put_real(f, nd->cap[OVB_MEM]);
			fputs(" B", f);
			if (nd->pool > 0) {
				fputs(" mem-pool", f);
				ovb_put_real(f, nd->pool);
				fputs(" B", f);
			}
		}
		for (size_t j = 0; j < nd->nlabel; j++)
			fprintf(f, " %s", nd->label[j]);
		fputc('\n', f);
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_cluster_free(struct ovb_cluster *c)
{
	for (size_t i = 0; i < c->n; i++) {
		for (size_t j = 0; j < c->node[i].nlabel; j++)
			free(c->node[i].label[j]);
		free(c->node[i].label);
		free(c->node[i].name);
	}
	free(c->node);
	ovb_names_free(&c->byname);
	memset(c, 0, sizeof *c);
}
