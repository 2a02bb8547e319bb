/* onoff.c: busy periods and transfers per capsule (format ovb-onoff, spec:
 * onoff.md), read whole or written as a stream.
 *
 *	cpus N / span T0 T1 / capsule NAME SELECTOR /
 *	busy NAME START END CPUS / send NAME T BYTES / recv NAME T BYTES /
 *	gap START END LOST / trace HOST KERNEL WALL CLOCK / measured RES... /
 *	wait NAME PREEMPTED WOKEN BUSY AS
 *
 * Invariants of a read trace: T0 < T1 and every time lies in [T0, T1];
 * per capsule, busy periods are non-empty, ordered and disjoint with
 * 1 <= CPUS <= cpus, transfers are in time order; gaps are ordered and
 * disjoint. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "impl.h"

struct reader {
	struct ovb_onoff *o;
	struct ovb_names byname;
	bool seen_cpus, seen_span;
	unsigned long span_line, measured_line;
	uint64_t tmin, tmax;       /* earliest and latest time in records */
	unsigned long tmin_line, tmax_line;
	uint64_t gap_end;
};

static void
saw_time(struct reader *r, const struct ovb_lex *lx, uint64_t t)
{
	if (!r->tmin_line || t < r->tmin)
		r->tmin = t, r->tmin_line = lx->line;
	if (!r->tmax_line || t > r->tmax)
		r->tmax = t, r->tmax_line = lx->line;
}

static int
capsule_of(struct reader *r, const struct ovb_lex *lx, struct ovb_oncap **c)
{
	size_t i = ovb_names_get(&r->byname, lx->tok[1]);
	if (i == OVB_NONE)
		return ovb_err(lx, "%s: capsule '%s' is not declared (capsule "
			"NAME SELECTOR)", lx->tok[0], lx->tok[1]);
	*c = &r->o->cap[i];
	return 0;
}

static int
read_header(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_onoff *o = r->o;
	uint64_t v;
	int st;
	if (strcmp(lx->tok[0], "cpus") == 0) {
		if (r->seen_cpus)
			return ovb_err(lx, "cpus is given twice");
		r->seen_cpus = true;
		if ((st = ovb_arity(lx, 2, 2, "cpus N")) ||
		    (st = ovb_tok_u64(lx, 1, "cpus", &v)))
			return st;
		if (v < 1 || v > 65536)
			return ovb_err(lx, "cpus: %s is not in 1..65536", lx->tok[1]);
		o->ncpus = (uint32_t)v;
		return 0;
	}
	if (strcmp(lx->tok[0], "span") == 0) {
		if (r->seen_span)
			return ovb_err(lx, "span is given twice (first at line %lu)",
				r->span_line);
		r->seen_span = true;
		r->span_line = o->span_line = lx->line;
		if ((st = ovb_arity(lx, 3, 3, "span T0 T1")) ||
		    (st = ovb_tok_u64(lx, 1, "span start", &o->t0)) ||
		    (st = ovb_tok_u64(lx, 2, "span end", &o->t1)))
			return st;
		if (o->t0 >= o->t1)
			return ovb_err(lx, "span: start %s is not before end %s",
				lx->tok[1], lx->tok[2]);
		return 0;
	}
	/* capsule NAME SELECTOR */
	if ((st = ovb_arity(lx, 3, 3, "capsule NAME SELECTOR")) ||
	    (st = ovb_tok_name(lx, 1, "capsule name")))
		return st;
	if (ovb_names_get(&r->byname, lx->tok[1]) != OVB_NONE)
		return ovb_err(lx, "capsule '%s' is declared twice", lx->tok[1]);
	const char *sel = lx->tok[2];
	uint64_t pid;
	bool ok = !strncmp(sel, "pid:", 4) ?
		ovb_parse_u64(sel + 4, &pid) && pid >= 1 :
		!strncmp(sel, "comm:", 5) ? sel[5] != '\0' :
		!strncmp(sel, "cgroup:", 7) ? sel[7] != '\0' :
		!strncmp(sel, "unit:", 5) && sel[5] != '\0';
	if (!ok)
		return ovb_err(lx, "capsule: selector '%s' is not pid:N, "
			"comm:REGEX, cgroup:PATH or unit:NAME", sel);
	struct ovb_oncap *c = OVB_PUSH(o->cap, o->ncap, o->capcap);
	memset(c, 0, sizeof *c);
	c->name = ovb_xstrdup(lx->tok[1]);
	c->select = ovb_xstrdup(sel);
	ovb_names_add(&r->byname, c->name, o->ncap - 1);
	return 0;
}

/* trace HOST KERNEL WALL CLOCK: the traced machine, and the wall-clock
 * time WALL (ns since the epoch) at trace-clock time CLOCK (ns); "-" for
 * what the trace did not say (WALL and CLOCK both or neither) */
static int
read_trace(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_onoff *o = r->o;
	int st;
	if (o->has_trace)
		return ovb_err(lx, "trace is given twice");
	if ((st = ovb_arity(lx, 5, 5, "trace HOST KERNEL WALL CLOCK")))
		return st;
	for (int i = 1; i <= 2; i++)
		if (strcmp(lx->tok[i], "-") && !ovb_valid_name(lx->tok[i]))
			return ovb_err(lx, "trace: %s '%s' is not a name or '-'",
				i == 1 ? "HOST" : "KERNEL", lx->tok[i]);
	bool w = strcmp(lx->tok[3], "-") != 0, c = strcmp(lx->tok[4], "-") != 0;
	if (w != c)
		return ovb_err(lx, "trace: WALL and CLOCK are both numbers or "
			"both '-'");
	if (w && ((st = ovb_tok_u64(lx, 3, "trace WALL", &o->wall)) ||
	    (st = ovb_tok_u64(lx, 4, "trace CLOCK", &o->clock))))
		return st;
	o->has_trace = true;
	o->has_clock = w;
	o->host = strcmp(lx->tok[1], "-") ? ovb_xstrdup(lx->tok[1]) : NULL;
	o->kernel = strcmp(lx->tok[2], "-") ? ovb_xstrdup(lx->tok[2]) : NULL;
	return 0;
}

void
ovb_onoff_trace(const struct ovb_onoff *o, struct ovb_trace *t)
{
	memset(t, 0, sizeof *t);
	if (!o->has_trace)
		return;
	t->has = true;
	t->host = o->host ? ovb_xstrdup(o->host) : NULL;
	t->kernel = o->kernel ? ovb_xstrdup(o->kernel) : NULL;
	t->length = (double)(o->t1 - o->t0) / 1e9;
	if (o->has_clock) {
		/* the wall-clock time of T0, in whole ns */
		long double w = (long double)o->wall + ((long double)o->t0 -
			(long double)o->clock);
		if (w >= 0 && w < 1.8e19L) {
			uint64_t ns = (uint64_t)w;
			time_t sec = (time_t)(ns / 1000000000u);
			struct tm tm;
			char b[64];
			if (gmtime_r(&sec, &tm) && strftime(b, sizeof b,
			    "%Y-%m-%dT%H:%M:%S", &tm)) {
				char *s;
				if (asprintf(&s, "%s.%09uZ", b,
				    (unsigned)(ns % 1000000000u)) >= 0)
					t->start = s;
			}
		}
	}
}

/* measured RES...: cpu, net, net-rx, each at most once */
static int
read_measured(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_onoff *o = r->o;
	if (r->measured_line)
		return ovb_err(lx, "measured is given twice (first at line %lu)",
			r->measured_line);
	r->measured_line = lx->line;
	int st = ovb_arity(lx, 1, 4, "measured [cpu] [net] [net-rx]");
	for (int i = 1; !st && i < lx->ntok; i++) {
		int res = ovb_res_parse(lx->tok[i]);
		if (res < 0 || res == OVB_MEM)
			return ovb_err(lx, "measured: '%s' is not cpu, net or "
				"net-rx", lx->tok[i]);
		if (o->measured & (1u << res))
			return ovb_err(lx, "measured: %s is given twice",
				lx->tok[i]);
		o->measured |= 1u << res;
	}
	o->has_measured = !st;
	return st;
}

bool
ovb_onoff_measured(const struct ovb_onoff *o, enum ovb_res r)
{
	if (o->has_measured)
		return o->measured & (1u << r);
	if (r == OVB_CPU)
		return true;
	for (size_t i = 0; i < o->ncap; i++)
		if (r == OVB_NET ? o->cap[i].nsend > 0 :
		    r == OVB_NETRX && o->cap[i].nrecv > 0)
			return true;
	return false;
}

void
ovb_onoff_put_measured(FILE *f, unsigned mask)
{
	fputs("measured", f);
	for (int r = 0; r < OVB_NRES; r++)
		if (mask & (1u << r))
			fprintf(f, " %s", ovb_res_name((enum ovb_res)r));
	fputc('\n', f);
}

void
ovb_onoff_put_trace(FILE *f, const char *host, const char *kernel,
	bool has_clock, uint64_t wall, uint64_t clock)
{
	fprintf(f, "trace %s %s ", host ? host : "-", kernel ? kernel : "-");
	if (has_clock)
		fprintf(f, "%llu %llu\n", (unsigned long long)wall,
			(unsigned long long)clock);
	else
		fputs("- -\n", f);
}

static int
read_busy(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_oncap *c = NULL;
	struct ovb_busy b;
	uint64_t n;
	int st;
	if ((st = ovb_arity(lx, 5, 5, "busy NAME START END CPUS")) ||
	    (st = capsule_of(r, lx, &c)) ||
	    (st = ovb_tok_u64(lx, 2, "busy start", &b.start)) ||
	    (st = ovb_tok_u64(lx, 3, "busy end", &b.end)) ||
	    (st = ovb_tok_u64(lx, 4, "busy CPUs", &n)))
		return st;
	if (b.start >= b.end)
		return ovb_err(lx, "busy: start %s is not before end %s",
			lx->tok[2], lx->tok[3]);
	if (!r->seen_cpus)
		return ovb_err(lx, "busy: 'cpus N' must come before busy records");
	if (n < 1 || n > r->o->ncpus)
		return ovb_err(lx, "busy: %s CPUs is not in 1..%u", lx->tok[4],
			r->o->ncpus);
	if (c->nbusy && b.start < c->busy[c->nbusy - 1].end)
		return ovb_err(lx, "busy: period of %s starts before the end of "
			"its previous one (periods must be ordered and disjoint)",
			c->name);
	b.ncpu = (uint32_t)n;
	*OVB_PUSH(c->busy, c->nbusy, c->capbusy) = b;
	saw_time(r, lx, b.start);
	saw_time(r, lx, b.end);
	return 0;
}

static int
read_xfer(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_oncap *c = NULL;
	struct ovb_xfer x;
	char syntax[32];
	snprintf(syntax, sizeof syntax, "%s NAME T BYTES", lx->tok[0]);
	int st;
	if ((st = ovb_arity(lx, 4, 4, syntax)) || (st = capsule_of(r, lx, &c)) ||
	    (st = ovb_tok_u64(lx, 2, "time", &x.t)) ||
	    (st = ovb_tok_u64(lx, 3, "bytes", &x.bytes)))
		return st;
	bool send = lx->tok[0][0] == 's';
	struct ovb_xfer **v = send ? &c->send : &c->recv;
	size_t *n = send ? &c->nsend : &c->nrecv;
	size_t *cap = send ? &c->capsend : &c->caprecv;
	if (*n && x.t < (*v)[*n - 1].t)
		return ovb_err(lx, "%s: time %s is before the previous %s of %s",
			lx->tok[0], lx->tok[2], lx->tok[0], c->name);
	*OVB_PUSH(*v, *n, *cap) = x;
	saw_time(r, lx, x.t);
	return 0;
}

static int
read_gap(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_onoff *o = r->o;
	struct ovb_gap g;
	int st;
	if ((st = ovb_arity(lx, 4, 4, "gap START END LOST")) ||
	    (st = ovb_tok_u64(lx, 1, "gap start", &g.start)) ||
	    (st = ovb_tok_u64(lx, 2, "gap end", &g.end)) ||
	    (st = ovb_tok_u64(lx, 3, "lost events", &g.lost)))
		return st;
	if (g.start > g.end)
		return ovb_err(lx, "gap: start %s is after end %s", lx->tok[1],
			lx->tok[2]);
	if (g.lost == 0)
		return ovb_err(lx, "gap: lost events must be at least 1");
	if (o->ngap && g.start <= r->gap_end)
		return ovb_err(lx, "gap: starts at or before the end of the "
			"previous gap (gaps are closed intervals, ordered and "
			"disjoint)");
	r->gap_end = g.end;
	*OVB_PUSH(o->gap, o->ngap, o->capgap) = g;
	saw_time(r, lx, g.start);
	saw_time(r, lx, g.end);
	return 0;
}

/* wait NAME PREEMPTED WOKEN BUSY AS: at most once per capsule */
static int
read_wait(struct reader *r, struct ovb_lex *lx)
{
	struct ovb_oncap *c = NULL;
	int st;
	if ((st = ovb_arity(lx, 6, 6, "wait NAME PREEMPTED WOKEN BUSY AS")) ||
	    (st = capsule_of(r, lx, &c)))
		return st;
	if (c->wait.has)
		return ovb_err(lx, "wait: capsule %s has a wait record already "
			"(line %lu)", c->name, c->wait_line);
	c->wait_line = lx->line;
	return ovb_wait_read(lx, 2, &c->wait);
}

/* At the end: a wait record's BUSY is the CPU-ns of its capsule's busy
 * records (receipt), or those less the waits they count (demand). */
static int
check_wait(const struct ovb_oncap *c, struct ovb_lex *lx)
{
	const struct ovb_wait *w = &c->wait;
	unsigned __int128 sum = 0;
	for (size_t i = 0; i < c->nbusy; i++)
		sum += (unsigned __int128)(c->busy[i].end - c->busy[i].start) *
			c->busy[i].ncpu;
	unsigned __int128 t = (unsigned __int128)w->preempted + w->woken;
	unsigned __int128 want = !w->demand ? sum : sum > t ? sum - t : 0;
	if (want == w->busy)
		return 0;
	return ovb_err_at(lx->name, c->wait_line, "wait: BUSY %llu ns is not "
		"the CPU-ns of %s's busy records%s, %.0Lf",
		(unsigned long long)w->busy, c->name, w->demand ? " less its "
		"waits (AS demand: they are counted in them)" : "",
		(long double)want);
}

static int
check_end(struct reader *r, struct ovb_lex *lx)
{
	const struct ovb_onoff *o = r->o;
	if (!r->seen_cpus)
		return ovb_err(lx, "missing 'cpus N' record");
	if (!r->seen_span)
		return ovb_err(lx, "missing 'span T0 T1' record");
	if (r->tmin_line && r->tmin < o->t0)
		return ovb_err_at(lx->name, r->tmin_line, "time %llu is before "
			"the span's start %llu (span at line %lu)",
			(unsigned long long)r->tmin, (unsigned long long)o->t0,
			r->span_line);
	if (r->tmax_line && r->tmax > o->t1)
		return ovb_err_at(lx->name, r->tmax_line, "time %llu is after "
			"the span's end %llu (span at line %lu)",
			(unsigned long long)r->tmax, (unsigned long long)o->t1,
			r->span_line);
	for (size_t i = 0; i < o->ncap; i++)
		if (o->cap[i].wait.has) {
			int st = check_wait(&o->cap[i], lx);
			if (st)
				return st;
		}
	return 0;
}

int
ovb_onoff_read(struct ovb_lex *lx, struct ovb_onoff *o)
{
	memset(o, 0, sizeof *o);
	struct reader r = { .o = o };
	int st = ovb_magic(lx, "onoff");
	while (!st && (st = ovb_lex_next(lx)) == 1) {
		const char *kw = lx->tok[0];
		if (!strcmp(kw, "busy"))
			st = read_busy(&r, lx);
		else if (!strcmp(kw, "send") || !strcmp(kw, "recv"))
			st = read_xfer(&r, lx);
		else if (!strcmp(kw, "gap"))
			st = read_gap(&r, lx);
		else if (!strcmp(kw, "trace"))
			st = read_trace(&r, lx);
		else if (!strcmp(kw, "measured"))
			st = read_measured(&r, lx);
		else if (!strcmp(kw, "wait"))
			st = read_wait(&r, lx);
		else if (!strcmp(kw, "cpus") || !strcmp(kw, "span") ||
		    !strcmp(kw, "capsule"))
			st = read_header(&r, lx);
		else
			st = ovb_err(lx, "unknown record '%s' in an ovb-onoff "
				"file", kw);
	}
	if (!st)
		st = check_end(&r, lx);
	ovb_names_free(&r.byname);
	return st;
}

void
ovb_onoff_put_header(FILE *f, uint32_t ncpus)
{
	ovb_put_magic(f, "onoff");
	fputs("# busy NAME START[ns] END[ns] CPUS; send|recv NAME T[ns] "
	      "BYTES[B];\n# gap START[ns] END[ns] LOST[events]; "
	      "span T0[ns] T1[ns]\n", f);
	fprintf(f, "cpus %u\n", ncpus);
}

void
ovb_onoff_put_capsule(FILE *f, const char *name, const char *select)
{
	fprintf(f, "capsule %s %s\n", name, select);
}

static const char two[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* v < 100000000 as exactly 8 digits at p, two at a time: each half of
 * 4 digits times 2^32 / 100 (rounded up) holds its first two digits in
 * the top 32 bits and the rest as a binary fraction, which * 100 brings
 * up; the two halves in parallel, no division but by the constant 10^4
 * (checked against printf for every v). */
static void
put_8(char *p, uint32_t v)
{
	uint64_t x = (uint64_t)(v / 10000) * 42949673u;
	uint64_t y = (uint64_t)(v % 10000) * 42949673u;
	memcpy(p, two + 2 * (x >> 32), 2);
	memcpy(p + 4, two + 2 * (y >> 32), 2);
	x = (x & 0xffffffffu) * 100;
	y = (y & 0xffffffffu) * 100;
	memcpy(p + 2, two + 2 * (x >> 32), 2);
	memcpy(p + 6, two + 2 * (y >> 32), 2);
}

/* v in decimal at p, no leading zeros (at most 20 bytes); the end. */
static char *
put_dec(char *p, uint64_t v)
{
	char d[20];
	int n = 20;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		n -= 2;
		memcpy(d + n, two + 2 * r, 2);
	}
	if (v >= 10) {
		n -= 2;
		memcpy(d + n, two + 2 * v, 2);
	} else
		d[--n] = (char)('0' + v);
	memcpy(p, d + n, (size_t)(20 - n));
	return p + 20 - n;
}

/* " V" in decimal at p (at most 21 bytes); the end.  printf's share of
 * ovb-onoff's time was a third on a context-switch-heavy trace, and the
 * loop by 100 still a sixth: a time in ns has 14 digits or more, of
 * which the last 8 change from one record to the next, so those are
 * written in 32-bit arithmetic and the text of the rest is kept from the
 * last time. */
static inline __attribute__((always_inline)) char *
put_u64(char *p, uint64_t v)
{
	static uint64_t hi_last = UINT64_MAX;
	static char hi_txt[16];
	static size_t hi_len;
	*p++ = ' ';
	if (v < 10) {   /* a count of CPUs */
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100000000)
		return put_dec(p, v);
	uint64_t hi = v / 100000000;
	if (hi != hi_last) {
		hi_len = (size_t)(put_dec(hi_txt, hi) - hi_txt);
		hi_last = hi;
	}
	memcpy(p, hi_txt, sizeof hi_txt);   /* a fixed size: no call; the 8
	                                       digits overwrite the rest */
	put_8(p + hi_len, (uint32_t)(v - hi * 100000000));
	return p + hi_len + 8;
}

/* "KW CAP N..." and a newline: the bulk records, without printf,
 * formatted straight into the stream's buffer where it has room (as
 * glibc's putc_unlocked writes to it; a line-buffered stream never has,
 * so its lines go through fwrite), else as one fwrite. */
static inline __attribute__((always_inline)) void
put_rec(FILE *f, const char *kw, const char *cap, const uint64_t *v, int n)
{
	char small[128], *buf = small;
	size_t lk = strlen(kw), lc = strlen(cap), need = lk + lc + 2 + 21 * 3;
	bool direct = f->_IO_write_ptr && f->_IO_write_end - f->_IO_write_ptr >=
		(ptrdiff_t)need;
	if (direct)
		buf = f->_IO_write_ptr;
	else if (need > sizeof small)
		buf = ovb_xmalloc(need);
	char *p = buf;
	memcpy(p, kw, lk);
	p += lk;
	*p++ = ' ';
	memcpy(p, cap, lc);
	p += lc;
	for (int i = 0; i < n; i++)
		p = put_u64(p, v[i]);
	*p++ = '\n';
	if (direct)
		f->_IO_write_ptr = p;
	else
		fwrite_unlocked(buf, 1, (size_t)(p - buf), f);
	if (buf != small && !direct)
		free(buf);
}

void
ovb_onoff_put_busy(FILE *f, const char *cap, const struct ovb_busy *b)
{
	put_rec(f, "busy", cap, (uint64_t[]){ b->start, b->end, b->ncpu }, 3);
}

void
ovb_onoff_put_xfer(FILE *f, const char *kw, const char *cap,
	const struct ovb_xfer *x)
{
	put_rec(f, kw, cap, (uint64_t[]){ x->t, x->bytes }, 2);
}

void
ovb_onoff_put_gap(FILE *f, const struct ovb_gap *g)
{
	fprintf(f, "gap %llu %llu %llu\n", (unsigned long long)g->start,
		(unsigned long long)g->end, (unsigned long long)g->lost);
}

void
ovb_onoff_put_span(FILE *f, uint64_t t0, uint64_t t1)
{
	fprintf(f, "span %llu %llu\n", (unsigned long long)t0,
		(unsigned long long)t1);
}

int
ovb_onoff_write(FILE *f, const struct ovb_onoff *o)
{
	ovb_onoff_put_header(f, o->ncpus);
	if (o->has_trace)
		ovb_onoff_put_trace(f, o->host, o->kernel, o->has_clock, o->wall,
			o->clock);
	if (o->has_measured)
		ovb_onoff_put_measured(f, o->measured);
	ovb_onoff_put_span(f, o->t0, o->t1);
	for (size_t i = 0; i < o->ncap; i++)
		ovb_onoff_put_capsule(f, o->cap[i].name, o->cap[i].select);
	for (size_t i = 0; i < o->ncap; i++) {
		const struct ovb_oncap *c = &o->cap[i];
		for (size_t j = 0; j < c->nbusy; j++)
			ovb_onoff_put_busy(f, c->name, &c->busy[j]);
		for (size_t j = 0; j < c->nsend; j++)
			ovb_onoff_put_xfer(f, "send", c->name, &c->send[j]);
		for (size_t j = 0; j < c->nrecv; j++)
			ovb_onoff_put_xfer(f, "recv", c->name, &c->recv[j]);
	}
	for (size_t i = 0; i < o->ngap; i++)
		ovb_onoff_put_gap(f, &o->gap[i]);
	for (size_t i = 0; i < o->ncap; i++)
		ovb_wait_put(f, o->cap[i].name, &o->cap[i].wait);
	return ferror(f) ? OVB_EIO : 0;
}

void
ovb_onoff_free(struct ovb_onoff *o)
{
	for (size_t i = 0; i < o->ncap; i++) {
		free(o->cap[i].name);
		free(o->cap[i].select);
		free(o->cap[i].busy);
		free(o->cap[i].send);
		free(o->cap[i].recv);
	}
	free(o->cap);
	free(o->gap);
	free(o->host);
	free(o->kernel);
	memset(o, 0, sizeof *o);
}
