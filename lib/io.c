/* io.c: inputs, outputs that appear whole or not at all, progress.
 *
 * Invariant: a named output file either keeps its old contents or gets the
 * complete new ones (a device or a pipe named by -o is written in place); the data goes to a temporary file in the same
 * directory which is renamed over the target only after a successful flush
 * and close.  The temporary is removed on failure, on exit and on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE.  Standard output made whole (ovb_out_whole)
 * keeps nothing of a run that failed: a regular file is cut back, a pipe
 * gets the text from an unlinked spool only at a successful end. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio_ext.h>
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

int
ovb_out_whole(struct ovb_out *o)
{
	if (o->path)
		return 0;
	o->whole = true;
	o->start = -1;
	struct stat st, null;
	if (fstat(STDOUT_FILENO, &st) == 0) {
		if (S_ISCHR(st.st_mode) && stat("/dev/null", &null) == 0 &&
		    S_ISCHR(null.st_mode) && st.st_rdev == null.st_rdev)
			o->start = 0;
		else if (S_ISREG(st.st_mode)) {
			int fl = fcntl(STDOUT_FILENO, F_GETFL);
			if (fl >= 0)
				o->start = fl & O_APPEND ? st.st_size :
					lseek(STDOUT_FILENO, 0, SEEK_CUR);
		}
		if (o->start >= 0)
			return 0;
	}
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	o->spname = ovb_xmalloc(strlen(dir) + 32);
	sprintf(o->spname, "%s/%s.XXXXXX", dir, program_invocation_short_name);
	int fd = mkostemp(o->spname, O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w+");
	if (f) {
		unlink(o->spname);
		o->f = f;
		return 0;
	}
	int e = errno;
	if (fd >= 0) {
		unlink(o->spname);
		close(fd);
	}
	ovb_warn("%s: cannot create a temporary file for the output: %s",
		o->spname, strerror(e));
	free(o->spname);
	o->spname = NULL;
	o->whole = false;
	return OVB_EIO;
}

/* stdout made whole, at its end: the spool copied out when ok, or a
 * regular file cut back when not; 0 or OVB_EIO (reported) */
static int
whole_end(struct ovb_out *o, bool ok)
{
	int st = 0;
	if (o->start >= 0) {
		if (ok)
			return ovb_stream_check(stdout, "<stdout>");
		__fpurge(stdout);
		struct stat sb;
		if (fstat(STDOUT_FILENO, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    ftruncate(STDOUT_FILENO, o->start) == 0)
			lseek(STDOUT_FILENO, o->start, SEEK_SET);
		return 0;
	}
	FILE *sp = o->f;
	if (ok && (fflush(sp) || ferror(sp) || fseek(sp, 0, SEEK_SET)))
		st = ovb_write_error(sp, o->spname, errno);
	if (ok && !st) {
		char *buf = ovb_xmalloc(1 << 16);
		size_t n;
		while ((n = fread(buf, 1, 1 << 16, sp)) > 0)
			if (fwrite(buf, 1, n, stdout) != n)
				break;
		free(buf);
		if (ferror(sp)) {
			ovb_warn("%s: read error: %s", o->spname,
				strerror(errno));
			st = OVB_EIO;
		} else
			st = ovb_stream_check(stdout, "<stdout>");
	}
	fclose(sp);
	o->f = stdout;
	free(o->spname);
	o->spname = NULL;
	return st;
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
		if (o->whole)
			return whole_end(o, ok);
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
		ovb_write_error(o->f, named ? o->path : o->spname ? o->spname :
			"<stdout>", errno);
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
