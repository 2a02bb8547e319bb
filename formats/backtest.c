/* backtest.c: format ovb-backtest, a backtest of placement methods (spec:
 * backtest.md).
 *
 *	config ID METHOD CPUS O TRAIN REPLAY rolling|rolling:M|compact:M|
 *	       consolidate:C|afresh|one-shot PERIODS
 *	       MEM POOL
 *	valid ID T
 *	period ID K START END PLACED REJECTED NODES MOVED
 *	place ID K VM NODE
 *	node ID K NODE VMS SLOTS OVER held|broken|missing MSLOTS MOVER MSTATUS
 *	bound ID K NODES CPU MEM
 *	oom ID K VM NODE KILLS LIMIT TPEAK RPEAK seen|unseen
 *	summary ID PLACED NODES DENSITY VS-PEAK HELD BROKEN MISSING WORST MOVED
 *	        MHELD MBROKEN MMISSING MWORST MOVER OOM KILLS
 *	gap ID CLOSED PCT HINDSIGHT PCT-PLACED HINDSIGHT-PLACED
 *
 * Invariants after a successful read: every record after a config belongs
 * to it (its ID) and to its latest period (K, counting from 1); a period's
 * PLACED is its number of place records, NODES its number of node records,
 * each node record's VMS the place records naming the node; a node's
 * status follows from its counts (missing: SLOTS 0; held: OVER/SLOTS <= O
 * exactly); a summary closes its config after PERIODS periods, its counts
 * are the periods' sums, DENSITY = PLACED/NODES (0 without nodes) and
 * WORST the largest OVER/SLOTS of the nodes not missing, as doubles.
 * Memory likewise (MSTATUS none exactly when MEM is 0); an oom record
 * names a VM placed on NODE in its period, after the node records, with
 * RPEAK > LIMIT and unseen exactly when RPEAK > TPEAK; the summary's OOM
 * and KILLS count them and sum their KILLS.  A bound record, at most one a
 * period, after its node records and before its oom records, has NODES =
 * max(1, CPU, MEM) (all 0 without placed VMs) and MEM 0 when memory is not
 * modeled or the plan is repaired (rolling:M).  A gap record, at most one
 * a config, follows its summary, with PCT > HINDSIGHT and CLOSED = (PCT -
 * NODES) / (PCT - HINDSIGHT) in doubles, NODES the summary's. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

/* The plan kinds, rows: the PLAN field's name (a counted kind: the name
 * and its M or C), and the config's flags it sets. */
static const struct plan_kind {
	const char *name;
	bool counted, rolling, afresh, repair, compact;
} plans[] = {
	{ "rolling", false, true, false, false, false },
	{ "rolling:", true, true, false, true, false },
	{ "compact:", true, true, false, true, true },
	{ "consolidate:", true, true, false, false, true },
	{ "afresh", false, true, true, false, false },
	{ "one-shot", false, false, false, false, false },
};

static bool
plan_is(const struct plan_kind *k, const struct ovb_bt_config *c)
{
	return k->rolling == c->rolling && k->afresh == c->afresh &&
		k->repair == c->repair && k->compact == c->compact;
}

/* Sets c's plan from the PLAN field pl; false: no such plan. */
static bool
plan_parse(const char *pl, struct ovb_bt_config *c)
{
	for (size_t i = 0; i < sizeof plans / sizeof *plans; i++) {
		const struct plan_kind *k = &plans[i];
		size_t n = strlen(k->name);
		if (k->counted ? strncmp(pl, k->name, n) ||
		    !ovb_parse_u64(pl + n, &c->max_moves) : strcmp(pl, k->name))
			continue;
		c->rolling = k->rolling;
		c->afresh = k->afresh;
		c->repair = k->repair;
		c->compact = k->compact;
		return true;
	}
	return false;
}

static const char *const status_name[] = { "held", "broken", "missing",
	"none" };

const char *
ovb_bt_status_name(enum ovb_bt_status s)
{
	return status_name[s];
}

/* The status named tok (none: "none" too, memory's without memory), or
 * -1. */
static int
status_of(const char *tok, bool none)
{
	for (int i = 0; i < (none ? 4 : 3); i++)
		if (!strcmp(tok, status_name[i]))
			return i;
	return -1;
}

bool
ovb_bt_held(uint64_t over, uint64_t slots, double O)
{
	return ovb_frac_le(over, slots, O);
}

struct rd {
	struct ovb_backtest *b;
	struct ovb_names ids;
	struct ovb_names vms, nodes;    /* of the current period */
	struct ovb_names prev;          /* the period before's VMs, if of
					 * the same configuration */
	struct ovb_names tvms, tnodes;  /* the held-out test's */
	struct ovb_names ooms;          /* its oom records' VMs */
	bool open;                      /* a config awaits its summary */
	bool summed;                    /* the last config has its summary */
	int form;                       /* 0 unknown, 1 with FULL/PARTIAL,
					 * 2 without (b->every) */
	bool in_period;
	bool in_test;                   /* after heldout, before valid or
					 * a period */
};

static int end_test(struct rd *r, struct ovb_lex *lx);

static int owner(struct rd *r, struct ovb_lex *lx, bool want_period);

/* bound ID K NODES CPU MEM, after the period's node records. */
static int
read_bound(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 6, 6, "bound ID K NODES CPU MEM");
	if (!st)
		st = owner(r, lx, true);
	uint64_t n, c, m;
	if (!st)
		st = ovb_tok_u64(lx, 3, "bound NODES", &n);
	if (!st)
		st = ovb_tok_u64(lx, 4, "bound CPU", &c);
	if (!st)
		st = ovb_tok_u64(lx, 5, "bound MEM", &m);
	if (st)
		return st;
	struct ovb_bt_period *p = &b->per[b->nper - 1];   /* owner: one */
	if (p->has_bound)
		return ovb_err(lx, "bound: given twice in period %s",
			lx->tok[2]);
	if (r->ooms.n)
		return ovb_err(lx, "bound: after the period's oom records");
	const struct ovb_bt_config *cf = &b->conf[p->config];
	if (m && (!(cf->mem > 0) || cf->repair))
		return ovb_err(lx, "bound: MEM %s is not 0, but the memory "
			"limits bound no %s", lx->tok[5], cf->repair ?
			"plan repaired by at most M moves (rolling:M, compact:M)" :
			"placement without memory (MEM 0)");
	uint64_t want = c > m ? c : m;   /* CPU >= 1 when VMs are placed */
	if (!p->placed && (c || m))
		return ovb_err(lx, "bound: CPU and MEM must be 0 in a period "
			"without placed VMs");
	if (p->placed && !c)
		return ovb_err(lx, "bound: CPU must be at least 1 in a period "
			"with placed VMs");
	if (n != want)
		return ovb_err(lx, "bound: NODES is %s, not max(1, CPU, MEM) = "
			"%llu", lx->tok[3], (unsigned long long)want);
	p->has_bound = true;
	p->bound = n;
	p->bcpu = c;
	p->bmem = m;
	return 0;
}

/* The ID and K of a record: the current config, and its latest period
 * when want_period. */
static int
owner(struct rd *r, struct ovb_lex *lx, bool want_period)
{
	struct ovb_backtest *b = r->b;
	if (!r->open)
		return ovb_err(lx, "%s record outside a configuration (no "
			"config record before it, or after its summary)",
			lx->tok[0]);
	const struct ovb_bt_config *c = &b->conf[b->nconf - 1];
	if (strcmp(lx->tok[1], c->id))
		return ovb_err(lx, "%s: configuration '%s' is not the current "
			"one '%s'", lx->tok[0], lx->tok[1], c->id);
	if (!want_period)
		return 0;
	uint64_t k;
	int st = ovb_tok_u64(lx, 2, "period", &k);
	if (st)
		return st;
	if (!r->in_period || k != b->per[b->nper - 1].k)
		return ovb_err(lx, "%s: period %s is not the current period "
			"of '%s'", lx->tok[0], lx->tok[2], c->id);
	return 0;
}

/* Checks the period that ends (its counts against its records). */
static int
end_period(struct rd *r, struct ovb_lex *lx)
{
	if (!r->in_period)
		return 0;
	struct ovb_backtest *b = r->b;
	const struct ovb_bt_period *p = &b->per[b->nper - 1];
	size_t npl = r->vms.n, nnode = r->nodes.n;
	int st = 0;
	if (p->placed != npl)
		st = ovb_err_at(lx->name, p->line, "period %s %llu: PLACED %llu "
			"but %zu place records", b->conf[p->config].id,
			(unsigned long long)p->k, (unsigned long long)p->placed,
			npl);
	else if (p->nodes != nnode)
		st = ovb_err_at(lx->name, p->line, "period %s %llu: NODES %llu "
			"but %zu node records", b->conf[p->config].id,
			(unsigned long long)p->k, (unsigned long long)p->nodes,
			nnode);
	else
		for (size_t i = b->npl; i-- > 0 && b->pl[i].period ==
				b->nper - 1;)
			if (ovb_names_get(&r->nodes, b->pl[i].node) == OVB_NONE) {
				st = ovb_err_at(lx->name, p->line, "period %s "
					"%llu: vm %s is placed on node %s, "
					"which has no node record",
					b->conf[p->config].id,
					(unsigned long long)p->k, b->pl[i].vm,
					b->pl[i].node);
				break;
			}
	/* MOVED: the VMs placed in this period and the one before on
	 * different nodes (0 in a configuration's first period, and in a
	 * one-shot plan: the yardsticks' packings, made anew every period
	 * of one, are not moves) */
	const struct ovb_bt_config *c = &b->conf[p->config];
	bool after = b->nper >= 2 && b->per[b->nper - 2].config == p->config;
	uint64_t moved = 0;
	for (size_t i = b->npl; !st && after && i-- > 0 &&
			b->pl[i].period == b->nper - 1;) {
		size_t j = ovb_names_get(&r->prev, b->pl[i].vm);
		moved += j != OVB_NONE && strcmp(b->pl[j].node, b->pl[i].node);
	}
	uint64_t want = c->rolling ? moved : 0;
	if (!st && want != moved && !ovb_bt_yardstick(c->method))
		st = ovb_err_at(lx->name, p->line, "period %s %llu: %llu VMs "
			"are on other nodes than in the period before, in a "
			"one-shot plan", c->id, (unsigned long long)p->k,
			(unsigned long long)moved);
	else if (!st && want != p->moved)
		st = ovb_err_at(lx->name, p->line, "period %s %llu: MOVED %llu "
			"but %llu VMs are on other nodes than in the period "
			"before%s", c->id, (unsigned long long)p->k,
			(unsigned long long)p->moved, (unsigned long long)want,
			c->rolling ? "" : " (a one-shot plan moves nothing)");
	ovb_names_free(&r->prev);
	r->prev = r->vms;
	r->vms = (struct ovb_names){ 0 };
	ovb_names_free(&r->nodes);
	ovb_names_free(&r->ooms);
	r->in_period = false;
	return st;
}

static int
read_config(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	if (r->open)
		return ovb_err(lx, "config: configuration '%s' has no summary",
			b->conf[b->nconf - 1].id);
	int st = ovb_arity(lx, 11, 12, "config ID METHOD CPUS O TRAIN REPLAY "
		"rolling|rolling:M|compact:M|afresh|one-shot PERIODS MEM "
		"POOL [promise]");
	struct ovb_bt_config c = { 0 };
	if (!st)
		st = ovb_tok_name(lx, 1, "configuration id");
	if (!st)
		st = ovb_tok_name(lx, 2, "method");
	if (!st)
		st = ovb_tok_pos(lx, 3, "CPUS", &c.cpus);
	if (!st)
		st = ovb_tok_prob(lx, 4, "O", &c.O);
	if (!st && c.O >= 1)
		st = ovb_err(lx, "O: %s is not below 1", lx->tok[4]);
	if (!st)
		st = ovb_tok_u64(lx, 5, "TRAIN", &c.train);
	if (!st)
		st = ovb_tok_u64(lx, 6, "REPLAY", &c.replay);
	if (!st && (!c.train || !c.replay))
		st = ovb_err(lx, "config: TRAIN and REPLAY must be positive");
	if (!st && !plan_parse(lx->tok[7], &c))
		st = ovb_err(lx, "config: '%s' is not rolling, rolling:M, "
			"compact:M, consolidate:C, afresh or one-shot", lx->tok[7]);
	if (!st)
		st = ovb_tok_u64(lx, 8, "PERIODS", &c.periods);
	if (!st)
		st = ovb_tok_nonneg(lx, 9, "MEM", &c.mem);
	if (!st)
		st = ovb_tok_nonneg(lx, 10, "POOL", &c.pool);
	if (!st && !c.mem && c.pool)
		st = ovb_err(lx, "config: POOL %s without memory (MEM 0)",
			lx->tok[10]);
	if (!st && lx->ntok == 12) {
		if (strcmp(lx->tok[11], "promise"))
			st = ovb_err(lx, "config: '%s' is not promise (the memory "
				"rule; none: pool)", lx->tok[11]);
		else if (!c.mem)
			st = ovb_err(lx, "config: promise without memory (MEM 0)");
		c.promise = true;
	}
	if (st)
		return st;
	size_t dup = ovb_names_get(&r->ids, lx->tok[1]);
	if (dup != OVB_NONE)
		return ovb_err(lx, "configuration '%s' given twice (first at "
			"line %lu)", lx->tok[1], b->conf[dup].line);
	c.id = ovb_xstrdup(lx->tok[1]);
	c.method = ovb_xstrdup(lx->tok[2]);
	c.line = lx->line;
	*OVB_PUSH(b->conf, b->nconf, b->capconf) = c;
	ovb_names_add(&r->ids, c.id, b->nconf - 1);
	r->open = true;
	r->summed = false;
	return 0;
}

static int
read_valid(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 3, 3, "valid ID T");
	if (!st)
		st = owner(r, lx, false);
	if (st)
		return st;
	struct ovb_bt_config *c = &b->conf[b->nconf - 1];
	if (c->rolling)
		return ovb_err(lx, "valid: configuration '%s' is rolling (a "
			"validity is stated for one-shot plans)", c->id);
	if (c->valid_until)
		return ovb_err(lx, "valid: given twice for '%s'", c->id);
	if (b->nper && b->per[b->nper - 1].config == b->nconf - 1)
		return ovb_err(lx, "valid: after the periods of '%s'", c->id);
	uint64_t t;
	if ((st = ovb_tok_u64(lx, 2, "valid T", &t)))
		return st;
	if (!t)
		return ovb_err(lx, "valid: T must be positive");
	if ((st = end_test(r, lx)))
		return st;
	if (c->has_test) {
		uint64_t cap = ovb_bt_test_cap(c->test_mid, c->test_end,
			c->test_passed);
		if (t > cap)
			return ovb_err(lx, "valid: T %s is past %llu, the held-out "
				"test's end%s", lx->tok[2],
				(unsigned long long)cap, c->test_passed ?
				" plus the span it held for" : " (it failed: "
				"a node broke or none was measured)");
	}
	c->valid_until = t;
	return 0;
}

/* heldout ID MID END: after a one-shot config, before its valid and
 * periods. */
static int
read_heldout(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 4, 4, "heldout ID MID END");
	if (!st)
		st = owner(r, lx, false);
	if (st)
		return st;
	struct ovb_bt_config *c = &b->conf[b->nconf - 1];
	if (c->rolling)
		return ovb_err(lx, "heldout: '%s' is not one-shot (the test "
			"is of one-shot plans)", c->id);
	if (c->has_test || c->valid_until || (b->nper &&
	    b->per[b->nper - 1].config == b->nconf - 1))
		return ovb_err(lx, "heldout: after the configuration's "
			"heldout, valid or period records");
	uint64_t mid, end;
	if ((st = ovb_tok_u64(lx, 2, "MID", &mid)) ||
	    (st = ovb_tok_u64(lx, 3, "END", &end)))
		return st;
	if (mid >= end)
		return ovb_err(lx, "heldout: MID %s is not before END %s",
			lx->tok[2], lx->tok[3]);
	if (end - mid > c->train)
		return ovb_err(lx, "heldout: [MID, END) is longer than the "
			"training window %llu s", (unsigned long long)c->train);
	c->has_test = true;
	c->test_mid = mid;
	c->test_end = end;
	r->in_test = true;
	return 0;
}

/* hplace ID VM NODE, hnode ID NODE VMS SLOTS OVER STATUS: the held-out
 * test's plan, then its replay. */
static int
read_hplace(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 4, 4, "hplace ID VM NODE");
	if (!st)
		st = owner(r, lx, false);
	if (!st && !r->in_test)
		st = ovb_err(lx, "hplace: not after a heldout record");
	if (!st && r->tnodes.n)
		st = ovb_err(lx, "hplace: after the test's hnode records");
	if (!st)
		st = ovb_tok_name(lx, 2, "vm name");
	if (!st)
		st = ovb_tok_name(lx, 3, "node name");
	if (st)
		return st;
	if (ovb_names_get(&r->tvms, lx->tok[2]) != OVB_NONE)
		return ovb_err(lx, "hplace: vm %s placed twice", lx->tok[2]);
	struct ovb_bt_place *p = OVB_PUSH(b->tpl, b->ntpl, b->captpl);
	p->period = b->nconf - 1;
	p->vm = ovb_xstrdup(lx->tok[2]);
	p->node = ovb_xstrdup(lx->tok[3]);
	ovb_names_add(&r->tvms, p->vm, b->ntpl - 1);
	return 0;
}

static int status_agrees(struct ovb_lex *lx, const char *what, int k,
	uint64_t slots, uint64_t over, double O, enum ovb_bt_status got);

static int
read_hnode(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 7, 7, "hnode ID NODE VMS SLOTS OVER "
		"held|broken|missing");
	if (!st)
		st = owner(r, lx, false);
	if (!st && !r->in_test)
		st = ovb_err(lx, "hnode: not after a heldout record");
	if (!st)
		st = ovb_tok_name(lx, 2, "node name");
	struct ovb_bt_node n = { .period = b->nconf - 1,
		.mstatus = OVB_BT_NONE };
	if (!st)
		st = ovb_tok_u64(lx, 3, "VMS", &n.vms);
	if (!st)
		st = ovb_tok_u64(lx, 4, "SLOTS", &n.slots);
	if (!st)
		st = ovb_tok_u64(lx, 5, "OVER", &n.over);
	if (st)
		return st;
	int s = status_of(lx->tok[6], false);
	if (s < 0)
		return ovb_err(lx, "hnode: '%s' is not held, broken or "
			"missing", lx->tok[6]);
	n.status = (enum ovb_bt_status)s;
	if (n.over > n.slots)
		return ovb_err(lx, "hnode: OVER %s exceeds SLOTS %s",
			lx->tok[5], lx->tok[4]);
	if ((st = status_agrees(lx, "", 4, n.slots, n.over,
	    b->conf[b->nconf - 1].O, n.status)))
		return st;
	uint64_t vms = 0;
	for (size_t i = b->ntpl; i-- > 0 && b->tpl[i].period == b->nconf - 1;)
		vms += !strcmp(b->tpl[i].node, lx->tok[2]);
	if (!vms || vms != n.vms)
		return ovb_err(lx, "hnode: VMS is %s but %llu hplace records "
			"name node %s", lx->tok[3], (unsigned long long)vms,
			lx->tok[2]);
	if (ovb_names_get(&r->tnodes, lx->tok[2]) != OVB_NONE)
		return ovb_err(lx, "hnode: node %s given twice", lx->tok[2]);
	n.node = ovb_xstrdup(lx->tok[2]);
	ovb_names_add(&r->tnodes, n.node, b->ntnode);
	*OVB_PUSH(b->tnode, b->ntnode, b->captnode) = n;
	return 0;
}

/* Ends the held-out test (at valid, period or summary): every hplace
 * node has an hnode record; passed when some node was measured and none
 * broke. */
static int
end_test(struct rd *r, struct ovb_lex *lx)
{
	if (!r->in_test)
		return 0;
	struct ovb_backtest *b = r->b;
	struct ovb_bt_config *c = &b->conf[b->nconf - 1];
	int st = 0;
	for (size_t i = b->ntpl; !st && i-- > 0 &&
	     b->tpl[i].period == b->nconf - 1;)
		if (ovb_names_get(&r->tnodes, b->tpl[i].node) == OVB_NONE)
			st = ovb_err(lx, "heldout: vm %s is placed on node %s, "
				"which has no hnode record", b->tpl[i].vm,
				b->tpl[i].node);
	size_t first = b->ntnode;
	while (first > 0 && b->tnode[first - 1].period == b->nconf - 1)
		first--;
	/* no hnode record yet: tnode is NULL, not offset */
	c->test_passed = b->ntnode > first && ovb_bt_test_passed(b->tnode +
		first, b->ntnode - first);
	ovb_names_free(&r->tvms);
	ovb_names_free(&r->tnodes);
	r->in_test = false;
	return st;
}

static int
read_period(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 9, 9, "period ID K START END PLACED REJECTED "
		"NODES MOVED");
	if (!st)
		st = owner(r, lx, false);
	if (!st)
		st = end_test(r, lx);
	if (!st)
		st = end_period(r, lx);
	struct ovb_bt_period p = { .config = b->nconf - 1, .line = lx->line };
	uint64_t *f[] = { &p.k, &p.start, &p.end, &p.placed, &p.rejected,
		&p.nodes, &p.moved };
	static const char *const what[] = { "K", "START", "END", "PLACED",
		"REJECTED", "NODES", "MOVED" };
	for (int i = 0; !st && i < 7; i++)
		st = ovb_tok_u64(lx, 2 + i, what[i], f[i]);
	if (st)
		return st;
	uint64_t want = b->nper && b->per[b->nper - 1].config == p.config ?
		b->per[b->nper - 1].k + 1 : 1;
	if (p.k != want)
		return ovb_err(lx, "period: K is %s, expected %llu", lx->tok[2],
			(unsigned long long)want);
	if (p.start >= p.end)
		return ovb_err(lx, "period: START %s is not before END %s",
			lx->tok[3], lx->tok[4]);
	if (p.moved > p.placed)
		return ovb_err(lx, "period: MOVED %s exceeds PLACED %s",
			lx->tok[8], lx->tok[5]);
	const struct ovb_bt_config *cf = &b->conf[p.config];
	/* the hindsight is re-packed every period, whatever the plan */
	char pl[32];
	if (cf->repair && strcmp(cf->method, "hindsight") &&
	    p.moved > cf->max_moves)
		return ovb_err(lx, "period: MOVED %s exceeds the %llu moves of "
			"%s", lx->tok[8], (unsigned long long)cf->max_moves,
			ovb_bt_plan_name(cf, pl));
	*OVB_PUSH(b->per, b->nper, b->capper) = p;
	r->in_period = true;
	return 0;
}

static int
read_place(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 5, 5, "place ID K VM NODE");
	if (!st)
		st = owner(r, lx, true);
	if (!st)
		st = ovb_tok_name(lx, 3, "vm name");
	if (!st)
		st = ovb_tok_name(lx, 4, "node name");
	if (st)
		return st;
	if (r->nodes.n)
		return ovb_err(lx, "place: after the period's node records");
	if (ovb_names_get(&r->vms, lx->tok[3]) != OVB_NONE)
		return ovb_err(lx, "place: vm %s placed twice in period %s",
			lx->tok[3], lx->tok[2]);
	struct ovb_bt_place *p = OVB_PUSH(b->pl, b->npl, b->cappl);
	p->period = b->nper - 1;
	p->vm = ovb_xstrdup(lx->tok[3]);
	p->node = ovb_xstrdup(lx->tok[4]);
	ovb_names_add(&r->vms, p->vm, b->npl - 1);
	return 0;
}

/* A node's status (tokens k, k+1, k+2: SLOTS, OVER, the status) as its
 * counts give it at O: 0, or 65 naming both. */
static int
status_agrees(struct ovb_lex *lx, const char *what, int k, uint64_t slots,
	uint64_t over, double O, enum ovb_bt_status got)
{
	enum ovb_bt_status want = !slots ? OVB_BT_MISSING :
		ovb_bt_held(over, slots, O) ? OVB_BT_HELD : OVB_BT_BROKEN;
	if (want == got)
		return 0;
	char o[32];
	return ovb_err(lx, "%s: %s%s slots, %s over at O = %s is %s, not %s",
		lx->tok[0], what, lx->tok[k], lx->tok[k + 1], ovb_fmt_real(o, O),
		status_name[want], lx->tok[k + 2]);
}

/* The form of a node or summary record (ntok: short, without FULL or
 * PARTIAL, or long): one for the whole file. */
static int
form_agrees(struct rd *r, struct ovb_lex *lx, int shortn)
{
	int f = lx->ntok == shortn ? 2 : 1;
	if (!r->form) {
		r->form = f;
		r->b->every = f == 2;
	} else if (r->form != f)
		return ovb_err(lx, "%s: %s, unlike the file's earlier records "
			"(one form a file: with or without FULL and PARTIAL)",
			lx->tok[0], f == 2 ? "without FULL or PARTIAL" :
			"with FULL or PARTIAL");
	return 0;
}

static int
read_node(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 11, 12, "node ID K NODE VMS SLOTS OVER "
		"held|broken|missing MSLOTS MOVER MSTATUS [FULL]");
	if (!st)
		st = form_agrees(r, lx, 11);
	if (!st)
		st = owner(r, lx, true);
	if (!st)
		st = ovb_tok_name(lx, 3, "node name");
	struct ovb_bt_node n = { .period = b->nper - 1 };
	if (!st)
		st = ovb_tok_u64(lx, 4, "VMS", &n.vms);
	if (!st)
		st = ovb_tok_u64(lx, 5, "SLOTS", &n.slots);
	if (!st)
		st = ovb_tok_u64(lx, 6, "OVER", &n.over);
	if (!st)
		st = ovb_tok_u64(lx, 8, "MSLOTS", &n.mslots);
	if (!st)
		st = ovb_tok_u64(lx, 9, "MOVER", &n.mover);
	if (!st && lx->ntok == 12)
		st = ovb_tok_u64(lx, 11, "FULL", &n.full);
	else
		n.full = n.slots;
	if (st)
		return st;
	if (r->ooms.n)
		return ovb_err(lx, "node: after the period's oom records");
	if (b->per[b->nper - 1].has_bound)
		return ovb_err(lx, "node: after the period's bound record");
	int s = status_of(lx->tok[7], false),
		ms = status_of(lx->tok[10], true);
	if (s < 0)
		return ovb_err(lx, "node: '%s' is not held, broken or missing",
			lx->tok[7]);
	if (ms < 0)
		return ovb_err(lx, "node: MSTATUS '%s' is not held, broken, "
			"missing or none", lx->tok[10]);
	n.status = (enum ovb_bt_status)s;
	n.mstatus = (enum ovb_bt_status)ms;
	if (ovb_names_get(&r->nodes, lx->tok[3]) != OVB_NONE)
		return ovb_err(lx, "node: %s given twice in period %s",
			lx->tok[3], lx->tok[2]);
	if (n.over > n.slots)
		return ovb_err(lx, "node: OVER %s exceeds SLOTS %s", lx->tok[6],
			lx->tok[5]);
	if (n.full > n.slots)
		return ovb_err(lx, "node: FULL %s exceeds SLOTS %s", lx->tok[11],
			lx->tok[5]);
	uint64_t on = 0;
	for (size_t i = b->npl; i-- > 0 && b->pl[i].period == b->nper - 1;)
		on += !strcmp(b->pl[i].node, lx->tok[3]);
	if (on != n.vms)
		return ovb_err(lx, "node: VMS is %s but %llu place records name "
			"node %s", lx->tok[4], (unsigned long long)on,
			lx->tok[3]);
	if (!n.vms)
		return ovb_err(lx, "node: a node without VMs");
	double O = b->conf[b->nconf - 1].O;
	if ((st = status_agrees(lx, "", 5, n.slots, n.over, O, n.status)))
		return st;
	if (n.mover > n.mslots)
		return ovb_err(lx, "node: MOVER %s exceeds MSLOTS %s",
			lx->tok[9], lx->tok[8]);
	if (!(b->conf[b->nconf - 1].mem > 0)) {
		if (n.mslots || n.mstatus != OVB_BT_NONE)
			return ovb_err(lx, "node: memory counts without memory "
				"(MEM 0): MSLOTS 0, MOVER 0 and MSTATUS none "
				"expected");
	} else if ((st = status_agrees(lx, "memory: ", 8, n.mslots, n.mover,
	    O, n.mstatus)))
		return st;
	n.node = ovb_xstrdup(lx->tok[3]);
	*OVB_PUSH(b->node, b->nnode, b->capnode) = n;
	ovb_names_add(&r->nodes, n.node, b->nnode - 1);
	return 0;
}

static int
read_oom(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 10, 10, "oom ID K VM NODE KILLS LIMIT TPEAK "
		"RPEAK seen|unseen");
	if (!st)
		st = owner(r, lx, true);
	if (!st)
		st = ovb_tok_name(lx, 3, "vm name");
	if (!st)
		st = ovb_tok_name(lx, 4, "node name");
	struct ovb_bt_oom o = { .period = b->nper - 1 };
	if (!st)
		st = ovb_tok_u64(lx, 5, "KILLS", &o.kills);
	if (!st)
		st = ovb_tok_nonneg(lx, 6, "LIMIT", &o.limit);
	if (!st)
		st = ovb_tok_nonneg(lx, 7, "TPEAK", &o.tpeak);
	if (!st)
		st = ovb_tok_nonneg(lx, 8, "RPEAK", &o.rpeak);
	if (st)
		return st;
	if (!b->conf[b->nconf - 1].mem)
		return ovb_err(lx, "oom: memory is not modeled (MEM 0)");
	if (!r->nodes.n)
		return ovb_err(lx, "oom: before the period's node records");
	size_t pl = ovb_names_get(&r->vms, lx->tok[3]);
	if (pl == OVB_NONE || strcmp(b->pl[pl].node, lx->tok[4]))
		return ovb_err(lx, "oom: vm %s is not placed on node %s in "
			"period %s", lx->tok[3], lx->tok[4], lx->tok[2]);
	if (ovb_names_get(&r->ooms, lx->tok[3]) != OVB_NONE)
		return ovb_err(lx, "oom: vm %s given twice in period %s",
			lx->tok[3], lx->tok[2]);
	if (!o.kills)
		return ovb_err(lx, "oom: KILLS must be positive");
	if (!(o.rpeak > o.limit))
		return ovb_err(lx, "oom: RPEAK %s does not exceed LIMIT %s",
			lx->tok[8], lx->tok[6]);
	if (!strcmp(lx->tok[9], "unseen"))
		o.unseen = true;
	else if (strcmp(lx->tok[9], "seen"))
		return ovb_err(lx, "oom: '%s' is not seen or unseen",
			lx->tok[9]);
	if (o.unseen != (o.rpeak > o.tpeak))
		return ovb_err(lx, "oom: RPEAK %s %s TPEAK %s: %s, not %s",
			lx->tok[8], o.unseen ? "<=" : ">", lx->tok[7],
			o.unseen ? "seen" : "unseen", lx->tok[9]);
	o.vm = ovb_xstrdup(lx->tok[3]);
	o.node = ovb_xstrdup(lx->tok[4]);
	*OVB_PUSH(b->oom, b->noom, b->capoom) = o;
	ovb_names_add(&r->ooms, o.vm, b->noom - 1);
	return 0;
}

static int
read_summary(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 18, 19, "summary ID PLACED NODES DENSITY "
		"VS-PEAK HELD BROKEN MISSING WORST MOVED MHELD MBROKEN MMISSING "
		"MWORST MOVER OOM KILLS [PARTIAL]");
	if (!st)
		st = form_agrees(r, lx, 18);
	if (!st)
		st = owner(r, lx, false);
	if (!st)
		st = end_test(r, lx);
	if (!st)
		st = end_period(r, lx);
	struct ovb_bt_summary s = { .config = b->nconf - 1 };
	if (!st)
		st = ovb_tok_u64(lx, 2, "PLACED", &s.placed);
	if (!st)
		st = ovb_tok_u64(lx, 3, "NODES", &s.nodes);
	if (!st)
		st = ovb_tok_nonneg(lx, 4, "DENSITY", &s.density);
	if (!st)
		st = ovb_tok_nonneg(lx, 5, "VS-PEAK", &s.vs_peak);
	if (!st)
		st = ovb_tok_u64(lx, 6, "HELD", &s.held);
	if (!st)
		st = ovb_tok_u64(lx, 7, "BROKEN", &s.broken);
	if (!st)
		st = ovb_tok_u64(lx, 8, "MISSING", &s.missing);
	if (!st)
		st = ovb_tok_nonneg(lx, 9, "WORST", &s.worst);
	if (!st)
		st = ovb_tok_u64(lx, 10, "MOVED", &s.moved);
	if (!st)
		st = ovb_tok_u64(lx, 11, "MHELD", &s.mheld);
	if (!st)
		st = ovb_tok_u64(lx, 12, "MBROKEN", &s.mbroken);
	if (!st)
		st = ovb_tok_u64(lx, 13, "MMISSING", &s.mmissing);
	if (!st)
		st = ovb_tok_nonneg(lx, 14, "MWORST", &s.mworst);
	if (!st)
		st = ovb_tok_u64(lx, 15, "MOVER", &s.mover);
	if (!st)
		st = ovb_tok_u64(lx, 16, "OOM", &s.oom);
	if (!st)
		st = ovb_tok_u64(lx, 17, "KILLS", &s.kills);
	if (!st && lx->ntok == 19)
		st = ovb_tok_u64(lx, 18, "PARTIAL", &s.partial);
	else
		s.partial = s.missing;
	if (st)
		return st;
	const struct ovb_bt_config *c = &b->conf[s.config];
	struct ovb_bt_summary w = { 0 };
	uint64_t nper = 0;
	for (size_t i = 0; i < b->nper; i++) {
		const struct ovb_bt_period *p = &b->per[i];
		if (p->config != s.config)
			continue;
		nper++;
		w.placed += p->placed;
		w.nodes += p->nodes;
		w.moved += p->moved;
	}
	for (size_t i = 0; i < b->nnode; i++) {
		const struct ovb_bt_node *n = &b->node[i];
		if (b->per[n->period].config != s.config)
			continue;
		w.held += n->status == OVB_BT_HELD;
		w.broken += n->status == OVB_BT_BROKEN;
		w.missing += n->status == OVB_BT_MISSING;
		w.partial += !n->full;
		if (n->status != OVB_BT_MISSING) {
			double f = (double)n->over / (double)n->slots;
			if (f > w.worst)
				w.worst = f;
		}
		w.mheld += n->mstatus == OVB_BT_HELD;
		w.mbroken += n->mstatus == OVB_BT_BROKEN;
		w.mmissing += n->mstatus == OVB_BT_MISSING;
		w.mover += n->mover;
		if (n->mslots) {
			double f = (double)n->mover / (double)n->mslots;
			if (f > w.mworst)
				w.mworst = f;
		}
	}
	for (size_t i = 0; i < b->noom; i++)
		if (b->per[b->oom[i].period].config == s.config) {
			w.oom++;
			w.kills += b->oom[i].kills;
		}
	w.density = w.nodes ? (double)w.placed / (double)w.nodes : 0;
	if (nper != c->periods)
		return ovb_err(lx, "summary: configuration '%s' has %llu periods, "
			"its config record says %llu", c->id,
			(unsigned long long)nper, (unsigned long long)c->periods);
	if (w.placed != s.placed || w.nodes != s.nodes || w.moved != s.moved ||
	    w.held != s.held || w.broken != s.broken ||
	    w.missing != s.missing || w.partial != s.partial)
		return ovb_err(lx, "summary: the counts are not the sums of the "
			"periods' (placed %llu, nodes %llu, held %llu, broken "
			"%llu, missing %llu, moved %llu, partial %llu)",
			(unsigned long long)w.placed,
			(unsigned long long)w.nodes, (unsigned long long)w.held,
			(unsigned long long)w.broken,
			(unsigned long long)w.missing,
			(unsigned long long)w.moved,
			(unsigned long long)w.partial);
	if (w.mheld != s.mheld || w.mbroken != s.mbroken ||
	    w.mmissing != s.mmissing || w.mover != s.mover ||
	    w.oom != s.oom || w.kills != s.kills)
		return ovb_err(lx, "summary: the memory counts are not the sums "
			"of the periods' (held %llu, broken %llu, missing %llu, "
			"over %llu, oom %llu, kills %llu)",
			(unsigned long long)w.mheld,
			(unsigned long long)w.mbroken,
			(unsigned long long)w.mmissing,
			(unsigned long long)w.mover, (unsigned long long)w.oom,
			(unsigned long long)w.kills);
	if (w.mworst != s.mworst) {
		char x[32];
		return ovb_err(lx, "summary: MWORST is %s from the records",
			ovb_fmt_real(x, w.mworst));
	}
	if (w.density != s.density || w.worst != s.worst) {
		char d[32], x[32];
		return ovb_err(lx, "summary: DENSITY and WORST are %s and %s "
			"from the records", ovb_fmt_real(d, w.density),
			ovb_fmt_real(x, w.worst));
	}
	*OVB_PUSH(b->sum, b->nsum, b->capsum) = s;
	r->open = false;
	r->summed = true;
	return 0;
}

double
ovb_bt_gap(uint64_t pct, uint64_t pp, uint64_t nodes, uint64_t placed,
	uint64_t hind, uint64_t hp)
{
	if (!pp)
		return ((double)pct - (double)nodes) / ((double)pct -
			(double)hind);
	/* times pp placed hp: (pct placed hp - nodes pp hp) / (pct placed hp
	 * - hind pp placed), exact in 128 bits (each count below 2^40, as
	 * the reader requires) */
	__int128 a = (__int128)pct * placed * hp,
		num = a - (__int128)nodes * pp * hp,
		den = a - (__int128)hind * pp * placed;
	/* below 2^53 both are doubles exactly: one correctly rounded
	 * division, as float(Fraction(num, den)) */
	const __int128 E53 = (__int128)1 << 53;
	if (num > -E53 && num < E53 && den > -E53 && den < E53)
		return (double)num / (double)den;
	return (double)((long double)num / (long double)den);
}

char *
ovb_bt_plan_name(const struct ovb_bt_config *c, char buf[32])
{
	for (size_t i = 0; i < sizeof plans / sizeof *plans; i++)
		if (plan_is(&plans[i], c)) {
			if (plans[i].counted)
				snprintf(buf, 32, "%s%llu", plans[i].name,
					(unsigned long long)c->max_moves);
			else
				snprintf(buf, 32, "%s", plans[i].name);
			break;
		}
	return buf;
}

bool
ovb_bt_yardstick(const char *method)
{
	static const char *const yardsticks[] = { "hindsight", "clairvoyant",
		"clairvoyant-pct" };
	for (size_t i = 0; i < sizeof yardsticks / sizeof *yardsticks; i++)
		if (!strcmp(method, yardsticks[i]))
			return true;
	return false;
}

bool
ovb_bt_test_passed(const struct ovb_bt_node *n, size_t k)
{
	bool seen = false;
	for (size_t i = 0; i < k; i++) {
		if (n[i].status == OVB_BT_BROKEN)
			return false;
		seen = seen || n[i].status != OVB_BT_MISSING;
	}
	return seen;
}

uint64_t
ovb_bt_test_cap(uint64_t mid, uint64_t end, bool passed)
{
	return end + (passed ? end - mid : 0);
}

bool
ovb_bt_has_gap(uint64_t pct, uint64_t pp, uint64_t hind, uint64_t hp)
{
	if (!pp)
		return pct > hind;
	return hp && (__int128)pct * hp > (__int128)hind * pp;
}

/* gap ID CLOSED PCT HINDSIGHT [PCT-PLACED HINDSIGHT-PLACED], after the
 * summary of its config. */
static int
read_gap(struct rd *r, struct ovb_lex *lx)
{
	struct ovb_backtest *b = r->b;
	int st = ovb_arity(lx, 5, 7, "gap ID CLOSED PCT HINDSIGHT "
		"[PCT-PLACED HINDSIGHT-PLACED]");
	if (!st && lx->ntok == 6)
		return ovb_err(lx, "gap: PCT-PLACED without HINDSIGHT-PLACED");
	if (st)
		return st;
	if (!r->summed || strcmp(lx->tok[1], b->conf[b->nconf - 1].id) ||
	    b->sum[b->nsum - 1].has_gap)
		return ovb_err(lx, "gap: '%s' is not the configuration whose "
			"summary is the last record before it, or has a gap "
			"record already", lx->tok[1]);
	struct ovb_bt_summary *s = &b->sum[b->nsum - 1];
	double closed;
	st = ovb_tok_real(lx, 2, "CLOSED", &closed);
	if (!st)
		st = ovb_tok_u64(lx, 3, "PCT", &s->gap_pct);
	if (!st)
		st = ovb_tok_u64(lx, 4, "HINDSIGHT", &s->gap_hind);
	if (!st && lx->ntok == 7)
		st = ovb_tok_u64(lx, 5, "PCT-PLACED", &s->gap_pct_placed);
	if (!st && lx->ntok == 7)
		st = ovb_tok_u64(lx, 6, "HINDSIGHT-PLACED",
			&s->gap_hind_placed);
	if (st)
		return st;
	const uint64_t GAPMAX = UINT64_C(1) << 40;
	if (lx->ntok == 7 && (!s->gap_pct_placed || !s->gap_hind_placed ||
	    !s->placed || s->gap_pct >= GAPMAX || s->gap_hind >= GAPMAX ||
	    s->gap_pct_placed >= GAPMAX || s->gap_hind_placed >= GAPMAX ||
	    s->nodes >= GAPMAX || s->placed >= GAPMAX))
		return ovb_err(lx, "gap: a placed count is 0 (the summary's "
			"PLACED, PCT-PLACED, HINDSIGHT-PLACED), or a count is "
			"2^40 or more");
	if (!ovb_bt_has_gap(s->gap_pct, s->gap_pct_placed, s->gap_hind,
	    s->gap_hind_placed))
		return ovb_err(lx, lx->ntok == 7 ? "gap: PCT/PCT-PLACED is not "
			"above HINDSIGHT/HINDSIGHT-PLACED: no gap to close" :
			"gap: PCT %llu is not above HINDSIGHT %llu: no gap to "
			"close", (unsigned long long)s->gap_pct,
			(unsigned long long)s->gap_hind);
	s->gap = ovb_bt_gap(s->gap_pct, s->gap_pct_placed, s->nodes, s->placed,
		s->gap_hind, s->gap_hind_placed);
	if (closed != s->gap)
		return ovb_err(lx, lx->ntok == 7 ? "gap: CLOSED is %s, but "
			"(PCT/PCT-PLACED - NODES/PLACED) / (PCT/PCT-PLACED - "
			"HINDSIGHT/HINDSIGHT-PLACED) is %.17g" : "gap: CLOSED is "
			"%s, but (PCT - NODES) / (PCT - HINDSIGHT) is %.17g",
			lx->tok[2], s->gap);
	s->has_gap = true;
	return 0;
}

int
ovb_backtest_read(struct ovb_lex *lx, struct ovb_backtest *b)
{
	memset(b, 0, sizeof *b);
	struct rd r = { .b = b };
	int st = ovb_magic(lx, "backtest");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *k = lx->tok[0];
		if (!strcmp(k, "config"))
			st = read_config(&r, lx);
		else if (!strcmp(k, "period"))
			st = read_period(&r, lx);
		else if (!strcmp(k, "valid"))
			st = read_valid(&r, lx);
		else if (!strcmp(k, "heldout"))
			st = read_heldout(&r, lx);
		else if (!strcmp(k, "hplace"))
			st = read_hplace(&r, lx);
		else if (!strcmp(k, "hnode"))
			st = read_hnode(&r, lx);
		else if (!strcmp(k, "place"))
			st = read_place(&r, lx);
		else if (!strcmp(k, "node"))
			st = read_node(&r, lx);
		else if (!strcmp(k, "oom"))
			st = read_oom(&r, lx);
		else if (!strcmp(k, "bound"))
			st = read_bound(&r, lx);
		else if (!strcmp(k, "summary"))
			st = read_summary(&r, lx);
		else if (!strcmp(k, "gap"))
			st = read_gap(&r, lx);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-backtest "
				"file (expected config, heldout, hplace, hnode, "
				"valid, period, place, node, bound, oom, summary or "
				"gap)", k);
	}
	if (!st && r.open)
		st = ovb_err(lx, "configuration '%s' has no summary",
			b->conf[b->nconf - 1].id);
	ovb_names_free(&r.ids);
	ovb_names_free(&r.vms);
	ovb_names_free(&r.prev);
	ovb_names_free(&r.tvms);
	ovb_names_free(&r.tnodes);
	ovb_names_free(&r.nodes);
	ovb_names_free(&r.ooms);
	return st;
}

int
ovb_backtest_write(FILE *f, const struct ovb_backtest *b)
{
	ovb_put_magic(f, "backtest");
	fputs("# config ID METHOD CPUS O TRAIN REPLAY PLAN PERIODS MEM POOL: "
		"node size [cpu], tolerance O, training window and replayed "
		"period [s], rolling, rolling:M (from the last plan, at most M "
		"moves), compact:M (the same, the moves left emptying nodes), "
		"consolidate:C (from the last plan, moves unbounded, then at "
		"most C moves emptying nodes), "
		"afresh (from scratch) or one-shot; node memory and its "
		"reclaimable pool [B] "
		"(MEM 0: memory not modeled); promise: memory placed by the "
		"promise rule (none: the pool rule)\n"
		"# heldout ID MID END, hplace ID VM NODE, hnode ID NODE VMS "
		"SLOTS OVER STATUS: a one-shot plan's test: the method's plan "
		"made on the training window's samples before MID, replayed on "
		"[MID, END) (honest counts, cpu)\n"
		"# valid ID T: a one-shot plan's promise holds on every node "
		"until T [s since the epoch] by the VMs' trend forecast, and T "
		"is at most END + (END - MID) when the held-out test held, END "
		"when it did not\n"
		"# period ID K START END PLACED REJECTED NODES MOVED: replayed "
		"[START, END) [s since the epoch]; VMs placed and not; nodes "
		"used; VMs on another node than in period K-1\n"
		"# place ID K VM NODE: the plan of period K\n"
		"# node ID K NODE VMS SLOTS OVER STATUS MSLOTS MOVER MSTATUS "
		"FULL: the series' slots where some VM has a cpu sample, those "
		"whose exact sum exceeds CPUS (a VM without a sample counting 0); "
		"held (OVER/SLOTS <= O), broken, or missing (SLOTS 0); the same "
		"for memory against MEM, over the slots where every VM has a mem "
		"sample (none: not modeled); FULL the slots where every VM has a "
		"cpu sample (0: a VM without samples; without FULL, SLOTS counts "
		"those)\n"
		"# oom ID K VM NODE KILLS LIMIT TPEAK RPEAK SEEN: slots in which "
		"the VM's memory exceeded its limit (OOM kills); the limit, its "
		"largest memory in the training window and in the period [B]; "
		"unseen: RPEAK > TPEAK, a peak never seen in training\n"
		"# bound ID K NODES CPU MEM: no placement of the period's VMs "
		"uses fewer than NODES = max(1, CPU, MEM) nodes: CPU if every "
		"node keeps its cpu promise (in hindsight), MEM by the memory "
		"limits within MEM + POOL (0: not a bound)\n"
		"# summary ID PLACED NODES DENSITY VS-PEAK HELD BROKEN MISSING "
		"WORST MOVED MHELD MBROKEN MMISSING MWORST MOVER OOM KILLS "
		"PARTIAL: sums "
		"over the periods; DENSITY VMs per node, VS-PEAK against peak "
		"provisioning; WORST the largest OVER/SLOTS; the same for memory, "
		"MOVER the node memory overflows [slots]; OOM the oom records, "
		"KILLS their slots; PARTIAL the node records with FULL 0\n"
		"# gap ID CLOSED PCT HINDSIGHT PCT-PLACED HINDSIGHT-PLACED: the "
		"share of the gap between pct's nodes a VM placed and the "
		"hindsight's (the same CPUS, O, windows, plan and memory) this "
		"method closes, (PCT/PCT-PLACED - NODES/PLACED) / "
		"(PCT/PCT-PLACED - HINDSIGHT/HINDSIGHT-PLACED)\n",
		f);
	size_t ip = 0, ipl = 0, in = 0, io = 0, itp = 0, itn = 0;
	for (size_t c = 0; c < b->nconf; c++) {
		const struct ovb_bt_config *cf = &b->conf[c];
		fprintf(f, "config %s %s", cf->id, cf->method);
		ovb_put_real(f, cf->cpus);
		ovb_put_real(f, cf->O);
		fprintf(f, " %llu %llu ", (unsigned long long)cf->train,
			(unsigned long long)cf->replay);
		char pl[32];
		fputs(ovb_bt_plan_name(cf, pl), f);
		fprintf(f, " %llu", (unsigned long long)cf->periods);
		ovb_put_real(f, cf->mem);
		ovb_put_real(f, cf->pool);
		if (cf->promise)
			fputs(" promise", f);
		fputc('\n', f);
		if (cf->has_test)
			fprintf(f, "heldout %s %llu %llu\n", cf->id,
				(unsigned long long)cf->test_mid,
				(unsigned long long)cf->test_end);
		for (; itp < b->ntpl && b->tpl[itp].period == c; itp++)
			fprintf(f, "hplace %s %s %s\n", cf->id, b->tpl[itp].vm,
				b->tpl[itp].node);
		for (; itn < b->ntnode && b->tnode[itn].period == c; itn++) {
			const struct ovb_bt_node *n = &b->tnode[itn];
			fprintf(f, "hnode %s %s %llu %llu %llu %s\n", cf->id,
				n->node, (unsigned long long)n->vms,
				(unsigned long long)n->slots,
				(unsigned long long)n->over,
				status_name[n->status]);
		}
		if (cf->valid_until)
			fprintf(f, "valid %s %llu\n", cf->id,
				(unsigned long long)cf->valid_until);
		for (; ip < b->nper && b->per[ip].config == c; ip++) {
			const struct ovb_bt_period *p = &b->per[ip];
			fprintf(f, "period %s %llu %llu %llu %llu %llu %llu "
				"%llu\n", cf->id, (unsigned long long)p->k,
				(unsigned long long)p->start,
				(unsigned long long)p->end,
				(unsigned long long)p->placed,
				(unsigned long long)p->rejected,
				(unsigned long long)p->nodes,
				(unsigned long long)p->moved);
			for (; ipl < b->npl && b->pl[ipl].period == ip; ipl++)
				fprintf(f, "place %s %llu %s %s\n", cf->id,
					(unsigned long long)p->k,
					b->pl[ipl].vm, b->pl[ipl].node);
			for (; in < b->nnode && b->node[in].period == ip; in++) {
				const struct ovb_bt_node *n = &b->node[in];
				fprintf(f, "node %s %llu %s %llu %llu %llu %s "
					"%llu %llu %s",
					cf->id, (unsigned long long)p->k,
					n->node, (unsigned long long)n->vms,
					(unsigned long long)n->slots,
					(unsigned long long)n->over,
					status_name[n->status],
					(unsigned long long)n->mslots,
					(unsigned long long)n->mover,
					status_name[n->mstatus]);
				if (!b->every)
					fprintf(f, " %llu", (unsigned long
						long)n->full);
				fputc('\n', f);
			}
			if (p->has_bound)
				fprintf(f, "bound %s %llu %llu %llu %llu\n",
					cf->id, (unsigned long long)p->k,
					(unsigned long long)p->bound,
					(unsigned long long)p->bcpu,
					(unsigned long long)p->bmem);
			for (; io < b->noom && b->oom[io].period == ip; io++) {
				const struct ovb_bt_oom *o = &b->oom[io];
				fprintf(f, "oom %s %llu %s %s %llu", cf->id,
					(unsigned long long)p->k, o->vm, o->node,
					(unsigned long long)o->kills);
				ovb_put_real(f, o->limit);
				ovb_put_real(f, o->tpeak);
				ovb_put_real(f, o->rpeak);
				fputs(o->unseen ? " unseen\n" : " seen\n", f);
			}
		}
		for (size_t s = 0; s < b->nsum; s++) {
			const struct ovb_bt_summary *m = &b->sum[s];
			if (m->config != c)
				continue;
			fprintf(f, "summary %s %llu %llu", cf->id,
				(unsigned long long)m->placed,
				(unsigned long long)m->nodes);
			ovb_put_real(f, m->density);
			ovb_put_real(f, m->vs_peak);
			fprintf(f, " %llu %llu %llu",
				(unsigned long long)m->held,
				(unsigned long long)m->broken,
				(unsigned long long)m->missing);
			ovb_put_real(f, m->worst);
			fprintf(f, " %llu %llu %llu %llu",
				(unsigned long long)m->moved,
				(unsigned long long)m->mheld,
				(unsigned long long)m->mbroken,
				(unsigned long long)m->mmissing);
			ovb_put_real(f, m->mworst);
			fprintf(f, " %llu %llu %llu",
				(unsigned long long)m->mover,
				(unsigned long long)m->oom,
				(unsigned long long)m->kills);
			if (!b->every)
				fprintf(f, " %llu", (unsigned long long)
					m->partial);
			fputc('\n', f);
			if (m->has_gap) {
				fprintf(f, "gap %s", cf->id);
				ovb_put_real(f, m->gap);
				fprintf(f, " %llu %llu", (unsigned long long)
					m->gap_pct, (unsigned long long)
					m->gap_hind);
				if (m->gap_pct_placed)
					fprintf(f, " %llu %llu", (unsigned long
						long)m->gap_pct_placed,
						(unsigned long long)
						m->gap_hind_placed);
				fputc('\n', f);
			}
		}
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_backtest_cat(struct ovb_backtest *to, struct ovb_backtest *from)
{
	size_t c0 = to->nconf, p0 = to->nper;
	for (size_t i = 0; i < from->nconf; i++)
		*OVB_PUSH(to->conf, to->nconf, to->capconf) = from->conf[i];
	for (size_t i = 0; i < from->nper; i++) {
		struct ovb_bt_period *p = OVB_PUSH(to->per, to->nper, to->capper);
		*p = from->per[i];
		p->config += c0;
	}
	for (size_t i = 0; i < from->npl; i++) {
		struct ovb_bt_place *p = OVB_PUSH(to->pl, to->npl, to->cappl);
		*p = from->pl[i];
		p->period += p0;
	}
	for (size_t i = 0; i < from->nnode; i++) {
		struct ovb_bt_node *p = OVB_PUSH(to->node, to->nnode,
			to->capnode);
		*p = from->node[i];
		p->period += p0;
	}
	for (size_t i = 0; i < from->noom; i++) {
		struct ovb_bt_oom *p = OVB_PUSH(to->oom, to->noom, to->capoom);
		*p = from->oom[i];
		p->period += p0;
	}
	for (size_t i = 0; i < from->nsum; i++) {
		struct ovb_bt_summary *p = OVB_PUSH(to->sum, to->nsum,
			to->capsum);
		*p = from->sum[i];
		p->config += c0;
	}
	for (size_t i = 0; i < from->ntpl; i++) {
		struct ovb_bt_place *p = OVB_PUSH(to->tpl, to->ntpl,
			to->captpl);
		*p = from->tpl[i];
		p->period += c0;
	}
	for (size_t i = 0; i < from->ntnode; i++) {
		struct ovb_bt_node *p = OVB_PUSH(to->tnode, to->ntnode,
			to->captnode);
		*p = from->tnode[i];
		p->period += c0;
	}
	to->every |= from->every;
	/* the strings are to's now */
	from->nconf = from->npl = from->nnode = from->noom = from->ntpl =
		from->ntnode = 0;
	ovb_backtest_free(from);
}

void
ovb_backtest_free(struct ovb_backtest *b)
{
	for (size_t i = 0; i < b->nconf; i++) {
		free(b->conf[i].id);
		free(b->conf[i].method);
	}
	for (size_t i = 0; i < b->npl; i++) {
		free(b->pl[i].vm);
		free(b->pl[i].node);
	}
	for (size_t i = 0; i < b->nnode; i++)
		free(b->node[i].node);
	for (size_t i = 0; i < b->ntpl; i++) {
		free(b->tpl[i].vm);
		free(b->tpl[i].node);
	}
	for (size_t i = 0; i < b->ntnode; i++)
		free(b->tnode[i].node);
	free(b->tpl);
	free(b->tnode);
	for (size_t i = 0; i < b->noom; i++) {
		free(b->oom[i].vm);
		free(b->oom[i].node);
	}
	free(b->oom);
	free(b->conf);
	free(b->per);
	free(b->pl);
	free(b->node);
	free(b->sum);
	memset(b, 0, sizeof *b);
}
