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
		return 0;
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
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], on_signal);
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

/* A write error on stdout is reported once, by whichever of
 * ovb_out_close and ovb_fshut_stdout sees it first. */
static bool stdout_reported;

int
ovb_out_close(struct ovb_out *o, bool ok)
{
	int st = 0;
	if (!o->path) {
		if (ok && (fflush(stdout) == EOF || ferror(stdout))) {
			ovb_warn("<stdout>: write error: %s", strerror(errno));
			stdout_reported = true;
			st = OVB_EIO;
		}
		return st;
	}
	if (!o->tmp) {   /* written in place: a device or a pipe */
		bool bad = fflush(o->f) == EOF || ferror(o->f);
		int e = errno;
		if (fclose(o->f) == EOF)
			bad = true, e = errno;
		if (ok && bad) {
			ovb_warn("%s: write error: %s", o->path, strerror(e));
			st = OVB_EIO;
		}
		free(o->path);
		memset(o, 0, sizeof *o);
		return st;
	}
	if (o->f) {
		bool bad = fflush(o->f) == EOF || ferror(o->f);
		int e = errno;
		if (fclose(o->f) == EOF && !bad) {
			bad = true;
			e = errno;
		}
		if (ok && bad) {
			ovb_warn("%s: write error: %s", o->path, strerror(e));
			st = OVB_EIO;
			ok = false;
		}
	}
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
ovb_fshut_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout) || fclose(stdout) == EOF) {
		if (!stdout_reported)
			ovb_warn("<stdout>: write error: %s", strerror(errno));
		stdout_reported = true;
		return OVB_EIO;
	}
	return 0;
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
