/* io.c: inputs, outputs that appear whole or not at all, progress.
 *
 * Invariant: a named output file either keeps its old contents or gets the
 * complete new ones (a device or a pipe named by -o is written in place); the data goes to a temporary file in the same
 * directory which is renamed over the target only after a successful flush
 * and close.  The temporary is removed on failure, on exit and on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ovb.h"

int
ovb_open_in(const char *path, FILE **f, const char **name)
{
	if (!path || strcmp(path, "-") == 0) {
		*f = stdin;
		*name = "<stdin>";
		return ovb_stdin_tty();
	}
	*name = path;
	*f = fopen(path, "r");
	if (!*f) {
		ovb_warn("%s: cannot open: %s", path, strerror(errno));
		return OVB_ENOINPUT;
	}
	struct stat st;
	if (fstat(fileno(*f), &st) == 0 && S_ISDIR(st.st_mode)) {
		ovb_warn("%s: cannot open: Is a directory", path);
		fclose(*f);
		return OVB_ENOINPUT;
	}
	return 0;
}

void
ovb_close_in(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

static char *pending_tmp; /* the temporary file being written, if any */

static void
unlink_pending(void)
{
	if (pending_tmp)
		unlink(pending_tmp);
}

static void
on_signal(int sig)
{
	unlink_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
guard_tmp(char *tmp)
{
	static bool installed;
	pending_tmp = tmp;
	if (installed)
		return;
	installed = true;
	atexit(unlink_pending);
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		/* a signal the caller ignores stays ignored: with SIGPIPE
		 * ignored (trap '' PIPE) a closed pipe is EPIPE, reported by
		 * ovb_stream_close, never a death by the signal */
		struct sigaction old;
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		signal(sigs[i], on_signal);
	}
}

int
ovb_out_open(struct ovb_out *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	o->path = ovb_xstrdup(path);
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a device or a pipe (-o /dev/null, -o /dev/stdout): write to it,
		 * never rename a file over it */
		if (!(o->f = fopen(path, "w"))) {
			ovb_warn("%s: cannot open: %s", path, strerror(errno));
			free(o->path);
			o->path = NULL;
			return OVB_EIO;
		}
		return 0;
	}
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	o->tmp = ovb_xmalloc(strlen(path) + 16);
	sprintf(o->tmp, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		ovb_warn("%s: cannot create: %s", path, strerror(errno));
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return OVB_EIO;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	guard_tmp(o->tmp);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		ovb_warn("%s: cannot create: %s", path, strerror(errno));
		close(fd);
		ovb_out_close(o, false);
		return OVB_EIO;
	}
	return 0;
}

/* ---- the one finish of every output stream ----
 *
 * Every output a tool or a worker process writes (its -o file or stdout,
 * a worker's pipe, a plot) ends in ovb_stream_close, and every write error
 * (a full device, EPIPE from a closed pipe when SIGPIPE is ignored, an
 * I/O error) is reported by ovb_write_error: once per stream, as
 * "PROG: NAME: write error: REASON", exit status OVB_EIO (74). */
#define MAXREPORTED 16
static const FILE *reported[MAXREPORTED];
static size_t nreported;

static bool
was_reported(const FILE *f)
{
	for (size_t i = 0; i < nreported; i++)
		if (reported[i] == f)
			return true;
	return false;
}

int
ovb_write_error(FILE *f, const char *name, int err)
{
	if (was_reported(f))
		return OVB_EIO;
	if (nreported < MAXREPORTED)
		reported[nreported++] = f;
	ovb_warn("%s: write error: %s", name, strerror(err ? err : EIO));
	return OVB_EIO;
}

/* errno is not cleared first: when an earlier fwrite failed (its error
 * flag set, nothing left to flush) errno still holds its reason */
int
ovb_stream_check(FILE *f, const char *name)
{
	if (fflush(f) == EOF || ferror(f))
		return ovb_write_error(f, name, errno);
	return 0;
}

int
ovb_stream_close(FILE *f, const char *name, bool report)
{
	bool bad = fflush(f) == EOF || ferror(f);
	int e = errno;
	if (fclose(f) == EOF && !bad)
		bad = true, e = errno;
	if (!bad)
		return 0;
	if (!report)
		return OVB_EIO;
	int st = ovb_write_error(f, name, e);
	/* the FILE is gone: its address may name the next stream */
	for (size_t i = 0; i < nreported; i++)
		if (reported[i] == f && f != stdout)
			reported[i] = reported[--nreported];
	return st;
}

int
ovb_out_close(struct ovb_out *o, bool ok)
{
	int st = 0;
	if (!o->path) {   /* stdout: checked here, closed by ovb_fshut_stdout */
		if (ok)
			st = ovb_stream_check(stdout, "<stdout>");
		return st;
	}
	if (!o->tmp) {   /* written in place: a device or a pipe */
		st = ovb_stream_close(o->f, o->path, ok);
		free(o->path);
		memset(o, 0, sizeof *o);
		return ok ? st : 0;
	}
	if (o->f && ovb_stream_close(o->f, o->path, ok) && ok)
		st = OVB_EIO, ok = false;
	if (ok && rename(o->tmp, o->path) != 0) {
		ovb_warn("%s: cannot rename into place: %s", o->path,
			strerror(errno));
		st = OVB_EIO;
		ok = false;
	}
	if (!ok)
		unlink(o->tmp);
	pending_tmp = NULL;
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
	return st;
}

int
ovb_out_end(struct ovb_out *o, int status)
{
	bool named = o->path != NULL;
	/* a write that failed on the way (a writer gave up with OVB_EIO):
	 * reported here, once, with errno's reason */
	if (status == OVB_EIO && o->f && ferror(o->f))
		ovb_write_error(o->f, named ? o->path : "<stdout>", errno);
	/* a check that failed (1) still wrote its whole report */
	int st = ovb_out_close(o, status == 0 || status == OVB_FAIL);
	if (st > status)
		status = st;
	if (!named && (st = ovb_fshut_stdout()) > status)
		status = st;
	return status;
}

int
ovb_fshut_stdout(void)
{
	static bool closed;
	if (closed)
		return was_reported(stdout) ? OVB_EIO : 0;
	closed = true;
	return ovb_stream_close(stdout, "<stdout>", true);
}

bool
ovb_progress_wanted(void)
{
	return !ovb_quiet && isatty(STDERR_FILENO);
}

static double progress_start, progress_last;
static bool progress_shown;

void
ovb_progress(const char *what, double done, double total)
{
	if (!ovb_progress_wanted())
		return;
	double t = ovb_now();
	if (progress_start == 0)
		progress_start = t;
	/* only for work that has taken a second, at most 10 updates a second */
	if (t - progress_start < 1 || t - progress_last < 0.1)
		return;
	progress_last = t;
	progress_shown = true;
	if (total > 0)
		fprintf(stderr, "\r%s: %s: %5.1f%%", program_invocation_short_name,
			what, 100 * done / total);
	else
		fprintf(stderr, "\r%s: %s: %.0f", program_invocation_short_name,
			what, done);
}

void
ovb_progress_end(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
	progress_start = progress_last = 0;
}

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

void
ovb_select_free(struct ovb_select *sel)
{
	for (size_t i = 0; i < sel->nseen; i++) {
		free(sel->name[i]);
		free(sel->owner[i]);
	}
	ovb_names_free(&sel->seen);
	ovb_names_free(&sel->caps);
	free(sel->name);
	free(sel->owner);
	free(sel->found);
	free(sel->cap);
	memset(sel, 0, sizeof *sel);
}

int
ovb_out_buffer(const char *buf, size_t len, int status)
{
	if (status && status != OVB_FAIL)
		return status;
	struct ovb_out out;
	int st = ovb_out_open(&out, ovb_opt_output);
	if (!st) {
		fwrite(buf, 1, len, out.f);
		st = ovb_out_end(&out, 0);
	}
	return st ? st : status;
}
