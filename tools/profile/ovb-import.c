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
 * Output is all or nothing. */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ovb.h"


enum { OPT_BITBRAINS = 0x100, OPT_PREFIX, OPT_FROM, OPT_TO, OPT_KB,
	OPT_INTERVAL = 'I', OPT_RES = 'r' };

static bool opt_bitbrains;
static uint64_t opt_interval = 300;
static const char *opt_prefix = "vm";
static bool opt_from_given, opt_to_given;
static uint64_t opt_from, opt_to;
static double opt_kb = 1024;
static bool opt_res[OVB_NRES], opt_res_given;

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
	"  ovb-import --bitbrains 2013-7/*.csv.gz | ovb-usage -I 300\n\n"
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

/* ---- reading one file, through gzip -dc when it is compressed ---- */

struct input {
	const char *path;
	FILE *f;
	char *buf;              /* gzip's whole output, or NULL */
};

/* Runs gzip -dc PATH and reads all its output into in->buf: a failed gzip
 * (a corrupt or truncated file) is reported before any of it is parsed. */
static int
gunzip(struct input *in, const char *path)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC)) {
		ovb_warn("%s: cannot open a pipe: %s", path, strerror(errno));
		return OVB_ESOFT;
	}
	char *argv[] = { "gzip", "-dc", "--", (char *)path, NULL };
	pid_t pid;
	int e = ovb_proc_spawn(&pid, "gzip", argv, OVB_PROC_NULL, fd[1], -1);
	close(fd[1]);
	if (e) {
		close(fd[0]);
		ovb_warn("%s: cannot run gzip -dc: %s", path, strerror(e));
		return OVB_ENOINPUT;
	}
	size_t len = 0, cap = 1 << 20;
	char *buf = ovb_xmalloc(cap);
	int rerr = 0;
	for (;;) {
		if (len == cap)
			buf = ovb_xrealloc(buf, cap *= 2, 1);
		ssize_t n = read(fd[0], buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rerr = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd[0]);
	int ws = 0;
	ovb_proc_wait(pid, &ws);
	if (rerr) {
		free(buf);
		ovb_warn("%s: read error from gzip -dc: %s", path,
			strerror(rerr));
		return OVB_EIO;
	}
	if (!(WIFEXITED(ws) && WEXITSTATUS(ws) == 0)) {
		free(buf);
		return ovb_err_at(path, 0, "gzip -dc failed (%s %d): a corrupt "
			"or truncated file", WIFEXITED(ws) ? "exit status" :
			"signal", WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
	}
	in->buf = buf;
	in->f = len ? fmemopen(buf, len, "r") : fopen("/dev/null", "r");
	if (!in->f) {
		free(buf);
		in->buf = NULL;
		ovb_warn("%s: %s", path, strerror(errno));
		return OVB_ESOFT;
	}
	return 0;
}

static int
open_input(struct input *in, const char *path)
{
	memset(in, 0, sizeof *in);
	in->path = path;
	FILE *f;
	const char *name;
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	unsigned char magic[2];
	size_t n = fread(magic, 1, 2, f);
	bool gz = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (!gz) {
		rewind(f);
		in->f = f;
		return 0;
	}
	fclose(f);
	return gunzip(in, path);
}

static void
close_input(struct input *in)
{
	if (in->f)
		ovb_close_in(in->f);
	in->f = NULL;
	free(in->buf);
	in->buf = NULL;
}

/* ---- the capsules and their rows ---- */

struct capsule {
	char *name;
	size_t nfiles;
	struct ovb_bitbrains_vm vm;
};

struct state {
	size_t n, cap, order;
	struct capsule *c;
	struct ovb_names byname;
};

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

static struct capsule *
capsule_of(struct state *s, char *name)
{
	size_t i = ovb_names_get(&s->byname, name);
	if (i != OVB_NONE) {
		free(name);
		return &s->c[i];
	}
	struct capsule *c = OVB_PUSH(s->c, s->n, s->cap);
	memset(c, 0, sizeof *c);
	c->name = name;
	ovb_names_add(&s->byname, c->name, s->n - 1);
	return c;
}

static int
read_file(struct state *s, const char *path)
{
	char *name = capsule_name(path);
	if (!ovb_valid_name(name)) {
		int st = ovb_err_at(path, 0, "capsule name '%s' made from the "
			"file name is not a valid name "
			"([A-Za-z0-9_][A-Za-z0-9_.:+@/-]*, at most %d bytes)", name,
			OVB_MAXNAME);
		free(name);
		return st;
	}
	struct input in;
	int st = open_input(&in, path);
	if (st) {
		free(name);
		return st;
	}
	struct capsule *c = capsule_of(s, name);
	c->nfiles++;
	struct ovb_bitbrains_opt opt = { opt_interval, opt_kb, opt_from_given,
		opt_to_given, opt_from, opt_to };
	struct ovb_bitbrains_counts k = { 0, 0, 0, 0 };
	st = ovb_bitbrains_read(in.f, in.path, &opt, &c->vm, &s->order, &k);
	close_input(&in);
	if (!st && ovb_verbose)
		ovb_warn("%s: capsule %s: %zu samples, %zu outside --from/--to, "
			"%zu without CPU data (cores or capacity 0)", path, c->name,
			k.kept, k.outside, k.nocpu);
	return st;
}

/* ---- output ---- */

static int
cmp_row(const void *a, const void *b)
{
	const struct ovb_bitbrains_row *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static void
to_series(struct capsule *c, struct ovb_series_set *ss)
{
	if (c->vm.n)
		ovb_qsort(c->vm.row, c->vm.n, sizeof *c->vm.row, cmp_row);
	size_t m = 0, dup = 0;
	for (size_t i = 0; i < c->vm.n; i++) {
		if (m && c->vm.row[m - 1].t == c->vm.row[i].t) {
			dup++;
			continue;
		}
		c->vm.row[m++] = c->vm.row[i];
	}
	c->vm.n = m;
	if (dup && ovb_verbose)
		ovb_warn("capsule %s: %zu samples fell on a slot of %llu s "
			"already taken after rounding; the first of each slot is "
			"kept", c->name, dup, (unsigned long long)opt_interval);
	for (int r = 0; r < OVB_NRES; r++) {
		if (!opt_res[r])
			continue;
		size_t n = 0;
		for (size_t i = 0; i < c->vm.n; i++)
			n += r != OVB_CPU || c->vm.row[i].has_cpu;
		if (!n) {
			if (!ovb_quiet)
				ovb_warn("capsule %s has no %s samples%s; its %s "
					"series is left out", c->name,
					ovb_res_name((enum ovb_res)r), c->vm.n ?
					" (no CPU data)" : "",
					ovb_res_name((enum ovb_res)r));
			continue;
		}
		struct ovb_series *se = ovb_series_add(ss, c->name,
			(enum ovb_res)r, opt_interval);
		for (size_t i = 0; i < c->vm.n; i++)
			if (r != OVB_CPU || c->vm.row[i].has_cpu)
				ovb_series_push(se, c->vm.row[i].t,
					c->vm.row[i].v[r]);
	}
}

static void
state_free(struct state *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->c[i].name);
		free(s->c[i].vm.row);
	}
	free(s->c);
	ovb_names_free(&s->byname);
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	struct state s;
	memset(&s, 0, sizeof s);
	struct ovb_out out;
	if ((status = ovb_out_open(&out, ovb_opt_output)))
		return status;
	for (int i = first; i < argc; i++)
		if ((st = read_file(&s, argv[i])) > status)
			status = st;
	struct ovb_series_set ss;
	memset(&ss, 0, sizeof ss);
	if (!status) {
		for (size_t i = 0; i < s.n; i++)
			to_series(&s.c[i], &ss);
		if (!ss.n)
			status = ovb_err_at(argc - first == 1 &&
				strcmp(argv[first], "-") ? argv[first] :
				argc - first == 1 ? "<stdin>" : NULL, 0,
				"no samples in %s%s", argc - first == 1 ?
				"the input" : "any of the inputs",
				opt_from_given || opt_to_given ?
				" between --from and --to" : "");
	}
	if (!status)
		status = ovb_series_write(out.f, &ss);
	status = ovb_out_end(&out, status);
	ovb_series_free(&ss);
	state_free(&s);
	return status;
}
