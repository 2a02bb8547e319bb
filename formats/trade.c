/* trade.c: format ovb-trade, a replay of Sharc's resource trading
 * interval by interval (spec: trade.md).
 *
 *	trade RES INTERVAL ALPHA ENFORCE N1 RECLAIM DELTA
 *	node NAME CAPACITY
 *	app NAME R yes|no
 *	capsule NAME APP NODE R LB EPSILON
 *	at T
 *	c CAPSULE A USED U CLASS NEXT
 *	n NODE USED NEXT
 *	a APP NEXT SLACK
 *
 * Invariants after a successful read: the header first; declarations
 * before the first "at"; names unique per kind; every reference declared;
 * T increasing multiples of INTERVAL; per "at" block a name at most once
 * per record kind. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static int
tok_choice(const struct ovb_lex *lx, int i, const char *what,
	const char *a, const char *b)
{
	if (strcmp(lx->tok[i], a) && strcmp(lx->tok[i], b))
		return ovb_err(lx, "%s: '%s' is neither %s nor %s", what,
			lx->tok[i], a, b);
	return 0;
}

static int
tok_n1(const struct ovb_lex *lx, int i)
{
	for (int k = 0; k < 3; k++)
		if (!strcmp(lx->tok[i], ovb_trade_n1_name[k]))
			return 0;
	return ovb_err(lx, "N1: '%s' is none of all, borrowers, above-r",
		lx->tok[i]);
}

static int
tok_ref(const struct ovb_lex *lx, int i, const struct ovb_names *t,
	const char *what, size_t *idx)
{
	*idx = ovb_names_get(t, lx->tok[i]);
	if (*idx == OVB_NONE)
		return ovb_err(lx, "%s '%s' is not declared", what, lx->tok[i]);
	return 0;
}

/* The record's name is new in table t (stamp: the block it was seen in). */
static int
once(const struct ovb_lex *lx, size_t *stamp, size_t idx, size_t block,
	const char *what)
{
	if (stamp[idx] == block)
		return ovb_err(lx, "%s '%s' twice in one interval", what,
			lx->tok[1]);
	stamp[idx] = block;
	return 0;
}

static int
read_header(struct ovb_lex *lx, struct ovb_trade *t)
{
	int st;
	if ((st = ovb_arity(lx, 8, 8, "trade RES INTERVAL ALPHA ENFORCE N1 "
	    "RECLAIM DELTA")) ||
	    (st = tok_choice(lx, 1, "resource", "cpu", "net")) ||
	    (st = ovb_tok_u64(lx, 2, "interval", &t->interval)) ||
	    (st = ovb_tok_prob(lx, 3, "alpha", &t->alpha)) ||
	    (st = tok_choice(lx, 4, "enforcement", "work-conserving",
		"capped")) ||
	    (st = tok_n1(lx, 5)) ||
	    (st = tok_choice(lx, 6, "reclaim", "paper", "fix")) ||
	    (st = ovb_tok_prob(lx, 7, "delta", &t->delta)))
		return st;
	if (t->interval < 1 || t->interval > OVB_SERIES_MAXI)
		return ovb_err(lx, "interval: %s s is outside 1..%u",
			lx->tok[2], OVB_SERIES_MAXI);
	if (t->alpha <= 0)
		return ovb_err(lx, "alpha: %s is outside (0, 1]", lx->tok[3]);
	t->res = ovb_xstrdup(lx->tok[1]);
	t->enforce = ovb_xstrdup(lx->tok[4]);
	t->n1 = ovb_xstrdup(lx->tok[5]);
	t->reclaim = ovb_xstrdup(lx->tok[6]);
	return 0;
}

static int
read_decl(struct ovb_lex *lx, struct ovb_trade *t)
{
	int st;
	const char *k = lx->tok[0];
	if (!strcmp(k, "node")) {
		struct ovb_trade_node n = { 0 };
		if ((st = ovb_arity(lx, 3, 3, "node NAME CAPACITY")) ||
		    (st = ovb_tok_name(lx, 1, "node")) ||
		    (st = ovb_tok_pos(lx, 2, "capacity", &n.cap)))
			return st;
		if (ovb_names_get(&t->nodes, lx->tok[1]) != OVB_NONE)
			return ovb_err(lx, "node '%s' declared twice", lx->tok[1]);
		n.name = ovb_xstrdup(lx->tok[1]);
		*OVB_PUSH(t->node, t->nnode, t->capnode) = n;
		ovb_names_add(&t->nodes, n.name, t->nnode - 1);
		return 0;
	}
	if (!strcmp(k, "app")) {
		struct ovb_trade_app a = { 0 };
		if ((st = ovb_arity(lx, 4, 4, "app NAME R yes|no")) ||
		    (st = ovb_tok_name(lx, 1, "application")) ||
		    (st = ovb_tok_nonneg(lx, 2, "R", &a.R)) ||
		    (st = tok_choice(lx, 3, "trade", "yes", "no")))
			return st;
		if (ovb_names_get(&t->apps, lx->tok[1]) != OVB_NONE)
			return ovb_err(lx, "application '%s' declared twice",
				lx->tok[1]);
		a.trade = !strcmp(lx->tok[3], "yes");
		a.name = ovb_xstrdup(lx->tok[1]);
		*OVB_PUSH(t->app, t->napp, t->capapp) = a;
		ovb_names_add(&t->apps, a.name, t->napp - 1);
		return 0;
	}
	struct ovb_trade_capsule c = { 0 };
	size_t i;
	if ((st = ovb_arity(lx, 7, 7, "capsule NAME APP NODE R LB EPSILON")) ||
	    (st = ovb_tok_name(lx, 1, "capsule")) ||
	    (st = tok_ref(lx, 2, &t->apps, "application", &i)) ||
	    (st = tok_ref(lx, 3, &t->nodes, "node", &i)) ||
	    (st = ovb_tok_nonneg(lx, 4, "R", &c.R)) ||
	    (st = ovb_tok_nonneg(lx, 5, "LB", &c.lb)) ||
	    (st = ovb_tok_prob(lx, 6, "epsilon", &c.eps)))
		return st;
	if (ovb_names_get(&t->capsules, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "capsule '%s' declared twice", lx->tok[1]);
	if (c.lb > c.R)
		return ovb_err(lx, "LB: %s is above R %s", lx->tok[5],
			lx->tok[4]);
	c.name = ovb_xstrdup(lx->tok[1]);
	c.app = ovb_xstrdup(lx->tok[2]);
	c.node = ovb_xstrdup(lx->tok[3]);
	*OVB_PUSH(t->capsule, t->ncaps, t->capcaps) = c;
	ovb_names_add(&t->capsules, c.name, t->ncaps - 1);
	return 0;
}

struct stamps { size_t *cap, *node, *app; };

static int
read_rec(struct ovb_lex *lx, struct ovb_trade *t, struct stamps *sp)
{
	int st;
	const char *k = lx->tok[0];
	struct ovb_trade_at *at = &t->at[t->nat - 1];
	if (!strcmp(k, "c")) {
		struct ovb_trade_row r = { 0 };
		if ((st = ovb_arity(lx, 7, 7, "c CAPSULE A USED U CLASS NEXT")) ||
		    (st = tok_ref(lx, 1, &t->capsules, "capsule", &r.cap)) ||
		    (st = once(lx, sp->cap, r.cap, t->nat, "capsule")) ||
		    (st = ovb_tok_nonneg(lx, 2, "A", &r.A)) ||
		    (st = ovb_tok_nonneg(lx, 3, "USED", &r.used)) ||
		    (st = ovb_tok_nonneg(lx, 4, "U", &r.U)) ||
		    (st = ovb_tok_nonneg(lx, 6, "NEXT", &r.next)))
			return st;
		r.cls = ovb_trade_class_parse(lx->tok[5]);
		if (r.cls < 0 || r.cls == OVB_TRADE_ABSENT)
			return ovb_err(lx, "class: '%s' is not fixed, reclaim, "
				"under or borrow", lx->tok[5]);
		*OVB_PUSH(at->row, at->nrow, at->caprow) = r;
		return 0;
	}
	struct ovb_trade_sum s = { 0 };
	if (!strcmp(k, "n")) {
		if ((st = ovb_arity(lx, 4, 4, "n NODE USED NEXT")) ||
		    (st = tok_ref(lx, 1, &t->nodes, "node", &s.idx)) ||
		    (st = once(lx, sp->node, s.idx, t->nat, "node")) ||
		    (st = ovb_tok_nonneg(lx, 2, "USED", &s.used)) ||
		    (st = ovb_tok_nonneg(lx, 3, "NEXT", &s.next)))
			return st;
		*OVB_PUSH(at->node, at->nnode, at->capnode) = s;
		return 0;
	}
	if ((st = ovb_arity(lx, 4, 4, "a APP NEXT SLACK")) ||
	    (st = tok_ref(lx, 1, &t->apps, "application", &s.idx)) ||
	    (st = once(lx, sp->app, s.idx, t->nat, "application")) ||
	    (st = ovb_tok_nonneg(lx, 2, "NEXT", &s.next)) ||
	    (st = ovb_tok_real(lx, 3, "SLACK", &s.slack)))
		return st;
	*OVB_PUSH(at->app, at->napp, at->capapp) = s;
	return 0;
}

int
ovb_trade_read(struct ovb_lex *lx, struct ovb_trade *t)
{
	memset(t, 0, sizeof *t);
	struct stamps sp = { 0 };
	int st = ovb_magic(lx, "trade");
	if (!st && (st = ovb_lex_next(lx)) == 1) {
		if (strcmp(lx->tok[0], "trade"))
			st = ovb_err(lx, "expected the record 'trade RES INTERVAL "
				"...' after the magic");
		else
			st = read_header(lx, t);
	} else if (!st)
		st = ovb_err(lx, "no 'trade' record");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *k = lx->tok[0];
		bool decl = !strcmp(k, "node") || !strcmp(k, "app") ||
			!strcmp(k, "capsule");
		bool rec = !strcmp(k, "c") || !strcmp(k, "n") || !strcmp(k, "a");
		if (decl) {
			if (t->nat)
				st = ovb_err(lx, "'%s' after the first 'at': "
					"declarations come first", k);
			else
				st = read_decl(lx, t);
		} else if (!strcmp(k, "at")) {
			uint64_t T;
			if ((st = ovb_arity(lx, 2, 2, "at T")) ||
			    (st = ovb_tok_u64(lx, 1, "T", &T)))
				break;
			if (T % t->interval || T > OVB_SERIES_MAXT)
				st = ovb_err(lx, "T: %s is not a multiple of the "
					"interval %llu s", lx->tok[1],
					(unsigned long long)t->interval);
			else if (t->nat && T <= t->at[t->nat - 1].t)
				st = ovb_err(lx, "T: %s is not after the previous "
					"interval", lx->tok[1]);
			if (st)
				break;
			if (!t->nat) {
				sp.cap = ovb_xcalloc(t->ncaps + 1, sizeof *sp.cap);
				sp.node = ovb_xcalloc(t->nnode + 1, sizeof *sp.node);
				sp.app = ovb_xcalloc(t->napp + 1, sizeof *sp.app);
			}
			struct ovb_trade_at *at = OVB_PUSH(t->at, t->nat, t->capat);
			memset(at, 0, sizeof *at);
			at->t = T;
		} else if (rec) {
			if (!t->nat)
				st = ovb_err(lx, "'%s' before the first 'at'", k);
			else
				st = read_rec(lx, t, &sp);
		} else
			st = ovb_err(lx, "unknown record '%s' in an ovb-trade "
				"file (expected node, app, capsule, at, c, n or a)",
				k);
	}
	free(sp.cap);
	free(sp.node);
	free(sp.app);
	return st;
}

int
ovb_trade_write_head(FILE *f, const struct ovb_trade *t, bool intervals)
{
	char b[32];
	ovb_put_magic(f, "trade");
	fprintf(f, "# trade RES INTERVAL[s] ALPHA ENFORCE N1 RECLAIM DELTA\n");
	fprintf(f, "trade %s %llu", t->res ? t->res : "cpu",
		(unsigned long long)t->interval);
	ovb_put_real(f, t->alpha);
	fprintf(f, " %s %s %s", t->enforce, t->n1, t->reclaim);
	ovb_put_real(f, t->delta);
	fprintf(f, "\n# node NAME CAPACITY; app NAME R_i TRADE; capsule NAME "
		"APP NODE R LB EPSILON (rate unit of RES)\n");
	for (size_t i = 0; i < t->nnode; i++)
		fprintf(f, "node %s %s\n", t->node[i].name,
			ovb_fmt_real(b, t->node[i].cap));
	for (size_t i = 0; i < t->napp; i++)
		fprintf(f, "app %s %s %s\n", t->app[i].name,
			ovb_fmt_real(b, t->app[i].R),
			t->app[i].trade ? "yes" : "no");
	for (size_t i = 0; i < t->ncaps; i++) {
		const struct ovb_trade_capsule *c = &t->capsule[i];
		fprintf(f, "capsule %s %s %s", c->name, c->app, c->node);
		ovb_put_real(f, c->R);
		ovb_put_real(f, c->lb);
		ovb_put_real(f, c->eps);
		fputc('\n', f);
	}
	if (intervals)
		fprintf(f, "# at T[s]; c CAPSULE A USED U CLASS NEXT; n NODE "
			"USED NEXT; a APP NEXT SLACK\n");
	return ferror(f) ? OVB_EIO : 0;
}

/* One record line: KEY NAME and n numbers (a word before the last when
 * word is not NULL), built in a buffer and written at once (8.64 million
 * lines for a month of 1,000 capsules: no printf per line). */
/* The text of a number, once: a capsule's A is its NEXT of the interval
 * before, and USED and U are often equal, so a number equal (bit for
 * bit) to one already written is copied, not formatted again. */
struct numtext { double v; unsigned char len; char s[32]; };

static char *
put_num(char *o, double v, struct numtext *c)
{
	if (c->len && !memcmp(&c->v, &v, sizeof v)) {
		memcpy(o, c->s, c->len);
		return o + c->len;
	}
	char *e = ovb_fmt_real_end(o, v);
	c->v = v;
	c->len = (unsigned char)(e - o);
	memcpy(c->s, o, c->len);
	return e;
}

static void
put_line(FILE *f, char key, const char *name, const double *x, int n,
	const char *word, struct numtext *cache)
{
	char line[256], *o = line;
	size_t len = strlen(name);
	if (len > sizeof line - 6 * 33 - 32) {  /* long names: the slow way */
		fprintf(f, "%c %s", key, name);
		for (int i = 0; i < n; i++) {
			if (word && i == n - 1)
				fprintf(f, " %s", word);
			ovb_put_real(f, x[i]);
		}
		fputc('\n', f);
		return;
	}
	*o++ = key;
	*o++ = ' ';
	memcpy(o, name, len);
	o += len;
	for (int i = 0; i < n; i++) {
		if (word && i == n - 1) {
			size_t w = strlen(word);
			*o++ = ' ';
			memcpy(o, word, w);
			o += w;
		}
		*o++ = ' ';
		if (!cache) {
			o = ovb_fmt_real_end(o, x[i]);
			continue;
		}
		/* A and NEXT through cache[0] (A is the NEXT before), USED
		 * and U through cache[1] */
		o = put_num(o, x[i], &cache[i == 0 || i == 3 ? 0 : 1]);
	}
	*o++ = '\n';
	fwrite_unlocked(line, 1, (size_t)(o - line), f);
}

int
ovb_trade_write_at(FILE *f, const struct ovb_trade *t,
	const struct ovb_trade_at *at)
{
	static struct numtext *cache;     /* by capsule: NEXT, then USED */
	static size_t ncache;
	if (ncache < t->ncaps) {
		free(cache);
		ncache = t->ncaps;
		cache = ovb_xcalloc(2 * ncache, sizeof *cache);
	}
	fprintf(f, "at %llu\n", (unsigned long long)at->t);
	for (size_t i = 0; i < at->nrow; i++) {
		const struct ovb_trade_row *r = &at->row[i];
		double x[4] = { r->A, r->used, r->U, r->next };
		put_line(f, 'c', t->capsule[r->cap].name, x, 4,
			ovb_trade_class_name((enum ovb_trade_class)r->cls),
			&cache[2 * r->cap]);
	}
	for (size_t i = 0; i < at->nnode; i++) {
		double x[2] = { at->node[i].used, at->node[i].next };
		put_line(f, 'n', t->node[at->node[i].idx].name, x, 2, NULL,
			NULL);
	}
	for (size_t i = 0; i < at->napp; i++) {
		double x[2] = { at->app[i].next, at->app[i].slack };
		put_line(f, 'a', t->app[at->app[i].idx].name, x, 2, NULL, NULL);
	}
	return ferror(f) ? OVB_EIO : 0;
}

int
ovb_trade_write(FILE *f, const struct ovb_trade *t)
{
	ovb_trade_write_head(f, t, t->nat > 0);
	for (size_t k = 0; k < t->nat; k++)
		ovb_trade_write_at(f, t, &t->at[k]);
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_trade_free(struct ovb_trade *t)
{
	for (size_t i = 0; i < t->nnode; i++)
		free(t->node[i].name);
	for (size_t i = 0; i < t->napp; i++)
		free(t->app[i].name);
	for (size_t i = 0; i < t->ncaps; i++) {
		free(t->capsule[i].name);
		free(t->capsule[i].app);
		free(t->capsule[i].node);
	}
	for (size_t k = 0; k < t->nat; k++) {
		free(t->at[k].row);
		free(t->at[k].node);
		free(t->at[k].app);
	}
	free(t->node);
	free(t->app);
	free(t->capsule);
	free(t->at);
	free(t->res);
	free(t->enforce);
	free(t->n1);
	free(t->reclaim);
	ovb_names_free(&t->nodes);
	ovb_names_free(&t->capsules);
	ovb_names_free(&t->apps);
	memset(t, 0, sizeof *t);
}
