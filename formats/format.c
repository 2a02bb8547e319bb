/* format.c: the table of formats, sniffing a file's kind, and reading the
 * inputs of a tool whatever their format (and those of a placement,
 * ovb-place's and ovb-fit's, by one take: ovb_take_place).
 *
 * Every file starts with the record "ovb-NAME VERSION" (formats/lex.c
 * reads it); VERSION is the format's major version (1).  A Sharc RSL file
 * (first record "Application ...") is read as the apps format, a gain
 * table of the older header-only form (first record "nodes O placed") as
 * gain.  This file is the top of formats/: it calls every reader, and no
 * reader calls it. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

/* Each format's reader, writer and free behind the registry's exact
 * signatures: one small wrapper per function converts the void * to the
 * format's type (calling a function through a pointer of another type is
 * undefined, C11 6.3.2.3p8, and clang's -fsanitize=function aborts on it). */
#define WRAP(n, T) \
static int n##_read(struct ovb_lex *lx, void *obj) \
	{ struct T *o = obj; return ovb_##n##_read(lx, o); } \
static int n##_write(FILE *f, const void *obj) \
	{ const struct T *o = obj; return ovb_##n##_write(f, o); } \
static void n##_free(void *obj) \
	{ struct T *o = obj; ovb_##n##_free(o); }
OVB_FORMAT_LIST(WRAP)

#define ENTRY(n, T) { #n, sizeof(struct T), n##_read, n##_write, n##_free },
const struct ovb_format ovb_formats[] = {
	OVB_FORMAT_LIST(ENTRY)
};
const size_t ovb_nformats = sizeof ovb_formats / sizeof *ovb_formats;

const struct ovb_format *
ovb_format_by_name(const char *name)
{
	for (size_t i = 0; i < ovb_nformats; i++)
		if (strcmp(ovb_formats[i].name, name) == 0)
			return &ovb_formats[i];
	return NULL;
}

const struct ovb_format *
ovb_format_sniff(struct ovb_lex *lx, int *status)
{
	int st = ovb_lex_next(lx);
	*status = 0;
	if (st != 1) {
		*status = st ? st : ovb_err(lx, "empty input: no magic record");
		return NULL;
	}
	ovb_lex_unread(lx);
	const char *t = lx->tok[0];
	if (strcmp(t, "Application") == 0)
		return ovb_format_by_name("apps");
	if (ovb_gain_header(lx))
		return ovb_format_by_name("gain");
	if (strncmp(t, "ovb-", 4) == 0) {
		const struct ovb_format *f = ovb_format_by_name(t + 4);
		if (f)
			return f;
	}
	/* The list of magics, from the table. */
	char list[1024];
	size_t len = 0;
	list[0] = '\0';
	for (size_t i = 0; i < ovb_nformats && len < sizeof list; i++) {
		int k = snprintf(list + len, sizeof list - len, "ovb-%s, ",
			ovb_formats[i].name);
		len += k > 0 ? (size_t)k : 0;
	}
	*status = ovb_err(lx, "'%s' is not the magic record of an overbook "
		"file (%sor a Sharc RSL 'Application')", t, list);
	return NULL;
}

/* ---- reading any input of these formats ---- */

int
ovb_read_input(const char *path, ovb_take_fn *take, void *ctx)
{
	FILE *f;
	const char *name;
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, name);
	const struct ovb_format *fmt = ovb_format_sniff(&lx, &st);
	if (fmt)
		st = take(ctx, fmt, &lx);
	ovb_lex_free(&lx);
	ovb_close_in(f);
	return st;
}

int
ovb_read_inputs(int nfiles, char **files, ovb_take_fn *take, void *ctx)
{
	int status = 0, st;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++)
		if ((st = ovb_read_input(nfiles ? files[i] : NULL, take,
		    ctx)) > status)
			status = st;
	return status;
}

/* ---- the inputs of a profiling tool ---- */

static int
claim(struct ovb_select *sel, const char *file, const char *name)
{
	size_t i = ovb_names_get(&sel->seen, name);
	if (i != OVB_NONE)
		return ovb_err_at(file, 0, "capsule %s was already read from %s",
			name, sel->owner[i]);
	sel->name = ovb_xrealloc(sel->name, sel->nseen + 1, sizeof *sel->name);
	sel->owner = ovb_xrealloc(sel->owner, sel->nseen + 1,
		sizeof *sel->owner);
	sel->name[sel->nseen] = ovb_xstrdup(name);
	sel->owner[sel->nseen] = ovb_xstrdup(file);
	ovb_names_add(&sel->seen, sel->name[sel->nseen], sel->nseen);
	sel->nseen++;
	return 0;
}

/* 1: capsule name is chosen (and now claimed); 0: not chosen; or an
 * error. */
static int
chosen(struct ovb_select *sel, const char *file, const char *name)
{
	size_t k = ovb_names_get(&sel->caps, name);
	if (sel->ncaps && k == OVB_NONE)
		return 0;
	if (sel->ncaps)
		sel->found[k] = true;
	int st = claim(sel, file, name);
	return st ? st : 1;
}

struct profiled {
	struct ovb_select *sel;
	const struct ovb_profile_fn *fn;
	void *ctx;
};

static int
each_oncap(struct profiled *p, const char *file, const struct ovb_onoff *o)
{
	int st = p->fn->onoff_file ? p->fn->onoff_file(p->ctx, file, o) : 0;
	for (size_t i = 0; !st && i < o->ncap; i++) {
		const struct ovb_oncap *c = &o->cap[i];
		if ((st = chosen(p->sel, file, c->name)) != 1)
			continue;
		st = 0;
		/* an onoff trace has no memory usage: mem is left out */
		for (int r = 0; !st && r < OVB_NRES; r++)
			if (p->sel->res[r] && r != OVB_MEM)
				st = p->fn->onoff(p->ctx, file, o, c,
					(enum ovb_res)r);
	}
	return st;
}

/* The capsules of a series file in order of first appearance. */
static int
each_series(struct profiled *p, const char *file,
	const struct ovb_series_set *ss)
{
	struct ovb_names done = { 0 };
	int st = 0;
	for (size_t i = 0; !st && i < ss->n; i++) {
		const char *name = ss->s[i].capsule;
		if (!ovb_names_add(&done, name, i))
			continue;
		if ((st = chosen(p->sel, file, name)) != 1)
			continue;
		st = 0;
		for (int r = 0; !st && r < OVB_NRES; r++) {
			if (!p->sel->res[r])
				continue;
			const struct ovb_series *se = ovb_series_find(ss, name,
				(enum ovb_res)r);
			if (se)
				st = p->fn->series(p->ctx, file, se);
			else if (!ovb_quiet)
				ovb_warn("%s: capsule %s has no %s series; left "
					"out", file, name,
					ovb_res_name((enum ovb_res)r));
		}
	}
	ovb_names_free(&done);
	return st;
}

static int
take_profiled(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	struct profiled *p = ctx;
	int st;
	if (strcmp(fmt->name, "series") == 0) {
		struct ovb_series_set ss;
		if (!(st = ovb_series_read(lx, &ss)))
			st = each_series(p, lx->name, &ss);
		ovb_series_free(&ss);
	} else {     /* ovb_onoff_read names the kind it got instead */
		struct ovb_onoff o;
		if (!(st = ovb_onoff_read(lx, &o)))
			st = each_oncap(p, lx->name, &o);
		ovb_onoff_free(&o);
	}
	return st;
}

int
ovb_run_profiling(int nfiles, char **files, struct ovb_select *sel,
	const struct ovb_profile_fn *fn, void *ctx)
{
	struct ovb_out out;
	int status = ovb_out_open(&out, ovb_opt_output);
	if (status)
		return status;
	sel->found = ovb_xcalloc(sel->ncaps + 1, sizeof *sel->found);
	struct profiled p = { sel, fn, ctx };
	status = ovb_read_inputs(nfiles, files, take_profiled, &p);
	int missing = 0;
	for (size_t i = 0; !status && i < sel->ncaps; i++)
		if (!sel->found[i])
			missing = ovb_err_at(NULL, 0, "capsule %s (-c) is in no "
				"input", sel->cap[i]);
	if (!status)
		status = missing;
	if (!status)
		status = fn->write(ctx, out.f);
	return ovb_out_end(&out, status);
}

/* ---- several series files as one set ---- */

/* ovb_read_input's take: the series reader whatever the file is (its
 * magic check names what it got instead). */
static int
take_series(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)fmt;
	return ovb_series_read(lx, ctx);
}

/* Series files merged into one set: the samples of a (capsule, res) in
 * several files (months) are merged in time; the same slot twice, or two
 * intervals, is an error.  file[i] names the first file of all->s[i]. */

static int
merge(struct ovb_series *d, const char *dfile, const struct ovb_series *s,
	const char *sfile)
{
	if (d->interval != s->interval)
		return ovb_err_at(sfile, s->line, "series %s %s: interval %llu s, "
			"but %llu s in %s", s->capsule, ovb_res_name(s->res),
			(unsigned long long)s->interval,
			(unsigned long long)d->interval, dfile);
	size_t n = d->n + s->n, i = 0, j = 0, k = 0;
	uint64_t *t = ovb_xcalloc(n, sizeof *t);
	double *v = ovb_xcalloc(n, sizeof *v);
	while (i < d->n || j < s->n) {
		if (i < d->n && j < s->n && d->t[i] == s->t[j]) {
			int st = ovb_err_at(sfile, s->line, "series %s %s: the "
				"sample at %llu is also in %s", s->capsule,
				ovb_res_name(s->res), (unsigned long long)s->t[j],
				dfile);
			free(t);
			free(v);
			return st;
		}
		if (j >= s->n || (i < d->n && d->t[i] < s->t[j]))
			t[k] = d->t[i], v[k++] = d->v[i++];
		else
			t[k] = s->t[j], v[k++] = s->v[j++];
	}
	free(d->t);
	free(d->v);
	d->t = t;
	d->v = v;
	d->n = d->cap = n;
	return 0;
}

int
ovb_series_merge(struct ovb_series_set *all, const char ***files,
	struct ovb_series_set *ss, const char *path)
{
	int st = 0;
	for (size_t k = 0; !st && k < ss->n; k++) {
		struct ovb_series *s = &ss->s[k];
		const struct ovb_series *old = ovb_series_find(all, s->capsule,
			s->res);
		if (old) {
			size_t at = (size_t)(old - all->s);
			st = merge(&all->s[at], (*files)[at], s, path);
			continue;
		}
		struct ovb_series *d = OVB_PUSH(all->s, all->n, all->cap);
		*d = *s;
		memset(s, 0, sizeof *s);
		*files = ovb_xrealloc(*files, all->n, sizeof **files);
		(*files)[all->n - 1] = path;
	}
	ovb_series_free(ss);
	return st;
}

int
ovb_series_load(char **paths, size_t n, struct ovb_series_set *all,
	const char ***files)
{
	int status = 0;
	for (size_t i = 0; i < n; i++) {
		struct ovb_series_set ss;
		memset(&ss, 0, sizeof ss);
		int st = ovb_read_input(paths[i], take_series, &ss);
		if (!st)
			st = ovb_series_merge(all, files, &ss, paths[i]);
		else
			ovb_series_free(&ss);
		if (st > status)
			status = st;
	}
	return status;
}

int
ovb_joint_load(const struct ovb_cliopt_joint *o, struct ovb_series_set *ss,
	struct ovb_joint *j)
{
	const char **files = NULL;
	char *path = (char *)o->series;
	memset(j, 0, sizeof *j);
	int st = ovb_series_load(&path, 1, ss, &files);
	free(files);
	size_t bad = 0;
	if (!st && ovb_joint_make(j, ss, o->from, o->to, o->series, &bad))
		st = ovb_err_at(o->series, ss->s[bad].line, "series %s %s: "
			"interval %llu s, but an earlier cpu, net or net-rx series "
			"has %llu s (--mode joint adds the samples slot by slot)",
			ss->s[bad].capsule, ovb_res_name(ss->s[bad].res),
			(unsigned long long)ss->s[bad].interval,
			(unsigned long long)j->interval);
	j->overlap = o->overlap;
	return st;
}

/* ---- the inputs of the market tools ---- */

static int
take_market(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	struct ovb_market_in *in = ctx;
	if (!strcmp(fmt->name, "cluster") && !in->cfile) {
		in->cfile = ovb_xstrdup(lx->name);
		return ovb_cluster_read(lx, &in->c);
	}
	if (!strcmp(fmt->name, "bids") && !in->bfile) {
		in->bfile = ovb_xstrdup(lx->name);
		return ovb_bids_read(lx, &in->b);
	}
	return ovb_err(lx, "this is an ovb-%s file; expected one ovb-cluster "
		"and one ovb-bids", fmt->name);
}

int
ovb_market_load(int nfiles, char **files, struct ovb_market_in *in,
	struct ovb_market *m)
{
	memset(in, 0, sizeof *in);
	memset(m, 0, sizeof *m);
	int st = ovb_read_inputs(nfiles, files, take_market, in);
	if (!st && (!in->cfile || !in->bfile))
		st = ovb_err_at(in->cfile ? in->cfile : in->bfile, 0, "expected "
			"one ovb-cluster and one ovb-bids file");
	if (!st)
		st = ovb_market_init(m, &in->b, in->bfile, &in->c, in->cfile);
	return st;
}

void
ovb_market_in_free(struct ovb_market_in *in)
{
	if (in->cfile)
		ovb_cluster_free(&in->c);
	if (in->bfile)
		ovb_bids_free(&in->b);
	free(in->cfile);
	free(in->bfile);
	memset(in, 0, sizeof *in);
}

/* ---- the inputs of a placement (ovb-place, ovb-fit) ---- */

int
ovb_take_place(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	struct ovb_place_in *S = ctx;
	int st;
	if (!strcmp(fmt->name, "profile")) {
		struct ovb_profiles p;
		if (!(st = ovb_profile_read(lx, &p)))
			return ovb_profile_merge(&S->prof, &p, lx->name);
		ovb_profile_free(&p);
		return st;
	}
	if (!strcmp(fmt->name, "cluster")) {
		if (S->have_cluster)
			return ovb_err(lx, "a second cluster file");
		S->have_cluster = true;
		S->cluster_file = ovb_xstrdup(lx->name);
		return ovb_cluster_read(lx, &S->cluster);
	}
	if (!strcmp(fmt->name, "apps")) {
		if (S->have_apps)
			return ovb_err(lx, "a second apps file");
		S->have_apps = true;
		S->apps_file = ovb_xstrdup(lx->name);
		return ovb_apps_read(lx, &S->apps);
	}
	if (!strcmp(fmt->name, "plan") && !S->no_plan) {
		if (S->have_plan)
			return ovb_err(lx, "a second plan");
		S->have_plan = true;
		S->plan_file = ovb_xstrdup(lx->name);
		return ovb_plan_read(lx, &S->plan);
	}
	return ovb_err(lx, "an ovb-%s file is not an input of %s", fmt->name,
		S->what);
}
