/* ovb-import: usage series from monitoring data, as ovb-series.
 *
 * --bitbrains: the VM traces of the Bitbrains data centre (GWA-T-12, the
 * "rnd" and "fastStorage" sets): one CSV file per VM, optionally gzipped,
 * fields separated by ';' (and a tab), a header line naming the 11
 * columns, then one line per sample.  Each FILE becomes capsule PREFIX +
 * the file's name without .csv[.gz] (vm12 for 12.csv.gz); several files of
 * one VM (months) are merged.  cpu = CPU usage [MHZ] / (CPU capacity
 * provisioned [MHZ] / CPU cores), in CPUs; net and net-rx = the network
 * transmitted and received [KB/s] x KB; mem = Memory usage [KB] x KB, in
 * B (a level: bytes in use at the sample).  Timestamps (Unix seconds despite
 * the header's "[ms]") are rounded to the nearest multiple of I; when two
 * samples of a capsule round to one slot the first (in input order) is
 * kept.  gzip files are read through `gzip -dc`, run without a shell.
 * Output is all or nothing.
 *
 * Speed and memory (issue 27): the VMs are read -j at a time by worker
 * threads, each file through its own gzip (so the decompression runs in
 * parallel too); a worker reads one VM's files, sorts its rows and makes
 * its ovb-series text; the main thread writes the VMs' texts in
 * command-line order (the order of each VM's first file), so the output
 * does not depend on -j or on timing.  Only the VMs in flight are in
 * memory (at most 4 -j of them ahead of the writer), never the fleet: the
 * output goes to -o's temporary file (renamed into place at the end), or,
 * for standard output, to an unlinked temporary file in TMPDIR that is
 * copied to standard output once every input has been read.  Messages
 * are kept per file and printed in file order, then the per-VM warnings
 * in VM order, as a single-threaded reading prints them. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ovb.h"


enum { OPT_BITBRAINS = 0x100, OPT_PREFIX, OPT_FROM, OPT_TO, OPT_KB,
	OPT_INTERVAL = 'I', OPT_RES = 'r', OPT_JOBS = 'j' };

static bool opt_bitbrains;
static uint64_t opt_interval = 300;
static const char *opt_prefix = "vm";
static bool opt_from_given, opt_to_given;
static uint64_t opt_from, opt_to;
static double opt_kb = 1024;
static bool opt_res[OVB_NRES], opt_res_given;
static size_t opt_jobs;         /* 0: the number of processors */

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Input:", 1 },
	{ "bitbrains", OPT_BITBRAINS, NULL, 0,
	  "The FILEs are Bitbrains VM traces (CSV, or gzipped CSV); required",
	  0 },
	{ "prefix", OPT_PREFIX, "P", 0,
	  "Capsule names are P followed by the file's name without .csv[.gz] "
	  "(default vm)", 0 },
	{ "kb", OPT_KB, "BYTES", 0,
	  "Bytes in the traces' KB: 1024 (default) or 1000", 0 },
	{ "jobs", OPT_JOBS, "N", 0,
	  "Read N VMs at a time, each file through its own gzip (default: "
	  "the number of processors, at most 16); the output is the same "
	  "for every N", 0 },
	{ NULL, 0, NULL, 0, "Output:", 2 },
	{ "interval", OPT_INTERVAL, "SECONDS", 0,
	  "The sampling grid I: timestamps are rounded to the nearest "
	  "multiple of I (default 300)", 0 },
	{ "from", OPT_FROM, "DATE", 0,
	  "Only samples with T >= DATE (UTC: YYYY-MM-DD, YYYY-MM-DDTHH:MM, "
	  "YYYY-MM-DDTHH:MM:SS, or Unix seconds)", 0 },
	{ "to", OPT_TO, "DATE", 0, "Only samples with T < DATE", 0 },
	{ "resource", OPT_RES, "RES[,...]", 0,
	  "cpu, net, net-rx, mem or all (default all); repeatable", 0 },
	{ 0 }
};

static const char doc[] =
	"Convert monitoring data to ovb-series (time-aligned usage samples)."
	"\v"
	"Writes one ovb-series file (formats/series.md) with a cpu, net, "
	"net-rx and mem series for each capsule.  --bitbrains reads the VM traces of "
	"the Bitbrains data centre (GWA-T-12): each FILE is one VM, named "
	"PREFIX + the file name without .csv or .csv.gz (vm12 for "
	"2013-7/12.csv.gz); files of the same VM (several months) are merged "
	"into one series.  Gzipped files (by their magic bytes) are read "
	"through `gzip -dc`.  The first line must be the traces' header (11 "
	"columns separated by ';'); every other line is one sample of 11 "
	"non-negative numbers, the first an integer.\n\n"
	"Conversion: cpu = CPU usage [MHZ] / (CPU capacity provisioned [MHZ] "
	"/ CPU cores), the number of CPUs busy; it is missing where cores or "
	"capacity is 0 (the traces have such lines with network traffic but "
	"no CPU data).  net = Network transmitted throughput [KB/s] x KB and "
	"net-rx = Network received throughput [KB/s] x KB, in B/s.  mem = "
	"Memory usage [KB] x KB, in B: a level (bytes in use when sampled), "
	"not a rate; exact with KB = 1024.  KB is "
	"1024 B by default: the traces come from VMware vCenter, whose KB is "
	"1024 bytes, as their own memory columns show (4194304 KB = 4 GiB); "
	"--kb 1000 for decimal kilobytes.  The timestamp (Unix seconds, "
	"despite '[ms]' in the header) is rounded to the nearest multiple of "
	"I (ties upwards) and becomes the start T of the sample's slot; "
	"samples of one capsule rounded to a slot already taken are dropped, "
	"the first one in input order is kept (-v counts them).\n\n"
	"EXAMPLES:\n"
	"  ovb-import --bitbrains 2013-7/*.csv.gz -o july.series\n"
	"  ovb-import --bitbrains --prefix jul- 2013-7/1.csv.gz\n"
	"  ovb-import --bitbrains --from 2013-08-01 --to 2013-08-08 2013-8/*.gz\n"
	"  ovb-import --bitbrains 2013-7/*.csv.gz | ovb-usage -I 300\n"
	"  ovb-import -j 4 --bitbrains 2013-*/*.csv.gz -o fleet.series\n\n"
	OVB_EXIT_DOC_NOCHECK;

/* Unix seconds, or an ISO date and time in UTC. */
static uint64_t
parse_date(struct argp_state *st, const char *opt, const char *s)
{
	uint64_t v;
	if (ovb_parse_u64(s, &v))
		return v;
	static const char *const fmts[] = { "%Y-%m-%dT%H:%M:%S",
		"%Y-%m-%dT%H:%M", "%Y-%m-%d" };
	for (size_t i = 0; i < 3; i++) {
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		const char *end = strptime(s, fmts[i], &tm);
		if (!end || *end)
			continue;
		struct tm in = tm;
		time_t t = timegm(&tm);
		if (t < 0 || tm.tm_mday != in.tm_mday || tm.tm_mon != in.tm_mon ||
		    tm.tm_hour != in.tm_hour || tm.tm_min != in.tm_min ||
		    tm.tm_sec != in.tm_sec)
			break;
		return (uint64_t)t;
	}
	argp_error(st, "%s: '%s' is not a date (YYYY-MM-DD[THH:MM[:SS]], UTC, "
		"or Unix seconds)", opt, s);
	return 0;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_BITBRAINS: opt_bitbrains = true; return 0;
	case OPT_PREFIX:
		if (*arg && !ovb_valid_name(arg))
			argp_error(st, "--prefix: '%s' cannot start a name "
				"([A-Za-z0-9_][A-Za-z0-9_.:+@/-]*)", arg);
		opt_prefix = arg;
		return 0;
	case OPT_KB:
		if (strcmp(arg, "1000") && strcmp(arg, "1024"))
			argp_error(st, "--kb: '%s' is neither 1000 nor 1024", arg);
		opt_kb = atof(arg);
		return 0;
	case OPT_JOBS:
		opt_jobs = (size_t)ovb_arg_u64(st, "--jobs", arg, 1, 256);
		return 0;
	case OPT_INTERVAL:
		opt_interval = ovb_arg_u64(st, "-I", arg, 1, OVB_SERIES_MAXI);
		return 0;
	case OPT_FROM:
		opt_from = parse_date(st, "--from", arg);
		opt_from_given = true;
		return 0;
	case OPT_TO:
		opt_to = parse_date(st, "--to", arg);
		opt_to_given = true;
		return 0;
	case OPT_RES:
		ovb_arg_res(st, "-r", arg, opt_res);
		opt_res_given = true;
		return 0;
	case ARGP_KEY_SUCCESS:
		if (!opt_bitbrains)
			argp_error(st, "give the kind of input: --bitbrains");
		if (st->next >= st->argc)
			argp_error(st, "no input FILE");
		for (int i = st->next; i < st->argc; i++)
			if (strcmp(st->argv[i], "-") == 0)
				argp_error(st, "'-': standard input cannot be "
					"read (capsules are named after their "
					"files)");
		if (opt_from_given && opt_to_given && opt_from >= opt_to)
			argp_error(st, "--from must be before --to");
		if (!opt_res_given)
			for (int i = 0; i < OVB_NRES; i++)
				opt_res[i] = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "FILE...", doc,
	ovb_cli_child, NULL, NULL };

/* ---- the VMs (capsules) and their files ---- */

struct file {
	const char *path;
	size_t capsule;         /* index into the capsules */
	char *msg;              /* its messages (NULL: none), in file order */
	size_t msglen;
};

struct capsule {
	char *name;
	size_t *file, nfile, capfile;   /* its files, in command-line order */
	int status;             /* the largest of its files' */
	char *text;             /* its series blocks (status 0), from the pool */
	size_t len, textcap, nseries;
	char *msg;              /* its own warnings, printed at the end */
	size_t msglen;
	bool done;
};

static struct file *files;
static size_t nfiles;
static struct capsule *caps;
static size_t ncaps;

static char *
capsule_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (n > 3 && strcmp(base + n - 3, ".gz") == 0)
		n -= 3;
	if (n > 4 && strncmp(base + n - 4, ".csv", 4) == 0)
		n -= 4;
	char *name = ovb_xmalloc(strlen(opt_prefix) + n + 1);
	sprintf(name, "%s%.*s", opt_prefix, (int)n, base);
	return name;
}

/* Groups the FILEs by capsule, capsules in the order of their first file. */
static void
group_files(char **paths, size_t n)
{
	struct ovb_names byname;
	memset(&byname, 0, sizeof byname);
	size_t capcaps = 0;
	files = ovb_xcalloc(n, sizeof *files);
	nfiles = n;
	for (size_t i = 0; i < n; i++) {
		char *name = capsule_name(paths[i]);
		size_t c = ovb_names_get(&byname, name);
		if (c == OVB_NONE) {
			struct capsule *cp = OVB_PUSH(caps, ncaps, capcaps);
			memset(cp, 0, sizeof *cp);
			cp->name = name;
			c = ncaps - 1;
			ovb_names_add(&byname, cp->name, c);
		} else
			free(name);
		struct capsule *cp = &caps[c];
		*OVB_PUSH(cp->file, cp->nfile, cp->capfile) = i;
		files[i].path = paths[i];
		files[i].capsule = c;
	}
	ovb_names_free(&byname);
}

/* ---- reading one file, through gzip -dc when it is compressed ---- */

/* A worker's buffers, reused from file to file and VM to VM. */
struct scratch {
	char *buf;              /* a file's text */
	size_t cap;
	struct ovb_bitbrains_vm vm;
};

static void
buf_room(struct scratch *w, size_t len)
{
	if (len == w->cap)
		w->buf = ovb_xrealloc(w->buf, w->cap = w->cap ? 2 * w->cap :
			1 << 20, 1);
}

/* Runs gzip -dc PATH and reads all its output into w->buf (its length in
 * *len), gzip's own messages into its file's messages: a failed gzip (a
 * corrupt or truncated file) is reported before any of it is parsed.
 * Both pipes are close-on-exec, so that the gzip of another worker does
 * not hold them open. */
static int
gunzip(struct scratch *w, const char *path, size_t *len)
{
	int out[2], err[2];
	if (pipe2(out, O_CLOEXEC)) {
		ovb_warn("%s: cannot open a pipe: %s", path, strerror(errno));
		return OVB_ESOFT;
	}
	if (pipe2(err, O_CLOEXEC)) {
		ovb_warn("%s: cannot open a pipe: %s", path, strerror(errno));
		close(out[0]);
		close(out[1]);
		return OVB_ESOFT;
	}
	char *argv[] = { "gzip", "-dc", "--", (char *)path, NULL };
	pid_t pid;
	/* from a worker thread: no fflush of the main thread's streams */
	int e = ovb_proc_spawn_flags(&pid, "gzip", argv, OVB_PROC_NULL, out[1],
		err[1], OVB_PROC_NOFLUSH);
	close(out[1]);
	close(err[1]);
	if (e) {
		close(out[0]);
		close(err[0]);
		ovb_warn("%s: cannot run gzip -dc: %s", path, strerror(e));
		return OVB_ENOINPUT;
	}
	char ebuf[4096];
	size_t n = 0, elen = 0;
	int rerr = 0;
	struct pollfd pf[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			rerr = errno;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			ssize_t r;
			if (i == 0) {
				buf_room(w, n);
				r = read(pf[i].fd, w->buf + n, w->cap - n);
			} else {
				char sink[4096];
				r = read(pf[i].fd, sink, sizeof sink);
				if (r > 0) {
					size_t k = (size_t)r < sizeof ebuf - elen ?
						(size_t)r : sizeof ebuf - elen;
					memcpy(ebuf + elen, sink, k);
					elen += k;
				}
			}
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && i == 0)
				rerr = errno;
			if (r <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
			} else if (i == 0)
				n += (size_t)r;
		}
		if (rerr)
			break;
	}
	for (int i = 0; i < 2; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);
	int ws = 0;
	int we = ovb_proc_wait(pid, &ws);
	if (elen) /* gzip's own words first, as on a terminal */
		ovb_errout_write(ebuf, elen);
	if (rerr) {
		ovb_warn("%s: read error from gzip -dc: %s", path,
			strerror(rerr));
		return OVB_EIO;
	}
	if (we) {
		ovb_warn("%s: cannot wait for gzip -dc: %s", path, strerror(we));
		return OVB_EIO;
	}
	if (!(WIFEXITED(ws) && WEXITSTATUS(ws) == 0))
		return ovb_err_at(path, 0, "gzip -dc failed (%s %d): a corrupt "
			"or truncated file", WIFEXITED(ws) ? "exit status" :
			"signal", WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
	*len = n;
	return 0;
}

/* The whole text of PATH in w->buf: gzip (by its magic) through gzip -dc,
 * anything else as it is. */
static int
read_text(struct scratch *w, const char *path, size_t *len)
{
	FILE *f;
	const char *name;
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	unsigned char magic[2];
	size_t n = fread(magic, 1, 2, f);
	if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		fclose(f);
		return gunzip(w, path, len);
	}
	rewind(f);
	n = 0;
	for (;;) {
		buf_room(w, n);
		size_t r = fread(w->buf + n, 1, w->cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		ovb_warn("%s: read error: %s", path, strerror(errno ? errno :
			EIO));
		ovb_close_in(f);
		return OVB_EIO;
	}
	ovb_close_in(f);
	*len = n;
	return 0;
}

static int
read_file(struct scratch *w, struct capsule *c, const char *path,
	size_t *order)
{
	if (!ovb_valid_name(c->name))
		return ovb_err_at(path, 0, "capsule name '%s' made from the "
			"file name is not a valid name "
			"([A-Za-z0-9_][A-Za-z0-9_.:+@/-]*, at most %d bytes)",
			c->name, OVB_MAXNAME);
	size_t len = 0;
	int st = read_text(w, path, &len);
	if (st)
		return st;
	struct ovb_bitbrains_opt opt = { opt_interval, opt_kb, opt_from_given,
		opt_to_given, opt_from, opt_to };
	struct ovb_bitbrains_counts k = { 0, 0, 0, 0 };
	st = ovb_bitbrains_parse(w->buf, len, path, &opt, &w->vm, order, &k);
	if (!st && ovb_verbose)
		ovb_warn("%s: capsule %s: %zu samples, %zu outside --from/--to, "
			"%zu without CPU data (cores or capacity 0)", path, c->name,
			k.kept, k.outside, k.nocpu);
	return st;
}

/* ---- one VM's series text ---- */

static char *take_text(size_t need, size_t *cap);

static int
cmp_row(const void *a, const void *b)
{
	const struct ovb_bitbrains_row *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* Sorts the rows by slot (then input order), keeps the first of each slot
 * and writes one block per resource in play to c->text. */
static void
to_text(struct capsule *c, struct ovb_bitbrains_vm *vm)
{
	bool sorted = true;
	for (size_t i = 1; i < vm->n && sorted; i++)
		sorted = vm->row[i - 1].t <= vm->row[i].t;
	if (!sorted)
		ovb_qsort(vm->row, vm->n, sizeof *vm->row, cmp_row);
	size_t m = 0, dup = 0;
	for (size_t i = 0; i < vm->n; i++) {
		if (m && vm->row[m - 1].t == vm->row[i].t) {
			dup++;
			continue;
		}
		vm->row[m++] = vm->row[i];
	}
	vm->n = m;
	if (dup && ovb_verbose)
		ovb_warn("capsule %s: %zu samples fell on a slot of %llu s "
			"already taken after rounding; the first of each slot is "
			"kept", c->name, dup, (unsigned long long)opt_interval);
	char *o = c->text = take_text(OVB_NRES * (vm->n *
		(size_t)OVB_SERIES_SAMPLE_MAX + OVB_MAXNAME + 64), &c->textcap);
	for (int r = 0; r < OVB_NRES; r++) {
		if (!opt_res[r])
			continue;
		size_t n = 0;
		for (size_t i = 0; i < vm->n; i++)
			n += r != OVB_CPU || vm->row[i].has_cpu;
		if (!n) {
			if (!ovb_quiet)
				ovb_warn("capsule %s has no %s samples%s; its %s "
					"series is left out", c->name,
					ovb_res_name((enum ovb_res)r), vm->n ?
					" (no CPU data)" : "",
					ovb_res_name((enum ovb_res)r));
			continue;
		}
		c->nseries++;
		o = ovb_series_block_text(o, c->name, (enum ovb_res)r,
			opt_interval);
		for (size_t i = 0; i < vm->n; i++)
			if (r != OVB_CPU || vm->row[i].has_cpu)
				o = ovb_series_sample_text(o, vm->row[i].t,
					vm->row[i].v[r]);
	}
	c->len = (size_t)(o - c->text);
}

/* Reads capsule c's files and makes its text; every message goes to the
 * file's or the capsule's own buffer. */
static void
do_capsule(struct scratch *w, struct capsule *c)
{
	w->vm.n = 0;
	size_t order = 0;
	for (size_t j = 0; j < c->nfile; j++) {
		struct file *f = &files[c->file[j]];
		FILE *ms = ovb_xmemstream(&f->msg, &f->msglen);
		ovb_set_errout(ms);
		int st = read_file(w, c, f->path, &order);
		ovb_set_errout(NULL);
		fclose(ms);
		if (st > c->status)
			c->status = st;
	}
	if (c->status)
		return;
	FILE *ms = ovb_xmemstream(&c->msg, &c->msglen);
	ovb_set_errout(ms);
	to_text(c, &w->vm);
	ovb_set_errout(NULL);
	fclose(ms);
}

/* ---- the workers and the writer ---- */

static struct {
	pthread_mutex_t mu;
	pthread_cond_t done, room;
	size_t next;            /* the next capsule to take */
	size_t written;         /* capsules the writer is through with */
	size_t ahead;           /* at most this many past written */
	/* text buffers the writer is through with, for the next VMs: their
	 * pages stay the same few (at most ahead + workers buffers), where
	 * fresh ones would fault in new pages (and fragment) VM after VM */
	struct { char *p; size_t cap; } *pool;
	size_t npool, cappool;
} Q = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	PTHREAD_COND_INITIALIZER, 0, 0, 0, NULL, 0, 0 };

static char *
take_text(size_t need, size_t *cap)
{
	char *p = NULL;
	pthread_mutex_lock(&Q.mu);
	if (Q.npool) {
		p = Q.pool[--Q.npool].p;
		*cap = Q.pool[Q.npool].cap;
	}
	pthread_mutex_unlock(&Q.mu);
	if (p && *cap >= need)
		return p;
	free(p);
	*cap = need;
	return ovb_xmalloc(need);
}

/* Under Q.mu. */
static void
give_text(char *p, size_t cap)
{
	if (!p)
		return;
	ovb_grow(&Q.pool, &Q.cappool, Q.npool, sizeof *Q.pool);
	Q.pool[Q.npool].p = p;
	Q.pool[Q.npool++].cap = cap;
}

static void *
worker(void *arg)
{
	(void)arg;
	struct scratch w;
	memset(&w, 0, sizeof w);
	for (;;) {
		pthread_mutex_lock(&Q.mu);
		while (Q.next < ncaps && Q.next >= Q.written + Q.ahead)
			pthread_cond_wait(&Q.room, &Q.mu);
		size_t i = Q.next < ncaps ? Q.next++ : ncaps;
		pthread_mutex_unlock(&Q.mu);
		if (i == ncaps)
			break;
		do_capsule(&w, &caps[i]);
		pthread_mutex_lock(&Q.mu);
		caps[i].done = true;
		pthread_cond_broadcast(&Q.done);
		pthread_mutex_unlock(&Q.mu);
	}
	free(w.buf);
	free(w.vm.row);
	return NULL;
}

static void
put_msg(char **msg, size_t *len)
{
	if (*len)
		ovb_errout_write(*msg, *len);
	free(*msg);
	*msg = NULL;
	*len = 0;
}

int
main(int argc, char **argv)
{
	int first, status = 0;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	ovb_stdin_expects = "a Bitbrains VM trace (GWA-T-12 CSV, "
		"formats/bitbrains.md)";
	group_files(argv + first, (size_t)(argc - first));
	struct ovb_out out;
	if ((status = ovb_out_open(&out, ovb_opt_output)))
		return status;
	/* nothing of a run that fails is kept, on stdout too: a regular
	 * file is cut back, a pipe gets the text only once every input has
	 * been read */
	status = ovb_out_whole(&out);
	FILE *dst = out.f;
	if (!status)
		ovb_series_head(dst);

	size_t jobs = opt_jobs;
	if (!jobs) {
		long np = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = np < 1 ? 1 : np > 16 ? 16 : (size_t)np;
	}
	if (jobs > ncaps)
		jobs = ncaps;
	Q.ahead = 4 * jobs;
	pthread_t *tid = ovb_xcalloc(jobs, sizeof *tid);
	size_t nthreads = 0;
	if (!status)
		for (; nthreads < jobs; nthreads++)
			if (pthread_create(&tid[nthreads], NULL, worker, NULL))
				break;
	if (!status && !nthreads) {
		ovb_warn("cannot start a thread");
		status = OVB_ESOFT;
	}

	/* the writer: capsules in order, the files' messages in file order */
	size_t fnext = 0, nseries = 0;
	for (size_t i = 0; i < ncaps && nthreads; i++) {
		pthread_mutex_lock(&Q.mu);
		while (!caps[i].done)
			pthread_cond_wait(&Q.done, &Q.mu);
		pthread_mutex_unlock(&Q.mu);
		for (; fnext < nfiles && files[fnext].capsule <= i; fnext++)
			put_msg(&files[fnext].msg, &files[fnext].msglen);
		struct capsule *c = &caps[i];
		if (c->status > status)
			status = c->status;
		/* fwrite, not fwrite_unlocked: a worker's message flushes
		 * stdout (lib's vreport) */
		if (!status && c->len)
			fwrite(c->text, 1, c->len, dst);
		nseries += c->nseries;
		pthread_mutex_lock(&Q.mu);
		give_text(c->text, c->textcap);
		c->text = NULL;
		Q.written = i + 1;
		pthread_cond_broadcast(&Q.room);
		pthread_mutex_unlock(&Q.mu);
		ovb_progress("reading VMs", (double)(i + 1), (double)ncaps);
	}
	for (size_t i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	for (size_t i = 0; i < Q.npool; i++)
		free(Q.pool[i].p);
	free(Q.pool);
	ovb_progress_end();
	if (!status) {
		for (size_t i = 0; i < ncaps; i++)
			put_msg(&caps[i].msg, &caps[i].msglen);
		if (!nseries)
			status = ovb_err_at(argc - first == 1 &&
				strcmp(argv[first], "-") ? argv[first] :
				argc - first == 1 ? "<stdin>" : NULL, 0,
				"no samples in %s%s", argc - first == 1 ?
				"the input" : "any of the inputs",
				opt_from_given || opt_to_given ?
				" between --from and --to" : "");
	}
	if (!status && ferror(dst))
		status = OVB_EIO;
	status = ovb_out_end(&out, status);
	for (size_t i = 0; i < ncaps; i++) {
		free(caps[i].name);
		free(caps[i].file);
		free(caps[i].msg);
	}
	free(caps);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i].msg);
	free(files);
	return status;
}
