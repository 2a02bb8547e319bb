/* lex.c: records and tokens, token checks, the magic record.
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

/* ---- the magic record ---- */

#define OVB_FORMAT_VERSION 1

/* The formats' names, from the registry's list: the magic record knows
 * them without the registry (which needs every reader, and every reader
 * this). */
#define NAME(n, T) #n,
static const char *const format_names[] = { OVB_FORMAT_LIST(NAME) };

static bool
format_known(const char *name)
{
	for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
		if (strcmp(format_names[i], name) == 0)
			return true;
	return false;
}

int
ovb_magic(struct ovb_lex *lx, const char *name)
{
	int st = ovb_lex_next(lx);
	if (st != 1)
		return st ? st : ovb_err(lx, "empty input: expected 'ovb-%s %d'",
			name, OVB_FORMAT_VERSION);
	const char *t = lx->tok[0];
	if (strncmp(t, "ovb-", 4) != 0 || strcmp(t + 4, name) != 0) {
		if (strncmp(t, "ovb-", 4) == 0 && format_known(t + 4))
			return ovb_err(lx, "this is an %s file; expected ovb-%s",
				t, name);
		return ovb_err(lx, "not an ovb-%s file: first record is '%s'",
			name, t);
	}
	uint64_t v;
	if (lx->ntok != 2 || !ovb_parse_u64(lx->tok[1], &v) ||
	    (lx->tok[1][0] == '0' && lx->tok[1][1]))   /* "01" is not "1" */
		return ovb_err(lx, "magic record: expected 'ovb-%s %d'", name,
			OVB_FORMAT_VERSION);
	if (v != OVB_FORMAT_VERSION)
		return ovb_err(lx, "ovb-%s version %s is not supported (this "
			"build reads version %d)", name, lx->tok[1],
			OVB_FORMAT_VERSION);
	return 0;
}

void
ovb_put_magic(FILE *f, const char *name)
{
	fprintf(f, "ovb-%s %d\n", name, OVB_FORMAT_VERSION);
}
