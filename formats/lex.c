/* lex.c: records and tokens, strict numbers and names, error messages.
 *
 * Every format is read through ovb_lex: one record per line, tokens split
 * on blanks, '#' at the start of a token comments out the rest of the line,
 * blank and comment-only lines are skipped.  A line with a NUL byte or
 * longer than OVB_MAXLINE is an error, never truncated silently. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

static const char *const res_names[OVB_NRES] = { "cpu", "net", "net-rx",
	"mem" };
static const char *const rate_units[OVB_NRES] = { "cpu", "B/s", "B/s", "B" };
static const char *const amount_units[OVB_NRES] = { "cpu-s", "B", "B",
	"B-s" };

const char *ovb_res_name(enum ovb_res r) { return res_names[r]; }
const char *ovb_res_rate_unit(enum ovb_res r) { return rate_units[r]; }
const char *ovb_res_amount_unit(enum ovb_res r) { return amount_units[r]; }

int
ovb_res_parse(const char *s)
{
	for (int r = 0; r < OVB_NRES; r++)
		if (strcmp(s, res_names[r]) == 0)
			return r;
	return -1;
}

void
ovb_lex_init(struct ovb_lex *lx, FILE *f, const char *name)
{
	memset(lx, 0, sizeof *lx);
	lx->f = f;
	lx->name = name;
}

void
ovb_lex_free(struct ovb_lex *lx)
{
	free(lx->buf);
	lx->buf = NULL;
	lx->cap = 0;
}

void
ovb_lex_unread(struct ovb_lex *lx)
{
	lx->again = true;
}

/* A blank, as strchr(" \t\r\n\v\f", c) was (which also matched the
 * terminating NUL; lines with NUL bytes are refused before splitting). */
static inline bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
		c == '\f' || c == '\0';
}

static int
split(struct ovb_lex *lx, size_t len)
{
	char *p = lx->buf, *end = lx->buf + len;
	lx->ntok = 0;
	while (p < end) {
		/* blanks are spaces and tabs; the CR of a CRLF and the LF end
		 * the line (formats/README.md) */
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
		    *p == '\n'))
			*p++ = '\0';
		if (p == end || *p == '#')
			break;
		if (lx->ntok == OVB_MAXTOK)
			return ovb_err(lx, "more than %d fields", OVB_MAXTOK);
		lx->tok[lx->ntok++] = p;
		while (p < end && !blank(*p))
			p++;
		if (p < end && (*p == '\v' || *p == '\f'))
			return ovb_err(lx, "a %s (\\%c) is not a blank: fields "
				"are separated by spaces and tabs", *p == '\v' ?
				"vertical tab" : "form feed", *p == '\v' ? 'v' : 'f');
	}
	*p = '\0';
	return 0;
}

int
ovb_lex_next(struct ovb_lex *lx)
{
	if (lx->again) {
		lx->again = false;
		return lx->ntok ? 1 : 0;
	}
	lx->ntok = 0;
	while (!lx->eof) {
		errno = 0;
		ssize_t n = getline(&lx->buf, &lx->cap, lx->f);
		if (n < 0) {
			lx->eof = true;
			if (ferror(lx->f)) {
				ovb_warn("%s: read error: %s", lx->name,
					strerror(errno ? errno : EIO));
				return OVB_EIO;
			}
			break;
		}
		lx->line++;
		if (memchr(lx->buf, '\0', (size_t)n))
			return ovb_err(lx, "NUL byte in line: not a text file");
		if ((size_t)n > OVB_MAXLINE)
			return ovb_err(lx, "line longer than %d bytes", OVB_MAXLINE);
		const char *cr = memchr(lx->buf, '\r', (size_t)n);
		if (cr && !(cr == lx->buf + n - 2 && lx->buf[n - 1] == '\n'))
			return ovb_err(lx, "CR not followed by LF: CR-only line "
				"ends are not accepted (convert them to LF)");
		int st = split(lx, (size_t)n);
		if (st)
			return st;
		if (lx->ntok)
			return 1;
	}
	return 0;
}

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

static const char *
digits(const char *p)
{
	const char *q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	return q == p ? NULL : q;
}

/* The fast path: a decimal [-]DIGITS[.DIGITS][(e|E)[+-]DIGITS] (already
 * checked against the grammar) with at most 19 significant digits m and
 * a decimal exponent e10 within ovb_decimal_to_double's range (lib/num.c:
 * |e10| <= 19, or 22 when m < 2^53) is converted exactly, to the double
 * strtod returns, without strtod.  Anything else (more digits, a larger
 * exponent, zero) goes to strtod. */
static bool
fast_decimal(const char *s, double *v)
{
	const char *p = s;
	bool neg = *p == '-';
	uint64_t m = 0;
	int nd = 0, e10 = 0;
	if (neg)
		p++;
	for (; *p >= '0' && *p <= '9'; p++)
		if (m || *p != '0') {
			if (++nd > 19)
				return false;
			m = m * 10 + (uint64_t)(*p - '0');
		}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++) {
			e10--;
			if (m || *p != '0') {
				if (++nd > 19)
					return false;
				m = m * 10 + (uint64_t)(*p - '0');
			}
		}
	if (*p == 'e' || *p == 'E') {
		p++;
		bool eneg = *p == '-';
		if (*p == '+' || *p == '-')
			p++;
		int x = 0;
		for (; *p >= '0' && *p <= '9'; p++) {
			x = x * 10 + (*p - '0');
			if (x > 99)
				return false;
		}
		e10 += eneg ? -x : x;
	}
	if (m == 0 || !ovb_decimal_to_double(m, e10, v))
		return false;
	if (neg)
		*v = -*v;
	return true;
}

bool
ovb_parse_real(const char *s, double *v)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (!(p = digits(p)))
		return false;
	if (*p == '.' && !(p = digits(p + 1)))
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(p = digits(p)))
			return false;
	}
	if (*p)
		return false;
	double x;
	if (fast_decimal(s, &x)) {
		*v = x;
		return true;
	}
	errno = 0;
	x = strtod(s, NULL);
	if (!isfinite(x))
		return false;
	if (x == 0 && errno == ERANGE)
		return false; /* a non-zero value too small to represent */
	*v = x == 0 ? 0 : x; /* no negative zero */
	return true;
}

bool
ovb_parse_u64(const char *s, uint64_t *v)
{
	if (!digits(s) || *digits(s))
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, NULL, 10);
	if (errno == ERANGE)
		return false;
	*v = x;
	return true;
}

bool
ovb_valid_name(const char *s)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789_";
	size_t n = strlen(s);
	if (n == 0 || n > OVB_MAXNAME || !strchr(alnum, s[0]))
		return false;
	for (const char *p = s; *p; p++)
		if (!strchr(alnum, *p) && !strchr(".:+@/-", *p))
			return false;
	return true;
}

int
ovb_arity(const struct ovb_lex *lx, int min, int max, const char *syntax)
{
	if (lx->ntok < min || (max >= 0 && lx->ntok > max))
		return ovb_err(lx, "%s: expected '%s'", lx->tok[0], syntax);
	return 0;
}

int
ovb_tok_real(const struct ovb_lex *lx, int i, const char *what, double *v)
{
	if (!ovb_parse_real(lx->tok[i], v))
		return ovb_err(lx, "%s: '%s' is not a finite decimal number",
			what, lx->tok[i]);
	return 0;
}

int
ovb_tok_nonneg(const struct ovb_lex *lx, int i, const char *what, double *v)
{
	int st = ovb_tok_real(lx, i, what, v);
	if (!st && *v < 0)
		return ovb_err(lx, "%s: %s is negative", what, lx->tok[i]);
	return st;
}

int
ovb_tok_pos(const struct ovb_lex *lx, int i, const char *what, double *v)
{
	int st = ovb_tok_real(lx, i, what, v);
	if (!st && *v <= 0)
		return ovb_err(lx, "%s: %s must be greater than 0", what,
			lx->tok[i]);
	return st;
}

int
ovb_tok_prob(const struct ovb_lex *lx, int i, const char *what, double *v)
{
	int st = ovb_tok_real(lx, i, what, v);
	if (!st && (*v < 0 || *v > 1))
		return ovb_err(lx, "%s: %s is not a probability in [0,1]",
			what, lx->tok[i]);
	return st;
}

int
ovb_tok_u64(const struct ovb_lex *lx, int i, const char *what, uint64_t *v)
{
	if (!ovb_parse_u64(lx->tok[i], v))
		return ovb_err(lx, "%s: '%s' is not an unsigned integer", what,
			lx->tok[i]);
	return 0;
}

int
ovb_tok_name(const struct ovb_lex *lx, int i, const char *what)
{
	if (!ovb_valid_name(lx->tok[i]))
		return ovb_err(lx, "%s: '%s' is not a valid name "
			"([A-Za-z0-9_][A-Za-z0-9_.:+@/-]*, at most %d bytes)",
			what, lx->tok[i], OVB_MAXNAME);
	return 0;
}

int
ovb_tok_unit(const struct ovb_lex *lx, int i, const char *unit)
{
	if (i >= lx->ntok)
		return ovb_err(lx, "%s: missing unit '%s'", lx->tok[0], unit);
	if (strcmp(lx->tok[i], unit) != 0)
		return ovb_err(lx, "%s: unit '%s', expected '%s'", lx->tok[0],
			lx->tok[i], unit);
	return 0;
}

int
ovb_quantity(const struct ovb_lex *lx, enum ovb_range range, const char *what,
	double *v, const char *unit)
{
	char syntax[96];
	snprintf(syntax, sizeof syntax, "%s VALUE%s%s", lx->tok[0],
		unit ? " " : "", unit ? unit : "");
	int n = unit ? 3 : 2, st = ovb_arity(lx, n, n, syntax);
	if (st)
		return st;
	switch (range) {
	case OVB_ANY: st = ovb_tok_real(lx, 1, what, v); break;
	case OVB_NONNEG: st = ovb_tok_nonneg(lx, 1, what, v); break;
	case OVB_POS: st = ovb_tok_pos(lx, 1, what, v); break;
	case OVB_PROB: st = ovb_tok_prob(lx, 1, what, v); break;
	}
	return st ? st : unit ? ovb_tok_unit(lx, 2, unit) : 0;
}

bool
ovb_kv(char *tok, char **key, char **val)
{
	char *eq = strchr(tok, '=');
	if (!eq || eq == tok)
		return false;
	*eq = '\0';
	*key = tok;
	*val = eq + 1;
	return true;
}
