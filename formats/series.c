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

void
ovb_series_head(FILE *f)
{
	ovb_put_magic(f, "series");
	fputs("# series CAPSULE RES; interval I s; sample T V: the mean usage "
	      "over [T, T+I)\n# in cpu, B/s or B (mem), T in s since the epoch, "
	      "a multiple of I, increasing\n", f);
}

char *
ovb_series_block_text(char *o, const char *capsule, enum ovb_res res,
	uint64_t interval)
{
	o = stpcpy(o, "series ");
	o = stpcpy(o, capsule);
	*o++ = ' ';
	o = stpcpy(o, ovb_res_name(res));
	o = stpcpy(o, "\ninterval ");
	o = ovb_fmt_u64_end(o, interval);
	return stpcpy(o, " s\n");
}

char *
ovb_series_sample_text(char *o, uint64_t t, double v)
{
	memcpy(o, "sample ", 7);
	o = ovb_fmt_u64_end(o + 7, t);
	*o++ = ' ';
	o = ovb_fmt_real_end(o, v);
	*o++ = '\n';
	return o;
}

int
ovb_series_write(FILE *f, const struct ovb_series_set *ss)
{
	ovb_series_head(f);
	char buf[4096];
	for (size_t i = 0; i < ss->n; i++) {
		const struct ovb_series *s = &ss->s[i];
		char *o = ovb_series_block_text(buf, s->capsule, s->res,
			s->interval);
		for (size_t k = 0; k < s->n; k++) {
			if (o - buf > (ptrdiff_t)sizeof buf - OVB_SERIES_SAMPLE_MAX) {
				fwrite_unlocked(buf, 1, (size_t)(o - buf), f);
				o = buf;
			}
			o = ovb_series_sample_text(o, s->t[k], s->v[k]);
		}
		fwrite_unlocked(buf, 1, (size_t)(o - buf), f);
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
