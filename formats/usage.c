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
	SEEN_FORECAST = 16, SEEN_LOST = 32, SEEN_WINDOWS = 64,
	SEEN_UNMEASURED = 128, SEEN_WAIT = 256 };

void
ovb_dist_free(struct ovb_dist *d)
{
	free(d->capsule);
	free(d->h.count);
	ovb_trace_free(&d->trace);
	ovb_tod_free(&d->tod);
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

/* ---- time-of-day windows (lib/tod.c): windows OFFSET s MIN, window
 * DAYS FROM TO N, wbin DAYS FROM K COUNT ---- */

static int
read_windows(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_tod *td = &r->d->tod;
	uint64_t min;
	int st = once(r, lx, SEEN_WINDOWS);
	if (st || (st = ovb_arity(lx, 4, 4, "windows OFFSET s MIN")) ||
	    (st = ovb_tok_unit(lx, 2, "s")) ||
	    (st = ovb_tok_u64(lx, 3, "windows MIN", &min)))
		return st;
	const char *o = lx->tok[1];
	uint64_t off;
	if (!ovb_parse_u64(o + (*o == '-'), &off) || off >= OVB_DAY)
		return ovb_err(lx, "windows: OFFSET '%s' is not an integer "
			"number of seconds in (-86400, 86400)", o);
	if (min == 0)
		return ovb_err(lx, "windows: MIN must be at least 1");
	td->has = true;
	td->offset = *o == '-' ? -(int64_t)off : (int64_t)off;
	td->min = min;
	return 0;
}

/* DAYS FROM at tok[i], tok[i+1]: the window's index in d, or -1 after
 * reporting (want: the window must exist, else must not overlap one). */
static int
window_at(struct ovb_dist_reader *r, struct ovb_lex *lx, int i, int to,
	bool want)
{
	struct ovb_tod *td = &r->d->tod;
	if (!td->has)
		return ovb_err(lx, "%s before the block's 'windows OFFSET s "
			"MIN' record", lx->tok[0]), -1;
	int days = ovb_tod_days_parse(lx->tok[i]);
	uint64_t from;
	if (days < 0)
		return ovb_err(lx, "%s: DAYS '%s' is not weekday or weekend",
			lx->tok[0], lx->tok[i]), -1;
	if (ovb_tok_u64(lx, i + 1, "window FROM hour", &from))
		return -1;
	if (from > 23)
		return ovb_err(lx, "%s: FROM %s is not an hour 0..23",
			lx->tok[0], lx->tok[i + 1]), -1;
	for (size_t k = 0; k < td->n; k++) {
		const struct ovb_win *w = &td->w[k];
		if (w->days != days)
			continue;
		if (want && w->from == (int)from)
			return (int)k;
		if (!want && (int)from < w->to && w->from < to)
			return ovb_err(lx, "window %s %s %d overlaps the window "
				"%s %d %d", lx->tok[i], lx->tok[i + 1], to,
				lx->tok[i], w->from, w->to), -1;
	}
	if (want)
		return ovb_err(lx, "wbin: no window %s from hour %s before it",
			lx->tok[i], lx->tok[i + 1]), -1;
	return days;
}

static int
read_window(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_tod *td = &r->d->tod;
	uint64_t to, n;
	int st = ovb_arity(lx, 5, 5, "window DAYS FROM TO N");
	if (st || (st = ovb_tok_u64(lx, 3, "window TO hour", &to)) ||
	    (st = ovb_tok_u64(lx, 4, "window intervals N", &n)))
		return st;
	if (to > 24)
		return ovb_err(lx, "window: TO %s is not an hour 1..24",
			lx->tok[3]);
	int days = window_at(r, lx, 1, (int)to, false);
	if (days < 0)
		return OVB_EDATA;
	if (to <= strtoull(lx->tok[2], NULL, 10))
		return ovb_err(lx, "window: TO %s is not after FROM %s",
			lx->tok[3], lx->tok[2]);
	if (!td->w)
		td->w = ovb_xcalloc(OVB_TOD_SLOTS, sizeof *td->w);
	/* windows do not overlap: at most 48 */
	struct ovb_win *w = &td->w[td->n];
	r->wnext[td->n++] = 0;
	w->days = days;
	w->from = (int)strtoul(lx->tok[2], NULL, 10);
	w->to = (int)to;
	w->h.n = n;
	w->h.width = r->d->h.width;
	return 0;
}

static int
read_wbin(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	uint64_t k, c;
	int st = ovb_arity(lx, 5, 5, "wbin DAYS FROM K COUNT");
	if (st)
		return st;
	int i = window_at(r, lx, 1, 0, true);
	if (i < 0)
		return OVB_EDATA;
	if ((st = ovb_tok_u64(lx, 3, "wbin index", &k)) ||
	    (st = ovb_tok_u64(lx, 4, "wbin count", &c)))
		return st;
	if (k >= OVB_MAXBINS)
		return ovb_err(lx, "wbin: index %s is not below %d", lx->tok[3],
			OVB_MAXBINS);
	if (k < r->wnext[i])
		return ovb_err(lx, "wbin: bin %s of window %s %s is not after "
			"the one before it (a window's wbin records ascend)",
			lx->tok[3], lx->tok[1], lx->tok[2]);
	r->wnext[i] = k + 1;
	struct ovb_hist *h = &r->d->tod.w[i].h;
	h->count = ovb_xrealloc(h->count, k + 1, sizeof *h->count);
	memset(h->count + h->nbins, 0, (k + 1 - h->nbins) * sizeof *h->count);
	h->nbins = k + 1;
	h->count[k] = c;
	return 0;
}

/* wcurve DAYS FROM SIGMA RHO: the next breakpoint of the window's
 * token-bucket curve (sigma increasing, rho non-increasing). */
static int
read_wcurve(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	double sg, rho;
	int st = ovb_arity(lx, 5, 5, "wcurve DAYS FROM SIGMA RHO");
	if (st)
		return st;
	int i = window_at(r, lx, 1, 0, true);
	if (i < 0)
		return OVB_EDATA;
	if ((st = ovb_tok_nonneg(lx, 3, "wcurve SIGMA", &sg)) ||
	    (st = ovb_tok_nonneg(lx, 4, "wcurve RHO", &rho)))
		return st;
	struct ovb_win *w = &r->d->tod.w[i];
	if (w->ncurve && !(sg > w->curve[w->ncurve - 1].sigma))
		return ovb_err(lx, "wcurve: SIGMA %s of window %s %s does not "
			"increase", lx->tok[3], lx->tok[1], lx->tok[2]);
	if (w->ncurve && rho > w->curve[w->ncurve - 1].rho)
		return ovb_err(lx, "wcurve: RHO %s of window %s %s increases",
			lx->tok[4], lx->tok[1], lx->tok[2]);
	w->curve = ovb_xrealloc(w->curve, w->ncurve + 1, sizeof *w->curve);
	w->curve[w->ncurve++] = (struct ovb_pt){ sg, rho };
	return 0;
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
	} else if (strcmp(kw, "windows") == 0)
		st = read_windows(r, lx);
	else if (strcmp(kw, "window") == 0)
		st = read_window(r, lx);
	else if (strcmp(kw, "wbin") == 0)
		st = read_wbin(r, lx);
	else if (strcmp(kw, "wcurve") == 0)
		st = read_wcurve(r, lx);
	else if (strcmp(kw, "unmeasured") == 0) {
		if (!(st = once(r, lx, SEEN_UNMEASURED)) &&
		    !(st = ovb_arity(lx, 1, 1, "unmeasured")))
			d->unmeasured = true;
	} else
		return 0;
	return st ? st : 1;
}

/* An unmeasured block: no U records; read as a point mass at 0 (one
 * interval of 1 s in bin 0), which only --unmeasured=zero uses. */
static int
unmeasured_end(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_dist *d = r->d;
	if ((r->seen & ~(unsigned)SEEN_UNMEASURED) || d->h.nbins || d->npct)
		return ovb_err_at(lx->name, r->line, "distribution of %s %s: "
			"'unmeasured' says the trace did not measure it, but "
			"the block has U records (interval, width, intervals, "
			"bin, mean, pct, forecast or lost)", d->capsule,
			ovb_res_name(d->res));
	d->interval = 1;
	d->h.width = 1;
	d->h.n = 1;
	d->h.nbins = 1;
	d->h.count = ovb_xcalloc(1, sizeof *d->h.count);
	d->h.count[0] = 1;
	return 0;
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

static int
cmp_win(const void *a, const void *b)
{
	const struct ovb_win *x = a, *y = b;
	if (x->days != y->days)
		return x->days - y->days;
	return x->from - y->from;
}

/* The windows tile each day type's hours, and split the block's
 * intervals bin by bin. */
static int
check_windows(struct ovb_dist_reader *r, struct ovb_lex *lx)
{
	struct ovb_dist *d = r->d;
	struct ovb_tod *td = &d->tod;
	const char *cap = d->capsule, *res = ovb_res_name(d->res);
	if (!td->has)
		return 0;
	int hours[2] = { 0, 0 };
	uint64_t total = 0;
	for (size_t i = 0; i < td->n; i++) {
		struct ovb_hist *h = &td->w[i].h;
		uint64_t sum = 0;
		hours[td->w[i].days] += td->w[i].to - td->w[i].from;
		bool over = false;
		for (size_t k = 0; k < h->nbins; k++) {
			over |= h->count[k] > UINT64_MAX - sum;
			sum += h->count[k];
		}
		if (over || sum != h->n)
			return ovb_err_at(lx->name, r->line, "distribution of "
				"%s %s: window %s %d %d: wbin counts add up to "
				"%llu, but its N is %llu", cap, res,
				ovb_tod_days_name(td->w[i].days), td->w[i].from,
				td->w[i].to, (unsigned long long)sum,
				(unsigned long long)h->n);
		while (h->nbins && h->count[h->nbins - 1] == 0)
			h->nbins--;
		if (h->n > d->h.n - total) {
			total = d->h.n + 1;
			break;
		}
		total += h->n;
	}
	for (int days = 0; days < 2; days++)
		if (hours[days] != 24)
			return ovb_err_at(lx->name, r->line, "distribution of %s "
				"%s: the %s windows cover %d hours, not the 24 of "
				"a day", cap, res, ovb_tod_days_name(days),
				hours[days]);
	if (total != d->h.n)
		return ovb_err_at(lx->name, r->line, "distribution of %s %s: "
			"the windows hold %s intervals than the block's %llu",
			cap, res, total > d->h.n ? "more" : "fewer",
			(unsigned long long)d->h.n);
	for (size_t k = 0; k < OVB_MAXBINS; k++) {
		uint64_t sum = 0;
		bool any = k < d->h.nbins;
		for (size_t i = 0; i < td->n; i++)
			if (k < td->w[i].h.nbins) {
				sum += td->w[i].h.count[k];
				any = true;
			}
		if (!any)
			break;
		if (sum != (k < d->h.nbins ? d->h.count[k] : 0))
			return ovb_err_at(lx->name, r->line, "distribution of "
				"%s %s: the windows' counts of bin %zu add up to "
				"%llu, but the block's is %llu", cap, res, k,
				(unsigned long long)sum, (unsigned long long)(k <
				d->h.nbins ? d->h.count[k] : 0));
	}
	ovb_qsort(td->w, td->n, sizeof *td->w, cmp_win);
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
	if (d->unmeasured)
		return unmeasured_end(r, lx);
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
	return st ? st : check_windows(r, lx);
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
	if (d->unmeasured) {
		fputs("unmeasured\n", f);
		ovb_trace_put(f, &d->trace);
		return;
	}
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
	if (!d->tod.has)
		return;
	fprintf(f, "windows %lld s %llu\n", (long long)d->tod.offset,
		(unsigned long long)d->tod.min);
	for (size_t i = 0; i < d->tod.n; i++) {
		const struct ovb_win *w = &d->tod.w[i];
		const char *days = ovb_tod_days_name(w->days);
		fprintf(f, "window %s %d %d %llu\n", days, w->from, w->to,
			(unsigned long long)w->h.n);
		for (size_t k = 0; k < w->h.nbins; k++)
			if (w->h.count[k])
				fprintf(f, "wbin %s %d %zu %llu\n", days, w->from,
					k, (unsigned long long)w->h.count[k]);
		for (size_t k = 0; k < w->ncurve; k++) {
			fprintf(f, "wcurve %s %d", days, w->from);
			ovb_put_real(f, w->curve[k].sigma);
			ovb_put_real(f, w->curve[k].rho);
			fputc('\n', f);
		}
	}
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
