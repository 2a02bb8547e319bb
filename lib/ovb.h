/* ovb.h: the overbook library (libovb.a), linked by every ovb-* tool.
 *
 * One public header, prefixed names, in pipeline order and sectioned by the
 * file that implements each part: the base (version, exit statuses,
 * resources and units); lib/ helpers (memory, diagnostics, numbers, I/O,
 * processes, the shared command line); formats/ (the contract: lexer,
 * registry, then each format as the pipeline meets it); lib/ models and
 * solvers (measuring U, token buckets, pmfs, the node model, Cluster
 * Reserves) and plots.  Reader internals shared between formats/ files
 * are in formats/impl.h, not here.
 *
 * Every format reader is strict: it reports "PROG: FILE:LINE: what is
 * wrong" on stderr and returns OVB_EDATA; it never aborts on bad input.
 * Writers produce the canonical form: reading it back and writing it again
 * gives the same bytes.
 */
#ifndef OVB_H
#define OVB_H

#include <argp.h>
#include <float.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Types used before their section. */
struct ovb_lex;
struct ovb_samples;
struct ovb_curve;
struct ovb_onoff;
struct ovb_oncap;
struct ovb_series;
struct ovb_joint_stat;
struct ovb_pt;

#define OVB_VERSION "0.1.0"

/* Exit statuses (the values of sysexits.h), documented in ovb(7). */
enum {
	OVB_OK = 0,        /* success */
	OVB_FAIL = 1,      /* a check failed (ovb-check, ovb-fmt --check) */
	OVB_EUSAGE = 64,   /* bad command line */
	OVB_EDATA = 65,    /* bad input data */
	OVB_ENOINPUT = 66, /* cannot open an input */
	OVB_EUNAVAIL = 69, /* a program we run is missing or failed */
	OVB_ESOFT = 70,    /* internal error, out of memory */
	OVB_EIO = 74,      /* read or write error */
	OVB_ENOPERM = 77,  /* not permitted (ovb-capture: tracing) */
};

/* Seconds in a day: the days of durations (-d units, ovb-backtest's
 * periods, the drift's day blocks) and of dates (UTC: no leap seconds). */
#define OVB_DAY 86400

/* Resources.  Rates are in "cpu" (CPU-seconds per second, 1 = one CPU busy)
 * and "B/s"; amounts in "cpu-s" and "B".  mem is a level, not a rate: bytes
 * in use, in "B" (its "amount", a level held over time, in "B-s"). */
enum ovb_res { OVB_CPU, OVB_NET, OVB_NETRX, OVB_MEM, OVB_NRES };
/* Node capacities cover OVB_CPU, OVB_NET (an interface's bandwidth) and,
 * when the cluster gives them (each on every node or on none), OVB_NETRX,
 * the receive bandwidth, and OVB_MEM, the memory [B]; without them net-rx
 * and mem are not placed.  The rate resources placed are the first
 * ovb_cluster_nres (2 or 3); mem, a level, is placed beside them when
 * ovb_cluster_has_mem. */
#define OVB_NCAP 4

const char *ovb_res_name(enum ovb_res r);  /* "cpu", "net", "net-rx", "mem" */
/* The unit of a usage value: "cpu", "B/s", "B/s", "B" (mem: a level) */
const char *ovb_res_rate_unit(enum ovb_res r);
const char *ovb_res_amount_unit(enum ovb_res r);/* "cpu-s", "B", "B", "B-s" */
int ovb_res_parse(const char *s);               /* enum value, or -1 */
/* The resources of the Merkat market (ovb-bids): cpu (in cpu, as
 * ovb-cluster) and mem (in MiB, a node's from its cluster label mem=MiB). */
enum ovb_mres { OVB_MCPU, OVB_MMEM, OVB_NMRES };
const char *ovb_mres_name(enum ovb_mres r);     /* "cpu", "mem" */
const char *ovb_mres_unit(enum ovb_mres r);     /* "cpu", "MiB" */
int ovb_mres_parse(const char *s);              /* enum value, or -1 */

/* ---- lib/util.c: memory, growable arrays, name tables ---- */

void *ovb_xmalloc(size_t n);
void *ovb_xcalloc(size_t n, size_t size);
void *ovb_xrealloc(void *p, size_t n, size_t size);
char *ovb_xstrdup(const char *s);
/* open_memstream, or "out of memory" and exit 70. */
FILE *ovb_xmemstream(char **buf, size_t *len);
/* The formatted text, malloc'd (vasprintf), or "out of memory" and exit
 * 70. */
char *ovb_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ovb_vxasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
/* Make room for one more element in *p (n in use, *cap allocated). */
void ovb_grow(void *pp, size_t *cap, size_t n, size_t size);
#define OVB_PUSH(arr, n, cap) \
	(ovb_grow(&(arr), &(cap), (n), sizeof *(arr)), &(arr)[(n)++])

/* qsort that takes an empty or NULL array (qsort's is declared nonnull). */
void ovb_qsort(void *base, size_t n, size_t size,
	int (*cmp)(const void *, const void *));

/* String -> index map; keys are borrowed, not copied. */
struct ovb_names {
	size_t cap, n;
	const char **key;
	size_t *val;
};
#define OVB_NONE ((size_t)-1)
size_t ovb_names_get(const struct ovb_names *t, const char *key);
/* Adds key; returns false (and changes nothing) if it is already there. */
bool ovb_names_add(struct ovb_names *t, const char *key, size_t val);
void ovb_names_free(struct ovb_names *t);

/* A name: [A-Za-z0-9_][A-Za-z0-9_.:+@/-]*, at most OVB_MAXNAME bytes. */
#define OVB_MAXNAME 128
bool ovb_valid_name(const char *s);

/* Monotonic seconds (timings and progress; never in any output file). */
double ovb_now(void);
/* One seeded generator for every tool (splitmix64): the same seed gives
 * the same sequence on every machine.  *state is the seed, then advanced. */
uint64_t ovb_rng_next(uint64_t *state);
/* A double uniform in [0, 1) with 53 random bits. */
double ovb_rng_uniform(uint64_t *state);

/* ---- lib/diag.c: diagnostics ---- */

/* "PROG: FILE:LINE: MESSAGE" on stderr; returns OVB_EDATA. */
int ovb_err(const struct ovb_lex *lx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Same at an explicit line (0: no line). */
int ovb_err_at(const char *file, unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "PROG: MESSAGE" on stderr (no location). */
void ovb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Sends the messages of ovb_err, ovb_err_at and ovb_warn to f instead
 * (NULL: back to stderr), in the calling thread only (ovb-import's
 * workers keep each file's messages apart to print them in file order).
 * The fuzz targets point them at /dev/null and leave stderr itself, where
 * the sanitizers report, alone. */
void ovb_set_errout(FILE *f);
/* Writes text (messages kept earlier) where the calling thread's messages
 * go. */
void ovb_errout_write(const char *text, size_t len);

/* ---- lib/num.c: the canonical number writer, strict numbers, the parts of a
 * double ---- */

/* Canonical number text: integers below 2^53 plainly, others in the
 * shortest %g form that reads back to the same double.  buf >= 32 bytes. */
char *ovb_fmt_real(char *buf, double v);
/* The same, returning the end of the text (its terminating NUL). */
char *ovb_fmt_real_end(char *buf, double v);
/* The decimal digits of v at buf (>= 21 bytes), NUL-terminated; returns
 * the end (the NUL), as printf's %llu. */
char *ovb_fmt_u64_end(char *buf, uint64_t v);
/* Convenience: writes " " and the canonical number to f. */
void ovb_put_real(FILE *f, double v);
/* A number for a message: the canonical text of a finite v (the double
 * exactly, as it reads back), "above the largest representable value
 * (1.7976931348623157e+308)" for an overflow (+inf), "below the lowest
 * representable value (-1.7976931348623157e+308)" for -inf, "undefined
 * (not a number)" for a NaN: never "inf".  buf >= OVB_MSG_NUM bytes. */
#define OVB_MSG_NUM 64
char *ovb_fmt_msg_num(char *buf, double v);
/* v = m 2^e exactly, m an odd integer (m = e = 0 for v == 0). */
void ovb_split_double(double v, int64_t *m, int *e);
/* The double nearest m 10^e10 (ties to even, as strtod), for m < 2^64 and
 * |e10| <= 19 (any m 10^e10 with m < 2^53 and |e10| <= 22 too); false
 * outside that range (the caller then uses strtod). */
bool ovb_decimal_to_double(uint64_t m, int e10, double *v);

/* Strict numbers: a decimal real is -?[0-9]+(.[0-9]+)?([eE][+-]?[0-9]+)?,
 * finite; an unsigned integer is [0-9]+ within range.  Return true when s
 * is entirely such a number. */
bool ovb_parse_real(const char *s, double *v);
bool ovb_parse_u64(const char *s, uint64_t *v);

/* ---- lib/io.c: inputs and atomic outputs ---- */

/* Opens path for reading; NULL or "-" is stdin, named "<stdin>" (checked
 * by ovb_stdin_tty first).  On failure reports "PROG: PATH: cannot open:
 * REASON" and returns OVB_ENOINPUT. */
int ovb_open_in(const char *path, FILE **f, const char **name);
void ovb_close_in(FILE *f);

/* The inputs of a profiling tool (ovb-usage, ovb-tbucket): ovb-onoff or
 * ovb-series files, the capsules chosen by -c (all when none is given) and
 * the resources by -r; a capsule may come from one file only. */
struct ovb_select {
	bool res[OVB_NRES];     /* -r (ovb_arg_res) */
	bool res_given;
	struct ovb_names caps;  /* -c NAME -> index in cap (ovb_arg_capsules) */
	size_t ncaps;
	char **cap;             /* borrowed from argv */
	bool *found;            /* per -c capsule: in some input */
	struct ovb_names seen;  /* capsule -> index in name and owner */
	char **name, **owner;   /* capsules read, and their files */
	size_t nseen;
};
void ovb_select_free(struct ovb_select *sel);

/* An output that appears whole or not at all: a named file is written to a
 * temporary beside it and renamed by ovb_out_commit. */
struct ovb_out {
	FILE *f;
	char *path;     /* NULL: stdout */
	char *tmp;
	/* stdout made whole (ovb_out_whole): */
	bool whole;
	off_t start;    /* a regular file: where it started; -1: spooled */
	char *spname;   /* the spool's name, for messages */
};
int ovb_out_open(struct ovb_out *o, const char *path);
/* Makes an o that is stdout appear whole or not at all too (a named -o
 * already does): a regular file or /dev/null is written as the text comes
 * and cut back to where it started when the run fails (O_APPEND: to its
 * size then); anything else (a pipe, a terminal) gets the text only once
 * the run succeeded, from an unlinked temporary file in $TMPDIR or /tmp
 * (o->f is then that file).  0 or OVB_EIO (reported).  For a tool that
 * writes as it reads, and may still fail after. */
int ovb_out_whole(struct ovb_out *o);
/* ok: flush, check, rename into place (0 or OVB_EIO, reported).
 * !ok: discard the temporary; returns 0. */
int ovb_out_close(struct ovb_out *o, bool ok);
/* Checks stdout for write errors at exit (sbase fshut) and closes it; 0
 * or OVB_EIO.  Called again, it returns the first call's verdict. */
int ovb_fshut_stdout(void);
/* The one place write errors are reported (lib/io.c): once per stream,
 * "PROG: NAME: write error: REASON" (err an errno; 0: EIO); OVB_EIO. */
int ovb_write_error(FILE *f, const char *name, int err);
/* fflush and the error flag of f: 0, or ovb_write_error's OVB_EIO. */
int ovb_stream_check(FILE *f, const char *name);
/* Flush, check and fclose f: 0 or OVB_EIO, reported when report (a
 * stream already reported is not reported again). */
int ovb_stream_close(FILE *f, const char *name, bool report);
/* The end of a tool's run: ovb_out_close(o, status is 0 or OVB_FAIL),
 * then, when o is stdout, ovb_fshut_stdout; returns the largest of status
 * and theirs.  Every tool ends its output here. */
int ovb_out_end(struct ovb_out *o, int status);
/* A tool that builds its whole output in memory first: when status is 0
 * or OVB_FAIL (a check that failed still reports), writes buf[0..len) to
 * -o (atomically) or stdout and checks it; returns the write error, else
 * status.  Any other status writes nothing and is returned. */
int ovb_out_buffer(const char *buf, size_t len, int status);

/* Progress on stderr, only when stderr is a terminal and not quiet. */
bool ovb_progress_wanted(void);
void ovb_progress(const char *what, double done, double total);
void ovb_progress_end(void);

/* ---- lib/proc.c: running a program without a shell ---- */

/* Starts file (searched on PATH when it has no '/') with argv, its
 * standard input, output and error on in, out and err (-1: the caller's;
 * OVB_PROC_NULL: /dev/null).  0 and *pid, or the errno why it could not be
 * started (ENOENT: no such program).  Stdio buffers are flushed first, so
 * that what the caller wrote comes before what the program writes. */
#define OVB_PROC_NULL (-2)
int ovb_proc_spawn(pid_t *pid, const char *file, char *const argv[], int in,
	int out, int err);
/* The same; flags OVB_PROC_NOFLUSH: stdio buffers are left alone (from a
 * thread: ovb-import's workers; another thread's output is not flushed
 * halfway). */
#define OVB_PROC_NOFLUSH 1
int ovb_proc_spawn_flags(pid_t *pid, const char *file, char *const argv[],
	int in, int out, int err, int flags);
/* Waits for pid (through EINTR): 0 and its wait status *ws, or errno. */
int ovb_proc_wait(pid_t pid, int *ws);

/* ---- lib/cli.c: the options every tool shares, as one argp child ---- */

extern const struct argp_child ovb_cli_child[]; /* -o, -q, -v */
extern const char *ovb_opt_output;             /* -o FILE, or NULL */
extern int ovb_verbose;                        /* -v count */
extern bool ovb_quiet;                         /* -q */
/* No silent wait: before a tool reads stdin, when stdin is a terminal,
 * one line on stderr says what the tool expects (ovb_stdin_expects, else
 * the ARGS of its usage) and that Ctrl-D ends it, and 0 is returned: the
 * tool reads on.  A tool whose input a terminal cannot carry (a binary
 * trace) sets ovb_stdin_refuse to say what to give instead: then the
 * reason and the usage, and OVB_EUSAGE.  -q silences the hint, never the
 * refusal.  ovb_open_in calls it; a tool reading stdin otherwise too. */
extern const char *ovb_stdin_expects;
extern const char *ovb_stdin_refuse;
int ovb_stdin_tty(void);
/* The exit-status table, for every tool's --help epilogue. */
#define OVB_EXIT_DOC \
	"Exit status: 0 success; 1 a check failed; 64 usage error; 65 bad " \
	"input data; 66 cannot open an input; 69 a program we run is missing " \
	"or failed; 70 internal error; 74 I/O error; 77 not permitted.\n"
/* The same for a tool that never exits 1 (it checks nothing; its --strict
 * refusals are bad data, 65). */
#define OVB_EXIT_DOC_NOCHECK \
	"Exit status: 0 success; 64 usage error; 65 bad input data; 66 cannot " \
	"open an input; 69 a program we run is missing or failed; 70 internal " \
	"error; 74 I/O error; 77 not permitted.\n"
/* Strict option values; bad ones go through argp_error (exit 64). */
double ovb_arg_real(struct argp_state *st, const char *opt, const char *s,
	double lo, double hi);
/* A duration: an unsigned integer with an optional unit s, m, h or d
 * ("3600", "60m", "1h"), in s, within [lo, hi]. */
/* The longest duration an option takes [s] (2^40: 34,000 years). */
#define OVB_DURATION_MAX (UINT64_C(1) << 40)
uint64_t ovb_arg_seconds(struct argp_state *st, const char *opt,
	const char *s, uint64_t lo, uint64_t hi);
uint64_t ovb_arg_u64(struct argp_state *st, const char *opt, const char *s,
	uint64_t lo, uint64_t hi);
/* An integer with an optional '-', |v| <= max, as ovb_arg_u64. */
int64_t ovb_arg_i64(struct argp_state *st, const char *opt, const char *s,
	uint64_t max);
/* A comma-separated list without empty items, or argp_error. */
void ovb_arg_list(struct argp_state *st, const char *opt, const char *arg);
/* "RES[,...]" (cpu, net, net-rx, all): sets want[] of each; splits arg. */
void ovb_arg_res(struct argp_state *st, const char *opt, char *arg,
	bool want[OVB_NRES]);
/* "NAME[,...]": adds the capsule names to sel->caps; splits arg. */
void ovb_arg_capsules(struct argp_state *st, const char *opt, char *arg,
	struct ovb_select *sel);
/* The children of a profiling tool (ovb-usage, ovb-tbucket): -r and -c
 * into ovb_sel (resources cpu,net when -r is not given), then -o, -q,
 * -v. */
extern const struct argp_child ovb_select_children[];
extern struct ovb_select ovb_sel;

/* ---- formats/lex.c: records and tokens ---- */

#define OVB_MAXTOK 64

/* Reads one record (non-blank, non-comment line) at a time and splits it
 * into whitespace-separated tokens; '#' at the start of a token begins a
 * comment.  Lines longer than OVB_MAXLINE are rejected. */
#define OVB_MAXLINE 65536
struct ovb_lex {
	FILE *f;
	const char *name;       /* file name for messages; "<stdin>" for stdin */
	unsigned long line;     /* line number of the current record */
	char *buf;
	size_t cap;
	int ntok;
	char *tok[OVB_MAXTOK];
	bool again;             /* ovb_lex_unread: return this record again */
	bool eof;
};
void ovb_lex_init(struct ovb_lex *lx, FILE *f, const char *name);
void ovb_lex_free(struct ovb_lex *lx);
/* 1: a record is in tok[0..ntok-1]; 0: end of input; OVB_EDATA/OVB_EIO:
 * error, already reported. */
int ovb_lex_next(struct ovb_lex *lx);
void ovb_lex_unread(struct ovb_lex *lx);

/* Token checks (the readers' others are in formats/impl.h): each reports
 * "WHAT: ..." at the current line and returns OVB_EDATA on failure, 0 on
 * success. */
int ovb_arity(const struct ovb_lex *lx, int min, int max, const char *syntax);
int ovb_tok_prob(const struct ovb_lex *lx, int i, const char *what, double *v);
int ovb_tok_u64(const struct ovb_lex *lx, int i, const char *what, uint64_t *v);
/* Splits "key=value" in place; false when there is no '='. */
bool ovb_kv(char *tok, char **key, char **val);

/* ---- formats/format.c: every format by name and magic ---- */

struct ovb_format {
	const char *name;       /* "cluster"; the magic is "ovb-cluster" */
	size_t size;            /* sizeof the in-memory type */
	int (*read)(struct ovb_lex *, void *);
	int (*write)(FILE *, const void *);
	void (*free)(void *);
};
extern const struct ovb_format ovb_formats[];
extern const size_t ovb_nformats;
const struct ovb_format *ovb_format_by_name(const char *name);
/* Peeks at the first record: the format it names (Sharc RSL: apps), or NULL
 * after reporting why not.  The record is left to be read again. */
const struct ovb_format *ovb_format_sniff(struct ovb_lex *lx, int *status);

/* ---- formats/format.c: reading any input of these formats ---- */

/* Reads one input of a tool that takes several kinds of file told apart
 * by their magic line: opens path (NULL or "-": stdin), peeks at the first
 * record and calls take(ctx, fmt, lx) with the lexer positioned on the
 * magic record (fmt is the format it names; RSL reads as "apps"), then
 * closes.  take reads the file with fmt's reader or rejects it (with
 * ovb_err, naming what the tool accepts) and returns 0 or a status.
 * Returns the open, sniff or take status. */
struct ovb_format;
typedef int ovb_take_fn(void *ctx, const struct ovb_format *fmt,
	struct ovb_lex *lx);
int ovb_read_input(const char *path, ovb_take_fn *take, void *ctx);
/* ovb_read_input of files[0..nfiles), or of stdin when nfiles is 0; every
 * file is read; returns the largest status. */
int ovb_read_inputs(int nfiles, char **files, ovb_take_fn *take, void *ctx);

struct ovb_profile_fn {
	/* once per ovb-onoff file, before its capsules; may be NULL */
	int (*onoff_file)(void *ctx, const char *file,
		const struct ovb_onoff *o);
	int (*onoff)(void *ctx, const char *file, const struct ovb_onoff *o,
		const struct ovb_oncap *c, enum ovb_res r);
	int (*series)(void *ctx, const char *file,
		const struct ovb_series *se);
	/* the result to f (reporting an empty one): 0 or a status */
	int (*write)(void *ctx, FILE *f);
};
/* The run of a profiling tool after its options: opens -o; reads
 * files[0..nfiles) (none: stdin; "-": stdin), each an ovb-series file,
 * else an ovb-onoff (any other kind is reported as not ovb-onoff); calls
 * fn->onoff for every chosen capsule in file order and chosen resource, or
 * fn->series for every series of a chosen capsule (capsules in order of
 * first appearance; a missing resource is warned about and left out), a
 * file stopping at its first error; reports every -c capsule that was in
 * no file; and when all went well, fn->write.  The output is all or
 * nothing.  Returns the largest status. */
int ovb_run_profiling(int nfiles, char **files, struct ovb_select *sel,
	const struct ovb_profile_fn *fn, void *ctx);

/* ---- lib/comments.c: comments kept in the canonical form ---- */

/* The canonical text canon (clen bytes) of the input text in, with in's
 * comments put back: a comment-only line before the record that follows
 * it, a comment after a record's fields after that record's line, the
 * comments after the last record at the end; an input comment equal to
 * one of canon's own comment lines is canon's (not doubled).  Returns a
 * malloc'd text of *outlen bytes; applied to its own result and the
 * canonical text of that, it returns the same text. */
char *ovb_keep_comments(const char *in, size_t inlen, const char *canon,
	size_t clen, size_t *outlen);

/* ---- lib/hist.c: a usage distribution on a grid ----
 *
 * Bin 0 counts intervals whose usage was exactly 0; bin k >= 1 counts
 * usages in ((k-1)w, kw].  A bin's value is taken as its upper edge kw, so
 * any sum computed from bins is an upper bound of the true sum
 * (conservative for overflow probabilities). */
#define OVB_MAXBINS 1000000
/* Resource limits (formats/README.md, "Resource limits"): checked before
 * the work they bound is started, a clear 65 naming the input beyond. */
#define OVB_MAXINTERVALS 100000000u   /* measurement intervals in one span */
#define OVB_MAXCPUS 65536u            /* CPUs of a trace (cpus, NRCPUS) */
struct ovb_hist {
	double width;        /* bin width w, in the resource's rate unit */
	uint64_t n;          /* number of measurement intervals = sum of counts */
	size_t nbins;        /* bins 0..nbins-1; the last one is non-zero */
	uint64_t *count;
};
/* Value range of bin k: bin 0 is [0,0]; bin k is ((k-1)w, kw]. */
double ovb_hist_lo(const struct ovb_hist *h, size_t k);
double ovb_hist_hi(const struct ovb_hist *h, size_t k);
/* The bin of usage x >= 0: the least k with x <= kw (0 for x == 0). */
size_t ovb_hist_bin(double x, double width);
/* Nearest rank (1..n) of percentile p in [0,100] among n values:
 * max(1, ceil(p n / 100)), with p n / 100 taken as an integer when it is
 * within 1e-9 of one (decimal p is not exact in binary). */
uint64_t ovb_pct_rank(double p, uint64_t n);

/* ---- formats/usage.c: the trace record and a distribution block ---- */

/* Percentiles are nearest-rank: the smallest observed x such that at least
 * p% of the intervals used at most x (p = 0: the minimum). */
#define OVB_MAXPCT 16
/* Where and when the trace a distribution or curve was measured from was
 * recorded: the optional record "trace HOST KERNEL START LENGTH s" of
 * usage, profile and curve blocks (formats/usage.md). */
struct ovb_trace {
	bool has;
	char *host, *kernel;     /* names; NULL: not known ("-") */
	char *start;             /* UTC, "2026-11-21T03:14:38.424701000Z";
	                            NULL: not known ("-") */
	double length;           /* the trace's span [s] */
};
void ovb_trace_free(struct ovb_trace *t);
void ovb_trace_copy(struct ovb_trace *to, const struct ovb_trace *from);
/* Reads the current record (tok[0] "trace") into *t; 0 or the error. */
int ovb_trace_read(struct ovb_lex *lx, struct ovb_trace *t);
/* Writes the record (nothing when !t->has). */
void ovb_trace_put(FILE *f, const struct ovb_trace *t);
/* Time-of-day windows of U (lib/tod.c, formats/usage.md "Time-of-day
 * windows"): a window is a day type (weekday Mon-Fri or weekend Sat-Sun
 * of the windows' clock, UTC + offset) and the hours [from, to) of it;
 * its histogram counts the block's intervals that start in it, on the
 * block's bins.  h.n 0: the window is unmeasured (no interval), not 0. */
enum { OVB_TOD_WEEKDAY, OVB_TOD_WEEKEND };
#define OVB_TOD_SLOTS 48        /* (day type, hour): slot = 24 days + hour */
struct ovb_win {
	int days;               /* OVB_TOD_WEEKDAY or OVB_TOD_WEEKEND */
	int from, to;           /* hours, 0 <= from < to <= 24 */
	struct ovb_hist h;      /* width: the block's; n 0: unmeasured */
	size_t ncurve;          /* the window's own token-bucket curve */
	struct ovb_pt *curve;   /* rho(sigma), sigma increasing; 0: none */
};
struct ovb_tod {
	bool has;               /* the block has windows ("windows" record) */
	int64_t offset;         /* the windows' clock = UTC + offset [s] */
	uint64_t min;           /* the merge rule's minimum of intervals */
	size_t n;
	struct ovb_win *w;      /* weekday windows by hour, then weekend's */
};
/* How long a capsule's tasks waited for a CPU while runnable: the record
 * "wait PREEMPTED WOKEN BUSY AS" of onoff (with the capsule's name after
 * the keyword), usage and profile cpu blocks (formats/onoff.md, "Demand";
 * formats/usage.md).  has false: not measured, never 0. */
struct ovb_wait {
	bool has;
	bool woke;           /* WOKEN measured (the trace had sched_wakeup);
	                        false ("-"): only PREEMPTED, a lower bound */
	bool demand;         /* AS "demand": the waits are in the busy records
	                        (ovb-onoff --demand); else "receipt" */
	uint64_t preempted;  /* task-ns waited after preemptions */
	uint64_t woken;      /* task-ns waited after wake-ups (woke) */
	uint64_t busy;       /* CPU-ns the capsule ran: what it received */
};
#define OVB_WAIT_PCT 5   /* a wait above this % of BUSY is a warning */
/* Reads the fields PREEMPTED WOKEN BUSY AS at tok[i..i+3]; 0 or the error. */
int ovb_wait_read(struct ovb_lex *lx, int i, struct ovb_wait *w);
/* Writes "wait [NAME ]PREEMPTED WOKEN BUSY AS" (nothing when !w->has). */
void ovb_wait_put(FILE *f, const char *name, const struct ovb_wait *w);
/* lib/wait.c, the judgement (ovb-onoff -v and ovb-profile alike): the
 * wait as a share of BUSY, in %; INFINITY for a wait with BUSY 0. */
double ovb_wait_share(const struct ovb_wait *w);
/* Is it above OVB_WAIT_PCT % of BUSY (exactly, in integers)? */
bool ovb_wait_over(const struct ovb_wait *w);
/* "waited for a CPU while runnable ... % of its busy time ..." for messages:
 * the share, the task-s after preemptions and after wake-ups (or that
 * those were not measured) and what the busy time holds; into buf. */
const char *ovb_wait_say(char *buf, size_t size, const struct ovb_wait *w);
struct ovb_dist {        /* U of one capsule and resource */
	char *capsule;
	enum ovb_res res;
	double interval;     /* measurement interval I [s] */
	struct ovb_hist h;
	bool has_mean;
	double mean;         /* [rate unit] */
	int npct;
	double pct_p[OVB_MAXPCT], pct_v[OVB_MAXPCT];
	struct ovb_trace trace;
	uint64_t forecast;   /* the record "forecast T": U forecasts the usage
	                        up to T [s since the epoch] (ovb-usage
	                        --horizon); 0: a measurement, no forecast */
	uint64_t lost;       /* the record "lost D": D measurement intervals
	                        of the trace were left out of U (they overlap
	                        gaps of lost events); 0: none said */
	struct ovb_tod tod;  /* time-of-day windows (lib/tod.c); !tod.has:
	                        none */
	bool unmeasured;     /* the record "unmeasured": the trace did not
	                        measure this resource (no U; read, U is a
	                        point mass at 0 that only --unmeasured=zero
	                        lets a placing tool use) */
	struct ovb_wait wait;/* cpu only: its runnable wait in the trace */
};
/* Is the share of intervals lost, lost / (n + lost), above O / 2 (exactly,
 * for the doubles given)?  Above it, the (1-O) tail may be hidden in the
 * intervals left out (formats/profile.md, "Lost events"). */
bool ovb_dist_lost_too_many(const struct ovb_dist *d, double O);
void ovb_dist_free(struct ovb_dist *d);

/* ---- formats/onoff.c: busy periods and transfers (format ovb-onoff) ---- */

struct ovb_busy { uint64_t start, end; uint32_t ncpu; }; /* [ns), CPUs */
struct ovb_xfer { uint64_t t, bytes; };                  /* ns, B */
struct ovb_gap { uint64_t start, end, lost; };           /* ns, events */
struct ovb_oncap {
	char *name, *select;
	size_t nbusy, nsend, nrecv, capbusy, capsend, caprecv;
	struct ovb_busy *busy;
	struct ovb_xfer *send, *recv;
	struct ovb_wait wait;  /* the record "wait NAME ..." */
	unsigned long wait_line;
};
struct ovb_onoff {
	uint64_t t0, t1;     /* trace span [ns] */
	unsigned long span_line;   /* the span record's line */
	uint32_t ncpus;
	size_t ncap, capcap, ngap, capgap;
	struct ovb_oncap *cap;
	struct ovb_gap *gap;
	/* the optional record "trace HOST KERNEL WALL CLOCK": the traced
	 * machine and, with has_clock, the wall-clock time WALL [ns since the
	 * epoch, UTC] at trace-clock time CLOCK [ns] */
	bool has_trace, has_clock;
	char *host, *kernel;  /* NULL: not known */
	uint64_t wall, clock;
	/* the record "measured RES...": bit r set when resource r was
	 * measured; has_measured false: a file without it (older), for which
	 * ovb_onoff_measured infers it (formats/onoff.md) */
	bool has_measured;
	unsigned measured;
};
/* Was resource r measured in o?  The "measured" record when present;
 * in a file without one, cpu always, net (net-rx) when some capsule has
 * a send (recv) record: an old file without transfers cannot tell an
 * idle network from one not recorded.  mem: never (no onoff has it). */
bool ovb_onoff_measured(const struct ovb_onoff *o, enum ovb_res r);
/* Writes "measured RES..." for the bits of mask (1u << r). */
void ovb_onoff_put_measured(FILE *f, unsigned mask);
/* The trace of o as usage, profile and curve blocks carry it: host,
 * kernel, the wall-clock time of the span's start and its length. */
void ovb_onoff_trace(const struct ovb_onoff *o, struct ovb_trace *t);
void ovb_onoff_put_trace(FILE *f, const char *host, const char *kernel,
	bool has_clock, uint64_t wall, uint64_t clock);
int ovb_onoff_read(struct ovb_lex *lx, struct ovb_onoff *o);
int ovb_onoff_write(FILE *f, const struct ovb_onoff *o);
void ovb_onoff_free(struct ovb_onoff *o);
/* Streaming writer (for ovb-onoff): header, then records in any order
 * between capsules but in time order within each, span last. */
void ovb_onoff_put_header(FILE *f, uint32_t ncpus);
void ovb_onoff_put_capsule(FILE *f, const char *name, const char *select);
void ovb_onoff_put_busy(FILE *f, const char *cap, const struct ovb_busy *b);
void ovb_onoff_put_xfer(FILE *f, const char *kw, const char *cap,
	const struct ovb_xfer *x);
void ovb_onoff_put_gap(FILE *f, const struct ovb_gap *g);
void ovb_onoff_put_span(FILE *f, uint64_t t0, uint64_t t1);

/* ---- formats/perfdata.c: kernel traces recorded by perf (perf.data) ----
 *
 * Reads perf.data in file mode (seekable, "PERFILE2") or pipe mode
 * (perf record -o -), decodes tracepoint payloads with libtraceevent from
 * the trace's own format descriptions, and returns events in time order
 * (FINISHED_ROUND semantics: memory holds about two rounds of events, not
 * the trace).  Refuses compressed, directory and foreign-endian traces,
 * and recordings that cannot give every CPU's switches: per-task (no -a),
 * a CPU subset (-C), tracepoints sampled (-F, -c N); formats/perfdata.md. */
enum ovb_pev_kind {
	OVB_PEV_SWITCH,  /* sched:sched_switch: prev -> next on cpu */
	OVB_PEV_SEND,    /* bytes sent by the sampled task */
	OVB_PEV_RECV,    /* bytes received by the sampled task */
	OVB_PEV_COMM,    /* task tid of process pid is now named comm */
	OVB_PEV_FORK,    /* task tid of process pid created by ptid of ppid */
	OVB_PEV_EXIT,    /* task tid of process pid exited */
	OVB_PEV_LOST,    /* n events lost on cpu, noticed at time */
	OVB_PEV_RUNTIME, /* sched:sched_stat_runtime: task next was charged
	                    n ns of CPU time, ending about at time */
	OVB_PEV_SOCK,    /* tcp:tcp_probe (a segment reached socket sk) or
	                    sock:inet_sock_set_state (sk entered sk_state),
	                    in the sampled task's or an irq's context */
	OVB_PEV_SOFTIRQ, /* irq:softirq_entry or softirq_exit on cpu */
	OVB_PEV_TIMER,   /* timer:hrtimer_start (n 0), hrtimer_expire_entry
	                    (1) or hrtimer_expire_exit (2) of hrtimer sk;
	                    timer:timer_start (3), timer_expire_entry (4)
	                    or timer_expire_exit (5) of timer_list sk */
	OVB_PEV_XMIT,    /* net:net_dev_start_xmit: skb (a packet queued, or
	                    one of the segments it was cut into) handed to
	                    device dev */
	OVB_PEV_WAKEUP,  /* sched:sched_wakeup or sched_wakeup_new: task next
	                    made runnable, on CPU n (target_cpu) */
};
/* The fields every event kind uses come first, in one 64-byte line
 * (OVB_PEV_HOT bytes): the reorder pool of formats/perfdata.c keeps that
 * part apart from the rest, which only some kinds use. */
struct ovb_pev {
	enum ovb_pev_kind kind;
	uint32_t cpu;
	uint64_t time;            /* ns, the trace's clock */
	uint64_t seq;             /* position in the file, breaks ties */
	int32_t pid, tid;         /* process and task; for samples, the task
	                             the sample was taken in */
	int32_t prev, next;       /* switch: task ids */
	bool prev_runnable;       /* switch: prev was preempted, not asleep */
	bool sample;              /* a tracepoint sample (defines the span) */
	bool irq;                 /* raised in hard/soft irq or NMI context */
	bool exec;                /* comm: set by exec */
	bool devq;                /* send: net:net_dev_queue (a packet queued
	                             to device dev), not the socket layer */
	uint64_t cgroup;          /* samples: the task's cgroup v2 id (perf
	                             record --all-cgroups), 0 if not recorded */
	uint64_t n;               /* send/recv: bytes; lost: events */
	/* the rest: fork, exit, comm, and the network's kinds */
	int32_t ppid, ptid;       /* fork: the parent */
	uint64_t sk;              /* sock, and the socket layer's send and
	                             recv: the socket's kernel address */
	int32_t sk_state;         /* sock: the new TCP state, -1 (tcp_probe) */
	int family;               /* socket layer: its address family, -1
	                             unknown */
	uint64_t skb;             /* tcp_probe: the segment's skb; send from
	                             net:net_dev_queue: the skb queued; xmit:
	                             the skb handed to the device */
	uint64_t flow, rflow;     /* tcp_probe: a hash of the socket's local
	                             then remote address, and the reverse (the
	                             flow as its peer sees it); 0 unknown */
	char comm[16];
	char dev[16];             /* devq, xmit: the device's name */
};
#define OVB_PEV_HOT 64            /* offsetof(struct ovb_pev, ppid) */
struct ovb_perf;
/* 0, or OVB_EDATA/OVB_EIO (reported, naming name). */
int ovb_perf_open(FILE *f, const char *name, struct ovb_perf **p);
/* 1: an event in *ev; 0: the end; or OVB_EDATA/OVB_EIO (reported). */
int ovb_perf_next(struct ovb_perf *p, struct ovb_pev *ev);
uint32_t ovb_perf_ncpus(const struct ovb_perf *p);
/* The header's HOSTNAME and OSRELEASE (NULL: absent), and CLOCK_DATA: the
 * wall-clock time [ns since the epoch] at a trace-clock time [ns]. */
const char *ovb_perf_host(const struct ovb_perf *p);
const char *ovb_perf_kernel(const struct ovb_perf *p);
bool ovb_perf_clock(const struct ovb_perf *p, uint64_t *wall, uint64_t *clock);
/* Was tracepoint "system:event" recorded? */
bool ovb_perf_has(const struct ovb_perf *p, const char *sysname);
/* Do the samples carry cgroup ids (perf record --all-cgroups)? */
bool ovb_perf_has_cgroups(const struct ovb_perf *p);
/* The path of cgroup v2 id from its hierarchy's root ("/a/b"), as the
 * trace's PERF_RECORD_CGROUP records give it, or NULL. */
const char *ovb_perf_cgroup_path(const struct ovb_perf *p, uint64_t id);
/* Events that arrived after later ones had been delivered. */
uint64_t ovb_perf_reordered(const struct ovb_perf *p);
/* Events lost by the kernel as perf counted them per event when recording
 * ended (LOST_SAMPLES records: the same losses as the LOST records
 * delivered as OVB_PEV_LOST, plus any that no LOST record reported). */
uint64_t ovb_perf_lost_samples(const struct ovb_perf *p);
/* FINISHED_ROUND records read so far: perf's passes over its buffers
 * (one or two when the kernel never woke it while it recorded). */
uint64_t ovb_perf_rounds(const struct ovb_perf *p);
/* Reads the rest of the records without decoding them: the samples, and
 * the events the kernel lost (as LOST_SAMPLES counts them, else the LOST
 * records).  0, or OVB_EDATA/OVB_EIO (reported). */
int ovb_perf_count(struct ovb_perf *p, uint64_t *samples, uint64_t *lost);
/* How far through the input, for progress (bytes; total 0 in pipe mode). */
void ovb_perf_progress(const struct ovb_perf *p, double *done, double *total);
void ovb_perf_close(struct ovb_perf *p);

/* ---- formats/bitbrains.c: Bitbrains VM traces (GWA-T-12 CSV, for ovb-import) ----
 *
 * One file is one VM: the traces' header line, then one sample per line of
 * 11 fields separated by ';' (spec: formats/bitbrains.md). */
struct ovb_bitbrains_opt {
	uint64_t interval;      /* I [s], >= 1: timestamps rounded to the
	                           nearest multiple (ties upwards) */
	double kb;              /* bytes in the traces' KB: 1024 or 1000 */
	bool has_from, has_to;
	uint64_t from, to;      /* keep slots T with from <= T < to [s] */
};
struct ovb_bitbrains_row {
	uint64_t t;             /* slot start T [s], a multiple of I */
	size_t order;           /* input order across files */
	bool has_cpu;           /* false: cores or capacity 0 */
	double v[OVB_NRES];     /* cpu [cpu], net and net-rx [B/s], mem [B] */
};
struct ovb_bitbrains_vm {
	size_t n, cap;
	struct ovb_bitbrains_row *row;
};
struct ovb_bitbrains_counts {
	size_t lines;           /* sample lines read */
	size_t kept, nocpu;     /* rows appended; of them, without cpu */
	size_t outside;         /* samples outside [from, to) */
};
/* Reads one trace from f (path names it in messages), appending a row per
 * sample in [from, to) to vm in input order, numbered from *order on, and
 * adding to *k.  0, or OVB_EDATA / OVB_EIO (reported). */
int ovb_bitbrains_read(FILE *f, const char *path,
	const struct ovb_bitbrains_opt *opt, struct ovb_bitbrains_vm *vm,
	size_t *order, struct ovb_bitbrains_counts *k);
/* The same on the whole text of a trace in memory (buf need not end in a
 * NUL); ovb_bitbrains_read reads f to its end, then calls it (a read
 * error is reported first). */
int ovb_bitbrains_parse(const char *buf, size_t len, const char *path,
	const struct ovb_bitbrains_opt *opt, struct ovb_bitbrains_vm *vm,
	size_t *order, struct ovb_bitbrains_counts *k);
/* false: every line takes the general path, not the fast one (the fuzz
 * target reads each input both ways and requires the same rows, counts
 * and status). */
extern bool ovb_bitbrains_fast;

/* ---- formats/series.c: time-aligned usage samples (format ovb-series) ----
 *
 * A series is the usage of one capsule and resource sampled on a grid: the
 * sample at T is the mean usage over [T, T+I) in the rate unit, T integer
 * seconds since the epoch and a multiple of I, so series with the same I
 * are aligned.  Missing samples are gaps.  Used by ovb-import (writer),
 * ovb-usage and ovb-tbucket (profiling from series) and ovb-replay. */
#define OVB_SERIES_MAXI 31622400u          /* largest I [s]: 366 days */
#define OVB_SERIES_MAXT ((uint64_t)1 << 62) /* T + I must stay below */
struct ovb_series {
	char *capsule;
	enum ovb_res res;
	uint64_t interval;      /* I [s], 1..OVB_SERIES_MAXI */
	size_t n, cap;          /* samples; n >= 1 in a read file */
	uint64_t *t;            /* sample starts [s], increasing, multiples of I */
	double *v;              /* usage over [t, t + I) [rate unit], >= 0 */
	unsigned long line;     /* of the opening record (0: not read) */
};
struct ovb_series_set {
	size_t n, cap;
	struct ovb_series *s;
};
int ovb_series_read(struct ovb_lex *lx, struct ovb_series_set *ss);
int ovb_series_write(FILE *f, const struct ovb_series_set *ss);
/* The pieces of ovb_series_write, for a writer that makes its blocks
 * itself (ovb-import): the magic and comment lines; "series CAPSULE
 * RES\ninterval I s\n" at o (room for OVB_MAXNAME + 64 bytes); "sample T
 * V\n" at o (room for OVB_SERIES_SAMPLE_MAX bytes).  Both return the end
 * of what they wrote (no NUL). */
void ovb_series_head(FILE *f);
char *ovb_series_block_text(char *o, const char *capsule, enum ovb_res res,
	uint64_t interval);
#define OVB_SERIES_SAMPLE_MAX 64
char *ovb_series_sample_text(char *o, uint64_t t, double v);
void ovb_series_free(struct ovb_series_set *ss);
/* A new empty series at the end of ss (capsule copied). */
struct ovb_series *ovb_series_add(struct ovb_series_set *ss,
	const char *capsule, enum ovb_res res, uint64_t interval);
void ovb_series_push(struct ovb_series *s, uint64_t t, double v);
/* The series of capsule and res in ss, or NULL. */
const struct ovb_series *ovb_series_find(const struct ovb_series_set *ss,
	const char *capsule, enum ovb_res res);
/* (formats/format.c) Reads the series files paths[0..n) (NULL or "-":
 * stdin) into all (empty at first, *files NULL): the samples of a (capsule, res) in several files
 * (months) are merged in time; the same slot twice, or two intervals, is an
 * error at the later file's line.  (*files)[i] (malloc'd, the strings
 * borrowed from paths) names the first file of all->s[i].  Every file is
 * read; returns the largest status. */
int ovb_series_load(char **paths, size_t n, struct ovb_series_set *all,
	const char ***files);
/* (formats/format.c) The series of ss, just read from the file path, merged into all as
 * ovb_series_load does (ss is emptied; (*files)[i] borrows path for a
 * series new to all). */
int ovb_series_merge(struct ovb_series_set *all, const char ***files,
	struct ovb_series_set *ss, const char *path);
/* (formats/format.c) --mode joint's samples: the series file o->series
 * read into ss, its window [o->from, o->to) into j (lib/joint.c); 66, 65
 * (FILE:LINE) as the reader says, 65 at a series whose interval is not
 * the others'.  The caller frees both whatever the status. */
struct ovb_cliopt_joint;
struct ovb_joint;
int ovb_joint_load(const struct ovb_cliopt_joint *o,
	struct ovb_series_set *ss, struct ovb_joint *j);

/* ---- formats/usage.c: usage distributions (format ovb-usage) ---- */

struct ovb_usage {
	size_t n, cap;
	struct ovb_dist *d;
};
int ovb_usage_read(struct ovb_lex *lx, struct ovb_usage *u);
int ovb_usage_write(FILE *f, const struct ovb_usage *u);
void ovb_usage_free(struct ovb_usage *u);

/* ---- formats/curve.c: token-bucket curves rho(sigma) (format ovb-curve) ---- */

struct ovb_curve {
	char *capsule;
	enum ovb_res res;
	double mean;            /* long-run mean rate over the gap-free span */
	double peak;            /* the least rate with the least burst */
	size_t n, cap;
	struct ovb_pt *pt;      /* breakpoints, sigma increasing */
	struct ovb_trace trace;  /* where and when (formats/usage.md) */
};
struct ovb_curves {
	size_t n, cap;
	struct ovb_curve *c;
};
int ovb_curve_read(struct ovb_lex *lx, struct ovb_curves *c);
/* Reads "KEYWORD SIGMA RHO" as the next breakpoint of pt[0..*n): sigma
 * increasing, rho non-increasing and convex; 0 or OVB_EDATA. */
int ovb_curve_point(const struct ovb_lex *lx, struct ovb_pt **pt, size_t *n,
	size_t *cap);
/* rho(sigma) of a piecewise-linear curve: linear between breakpoints,
 * the first point's rho below it, the last point's beyond it. */
double ovb_curve_at(const struct ovb_pt *pt, size_t n, double sigma);
int ovb_curve_write(FILE *f, const struct ovb_curves *c);
void ovb_curve_free(struct ovb_curves *c);

/* ---- formats/profile.c: QoS (sigma, rho, tau, U, O) per capsule and resource ---- */

struct ovb_pt { double sigma, rho; };   /* a (rate, burst) point */
struct ovb_qos {
	double sigma;        /* rate [cpu | B/s]; mem: the request [B] */
	double rho;          /* burst [cpu-s | B]; mem: 0 */
	double tau;          /* period [s]; mem: U's window [s] */
	double limit;        /* mem: the limit [B], >= the request; else 0 */
	double O;            /* overbooking tolerance, probability in [0,1) */
	struct ovb_dist U;   /* U.capsule and U.res name this block */
	size_t ncurve, capcurve;
	struct ovb_pt *curve;/* breakpoints of rho(sigma), sigma increasing */
	char *file;          /* where it was read (ovb_profile_merge), or NULL */
	unsigned long line;  /* of its "profile" record */
};
struct ovb_profiles {
	size_t n, cap;
	struct ovb_qos *q;
};
int ovb_profile_read(struct ovb_lex *lx, struct ovb_profiles *p);
int ovb_profile_write(FILE *f, const struct ovb_profiles *p);
void ovb_profile_free(struct ovb_profiles *p);
/* The QoS block of capsule and resource, or NULL. */
const struct ovb_qos *ovb_profile_find(const struct ovb_profiles *p,
	const char *capsule, enum ovb_res res);
/* The rate block (cpu, net, net-rx) whose U forecasts the earliest
 * (U.forecast, ovb-usage --horizon): a plan placed on these profiles is
 * valid until that time.  NULL when a rate block has no forecast (a
 * measurement dates nothing) or there is none; mem blocks do not count. */
const struct ovb_qos *ovb_profiles_forecast(const struct ovb_profiles *p);
/* Moves p's blocks (read from file) to the end of all, each remembering
 * its file; a (capsule, resource) already in all is an error naming both
 * places (OVB_EDATA, reported), and nothing of p is taken.  p is left
 * empty either way. */
int ovb_profile_merge(struct ovb_profiles *all, struct ovb_profiles *p,
	const char *file);

/* ---- formats/cluster.c: nodes and capacities (format ovb-cluster) ---- */

struct ovb_node {
	char *name;
	double cap[OVB_NCAP];  /* cpu [cpu], net, net-rx [B/s], mem [B];
	                          net-rx or mem 0: not given (then on no node
	                          of the cluster) */
	double pool;           /* mem-pool: reclaimable memory [B] that the
	                          limits may use beyond cap[OVB_MEM]; 0 */
	size_t nlabel;
	char **label;          /* "key=value" */
	unsigned long line;
};
struct ovb_cluster {
	size_t n, cap;
	struct ovb_node *node;
	struct ovb_names byname;
};
int ovb_cluster_read(struct ovb_lex *lx, struct ovb_cluster *c);
/* When set (ovb-fmt, the lint of hand-written files), ovb_cluster_read
 * warns of a capacity far outside real hardware, a typo read as given:
 * below 0.01 or above 10000 CPUs, a link below 1 Mbit/s or above 1
 * Tbit/s.  Off elsewhere: the tests' toy clusters of 1000 B/s are meant. */
extern bool ovb_cluster_hw_warn;
int ovb_cluster_write(FILE *f, const struct ovb_cluster *c);
void ovb_cluster_free(struct ovb_cluster *c);

/* ---- formats/apps.c: arriving applications (ovb-apps, or Sharc RSL) ---- */

enum ovb_op { OVB_OP_NEW, OVB_OP_MODIFY, OVB_OP_TERMINATE };
struct ovb_capsule {
	char *name;
	char *profile;          /* profile capsule name, or NULL: plain */
	double resv[OVB_NCAP];  /* plain reservation: cpu [cpu], net, net-rx
	                           [B/s], mem [B] (the request) */
	double limit;           /* plain mem-limit= [B]; below resv[OVB_MEM]
	                           (0: not given): the request */
	char *node;             /* pinned node, or NULL */
	double lb[OVB_NCAP];    /* lower bounds [cpu], [B/s]; 0 = none */
	double O, tau;          /* overrides; NAN = inherit */
	double epsilon;         /* Sharc trading epsilon; NAN = unset */
	unsigned long line;     /* its capsule (RSL: Capsule) record */
};
struct ovb_trust { char *app; double v; };
struct ovb_app {
	char *name;
	enum ovb_op op;
	double O, tau;          /* defaults for the capsules; NAN = unset */
	double aggregate;       /* aggregate cpu reservation [cpu]; NAN */
	bool trade;             /* resource trading permitted */
	char *spread;           /* label key: capsules on distinct values of
	                           it; NULL: distinct nodes only */
	size_t ncap, capcap, ntrust, captrust;
	struct ovb_capsule *cap;
	struct ovb_trust *trust;/* this application's trust of others */
	unsigned long line;
};
struct ovb_apps {
	size_t n, cap;
	struct ovb_app *app;
};
/* Reads ovb-apps, or the Sharc RSL when the first record is "Application". */
int ovb_apps_read(struct ovb_lex *lx, struct ovb_apps *a);
int ovb_apps_write(FILE *f, const struct ovb_apps *a);
void ovb_apps_free(struct ovb_apps *a);

/* ---- formats/plan.c: placement plans (format ovb-plan) ---- */

struct ovb_placed {
	char *app, *capsule, *node;
	char *profile;                  /* NULL: plain reservation */
	bool has_qos[OVB_NCAP];
	double sigma[OVB_NCAP], rho[OVB_NCAP], tau[OVB_NCAP], O[OVB_NCAP];
	double limit;                   /* mem's qos: the limit [B]; its
	                                   sigma is the request, rho 0, tau
	                                   the window */
	bool has_cpu_resv, has_tbucket;
	double x, y, weight;            /* CPU reservation x cpu-s every y s */
	double tb_sigma, tb_rho;        /* net token bucket: B/s, B */
	unsigned long line;
	unsigned unmeasured;            /* "unmeasured APP CAPSULE RES": bit
	                                   1u << RES, the profile did not
	                                   measure RES and ovb-place read it
	                                   as 0 (--unmeasured=zero) */
	unsigned long unmeasured_line;  /* of the first such record */
};
struct ovb_noderisk {
	char *node;
	enum ovb_res res;
	double risk, omin, load, capacity;
	double exposure;        /* mem: E[(Y - C)+] [B], the OOM exposure */
	unsigned long line;
};
struct ovb_reject { char *app, *reason; };
struct ovb_plan {
	uint64_t grid;          /* grid POINTS: a node's grid is at least C /
	                           POINTS wide; 0: the bin widths alone */
	bool aggregate;         /* "mode aggregate": Eq. 1's terms are the
	                           lower bounds alone (formats/plan.md) */
	bool nsigma;            /* "mode nsigma N": Eq. 1's terms the lower
	                           bounds, Eq. 3 replaced by sum(mean) + N
	                           sqrt(sum(var)) <= C (lib/nsigma.c) */
	double nsigma_n;        /* its N */
	bool joint;             /* "mode joint": the node test on the
	                           members' aligned samples (lib/joint.c) */
	bool joint_overlap;     /* "mode joint overlap": over the span
	                           where every member was seen */
	uint64_t valid_until;   /* "valid-until T": the plan's promise is
	                           stated until T [s since the epoch]; 0:
	                           not stated */
	unsigned enforce;       /* "enforce T[,T...] HZ MTU DLCAP": bit 1u <<
	                           ovb_target, placed for those targets
	                           (ovb-place --enforce) with these kernel
	                           limits; 0: for none */
	uint64_t enf_hz, enf_mtu;
	double enf_dlcap;
	bool mem_promise;       /* "mem-rule promise [O]": a node's memory
	                           rule is Eq. 3 alone (ovb_need_promise) */
	double mem_O;           /* its O_mem; NAN: the capsules' own O */
	size_t n, cap, nrisk, caprisk, nrej, caprej;
	struct ovb_placed *p;
	struct ovb_noderisk *risk;
	struct ovb_reject *rej;
};
int ovb_plan_read(struct ovb_lex *lx, struct ovb_plan *p);
int ovb_plan_write(FILE *f, const struct ovb_plan *p);
void ovb_plan_free(struct ovb_plan *p);

/* ---- formats/fit.c: what-if answers of ovb-fit (format ovb-fit) ---- */

enum ovb_fit_question { OVB_FIT_MORE, OVB_FIT_NODES };
/* exact: the count itself; at-least: ovb-fit stopped at its --max or
 * --budget; at-most: nodes that suffice, fewer not ruled out within the
 * --budget; never: no number of nodes of the shape holds the apps
 * (COUNT 0) */
enum ovb_fit_bound { OVB_FIT_EXACT, OVB_FIT_AT_LEAST, OVB_FIT_AT_MOST,
	OVB_FIT_NEVER };
struct ovb_fitwhere {
	char *node;
	uint64_t capsules;      /* the new copies' capsules on node */
};
struct ovb_fitpoint {
	double O;               /* tolerance, [0, 1) */
	uint64_t count;         /* copies (more) or nodes (nodes) */
	enum ovb_fit_bound bound;
	size_t nwhere, capwhere;
	struct ovb_fitwhere *where;     /* more only, in cluster order */
	unsigned long line;
};
struct ovb_fit {
	enum ovb_fit_question q;
	char *name;             /* more: the application; nodes: the shape */
	double cap[OVB_NCAP];   /* nodes: the shape's capacities (cpu, B/s) */
	char *search;           /* the policy of ovb-place, or "exhaustive" */
	size_t n, cap_p;
	struct ovb_fitpoint *p; /* in increasing O, n >= 1 in a read file */
};
int ovb_fit_read(struct ovb_lex *lx, struct ovb_fit *fit);
int ovb_fit_write(FILE *f, const struct ovb_fit *fit);
void ovb_fit_free(struct ovb_fit *fit);
const char *ovb_fit_bound_name(enum ovb_fit_bound b);

/* ---- formats/reserves.c: Cluster Reserves matrices (format ovb-reserves) ---- */

struct ovb_round {
	double *u, *r, *R;      /* nnode x nclass, row-major, or NULL */
	unsigned long line;
};
struct ovb_reserves {
	size_t nclass, capclass, nnode, capnode, nround, capround;
	char **class;
	double *share;          /* D[j], percent of the cluster */
	char **node;
	struct ovb_round *round;
	struct ovb_names classes, nodes;
};
int ovb_reserves_read(struct ovb_lex *lx, struct ovb_reserves *r);
int ovb_reserves_write(FILE *f, const struct ovb_reserves *r);
void ovb_reserves_free(struct ovb_reserves *r);

/* ---- formats/gain.c: a capacity experiment's runs (format ovb-gain) ---- */

struct ovb_run {
	uint64_t nodes;         /* cluster size, >= 1 */
	double O;               /* overbooking tolerance, [0, 1) */
	uint64_t placed;        /* applications placed */
	unsigned long line;
};
struct ovb_gain {
	size_t n, cap;
	struct ovb_run *run;    /* in file order; n >= 1 in a read file */
};
/* Reads ovb-gain, or the older header-only form ("nodes O placed"). */
int ovb_gain_read(struct ovb_lex *lx, struct ovb_gain *g);
int ovb_gain_write(FILE *f, const struct ovb_gain *g);
void ovb_gain_free(struct ovb_gain *g);
/* Is the record the older form's header "nodes O placed"? */
bool ovb_gain_header(const struct ovb_lex *lx);

/* ---- formats/trade.c: a trading replay (format ovb-trade) ---- */

struct ovb_trade_node { char *name; double cap; };
struct ovb_trade_capsule {
	char *name, *app, *node;
	double R, lb, eps;
};
struct ovb_trade_app { char *name; double R; bool trade; };
struct ovb_trade_row {          /* "c" record */
	size_t cap;             /* index in capsule */
	double A, used, U, next;
	int cls;                /* enum ovb_trade_class (lib/trade.c) */
};
struct ovb_trade_sum {          /* "n" (node: used, next) or "a" (app) */
	size_t idx;
	double used, next, slack;
};
struct ovb_trade_at {
	uint64_t t;
	size_t nrow, caprow, nnode, capnode, napp, capapp;
	struct ovb_trade_row *row;
	struct ovb_trade_sum *node, *app;
};
struct ovb_trade {
	char *res;              /* cpu | net */
	uint64_t interval;      /* I [s] */
	double alpha, delta;
	char *enforce, *n1, *reclaim;
	size_t nnode, capnode, ncaps, capcaps, napp, capapp, nat, capat;
	struct ovb_trade_node *node;
	struct ovb_trade_capsule *capsule;
	struct ovb_trade_app *app;
	struct ovb_trade_at *at;
	struct ovb_names nodes, capsules, apps;
};
int ovb_trade_read(struct ovb_lex *lx, struct ovb_trade *t);
int ovb_trade_write(FILE *f, const struct ovb_trade *t);
/* ovb_trade_write in pieces, for a writer that streams its intervals: the
 * magic, header and declarations (intervals: the comment that introduces
 * the interval records, written when there are some), then each interval
 * in turn.  0 or OVB_EIO. */
int ovb_trade_write_head(FILE *f, const struct ovb_trade *t, bool intervals);
int ovb_trade_write_at(FILE *f, const struct ovb_trade *t,
	const struct ovb_trade_at *at);
void ovb_trade_free(struct ovb_trade *t);
/* ---- formats/rt.c: VSched's real-time reservations (format ovb-rt) ---- */

struct ovb_rtnode {
	char *name;
	uint64_t cpus;          /* >= 1 */
	double cap;             /* per CPU: sum slice/period <= cap, (0, 1] */
	unsigned long line;
};
struct ovb_rttask {
	size_t node;            /* index in node */
	char *name;
	double period, slice;   /* [s], 0 < slice <= period */
	unsigned long line;
};
struct ovb_rtrate {             /* the application's rate at (period, U) */
	double period, U, r;    /* [s], (0, 1], fraction of R_max */
	unsigned long line;
};
struct ovb_rt {
	size_t nnode, capnode, ntask, captask, nrate, caprate;
	struct ovb_rtnode *node;
	struct ovb_rttask *task;
	struct ovb_rtrate *rate;
	struct ovb_names byname;
};
int ovb_rt_read(struct ovb_lex *lx, struct ovb_rt *rt);
int ovb_rt_write(FILE *f, const struct ovb_rt *rt);
void ovb_rt_free(struct ovb_rt *rt);

/* ---- formats/bids.c: a market's bids, caps and placement (format ovb-bids) ----
 * Its resources are enum ovb_mres (above). */
struct ovb_bid {
	double bid;             /* credit, > 0 */
	double amax;            /* the cap a_max, > 0, in the unit */
	unsigned long line;     /* 0: no bid for this resource */
};
struct ovb_vm {
	char *name;
	char *node;             /* NULL: not placed (a new VM) */
	unsigned long line;
	struct ovb_bid bid[OVB_NMRES];
};
struct ovb_bids {
	size_t n, cap;
	struct ovb_vm *vm;      /* file order; n >= 1 in a read file */
	struct ovb_names byname;
	double reserve[OVB_NMRES];      /* credit per unit, >= 0 */
	bool has_reserve[OVB_NMRES];
	bool has_mem;           /* every vm bids for mem */
};
int ovb_bids_read(struct ovb_lex *lx, struct ovb_bids *b);
int ovb_bids_write(FILE *f, const struct ovb_bids *b);
void ovb_bids_free(struct ovb_bids *b);

/* ---- formats/migrations.c: a migration plan (format ovb-migrations) ---- */

struct ovb_step {
	char *vm, *from, *to;   /* from NULL: a deployment of a new VM */
	unsigned long line;
};
struct ovb_migrations {
	bool has_err;           /* the error records are given (a market's
	                           plan; ovb-place's moves have none) */
	double err[3];          /* the max error before, after, a lower bound */
	size_t n, cap;
	struct ovb_step *step;  /* in order */
};
int ovb_migrations_read(struct ovb_lex *lx, struct ovb_migrations *m);
int ovb_migrations_write(FILE *f, const struct ovb_migrations *m);
void ovb_migrations_free(struct ovb_migrations *m);

/* ---- formats/backtest.c: a backtest of placement methods (format ovb-backtest) ----
 *
 * Per configuration (method, node size, tolerance, training window, the
 * replayed period, one-shot or rolling): per period the plan (VM -> node),
 * each node's replay (slots, overflowing slots, held, broken or missing;
 * cpu and memory) and the VMs' OOM kills, then a summary.
 * formats/backtest.md. */
enum ovb_bt_status { OVB_BT_HELD, OVB_BT_BROKEN, OVB_BT_MISSING,
	OVB_BT_NONE };              /* none: memory not modeled (MEM 0) */
const char *ovb_bt_status_name(enum ovb_bt_status s);
/* The PLAN field of config c (rolling, rolling:M, compact:M,
 * consolidate:C, afresh, one-shot), in buf of 32 bytes; returns buf. */
struct ovb_bt_config;
char *ovb_bt_plan_name(const struct ovb_bt_config *c, char buf[32]);
/* Is METHOD a yardstick placed on the replayed period's own samples (the
 * hindsight, the clairvoyant, clairvoyant-pct), not a forecast: it
 * dominates no method. */
bool ovb_bt_yardstick(const char *method);
/* A node's promise: over/slots <= O exactly (slots > 0): ovb_frac_le. */
bool ovb_bt_held(uint64_t over, uint64_t slots, double O);
/* The gap record's CLOSED: the share of the nodes a VM between pct's and
 * the hindsight's that a method using nodes for placed VMs closes,
 * (pct/pp - nodes/placed) / (pct/pp - hind/hp), the nodes per VM placed
 * (a method that places fewer VMs is not credited with the nodes they
 * would need), from exact integer products, one rounding; pct/pp >
 * hind/hp, placed > 0.  pp 0 (a record of before the placed counts):
 * (pct - nodes) / (pct - hind), pct > hind. */
double ovb_bt_gap(uint64_t pct, uint64_t pp, uint64_t nodes, uint64_t placed,
	uint64_t hind, uint64_t hp);
/* Is there a gap to close: pct/pp > hind/hp (pp 0: pct > hind)? */
bool ovb_bt_has_gap(uint64_t pct, uint64_t pp, uint64_t hind, uint64_t hp);
struct ovb_bt_config {
	char *id, *method;
	double cpus, O;         /* node size [cpu]; tolerance */
	uint64_t train, replay; /* training window, replayed period [s] */
	bool rolling;           /* re-planned every period; else one-shot */
	bool afresh;            /* rolling, from scratch: "afresh" */
	bool repair;            /* rolling from the last plan with at most M
	                           moves a period: "rolling:M" */
	bool compact;           /* rolling from the last plan, moves emptying
	                           nodes: with repair, those the repair
	                           leaves of M, "compact:M"; else, the
	                           repair unbounded, at most C of them,
	                           "consolidate:C" */
	uint64_t max_moves;     /* M; consolidate:C: C */
	uint64_t valid_until;   /* one-shot: "valid ID T", the trend forecast
	                           keeps every node's promise until T [s];
	                           0: not stated */
	/* one-shot: "heldout ID MID END", the method's plan made on the
	 * window's samples before MID, replayed on [MID, END) (its hplace
	 * and hnode records); passed: some node measured, none broken; the
	 * validity is then at most END + (END - MID), else END */
	bool has_test, test_passed;
	uint64_t test_mid, test_end;
	uint64_t periods;
	double mem, pool;       /* node memory and its reclaimable pool [B];
	                           mem 0: memory not modeled (pool 0) */
	bool promise;           /* the field "promise": memory placed by the
	                           promise rule (ovb-place --mem-rule
	                           promise), not the pool rule */
	unsigned long line;
};
struct ovb_bt_period {
	size_t config;          /* index */
	uint64_t k;             /* 1.. */
	uint64_t start, end;    /* replayed [start, end) [s since the epoch] */
	uint64_t placed, rejected, nodes, moved;
	/* the record "bound": no placement of the period's VMs uses fewer
	 * nodes than bound = max(1, bcpu, bmem) with every node keeping its
	 * cpu promise (bcpu, in hindsight), nor fewer than bmem whether or
	 * not (their memory limits within MEM + POOL; 0: not a bound); all 0
	 * when nothing is placed; has_bound: the record was given */
	bool has_bound;
	uint64_t bound, bcpu, bmem;
	unsigned long line;
};
struct ovb_bt_place { size_t period; char *vm, *node; };
struct ovb_bt_node {
	size_t period;
	char *node;
	uint64_t vms, slots, over;
	enum ovb_bt_status status;
	uint64_t mslots, mover;         /* memory: slots, sum above MEM */
	enum ovb_bt_status mstatus;     /* OVB_BT_NONE iff the config's mem 0 */
	uint64_t full;                  /* slots where every VM has a cpu
					 * sample (0: the old "missing") */
};
/* A VM whose memory use exceeded its limit (an OOM kill) in KILLS slots of
 * a period; limit = tpeak (1 + margin); unseen: rpeak > tpeak, a peak never
 * seen in the training window. */
struct ovb_bt_oom {
	size_t period;
	char *vm, *node;
	uint64_t kills;
	double limit, tpeak, rpeak;     /* [B] */
	bool unseen;
};
struct ovb_bt_summary {
	size_t config;
	uint64_t placed, nodes, held, broken, missing, moved;
	double density, vs_peak, worst;
	uint64_t mheld, mbroken, mmissing, mover, oom, kills;
	double mworst;
	uint64_t partial;               /* node records with full 0 */
	/* the record "gap ID CLOSED PCT HINDSIGHT": the share of the gap
	 * between pct's nodes and the hindsight's (same CPUS, O, windows,
	 * plan and memory) that this method closes, (PCT - NODES) / (PCT -
	 * HINDSIGHT), PCT > HINDSIGHT; has_gap false: not given */
	bool has_gap;
	uint64_t gap_pct, gap_hind;
	uint64_t gap_pct_placed, gap_hind_placed;      /* 0: not given */
	double gap;
};
struct ovb_backtest {
	/* a file of before the honest counts (node records without FULL,
	 * summaries without PARTIAL): SLOTS counts the slots in which every
	 * VM has a sample, full = slots, partial = missing; written back so */
	bool every;
	size_t nconf, capconf, nper, capper, npl, cappl, nnode, capnode,
		nsum, capsum, noom, capoom, ntpl, captpl, ntnode, captnode;
	struct ovb_bt_config *conf;
	struct ovb_bt_period *per;
	struct ovb_bt_place *pl;        /* grouped by period, in order */
	struct ovb_bt_node *node;       /* likewise */
	struct ovb_bt_summary *sum;     /* one per configuration */
	struct ovb_bt_oom *oom;         /* grouped by period, in order */
	/* one-shot: the held-out test's plan and replay (hplace, hnode),
	 * grouped by configuration: .period is the configuration's index;
	 * an hnode's memory fields are 0 and its mstatus OVB_BT_NONE */
	struct ovb_bt_place *tpl;
	struct ovb_bt_node *tnode;
};
/* A one-shot plan's held-out test on its replayed nodes n[0..k): passed
 * when some node was measured (not missing) and none broke. */
bool ovb_bt_test_passed(const struct ovb_bt_node *n, size_t k);
/* The latest validity a held-out test of [mid, end) allows: end + (end -
 * mid) when it passed, end when not. */
uint64_t ovb_bt_test_cap(uint64_t mid, uint64_t end, bool passed);
int ovb_backtest_read(struct ovb_lex *lx, struct ovb_backtest *b);
int ovb_backtest_write(FILE *f, const struct ovb_backtest *b);
/* Appends from's records to to's (from's configurations after to's), from
 * left empty. */
void ovb_backtest_cat(struct ovb_backtest *to, struct ovb_backtest *from);
void ovb_backtest_free(struct ovb_backtest *b);

/* ---- lib/measure.c, lib/tbucket.c: U and rho(sigma) from an ovb-onoff trace
 * or an ovb-series ---- */

/* The usage of one capsule and resource in each measurement interval
 * [t0 + kI, t0 + (k+1)I) that lies wholly in the span and overlaps no gap,
 * in time order, in the rate unit: the CPU-ns of the busy periods in it, or
 * the bytes sent (net) or received (net-rx) at times in it, over I.  Each
 * v[k] is the double nearest the exact ratio when its reduced numerator and
 * denominator are below 2^53 (else within an ulp of it); mean is that of
 * the exact values, rounded once at the end. */
struct ovb_samples {
	size_t n;            /* intervals kept */
	size_t ngap;         /* complete intervals left out: they overlap a gap */
	double *v;
	uint64_t *t;         /* the start of each kept interval, v's order
	                        until v is sorted: trace ns (ovb_measure) or
	                        s since the epoch (ovb_series_measure) */
	double mean, peak;   /* [rate unit]; 0 when n == 0 */
};
void ovb_measure(const struct ovb_onoff *o, const struct ovb_oncap *c,
	enum ovb_res res, uint64_t interval_ns, struct ovb_samples *s);
void ovb_samples_free(struct ovb_samples *s);
/* A level's window peaks (block maxima, for mem): for every window
 * [kL, (k+1)L) (L = len, a multiple of s->interval) that has a sample,
 * the largest of its samples, in time order (so the largest peak is the
 * largest sample); ngap counts those windows that miss some of their
 * L / s->interval samples; mean is the exact mean of the peaks. */
void ovb_series_peaks(const struct ovb_series *s, uint64_t len,
	struct ovb_samples *out);
/* The default bin width: 0.01 cpu; for net and net-rx the least 1, 2 or 5
 * times a power of ten that is at least peak/100 (1 B/s when peak is 0). */
double ovb_auto_width(enum ovb_res r, double peak);
/* Fills d's width, histogram (bins by ovb_hist_bin), mean and percentiles
 * pct[0..npct) (nearest rank, exact values) from s, sorting s->v; leaves
 * d's capsule, res and interval alone.  false, with d unchanged, when
 * s->n is 0 or the histogram would need more than OVB_MAXBINS bins. */
bool ovb_dist_fill(struct ovb_dist *d, struct ovb_samples *s, double width,
	const double *pct, int npct);

/* The exact mean of v[0..n) (n >= 1) rounded once to the nearest double. */
double ovb_exact_mean(const double *v, size_t n);
/* The sign (-1, 0, 1) of the exact v[0] + ... + v[n-1] - c. */
int ovb_sum_cmp(const double *v, size_t n, double c);
/* U's samples from a series: the usage in every measurement interval
 * [kL, (k+1)L) (L a multiple of I, in s) whose L/I samples are all
 * present, in time order; each value and the mean are exact means rounded
 * once.  ngap counts the intervals between the first and the last sample
 * left out for a missing sample. */
void ovb_series_measure(const struct ovb_series *s, uint64_t len,
	struct ovb_samples *out);

/* The exact token-bucket curve of one capsule and resource: rho(sigma) is
 * the max over intervals [s, t] within one gap-free part of the span of
 * A(t) - A(s) - sigma (t - s), A the cumulative usage (cpu: continuous,
 * slope CPUS in busy periods; net, net-rx: steps, so an instant's bytes
 * count in every interval containing it and rho is never below the most
 * bytes of one instant).  Fills cv: capsule, res, mean (usage over the
 * gap-free time), peak (the least sigma beyond which rho stays constant)
 * and the breakpoints over [mean, peak], computed as exact rationals and
 * rounded to doubles (a breakpoint is dropped only when rounding would make
 * the doubles non-convex; the chord is then an upper bound).  0, or
 * OVB_EDATA with *why set, not reported: no gap-free time, or a trace too
 * long or too large for exact 128-bit arithmetic. */
int ovb_tbucket(const struct ovb_onoff *o, const struct ovb_oncap *c,
	enum ovb_res res, struct ovb_curve *cv, const char **why);
/* The least measurement interval I [s] that a capacity cap can take by
 * the curve pt[0..n) (sigma increasing, rho non-increasing): over any
 * window of length I the usage is at most sigma + rho(sigma)/I for every
 * point, so at I >= min over points with sigma < cap of rho/(cap - sigma)
 * no interval's usage exceeds cap (rho/(cap - sigma) is monotone between
 * breakpoints, so the minimum is at one).  0 when a point with rho 0 lies
 * below cap; INFINITY when no point does (the mean is at least cap).
 * *at is the point's sigma. */
double ovb_tb_interval_within(const struct ovb_pt *pt, size_t n, double cap,
	double *at);
/* The exact token-bucket curve of a series, as ovb_tbucket: A(t) is
 * continuous and rises with slope V over each sample's [T, T+I); missing
 * samples split it like gaps.  Exact in 128-bit integers when the values
 * need at most about 120 - 2 log2(n) bits relative to the largest (else
 * they are first rounded up to such a grid: an upper bound).  0, or
 * OVB_EDATA with *why set, not reported. */
int ovb_series_tbucket(const struct ovb_series *s, struct ovb_curve *cv,
	const char **why);

/* ---- lib/drift.c: drift-aware usage from a series (issue 14) ----
 *
 * A capsule's samples (t[i], v[i]) over a training window [a, b),
 * forecast to a horizon H >= b: each sample counts with an integer
 * recency weight, is scaled by a linear trend of its daily quantiles from
 * its time to H, and by an inflation factor k calibrated on held-out
 * parts of the training data (the caller's test: ovb_calib_least_k). */
struct ovb_drift {
	double half_life;    /* [s]; 0: every sample weighs the same */
	double day;          /* the trend's blocks [s] (86400) */
	double trend_q;      /* the quantile of each block fitted, 0..1 */
	double growth_max;   /* a sample's trend factor is in [1, growth_max] */
};
/* The weight scale: the newest sample weighs this much. */
#define OVB_RECENCY_SCALE 1024
/* round(OVB_RECENCY_SCALE 2^-(age / half_life)), at least 1, age =
 * end - (t + interval) (at least 0); OVB_RECENCY_SCALE when half_life
 * is 0. */
uint64_t ovb_recency_weight(uint64_t t, uint64_t interval, uint64_t end,
	double half_life);
/* The trend line L(x) = c0 + c1 (x - a) fitted by least squares, each
 * block weighted 2^-((b - mid) / half_life) (1 when half_life is 0), to
 * the points (mid, q) of the blocks [a + j day, a + (j+1) day) inside
 * [a, b) that hold at least half their day / interval samples: mid the
 * block's middle, q the nearest-rank trend_q quantile of its samples.
 * ok false (no trend) with fewer than 2 blocks. */
struct ovb_trend {
	bool ok;
	uint64_t a;
	double c0, c1;       /* [rate unit], [rate unit / s] */
	size_t nblocks;
};
void ovb_trend_fit(const uint64_t *t, const double *v, size_t n,
	uint64_t interval, uint64_t a, uint64_t b, const struct ovb_drift *p,
	struct ovb_trend *tr);
/* The factor of a sample at t (its interval's middle t + interval/2) to
 * the horizon: L(horizon) / L(t + interval/2), within [1, growth_max];
 * 1 without a trend or when L(horizon) <= 0, growth_max when only
 * L(t + interval/2) <= 0. */
double ovb_trend_factor(const struct ovb_trend *tr, uint64_t t,
	uint64_t interval, uint64_t horizon, double growth_max);
/* The forecast samples of [a, b) at horizon: x[i] = v[i] times the trend
 * factor (fitted on [a, b)), w[i] the recency weight; both arrays hold n
 * (the samples with t in [a, b), time order) and are allocated here
 * (freed by the caller); returns n. */
size_t ovb_drift_series(const uint64_t *t, const double *v, size_t n,
	uint64_t interval, uint64_t a, uint64_t b, uint64_t horizon,
	const struct ovb_drift *p, double **x, uint64_t **w);
/* d's histogram (width w) of k x[i] with counts w[i] (h.n their sum),
 * its weighted mean and nearest-rank percentiles pct[0..npct) (the
 * least value whose weight at or below it is at least p% of h.n); d's
 * capsule, res and interval are left alone.  false, d unchanged, when
 * n is 0 or more than OVB_MAXBINS bins are needed. */
bool ovb_drift_dist(struct ovb_dist *d, const double *x, const uint64_t *w,
	size_t n, double k, double width, const double *pct, int npct);
/* The same, given order[0..n): the indices of x in ascending order of
 * x[i] (ovb_drift_order; NULL: sorted here), k > 0: no sort, the same result (a
 * calibration tries many k on the same samples). */
bool ovb_drift_dist_ordered(struct ovb_dist *d, const double *x,
	const uint64_t *w, const size_t *order, size_t n, double k,
	double width, const double *pct, int npct);
/* The indices of x[0..n) in ascending order of x[i] (n + 1 allocated;
 * the caller frees). */
size_t *ovb_drift_order(const double *x, size_t n);
/* The least k = kmin + i step (i = 0, 1, ...; k <= kmax + step/2) for
 * which holds(k, arg) is true; kmax when none is. */
double ovb_calib_least_k(double kmin, double kmax, double step,
	bool (*holds)(double k, void *arg), void *arg);

/* ---- lib/cliopt.c: options several tools share, as argp children ----
 *
 * A tool lists the child's argp among its children (with the group
 * header it wants) and reads the values after argp_parse. */
/* --grid POINTS (ovb-place, ovb-fit): 0..10^8, default 1000. */
extern const struct argp ovb_cliopt_grid_argp;
extern uint64_t ovb_cliopt_grid;
/* The drift-aware U of series (ovb-usage): --half-life, --horizon,
 * --trend-quantile, --growth-max, --calibrate, --holdout (lib/drift.c). */
struct ovb_cliopt_drift {
	bool on;                  /* any of --half-life, --horizon, --calibrate */
	struct ovb_drift d;       /* half-life 0, trend quantile 0.9, growth 4 */
	bool horizon_given;
	uint64_t horizon;         /* [s] */
	bool calibrate;
	double cal_O;             /* --calibrate O */
	uint64_t holdout;         /* [s], default 7 days */
};
extern const struct argp ovb_cliopt_drift_argp;
extern struct ovb_cliopt_drift ovb_cliopt_drift;
/* --series FILE, --from T, --to T (ovb-place, ovb-check --mode joint):
 * the window [from, to), by default [0, 2^62); from < to. */
struct ovb_cliopt_joint {
	const char *series;       /* NULL: not given */
	uint64_t from, to;
	bool overlap, slots_given;  /* --slots overlap; --slots given */
};
extern const struct argp ovb_cliopt_joint_argp;
extern struct ovb_cliopt_joint ovb_cliopt_joint;
/* --mem-rule pool|promise, --mem-tolerance O (ovb-place, ovb-check):
 * O_mem in [0, 1), only with promise; O NAN when not given. */
struct ovb_cliopt_mem {
	bool given;               /* --mem-rule given */
	bool promise;             /* --mem-rule promise */
	double O;                 /* --mem-tolerance; NAN: not given */
};
extern const struct argp ovb_cliopt_mem_argp;
extern struct ovb_cliopt_mem ovb_cliopt_mem;

/* ---- lib/pmf.c: a node's aggregate usage Y and Pr(Y > C) ----
 *
 * A distribution on a grid of width g: p[k] = Pr(value = k g).  A usage
 * histogram is put on a grid by moving each bin's value (its upper edge
 * k w) up to the least grid point at or above it, never down, so every
 * probability Pr(Y > c) computed here is at least the one of the bins.
 * Sums of independent usages are convolutions (the z-transform product of
 * the paper's footnote 1). */
struct ovb_pmf {
	double g;            /* grid width [rate unit] */
	size_t n;            /* p[0..n) */
	double *p;
};
/* Y = 0 with probability 1. */
void ovb_pmf_zero(struct ovb_pmf *y, double g);
/* The least grid index k with k g >= x (x >= 0). */
size_t ovb_grid_up(double x, double g);
/* Grid indices at or beyond OVB_GRID_FAR (2^52) are not computed: both
 * functions return OVB_GRID_FAR for them.  No pmf holds that many points,
 * so "above grid_down(c, g)" stays exact; a U whose top index passes
 * OVB_MAXGRID cannot be put on the grid at all (lib/node.c refuses it). */
#define OVB_GRID_FAR ((size_t)1 << 52)
#define OVB_MAXGRID ((size_t)10000000)
/* The largest grid index k with k g <= c (c >= 0): the values above c are
 * exactly the indices above it.  Every overflow test goes through it. */
size_t ovb_grid_down(double c, double g);
void ovb_pmf_from_hist(struct ovb_pmf *u, const struct ovb_hist *h, double g);
/* y = y + u (independent), in place; y and u on the same grid. */
void ovb_pmf_add(struct ovb_pmf *y, const struct ovb_pmf *u);
/* The same sum into r, room for y->n + u->n - 1 doubles (not y's own),
 * which becomes y->p: returns y's old array, for the caller to reuse (a
 * convolution without malloc). */
double *ovb_pmf_add_into(struct ovb_pmf *y, const struct ovb_pmf *u, double *r);
/* Lumps all mass above c into the first grid point above c: keeps every
 * Pr(Y > x) with x <= c, and with it every Pr(Y + U > c), U >= 0. */
void ovb_pmf_clip(struct ovb_pmf *y, double c);
/* Pr(Y > c). */
double ovb_pmf_tail(const struct ovb_pmf *y, double c);
/* Pr(Y + U > c) = sum over u of Pr(U = u) Pr(Y > c - u), without forming
 * Y + U; ytail[k] = Pr(Y > k g) as made by ovb_pmf_tails. */
double ovb_pmf_tail_with(const struct ovb_pmf *y, const double *ytail,
	const struct ovb_pmf *u, double c);
/* ytail[k] = Pr(Y > k g), k in [0, n); ytail must hold y->n doubles. */
void ovb_pmf_tails(const struct ovb_pmf *y, double *ytail);
void ovb_pmf_free(struct ovb_pmf *y);

/* ---- lib/xpmf.c: Y as exact integer counts (GMP), Pr(Y > c) as a rational ----
 *
 * The grid and moves of pmf.c (each bin's upper edge k w up to index
 * ovb_grid_up(k w, g); "above c" = the indices above the largest k with
 * k g <= c, decided in doubles), with the histograms' integer counts in
 * place of probabilities: c[k] counts the combinations of the inputs'
 * measurement intervals whose values add up to k g, out of total = the
 * product of the inputs' interval counts, so sum c[k] == total and
 * Pr(Y > c) is an exact rational.  Needs -lgmp. */
#include <gmp.h>
struct ovb_xpmf {
	double g;            /* grid width [rate unit] */
	size_t n;            /* c[0..n); c[n-1] > 0 unless n == 1 */
	mpz_t *c;
	mpz_t total;
};
/* Y = 0: one combination. */
void ovb_xpmf_zero(struct ovb_xpmf *y, double g);
/* A plain reservation: one combination at ovb_grid_up(x, g). */
void ovb_xpmf_point(struct ovb_xpmf *u, double x, double g);
/* The histogram's counts at the indices ovb_pmf_from_hist uses. */
void ovb_xpmf_from_hist(struct ovb_xpmf *u, const struct ovb_hist *h,
	double g);
/* y = y + u (independent), in place; same grid. */
void ovb_xpmf_add(struct ovb_xpmf *y, const struct ovb_xpmf *u);
/* Lumps the counts above c into the first grid point above c (as
 * ovb_pmf_clip): every Pr(Y + U > c), U >= 0, stays exact. */
void ovb_xpmf_clip(struct ovb_xpmf *y, double c);
/* pr = Pr(Y > c), canonical; 1 when c < 0.  pr must be initialised. */
void ovb_xpmf_tail(mpq_t pr, const struct ovb_xpmf *y, double c);
void ovb_xpmf_free(struct ovb_xpmf *y);
/* The sign of q - d, d taken as the exact rational value of the double
 * (mpq_set_d): ovb_mpq_cmp_d(pr, O) <= 0 is Eq. 3's "Pr(Y > C) <= O". */
int ovb_mpq_cmp_d(const mpq_t q, double d);
/* over/slots <= O exactly, O the exact value of its double (a node's
 * promise: ovb-backtest, the joint mode); slots 0: true. */
bool ovb_frac_le(uint64_t over, uint64_t slots, double O);
/* q in decimal, rounded half away from zero to `digits` significant digits,
 * trailing zeros dropped, in %g's plain or exponent form; *exact (may be
 * NULL) tells whether no rounding was needed.  Returns malloc'd text. */
char *ovb_mpq_decimal(const mpq_t q, int digits, bool *exact);
/* "NUM/DEN" (or "NUM"), malloc'd. */
char *ovb_mpq_str(const mpq_t q);
/* Y as a histogram of width g (bin k = value k g, as ovb-usage reads it):
 * the counts divided by their gcd when the total then fits in uint64_t
 * (*exact true), else rounded up to a total of 10^18 with every
 * Pr(Y >= k g) rounded up (*exact false: conservative, never a smaller
 * Pr(Y > c)).  Sets width, n, nbins, count (malloc'd); -1 when Y has more
 * than OVB_MAXBINS grid points, else 0. */
int ovb_xpmf_hist(const struct ovb_xpmf *y, struct ovb_hist *h, bool *exact);

/* ---- lib/profidx.c: profiles by (capsule, resource), in constant time ----
 * ovb_profile_find's answer through a table made at the first question;
 * the profiles outlive the index. */
struct ovb_profidx {
	const struct ovb_profiles *p;
	bool made;
	struct ovb_names by[OVB_NCAP];  /* by resource: capsule -> index */
};
void ovb_profidx_init(struct ovb_profidx *x, const struct ovb_profiles *p);
const struct ovb_qos *ovb_profidx_find(struct ovb_profidx *x,
	const char *capsule, enum ovb_res r);
void ovb_profidx_free(struct ovb_profidx *x);

/* ---- lib/node.c: the plan's node model, once (formats/plan.md) ----
 *
 * A capsule's effective needs per resource, Eq. 1 with tau_min and lower
 * bounds, section 4.1's mechanisms, the grid rule and Y of a node, and the
 * decisions of Eq. 1 and Eq. 3, shared by ovb-place, ovb-check, ovb-report
 * and ovb-replay.  The rule: every number is the double its text rounds
 * to; a rule holds when it holds for the exact values of those doubles.
 * Doubles decide a case only when a certified bound on their rounding
 * error proves the exact answer; the rest is decided in GMP rationals.
 * Functions taking (m, n, extra) work on the needs m[0..n) and, when extra
 * is not NULL, one more. */
#define OVB_PLAIN_TAU 1.0       /* a plain reservation's period without tau= */
struct ovb_need {               /* one capsule's needs on one resource */
	double sigma, rho, tau, O;  /* rate, burst, period [s], tolerance */
	double lb;                  /* lower bound [rate unit]; 0: none */
	const struct ovb_hist *h;   /* U; NULL: plain, a point mass at sigma */
	double interval;            /* U's measurement interval I [s]; 0: plain */
	double limit;               /* mem: the limit [B] (plain: sigma) */
	union {                     /* by the mode (one at a time): */
		struct { double nsig_n, mean, m2; };  /* nsig: its N; U's
		                               mean and E[U^2] */
		struct { const double *jv; size_t jn;
		         uint32_t jlo, jhi; };  /* joint: its samples, one
		                               per slot of the timeline (NAN:
		                               none), jn slots; the span it
		                               is counted over, slots jlo..jhi
		                               (--slots overlap: its first
		                               and last sample; else all) */
	};
	/* the flags last, together: a plan's million needs are copied into
	 * every node's members, so the struct is kept small (96 bytes) */
	bool used;
	bool agg;                   /* the aggregate mode (a plan's "mode
	                               aggregate"): Eq. 1's term is lb alone;
	                               Eq. 3 alone bounds the node's risk */
	bool level;                 /* mem, a level: sigma is the request,
	                               Eq. 1's term is max(sigma, lb) (the
	                               sum of requests), never agg */
	bool nsig;                  /* the nsigma mode (lib/nsigma.c, set by
	                               ovb_need_nsigma): Eq. 1 as agg, Eq. 3
	                               replaced by the N-sigma test */
	bool joint;                 /* the joint mode (lib/joint.c): Eq. 1
	                               and Eq. 3 replaced by the test on
	                               the members' aligned samples jv */
	bool jspan;                 /* joint, --slots overlap: counted over
	                               the members' common span, which
	                               must hold ovb_joint_min slots */
	bool promise;               /* mem under the promise rule (a plan's
	                               "mem-rule promise", set by
	                               ovb_need_promise): Eq. 3 alone decides
	                               the node; the requests and limits are
	                               for enforcement, not placement rules */
};
/* lib/nsigma.c: the nsigma mode's node test.  ovb_need_nsigma puts need
 * n in the mode with N (agg, the moments of its U: bin k valued k w, a
 * plain one a point mass at sigma); ovb_nsigma_holds decides, exactly,
 * whether sum(mean) + N sqrt(sum(var)) <= C over m[0..n) and extra (NULL:
 * none): D = C - sum(mean) >= 0 and N^2 sum(var) <= D^2. */
void ovb_need_nsigma(struct ovb_need *n, double N);
bool ovb_nsigma_holds(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C);
/* lib/node.c: memory as a promise.  Puts mem need n under the promise
 * rule: Eq. 3 (Pr(Y > C) <= O_min on the window peaks) is the node's
 * only memory rule, with n's tolerance O when O >= 0 (O_mem, the node's
 * tolerance in place of the capsules'), its own when O is NAN. */
void ovb_need_promise(struct ovb_need *n, double O);
/* The node's sum(mean) and sum(var) in doubles (for messages). */
void ovb_nsigma_sums(const struct ovb_need *m, size_t n, double *mean,
	double *var);
/* The needs of capsule c of application app: per resource r from the
 * profile block q[r] (NULL: none, the resource is unused), with O= and
 * tau= of the capsule over the application's over the profile's; a plain
 * capsule (c->profile NULL) from its reservation (0: unused), tau 1 s and
 * O 0 unless given.  false when no resource is used. */
bool ovb_need_of(const struct ovb_app *app, const struct ovb_capsule *c,
	const struct ovb_qos *const q[OVB_NCAP], struct ovb_need need[OVB_NCAP]);
/* lib/unmeasured.c: --unmeasured=refuse|zero (ovb_unmeasured_argp, in
 * ovb_target_children; ovb_unmeasured_children adds -o, -q, -v) and its
 * rule.  ovb_capsule_measured: 65 at the capsule's line of file when its
 * profile (blocks q, as for ovb_need_of) says unmeasured for a resource
 * cl places, unless ovb_unmeasured_zero (then, with warn, a warning); 65
 * when a lower bound bounds a resource cl places that the capsule does
 * not use.  ovb_apps_measured: the same for every capsule of apps. */
extern bool ovb_unmeasured_zero;
extern const struct argp ovb_unmeasured_argp;
extern const struct argp_child ovb_unmeasured_children[];
int ovb_capsule_measured(const struct ovb_app *app,
	const struct ovb_capsule *c, const struct ovb_qos *const q[OVB_NCAP],
	const struct ovb_cluster *cl, const char *file, bool warn);
int ovb_apps_measured(const struct ovb_apps *apps, const char *file,
	const struct ovb_profiles *p, const struct ovb_cluster *cl);
/* Whether a block of q says unmeasured; the error (65 at the capsule's
 * line) of a capsule that, read so, has nothing to place. */
bool ovb_read_as_zero(const struct ovb_qos *const q[OVB_NCAP]);
int ovb_nothing_measured(const struct ovb_app *app,
	const struct ovb_capsule *c, const char *file);
/* The needs a cluster places: those of the resources it gives capacities
 * for (net-rx only where its nodes give it, ovb_cluster_nres; mem where
 * they give it, ovb_cluster_has_mem); the others are cleared.  false when
 * none is left. */
bool ovb_need_placed(const struct ovb_cluster *cl,
	struct ovb_need need[OVB_NCAP]);
/* Eq. 1's term over tau_min: max((sigma tau_min + rho)(1 - O)/tau_min, lb)
 * (lb alone in the aggregate mode),
 * in the rate unit, in doubles. */
double ovb_eq1_term(const struct ovb_need *n, double tau_min);
/* Section 4.1: x cpu-s every y s, proportional-share weight (cpu). */
void ovb_cpu_resv(const struct ovb_need *n, double *x, double *y,
	double *weight);
struct ovb_eq1 {
	size_t n;                   /* capsules */
	double tau_min, omin;       /* their least tau and least O */
	double load, load0;         /* Eq. 1's LOAD with lb, and without */
};
/* Eq. 1 of a node and resource, in doubles (the plan's LOAD). */
void ovb_eq1_load(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, struct ovb_eq1 *e);
/* t = x's Eq. 1 term over tau (exact). */
void ovb_eq1_xterm(mpq_t t, const struct ovb_need *x, const mpq_t tau);
/* The exact sign of LOAD - C at tau_min (GMP). */
int ovb_eq1_xcmp(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double tau_min, double C);
/* Eq. 1 holds: LOAD <= C exactly. */
bool ovb_eq1_holds(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C);
/* A certified relative error bound of a sum of n Eq. 1 terms in doubles:
 * each term at most 5 roundings, a sum of n non-negative terms n - 1 more,
 * relative to the exact sum; doubled for the higher-order terms.  Inline:
 * ovb-place asks it for every node and capsule. */
static inline double
ovb_sum_err(size_t n)
{
	return 2 * (double)(n + 6) * (DBL_EPSILON / 2);
}
/* Is the exact value (within relative err of v) <= limit?  1 yes, 0 no,
 * -1 too close to tell in doubles.  1e-300 covers underflow in any sum. */
static inline int
ovb_decide(double v, double err, double limit)
{
	if (v * (1 + err) + 1e-300 <= limit)
		return 1;
	if (v * (1 - err) - 1e-300 > limit)
		return 0;
	return -1;
}
/* The grid rule: the largest bin width of the profiled needs, at least
 * C/points when points > 0; 0 when none is profiled (Y is then the exact
 * sum of the plain sigmas). */
double ovb_node_grid(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C, uint64_t points);
/* The grid of a node whose grid is g (0: nothing profiled yet) once x
 * joins it: the same rule, one capsule at a time. */
double ovb_grid_add(double g, const struct ovb_need *x, double C,
	uint64_t points);
/* The grid index of the largest value of x's U on grid g. */
size_t ovb_need_top(const struct ovb_need *x, double g);
/* Can every U be held on grid g: its top index at most OVB_MAXGRID?  (A
 * plain 1e308 cpu beside a profile of 0.01 cpu bins cannot.)  Y is built
 * only when it can; ovb-place treats such a node as infeasible, ovb-check
 * reports bad input. */
bool ovb_grid_holds(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g);
/* x's U on grid g (values moved up, never down). */
void ovb_need_pmf(const struct ovb_need *x, double g, struct ovb_pmf *u);
/* Y on grid g: each U moved up on its own, convolved; clipped at C unless
 * C is infinite (Y kept whole, to draw it). */
void ovb_node_y(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g, double C, struct ovb_pmf *y);
/* A certified relative error bound of Pr(Y > C) computed in doubles by
 * lib/pmf.c on grid g from these needs. */
double ovb_tail_err(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g, double C);
/* The same bound from the needs' counts: steps U's, the longest of
 * maxlen grid points, sumlen points in all (a caller that keeps them). */
double ovb_tail_err_of(size_t steps, size_t maxlen, size_t sumlen, double g,
	double C);
/* Eq. 3: Pr(Y > C) <= limit exactly, Y on grid g (0: the plain sum); p is
 * Pr(Y > C) computed in doubles, or NAN to decide exactly at once. */
int ovb_eq3_decide(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double g, double C, double limit,
	double p);
struct ovb_nodestat {           /* what a plan's risk record states */
	struct ovb_eq1 eq1;
	double g, pr;               /* grid (0: plain only), Pr(Y > C); pr is
	                               NAN when the grid cannot hold Y */
	bool eq1_ok, eq3_ok;        /* decided exactly */
};
void ovb_node_stat(const struct ovb_need *m, size_t n, double C,
	uint64_t points, struct ovb_nodestat *st);
/* *y = pre + last's U on pre's grid, clipped at C when finite: the last
 * step of ovb_node_y (the same sums in the same order), pre as it was. */
void ovb_node_y_after(const struct ovb_pmf *pre, const struct ovb_need *last,
	double C, struct ovb_pmf *y);
/* The same, given pre (NULL: none), Y of m[0..n-1) as ovb_node_y makes
 * it on its grid pre->g with capacity C: used when pre->g is the grid of
 * m[0..n), so Y costs one convolution (the same doubles). */
void ovb_node_stat_pre(const struct ovb_need *m, size_t n, double C,
	uint64_t points, const struct ovb_pmf *pre, struct ovb_nodestat *st);
/* Memory's limits: the exact sum of the limits of m[0..n) (and extra)
 * against C + pool (the node's memory and reclaimable pool): true when
 * sum <= C + pool exactly. */
bool ovb_mem_limits_hold(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C, double pool);
/* The sum of the limits, in doubles (for reports). */
double ovb_mem_limits(const struct ovb_need *m, size_t n);
/* The OOM exposure of a node: E[(Y - C)+] [B], Y the sum of the members'
 * window peaks (independent) on grid g, unclipped, each value at its
 * grid point; 0 when g is 0 (plain requests: Y their sum). */
double ovb_mem_exposure(const struct ovb_need *m, size_t n, double g,
	double C);

/* The cluster's placed resources and a node's labels (lib/node.c). */
/* The resources placed on the cluster: OVB_NCAP when it gives net-rx
 * capacities, else 2 (cpu and net); loops over placed resources stop
 * there. */
int ovb_cluster_nres(const struct ovb_cluster *c);
/* Whether the cluster gives memory capacities (then on every node). */
bool ovb_cluster_has_mem(const struct ovb_cluster *c);
/* The value of node n's label key (its "KEY=VALUE"), or NULL. */
const char *ovb_node_label(const struct ovb_node *n, const char *key);

/* ---- lib/tod.c: time-of-day windows of U and the node test per window
 * (issue 27) ---- */

const char *ovb_tod_days_name(int days);        /* "weekday", "weekend" */
int ovb_tod_days_parse(const char *s);          /* OVB_TOD_*, or -1 */
/* The slot (24 day type + hour) of time t [s since the epoch] on the
 * clock UTC + offset. */
int ovb_tod_slot(uint64_t t, int64_t offset);
/* The window of U holding slot, or NULL (U has no windows). */
const struct ovb_win *ovb_tod_window(const struct ovb_dist *U, int slot);
/* The windows of d (its h.width set) from the intervals t[i] (start [s
 * since the epoch]) and v[i] (usage) of n: the merge rule per day type,
 * hours in order, closes a window as soon as it holds at least min
 * intervals; a last run below min joins the window before it; a day type
 * with fewer than min in all is one window [0, 24) (0 intervals:
 * unmeasured).  Replaces d->tod. */
void ovb_tod_fill(struct ovb_dist *d, const uint64_t *t, const double *v,
	size_t n, int64_t offset, uint64_t min);
/* Each window's token-bucket curve (ovb_series_tbucket) from the samples
 * of se whose slot is in it, the rest of the time a gap: the windows of d
 * must be filled and se's interval divide 1 h.  0, or OVB_EDATA with *why
 * (a window's curve cannot be computed). */
int ovb_tod_curves(struct ovb_dist *d, const struct ovb_series *se,
	const char **why);
void ovb_tod_copy(struct ovb_tod *to, const struct ovb_tod *from);
void ovb_tod_free(struct ovb_tod *t);
/* The need of x in the window of slot, from its profile block q (NULL,
 * a mem block or a U without windows: x itself): U the window's; sigma
 * the window's (1-O) percentile a (the upper edge of the bin holding its
 * rank; at least its curve's first rate) and rho the window's curve
 * there (linear between breakpoints, rounded up), as the paper picks
 * them from the whole U; a window without a curve: sigma max(a, x's
 * sigma) and x's rho (a valid bucket of the whole trace).  false: the
 * window is unmeasured. */
bool ovb_tod_need(const struct ovb_need *x, const struct ovb_qos *q,
	int slot, struct ovb_need *out);
/* A node's test per window: Eq. 1 and Eq. 3 (ovb_node_stat, decided
 * exactly) in each of the 48 slots, on the members' window needs. */
struct ovb_tod_stat {
	bool ok;                /* every slot measured, Eq. 1 and 3 hold */
	int nunmeasured;        /* slots where some member is unmeasured */
	int worst;              /* measured slot of the largest Pr(Y > C) or,
	                           when one fails, the first failing; -1 */
	bool measured[OVB_TOD_SLOTS];
	size_t unmeasured_by[OVB_TOD_SLOTS];    /* first member unmeasured */
	struct ovb_nodestat slot[OVB_TOD_SLOTS];
};
/* q[i] is member i's profile block (NULL: plain).  0, or OVB_EDATA with
 * *why set when two members' windows have different clocks. */
int ovb_tod_node(const struct ovb_need *m, const struct ovb_qos *const *q,
	size_t n, double C, uint64_t points, struct ovb_tod_stat *st,
	const char **why);
/* The node's windows (ovb-report's windows table): the runs of hours of
 * a day type in which every member's window is the same, the common
 * refinement of the windows of the members with windows (as
 * ovb_tod_need picks them: q[i] NULL, a level or a U without windows
 * does not cut).  start[k] is the first slot of run k, start[count] =
 * OVB_TOD_SLOTS; returns count (2 to 48).  Within a run every slot of
 * ovb_tod_node has the same needs, so the same ovb_tod_stat numbers. */
int ovb_tod_runs(const struct ovb_need *m, const struct ovb_qos *const *q,
	size_t n, int start[OVB_TOD_SLOTS + 1]);
/* ---- lib/todnode.c: the node test per window kept per node ---- */
struct ovb_todnode;
/* Adds member x (profile block q, NULL: plain) to rate r of *d (made
 * when NULL), of capacity C on a grid of POINTS. */
void ovb_todnode_add(struct ovb_todnode **d, int r, const struct ovb_need *x,
	const struct ovb_qos *q, double C, uint64_t points);
/* ovb_tod_node(members then x) returns 0 and ok (d NULL: no members). */
bool ovb_todnode_ok(struct ovb_todnode *d, int r, const struct ovb_need *x,
	const struct ovb_qos *q, double C, uint64_t points);
/* ovb_tod_node(members) returns 0 and ok: the node keeps its test in
 * every window (d NULL or no members: true). */
bool ovb_todnode_holds(struct ovb_todnode *d, int r, double C,
	uint64_t points);
void ovb_todnode_free(struct ovb_todnode *d);
/* ---- formats/format.c: the inputs of a placement ----
 *
 * ovb-place's and ovb-fit's take (ctx a struct ovb_place_in): profiles
 * merged, one cluster, one apps file and, unless no_plan, one plan;
 * any other file is refused as "not an input of WHAT". */
struct ovb_place_in {
	struct ovb_cluster cluster;
	struct ovb_apps apps;
	struct ovb_profiles prof;
	struct ovb_plan plan;
	bool have_cluster, have_apps, have_plan;
	char *cluster_file, *apps_file, *plan_file;
	bool no_plan;             /* a plan is not an input */
	const char *what;         /* "ovb-place (cluster, apps, ...)" */
};
int ovb_take_place(void *ctx, const struct ovb_format *fmt,
	struct ovb_lex *lx);

/* ---- lib/joint.c: the joint mode's samples and node test ----
 *
 * The samples of a series file, in [from, to), on one timeline: the
 * slots (sample starts T) where some cpu, net or net-rx series has a
 * sample, all of one interval.  A capsule's samples are the series whose
 * CAPSULE is its profile's name, one row per (name, resource), NAN where
 * it has none.  The node test: over the slots where at least one member
 * has a sample (a member without one there counts 0), within the
 * members' spans' common part (overlap: each member's span from its
 * first sample to its last; else the whole timeline), those whose sum is
 * above C exactly (ovb_sum_cmp where the doubles' certified bound does
 * not decide); it holds when slots > 0 and over/slots <= the least O
 * exactly (ovb_frac_le).  The series set must outlive the table (names
 * borrowed). */
struct ovb_joint {
	size_t nslots;
	uint64_t *t;                /* the slots' starts, increasing */
	uint64_t interval, from, to;
	const char *file;           /* the series file (messages) */
	struct ovb_names by[OVB_NCAP];  /* name -> row, per resource */
	double **v;                 /* rows: nslots samples, NAN: none */
	size_t *nin;                /* samples of each row in [from, to) */
	size_t nrows;
	bool overlap;               /* --slots overlap (set by the caller):
	                               a member's span is from its first
	                               sample to its last */
};
/* 0, or OVB_EDATA with *bad the index in ss of a series whose interval
 * is not the others' (cpu, net and net-rx series must share one). */
int ovb_joint_make(struct ovb_joint *j, const struct ovb_series_set *ss,
	uint64_t from, uint64_t to, const char *file, size_t *bad);
void ovb_joint_free(struct ovb_joint *j);
/* "FILE", or "FILE [FROM, TO)" for a window given (TO "end" when not),
 * into buf[len], for messages. */
void ovb_joint_where(const struct ovb_joint *j, char *buf, size_t len);
/* The samples of name's series of r: 0 (*v its row), 1 no such series,
 * 2 a series without a sample in [from, to). */
int ovb_joint_find(const struct ovb_joint *j, const char *name,
	enum ovb_res r, const double **v);
/* Sets need n (cpu, net, net-rx, used) in the joint mode with samples v
 * (NULL: none found: the caller refuses it), and its span by j's rule. */
void ovb_need_joint(struct ovb_need *n, const struct ovb_joint *j,
	const double *v);
/* --slots overlap: the slots a node of two capsules or more must have
 * in common, ceil(10 / O_min) (ten at or above its tail, as --tod-min;
 * O_min 0: never enough); fewer, and their multiplexing is not known. */
size_t ovb_joint_min(double omin);
/* The node test's verdict on its counts st (slots, over, omin): slots > 0,
 * over/slots <= O_min exactly and, span (--slots overlap) with two members
 * or more, slots >= ovb_joint_min; the one rule of ovb_joint_judge and
 * the placer's running sums. */
struct ovb_joint_stat;
bool ovb_joint_holds(const struct ovb_joint_stat *st, bool span,
	size_t members);
/* Its part of that rule that is not the load: no slot seen, or (span, two
 * members or more) fewer than ovb_joint_min slots seen together. */
bool ovb_joint_short(const struct ovb_joint_stat *st, bool span,
	size_t members);
/* Is slot k over C: the members m[0..n) and extra (NULL: none) with a
 * sample there, s their sum in doubles over c terms (added one by one);
 * decided exactly. */
bool ovb_joint_over(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, size_t k, double s, size_t c, double C);
/* The node test from scratch on m[0..n) and extra. */
void ovb_joint_judge(const struct ovb_need *m, size_t n,
	const struct ovb_need *extra, double C, struct ovb_joint_stat *st);

/* ---- lib/nstate.c: a node's state as the placer keeps it ----
 *
 * Per resource, the node's capsules (members) with Eq. 1's load, the
 * least tolerance and Y on the node's grid, kept as capsules come; the
 * tests of one more capsule decide as lib/node.c does on the members and
 * it (exactly).  A run's nodes share one ovb_nstate_ctx (the grid's
 * POINTS, a cache of U's, a spare array). */
struct ovb_nres {
	size_t ncap;              /* capsules using the resource */
	double tau_min, omin;
	double load;              /* Eq. 1's left side / tau_min */
	double sig;               /* the members' sigmas summed: the fit of
	                             the aggregate mode, whose Eq. 1 load is
	                             the lower bounds alone */
	double g;                 /* grid width, once a profiled capsule came */
	size_t maxlen, sumlen;    /* the members' U's on grid g: the longest,
	                             and all their grid points (error bounds) */
	struct ovb_pmf y;         /* clipped at the capacity */
	size_t ycap, tailcap;     /* doubles allocated at y.p, tail */
	double *tail;             /* tail[k] = Pr(Y > k g) for k >= tlo, */
	size_t tlo;               /* made from the top down as asked (a */
	double tsum;              /* test needs the top few): Pr(Y >= tlo g) */
	double risk;
	struct ovb_need *members;     /* for recomputing Eq. 1 when tau_min drops */
	bool mixed;               /* warned: U's of different intervals */
	bool profiled;            /* a member has a U, over interval: */
	bool ylazy;               /* joint members: g, y and risk not kept
	                             (their test is not Eq. 3): made by
	                             ovb_nstate_risk when asked */
	double interval;          /* until mixed, every member's with a U */
	size_t nmembers, capmembers;
};
/* The joint mode's running sums of a node, per rate r: per slot k, the
 * members' samples added in doubles in the order they came (sum[r][k]),
 * and how many members have one there (cnt[r][k]). */
struct ovb_njoint {
	double *sum[OVB_NCAP];
	uint32_t *cnt[OVB_NCAP];
	uint32_t lo[OVB_NCAP], hi[OVB_NCAP];  /* the members' spans' common
	                                        part (lo > hi: none) */
};

struct ovb_nstate {           /* a node */
	const struct ovb_node *n;
	struct ovb_nres r[OVB_NCAP];
	size_t napps;             /* capsules on it (asked: whether any) */
	size_t *wary;             /* its applications named in trust
	                             records, by index (the caller's) */
	size_t nwary, capwary;
	struct ovb_njoint *joint;  /* the joint mode's sums (NULL until a
	                             capsule of the mode comes; kept out of
	                             ovb_nres: 24 more bytes there cost
	                             ovb-place 25 % on 100,000 capsules) */
	struct ovb_todnode *tod;  /* --mode tod: its test kept (NULL
	                             until a capsule comes; lib/todnode.c) */
};

struct ovb_ucache;
struct ovb_nstate_ctx {
	uint64_t grid;            /* POINTS (ovb_grid_add) */
	struct ovb_ucache *ucache;
	double *spare;            /* ovb_nstate_add's spare array */
	size_t sparecap;
};
void ovb_nstate_ctx_init(struct ovb_nstate_ctx *x, uint64_t grid);
void ovb_nstate_ctx_free(struct ovb_nstate_ctx *x);
/* An empty node; its memory freed. */
void ovb_nstate_init(struct ovb_nstate *nd, const struct ovb_node *n);
void ovb_nstate_free(struct ovb_nstate *nd);
/* Adds capsule need n to the node's resource nr of capacity cap. */
void ovb_nstate_add(struct ovb_nstate_ctx *x, struct ovb_nres *nr,
	const struct ovb_need *n, double cap);
/* The node's Pr(Y > C) on its grid (1 or 0 for plain reservations alone,
 * Eq. 3 decided exactly), the plan's risk: kept by ovb_nstate_add, made
 * here from the members when they are joint (the same sums in the same
 * order as the running Y would have made). */
double ovb_nstate_risk(struct ovb_nstate_ctx *x, struct ovb_nres *nr,
	double cap);
/* Eq. 1 with n added, exactly; *after its load in doubles. */
bool ovb_nstate_eq1(const struct ovb_nres *nr, const struct ovb_need *n,
	double cap, double *after);
/* Eq. 3 with n added, against the least tolerance, exactly. */
bool ovb_nstate_eq3(struct ovb_nstate_ctx *x, const struct ovb_nres *nr,
	const struct ovb_need *n, double cap);
/* Pr(Y + U > C) in doubles on grid g (1 when g is 0), for a message. */
double ovb_nstate_pr_with(const struct ovb_nres *nr, const struct ovb_need *n,
	double g, double cap, double limit);
/* mem's limits within capacity + pool with n added (NULL: none). */
bool ovb_nstate_mem_ok(const struct ovb_nstate *nd, const struct ovb_need *n);
/* --target (lib/enforce.c): NULL, or the target that refuses the node's
 * capsules with need[] added, on resource *res, why in why[len]. */
const char *ovb_nstate_target(const struct ovb_nstate *nd,
	const struct ovb_need need[OVB_NCAP], char *why, size_t len, int *res);
/* Does the node as it is break Eq. 1, mem's limits or Eq. 3?  *res the
 * first resource that does. */
bool ovb_nstate_broken(const struct ovb_nstate *nd, uint64_t points,
	int *res);
/* Does node nd's rate r, judged jointly, fail for want of slots in which
 * its capsules were seen together (spans that never meet, or fewer than
 * --slots overlap's ceil(10 / O_min)), rather than for its load?  Then
 * the capsule whose leaving mends it need not be the largest. */
bool ovb_nstate_short_span(const struct ovb_nstate *nd, int r);
/* A node's resource r judged from scratch on the capsules m[0..n) as a
 * plan states them (ovb-check and ovb-report decide by it): Eq. 1, the
 * grid, Pr(Y > C) and Eq. 3 as ovb_node_stat gives them; grid_ok: Y fits
 * on the grid; mem: the limits within C + pool and the OOM exposure. */
struct ovb_joint_stat {         /* the joint mode's test of a node */
	size_t slots, over;         /* slots where a member has a sample;
	                               of them, those whose sum is > C */
	double omin;                /* the least O */
	size_t first_over;          /* the first such slot (index); SIZE_MAX */
	bool ok;                    /* over/slots <= omin, exactly */
};
struct ovb_nverdict {
	struct ovb_nodestat st;
	struct ovb_joint_stat joint;  /* joint members (m[0].joint): their
	                               test (ovb_joint_judge) */
	bool grid_ok;
	bool limits_ok;           /* mem: limits <= C + pool (else true) */
	double exposure;          /* mem: E[(Y - C)+] [B] (else 0) */
	/* mem under the promise rule (m[0].promise): limits_ok and
	 * st.eq1_ok (the requests) are true, no rule; Eq. 3 decides */
};
void ovb_nstate_judge(const struct ovb_need *m, size_t n,
	const struct ovb_node *node, int r, uint64_t points,
	struct ovb_nverdict *v);
/* The joint mode: adds need n (n->joint), just added to resource r by
 * ovb_nstate_add, to the node's running sums; the test of capsule n on
 * resource r with them (O(slots), not O(members x slots)), decided as
 * ovb_joint_judge decides it. */
void ovb_nstate_joint_add(struct ovb_nstate *nd, int r,
	const struct ovb_need *n);
void ovb_nstate_joint(const struct ovb_nstate *nd, int r,
	const struct ovb_need *n, struct ovb_joint_stat *st);

/* ---- lib/place.c: the placement engine (ovb-place, ovb-fit) ----
 *
 * A request gives a plan: the applications of apps, in arrival order
 * (with a decreasing policy, each run of op=new records largest first),
 * placed whole on the cluster or rejected whole with the reason, added to
 * the plan existing (when given) as ovb-place documents it.  Messages
 * name the files given (cluster_file, ...); the status is 0 or an exit
 * status (65: bad data; 64: a mode that contradicts the plan given). */

/* Policies, rows of one table: the row of NAME, or -1; a row's name, or
 * NULL past the last. */
int ovb_place_policy(const char *name);
const char *ovb_place_policy_name(int policy);

struct ovb_place_req {
	const struct ovb_cluster *cluster;
	const struct ovb_apps *apps;
	const struct ovb_profiles *prof;
	const struct ovb_plan *existing;  /* to add to; NULL: none */
	const char *cluster_file, *apps_file, *plan_file;
	int policy;                       /* ovb_place_policy() */
	uint64_t seed;                    /* of the random policy */
	uint64_t grid;                    /* POINTS (a plan given: its own) */
	double trust_weight;              /* score = (1 - W) fit + W trust */
	bool aggregate, mode_given;       /* --mode aggregate; given */
	bool nsigma;                      /* --mode nsigma, with N: */
	double nsigma_n;
	bool tod;                         /* --mode tod: Eq. 1 and 3 in every
	                                     hour of the day (lib/tod.c) */
	const struct ovb_joint *joint;    /* --mode joint --series: the test
	                                     on these aligned samples
	                                     (lib/joint.c); NULL: not joint */
	bool repair;                      /* --max-moves given: */
	uint64_t max_moves;
	bool consolidate;                 /* --consolidate: with repair, the
	                                     moves left empty whole nodes */
	uint64_t cons_max;                /* --consolidate=C: of them at
	                                     most C; 0: no bound of its own */
	bool strict;                      /* warnings are errors (65) */
	bool scan;                        /* every node for every capsule */
	uint64_t valid_until;             /* --valid-until T; 0: none */
	const struct ovb_qos *forecast;   /* ovb_profiles_forecast(prof) */
	bool mem_promise;                 /* --mem-rule promise: a node's
	                                     memory rule is Eq. 3 alone (a
	                                     plan given keeps its own rule) */
	double mem_O;                     /* its O_mem in [0, 1); NAN: the
	                                     capsules' own O */
};

struct ovb_place_res {
	struct ovb_plan plan;             /* the caller frees it */
	size_t nrejected;                 /* applications rejected now */
	size_t nwarnings;
	uint64_t moves;                   /* made by the repair */
};

/* One run at a time (not thread-safe); *res is set whatever the status. */
int ovb_place_run(const struct ovb_place_req *q, struct ovb_place_res *res);

/* ---- lib/enforce.c: from a plan to the kernel's controls ----
 *
 * One capsule's share on one resource, rendered for a facility, every
 * number checked against the kernel's limit (ovb-enforce(1), "From plan to
 * machine" gives each limit's source).  The decision on section 4.1's
 * tolerance: O is applied once, where the plan applied it.  What a target
 * GUARANTEES is the Eq. 1 term over the capsule's own tau, D = (sigma tau
 * + rho)(1 - O) (the amount the plan admitted, so the guarantees of a
 * node add up to its LOAD); what a target CAPS is the profile's own
 * envelope sigma tau + rho, never discounted again (sigma is already the
 * (1 - O) percentile).  The paper's x = (1 - O) rho every y = rho/sigma
 * (ovb_cpu_resv) gives (1 - O) sigma, a second discount without the
 * burst over tau: only its y is used, as a bound on the period.
 *
 * A map function returns 0 when every limit holds, 1 when one does not
 * (why says which, naming the limit; with clamp the value was moved to
 * the limit and the guarantee may be lost), -1 when the number cannot be
 * represented at all. */
struct ovb_klimits {
	double dl_cap;          /* SCHED_DEADLINE share per CPU (0.90 here) */
	uint64_t dl_pmin, dl_pmax;      /* period bounds [ns] */
	uint64_t hz;            /* kernel HZ for tc's burst >= rate/HZ */
	uint64_t mtu;           /* [B] */
};
void ovb_klimits_default(struct ovb_klimits *L);
#define OVB_DL_RUNTIME_MIN 1024         /* ns (1 << DL_SCALE) */
#define OVB_CFS_QUOTA_MIN 1000          /* us */
#define OVB_CFS_PERIOD_MIN 1000         /* us */
#define OVB_CFS_PERIOD_MAX 1000000      /* us */
#define OVB_CFS_QUOTA_MAX ((UINT64_C(1) << 44) - 1)     /* us (MAX_BW) */
#define OVB_WEIGHT_MIN 1
#define OVB_WEIGHT_MAX 10000
/* D (guarantee) and E (cap) over the capsule's tau [amount unit]. */
double ovb_enf_guarantee(const struct ovb_need *n);
double ovb_enf_envelope(const struct ovb_need *n);
/* SCHED_DEADLINE: k tasks of runtime/deadline/period [ns], deadline =
 * period = min(y, tau/100), whose k (Q/P)(tau - 2(P - Q)) (the supply
 * bound of a greedy CBS over any window) is at least D, each Q/P at
 * most dl_cap.  k = 0: nothing to reserve. */
struct ovb_dl { uint64_t k, runtime, deadline, period; };
int ovb_dl_map(const struct ovb_need *n, const struct ovb_klimits *L,
	bool clamp, struct ovb_dl *d, char *why, size_t len);
double ovb_dl_sbf(const struct ovb_dl *d, double t);    /* [cpu-s] */
/* cpu.max "QUOTA PERIOD" [us] with period = min(1 s, tau/10): over any
 * window of tau, at any phase, it lets through at least (floor(tau /
 * period) - 1) quota >= E; cpu.max.burst = min(rho, quota) [us]. */
struct ovb_cfs { uint64_t quota, period, burst; };
int ovb_cfs_map(const struct ovb_need *n, bool clamp, struct ovb_cfs *c,
	char *why, size_t len);
double ovb_cfs_allow(const struct ovb_cfs *c, double t);  /* [cpu-s] */
/* cpu.weight of a node's capsules from their guarantees g[0..n) [cpu],
 * the largest 10000: 0, or the index + 1 of the first capsule whose share
 * w C / sum w is below g (the rounding lost it; why says so). */
size_t ovb_weight_map(const double *g, size_t n, double C, uint64_t wmin,
	uint64_t wmax, uint64_t *w, char *why, size_t len);
#define OVB_SHARES_MIN 2                /* cgroup v1 cpu.shares */
#define OVB_SHARES_MAX 262144
/* tc htb class: rate = D/tau (guaranteed when the rates fit the link),
 * ceil = sigma with burst = cburst = rho (the cap), units bit/s and B. */
struct ovb_tb { uint64_t rate, ceil, burst; };    /* bit/s, bit/s, B */
int ovb_tc_map(const struct ovb_need *n, const struct ovb_klimits *L,
	bool clamp, struct ovb_tb *t, char *why, size_t len);
/* Kubernetes: requests.cpu = D/tau, limits.cpu such that the CFS period
 * of 100 ms lets E through over any window of tau (needs tau >= 0.2 s;
 * otherwise no limit, has_limit false) [millicores]. */
struct ovb_k8s { uint64_t request, limit; bool has_limit; };
int ovb_k8s_map(const struct ovb_need *n, bool clamp, struct ovb_k8s *k,
	char *why, size_t len);

/* Memory, a level: the request is a protection (cgroup memory.min,
 * systemd MemoryMin=, cgroup1 memory.soft_limit_in_bytes, Kubernetes
 * requests.memory), the limit the OOM kill point (memory.max, MemoryMax=,
 * memory.limit_in_bytes, limits.memory), both in B rounded UP to a page
 * of OVB_MEM_PAGE B (the kernel counts pages and rounds a write down),
 * Kubernetes's up to a MiB (rendered in Mi).  A limit beyond the page
 * counter's largest, OVB_MEM_MAX B, is no limit (unlimited: "max", -1,
 * "infinity", no limits.memory); a request beyond it cannot be
 * represented (-1).  n: sigma the request, limit the limit [B]. */
#define OVB_MEM_PAGE 4096
#define OVB_MEM_MAX 9223372036854771712.0   /* (LONG_MAX / 4096) pages */
struct ovb_mem { uint64_t request, limit; bool unlimited; };   /* B */
int ovb_mem_map(int t, const struct ovb_need *n, struct ovb_mem *mm,
	char *why, size_t len);
/* The node's rendered requests add up to at most its memory C [B]. */
bool ovb_mem_admit(const struct ovb_mem *mm, size_t m, double C,
	double *sum);

/* A node's sums against its admission, decided exactly (the rationals of
 * the integers and doubles): SCHED_DEADLINE sum k Q/P <= dl_cap C (the
 * kernel's admission per root domain, C CPUs); tc's guaranteed rates <=
 * the link, ceil(8 C) bit/s; Kubernetes requests <= 1000 C millicores
 * (the scheduler's fit on allocatable).  *sum gets the sum in doubles. */
bool ovb_dl_admit(const struct ovb_dl *d, size_t m, double dl_cap, double C,
	double *sum);
bool ovb_tc_admit(const struct ovb_tb *t, size_t m, double C, double *sum);
bool ovb_k8s_admit(const struct ovb_k8s *k, size_t m, double C,
	double *sum);

/* The targets, and whether the kernel would take a node's capsules: each
 * capsule's numbers within the limits (or clamped, with clamp) and the
 * node's sums within its admission (cgroup and systemd: weights that keep
 * every Eq. 1 term; cgroup1: the same with cpu.shares).  One rule for
 * ovb-enforce, ovb-check --target and ovb-place --target.  n[0..m) are
 * the needs on the target's resource (ovb_target_res), or its mem needs
 * (level, where ovb_target_has_mem; 0 for the other targets); C the
 * node's capacity of it.  0: taken; 1: a limit or the admission is broken, -1: a
 * number cannot be represented; *bad is the capsule's index, or m for the
 * node's sum; why says which limit, with the numbers. */
enum ovb_target { OVB_T_DL, OVB_T_CGROUP, OVB_T_SYSTEMD, OVB_T_TC,
	OVB_T_K8S, OVB_T_CGROUP1, OVB_NTARGET };
extern const char *const ovb_target_names[OVB_NTARGET];
int ovb_target_parse(const char *s);            /* -1: unknown */
enum ovb_res ovb_target_res(int t);
/* Whether target t renders memory too (cgroup, systemd, cgroup1,
 * kubernetes; ovb_enf_node then takes mem needs, level true: the
 * rendered requests within C, the node's memory). */
bool ovb_target_has_mem(int t);
int ovb_enf_node(int t, const struct ovb_klimits *L, bool clamp,
	const struct ovb_need *n, size_t m, double C, size_t *bad, char *why,
	size_t len);
/* What target t grants a capsule's need n on its resource (not mem):
 * the least burst rho' >= n->rho for which the target's map holds every
 * limit without clamping (tc: the burst it grants, max(MTU, rate/HZ), a
 * whole byte; cgroup, systemd, cgroup1: a CFS quota of at least its least;
 * sched-deadline: a runtime of at least its least; kubernetes: as given),
 * so that Eq. 1 and Eq. 3, decided on n, hold for what is enforced
 * (ovb-place --enforce).  0, with n->rho raised or not; -1 when no burst
 * makes the limits hold (a limit of tau itself; why says which). */
int ovb_enf_grant(int t, const struct ovb_klimits *L, struct ovb_need *n,
	char *why, size_t len);
/* ovb_enf_grant for every target of the mask (1u << ovb_target) on its
 * resource, until none raises a burst; -1 with *tbad the target that
 * cannot grant it.  ovb_plan_klimits: the kernel limits a plan was placed
 * with (its enforce record; the defaults without one). */
int ovb_need_grant(unsigned targets, const struct ovb_klimits *L,
	struct ovb_need need[OVB_NCAP], int *tbad, char *why, size_t len);
struct ovb_plan;
void ovb_plan_klimits(const struct ovb_plan *p, struct ovb_klimits *L);
/* --enforce T[,T...] (lib/cli.c, among the target options): the mask. */
extern unsigned ovb_enforce_mask;
/* The children of a tool that knows the targets (lib/cli.c): -t
 * T[,T...], --clamp, --dl-cap, --hz, --mtu into the globals below, then
 * -o, -q, -v. */
extern const struct argp_child ovb_target_children[];
extern bool ovb_target_on[OVB_NTARGET];
extern size_t ovb_ntargets;
extern bool ovb_target_clamp;
extern struct ovb_klimits ovb_klim;

/* ---- lib/trade.c: Sharc's resource trading (section 4.3), replayed ----
 *
 * One recomputation of every capsule's allocation A from the usage of the
 * interval that ends: Eq. 2's smoothing, Steps 0-2 of every application,
 * then Step 3 (Eq. 5 summed over the application's C_i capsules) from the
 * node and application sums after Steps 1-2, then Step 4: the allocations
 * above R cut in proportion to their excess until every node's sum is at
 * most its capacity, then every application's at most R_i.  Amounts are
 * in the resource's rate unit (a node's capacity in place of the paper's
 * 1).  formats/trade.md gives the rules and the deviations. */
enum ovb_trade_class {
	OVB_TRADE_FIXED,        /* Step 0: trading not permitted, A = R */
	OVB_TRADE_RECLAIM,      /* Step 1: a lender (A < R) with U >= A */
	OVB_TRADE_UNDER,        /* Step 2: U < A, an under-user */
	OVB_TRADE_BORROW,       /* Step 3: U >= A >= R, a borrower */
	OVB_TRADE_ABSENT,       /* no series yet, or no longer */
};
const char *ovb_trade_class_name(enum ovb_trade_class c);
int ovb_trade_class_parse(const char *s);   /* the class, or -1 */
struct ovb_trade_cap {
	size_t app, node;       /* indices */
	double R, lb, eps;      /* reservation, lower bound [rate unit] */
};
struct ovb_trade_in {
	size_t ncap, napp, nnode;
	const struct ovb_trade_cap *cap;
	const double *node_cap; /* nnode: capacity [rate unit] */
	const double *app_R;    /* napp: R_i = sum of its R_ij */
	const bool *app_trade;  /* napp: TradeResources */
};
/* Eq. 5's N1: the needy capsules of every application on the node (U >=
 * A), the node's borrowers (Step 3), or the node's borrowers holding
 * borrowed bandwidth (A > R; the node's borrowers when none does). */
enum ovb_trade_n1 { OVB_N1_ALL, OVB_N1_BORROWERS, OVB_N1_ABOVE };
extern const char *const ovb_trade_n1_name[3];
struct ovb_trade_opt {
	double alpha;           /* Eq. 2, in (0, 1] */
	bool capped;            /* usage clamped to A (token bucket) */
	enum ovb_trade_n1 n1;   /* Eq. 5's N1 (formats/trade.md) */
	bool fix;               /* never below max(LB, delta R); Step 1 adds
	                           at least epsilon R */
	double delta;
	bool no_step4;          /* leave Step 4 out (to measure it) */
};
struct ovb_trade_rec {          /* one capsule in one interval */
	enum ovb_trade_class cls;
	double A;               /* allocation in force in the interval */
	double used;            /* usage replayed (clamped when capped) */
	double U;               /* smoothed usage (Eq. 2) */
	double next;            /* allocation for the next interval */
};
struct ovb_trade_state {
	double *A, *U, *scratch, *node_sum, *app_sum;
	bool *was;
	size_t *n1, *n2, *n1above;
	size_t *nodestart, *nodemem, *appstart, *appmem; /* group members */
};
void ovb_trade_state_init(struct ovb_trade_state *s,
	const struct ovb_trade_in *in);
void ovb_trade_state_free(struct ovb_trade_state *s);
/* One interval: u[k] the usage of capsule k (NAN: no report, taken as R),
 * present[k] whether it runs (a capsule that appears starts at A = U = R);
 * fills rec[0..ncap). */
void ovb_trade_step(const struct ovb_trade_in *in,
	const struct ovb_trade_opt *o, struct ovb_trade_state *s,
	const double *u, const bool *present, struct ovb_trade_rec *rec);

/* A replay summed per calendar month (UTC) of the intervals' start, as
 * ovb-report shows it: lent = sum over capsules and intervals of R - A
 * where A < R ([rate unit] x intervals); usage above A; node-intervals
 * whose usage is above capacity; reclaims: from a capsule's first
 * interval in class reclaim to the interval whose NEXT is R again
 * (counted in the month it ends; median, 90th percentile (nearest rank)
 * and max length in intervals), abandoned when it falls back to under
 * first. */
struct ovb_trade_month {
	int64_t month;          /* year * 12 + month - 1 */
	size_t intervals, rows, above_A, node_intervals, node_over;
	double lent;
	size_t reclaims, abandoned;
	uint64_t rec_median, rec_p90, rec_max;
};
struct ovb_trade_day {          /* the same per day, for plots */
	uint64_t day;           /* t / 86400 */
	size_t intervals, node_over;
	double lent;
};
/* *out and *days malloc'd; returns the number of months. */
size_t ovb_trade_months(const struct ovb_trade *t, struct ovb_trade_month **out,
	struct ovb_trade_day **days, size_t *ndays);

/* ---- lib/market.c: the Merkat market (proportional share, errors, tabu) ----
 *
 * alloc_i is a VM's capped proportional share of the whole cluster's
 * capacity (water-filling: x_j = min(a_max_j, b_j L) with L such that the
 * x_j sum to the capacity, or every x_j = a_max_j when the caps fit);
 * alloc_r the same over its node's VMs and capacity; e_r = |alloc_i -
 * alloc_r| / alloc_i (Eq. 2); a VM's error is max over cpu and mem. */
/* The water-filling of bid[0..k), amax[0..k) over capacity C into x. */
void ovb_waterfill(const double *bid, const double *amax, size_t k, double C,
	double *x);
/* The same in exact rationals. */
void ovb_xwaterfill(mpq_t *bid, mpq_t *amax, size_t k, const mpq_t C,
	mpq_t *x);
struct ovb_market {
	size_t nvm, nnode, nres;        /* nres 1 (cpu) or 2 (cpu, mem) */
	const struct ovb_bids *b;
	const struct ovb_cluster *c;
	double *cap[OVB_NMRES];         /* per node */
	double *bid[OVB_NMRES], *amax[OVB_NMRES], *alloc_i[OVB_NMRES];
	double total[OVB_NMRES], bidsum[OVB_NMRES], price[OVB_NMRES];
	size_t *node;                   /* per vm: its node, OVB_NONE if new */
};
/* Checks bids against the cluster (a node that is not in it, a VM whose
 * a_max exceeds every node's capacity, a node without mem=MiB when VMs bid
 * for mem: 65 at the file's line) and computes alloc_i and the prices. */
int ovb_market_init(struct ovb_market *m, const struct ovb_bids *b,
	const char *bfile, const struct ovb_cluster *c, const char *cfile);
void ovb_market_free(struct ovb_market *m);
/* alloc_r[r][j] and err[j] (the VM's max_r e_r) for placement node_of
 * (OVB_NONE: not placed: alloc_r 0, err 0); returns the max error. */
double ovb_market_errors(const struct ovb_market *m, const size_t *node_of,
	double *alloc_r[OVB_NMRES], double *err);
/* Lowers x[idx[0..k)], the largest first, an ulp at a time until the
 * decimals ovb_fmt_real writes for them sum, exactly (GMP), to at most the
 * decimal it writes for C: printed allocations never exceed a printed
 * capacity.  Returns the number of ulps taken (0 almost always). */
size_t ovb_fit_printed(double *x, const size_t *idx, size_t k, double C);
/* ovb_fit_printed on every node's alloc_r (from ovb_market_errors), and
 * err[] and *emax recomputed from them: what ovb-market writes. */
void ovb_market_fit_printed(const struct ovb_market *m,
	double *ar[OVB_NMRES], double *err, double *emax);
/* A lower bound on the max error of every placement (bids.md): a VM's
 * cap, the cluster's total, and the node sums searched by branch and
 * bound within OVB_MARKET_LB_BUDGET (VM, node) trials. */
#define OVB_MARKET_LB_BUDGET 2000000
double ovb_market_bound(const struct ovb_market *m);
/* Algorithm 3, fixed: the most VMs n in [1, nmax], each with caps
 * amax[r], whose total bid sum_r P[r] a[r] n / (1 - a[r] n / C[r]) is
 * below budget, P[r] the price of the OTHER bids (their sum / C[r], not
 * the market price, which would count the tenant's own bids, nor the
 * reserve); bid[r] the bid per VM that gives each its cap.  0 when not
 * even one VM is affordable or fits (a[r] n >= C[r]). */
uint64_t ovb_market_afford(const struct ovb_market *m, const double *amax,
	uint64_t nmax, double budget, double *bid);
/* Algorithm 2 (the vertical bid policy), fixed: one period's new bids of
 * a VM from its performance v (a cost: time per step, higher is worse)
 * against v_ref, v_low < v_high, its allocation alloc[r] within
 * [alloc_min[r], alloc_max[r]], the budget bid_max per period and the
 * floor bid_min; last[r] the previous change of bid[r], updated.
 * Fixes (ovb-market(1)): T = floor(|v_ref - v| / min(v, v_ref)), the gap in
 * either direction (the paper's floor((v_ref - v) / v) is <= -1 whenever
 * v > v_ref); a damped decrease goes from bid[r], not from bid_tmp (line
 * 11), an increase starts from bid[r] (line 14); damping applies when the
 * previous change went the other way; the new bid is kept whether or not
 * it was damped (lines 12 and 20). */
struct ovb_vpolicy {
	double v_ref, v_low, v_high, bid_min, bid_max;
	double alloc_min[OVB_NMRES], alloc_max[OVB_NMRES];
};
void ovb_vertical_bid(const struct ovb_vpolicy *p, size_t nres, double v,
	const double *alloc, double *bid, double *last);
struct ovb_tabu_opt {
	uint64_t niter;         /* stop after niter iterations without gain */
	double emax;            /* stop when the best max error <= emax */
	uint64_t mmax;          /* at most mmax migrations of placed VMs */
	uint64_t tenure;        /* iterations a (vm, node) pair stays tabu */
	uint64_t seed;          /* ties broken at random from it */
};
struct ovb_tabu_stat {
	double before, after;   /* max error of the start and the best */
	uint64_t iters, moves;  /* iterations run; migrations in the best */
	size_t nhist;           /* best placements met (the first: the start
	                           with its new VMs placed) */
	size_t *hist;           /* the start and the latest ones: read them
	                           with ovb_tabu_hist; malloc'd */
	double *hist_err;
};
#define OVB_TABU_HIST 17
/* The back-th latest best placement kept (0: the last; the start is the
 * oldest), its max error in *err; NULL past the start. */
const size_t *ovb_tabu_hist(const struct ovb_tabu_stat *st, size_t M,
	size_t back, double *err);
/* Algorithm 1 with its fixes (ovb-rebalance(1)): node_of in: the placement
 * (OVB_NONE: a new VM, first put on the least loaded node where its mem
 * fits); out: the best placement found.  65 (reported at the bids file's
 * line) when the input overcommits a node's mem or a new VM fits no node. */
int ovb_rebalance(const struct ovb_market *m, const struct ovb_tabu_opt *o,
	size_t *node_of, struct ovb_tabu_stat *st, const char *bfile);

/* ---- formats/format.c: the inputs of the market tools ---- */

/* The inputs of ovb-market and ovb-rebalance: one ovb-cluster and one
 * ovb-bids file in any order (files[0..nfiles), stdin when none), and the
 * market built from them; 0 or a status (reported). */
struct ovb_market_in {
	struct ovb_cluster c;
	struct ovb_bids b;
	char *cfile, *bfile;    /* NULL: not read */
};
int ovb_market_load(int nfiles, char **files, struct ovb_market_in *in,
	struct ovb_market *m);
void ovb_market_in_free(struct ovb_market_in *in);

/* ---- lib/migrate.c: executable migration plans, the exact search ----
 *
 * A step: VM vm from node from (OVB_NONE: a deployment) to node to.  In a
 * plan every node's mem holds after each step. */
struct ovb_mstep { size_t vm, from, to; };
/* The placements searched exactly: (nodes + 1)^vms at most this. */
#define OVB_EXACT_STATES 131072
bool ovb_exact_fits(const struct ovb_market *m);
/* A plan from start (OVB_NONE: new) to target, built greedily: direct
 * steps in VM order where the destination has room, else a staging move
 * through a third node with room.  Returns its moves (staging included;
 * deployments not), or UINT64_MAX with the reason in why when it finds
 * no executable order.  *steps malloc'd. */
uint64_t ovb_migrate_plan(const struct ovb_market *m, const size_t *start,
	const size_t *target, struct ovb_mstep **steps, size_t *nsteps,
	char *why, size_t whylen);
/* The exact search (ovb_exact_fits): node_of, st->after, st->moves and
 * the plan of the placement of least max error reached from start within
 * o->mmax moves by an executable order (then fewest moves, then least sum
 * of errors); why (when not NULL) says what better placement exists and
 * why it is not taken, else is left alone. */
int ovb_rebalance_exact(const struct ovb_market *m,
	const struct ovb_tabu_opt *o, const size_t *start, size_t *node_of,
	struct ovb_tabu_stat *st, struct ovb_mstep **steps, size_t *nsteps,
	char *why, size_t whylen, const char *bfile);

/* ---- lib/rsv.c: Cluster Reserves steps 1-3 (GLPK) and the bank ----
 *
 * One manager's allocation problem: n "nodes" (nodes, or whole groups of
 * nodes seen from the level above) by s classes.  Matrices are row-major
 * n x s, in percent of one node (a group of w nodes has capacity 100 w).
 * Step 1 (GLPK simplex) finds V = min sum_j |sum_i R[i,j] - T[j]| subject
 * to lb <= R <= ub and sum_j R[i,j] <= cap[i]; step 2 finds the R with
 * deviation V (+ 1e-7 sum_j (1 + T[j]), GLPK's feasibility tolerance on
 * the class rows) closest to t in sum_i (1/w[i]) sum_j (R[i,j] - t[i,j])^2,
 * exactly up to a certified bound (dual Newton on the class constraints,
 * water-filling per node); step 3 gives capacity left on a node to the
 * classes idle there that are below target.  The bank is section 3.2.2. */
struct ovb_rsv_in {
	size_t n, s;
	const double *cap;          /* n: capacity of node i, 100 w[i] */
	const double *w;            /* n: nodes that node i stands for (1) */
	const double *T;            /* s: target of sum_i R[i,j] (N D[j]) */
	const double *lb, *ub;      /* bounds of R[i,j] in steps 1, 2 */
	const double *t;            /* Eq. (2)'s u + k (summed over a group) */
	const double *u;            /* bank: usage */
	const double *unused;       /* bank: sum of max(0, r - u) */
	const unsigned char *idle;  /* r > u somewhere: step 3 may add */
	const unsigned char *needy; /* u >= r somewhere: the bank may add */
	const double *start;        /* lp: a step-1 point (within the bounds
	                             * and capacities) taken instead of
	                             * solving step 1; NULL: GLPK solves it */
};
enum ovb_rsv_method { OVB_RSV_LP, OVB_RSV_BANK };
struct ovb_rsv_opt {
	enum ovb_rsv_method method;
	int steps;                  /* LP: run steps 1..steps (1-3) */
	double accuracy;            /* LP step 2: bound on max |R - R*| */
	bool cold;                  /* never start from the previous round */
	double bank_c;              /* bank step 2's c, per node */
	double bank_keep;           /* bank balance kept per round (0..1) */
};
struct ovb_rsv_stat {
	double V;                   /* step 1's least deviation */
	double dev[3];              /* deviation after steps 1, 2, 3 */
	double acc;                 /* step 2's certified max |R - R*| */
	double shortfall;           /* step 2's deviation above V (<= tol) */
	long lp_iter, qp_iter, evals;
	long ipm_iter;              /* step 2: barrier iterations (fallback) */
	enum ovb_rsv_how { OVB_RSV_NEWTON, OVB_RSV_IPM, OVB_RSV_STEP1 } how;
	                            /* step 2's point: dual Newton; Newton
	                             * after the barrier method; step 1's
	                             * point with the bound the duals prove */
	double sec[3];              /* seconds in steps 1, 2, 3 */
	bool warm;                  /* step 1 started from the last basis */
};
struct ovb_rsv;
struct ovb_rsv *ovb_rsv_new(size_t n, size_t s, const struct ovb_rsv_opt *o);
/* R (n x s) for this round; keeps what warms the next round.  0, or
 * OVB_EDATA (infeasible) / OVB_ESOFT (solver failure) with why set. */
int ovb_rsv_solve(struct ovb_rsv *m, const struct ovb_rsv_in *in, double *R,
	struct ovb_rsv_stat *st, char *why, size_t whylen);
void ovb_rsv_free(struct ovb_rsv *m);
/* Eq. (2)'s k for desired share D and usage u (percent; D = 0: -5). */
double ovb_rsv_k(double D, double u);
/* One node's cell: lb = floor; ub = max(u, floor) when r > u + 1e-6 (the
 * class left allocation unused: the usage cap, never below the floor),
 * else 100; t = u + k; idle = r > u + 1e-6. */
void ovb_rsv_cell(double D, double u, double r, double floor, double *lb,
	double *ub, double *t, bool *idle);
/* Column sums sum_i R[i,j] (s of them) after step 2 of the last solve
 * (after the bank for the bank). */
const double *ovb_rsv_cols2(const struct ovb_rsv *m);

/* ---- formats/worker.c: the words of the ovb-worker protocol ----
 * (formats/worker.md): u64 little-endian, binary64 little-endian.  The
 * magic is 8 bytes "ovb-wrk\n" then the version as a u64.  false / -1:
 * short read or write; get_magic 1: not the magic. */
#define OVB_WIRE_MAGIC "ovb-wrk\n"
#define OVB_WIRE_VERSION 2
bool ovb_wire_put_u64(FILE *f, uint64_t v);
bool ovb_wire_get_u64(FILE *f, uint64_t *v);
bool ovb_wire_put_f64(FILE *f, const double *v, size_t n);
bool ovb_wire_get_f64(FILE *f, double *v, size_t n);
bool ovb_wire_put_magic(FILE *f);
int ovb_wire_get_magic(FILE *f, uint64_t *version);

/* ---- lib/table.c: tables written as text, TSV or HTML ----
 *
 * A table of columns (where each appears, how pages show it) and rows of
 * cells, each cell two malloc'd texts owned by the table: for terminals
 * and pages, and the exact TSV text. */
enum {
	OVB_TC_TEXT = 1,          /* text tables and pages */
	OVB_TC_TSV = 2,           /* TSV tables */
	OVB_TC_BOTH = 3,
	OVB_TC_NUM = 4,           /* a number: right-aligned */
	OVB_TC_WRAP = 8,          /* long text: pages may wrap it */
	OVB_TC_LIST = 16,         /* a comma-separated list: pages may break
	                             after a comma */
	OVB_TC_CHECK = 32,        /* "ok" or what is violated: pages colour it */
};
#define OVB_TABLE_MAXCOL (24 + OVB_MAXPCT * 2)
struct ovb_tcol {
	const char *head, *tsv;   /* titles in text and TSV tables */
	const char *html;         /* the title in pages (HTML), or NULL: head */
	unsigned flags;
};
struct ovb_table {
	int id;                   /* the caller's */
	const char *title, *note;
	size_t ncol, nrow, caprow, ncell, capcell;
	struct ovb_tcol col[OVB_TABLE_MAXCOL];
	char **cell;              /* 2 per column and row: text, TSV */
	bool *bad;                /* a row that fails a check */
	char **kept;              /* texts the table keeps (ovb_table_keep) */
	size_t nkept, capkept;
};
void ovb_table_col(struct ovb_table *t, const char *head, const char *tsv,
	unsigned flags);
void ovb_table_cols(struct ovb_table *t, const struct ovb_tcol *c, size_t n);
#define OVB_TABLE_COLS(t, a) ovb_table_cols(t, a, sizeof a / sizeof *a)
/* A new row, failing a check (bad) or not; then one ovb_table_put per
 * column: the text, and the exact TSV text (NULL: the same). */
void ovb_table_row(struct ovb_table *t, bool bad);
void ovb_table_put(struct ovb_table *t, char *text, char *tsv);
const char *ovb_table_cell(const struct ovb_table *t, size_t row, size_t col,
	bool tsv);
/* The table keeps s (malloc'd: a head or note made for it) until
 * ovb_table_free; returns s. */
const char *ovb_table_keep(struct ovb_table *t, char *s);
void ovb_table_free(struct ovb_table *t);
/* The title, the text columns aligned, "(none)" or the note. */
void ovb_table_text(FILE *f, const struct ovb_table *t);
/* The TSV header and rows. */
void ovb_table_tsv(FILE *f, const struct ovb_table *t);
/* An HTML table (cells escaped by ovb_plot_html), then "None." or the
 * note. */
void ovb_table_html(FILE *f, const struct ovb_table *t);

/* ---- lib/plot.c: plots drawn by gnuplot ----
 *
 * Each ovb_plot_KIND writes one whole gnuplot script to f, for an SVG
 * terminal or, when png, a PNG one, with its data inline; the same data
 * give the same bytes.  The plots take their data through these types
 * only.  Names in titles and labels are quoted for gnuplot (control
 * characters and backquotes become '?'). */

/* One capsule and resource: its U (pdf, cdf) and rho(sigma) (curve). */
struct ovb_plot_capsule {
	const char *capsule;
	enum ovb_res res;
	double interval;            /* measurement interval I [s] */
	double width;               /* bin width w [rate unit] */
	uint64_t n;                 /* intervals: the sum of the counts */
	size_t nbins;               /* bin 0: usage 0; bin k: ((k-1)w, kw] */
	const uint64_t *count;
	bool has_mean;
	double mean;                /* [rate unit] */
	int npct;
	const double *pct_p, *pct_v;/* percentiles [0,100], their values */
	bool has_qos;               /* the chosen point (profiles): */
	double sigma, rho, O;       /* rate [rate unit], burst [amount unit] */
	size_t npt;                 /* rho(sigma): breakpoints, sigma */
	const struct ovb_pt *pt;    /* increasing; the curve needs npt >= 1 */
};
void ovb_plot_pdf(FILE *f, bool png, const struct ovb_plot_capsule *c);
void ovb_plot_cdf(FILE *f, bool png, const struct ovb_plot_capsule *c);
void ovb_plot_curve(FILE *f, bool png, const struct ovb_plot_capsule *c);

/* A node's aggregate usage Y of one resource against its capacity. */
struct ovb_plot_node {
	const char *node;
	enum ovb_res res;
	size_t ncapsules;
	double cap, load;           /* C and the Eq. 1 load [rate unit] */
	double omin, pr;            /* O_min (with capsules), Pr(Y > C) */
	bool pr_from_plan;          /* pr is the plan's risk record */
	bool eq1, eq3;              /* Eq. 1 and Eq. 3 hold */
	const struct ovb_pmf *y;    /* Y on its grid; NULL: plain */
	double plain;               /* reservations only, summing to plain */
};
void ovb_plot_node(FILE *f, bool png, const struct ovb_plot_node *n);

/* A node's test per window of the day (ovb-report --mode tod): in each
 * slot (24 day type + hour, OVB_TOD_SLOTS) whether every capsule is
 * measured there and, where so, the Eq. 1 load and Pr(Y > C). */
struct ovb_plot_windows {
	const char *node;
	enum ovb_res res;
	size_t ncapsules;
	double cap, omin;           /* C [rate unit] and O_min */
	const char *clock;          /* the hours' clock ("UTC+02:00") */
	const bool *measured;       /* [OVB_TOD_SLOTS] */
	const double *load, *pr;    /* [OVB_TOD_SLOTS], where measured */
};
void ovb_plot_windows(FILE *f, bool png, const struct ovb_plot_windows *w);

/* Reserved (the Eq. 1 load) against capacity, a panel per resource (cpu,
 * net), the bars of each in the order of v. */
struct ovb_plot_load {
	const char *node;
	enum ovb_res res;
	double cap, load;           /* [rate unit] */
	bool over;                  /* Eq. 1 violated */
};
void ovb_plot_cluster(FILE *f, bool png, const struct ovb_plot_load *v,
	size_t n, size_t nnodes);

/* A capacity experiment (Fig. 7): applications placed against O, a line
 * per cluster size; v sorted by nodes, then O. */
struct ovb_plot_gain {
	uint64_t nodes;
	double O;                   /* overbooking tolerance */
	size_t runs;
	double mean, ci;            /* placed: mean, 95% half-width (0: 1 run) */
	double gain;                /* mean / the mean at O = 0, or NAN */
};
void ovb_plot_gain(FILE *f, bool png, const struct ovb_plot_gain *v,
	size_t n);

/* A trading replay over time: per day the mean lent and the node-
 * intervals above capacity, a line per replay (ovb_trade_months' days). */
struct ovb_plot_trade {
	const char *label, *unit;
	const struct ovb_trade_day *days;
	size_t ndays;
};
void ovb_plot_trade(FILE *f, bool png, const struct ovb_plot_trade *v,
	size_t n);
/* An ovb-fit answer: copies that fit, or nodes needed, against O. */
void ovb_plot_fit(FILE *f, bool png, const struct ovb_fit *fit);

/* A backtest (ovb-backtest): the share of node-period promises held
 * against density, a point per configuration, methods told apart by point
 * type, colour and the key; the 95% line; the points on the Pareto front
 * (no other point of the plot holds at least as large a share and packs at
 * least as densely, one of the two strictly) ringed and joined. */
struct ovb_plot_btpoint {
	const char *id, *method;    /* the configuration, its method */
	double x;                   /* density [xunit] */
	double held;                /* held / (held + broken), in [0, 1] */
	bool front;                 /* on the Pareto front of the plot */
};
struct ovb_plot_bt {
	const char *title;
	bool vs_peak;               /* x: density over peak's; else VMs/node */
	size_t n;
	const struct ovb_plot_btpoint *p;
};
void ovb_plot_backtest(FILE *f, bool png, const struct ovb_plot_bt *b);

/* Usage over time of one capsule and resource: the usage in each
 * measurement interval (lib/measure.c's samples, in time order).  At most
 * OVB_PLOT_MAXPTS boxes are drawn: the span from the first interval's
 * start to the last one's end is cut into slots of I, the slots into
 * buckets of per = ovb_plot_usage_per(slots) from the first, and each
 * bucket with an interval is a box over the bucket as high as its largest
 * usage (a bucket without one is left blank).  sigma and the p99 of U,
 * when known, are horizontal lines named in the key. */
#define OVB_PLOT_MAXPTS 2000
struct ovb_plot_usage {
	const char *capsule;
	enum ovb_res res;
	double interval;            /* I [s] */
	bool epoch;                 /* t: s since the epoch (dates, UTC); else
	                               trace ns, drawn as s from t0 */
	uint64_t t0, step;          /* trace start [ns]; I in t's unit */
	size_t n;                   /* intervals */
	const uint64_t *t;          /* their starts, increasing */
	const double *v;            /* their usage [rate unit] */
	bool has_sigma, has_p99;
	double sigma, p99;          /* [rate unit] */
};
size_t ovb_plot_usage_per(size_t slots);
/* The boxes drawn, and per. */
size_t ovb_plot_usage_points(const struct ovb_plot_usage *u, size_t *per);
void ovb_plot_usage(FILE *f, bool png, const struct ovb_plot_usage *u);

/* Runs gnuplot ($OVB_GNUPLOT, else "gnuplot"; no shell, no init files) on
 * script with its output to outfd: 0, or OVB_EUNAVAIL (gnuplot missing or
 * failed, reported with its message) or OVB_ESOFT. */
int ovb_plot_run(const char *script, size_t len, int outfd);
/* ovb_plot_run with the output in *out (malloc'd, NUL-terminated, *n
 * bytes): 0, or its status, or OVB_EIO (no temporary file), OVB_EUNAVAIL
 * (no output). */
int ovb_plot_capture(const char *script, size_t len, char **out, size_t *n);
/* ovb_plot_capture of n scripts by one gnuplot (its start is most of a
 * small plot's time): each script's output in out[i] (malloc'd,
 * NUL-terminated, outlen[i] bytes), the session reset between scripts;
 * the combined script marks each one with a line "# ovb figure I".  0, or
 * a status with nothing kept (run them one by one for the message). */
int ovb_plot_capture_all(char *const *script, const size_t *len, size_t n,
	char **out, size_t *outlen);
/* Writes gnuplot's SVG (svg[0..len)) into an HTML page: from "<svg" on,
 * every id it defines prefixed "fFIG-" (several SVGs share one document),
 * its <title> made title. */
void ovb_plot_embed(FILE *f, const char *svg, size_t len, int fig,
	const char *title);
/* s as HTML text (& < > " ' escaped). */
void ovb_plot_html(FILE *f, const char *s);
/* v to 4 significant digits with its unit ("1.44 cpu"); B and B/s take
 * decimal k, M, G, T prefixes; unit NULL: the number alone.  malloc'd. */
char *ovb_plot_qty(double v, const char *unit);
/* reserved/capacity in percent, "85.0%" (tiny: "1e-303%", huge:
 * "1e+312%", never inf): malloc'd. */
char *ovb_plot_used(double load, double cap);

#endif
