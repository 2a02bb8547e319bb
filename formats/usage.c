/* usage.c: usage distributions U (format ovb-usage, spec: usage.md), and
 * the distribution records shared with ovb-profile.
 *
 *	usage CAPSULE RES / interval I s / width W UNIT / intervals N /
 *	bin K COUNT... / [mean V UNIT] / [pct P V UNIT...] / [trace ...] /
 *	[forecast T] / [lost D] / [wait PREEMPTED WOKEN BUSY AS] (cpu)
 *
 * Invariants of a read distribution: counts add up to n >= 1; the last bin
 * is non-zero; mean and percentiles, when given, are consistent with the
 * bins they were measured into. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

enum { SEEN_INTERVAL = 1, SEEN_WIDTH = 2, SEEN_INTERVALS = 4, SEEN_MEAN = 8,
	SEEN_FORECAST = 16, SEEN_LOST = 32, SEEN_WAIT = 64 };

void
ovb_dist_free(struct ovb_dist *d)
{
	free(d->capsule);
	free(d->h.count);
	ovb_trace_free(&d->trace);
	memset(d, 0, sizeof *d);
}

/* ---- trace HOST KERNEL START LENGTH s: where and when ---- */

void
ovb_trace_free(struct ovb_trace *t)
{
	free(t->host);
	free(t->kernel);
	free(t->start);
	memset(t, 0, sizeof *t);
}

static char *
dup_or_null(const char *s)
{
	return s ? ovb_xstrdup(s) : NULL;
}

void
ovb_trace_copy(struct ovb_trace *to, const struct ovb_trace *from)
{
	*to = *from;
	to->host = dup_or_null(from->host);
	to->kernel = dup_or_null(from->kernel);
	to->start = dup_or_null(from->start);
}

/* YYYY-MM-DDTHH:MM:SS[.fraction]Z, a real date and time */
static bool
utc_time(const char *s)
{
	int y, mo, d, h, mi, sec, n = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec,
	    &n) != 6 || n != 19 || s[4] != '-' || s[7] != '-')
		return false;
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
		30, 31 };
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    h > 23 || mi > 59 || sec > 60 || h < 0 || mi < 0 || sec < 0)
		return false;
	s += 19;
	if (*s == '.') {
		size_t k = strspn(s + 1, "0123456789");
		if (k < 1 || k > 9)
			return false;
		s += 1 + k;
	}
	return !strcmp(s, "Z");
}

int
ovb_trace_read(struct ovb_lex *lx, struct ovb_trace *t)
{
	if (t->has)
		return ovb_err(lx, "trace is given twice");
	int st = ovb_arity(lx, 6, 6, "trace HOST KERNEL START LENGTH s");
	if (st)
		return st;
	for (int i = 1; i <= 2; i++)
		if (strcmp(lx->tok[i], "-") && !ovb_valid_name(lx->tok[i]))
			return ovb_err(lx, "trace: %s '%s' is not a name or '-'",
				i == 1 ? "HOST" : "KERNEL", lx->tok[i]);
	if (strcmp(lx->tok[3], "-") && !utc_time(lx->tok[3]))
		return ovb_err(lx, "trace: START '%s' is not a UTC time "
			"YYYY-MM-DDTHH:MM:SS[.fraction]Z or '-'", lx->tok[3]);
	double len;
	if ((st = ovb_tok_nonneg(lx, 4, "trace LENGTH", &len)) ||
	    (st = ovb_tok_unit(lx, 5, "s")))
		return st;
	t->has = true;
	t->host = strcmp(lx->tok[1], "-") ? ovb_xstrdup(lx->tok[1]) : NULL;
	t->kernel = strcmp(lx->tok[2], "-") ? ovb_xstrdup(lx->tok[2]) : NULL;
	t->start = strcmp(lx->tok[3], "-") ? ovb_xstrdup(lx->tok[3]) : NULL;
	t->length = len;
	return 0;
}

void
ovb_trace_put(FILE *f, const struct ovb_trace *t)
{
	if (!t->has)
		return;
	fprintf(f, "trace %s %s %s", t->host ? t->host : "-",
		t->kernel ? t->kernel : "-", t->start ? t->start : "-");
	ovb_put_real(f, t->length);
	fputs(" s\n", f);
}

void
ovb_dist_begin(struct ovb_dist_reader *r, struct ovb_dist *d,
	unsigned long line)
{
	memset(r, 0, sizeof *r);
	r->d = d;
	r->line = line;
}

static int
read_bin(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_hist *h = &r->d->h;
	uint64_t k, c;
	int st = ovb_arity(lx, 3, 3, "bin K COUNT");
	if (st || (st = ovb_tok_u64(lx, 1, "bin index", &k)) ||
	    (st = ovb_tok_u64(lx, 2, "bin count", &c)))
		return st;
	if (k >= OVB_MAXBINS)
		return ovb_err(lx, "bin: index %s is not below %d", lx->tok[1],
			OVB_MAXBINS);
	if (k >= h->nbins) {
		size_t old = r->capcount;
		while (r->capcount <= k)
			r->capcount = r->capcount ? 2 * r->capcount : 64;
		if (r->capcount > OVB_MAXBINS)
			r->capcount = OVB_MAXBINS;
		if (r->capcount != old) {
			h->count = ovb_xrealloc(h->count, r->capcount, sizeof *h->count);
			r->binseen = ovb_xrealloc(r->binseen, r->capcount, 1);
			memset(h->count + old, 0, (r->capcount - old) * sizeof *h->count);
			memset(r->binseen + old, 0, r->capcount - old);
		}
		h->nbins = k + 1;
	}
	if (r->binseen[k])
		return ovb_err(lx, "bin %s is given twice", lx->tok[1]);
	r->binseen[k] = 1;
	h->count[k] = c;
	return 0;
}

static int
read_pct(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_dist *d = r->d;
	double p, v;
	int st = ovb_arity(lx, 4, 4, "pct P VALUE UNIT");
	if (st || (st = ovb_tok_real(lx, 1, "pct P", &p)) ||
	    (st = ovb_tok_nonneg(lx, 2, "pct value", &v)) ||
	    (st = ovb_tok_unit(lx, 3, ovb_res_rate_unit(d->res))))
		return st;
	if (p < 0 || p > 100)
		return ovb_err(lx, "pct: percentile %s is outside [0,100]",
			lx->tok[1]);
	for (int i = 0; i < d->npct; i++)
		if (d->pct_p[i] == p)
			return ovb_err(lx, "pct %s is given twice", lx->tok[1]);
	if (d->npct == OVB_MAXPCT)
		return ovb_err(lx, "pct: more than %d percentiles", OVB_MAXPCT);
	d->pct_p[d->npct] = p;
	d->pct_v[d->npct++] = v;
	return 0;
}

static int
once(struct ovb_dist_reader *r, struct ovb_lex *lx, unsigned bit)
{
	if (r->seen & bit)
		return ovb_err(lx, "%s is given twice in this distribution "
			"(opened at line %lu)", lx->tok[0], r->line);
	r->seen |= bit;
	return 0;
}

/* A once-only quantity record of the block: "KEYWORD VALUE [UNIT]". */
static int
scalar(struct ovb_dist_reader *r, struct ovb_lex *lx, unsigned bit, enum ovb_range range,
	const char *what, double *v, const char *unit)
{
	int st = once(r, lx, bit);
	return st ? st : ovb_quantity(lx, range, what, v, unit);
}

int
ovb_dist_record(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_dist *d = r->d;
	const char *kw = lx->tok[0];
	const char *unit = ovb_res_rate_unit(d->res);
	int st;
	if (strcmp(kw, "bin") == 0)
		st = read_bin(r, lx);
	else if (strcmp(kw, "pct") == 0)
		st = read_pct(r, lx);
	else if (strcmp(kw, "interval") == 0)
		st = scalar(r, lx, SEEN_INTERVAL, OVB_POS,
			"measurement interval", &d->interval, "s");
	else if (strcmp(kw, "width") == 0)
		st = scalar(r, lx, SEEN_WIDTH, OVB_POS,
			"bin width", &d->h.width, unit);
	else if (strcmp(kw, "intervals") == 0) {
		if (!(st = once(r, lx, SEEN_INTERVALS)) &&
		    !(st = ovb_arity(lx, 2, 2, "intervals N")) &&
		    !(st = ovb_tok_u64(lx, 1, "intervals", &d->h.n)) && d->h.n == 0)
			st = ovb_err(lx, "intervals: must be at least 1");
	} else if (strcmp(kw, "mean") == 0) {
		st = scalar(r, lx, SEEN_MEAN, OVB_NONNEG, "mean",
			&d->mean, unit);
		d->has_mean = !st;
	} else if (strcmp(kw, "trace") == 0)
		st = ovb_trace_read(lx, &d->trace);
	else if (strcmp(kw, "forecast") == 0) {
		if (!(st = once(r, lx, SEEN_FORECAST)) &&
		    !(st = ovb_arity(lx, 2, 2, "forecast T")) &&
		    !(st = ovb_tok_u64(lx, 1, "forecast T", &d->forecast)) &&
		    (d->forecast == 0 || d->forecast > (UINT64_C(1) << 62)))
			st = ovb_err(lx, "forecast: %s is not in 1..2^62 s "
				"since the epoch", lx->tok[1]);
	} else if (strcmp(kw, "wait") == 0) {
		if (d->res != OVB_CPU)
			st = ovb_err(lx, "wait: a %s block has no runnable wait "
				"(only cpu blocks carry it)", ovb_res_name(d->res));
		else if (!(st = once(r, lx, SEEN_WAIT)))
			st = ovb_arity(lx, 5, 5, "wait PREEMPTED WOKEN BUSY AS");
		if (!st)
			st = ovb_wait_read(lx, 1, &d->wait);
	} else if (strcmp(kw, "lost") == 0) {
		if (!(st = once(r, lx, SEEN_LOST)) &&
		    !(st = ovb_arity(lx, 2, 2, "lost D")) &&
		    !(st = ovb_tok_u64(lx, 1, "lost D", &d->lost)) &&
		    d->lost > (UINT64_C(1) << 53))
			st = ovb_err(lx, "lost: %s intervals is more than 2^53",
				lx->tok[1]);
	} else
		return 0;
	return st ? st : 1;
}

/* ---- wait [NAME] PREEMPTED WOKEN BUSY AS: runnable waits ---- */

int
ovb_wait_read(struct ovb_lex *lx, int i, struct ovb_wait *w)
{
	struct ovb_wait v = { .has = true };
	int st;
	if ((st = ovb_tok_u64(lx, i, "wait PREEMPTED", &v.preempted)))
		return st;
	v.woke = strcmp(lx->tok[i + 1], "-") != 0;
	if (v.woke && (st = ovb_tok_u64(lx, i + 1, "wait WOKEN (or '-': not "
	    "measured)", &v.woken)))
		return st;
	if ((st = ovb_tok_u64(lx, i + 2, "wait BUSY", &v.busy)))
		return st;
	const char *as = lx->tok[i + 3];
	if (strcmp(as, "demand") && strcmp(as, "receipt"))
		return ovb_err(lx, "wait: AS '%s' is not 'demand' (the waits are "
			"counted as busy) or 'receipt' (they are not)", as);
	v.demand = as[0] == 'd';
	if (v.preempted > UINT64_MAX - v.woken)
		return ovb_err(lx, "wait: PREEMPTED + WOKEN is beyond 2^64 ns");
	*w = v;
	return 0;
}

void
ovb_wait_put(FILE *f, const char *name, const struct ovb_wait *w)
{
	if (!w->has)
		return;
	fputs("wait ", f);
	if (name)
		fprintf(f, "%s ", name);
	fprintf(f, "%llu ", (unsigned long long)w->preempted);
	if (w->woke)
		fprintf(f, "%llu", (unsigned long long)w->woken);
	else
		fputc('-', f);
	fprintf(f, " %llu %s\n", (unsigned long long)w->busy,
		w->demand ? "demand" : "receipt");
}

double
ovb_wait_share(const struct ovb_wait *w)
{
	uint64_t t = w->preempted + w->woken;
	if (!w->busy)
		return t ? INFINITY : 0;
	return 100.0 * (double)t / (double)w->busy;
}

bool
ovb_wait_over(const struct ovb_wait *w)
{
	/* 100 (PREEMPTED + WOKEN) > PCT BUSY, in 128 bits: exact */
	unsigned __int128 t = (unsigned __int128)(w->preempted + w->woken);
	return 100 * t > (unsigned __int128)OVB_WAIT_PCT * w->busy;
}

const char *
ovb_wait_say(char *buf, size_t size, const struct ovb_wait *w)
{
	char woke[96] = "after wake-ups not measured: the trace has no "
		"sched:sched_wakeup";
	if (w->woke)
		snprintf(woke, sizeof woke, "%.6f after wake-ups",
			(double)w->woken / 1e9);
	snprintf(buf, size, "its tasks waited for a CPU while runnable %.6f "
		"task-s (%.6f after preemptions, %s), %.3g %% of its busy time",
		(double)(w->preempted + w->woken) / 1e9,
		(double)w->preempted / 1e9, woke, ovb_wait_share(w));
	return buf;
}

bool
ovb_dist_lost_too_many(const struct ovb_dist *d, double O)
{
	if (!d->lost)
		return false;
	/* 2 D > O (N + D), exactly: N + D and 2 D are exact doubles (at
	 * most 2^54), the product's rounding error is fma's, and the
	 * difference of two doubles within a factor 2 is exact */
	double m = (double)d->h.n + (double)d->lost, d2 = 2 * (double)d->lost;
	double p = O * m, e = fma(O, m, -p);
	if (d2 > 2 * p || d2 < p / 2)
		return d2 > p;
	return d2 - p > e;
}

static bool
within(double v, double lo, double hi, double scale)
{
	double tol = 1e-9 * scale;
	return v >= lo - tol && v <= hi + tol;
}

static int
check_pct(struct ovb_dist_reader *r, struct ovb_lex *lx, int i)
{
	const struct ovb_dist *d = r->d;
	const struct ovb_hist *h = &d->h;
	uint64_t rank = ovb_pct_rank(d->pct_p[i], h->n), cum = 0;
	size_t k = 0;
	while (k < h->nbins && (cum += h->count[k]) < rank)
		k++;
	double lo = ovb_hist_lo(h, k), hi = ovb_hist_hi(h, k), v = d->pct_v[i];
	bool ok = k == 0 ? v == 0 : k == 1 ? v > 0 && within(v, lo, hi,
		h->width) : v > lo - 1e-9 * h->width && within(v, lo, hi, h->width);
	if (!ok) {
		char p[32], a[32], b[32];
		return ovb_err_at(lx->name, r->line, "distribution of %s %s: "
			"pct %s is %g, but the bins put rank %llu of %llu in "
			"(%s, %s]", d->capsule, ovb_res_name(d->res),
			ovb_fmt_real(p, d->pct_p[i]), v, (unsigned long long)rank,
			(unsigned long long)h->n, ovb_fmt_real(a, lo),
			ovb_fmt_real(b, hi));
	}
	return 0;
}

int
ovb_dist_end(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_dist *d = r->d;
	struct ovb_hist *h = &d->h;
	static const char *const need[] = { "interval", "width", "intervals" };
	int st = 0;
	free(r->binseen);
	r->binseen = NULL;
	for (int i = 0; i < 3; i++)
		if (!(r->seen & (1u << i)))
			return ovb_err_at(lx->name, r->line, "distribution of %s "
				"%s: missing '%s' record", d->capsule,
				ovb_res_name(d->res), need[i]);
	uint64_t sum = 0;
	double lo = 0, hi = 0;
	for (size_t k = 0; k < h->nbins; k++) {
		if (h->count[k] > UINT64_MAX - sum)
			return ovb_err_at(lx->name, r->line, "bin counts overflow");
		sum += h->count[k];
		lo += (double)h->count[k] * ovb_hist_lo(h, k);
		hi += (double)h->count[k] * ovb_hist_hi(h, k);
	}
	if (sum != h->n)
		return ovb_err_at(lx->name, r->line, "distribution of %s %s: "
			"bin counts add up to %llu, but intervals is %llu",
			d->capsule, ovb_res_name(d->res),
			(unsigned long long)sum, (unsigned long long)h->n);
	while (h->nbins && h->count[h->nbins - 1] == 0)
		h->nbins--;
	if (h->nbins && (!isfinite(ovb_hist_hi(h, h->nbins - 1)) ||
	    !isfinite(hi)))
		return ovb_err_at(lx->name, r->line, "distribution of %s %s: "
			"bin %zu of width %g reaches beyond the largest real "
			"(1.8e308)", d->capsule, ovb_res_name(d->res),
			h->nbins - 1, h->width);
	if (d->has_mean && !within(d->mean, lo / (double)sum,
	    hi / (double)sum, hi / (double)sum + h->width))
		return ovb_err_at(lx->name, r->line, "distribution of %s %s: "
			"mean %g is outside [%g, %g], the range its bins allow",
			d->capsule, ovb_res_name(d->res), d->mean,
			lo / (double)sum, hi / (double)sum);
	for (int i = 0; !st && i < d->npct; i++)
		st = check_pct(r, lx, i);
	return st;
}

static int
cmp_pct(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void
ovb_dist_put(FILE *f, const struct ovb_dist *d)
{
	const char *unit = ovb_res_rate_unit(d->res);
	fputs("interval", f);
	ovb_put_real(f, d->interval);
	fputs(" s\nwidth", f);
	ovb_put_real(f, d->h.width);
	fprintf(f, " %s\nintervals %llu\n", unit, (unsigned long long)d->h.n);
	ovb_trace_put(f, &d->trace);
	if (d->forecast)
		fprintf(f, "forecast %llu\n", (unsigned long long)d->forecast);
	if (d->lost)
		fprintf(f, "lost %llu\n", (unsigned long long)d->lost);
	ovb_wait_put(f, NULL, &d->wait);
	if (d->has_mean) {
		fputs("mean", f);
		ovb_put_real(f, d->mean);
		fprintf(f, " %s\n", unit);
	}
	double pv[OVB_MAXPCT][2];
	for (int i = 0; i < d->npct; i++) {
		pv[i][0] = d->pct_p[i];
		pv[i][1] = d->pct_v[i];
	}
	ovb_qsort(pv, (size_t)d->npct, sizeof *pv, cmp_pct);
	for (int i = 0; i < d->npct; i++) {
		fputs("pct", f);
		ovb_put_real(f, pv[i][0]);
		ovb_put_real(f, pv[i][1]);
		fprintf(f, " %s\n", unit);
	}
	for (size_t k = 0; k < d->h.nbins; k++)
		if (d->h.count[k])
			fprintf(f, "bin %zu %llu\n", k,
				(unsigned long long)d->h.count[k]);
}

/* A block's opening record: KEYWORD CAPSULE RES, unique in the file. */
int
ovb_block_open(struct ovb_lex *lx, struct ovb_names *seen, char ***keys,
	size_t *nkeys, struct ovb_dist *d)
{
	char syntax[64];
	snprintf(syntax, sizeof syntax, "%s CAPSULE RES", lx->tok[0]);
	int st = ovb_arity(lx, 3, 3, syntax);
	if (st || (st = ovb_tok_name(lx, 1, "capsule name")))
		return st;
	int res = ovb_res_parse(lx->tok[2]);
	if (res < 0)
		return ovb_err(lx, "%s: unknown resource '%s' (cpu, net, net-rx, mem)",
			lx->tok[0], lx->tok[2]);
	char *key = ovb_xmalloc(strlen(lx->tok[1]) + 8);
	sprintf(key, "%s %s", lx->tok[1], lx->tok[2]);
	*keys = ovb_xrealloc(*keys, *nkeys + 1, sizeof **keys);
	(*keys)[(*nkeys)++] = key;
	size_t first = ovb_names_get(seen, key);
	if (first != OVB_NONE)
		return ovb_err(lx, "%s %s %s is given twice (first at line %zu)",
			lx->tok[0], lx->tok[1], lx->tok[2], first);
	ovb_names_add(seen, key, lx->line);
	memset(d, 0, sizeof *d);
	d->capsule = ovb_xstrdup(lx->tok[1]);
	d->res = (enum ovb_res)res;
	return 0;
}

void
ovb_block_keys_free(struct ovb_names *seen, char **keys, size_t nkeys)
{
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	ovb_names_free(seen);
}

int
ovb_usage_read(struct ovb_lex *lx, struct ovb_usage *u)
{
	memset(u, 0, sizeof *u);
	struct ovb_names seen = { 0 };
	char **keys = NULL;
	size_t nkeys = 0;
	struct ovb_dist_reader rd = { 0 };
	int st = ovb_magic(lx, "usage");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		st = 0;
		if (strcmp(lx->tok[0], "usage") == 0) {
			if (rd.d && (st = ovb_dist_end(&rd, lx)))
				break;
			struct ovb_dist *d = OVB_PUSH(u->d, u->n, u->cap);
			memset(d, 0, sizeof *d);
			if (!(st = ovb_block_open(lx, &seen, &keys, &nkeys, d)))
				ovb_dist_begin(&rd, d, lx->line);
			else
				u->n--, ovb_dist_free(d), rd.d = NULL;
		} else if (!rd.d)
			st = ovb_err(lx, "'%s' before any 'usage CAPSULE RES' "
				"record", lx->tok[0]);
		else if ((st = ovb_dist_record(&rd, lx)) == 0)
			st = ovb_err(lx, "unknown record '%s' in an ovb-usage "
				"file", lx->tok[0]);
		else if (st == 1)
			st = 0;
	}
	if (!st && rd.d)
		st = ovb_dist_end(&rd, lx);
	else if (!st)
		st = ovb_err(lx, "no distributions");
	free(rd.binseen);
	ovb_block_keys_free(&seen, keys, nkeys);
	return st;
}

int
ovb_usage_write(FILE *f, const struct ovb_usage *u)
{
	ovb_put_magic(f, "usage");
	fputs("# usage CAPSULE RES; interval I s; width W UNIT; intervals N;\n"
	      "# mean V UNIT; pct P V UNIT; bin K COUNT: bin 0 counts usage 0,\n"
	      "# bin K counts usage in ((K-1)W, KW]; UNIT cpu, B/s or B "
	      "(mem)\n", f);
	for (size_t i = 0; i < u->n; i++) {
		fprintf(f, "usage %s %s\n", u->d[i].capsule,
			ovb_res_name(u->d[i].res));
		ovb_dist_put(f, &u->d[i]);
	}
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_usage_free(struct ovb_usage *u)
{
	for (size_t i = 0; i < u->n; i++)
		ovb_dist_free(&u->d[i]);
	free(u->d);
	memset(u, 0, sizeof *u);
}
