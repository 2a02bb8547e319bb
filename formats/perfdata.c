/* perfdata.c: reading perf.data, the kernel traces perf record writes.
 *
 * The layout is the one in the Linux tree (tools/perf/util/header.h,
 * include/uapi/linux/perf_event.h): a file header with the event
 * attributes, a data section of records, and feature sections, among them
 * the tracing data that holds each tracepoint's format description; or, in
 * pipe mode, a short header and a stream of records carrying the same.
 *
 * Invariants: every length read from the input is checked against what
 * remains before it is used; no record is trusted to be well formed.
 * Events are delivered in time order: records between two FINISHED_ROUND
 * records may be out of order across CPUs, so an event is held until a
 * round has ended in which every buffer was read past its time (events up
 * to the largest time of the round before the last one are safe). */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "impl.h"

#define PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" */

enum {
	REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_FORK = 7, REC_SAMPLE = 9,
	REC_LOST_SAMPLES = 13, REC_CGROUP = 19, REC_USER = 64, REC_HEADER_ATTR = 64,
	REC_HEADER_TRACING_DATA = 66, REC_FINISHED_ROUND = 68,
	REC_THREAD_MAP = 73, REC_CPU_MAP = 74,
	REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81, REC_COMPRESSED2 = 83,
};
enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3,
	S_READ = 1 << 4, S_CALLCHAIN = 1 << 5, S_ID = 1 << 6, S_CPU = 1 << 7,
	S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9, S_RAW = 1 << 10,
	S_IDENTIFIER = 1 << 16,
	/* between RAW and CGROUP: variable-length ones (not read) ... */
	S_BRANCH_STACK = 1 << 11, S_REGS_USER = 1 << 12, S_STACK_USER = 1 << 13,
	S_REGS_INTR = 1 << 18,
	/* ... and 8-byte ones, skipped */
	S_WEIGHT = 1 << 14, S_DATA_SRC = 1 << 15, S_TRANSACTION = 1 << 17,
	S_PHYS_ADDR = 1 << 19, S_WEIGHT_STRUCT = 1 << 24,
	S_CGROUP = 1 << 21,
};
#define S_VARIABLE (S_BRANCH_STACK | S_REGS_USER | S_STACK_USER | S_REGS_INTR)
#define MAXCGROUPS 65536
enum { R_ENABLED = 1, R_RUNNING = 2, R_ID = 4, R_GROUP = 8, R_LOST = 16 };
enum { FEAT_TRACING_DATA = 1, FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4,
	FEAT_NRCPUS = 7, FEAT_CMDLINE = 11, FEAT_CLOCK_DATA = 29,
	FEAT_DIR_FORMAT = 24,
	FEAT_COMPRESSED = 27 };
#define MISC_COMM_EXEC (1 << 13)
#define TRACE_FLAG_IRQS (0x08 | 0x10 | 0x40) /* hardirq, softirq, nmi */
#define MAXATTR 4096
#define MAXCPUMAP 4096
#define WINDOW (1u << 20)          /* bytes read at once from a file */
#define NOSLOT UINT64_MAX          /* no slot of the pool */
/* what a trace perf did not finish, or a copy cut short, needs */
#define DAMAGED "; re-record it (perf inject cannot repair a trace perf " \
	"did not finish or a copy that lost its end)"

enum handler { H_NONE, H_SWITCH, H_SEND, H_RECV, H_DEVQ, H_RUNTIME, H_SOCK,
	H_SOFTIRQ, H_TIMER, H_XMIT, H_WAKEUP };

struct attr {
	uint32_t type;
	uint64_t config, sample_type, read_format;
	uint64_t period;           /* sample_period, or sample_freq if freq */
	bool freq, sample_id_all;
	enum handler h;
	/* flat: no variable-length field before RAW, so the fields a
	 * sample's decoding reads lie at fixed offsets past its identifier:
	 * o_tid, o_time, o_cpu, and o_end where RAW (or the rest) begins */
	bool flat;
	uint32_t o_tid, o_time, o_cpu, o_end;
	struct tep_format_field *f1, *f2, *f3, *f4, *flags;
	struct tep_format_field *sk, *family, *dev;   /* network: the socket,
	                              its family; the device's name (devq) */
};

struct cgroup { uint64_t id; char *path; };

struct idmap { uint64_t id; uint32_t attr; };

struct ovb_perf {
	FILE *f;
	const char *name;
	bool pipe;
	uint64_t pos, end;         /* read position; end of data (file) */
	uint64_t fsize;            /* the file's size; 0 unknown (a pipe) */
	uint64_t data_start;
	struct attr *attr;
	size_t nattr;
	struct idmap *ids;
	size_t nids, capids;
	bool ids_sorted;
	bool has_last;             /* attr_of's last answer: id last_id */
	uint64_t last_id;
	struct attr *last_at;
	struct tep_handle *tep;
	bool tracing_parsed;
	uint32_t ncpus;
	/* input window: win[wpos, wlen) read but not yet taken; in a file's
	 * data section it is refilled WINDOW bytes at a time, in a pipe only
	 * with the bytes wanted (a live recording is not waited on) */
	unsigned char *win;
	size_t wpos, wlen, wcap;
	bool ahead;
	const unsigned char *buf;  /* one record, in win until the next read */
	/* ordering: the events held, in the pool, form runs in (time, seq)
	 * order, each a list of slots (perf writes each CPU's buffer in
	 * turn: a few long runs a round); heap holds the runs by their
	 * first event; new events extend the run that ends with tail.  A
	 * slot k is an event's first OVB_PEV_HOT bytes in hot[k] (one
	 * cache line: all that most events use), the rest in rare[k] (only
	 * for the kinds that use it), the run's next slot in link[k].  The
	 * pool is a ring: slots are numbered on (k lies at k & (cappool -
	 * 1)) and taken in order at rhead, so that a run's events lie one
	 * after the other, where the processor fetches them ahead; the
	 * oldest slot still held is the first of some run (a run's slots
	 * grow along it), so the smallest slot in the heap (rtail, worked
	 * out when the ring looks full).  (Whole events in slots reused
	 * last-in first-out, cold and scattered, had been a quarter of the
	 * time.)  The ring stays as short as the pool was: an event is
	 * released at most two rounds after the one it came in (its time
	 * is at most that round's largest, the flush limit two rounds on),
	 * so it spans the events of three rounds at most. */
	struct hkey { uint64_t time, seq, slot; } *heap;
	size_t nheap, capheap;
	struct hot { unsigned char b[OVB_PEV_HOT]; } *hot;
	struct rare { unsigned char b[sizeof(struct ovb_pev) - OVB_PEV_HOT]; }
		*rare;
	unsigned char *hotbase;    /* hot's allocation */
	uint64_t *link;
	size_t cappool;            /* a power of 2 */
	uint64_t rhead, rtail;     /* rtail: at most the oldest slot held */
	uint64_t tail;             /* NOSLOT: no run open */
	uint64_t seq, round_max, prev_round_max, flush_limit, last_out;
	uint64_t reordered;
	bool eof;
	/* how it was recorded */
	bool checked, per_task;
	int64_t task_pid;          /* a task of a per-task recording */
	uint32_t ncpumap;          /* CPUs in the CPU_MAP record; 0 none */
	uint32_t cpumap_first;
	uint64_t lost_samples;
	uint64_t rounds;     /* FINISHED_ROUND records: perf's passes over its
	                        buffers */
	char filtered[128];        /* an event we use recorded with --filter */
	struct cgroup *cg;         /* PERF_RECORD_CGROUP: id -> path */
	size_t ncg, capcg;
	/* where and when: HOSTNAME, OSRELEASE ("": absent), CLOCK_DATA */
	char host[OVB_MAXNAME + 1], kernel[OVB_MAXNAME + 1];
	bool has_clock;
	uint64_t wall, clock;
};

/* A feature string (u32 length, then the NUL-padded text) as a name of the
 * formats: characters outside [A-Za-z0-9_.:+@/-] become '_', a leading
 * one that is not alphanumeric too, at most OVB_MAXNAME long. */
static void
feat_name(char *out, const unsigned char *b, size_t n)
{
	out[0] = '\0';
	if (n < 4)
		return;
	size_t len = b[0] | b[1] << 8 | (size_t)b[2] << 16 | (size_t)b[3] << 24;
	if (len > n - 4)
		len = n - 4;
	size_t k = 0;
	for (size_t i = 0; i < len && b[4 + i] && k < OVB_MAXNAME; i++) {
		unsigned char ch = b[4 + i];
		bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			(ch >= '0' && ch <= '9') || ch == '_';
		bool other = k > 0 && strchr(".:+@/-", ch) != NULL;
		out[k] = alnum || other ? (char)ch : '_';
		k++;
	}
	out[k] = '\0';
}

/* CLOCK_DATA: u32 version, u32 clockid, u64 wall-clock ns, u64 clock ns */
static void
feat_clock(struct ovb_perf *p, const unsigned char *b, size_t n)
{
	if (n < 24)
		return;
	uint64_t w = 0, c = 0;
	for (int i = 7; i >= 0; i--) {
		w = w << 8 | b[8 + i];
		c = c << 8 | b[16 + i];
	}
	if (w) {
		p->has_clock = true;
		p->wall = w;
		p->clock = c;
	}
}

/* The where-and-when features (file mode: a feature section; pipe mode: a
 * HEADER_FEATURE record's payload). */
static void
feature(struct ovb_perf *p, int bit, const unsigned char *b, size_t n)
{
	if (bit == FEAT_HOSTNAME)
		feat_name(p->host, b, n);
	else if (bit == FEAT_OSRELEASE)
		feat_name(p->kernel, b, n);
	else if (bit == FEAT_CLOCK_DATA)
		feat_clock(p, b, n);
}

static int
bad(const struct ovb_perf *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
bad(const struct ovb_perf *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ovb_warn("%s: %s", p->name, msg);
	return OVB_EDATA;
}

/* The NRCPUS header: the online CPUs (ovb-onoff keeps state per CPU, so
 * the count is bounded before anything is allocated). */
static int
set_ncpus(struct ovb_perf *p, uint32_t n)
{
	if (n > OVB_MAXCPUS)
		return bad(p, "the NRCPUS header says %lu CPUs; at most "
			"%u are supported", (unsigned long)n, OVB_MAXCPUS);
	p->ncpus = n;
	return 0;
}

/* ---- raw input ---- */

static int
short_read(struct ovb_perf *p, size_t n)
{
	if (ferror(p->f)) {
		ovb_warn("%s: read error: %s", p->name, strerror(errno));
		return OVB_EIO;
	}
	if (p->pipe)
		return bad(p, "the stream ends at byte %llu, %zu bytes short of "
			"the end of a record: perf stopped before it finished "
			"writing, or the copy is incomplete" DAMAGED,
			(unsigned long long)p->pos, n);
	return bad(p, "truncated at byte %llu: wanted %zu more bytes (the "
		"file changed while it was read?)" DAMAGED,
		(unsigned long long)p->pos, n);
}

/* fill, when the window holds too few bytes. */
static size_t
refill(struct ovb_perf *p, size_t n)
{
	size_t have = p->wlen - p->wpos;
	if (!p->win) {
		p->wcap = WINDOW;
		p->win = ovb_xmalloc(p->wcap);
	}
	memmove(p->win, p->win + p->wpos, have);
	p->wpos = 0;
	size_t want = p->ahead ? p->wcap - have : n - have;
	p->wlen = have + fread(p->win + have, 1, want, p->f);
	return p->wlen;
}

/* Reads until the window holds n (< WINDOW) bytes, or the input ends;
 * returns the bytes it holds.  (Inline: twice a record.) */
static inline __attribute__((always_inline)) size_t
fill(struct ovb_perf *p, size_t n)
{
	size_t have = p->wlen - p->wpos;
	return have >= n ? have : refill(p, n);
}

static int
read_exact(struct ovb_perf *p, void *dst, size_t n)
{
	size_t have = p->wlen - p->wpos;
	if (!n)
		return 0;
	if (n > have && n - have >= WINDOW) {   /* large: straight in */
		if (have)
			memcpy(dst, p->win + p->wpos, have);
		p->wpos = p->wlen = 0;
		if (fread((unsigned char *)dst + have, 1, n - have, p->f) !=
		    n - have)
			return short_read(p, n);
	} else {
		if (fill(p, n) < n)
			return short_read(p, n);
		memcpy(dst, p->win + p->wpos, n);
		p->wpos += n;
	}
	p->pos += n;
	return 0;
}

static int
read_at(struct ovb_perf *p, uint64_t off, void *dst, size_t n)
{
	p->wpos = p->wlen = 0;
	if (fseeko(p->f, (off_t)off, SEEK_SET) != 0)
		return bad(p, "cannot seek to byte %llu (%s): a trace in file mode "
			"is read from a file, not a pipe (perf record -o - writes "
			"pipe mode, which can be piped)", (unsigned long long)off,
			strerror(errno));
	p->pos = off;
	return read_exact(p, dst, n);
}

static uint64_t
get64(const unsigned char *b)
{
	uint64_t v;
	memcpy(&v, b, 8);
	return v;
}

static uint32_t
get32(const unsigned char *b)
{
	uint32_t v;
	memcpy(&v, b, 4);
	return v;
}

/* ---- event attributes ---- */

static void bind_attr(struct ovb_perf *p, struct attr *at);
static void cmdline(struct ovb_perf *p, const unsigned char *b, size_t n);

static int
add_attr(struct ovb_perf *p, const unsigned char *a, size_t size)
{
	if (size < 64)
		return bad(p, "event attribute of %zu bytes is too short", size);
	if (p->nattr == MAXATTR)
		return bad(p, "more than %d event attributes", MAXATTR);
	p->attr = ovb_xrealloc(p->attr, p->nattr + 1, sizeof *p->attr);
	struct attr *at = &p->attr[p->nattr++];
	memset(at, 0, sizeof *at);
	at->type = get32(a);
	at->config = get64(a + 8);
	at->period = get64(a + 16);
	at->sample_type = get64(a + 24);
	at->read_format = get64(a + 32);
	at->freq = get64(a + 40) >> 10 & 1;
	at->sample_id_all = get64(a + 40) >> 18 & 1;
	uint64_t t = at->sample_type;
	uint32_t o = 8 * !!(t & S_IP);
	at->o_tid = o;
	o += 8 * !!(t & S_TID);
	at->o_time = o;
	o += 8 * (!!(t & S_TIME) + !!(t & S_ADDR) + !!(t & S_ID) +
		!!(t & S_STREAM_ID));
	at->o_cpu = o;
	o += 8 * (!!(t & S_CPU) + !!(t & S_PERIOD));
	at->o_end = o;
	at->flat = !(t & (S_READ | S_CALLCHAIN));
	p->has_last = false;   /* attr moved */
	bind_attr(p, at);
	return 0;
}

static void
add_id(struct ovb_perf *p, uint64_t id)
{
	struct idmap *m = OVB_PUSH(p->ids, p->nids, p->capids);
	m->id = id;
	m->attr = (uint32_t)(p->nattr - 1);
	p->ids_sorted = false;
	p->has_last = false;
}

static int
cmp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct idmap *)a)->id;
	uint64_t y = ((const struct idmap *)b)->id;
	return (x > y) - (x < y);
}

static struct attr *
attr_of(struct ovb_perf *p, uint64_t id)
{
	if (p->nattr == 1)
		return &p->attr[0];
	/* most samples come in runs of one CPU's, of one id */
	if (p->has_last && id == p->last_id)
		return p->last_at;
	if (!p->ids_sorted) {
		ovb_qsort(p->ids, p->nids, sizeof *p->ids, cmp_id);
		p->ids_sorted = true;
	}
	size_t lo = 0, hi = p->nids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct attr *at = lo < p->nids && p->ids[lo].id == id ?
		&p->attr[p->ids[lo].attr] : NULL;
	p->has_last = true;
	p->last_id = id;
	p->last_at = at;
	return at;
}

static int
file_attrs(struct ovb_perf *p, const unsigned char *hdr)
{
	uint64_t attr_size = get64(hdr + 16), off = get64(hdr + 24),
		size = get64(hdr + 32);
	if (attr_size < 64 + 16 || attr_size > 4096 || size % attr_size ||
	    size / attr_size > MAXATTR)
		return bad(p, "corrupt header: attribute section of %llu bytes "
			"in entries of %llu", (unsigned long long)size,
			(unsigned long long)attr_size);
	unsigned char *a = ovb_xmalloc(attr_size);
	int st = 0;
	for (uint64_t i = 0; !st && i < size / attr_size; i++) {
		if ((st = read_at(p, off + i * attr_size, a, attr_size)) ||
		    (st = add_attr(p, a, attr_size - 16)))
			break;
		uint64_t ioff = get64(a + attr_size - 16);
		uint64_t isize = get64(a + attr_size - 8);
		if (isize % 8 || isize / 8 > 1 << 20) {
			st = bad(p, "corrupt header: id list of %llu bytes",
				(unsigned long long)isize);
			break;
		}
		for (uint64_t j = 0; !st && j < isize / 8; j++) {
			unsigned char id[8];
			if (!(st = read_at(p, ioff + 8 * j, id, 8)))
				add_id(p, get64(id));
		}
	}
	free(a);
	return st;
}

/* ---- tracing data: the tracepoints' format descriptions ---- */

struct cursor { const unsigned char *b; size_t n, i; };

static bool
take(struct cursor *c, size_t n, const unsigned char **out)
{
	if (n > c->n - c->i)
		return false;
	*out = c->b + c->i;
	c->i += n;
	return true;
}

static const char *
take_str(struct cursor *c)
{
	const unsigned char *s = c->b + c->i;
	const void *nul = memchr(s, '\0', c->n - c->i);
	if (!nul)
		return NULL;
	c->i += (size_t)((const unsigned char *)nul - s) + 1;
	return (const char *)s;
}

static bool
take_u32(struct cursor *c, uint32_t *v)
{
	const unsigned char *b;
	if (!take(c, 4, &b))
		return false;
	*v = get32(b);
	return true;
}

static bool
take_u64(struct cursor *c, uint64_t *v)
{
	const unsigned char *b;
	if (!take(c, 8, &b))
		return false;
	*v = get64(b);
	return true;
}

/* One word of a declaration: stars, then an identifier, then "[]" (a
 * type word) or "[N]" (the name); returns its length, 0 if none. */
static size_t
decl_word(const char *w, bool name)
{
	static const char id[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
		"RSTUVWXYZ0123456789_";
	size_t i = strspn(w, "*");
	if (!w[i] || w[i] == ' ')
		return i;                 /* a lone "*" */
	if (w[i] >= '0' && w[i] <= '9')
		return 0;
	size_t n = strspn(w + i, id);
	if (!n)
		return 0;
	i += n;
	if (w[i] == '[') {
		size_t k = strspn(w + i + 1, "0123456789");
		if (w[i + 1 + k] != ']' || (!name && k) || (name && !k))
			return 0;
		i += k + 2;
	}
	return i;
}

/* "[]" in a type word only after __data_loc or __rel_loc. */
static bool
dynamic_array_ok(const char *d)
{
	const char *b = strstr(d, "[]");
	return !b || !strncmp(d, "__data_loc ", 11) || !strncmp(d, "__rel_loc ", 10);
}

/* A C declaration as tracepoint formats have them, words separated by one
 * space: "unsigned long x", "char comm[16]", "void * sk",
 * "__data_loc char[] name". */
static bool
c_declaration(const char *d)
{
	const char *start = d;
	int words = 0;
	while (*d) {
		const char *sp = strchr(d, ' ');
		size_t n = decl_word(d, !sp);
		if (!n || (sp ? (size_t)(sp - d) != n : d[n] != '\0'))
			return false;
		words++;
		d += n + (sp != NULL);
		if (sp && !*d)
			return false;
	}
	return words >= 2 && dynamic_array_ok(start);
}

/* A format description in the one shape the kernel writes, rewritten for
 * libtraceevent: the name, the ID and the field lines, each checked here,
 * and an empty print format in place of the trace's.  We never use print
 * formats, and libtraceevent 1.7 crashes on some malformed ones, so none
 * from the input reaches it.  NULL when the text is not that shape. */
static char *
clean_format(const unsigned char *fmt, size_t size)
{
	char *out = ovb_xmalloc(size + 32), *o = out;
	const char *p = (const char *)fmt, *end = p + size;
	int stage = 0;   /* 0 name, 1 ID, 2 "format:", 3 fields, 4 print fmt */
	while (p < end && stage < 4) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		char line[512];
		if (stage == 3 && len >= 10 && !memcmp(p, "print fmt:", 10)) {
			stage = 4;
			break;
		}
		if (len >= sizeof line || memchr(p, '\0', len))
			break;
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (nl != NULL);
		unsigned long a, b, c;
		char name[128];
		int n = 0;
		if (stage == 0 && sscanf(line, "name: %127[A-Za-z0-9_]%n", name, &n)
		    == 1 && !line[n])
			stage = 1;
		else if (stage == 1 && sscanf(line, "ID: %lu%n", &a, &n) == 1 &&
		    !line[n])
			stage = 2;
		else if (stage == 2 && !strcmp(line, "format:"))
			stage = 3;
		else if (stage == 3 && !line[0])
			;
		else if (stage == 3 && !strncmp(line, "\tfield:", 7)) {
			char *semi = strchr(line + 7, ';');
			if (!semi || semi == line + 7)
				break;
			*semi = '\0';
			if (!c_declaration(line + 7))
				goto bad;
			*semi = ';';
			if (sscanf(semi, ";\toffset:%lu;\tsize:%lu;\tsigned:%lu;%n",
			    &a, &b, &c, &n) != 3 || semi[n] || a > 65536 ||
			    b < 1 || b > 4096 || c > 1)
				break;
		} else
			break;
		if (stage < 4)
			o += sprintf(o, "%s\n", line);
	}
	if (stage == 4) {
		strcpy(o, "print fmt: \"\"\n");
		return out;
	}
bad:
	free(out);
	return NULL;
}

static int
parse_events(struct ovb_perf *p, struct cursor *c, const char *sys)
{
	uint32_t count;
	if (!take_u32(c, &count))
		return bad(p, "tracing data: truncated event list");
	for (uint32_t i = 0; i < count; i++) {
		uint64_t size;
		const unsigned char *fmt;
		if (!take_u64(c, &size) || size > c->n || !take(c, (size_t)size, &fmt))
			return bad(p, "tracing data: truncated format of %s", sys);
		char *clean;
		if (strcmp(sys, "ftrace") && (clean = clean_format(fmt, (size_t)size))) {
			tep_parse_event(p->tep, clean, strlen(clean), sys);
			free(clean);
		}
	}
	return 0;
}

static int
parse_tracing(struct ovb_perf *p, const unsigned char *b, size_t n)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
		'c', 'i', 'n', 'g' };
	struct cursor c = { b, n, 0 };
	const unsigned char *m;
	const char *s;
	uint32_t page_size;
	uint64_t size;
	if (p->tracing_parsed)
		return bad(p, "tracing data given twice");
	if (!take(&c, sizeof magic, &m) || memcmp(m, magic, sizeof magic))
		return bad(p, "tracing data: bad magic");
	if (!(s = take_str(&c)) || !take(&c, 2, &m) || !take_u32(&c, &page_size))
		return bad(p, "tracing data: truncated header");
	if (m[0] != 0)
		return bad(p, "tracing data is big-endian; this reader takes "
			"little-endian traces only");
	if (m[1] != 8 && m[1] != 4)
		return bad(p, "tracing data: long size %u", m[1]);
	tep_set_file_bigendian(p->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(p->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(p->tep, m[1]);
	tep_set_page_size(p->tep, (int)page_size);
	if (!(s = take_str(&c)) || strcmp(s, "header_page") ||
	    !take_u64(&c, &size) || size > n || !take(&c, (size_t)size, &m))
		return bad(p, "tracing data: missing header_page");
	tep_parse_header_page(p->tep, (char *)m, (unsigned long)size,
		tep_get_long_size(p->tep));
	if (!(s = take_str(&c)) || strcmp(s, "header_event") ||
	    !take_u64(&c, &size) || size > n || !take(&c, (size_t)size, &m))
		return bad(p, "tracing data: missing header_event");
	int st = parse_events(p, &c, "ftrace");
	uint32_t nsys;
	if (st || !take_u32(&c, &nsys))
		return st ? st : bad(p, "tracing data: truncated system list");
	for (uint32_t i = 0; i < nsys && !st; i++) {
		if (!(s = take_str(&c)))
			return bad(p, "tracing data: truncated system name");
		st = parse_events(p, &c, s);
	}
	p->tracing_parsed = true;
	return st;
}

static int
read_tracing(struct ovb_perf *p, uint64_t size)
{
	if (size > (256u << 20))
		return bad(p, "tracing data of %llu bytes is implausible",
			(unsigned long long)size);
	unsigned char *b = ovb_xmalloc((size_t)size);
	int st = read_exact(p, b, (size_t)size);
	if (!st)
		st = parse_tracing(p, b, (size_t)size);
	free(b);
	return st;
}

/* Field handles, looked up once per attribute. */
static void
bind_attr(struct ovb_perf *p, struct attr *at)
{
	if (at->type != 2 /* PERF_TYPE_TRACEPOINT */ || !p->tracing_parsed)
		return;
	struct tep_event *ev = tep_find_event(p->tep, (int)at->config);
	if (!ev)
		return;
	at->flags = tep_find_common_field(ev, "common_flags");
	if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_switch")) {
		at->f1 = tep_find_field(ev, "prev_pid");
		at->f2 = tep_find_field(ev, "next_pid");
		at->f3 = tep_find_field(ev, "prev_state");
		at->h = at->f1 && at->f2 ? H_SWITCH : H_NONE;
	} else if (!strcmp(ev->system, "sock") &&
	    (!strcmp(ev->name, "sock_send_length") ||
	     !strcmp(ev->name, "sock_recv_length"))) {
		at->f1 = tep_find_field(ev, "ret");
		at->f2 = tep_find_field(ev, "flags");
		at->sk = tep_find_field(ev, "sk");
		at->family = tep_find_field(ev, "family");
		at->h = !at->f1 ? H_NONE : ev->name[5] == 's' ? H_SEND : H_RECV;
	} else if (!strcmp(ev->system, "net") &&
	    !strcmp(ev->name, "net_dev_queue")) {
		at->f1 = tep_find_field(ev, "len");
		at->dev = tep_find_field(ev, "name");
		at->f2 = tep_find_field(ev, "skbaddr");
		at->h = at->f1 ? H_DEVQ : H_NONE;
	} else if (!strcmp(ev->system, "net") &&
	    !strcmp(ev->name, "net_dev_start_xmit")) {
		at->dev = tep_find_field(ev, "name");
		at->f2 = tep_find_field(ev, "skbaddr");
		at->h = at->f2 ? H_XMIT : H_NONE;
	} else if (!strcmp(ev->system, "sched") &&
	    (!strcmp(ev->name, "sched_wakeup") ||
	     !strcmp(ev->name, "sched_wakeup_new"))) {
		at->f1 = tep_find_field(ev, "pid");
		at->f2 = tep_find_field(ev, "target_cpu");
		at->h = at->f1 ? H_WAKEUP : H_NONE;
	} else if (!strcmp(ev->system, "sched") &&
	    !strcmp(ev->name, "sched_stat_runtime")) {
		at->f1 = tep_find_field(ev, "pid");
		at->f2 = tep_find_field(ev, "runtime");
		at->h = at->f1 && at->f2 ? H_RUNTIME : H_NONE;
	} else if (!strcmp(ev->system, "tcp") &&
	    !strcmp(ev->name, "tcp_probe")) {
		at->f1 = tep_find_field(ev, "skaddr");
		at->f2 = tep_find_field(ev, "skbaddr");
		at->f3 = tep_find_field(ev, "saddr");
		at->f4 = tep_find_field(ev, "daddr");
		if (!at->f3 || !at->f4)   /* both or no flow */
			at->f3 = at->f4 = NULL;
		at->h = at->f1 ? H_SOCK : H_NONE;
	} else if (!strcmp(ev->system, "sock") &&
	    !strcmp(ev->name, "inet_sock_set_state")) {
		at->f1 = tep_find_field(ev, "skaddr");
		at->f4 = tep_find_field(ev, "newstate");
		at->h = at->f1 && at->f4 ? H_SOCK : H_NONE;
	} else if (!strcmp(ev->system, "irq") &&
	    (!strcmp(ev->name, "softirq_entry") ||
	     !strcmp(ev->name, "softirq_exit")))
		at->h = H_SOFTIRQ;
	else if (!strcmp(ev->system, "timer") &&
	    (!strncmp(ev->name, "hrtimer_", 8) ||
	     !strncmp(ev->name, "timer_", 6))) {
		/* f2 tells them apart: *_start has expires, the entry has
		 * now, the exit neither; f4 (any field) marks a timer_list
		 * timer (timer:timer_*: TCP's retransmit and delayed-ACK
		 * timers) */
		const char *n = ev->name[0] == 'h' ? ev->name + 2 : ev->name;
		at->f1 = tep_find_field(ev, ev->name[0] == 'h' ? "hrtimer" :
			"timer");
		at->f2 = !strcmp(n, "timer_start") ?
			tep_find_field(ev, "expires") :
			!strcmp(n, "timer_expire_entry") ?
			tep_find_field(ev, "now") : NULL;
		at->f3 = !strcmp(n, "timer_start") ? at->f2 : NULL;
		at->f4 = ev->name[0] == 'h' ? NULL : at->f1;
		at->h = at->f1 && (at->f2 || !strcmp(n, "timer_expire_exit")) ?
			H_TIMER : H_NONE;
	}
}

/* ---- opening ---- */

/* A file in file mode against what its header says: perf writes the data
 * section's size, and the feature sections after it, only when it
 * finishes; a perf killed before (SIGKILL, out of memory, the machine
 * stopped) leaves a header that says 0 bytes of data; an incomplete copy
 * (or a full disk) is shorter than the data and feature sections.  Said
 * here, with the numbers, rather than as a seek or read past the end. */
static int
check_size(struct ovb_perf *p, const unsigned char *feat)
{
	uint64_t size = get64(feat - 72 + 48), nfeat = 0;
	for (int bit = 0; bit < 256; bit++)
		nfeat += feat[bit / 8] >> (bit % 8) & 1;
	off_t here = ftello(p->f);
	if (here < 0 || fseeko(p->f, 0, SEEK_END) != 0)
		return 0;                      /* not seekable: said later */
	off_t fsize = ftello(p->f);
	if (fsize < 0 || fseeko(p->f, here, SEEK_SET) != 0)
		return 0;
	uint64_t have = (uint64_t)fsize;
	p->fsize = have;
	if (size == 0 && have > p->data_start)
		return bad(p, "perf did not finish this trace: its header still "
			"says 0 bytes of data (perf writes the size when it stops), "
			"and %llu bytes follow where the data begins (byte %llu); "
			"perf was killed "
			"(SIGKILL, out of memory) or the machine stopped while it "
			"recorded" DAMAGED,
			(unsigned long long)(have - p->data_start),
			(unsigned long long)p->data_start);
	if (have < p->end)
		return bad(p, "truncated: the header says %llu bytes of data "
			"(bytes %llu to %llu), the file has %llu bytes, %llu of "
			"them data (%.1f %%): an incomplete copy, or a disk that "
			"filled while perf wrote it" DAMAGED,
			(unsigned long long)size, (unsigned long long)p->data_start,
			(unsigned long long)p->end, (unsigned long long)have,
			(unsigned long long)(have > p->data_start ? have -
			p->data_start : 0), size ? 100.0 * (double)(have >
			p->data_start ? have - p->data_start : 0) / (double)size :
			0.0);
	if (have - p->end < 16 * nfeat)
		return bad(p, "truncated: the header says %llu feature sections "
			"follow the data, at byte %llu (%llu bytes), the file ends "
			"%llu bytes after the data: an incomplete copy" DAMAGED,
			(unsigned long long)nfeat, (unsigned long long)p->end,
			(unsigned long long)(16 * nfeat),
			(unsigned long long)(have - p->end));
	return 0;
}

static int
open_file(struct ovb_perf *p, const unsigned char *first)
{
	unsigned char hdr[104];
	memcpy(hdr, first, 16);
	int st = read_exact(p, hdr + 16, sizeof hdr - 16);
	if (st)
		return st;
	/* perf's file header is exactly 104 bytes (perf_file_header); the
	 * feature bits below mean nothing in anything else, so garbage after
	 * the magic is called so, not described by its random bits */
	if (get64(hdr + 8) != sizeof hdr)
		return bad(p, "corrupt perf.data header: it gives its size as "
			"%llu bytes, not %zu (16 in pipe mode)",
			(unsigned long long)get64(hdr + 8), sizeof hdr);
	const unsigned char *feat = hdr + 72;
	if (feat[FEAT_COMPRESSED / 8] >> (FEAT_COMPRESSED % 8) & 1)
		return bad(p, "recorded with compression (perf record -z), which "
			"this reader does not decode; record without -z");
	if (feat[FEAT_DIR_FORMAT / 8] >> (FEAT_DIR_FORMAT % 8) & 1)
		return bad(p, "directory-format trace (perf record --dir); record "
			"without --dir");
	p->data_start = get64(hdr + 40);
	p->end = p->data_start + get64(hdr + 48);
	if (p->end < p->data_start)
		return bad(p, "corrupt header: data section overflows");
	if ((st = check_size(p, feat)))
		return st;
	if ((st = file_attrs(p, hdr)))
		return st;
	/* feature sections: one (offset, size) per set bit, after the data */
	uint64_t fsec = p->end;
	for (int bit = 0; bit < 256 && !st; bit++) {
		if (!(feat[bit / 8] >> (bit % 8) & 1))
			continue;
		unsigned char sec[16];
		if ((st = read_at(p, fsec, sec, 16)))
			return st;
		fsec += 16;
		uint64_t off = get64(sec), size = get64(sec + 8);
		if (p->fsize && (off > p->fsize || size > p->fsize - off))
			return bad(p, "truncated: the header says its feature "
				"section %d lies at bytes %llu to %llu, the file has "
				"%llu bytes: an incomplete copy" DAMAGED, bit,
				(unsigned long long)off, (unsigned long long)(off +
				size), (unsigned long long)p->fsize);
		if (bit == FEAT_TRACING_DATA) {
			if (!(st = read_at(p, off, sec, 0)))
				st = read_tracing(p, size);
		} else if (bit == FEAT_NRCPUS && size >= 8) {
			if (!(st = read_at(p, off, sec, 8)))
				st = set_ncpus(p, get32(sec + 4));
		} else if ((bit == FEAT_HOSTNAME || bit == FEAT_OSRELEASE ||
		    bit == FEAT_CLOCK_DATA) && size <= 4096) {
			unsigned char b[4096];
			if (!(st = read_at(p, off, b, (size_t)size)))
				feature(p, bit, b, (size_t)size);
		} else if (bit == FEAT_CMDLINE && size <= 65536) {
			unsigned char *b = ovb_xmalloc((size_t)size);
			if (!(st = read_at(p, off, b, (size_t)size)))
				cmdline(p, b, (size_t)size);
			free(b);
		}
	}
	for (size_t i = 0; !st && i < p->nattr; i++)
		bind_attr(p, &p->attr[i]);
	if (!st)
		st = read_at(p, p->data_start, hdr, 0);
	p->ahead = true;
	return st;
}

int
ovb_perf_open(FILE *f, const char *name, struct ovb_perf **pp)
{
	struct ovb_perf *p = ovb_xcalloc(1, sizeof *p);
	p->f = f;
	p->name = name;
	p->tep = tep_alloc();
	p->tail = NOSLOT;
	*pp = p;
	unsigned char first[16];
	size_t got = fread(first, 1, sizeof first, f);   /* one message */
	if (got < sizeof first && ferror(f)) {
		ovb_warn("%s: read error: %s", name, strerror(errno));
		return OVB_EIO;
	}
	if (got < sizeof first)
		return bad(p, got ? "truncated perf.data header (%zu of 16 "
			"bytes)" : "empty file: no perf.data header", got);
	p->pos = sizeof first;
	uint64_t magic = get64(first);
	if (magic == __builtin_bswap64(PERF_MAGIC2))
		return bad(p, "big-endian perf.data (recorded on a machine of "
			"the other byte order); convert it with perf there first");
	if (magic != PERF_MAGIC2)
		return bad(p, "not a perf.data file (magic %016llx)",
			(unsigned long long)magic);
	uint64_t hsize = get64(first + 8);
	if (hsize == 16) {
		p->pipe = true;
		p->end = UINT64_MAX;
		return 0;
	}
	return open_file(p, first);
}

/* ---- records ---- */

static int
read_record(struct ovb_perf *p, uint32_t *type, uint16_t *misc, size_t *size)
{
	if (p->pos >= p->end || (p->pipe && p->eof))
		return 0;
	if (p->pipe) {
		size_t got = fill(p, 8);
		if (got == 0 && feof(p->f))
			return 0;
		if (got < 8)
			return ferror(p->f) ? (ovb_warn("%s: read error: %s",
				p->name, strerror(errno)), OVB_EIO) :
				bad(p, "the stream ends at byte %llu inside a record "
				"header: perf stopped before it finished writing, or "
				"the copy is incomplete" DAMAGED,
				(unsigned long long)p->pos);
	} else {
		if (p->end - p->pos < 8)
			return bad(p, "truncated record at byte %llu",
				(unsigned long long)p->pos);
		if (fill(p, 8) < 8)
			return short_read(p, 8);
	}
	const unsigned char *h = p->win + p->wpos;
	p->wpos += 8;
	p->pos += 8;
	*type = get32(h);
	*misc = (uint16_t)(h[4] | h[5] << 8);
	*size = (size_t)(h[6] | h[7] << 8);
	if (*size < 8)
		return bad(p, "corrupt record at byte %llu: size %zu",
			(unsigned long long)(p->pos - 8), *size);
	if (!p->pipe && p->end - (p->pos - 8) < *size)
		return bad(p, "record at byte %llu runs past the data section",
			(unsigned long long)(p->pos - 8));
	*size -= 8;
	if (fill(p, *size) < *size)
		return short_read(p, *size);
	p->buf = p->win + p->wpos;
	p->wpos += *size;
	p->pos += *size;
	return 1;
}

/* Reads a sample's fields up to RAW; false when the record is too short. */
struct sample {
	uint64_t id, time;
	uint32_t pid, tid, cpu;
	const unsigned char *raw;
	uint32_t rawsize;
	uint64_t cgroup;           /* PERF_SAMPLE_CGROUP, 0 if absent */
};

static bool
skip_read(struct cursor *c, uint64_t rf)
{
	uint64_t n = 1;
	if (rf & R_GROUP && !take_u64(c, &n))
		return false;
	size_t per = 8 * (1 + !!(rf & R_ID) + !!(rf & R_LOST));
	size_t fixed = 8 * (!!(rf & R_ENABLED) + !!(rf & R_RUNNING));
	const unsigned char *b;
	if (n > c->n / per)
		return false;
	return take(c, fixed + (rf & R_GROUP ? n * per : per), &b);
}

static bool
parse_sample(struct ovb_perf *p, struct attr **atp, const unsigned char *b,
	size_t n, struct sample *s)
{
	struct cursor c = { b, n, 0 };
	const unsigned char *x;
	memset(s, 0, sizeof *s);
	struct attr *at = &p->attr[0];
	if (p->nattr > 1) {
		/* every attribute of a multi-event trace carries IDENTIFIER */
		if (!take_u64(&c, &s->id) || !(at = attr_of(p, s->id)))
			return false;
	} else if (at->sample_type & S_IDENTIFIER && !take_u64(&c, &s->id))
		return false;
	uint64_t t = at->sample_type;
	if (at->flat) {
		/* the same reading, at offsets worked out once */
		const unsigned char *f = b + c.i;
		if (n - c.i < at->o_end)
			return false;
		if (t & S_TID) {
			s->pid = get32(f + at->o_tid);
			s->tid = get32(f + at->o_tid + 4);
		}
		if (t & S_TIME)
			s->time = get64(f + at->o_time);
		if (t & S_CPU)
			s->cpu = get32(f + at->o_cpu);
		c.i += at->o_end;
	} else if ((t & S_IP && !take(&c, 8, &x)) ||
	    (t & S_TID && (!take_u32(&c, &s->pid) || !take_u32(&c, &s->tid))) ||
	    (t & S_TIME && !take_u64(&c, &s->time)) ||
	    (t & S_ADDR && !take(&c, 8, &x)) ||
	    (t & S_ID && !take(&c, 8, &x)) ||
	    (t & S_STREAM_ID && !take(&c, 8, &x)) ||
	    (t & S_CPU && (!take_u32(&c, &s->cpu) || !take(&c, 4, &x))) ||
	    (t & S_PERIOD && !take(&c, 8, &x)) ||
	    (t & S_READ && !skip_read(&c, at->read_format)))
		return false;
	if (t & S_CALLCHAIN) {
		uint64_t nr;
		if (!take_u64(&c, &nr) || nr > n / 8 || !take(&c, 8 * nr, &x))
			return false;
	}
	if (t & S_RAW) {
		if (!take_u32(&c, &s->rawsize) || !take(&c, s->rawsize, &s->raw))
			return false;
	}
	/* the cgroup id, where no variable-length field hides it */
	if (t & S_CGROUP && !(t & S_VARIABLE)) {
		size_t skip = 8 * (!!(t & (S_WEIGHT | S_WEIGHT_STRUCT)) +
			!!(t & S_DATA_SRC) + !!(t & S_TRANSACTION) +
			!!(t & S_PHYS_ADDR));
		if (!take(&c, skip, &x) || !take_u64(&c, &s->cgroup))
			return false;
	}
	*atp = at;
	return true;
}

/* The sample_id trailer of a non-sample record. */
static bool
parse_trailer(struct ovb_perf *p, const unsigned char *b, size_t n,
	size_t body, struct sample *s)
{
	memset(s, 0, sizeof *s);
	struct attr *at = &p->attr[0];
	/* synthesized records carry a zero id: perf reads them with the
	 * first attribute */
	if (p->nattr > 1 && n >= body + 8 && !(at = attr_of(p, get64(b + n - 8))))
		at = &p->attr[0];
	uint64_t t = at->sample_type;
	if (!at->sample_id_all)
		return true;
	size_t len = 8 * (!!(t & S_TID) + !!(t & S_TIME) + !!(t & S_ID) +
		!!(t & S_STREAM_ID) + !!(t & S_CPU) + !!(t & S_IDENTIFIER));
	if (n < body + len)
		return false;
	struct cursor c = { b + n - len, len, 0 };
	const unsigned char *x;
	if (t & S_TID) {
		take_u32(&c, &s->pid);
		take_u32(&c, &s->tid);
	}
	if (t & S_TIME)
		take_u64(&c, &s->time);
	if (t & S_ID)
		take(&c, 8, &x);
	if (t & S_STREAM_ID)
		take(&c, 8, &x);
	if (t & S_CPU)
		take_u32(&c, &s->cpu);
	return true;
}

static inline __attribute__((always_inline)) uint64_t
field(struct tep_format_field *f, const struct sample *s)
{
	/* tep_read_number_field's reading (little-endian data, checked at
	 * open), without its call per field */
	if (!f || f->offset + f->size > (int)s->rawsize)
		return 0;
	const unsigned char *b = s->raw + f->offset;
	switch (f->size) {
	case 1: return b[0];
	case 2: return (uint64_t)b[0] | (uint64_t)b[1] << 8;
	case 4: return get32(b);
	case 8: return get64(b);
	}
	return 0;
}

static inline __attribute__((always_inline)) int32_t
field_int(struct tep_format_field *f, const struct sample *s)
{
	return (int32_t)(uint32_t)field(f, s);
}

/* A __data_loc char[] field (offset in the low 16 bits, length in the
 * high 16), copied into dst (NUL-terminated, cut to its size). */
static void
field_str(struct tep_format_field *f, const struct sample *s, char *dst,
	size_t size)
{
	dst[0] = '\0';
	if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4)
		return;
	uint64_t loc = field(f, s);
	size_t off = loc & 0xffff, len = loc >> 16 & 0xffff;
	if (off > s->rawsize || len > s->rawsize - off)
		return;
	len = strnlen((const char *)s->raw + off, len);
	if (len >= size)
		len = size - 1;
	memcpy(dst, s->raw + off, len);
	dst[len] = '\0';
}

/* FNV-1a over the bytes of fields a then b (a socket's two addresses, in
 * either order: the flow seen from one end or from the other). */
static uint64_t
flow_hash(struct tep_format_field *a, struct tep_format_field *b,
	const struct sample *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct tep_format_field *f[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		if (!f[i] || f[i]->offset < 0 || f[i]->size < 0 ||
		    (size_t)f[i]->offset + (size_t)f[i]->size > s->rawsize)
			return 0;
		for (int j = 0; j < f[i]->size; j++)
			h = (h ^ s->raw[f[i]->offset + j]) * 0x100000001b3ULL;
	}
	return h ? h : 1;
}

/* Decodes a sample into ev; false when it is not one we use. */
static bool
decode_sample(struct ovb_perf *p, size_t n, struct ovb_pev *ev, int *st)
{
	struct sample s;
	struct attr *at;
	if (!parse_sample(p, &at, p->buf, n, &s)) {
		*st = bad(p, "corrupt sample record at byte %llu",
			(unsigned long long)(p->pos - n - 8));
		return false;
	}
	if (at->h == H_NONE)
		return false;
	static const struct ovb_pev zero;
	/* a copy, not memset's rep stos (a fifth of the time); switches and
	 * runtimes use only the hot part (see rare_kind) */
	if (at->h == H_SWITCH || at->h == H_RUNTIME || at->h == H_WAKEUP)
		memcpy(ev, &zero, OVB_PEV_HOT);
	else
		*ev = zero;
	ev->time = s.time;
	ev->cpu = s.cpu;
	ev->pid = (int32_t)s.pid;
	ev->tid = (int32_t)s.tid;
	ev->sample = true;
	ev->cgroup = s.cgroup;
	ev->irq = at->flags && (field(at->flags, &s) & TRACE_FLAG_IRQS);
	if (at->h == H_SOCK) {
		ev->kind = OVB_PEV_SOCK;
		ev->sk = field(at->f1, &s);
		ev->sk_state = at->f4 && !at->f3 ? field_int(at->f4, &s) : -1;
		if (at->f3) {   /* tcp:tcp_probe */
			ev->skb = field(at->f2, &s);
			ev->flow = flow_hash(at->f3, at->f4, &s);
			ev->rflow = flow_hash(at->f4, at->f3, &s);
		}
	} else if (at->h == H_SOFTIRQ) {
		ev->kind = OVB_PEV_SOFTIRQ;
	} else if (at->h == H_XMIT) {
		ev->kind = OVB_PEV_XMIT;
		ev->skb = field(at->f2, &s);
		field_str(at->dev, &s, ev->dev, sizeof ev->dev);
	} else if (at->h == H_TIMER) {
		ev->kind = OVB_PEV_TIMER;
		ev->sk = field(at->f1, &s);
		ev->n = (at->f3 ? 0 : at->f2 ? 1 : 2) + (at->f4 ? 3 : 0);
	} else if (at->h == H_WAKEUP) {
		ev->kind = OVB_PEV_WAKEUP;
		ev->next = field_int(at->f1, &s);
		ev->n = at->f2 ? field(at->f2, &s) : 0;
	} else if (at->h == H_RUNTIME) {
		ev->kind = OVB_PEV_RUNTIME;
		ev->next = field_int(at->f1, &s);
		ev->n = field(at->f2, &s);
	} else if (at->h == H_SWITCH) {
		ev->kind = OVB_PEV_SWITCH;
		ev->prev = field_int(at->f1, &s);
		ev->next = field_int(at->f2, &s);
		/* no sleep state (the low byte; above it, the "preempted" flag) */
		ev->prev_runnable = at->f3 && (field(at->f3, &s) & 0xff) == 0;
	} else {
		int64_t bytes = at->h == H_DEVQ ? (int64_t)field(at->f1, &s) :
			field_int(at->f1, &s);
		if (at->h == H_DEVQ)
			ev->skb = field(at->f2, &s);
		/* sock_recv_length with MSG_PEEK (2) received nothing */
		if (at->h == H_RECV && at->f2 && field(at->f2, &s) & 2)
			bytes = 0;
		ev->kind = at->h == H_RECV ? OVB_PEV_RECV : OVB_PEV_SEND;
		ev->n = bytes > 0 ? (uint64_t)bytes : 0;
		ev->devq = at->h == H_DEVQ;
		if (ev->devq)
			field_str(at->dev, &s, ev->dev, sizeof ev->dev);
		else {
			ev->sk = field(at->sk, &s);
			ev->family = at->family ? (int)field(at->family, &s) : -1;
		}
	}
	return true;
}

static bool
decode_task(struct ovb_perf *p, uint32_t type, uint16_t misc, size_t n,
	struct ovb_pev *ev, int *st)
{
	struct sample s;
	const unsigned char *b = p->buf;
	size_t body = type == REC_COMM ? 8 : type == REC_LOST ? 16 :
		type == REC_LOST_SAMPLES ? 8 : 24;
	if (n < body || !parse_trailer(p, b, n, body, &s)) {
		*st = bad(p, "corrupt record of type %u at byte %llu", type,
			(unsigned long long)(p->pos - n - 8));
		return false;
	}
	memset(ev, 0, sizeof *ev);
	ev->time = s.time;
	ev->cpu = s.cpu;
	if (type == REC_COMM) {
		ev->kind = OVB_PEV_COMM;
		ev->pid = (int32_t)get32(b);
		ev->tid = (int32_t)get32(b + 4);
		size_t len = strnlen((const char *)b + 8, n - 8);
		if (len > 15)
			len = 15;
		memcpy(ev->comm, b + 8, len);
		ev->exec = misc & MISC_COMM_EXEC;
	} else if (type == REC_FORK || type == REC_EXIT) {
		ev->kind = type == REC_FORK ? OVB_PEV_FORK : OVB_PEV_EXIT;
		ev->pid = (int32_t)get32(b);
		ev->ppid = (int32_t)get32(b + 4);
		ev->tid = (int32_t)get32(b + 8);
		ev->ptid = (int32_t)get32(b + 12);
		ev->time = get64(b + 16);
	} else {
		ev->kind = OVB_PEV_LOST;
		ev->n = get64(b + (type == REC_LOST ? 8 : 0));
	}
	return true;
}

static char *
dup_path(const unsigned char *b, size_t len)
{
	char *s = ovb_xmalloc(len + 1);
	memcpy(s, b, len);
	s[len] = '\0';
	return s;
}

/* PERF_RECORD_CGROUP: u64 id, the path (NUL-padded), the sample_id
 * trailer: a cgroup v2 id and its path from the hierarchy's root, for
 * those that existed when recording began and those created since. */
static int
cgroup_record(struct ovb_perf *p, size_t n)
{
	if (n < 9)
		return bad(p, "corrupt cgroup record at byte %llu",
			(unsigned long long)(p->pos - n - 8));
	uint64_t id = get64(p->buf);
	size_t len = strnlen((const char *)p->buf + 8, n - 8);
	/* appended: a later record of the same id wins (looked up from the
	 * end) */
	if (p->ncg == MAXCGROUPS)
		return bad(p, "more than %d cgroups", MAXCGROUPS);
	struct cgroup *c = OVB_PUSH(p->cg, p->ncg, p->capcg);
	c->id = id;
	c->path = dup_path(p->buf + 8, len);
	return 0;
}

/* ---- how the trace was recorded ---- */

static bool
used_event(const char *e)
{
	static const char *const used[] = { "sched:sched_switch",
		"sched:sched_stat_runtime", "sched:sched_wakeup",
		"sched:sched_wakeup_new", "sock:sock_send_length",
		"sock:sock_recv_length", "net:net_dev_queue",
		"net:net_dev_start_xmit", "tcp:tcp_probe",
		"sock:inet_sock_set_state", "irq:softirq_entry",
		"irq:softirq_exit", "timer:hrtimer_start",
		"timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit",
		"timer:timer_start", "timer:timer_expire_entry",
		"timer:timer_expire_exit" };
	for (size_t i = 0; i < sizeof used / sizeof *used; i++) {
		size_t n = strlen(used[i]);
		if (!strncmp(e, used[i], n) && (!e[n] || e[n] == ',' ||
		    e[n] == '/'))
			return true;
	}
	return false;
}

/* CMDLINE: u32 nr, then nr x { u32 len; char str[len] } (NUL-padded):
 * perf's own argv.  A --filter applies to the events of the -e before it;
 * it drops events that perf.data does not say were dropped. */
static void
cmdline(struct ovb_perf *p, const unsigned char *b, size_t n)
{
	struct cursor c = { b, n, 0 };
	uint32_t nr, len;
	const unsigned char *a;
	char last[256] = "";
	bool want_ev = false, want_filter = false;
	if (!take_u32(&c, &nr))
		return;
	for (uint32_t i = 0; i < nr && take_u32(&c, &len) && take(&c, len, &a);
	    i++) {
		char arg[256];
		size_t k = strnlen((const char *)a, len);
		if (k >= sizeof arg)
			k = sizeof arg - 1;
		memcpy(arg, a, k);
		arg[k] = '\0';
		if (want_ev) {
			snprintf(last, sizeof last, "%s", arg);
			want_ev = false;
		} else if (want_filter) {
			want_filter = false;
			if (used_event(last) && !p->filtered[0])
				snprintf(p->filtered, sizeof p->filtered, "%.100s", last);
		} else if (!strcmp(arg, "-e") || !strcmp(arg, "--event"))
			want_ev = true;
		else if (!strncmp(arg, "--event=", 8))
			snprintf(last, sizeof last, "%s", arg + 8);
		else if (!strncmp(arg, "-e", 2))
			snprintf(last, sizeof last, "%s", arg + 2);
		else if (!strcmp(arg, "--filter"))
			want_filter = true;
		else if (!strncmp(arg, "--filter=", 9) && used_event(last) &&
		    !p->filtered[0])
			snprintf(p->filtered, sizeof p->filtered, "%.100s", last);
		else if (!strcmp(arg, "--"))
			break;
	}
}

/* THREAD_MAP: u64 nr, then nr x { u64 pid; char comm[16] }.  A system-wide
 * recording (-a, -C) has the one entry -1; a per-task one the tasks. */
static int
thread_map(struct ovb_perf *p, size_t n)
{
	if (n < 8 || get64(p->buf) > (n - 8) / 24)
		return bad(p, "corrupt THREAD_MAP record");
	for (uint64_t i = 0; i < get64(p->buf); i++) {
		int64_t pid = (int64_t)get64(p->buf + 8 + 24 * i);
		if (pid != -1) {
			p->per_task = true;
			p->task_pid = pid;
		}
	}
	return 0;
}

/* CPU_MAP: u16 type, then 0: u16 nr, u16 cpu[nr]; 1: a mask (u16 nr, u16
 * long_size, then 32- or 64-bit words); 2: u8 any_cpu, u8 pad, u16 first,
 * u16 last.  Counts the CPUs recorded. */
static int
cpu_map(struct ovb_perf *p, size_t n)
{
	const unsigned char *b = p->buf;
	if (n < 4)
		return bad(p, "corrupt CPU_MAP record");
	unsigned type = (unsigned)(b[0] | b[1] << 8), cnt = 0, first = 0;
	if (type == 0) {
		unsigned nr = (unsigned)(b[2] | b[3] << 8);
		if (n < 4 + 2 * (size_t)nr)
			return bad(p, "corrupt CPU_MAP record");
		for (unsigned i = 0; i < nr; i++) {
			unsigned c = (unsigned)(b[4 + 2 * i] | b[5 + 2 * i] << 8);
			if (c != 0xffff && !cnt++)
				first = c;
		}
	} else if (type == 1) {
		if (n < 6)
			return bad(p, "corrupt CPU_MAP record");
		unsigned nr = (unsigned)(b[2] | b[3] << 8);
		unsigned ls = (unsigned)(b[4] | b[5] << 8);
		size_t off = ls == 4 ? 6 : 10;
		if ((ls != 4 && ls != 8) || n < off + (size_t)nr * ls)
			return bad(p, "corrupt CPU_MAP record");
		for (size_t bit = 0; bit < (size_t)nr * ls * 8; bit++)
			if (b[off + bit / 8] >> (bit % 8) & 1 && !cnt++)
				first = (unsigned)bit;
	} else if (type == 2) {
		if (n < 8)
			return bad(p, "corrupt CPU_MAP record");
		unsigned lo = (unsigned)(b[4] | b[5] << 8);
		unsigned hi = (unsigned)(b[6] | b[7] << 8);
		if (hi < lo)
			return bad(p, "corrupt CPU_MAP record");
		cnt = hi - lo + 1;
		first = lo;
	} else
		return 0;   /* a later kind: not checked */
	p->ncpumap = cnt ? cnt : MAXCPUMAP;
	p->cpumap_first = first;
	return 0;
}

/* Refuses, before the first sample, what cannot give every CPU's
 * switches: see formats/perfdata.md. */
static int
check_recording(struct ovb_perf *p)
{
	p->checked = true;
	if (p->per_task)
		return bad(p, "recorded per task (perf record -p PID, -t, -u, or "
			"a command without -a; task %lld): such a trace holds only "
			"the switches out of those tasks, not into them, so their "
			"busy time is unknown; record system-wide with -a "
			"(ovb-capture does)", (long long)p->task_pid);
	if (p->filtered[0])
		return bad(p, "%s was recorded with --filter (perf record "
			"--filter), so the events the filter dropped are missing; "
			"record without --filter", p->filtered);
	if (p->ncpumap && p->ncpus && p->ncpumap < p->ncpus)
		return bad(p, "recorded on %u of the %u CPUs (perf record -C, "
			"first CPU %u): what ran on the others is unknown; record "
			"every CPU (drop -C)", p->ncpumap, p->ncpus, p->cpumap_first);
	for (size_t i = 0; i < p->nattr; i++) {
		struct attr *at = &p->attr[i];
		if (at->h == H_NONE || (!at->freq && at->period == 1))
			continue;
		const char *name = "a tracepoint";
		struct tep_event *ev = tep_find_event(p->tep, (int)at->config);
		char buf[160];
		if (ev) {
			snprintf(buf, sizeof buf, "%s:%s", ev->system, ev->name);
			name = buf;
		}
		if (at->freq)
			return bad(p, "%s was sampled at %llu Hz (perf record -F "
				"%llu), so most of its events are missing; record "
				"every event: drop -F (ovb-capture does)", name,
				(unsigned long long)at->period,
				(unsigned long long)at->period);
		return bad(p, "%s was sampled once every %llu events (perf record "
			"-c %llu), so most of its events are missing; record every "
			"event: drop -c, or give -c 1", name,
			(unsigned long long)at->period,
			(unsigned long long)at->period);
	}
	return 0;
}

static int
user_record(struct ovb_perf *p, uint32_t type, size_t n)
{
	switch (type) {
	case REC_HEADER_ATTR: {
		if (n < 8)
			return bad(p, "corrupt attribute record");
		size_t asize = get32(p->buf + 4);
		if (asize < 64 || asize > n || (n - asize) % 8)
			return bad(p, "corrupt attribute record");
		int st = add_attr(p, p->buf, asize);
		for (size_t i = asize; !st && i < n; i += 8)
			add_id(p, get64(p->buf + i));
		return st;
	}
	case REC_HEADER_TRACING_DATA: {
		if (n < 4)
			return bad(p, "corrupt tracing data record");
		uint64_t size = get32(p->buf);
		/* the data follows the record, padded to 8 bytes */
		if (n > 4 && (n != 8 || get32(p->buf + 4)))
			return bad(p, "corrupt tracing data record");
		int st = read_tracing(p, size);
		for (size_t i = 0; !st && i < p->nattr; i++)
			bind_attr(p, &p->attr[i]);
		return st;
	}
	case REC_HEADER_FEATURE:
		if (n >= 16 && get64(p->buf) == FEAT_NRCPUS)
			return set_ncpus(p, get32(p->buf + 12));
		else if (n >= 8 && get64(p->buf) == FEAT_CMDLINE)
			cmdline(p, p->buf + 8, n - 8);
		else if (n >= 8)
			feature(p, (int)get64(p->buf), p->buf + 8, n - 8);
		return 0;
	case REC_COMPRESSED:
	case REC_COMPRESSED2:
		return bad(p, "recorded with compression (perf record -z), "
			"which this reader does not decode; record without -z");
	case REC_THREAD_MAP:
		return thread_map(p, n);
	case REC_CPU_MAP:
		return cpu_map(p, n);
	}
	return 0;
}

/* ---- ordering ---- */

static bool
before(const struct hkey *a, const struct hkey *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

_Static_assert(OVB_PEV_HOT == offsetof(struct ovb_pev, ppid) &&
	OVB_PEV_HOT % 64 == 0, "struct ovb_pev: the hot part is one line");

/* Do events of this kind use fields past the hot part? */
static bool
rare_kind(enum ovb_pev_kind k)
{
	return k != OVB_PEV_SWITCH && k != OVB_PEV_RUNTIME &&
		k != OVB_PEV_LOST && k != OVB_PEV_SOFTIRQ && k != OVB_PEV_WAKEUP;
}

#define AT(p, k) ((size_t)((k) & ((p)->cappool - 1)))

static uint64_t
slot_time(const struct ovb_perf *p, uint64_t k)
{
	return get64(p->hot[AT(p, k)].b + offsetof(struct ovb_pev, time));
}

static uint64_t
slot_seq(const struct ovb_perf *p, uint64_t k)
{
	return get64(p->hot[AT(p, k)].b + offsetof(struct ovb_pev, seq));
}

/* The ring twice as large, each slot at its place in it. */
static void
grow_pool(struct ovb_perf *p)
{
	size_t cap = p->cappool ? 2 * p->cappool : 1024;
	/* hot lines aligned to a cache line */
	unsigned char *base = ovb_xmalloc(cap * sizeof *p->hot + 63);
	struct hot *h = (struct hot *)(base + (-(uintptr_t)base & 63));
	struct rare *r = ovb_xrealloc(NULL, cap, sizeof *r);
	uint64_t *l = ovb_xrealloc(NULL, cap, sizeof *l);
	for (uint64_t k = p->rtail; k < p->rhead; k++) {
		size_t i = AT(p, k), j = (size_t)(k & (cap - 1));
		h[j] = p->hot[i];
		r[j] = p->rare[i];
		l[j] = p->link[i];
	}
	free(p->hotbase);
	free(p->rare);
	free(p->link);
	p->hotbase = base;
	p->hot = h;
	p->rare = r;
	p->link = l;
	p->cappool = cap;
}

/* A slot of the pool for the next event. */
static uint64_t
slot(struct ovb_perf *p)
{
	if (p->rhead - p->rtail == p->cappool) {
		p->rtail = p->rhead;
		for (size_t h = 0; h < p->nheap; h++)
			if (p->heap[h].slot < p->rtail)
				p->rtail = p->heap[h].slot;
		if (p->rhead - p->rtail == p->cappool)
			grow_pool(p);
	}
	return p->rhead++;
}

/* ev into slot k. */
static void
store(struct ovb_perf *p, uint64_t k, const struct ovb_pev *ev)
{
	size_t i = AT(p, k);
	memcpy(p->hot[i].b, ev, OVB_PEV_HOT);
	if (rare_kind(ev->kind))
		memcpy(p->rare[i].b, (const unsigned char *)ev + OVB_PEV_HOT,
			sizeof p->rare[i].b);
}

static void
sift_down(struct ovb_perf *p, struct hkey key)
{
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = l;
		if (l >= p->nheap)
			break;
		if (r < p->nheap && before(&p->heap[r], &p->heap[l]))
			m = r;
		if (!before(&p->heap[m], &key))
			break;
		p->heap[i] = p->heap[m];
		i = m;
	}
	p->heap[i] = key;
}

static void
heap_push(struct ovb_perf *p, uint64_t k, const struct ovb_pev *ev)
{
	p->link[AT(p, k)] = NOSLOT;
	if (p->tail != NOSLOT && ev->time >= slot_time(p, p->tail)) {
		p->link[AT(p, p->tail)] = k;   /* seq grows: (time, seq) after */
		p->tail = k;
		return;
	}
	struct hkey key = { ev->time, ev->seq, k };
	(void)OVB_PUSH(p->heap, p->nheap, p->capheap);
	size_t i = p->nheap - 1;
	while (i && before(&key, &p->heap[(i - 1) / 2])) {
		p->heap[i] = p->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	p->heap[i] = key;
	p->tail = k;
}

static void
heap_pop(struct ovb_perf *p, struct ovb_pev *out)
{
	static const struct ovb_pev zero;
	uint64_t k = p->heap[0].slot;
	size_t i = AT(p, k);
	uint64_t next = p->link[i];
	memcpy(out, p->hot[i].b, OVB_PEV_HOT);
	memcpy((unsigned char *)out + OVB_PEV_HOT, rare_kind(out->kind) ?
		p->rare[i].b : (const unsigned char *)&zero + OVB_PEV_HOT,
		sizeof p->rare[i].b);
	if (k == p->tail)
		p->tail = NOSLOT;
	if (next != NOSLOT)
		sift_down(p, (struct hkey){ slot_time(p, next),
			slot_seq(p, next), next });
	else if (--p->nheap)
		sift_down(p, p->heap[p->nheap]);
}

static int
read_event(struct ovb_perf *p)
{
	uint32_t type = 0;
	uint16_t misc = 0;
	size_t n = 0;
	int st = read_record(p, &type, &misc, &n);
	if (st != 1) {
		if (st == 0)
			p->eof = true;
		return st;
	}
	if (type == 0 || (type > 31 && type < REC_USER) || type > 127)
		return bad(p, "unknown record type %u at byte %llu", type,
			(unsigned long long)(p->pos - n - 8));
	if (type >= REC_USER) {
		if (type == REC_FINISHED_ROUND) {
			p->rounds++;
			p->flush_limit = p->prev_round_max;
			p->prev_round_max = p->round_max;
		}
		return user_record(p, type, n);
	}
	if (!p->nattr)
		return bad(p, "a record before any event attribute");
	if (!p->tracing_parsed && type == REC_SAMPLE)
		return bad(p, "no tracing data: the trace holds no tracepoint "
			"format descriptions (was it recorded with -e sched:...?)");
	if (!p->checked && type == REC_SAMPLE && (st = check_recording(p)))
		return st;
	struct ovb_pev e, *ev = &e;
	bool keep = false;
	st = 0;
	if (type == REC_SAMPLE)
		keep = decode_sample(p, n, ev, &st);
	else if (type == REC_LOST_SAMPLES) {
		/* perf's per-event count of the losses when recording ended:
		 * the same losses as the LOST records, so not delivered */
		if (n < 8)
			st = bad(p, "corrupt record of type %u at byte %llu", type,
				(unsigned long long)(p->pos - n - 8));
		else
			p->lost_samples += get64(p->buf);
	} else if (type == REC_COMM || type == REC_FORK || type == REC_EXIT ||
	    type == REC_LOST)
		keep = decode_task(p, type, misc, n, ev, &st);
	else if (type == REC_CGROUP)
		st = cgroup_record(p, n);
	if (keep) {
		ev->seq = p->seq++;
		if (ev->time > p->round_max)
			p->round_max = ev->time;
		uint64_t k = slot(p);
		store(p, k, ev);
		heap_push(p, k, ev);
	}
	return st;
}

int
ovb_perf_next(struct ovb_perf *p, struct ovb_pev *ev)
{
	for (;;) {
		if (p->nheap && (p->eof || p->heap[0].time <= p->flush_limit)) {
			heap_pop(p, ev);
			if (ev->time < p->last_out) {
				p->reordered++;
				ev->time = p->last_out;
			}
			p->last_out = ev->time;
			return 1;
		}
		if (p->eof)
			return p->checked ? 0 : check_recording(p);
		int st = read_event(p);
		if (st)
			return st;
	}
}

int
ovb_perf_count(struct ovb_perf *p, uint64_t *samples, uint64_t *lost)
{
	uint64_t lost_recs = 0;
	*samples = 0;
	for (;;) {
		uint32_t type = 0;
		uint16_t misc = 0;
		size_t n = 0;
		int st = read_record(p, &type, &misc, &n);
		if (st == 0)
			break;
		if (st != 1)
			return st;
		if (type == REC_SAMPLE)
			++*samples;
		else if (type == REC_LOST && n >= 16)
			lost_recs += get64(p->buf + 8);
		else if (type == REC_LOST_SAMPLES && n >= 8)
			p->lost_samples += get64(p->buf);
		else if (type == REC_FINISHED_ROUND)
			p->rounds++;
	}
	*lost = p->lost_samples > lost_recs ? p->lost_samples : lost_recs;
	return 0;
}

uint32_t
ovb_perf_ncpus(const struct ovb_perf *p)
{
	return p->ncpus;
}

const char *
ovb_perf_host(const struct ovb_perf *p)
{
	return p->host[0] ? p->host : NULL;
}

const char *
ovb_perf_kernel(const struct ovb_perf *p)
{
	return p->kernel[0] ? p->kernel : NULL;
}

bool
ovb_perf_clock(const struct ovb_perf *p, uint64_t *wall, uint64_t *clock)
{
	*wall = p->wall;
	*clock = p->clock;
	return p->has_clock;
}

bool
ovb_perf_has(const struct ovb_perf *p, const char *sysname)
{
	for (size_t i = 0; i < p->nattr; i++) {
		if (p->attr[i].type != 2 || !p->tracing_parsed)
			continue;
		struct tep_event *ev = tep_find_event(p->tep,
			(int)p->attr[i].config);
		size_t k = ev ? strlen(ev->system) : 0;
		if (ev && !strncmp(sysname, ev->system, k) && sysname[k] == ':' &&
		    !strcmp(sysname + k + 1, ev->name))
			return true;
	}
	return false;
}

bool
ovb_perf_has_cgroups(const struct ovb_perf *p)
{
	for (size_t i = 0; i < p->nattr; i++)
		if (p->attr[i].h != H_NONE && p->attr[i].sample_type & S_CGROUP &&
		    !(p->attr[i].sample_type & S_VARIABLE))
			return true;
	return false;
}

const char *
ovb_perf_cgroup_path(const struct ovb_perf *p, uint64_t id)
{
	for (size_t i = p->ncg; i-- > 0;)
		if (p->cg[i].id == id)
			return p->cg[i].path;
	return NULL;
}

uint64_t
ovb_perf_reordered(const struct ovb_perf *p)
{
	return p->reordered;
}

uint64_t
ovb_perf_lost_samples(const struct ovb_perf *p)
{
	return p->lost_samples;
}

uint64_t
ovb_perf_rounds(const struct ovb_perf *p)
{
	return p->rounds;
}

void
ovb_perf_progress(const struct ovb_perf *p, double *done, double *total)
{
	*done = (double)(p->pos - p->data_start);
	*total = p->pipe ? 0 : (double)(p->end - p->data_start);
}

void
ovb_perf_close(struct ovb_perf *p)
{
	if (!p)
		return;
	tep_free(p->tep);
	for (size_t i = 0; i < p->ncg; i++)
		free(p->cg[i].path);
	free(p->cg);
	free(p->attr);
	free(p->ids);
	free(p->win);
	free(p->heap);
	free(p->hotbase);
	free(p->rare);
	free(p->link);
	free(p);
}
