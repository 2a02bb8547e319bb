/* series.c: time-aligned usage samples (format ovb-series, spec: series.md).
 *
 *	series CAPSULE RES / interval I s / sample T V...
 *
 * Invariants of a read series: 1 <= I <= OVB_SERIES_MAXI; at least one
 * sample; T strictly increasing multiples of I with T + I <=
 * OVB_SERIES_MAXT; V finite and >= 0.  (CAPSULE, RES) unique in a file.
 * What is computed from series (U, rho(sigma), exact sums) is in
 * lib/measure.c and lib/tbucket.c. */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

struct ovb_series *
ovb_series_add(struct ovb_series_set *ss, const char *capsule,
	enum ovb_res res, uint64_t interval)
{
	struct ovb_series *s = OVB_PUSH(ss->s, ss->n, ss->cap);
	memset(s, 0, sizeof *s);
	s->capsule = ovb_xstrdup(capsule);
	s->res = res;
	s->interval = interval;
	return s;
}

void
ovb_series_push(struct ovb_series *s, uint64_t t, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->t = ovb_xrealloc(s->t, s->cap, sizeof *s->t);
		s->v = ovb_xrealloc(s->v, s->cap, sizeof *s->v);
	}
	s->t[s->n] = t;
	s->v[s->n++] = v;
}

const struct ovb_series *
ovb_series_find(const struct ovb_series_set *ss, const char *capsule,
	enum ovb_res res)
{
	for (size_t i = 0; i < ss->n; i++)
		if (ss->s[i].res == res && strcmp(ss->s[i].capsule, capsule) == 0)
			return &ss->s[i];
	return NULL;
}

static int
read_interval(struct ovb_series *s, struct ovb_lex *lx)
{
	uint64_t i;
	int st = ovb_arity(lx, 3, 3, "interval I s");
	if (st || (st = ovb_tok_u64(lx, 1, "interval", &i)) ||
	    (st = ovb_tok_unit(lx, 2, "s")))
		return st;
	if (s->interval)
		return ovb_err(lx, "interval is given twice in this series "
			"(opened at line %lu)", s->line);
	if (i < 1 || i > OVB_SERIES_MAXI)
		return ovb_err(lx, "interval: %s s is not an integer number of "
			"seconds in 1..%u", lx->tok[1], OVB_SERIES_MAXI);
	s->interval = i;
	return 0;
}

static int
read_sample(struct ovb_series *s, struct ovb_lex *lx)
{
	uint64_t t;
	double v;
	int st = ovb_arity(lx, 3, 3, "sample T V");
	if (st || (st = ovb_tok_u64(lx, 1, "sample time", &t)) ||
	    (st = ovb_tok_nonneg(lx, 2, "sample value", &v)))
		return st;
	if (!s->interval)
		return ovb_err(lx, "sample before the series' 'interval I s' "
			"record");
	if (t % s->interval)
		return ovb_err(lx, "sample: time %s is not a multiple of the "
			"interval %llu s", lx->tok[1],
			(unsigned long long)s->interval);
	if (t > OVB_SERIES_MAXT - s->interval)
		return ovb_err(lx, "sample: time %s is too large (T + I must "
			"be at most 2^62)", lx->tok[1]);
	if (s->n && t <= s->t[s->n - 1])
		return ovb_err(lx, "sample: time %s is not after the previous "
			"sample's %llu (times must increase)", lx->tok[1],
			(unsigned long long)s->t[s->n - 1]);
	ovb_series_push(s, t, v);
	return 0;
}

static int
end_block(const struct ovb_series *s, const struct ovb_lex *lx)
{
	if (!s->interval)
		return ovb_err_at(lx->name, s->line, "series %s %s: missing "
			"'interval' record", s->capsule, ovb_res_name(s->res));
	if (!s->n)
		return ovb_err_at(lx->name, s->line, "series %s %s: no samples",
			s->capsule, ovb_res_name(s->res));
	return 0;
}

int
ovb_series_read(struct ovb_lex *lx, struct ovb_series_set *ss)
{
	memset(ss, 0, sizeof *ss);
	struct ovb_names seen = { 0 };
	char **keys = NULL;
	size_t nkeys = 0;
	struct ovb_series *cur = NULL;
	int st = ovb_magic(lx, "series");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0];
		st = 0;
		if (cur && strcmp(kw, "sample") == 0) {  /* the most of them */
			st = read_sample(cur, lx);
			continue;
		}
		if (strcmp(kw, "series") == 0) {
			if (cur && (st = end_block(cur, lx)))
				break;
			struct ovb_dist d;
			memset(&d, 0, sizeof d);
			if ((st = ovb_block_open(lx, &seen, &keys, &nkeys, &d)))
				break;
			cur = ovb_series_add(ss, d.capsule, d.res, 0);
			cur->line = lx->line;
			ovb_dist_free(&d);
		} else if (!cur)
			st = ovb_err(lx, "'%s' before any 'series CAPSULE RES' "
				"record", kw);
		else if (strcmp(kw, "interval") == 0)
			st = read_interval(cur, lx);
		else if (strcmp(kw, "sample") == 0)
			st = read_sample(cur, lx);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-series "
				"file", kw);
	}
	if (!st && cur)
		st = end_block(cur, lx);
	else if (!st)
		st = ovb_err(lx, "no series");
	ovb_block_keys_free(&seen, keys, nkeys);
	return st;
}

int
ovb_series_write(FILE *f, const struct ovb_series_set *ss)
{
	ovb_put_magic(f, "series");
	fputs("# series CAPSULE RES; interval I s; sample T V: the mean usage "
	      "over [T, T+I)\n# in cpu, B/s or B (mem), T in s since the epoch, "
	      "a multiple of I, increasing\n", f);
	char buf[32];
	for (size_t i = 0; i < ss->n; i++) {
		const struct ovb_series *s = &ss->s[i];
		fprintf(f, "series %s %s\ninterval %llu s\n", s->capsule,
			ovb_res_name(s->res), (unsigned long long)s->interval);
		for (size_t k = 0; k < s->n; k++)
			fprintf(f, "sample %llu %s\n", (unsigned long long)s->t[k],
				ovb_fmt_real(buf, s->v[k]));
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_series_free(struct ovb_series_set *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->s[i].capsule);
		free(ss->s[i].t);
		free(ss->s[i].v);
	}
	free(ss->s);
	memset(ss, 0, sizeof *ss);
}

/* ---- several files as one set ---- */

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
