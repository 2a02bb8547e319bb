/* table.c: a table of text cells written as aligned text, TSV or an HTML
 * table (ovb-report's tables).  Each cell has two texts: one for
 * terminals and pages (rounded, with units) and the exact one for TSV;
 * each column says where it appears (text and pages, TSV, both) and how
 * pages show it (a number right-aligned, long text wrapped, a list broken
 * after its commas, a check coloured).
 *
 * Invariants: a table owns its cells and the texts it keeps (malloc'd by
 * the caller, freed by ovb_table_free); rows are filled left to right,
 * one cell per column; the writers change nothing, and TSV cells are
 * written as given. */
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

void
ovb_table_col(struct ovb_table *t, const char *head, const char *tsv,
	unsigned flags)
{
	t->col[t->ncol++] = (struct ovb_tcol){ head, tsv, NULL, flags };
}

void
ovb_table_cols(struct ovb_table *t, const struct ovb_tcol *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		t->col[t->ncol++] = c[i];
}

void
ovb_table_row(struct ovb_table *t, bool bad)
{
	t->bad = ovb_xrealloc(t->bad, t->nrow + 1, sizeof *t->bad);
	t->bad[t->nrow++] = bad;
}

void
ovb_table_put(struct ovb_table *t, char *text, char *tsv)
{
	*OVB_PUSH(t->cell, t->ncell, t->capcell) = text;
	*OVB_PUSH(t->cell, t->ncell, t->capcell) = tsv ? tsv : ovb_xstrdup(text);
}

const char *
ovb_table_cell(const struct ovb_table *t, size_t row, size_t col, bool tsv)
{
	return t->cell[2 * (row * t->ncol + col) + tsv];
}

const char *
ovb_table_keep(struct ovb_table *t, char *s)
{
	*OVB_PUSH(t->kept, t->nkept, t->capkept) = s;
	return s;
}

void
ovb_table_free(struct ovb_table *t)
{
	for (size_t i = 0; i < t->ncell; i++)
		free(t->cell[i]);
	free(t->cell);
	free(t->bad);
	for (size_t i = 0; i < t->nkept; i++)
		free(t->kept[i]);
	free(t->kept);
}

void
ovb_table_text(FILE *f, const struct ovb_table *t)
{
	size_t w[OVB_TABLE_MAXCOL] = { 0 };
	for (size_t c = 0; c < t->ncol; c++) {
		if (!(t->col[c].flags & OVB_TC_TEXT))
			continue;
		w[c] = strlen(t->col[c].head);
		for (size_t r = 0; r < t->nrow; r++) {
			size_t n = strlen(ovb_table_cell(t, r, c, false));
			w[c] = n > w[c] ? n : w[c];
		}
	}
	size_t last = 0;
	for (size_t c = 0; c < t->ncol; c++)
		if (t->col[c].flags & OVB_TC_TEXT)
			last = c;
	fprintf(f, "%s\n", t->title);
	for (size_t r = 0; r <= t->nrow; r++) {
		bool sep = false;
		for (size_t c = 0; c < t->ncol; c++) {
			if (!(t->col[c].flags & OVB_TC_TEXT))
				continue;
			const char *s = r ? ovb_table_cell(t, r - 1, c, false) :
				t->col[c].head;
			int pad = (int)w[c];
			if (sep)
				fputs("  ", f);
			sep = true;
			if (t->col[c].flags & OVB_TC_NUM)
				fprintf(f, "%*s", pad, s);
			else if (c == last)
				fputs(s, f);
			else
				fprintf(f, "%-*s", pad, s);
		}
		fputc('\n', f);
	}
	if (!t->nrow)
		fputs("(none)\n", f);
	if (t->note && t->nrow)
		fprintf(f, "(%s)\n", t->note);
}

void
ovb_table_tsv(FILE *f, const struct ovb_table *t)
{
	for (size_t r = 0; r <= t->nrow; r++) {
		bool sep = false;
		for (size_t c = 0; c < t->ncol; c++) {
			if (!(t->col[c].flags & OVB_TC_TSV))
				continue;
			if (sep)
				fputc('\t', f);
			sep = true;
			fputs(r ? ovb_table_cell(t, r - 1, c, true) : t->col[c].tsv, f);
		}
		fputc('\n', f);
	}
}

void
ovb_table_html(FILE *f, const struct ovb_table *t)
{
	fputs("<div class=\"wrap\"><table>\n<thead><tr>", f);
	for (size_t c = 0; c < t->ncol; c++) {
		if (!(t->col[c].flags & OVB_TC_TEXT))
			continue;
		fputs(t->col[c].flags & OVB_TC_NUM ? "<th class=\"n\">" : "<th>", f);
		ovb_plot_html(f, t->col[c].html ? t->col[c].html : t->col[c].head);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < t->nrow; r++) {
		fputs(t->bad[r] ? "<tr class=\"bad\">" : "<tr>", f);
		for (size_t c = 0; c < t->ncol; c++) {
			if (!(t->col[c].flags & OVB_TC_TEXT))
				continue;
			const char *s = ovb_table_cell(t, r, c, false);
			unsigned fl = t->col[c].flags;
			fputs(fl & OVB_TC_NUM ? "<td class=\"n\">" : fl & OVB_TC_WRAP ?
				"<td class=\"w\">" : "<td>", f);
			if (fl & OVB_TC_CHECK) {
				fputs(strcmp(s, "ok") && strncmp(s, "ok, OOM ", 8) ?
					"<span class=\"bad\">" :
					"<span class=\"ok\">", f);
				ovb_plot_html(f, s);
				fputs("</span>", f);
			} else if (fl & OVB_TC_LIST) {
				for (const char *p = s; *p; p++) {
					char ch[2] = { *p, 0 };
					ovb_plot_html(f, ch);
					if (*p == ',')
						fputs("<wbr>", f);
				}
			} else
				ovb_plot_html(f, s);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	if (!t->nrow)
		fputs("<p class=\"note\">None.</p>\n", f);
	else if (t->note) {
		fputs("<p class=\"note\">", f);
		ovb_plot_html(f, t->note);
		fputs("</p>\n", f);
	}
}
