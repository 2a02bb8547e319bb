/* plan.c: placement plans (format ovb-plan, spec: plan.md).
 *
 *	place APP CAPSULE NODE PROFILE|-
 *	qos APP CAPSULE RES SIGMA RHO TAU O
 *	cpu-resv APP CAPSULE X Y WEIGHT
 *	tbucket APP CAPSULE SIGMA RHO
 *	risk NODE RES PR OMIN LOAD CAPACITY
 *	reject APP REASON...
 *	grid POINTS
 *	unmeasured APP CAPSULE RES
 *	mem-rule pool|promise [O]
 *
 * Invariants of a read plan: (APP, CAPSULE) placed once; qos, cpu-resv and
 * tbucket follow their capsule's place record, once each per resource;
 * (NODE, RES) risk once; probabilities in [0,1], tolerances below 1;
 * an application is either placed or rejected, rejected at most once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

struct reader {
	struct ovb_plan *p;
	struct ovb_names placed, risks, apps, rejected;
	char **keys;
	size_t nkeys, capkeys;
	unsigned long mode_line;        /* of the mode record; 0: none */
	unsigned long valid_line;       /* of the valid-until record */
	unsigned long enforce_line;     /* of the enforce record */
	unsigned long memrule_line;     /* of the mem-rule record */
};

static const char *
key2(struct reader *r, const char *a, const char *b)
{
	char *k = ovb_xmalloc(strlen(a) + strlen(b) + 2);
	sprintf(k, "%s %s", a, b);
	*OVB_PUSH(r->keys, r->nkeys, r->capkeys) = k;
	return k;
}

static int
names(const struct ovb_lex *lx, int from, int to)
{
	int st = 0;
	for (int i = from; i <= to && !st; i++)
		st = ovb_tok_name(lx, i, lx->tok[0]);
	return st;
}

static int
read_place(struct reader *r, struct ovb_lex *lx)
{
	int st = ovb_arity(lx, 5, 5, "place APP CAPSULE NODE PROFILE|-");
	if (st || (st = names(lx, 1, 3)))
		return st;
	if (strcmp(lx->tok[4], "-") && (st = ovb_tok_name(lx, 4, "profile")))
		return st;
	if (ovb_names_get(&r->rejected, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "place: application '%s' is also rejected",
			lx->tok[1]);
	const char *k = key2(r, lx->tok[1], lx->tok[2]);
	size_t first = ovb_names_get(&r->placed, k);
	if (first != OVB_NONE)
		return ovb_err(lx, "capsule %s of %s is placed twice (first at "
			"line %lu)", lx->tok[2], lx->tok[1], r->p->p[first].line);
	struct ovb_placed *pl = OVB_PUSH(r->p->p, r->p->n, r->p->cap);
	memset(pl, 0, sizeof *pl);
	pl->app = ovb_xstrdup(lx->tok[1]);
	pl->capsule = ovb_xstrdup(lx->tok[2]);
	pl->node = ovb_xstrdup(lx->tok[3]);
	pl->profile = strcmp(lx->tok[4], "-") ? ovb_xstrdup(lx->tok[4]) : NULL;
	pl->line = lx->line;
	ovb_names_add(&r->placed, k, r->p->n - 1);
	ovb_names_add(&r->apps, pl->app, r->p->n - 1);
	return 0;
}

static int
placed_of(struct reader *r, struct ovb_lex *lx, struct ovb_placed **pl)
{
	int st = names(lx, 1, 2);
	if (st)
		return st;
	char k[2 * OVB_MAXNAME + 2];
	snprintf(k, sizeof k, "%s %s", lx->tok[1], lx->tok[2]);
	size_t i = ovb_names_get(&r->placed, k);
	if (i == OVB_NONE)
		return ovb_err(lx, "%s: capsule %s of %s has no place record "
			"before it", lx->tok[0], lx->tok[2], lx->tok[1]);
	*pl = &r->p->p[i];
	return 0;
}

static int
read_qos(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_placed *pl;
	double v[4];
	int st = ovb_arity(lx, 8, 8, "qos APP CAPSULE RES SIGMA RHO TAU O");
	if (st || (st = placed_of(r, lx, &pl)))
		return st;
	int res = ovb_res_parse(lx->tok[3]);
	if (res < 0 || res >= OVB_NCAP)
		return ovb_err(lx, "qos: resource '%s' is not cpu, net, net-rx "
			"or mem", lx->tok[3]);
	if (pl->has_qos[res])
		return ovb_err(lx, "qos %s of %s %s is given twice", lx->tok[3],
			lx->tok[1], lx->tok[2]);
	if (pl->unmeasured & (1u << res))
		return ovb_err(lx, "qos %s of %s %s: the plan says it was not "
			"measured (unmeasured at line %lu)", lx->tok[3],
			lx->tok[1], lx->tok[2], pl->unmeasured_line);
	bool mem = res == OVB_MEM;
	if ((st = ovb_tok_nonneg(lx, 4, mem ? "qos mem request" :
	    "qos sigma (rate)", &v[0])) ||
	    (st = ovb_tok_nonneg(lx, 5, mem ? "qos mem limit" :
	    "qos rho (burst)", &v[1])) ||
	    (st = ovb_tok_pos(lx, 6, mem ? "qos mem window" :
	    "qos tau (period)", &v[2])) ||
	    (st = ovb_tok_prob(lx, 7, "qos O (tolerance)", &v[3])))
		return st;
	if (v[3] >= 1)
		return ovb_err(lx, "qos: tolerance %s must be below 1", lx->tok[7]);
	if (mem && v[1] < v[0])
		return ovb_err(lx, "qos mem: limit %s B is below the request "
			"%s B", lx->tok[5], lx->tok[4]);
	pl->has_qos[res] = true;
	pl->sigma[res] = v[0];
	pl->rho[res] = mem ? 0 : v[1];
	if (mem)
		pl->limit = v[1];
	pl->tau[res] = v[2];
	pl->O[res] = v[3];
	return 0;
}

static int
read_mech(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_placed *pl;
	bool cpu = !strcmp(lx->tok[0], "cpu-resv");
	int st = cpu ? ovb_arity(lx, 6, 6, "cpu-resv APP CAPSULE X Y WEIGHT") :
		ovb_arity(lx, 5, 5, "tbucket APP CAPSULE SIGMA RHO");
	if (st || (st = placed_of(r, lx, &pl)))
		return st;
	if (cpu ? pl->has_cpu_resv : pl->has_tbucket)
		return ovb_err(lx, "%s of %s %s is given twice", lx->tok[0],
			lx->tok[1], lx->tok[2]);
	if (cpu) {
		if (!(st = ovb_tok_nonneg(lx, 3, "cpu-resv x", &pl->x)) &&
		    !(st = ovb_tok_pos(lx, 4, "cpu-resv y", &pl->y)))
			st = ovb_tok_nonneg(lx, 5, "cpu-resv weight", &pl->weight);
		pl->has_cpu_resv = !st;
	} else {
		if (!(st = ovb_tok_nonneg(lx, 3, "tbucket sigma (rate)",
		    &pl->tb_sigma)))
			st = ovb_tok_nonneg(lx, 4, "tbucket rho (burst)", &pl->tb_rho);
		pl->has_tbucket = !st;
	}
	return st;
}

/* unmeasured APP CAPSULE RES: a profiled capsule's RES, read as 0 */
static int
read_unmeasured(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_placed *pl;
	int st = ovb_arity(lx, 4, 4, "unmeasured APP CAPSULE RES");
	if (st || (st = placed_of(r, lx, &pl)))
		return st;
	int res = ovb_res_parse(lx->tok[3]);
	if (res < 0 || res >= OVB_NCAP)
		return ovb_err(lx, "unmeasured: resource '%s' is not cpu, net, "
			"net-rx or mem", lx->tok[3]);
	if (!pl->profile)
		return ovb_err(lx, "unmeasured: capsule %s of %s is a plain "
			"reservation (place ... -): its values are given, not "
			"measured", lx->tok[2], lx->tok[1]);
	if (pl->unmeasured & (1u << res))
		return ovb_err(lx, "unmeasured %s of %s %s is given twice",
			lx->tok[3], lx->tok[1], lx->tok[2]);
	if (pl->has_qos[res])
		return ovb_err(lx, "unmeasured %s of %s %s: the capsule has a "
			"qos %s record (a measured requirement)", lx->tok[3],
			lx->tok[1], lx->tok[2], lx->tok[3]);
	if (!pl->unmeasured)
		pl->unmeasured_line = lx->line;
	pl->unmeasured |= 1u << res;
	return 0;
}

static int
read_risk(struct reader *r, struct ovb_lex *lx)
{
	double v[5] = { 0 };
	int st = ovb_arity(lx, 7, 8, "risk NODE RES PR OMIN LOAD CAPACITY "
		"[EXPOSURE]");
	if (st || (st = ovb_tok_name(lx, 1, "risk node")))
		return st;
	int res = ovb_res_parse(lx->tok[2]);
	if (res < 0 || res >= OVB_NCAP)
		return ovb_err(lx, "risk: resource '%s' is not cpu, net, net-rx "
			"or mem", lx->tok[2]);
	if ((lx->ntok == 8) != (res == OVB_MEM))
		return ovb_err(lx, res == OVB_MEM ? "risk mem: give the OOM "
			"exposure E[(Y-C)+] in B after CAPACITY" : "risk %s: only "
			"mem has an EXPOSURE field", lx->tok[2]);
	if (res == OVB_MEM && (st = ovb_tok_nonneg(lx, 7, "risk exposure",
	    &v[4])))
		return st;
	if ((st = ovb_tok_prob(lx, 3, "risk Pr(Y > C)", &v[0])) ||
	    (st = ovb_tok_prob(lx, 4, "risk O_min", &v[1])) ||
	    (st = ovb_tok_nonneg(lx, 5, "risk load", &v[2])) ||
	    (st = ovb_tok_pos(lx, 6, "risk capacity", &v[3])))
		return st;
	const char *k = key2(r, lx->tok[1], lx->tok[2]);
	size_t first = ovb_names_get(&r->risks, k);
	if (first != OVB_NONE)
		return ovb_err(lx, "risk %s %s is given twice (first at line %lu)",
			lx->tok[1], lx->tok[2], r->p->risk[first].line);
	struct ovb_noderisk *nr = OVB_PUSH(r->p->risk, r->p->nrisk,
		r->p->caprisk);
	nr->node = ovb_xstrdup(lx->tok[1]);
	nr->res = (enum ovb_res)res;
	nr->risk = v[0];
	nr->omin = v[1];
	nr->load = v[2];
	nr->capacity = v[3];
	nr->exposure = v[4];
	nr->line = lx->line;
	ovb_names_add(&r->risks, k, r->p->nrisk - 1);
	return 0;
}

static int
read_reject(struct reader *r, struct ovb_lex *lx)
{
	int st = ovb_arity(lx, 3, -1, "reject APP REASON...");
	if (st || (st = ovb_tok_name(lx, 1, "reject application")))
		return st;
	if (ovb_names_get(&r->apps, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "reject: application '%s' is also placed",
			lx->tok[1]);
	if (ovb_names_get(&r->rejected, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "reject: application '%s' is rejected twice",
			lx->tok[1]);
	size_t len = 0;
	for (int i = 2; i < lx->ntok; i++)
		len += strlen(lx->tok[i]) + 1;
	struct ovb_reject *rj = OVB_PUSH(r->p->rej, r->p->nrej, r->p->caprej);
	rj->app = ovb_xstrdup(lx->tok[1]);
	rj->reason = ovb_xmalloc(len);
	rj->reason[0] = '\0';
	for (int i = 2; i < lx->ntok; i++) {
		if (i > 2)
			strcat(rj->reason, " ");
		strcat(rj->reason, lx->tok[i]);
	}
	ovb_names_add(&r->rejected, rj->app, r->p->nrej - 1);
	return 0;
}

static int
read_grid(struct ovb_plan *p, struct ovb_lex *lx)
{
	uint64_t g;
	int st = ovb_arity(lx, 2, 2, "grid POINTS");
	if (st || (st = ovb_tok_u64(lx, 1, "grid points", &g)))
		return st;
	if (p->grid)
		return ovb_err(lx, "grid is given twice");
	if (g < 1 || g > 100000000)
		return ovb_err(lx, "grid: %s points is not in 1..100000000",
			lx->tok[1]);
	p->grid = g;
	return 0;
}

static int
read_mode(struct reader *r, struct ovb_lex *lx)
{
	int st = ovb_arity(lx, 2, 3, "mode eq1|aggregate|nsigma N|joint "
		"[overlap]");
	if (st)
		return st;
	if (r->mode_line)
		return ovb_err(lx, "mode is given twice (first at line %lu)",
			r->mode_line);
	bool ns = !strcmp(lx->tok[1], "nsigma");
	bool jspan = !strcmp(lx->tok[1], "joint") && lx->ntok == 3;
	if (jspan && strcmp(lx->tok[2], "overlap"))
		return ovb_err(lx, "mode joint: '%s' is not overlap (the span "
			"in which every capsule of the node was seen)", lx->tok[2]);
	if (!jspan && ns != (lx->ntok == 3))
		return ovb_err(lx, "mode: nsigma takes N, joint overlap or "
			"nothing, eq1 and aggregate nothing");
	if (ns && (st = ovb_tok_nonneg(lx, 2, "mode nsigma N",
	    &r->p->nsigma_n)))
		return st;
	if (ns && r->p->nsigma_n > 1000)
		return ovb_err(lx, "mode nsigma: N=%s is above 1000", lx->tok[2]);
	r->p->nsigma = ns;
	if (!strcmp(lx->tok[1], "aggregate"))
		r->p->aggregate = true;
	else if (!strcmp(lx->tok[1], "joint"))
		r->p->joint = true, r->p->joint_overlap = jspan;
	else if (!ns && strcmp(lx->tok[1], "eq1"))
		return ovb_err(lx, "mode: '%s' is not eq1, aggregate, nsigma or "
			"joint", lx->tok[1]);
	r->mode_line = lx->line;
	return 0;
}

static int
read_valid(struct reader *r, struct ovb_lex *lx)
{
	uint64_t t;
	int st = ovb_arity(lx, 2, 2, "valid-until T");
	if (st || (st = ovb_tok_u64(lx, 1, "valid-until", &t)))
		return st;
	if (r->valid_line)
		return ovb_err(lx, "valid-until is given twice (first at line "
			"%lu)", r->valid_line);
	if (!t || t > (UINT64_C(1) << 62))
		return ovb_err(lx, "valid-until: %s is not in 1..2^62 s",
			lx->tok[1]);
	r->p->valid_until = t;
	r->valid_line = lx->line;
	return 0;
}

/* mem-rule pool|promise [O]: the node's memory rule (O: promise's O_mem) */
static int
read_memrule(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_plan *p = r->p;
	int st = ovb_arity(lx, 2, 3, "mem-rule pool|promise [O]");
	if (st)
		return st;
	if (r->memrule_line)
		return ovb_err(lx, "mem-rule is given twice (first at line %lu)",
			r->memrule_line);
	p->mem_promise = !strcmp(lx->tok[1], "promise");
	if (!p->mem_promise && strcmp(lx->tok[1], "pool"))
		return ovb_err(lx, "mem-rule: '%s' is not pool or promise",
			lx->tok[1]);
	if (lx->ntok == 3 && !p->mem_promise)
		return ovb_err(lx, "mem-rule: pool takes no O");
	if (lx->ntok == 3 && (st = ovb_tok_prob(lx, 2, "mem-rule promise O",
	    &p->mem_O)))
		return st;
	if (lx->ntok == 3 && !(p->mem_O < 1))
		return ovb_err(lx, "mem-rule promise: O=%s is not below 1",
			lx->tok[2]);
	r->memrule_line = lx->line;
	return 0;
}

/* enforce T[,T...] HZ MTU DLCAP: the targets the plan reserved for */
static int
read_enforce(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_plan *p = r->p;
	int st = ovb_arity(lx, 5, 5, "enforce T[,T...] HZ MTU DLCAP");
	if (st)
		return st;
	if (r->enforce_line)
		return ovb_err(lx, "enforce is given twice (first at line %lu)",
			r->enforce_line);
	char *list = ovb_xstrdup(lx->tok[1]);
	for (char *t, *save = NULL, *a = list; !st &&
	     (t = strtok_r(a, ",", &save)); a = NULL) {
		int k = ovb_target_parse(t);
		if (k < 0)
			st = ovb_err(lx, "enforce: unknown target '%s' "
				"(sched-deadline, cgroup, cgroup1, systemd, tc, "
				"kubernetes)", t);
		else if (p->enforce & (1u << k))
			st = ovb_err(lx, "enforce: %s is given twice", t);
		else
			p->enforce |= 1u << k;
	}
	free(list);
	if (!st && !p->enforce)
		st = ovb_err(lx, "enforce: no target");
	if (st || (st = ovb_tok_u64(lx, 2, "enforce HZ", &p->enf_hz)) ||
	    (st = ovb_tok_u64(lx, 3, "enforce MTU", &p->enf_mtu)) ||
	    (st = ovb_tok_prob(lx, 4, "enforce DLCAP", &p->enf_dlcap)))
		return st;
	if (p->enf_hz < 1 || p->enf_hz > 100000 || p->enf_mtu < 68 ||
	    p->enf_mtu > (1 << 20) || !(p->enf_dlcap >= 1e-6))
		return ovb_err(lx, "enforce: HZ %s, MTU %s or DLCAP %s out of "
			"range (1..100000, 68..1048576, [1e-6, 1])", lx->tok[2],
			lx->tok[3], lx->tok[4]);
	r->enforce_line = lx->line;
	return 0;
}

int
ovb_plan_read(struct ovb_lex *lx, struct ovb_plan *p)
{
	memset(p, 0, sizeof *p);
	p->mem_O = NAN;         /* the capsules' own O (mem-rule promise) */
	struct reader r = { .p = p };
	int st = ovb_magic(lx, "plan");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0];
		if (!strcmp(kw, "place"))
			st = read_place(&r, lx);
		else if (!strcmp(kw, "qos"))
			st = read_qos(&r, lx);
		else if (!strcmp(kw, "cpu-resv") || !strcmp(kw, "tbucket"))
			st = read_mech(&r, lx);
		else if (!strcmp(kw, "risk"))
			st = read_risk(&r, lx);
		else if (!strcmp(kw, "reject"))
			st = read_reject(&r, lx);
		else if (!strcmp(kw, "grid"))
			st = read_grid(p, lx);
		else if (!strcmp(kw, "mode"))
			st = read_mode(&r, lx);
		else if (!strcmp(kw, "valid-until"))
			st = read_valid(&r, lx);
		else if (!strcmp(kw, "unmeasured"))
			st = read_unmeasured(&r, lx);
		else if (!strcmp(kw, "enforce"))
			st = read_enforce(&r, lx);
		else if (!strcmp(kw, "mem-rule"))
			st = read_memrule(&r, lx);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-plan file",
				kw);
	}
	if (!st && p->mem_promise && p->nsigma)
		st = ovb_err_at(lx->name, r.memrule_line > r.mode_line ?
			r.memrule_line : r.mode_line, "mem-rule promise (memory "
			"by Eq. 3 alone) and mode nsigma (by its N-sigma test) "
			"do not go together");
	for (size_t i = 0; i < r.nkeys; i++)
		free(r.keys[i]);
	free(r.keys);
	ovb_names_free(&r.placed);
	ovb_names_free(&r.risks);
	ovb_names_free(&r.apps);
	ovb_names_free(&r.rejected);
	return st;
}

static void
put_placed(FILE *f, const struct ovb_placed *pl)
{
	fprintf(f, "place %s %s %s %s\n", pl->app, pl->capsule, pl->node,
		pl->profile ? pl->profile : "-");
	for (int r = 0; r < OVB_NCAP; r++) {
		if (!pl->has_qos[r])
			continue;
		fprintf(f, "qos %s %s %s", pl->app, pl->capsule, ovb_res_name(r));
		ovb_put_real(f, pl->sigma[r]);
		ovb_put_real(f, r == OVB_MEM ? pl->limit : pl->rho[r]);
		ovb_put_real(f, pl->tau[r]);
		ovb_put_real(f, pl->O[r]);
		fputc('\n', f);
	}
	if (pl->has_cpu_resv) {
		fprintf(f, "cpu-resv %s %s", pl->app, pl->capsule);
		ovb_put_real(f, pl->x);
		ovb_put_real(f, pl->y);
		ovb_put_real(f, pl->weight);
		fputc('\n', f);
	}
	if (pl->has_tbucket) {
		fprintf(f, "tbucket %s %s", pl->app, pl->capsule);
		ovb_put_real(f, pl->tb_sigma);
		ovb_put_real(f, pl->tb_rho);
		fputc('\n', f);
	}
	for (int r = 0; r < OVB_NCAP; r++)
		if (pl->unmeasured & (1u << r))
			fprintf(f, "unmeasured %s %s %s\n", pl->app, pl->capsule,
				ovb_res_name((enum ovb_res)r));
}

int
ovb_plan_write(FILE *f, const struct ovb_plan *p)
{
	ovb_put_magic(f, "plan");
	fputs("# place APP CAPSULE NODE PROFILE|-\n"
	      "# qos APP CAPSULE RES SIGMA[rate] RHO[burst] TAU[s] O\n"
	      "# cpu-resv APP CAPSULE X[cpu-s] Y[s] WEIGHT; "
	      "tbucket APP CAPSULE SIGMA[B/s] RHO[B]\n"
	      "# risk NODE RES PR(Y>C) O_MIN LOAD[rate] CAPACITY[rate]; "
	      "reject APP REASON\n# rate: cpu or B/s; burst: cpu-s or B; grid "
	      "POINTS: a node's grid is at least CAPACITY/POINTS\n", f);
	if (p->grid)
		fprintf(f, "grid %llu\n", (unsigned long long)p->grid);
	if (p->aggregate)
		fputs("mode aggregate\n", f);
	if (p->joint)
		fputs(p->joint_overlap ? "mode joint overlap\n" : "mode joint\n",
			f);
	if (p->nsigma) {
		fputs("mode nsigma", f);
		ovb_put_real(f, p->nsigma_n);
		fputc('\n', f);
	}
	if (p->mem_promise) {   /* pool, the default, is not written */
		fputs("mem-rule promise", f);
		if (p->mem_O >= 0)
			ovb_put_real(f, p->mem_O);
		fputc('\n', f);
	}
	if (p->valid_until)
		fprintf(f, "valid-until %llu\n",
			(unsigned long long)p->valid_until);
	if (p->enforce) {
		fputs("enforce ", f);
		for (int t = 0, k = 0; t < OVB_NTARGET; t++)
			if (p->enforce & (1u << t))
				fprintf(f, "%s%s", k++ ? "," : "",
					ovb_target_names[t]);
		fprintf(f, " %llu %llu", (unsigned long long)p->enf_hz,
			(unsigned long long)p->enf_mtu);
		ovb_put_real(f, p->enf_dlcap);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->n; i++)
		put_placed(f, &p->p[i]);
	for (size_t i = 0; i < p->nrisk; i++) {
		const struct ovb_noderisk *r = &p->risk[i];
		fprintf(f, "risk %s %s", r->node, ovb_res_name(r->res));
		ovb_put_real(f, r->risk);
		ovb_put_real(f, r->omin);
		ovb_put_real(f, r->load);
		ovb_put_real(f, r->capacity);
		if (r->res == OVB_MEM)
			ovb_put_real(f, r->exposure);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->nrej; i++)
		fprintf(f, "reject %s %s\n", p->rej[i].app, p->rej[i].reason);
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_plan_free(struct ovb_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->p[i].app);
		free(p->p[i].capsule);
		free(p->p[i].node);
		free(p->p[i].profile);
	}
	for (size_t i = 0; i < p->nrisk; i++)
		free(p->risk[i].node);
	for (size_t i = 0; i < p->nrej; i++) {
		free(p->rej[i].app);
		free(p->rej[i].reason);
	}
	free(p->p);
	free(p->risk);
	free(p->rej);
	memset(p, 0, sizeof *p);
}
