/* diag.c: the diagnostics every part reports through.
 *
 * "PROG: FILE:LINE: MESSAGE", "PROG: FILE: MESSAGE" or "PROG: MESSAGE" on
 * stderr (or where ovb_set_errout points them), stdout flushed first so
 * that the message follows the data written before it. */
#include <errno.h>     /* program_invocation_short_name */
#include <stdarg.h>

#include "ovb.h"

static _Thread_local FILE *errout;    /* NULL: stderr; one per thread */

void
ovb_set_errout(FILE *f)
{
	errout = f;
}

void
ovb_errout_write(const char *text, size_t len)
{
	FILE *e = errout ? errout : stderr;
	fflush(stdout);
	fwrite(text, 1, len, e);
}

static void vreport(const char *file, unsigned long line, const char *fmt,
	va_list ap) __attribute__((format(printf, 3, 0)));

static void
vreport(const char *file, unsigned long line, const char *fmt, va_list ap)
{
	FILE *e = errout ? errout : stderr;
	fflush(stdout);
	fprintf(e, "%s: ", program_invocation_short_name);
	if (file && line)
		fprintf(e, "%s:%lu: ", file, line);
	else if (file)
		fprintf(e, "%s: ", file);
	vfprintf(e, fmt, ap);
	fputc('\n', e);
}

int
ovb_err(const struct ovb_lex *lx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(lx->name, lx->line, fmt, ap);
	va_end(ap);
	return OVB_EDATA;
}

int
ovb_err_at(const char *file, unsigned long line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(file, line, fmt, ap);
	va_end(ap);
	return OVB_EDATA;
}

void
ovb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(NULL, 0, fmt, ap);
	va_end(ap);
}
