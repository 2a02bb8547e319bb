/* comments.c: the comments of a file carried into its canonical form.
 *
 * A reader skips comments; ovb-fmt gives them back.  A comment-only line
 * belongs to the record that follows it, a comment after a record's
 * fields to that record, and the comments after the last record to the
 * end of the file (formats/README.md, "Canonical form").  A record of the
 * input is found in the canonical text by its fields with numbers written
 * canonically; failing that, by the line sharing the most leading fields
 * (a writer may add defaults or rewrite a Sharc RSL record), nearest after
 * the last record found; failing that (a Sharc RSL record), the line at
 * the same relative position among the records.  The comment lines a writer emits itself (the syntax lines) are
 * the writer's: an input comment equal to one is dropped, not doubled.
 *
 * Invariant: keeping the comments of the result again gives the same
 * text (fuzz/fuzz-format.c checks it for every format). */
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

struct line {
	const char *s;
	size_t n;
};

/* A text split into lines (without their LF). */
static struct line *
lines_of(const char *t, size_t len, size_t *nl)
{
	size_t cap = 16, n = 0;
	struct line *l = ovb_xcalloc(cap, sizeof *l);
	for (size_t i = 0; i < len;) {
		const char *e = memchr(t + i, '\n', len - i);
		size_t k = e ? (size_t)(e - (t + i)) : len - i;
		if (n == cap)
			l = ovb_xrealloc(l, cap *= 2, sizeof *l);
		l[n++] = (struct line){ t + i, k };
		i += k + 1;
	}
	*nl = n;
	return l;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The line without trailing blanks. */
static struct line
trim(struct line l)
{
	while (l.n && blank(l.s[l.n - 1]))
		l.n--;
	return l;
}

/* An input line: its record's fields in normal form (numbers canonical,
 * one space between fields; empty for no record) and its comment (from
 * the '#' that starts a field to the end, trailing blanks off). */
static void
split_line(struct line l, char **key, struct line *com)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = ovb_xmemstream(&buf, &len);
	const char *p = l.s, *end = l.s + l.n;
	bool first = true;
	*com = (struct line){ NULL, 0 };
	while (p < end) {
		while (p < end && blank(*p))
			p++;
		if (p == end)
			break;
		if (*p == '#') {   /* to the end, or a NUL (not in a valid
			             * file, but the text is taken as given) */
			const char *z = memchr(p, '\0', (size_t)(end - p));
			*com = trim((struct line){ p, (size_t)((z ? z : end) - p) });
			break;
		}
		const char *q = p;
		while (q < end && !blank(*q))
			q++;
		char tok[512];   /* a longer number is compared as written */
		size_t k = (size_t)(q - p);
		const char *eq = memchr(p, '=', k);
		size_t pre = eq ? (size_t)(eq - p) + 1 : 0;
		double v;
		fputs(first ? "" : " ", f);
		first = false;
		if (k - pre < sizeof tok) {
			memcpy(tok, p + pre, k - pre);
			tok[k - pre] = '\0';
		} else
			tok[0] = '\0';
		if (tok[0] && ovb_parse_real(tok, &v)) {
			char num[32];
			fwrite(p, 1, pre, f);
			fputs(ovb_fmt_real(num, v), f);
		} else
			fwrite(p, 1, k, f);
		p = q;
	}
	fclose(f);
	*key = buf;
}

/* The number of leading fields a and b (normal form) share. */
static size_t
shared_fields(const char *a, const char *b)
{
	size_t n = 0;
	for (;;) {
		size_t i = 0;
		while (a[i] && a[i] != ' ' && a[i] == b[i])
			i++;
		bool a_end = !a[i] || a[i] == ' ', b_end = !b[i] || b[i] == ' ';
		if (!i || !a_end || !b_end)
			return n;
		n++;
		if (!a[i] || !b[i])
			return n;
		a += i + 1;
		b += i + 1;
	}
}

static bool
is_comment(struct line l)
{
	size_t i = 0;
	while (i < l.n && blank(l.s[i]))
		i++;
	return i < l.n && l.s[i] == '#';
}

static bool
only_blanks(struct line l)
{
	for (size_t i = 0; i < l.n; i++)
		if (!blank(l.s[i]))
			return false;
	return true;
}

/* What is attached to an output line: comment lines before it, one
 * comment after its fields. */
struct att {
	struct line *before;
	size_t nbefore;
	struct line after;
};

static void
attach_before(struct att *a, const struct line *c, size_t n)
{
	if (!n)
		return;
	a->before = ovb_xrealloc(a->before, a->nbefore + n, sizeof *c);
	memcpy(a->before + a->nbefore, c, n * sizeof *c);
	a->nbefore += n;
}

/* Which output record the input record key goes with: an unused one
 * equal to it (the first at or after the first equal one), else the one
 * sharing the most leading fields, nearest at or after pos; SIZE_MAX for
 * none. */
static size_t
find(const char *key, char *const *okey, const struct ovb_names *bykey,
	size_t nrec, bool *used, size_t pos)
{
	size_t best = SIZE_MAX, bestn = 0;
	size_t e = ovb_names_get(bykey, key);
	for (size_t j = e; j != OVB_NONE && j < nrec; j++)
		if (!used[j] && !strcmp(okey[j], key)) {
			used[j] = true;
			return j;
		}
	size_t all = 1;          /* the key's fields: none shares more */
	for (const char *p = key; *p; p++)
		all += *p == ' ';
	for (size_t k = 0; k < nrec && bestn < all; k++) {
		size_t j = (pos + k) % nrec;
		size_t n = shared_fields(key, okey[j]);
		if (n > bestn)
			best = j, bestn = n;
	}
	if (best != SIZE_MAX)
		used[best] = true;
	return best;
}

char *
ovb_keep_comments(const char *in, size_t inlen, const char *canon,
	size_t clen, size_t *outlen)
{
	if (!memchr(in, '#', inlen)) {
		char *copy = ovb_xmalloc(clen + 1);
		memcpy(copy, canon, clen);
		*outlen = clen;
		return copy;
	}
	size_t nin, nout, nrec = 0, ngen = 0;
	struct line *il = lines_of(in, inlen, &nin);
	struct line *ol = lines_of(canon, clen, &nout);
	size_t *rec = ovb_xcalloc(nout + 1, sizeof *rec);  /* record lines */
	size_t *gen = ovb_xcalloc(nout + 1, sizeof *gen);  /* the writer's */
	char **okey = ovb_xcalloc(nout + 1, sizeof *okey);
	struct ovb_names bykey = { 0 };
	for (size_t i = 0; i < nout; i++) {
		if (is_comment(ol[i])) {
			gen[ngen++] = i;
			continue;
		}
		struct line com;
		split_line(ol[i], &okey[nrec], &com);
		ovb_names_add(&bykey, okey[nrec], nrec);   /* the first kept */
		rec[nrec++] = i;
	}
	bool *used = ovb_xcalloc(nrec + 1, sizeof *used);
	struct att *att = ovb_xcalloc(nrec + 1, sizeof *att); /* [nrec]: EOF */
	struct line *pend = ovb_xcalloc(nin + 1, sizeof *pend);
	size_t npend = 0, pos = 0, irec = 0, nirec = 0;
	for (size_t i = 0; i < nin; i++)
		nirec += !is_comment(il[i]) && !only_blanks(il[i]);
	for (size_t i = 0; i < nin; i++) {
		char *key;
		struct line com;
		split_line(il[i], &key, &com);
		bool mine = com.s != NULL;
		for (size_t g = 0; mine && g < ngen; g++)
			if (ol[gen[g]].n == com.n &&
			    !memcmp(ol[gen[g]].s, com.s, com.n))
				mine = false;
		if (!*key) {
			if (mine)
				pend[npend++] = com;
		} else if (npend || mine) {
			size_t j = find(key, okey, &bykey, nrec, used, pos);
			if (j == SIZE_MAX)      /* the same relative position */
				j = nrec * irec / (nirec ? nirec : 1);
			/* the magic stays the first line: what comes before
			 * it goes after it */
			size_t b = j == 0 ? 1 : j;
			attach_before(&att[b < nrec ? b : nrec], pend, npend);
			npend = 0;
			if (mine && j < nrec && !att[j].after.s)
				att[j].after = com;
			else if (mine)
				attach_before(&att[b < nrec ? b : nrec], &com, 1);
			if (j < nrec)
				pos = j + 1;
		}
		irec += *key != '\0';
		free(key);
	}
	attach_before(&att[nrec], pend, npend);
	char *buf = NULL;
	FILE *f = ovb_xmemstream(&buf, outlen);
	for (size_t i = 0, r = 0; i < nout; i++) {
		struct att *a = r < nrec && rec[r] == i ? &att[r++] : NULL;
		struct line after = a ? a->after : (struct line){ NULL, 0 };
		/* a line made too long by its comment: the comment before it
		 * (where it stays when read again) */
		if (after.s && ol[i].n + 1 + after.n + 1 > OVB_MAXLINE) {
			attach_before(a, &after, 1);
			after.s = NULL;
		}
		for (size_t k = 0; a && k < a->nbefore; k++)
			fprintf(f, "%.*s\n", (int)a->before[k].n, a->before[k].s);
		fwrite(ol[i].s, 1, ol[i].n, f);
		if (after.s)
			fprintf(f, " %.*s", (int)after.n, after.s);
		fputc('\n', f);
	}
	for (size_t k = 0; k < att[nrec].nbefore; k++)
		fprintf(f, "%.*s\n", (int)att[nrec].before[k].n,
			att[nrec].before[k].s);
	fclose(f);
	for (size_t r = 0; r <= nrec; r++) {
		free(att[r].before);
		free(okey[r]);
	}
	free(att);
	ovb_names_free(&bykey);
	free(okey);
	free(pend);
	free(used);
	free(gen);
	free(rec);
	free(il);
	free(ol);
	return buf;
}
