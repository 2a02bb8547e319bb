/* plot.c: plots drawn by gnuplot, and the runner.
 *
 * Each ovb_plot_KIND writes one whole gnuplot script, its data inline
 * ($name << EOD), from the small types of lib/ovb.h's plot section: it
 * knows nothing of the files or tables the data came from.
 *
 * Invariants:
 * - the same data give the same script, byte for byte (numbers as %.12g);
 * - text from the data (names) reaches gnuplot only inside its single
 *   quotes, where nothing is substituted; control characters and
 *   backquotes become '?';
 * - gnuplot runs without a shell (fork, exec of "gnuplot" or $OVB_GNUPLOT,
 *   with -d: no init files), its script down a pipe, its stderr kept for
 *   the message when it fails. */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

#define N "%.12g"            /* every number in a script */

#define C_U "#4682b4"        /* distributions */
#define C_SIGMA "#d95f02"    /* the chosen sigma, (sigma, rho) */
#define C_MEAN "#2ca02c"
#define C_PCT "#555555"
#define C_CAP "#c62828"      /* capacity, overflow */
#define C_LOAD "#1f4e9a"     /* Eq. 1 reserved */
#define C_GRAY "#d9d9d9"

#define MAXDISP 240          /* boxes of a node plot */

/* ---- strings made for one script, freed together ---- */

struct strs { size_t n, cap; char **s; };

static const char *
keep(struct strs *a, char *s)
{
	*OVB_PUSH(a->s, a->n, a->cap) = s;
	return s;
}

static void
strs_free(struct strs *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->s[i]);
	free(a->s);
}

/* A gnuplot string expression of the formatted text: single-quoted (no
 * escapes, no backquote substitution inside; '' is a quote), a newline
 * joined in as "\n". */
static const char *q(struct strs *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *
q(struct strs *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = ovb_vxasprintf(fmt, ap);
	va_end(ap);
	char *out = ovb_xmalloc(8 * strlen(s) + 3), *o = out;
	*o++ = '\'';
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			o += sprintf(o, "''");
		else if (*p == '\n')
			o += sprintf(o, "'.\"\\n\".'");
		else if (*p == '`' || (unsigned char)*p < 0x20)
			*o++ = '?';
		else
			*o++ = *p;
	*o++ = '\'';
	*o = '\0';
	free(s);
	return keep(a, out);
}

char *
ovb_plot_qty(double v, const char *unit)
{
	char *s;
	int n;
	if (!unit)
		n = asprintf(&s, "%.4g", v);
	else {
		static const struct { double f; const char *p; } si[] = {
			{ 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
		const char *pre = "";
		double m = fabs(v);
		for (size_t i = 0; unit[0] == 'B' && i < sizeof si / sizeof *si;
		    i++)
			if (m >= si[i].f) {
				v /= si[i].f;
				pre = si[i].p;
				break;
			}
		n = asprintf(&s, "%.4g %s%s", v, pre, unit);
	}
	if (n < 0) {
		ovb_warn("out of memory");
		exit(OVB_ESOFT);
	}
	return s;
}

char *
ovb_plot_used(double load, double cap)
{
	/* in long double: a tiny capacity (1e-300) or a huge one (1e308)
	 * gives a number, not inf or 0 */
	long double u = 100.0L * (long double)load / (long double)cap;
	char *s;
	int n;
	if (u != 0 && u < 0.05L)
		n = asprintf(&s, "%.2Lg%%", u);
	else if (u >= 1e6L)
		n = asprintf(&s, "%.3Lg%%", u);
	else
		n = asprintf(&s, "%.1Lf%%", u);
	if (n < 0) {
		ovb_warn("out of memory");
		exit(OVB_ESOFT);
	}
	return s;
}

static const char *
qty(struct strs *a, double v, const char *unit)
{
	return keep(a, ovb_plot_qty(v, unit));
}

static const char *
real(struct strs *a, double v)
{
	char b[32];
	return keep(a, ovb_xstrdup(ovb_fmt_real(b, v)));
}

/* ---- pieces every plot shares ---- */

static void
head(FILE *g, bool png, int w, int h)
{
	fprintf(g, "set encoding utf8\n");
	if (png)
		fprintf(g, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %d,%d noenhanced font "
			"'sans-serif,10' background rgb 'white'\n} else {\n"
			"  set terminal png size %d,%d noenhanced background "
			"rgb 'white'\n}\n", w, h, w, h);
	else
		fprintf(g, "set terminal svg size %d,%d noenhanced font "
			"'sans-serif,12' background rgb 'white'\n", w, h);
	fprintf(g, "set border 3 lw 1\nset tics nomirror out\n"
		"set grid back lc rgb '#e4e4e4' lw 1 dt 1\n"
		"set key opaque box lc rgb '#bbbbbb' samplen 2 spacing 1.15 "
		"width 1\nset style fill solid 0.8 noborder\n");
}

/* An axis scale: values are divided by div and shown in unit. */
struct scale { double div; char unit[16]; };

static struct scale
scale_for(const char *base, double maxv)
{
	struct scale s = { 1, "" };
	const char *pre = "";
	if (base[0] == 'B') {
		if (maxv >= 1e12) { s.div = 1e12; pre = "T"; }
		else if (maxv >= 1e9) { s.div = 1e9; pre = "G"; }
		else if (maxv >= 1e6) { s.div = 1e6; pre = "M"; }
		else if (maxv >= 1e3) { s.div = 1e3; pre = "k"; }
	}
	/* absurd capacities (1e308): a power of ten in the unit, so that no
	 * number of the script (a range times 1.3) overflows to inf */
	if (isfinite(maxv) && maxv / s.div >= 1e15) {
		int e = (int)floor(log10(maxv / s.div)) - 2;
		s.div *= pow(10, e);
		snprintf(s.unit, sizeof s.unit, "1e%d %s%s", e, pre, base);
		return s;
	}
	snprintf(s.unit, sizeof s.unit, "%s%s", pre, base);
	return s;
}

/* ---- label layout: text boxes estimated from the font, in pixels ----
 *
 * Plots that place labels fix their margins (the graph's box in screen
 * fractions), so that a data point's pixel is known here; a label's box
 * is estimated from its length and font size with an average advance of
 * 0.62 em, more than the sans-serif fonts' (DejaVu Sans: 0.55), so that
 * boxes that do not meet here do not meet when drawn. */
struct frame {
	double W, H;             /* the terminal's size [px] */
	double l, r, b, t;       /* the graph's box [screen fractions] */
	double xlo, xhi, ylo, yhi;
};
struct rect { double x0, y0, x1, y1; };   /* pixels, y down */

static double
px_x(const struct frame *f, double x)
{
	return f->W * (f->l + (f->r - f->l) * (x - f->xlo) / (f->xhi - f->xlo));
}

static double
px_y(const struct frame *f, double y)
{
	return f->H * (1 - (f->b + (f->t - f->b) * (y - f->ylo) /
		(f->yhi - f->ylo)));
}

static void
frame_margins(FILE *g, const struct frame *f)
{
	fprintf(g, "set lmargin at screen %.4g\nset rmargin at screen %.4g\n"
		"set bmargin at screen %.4g\nset tmargin at screen %.4g\n",
		f->l, f->r, f->b, f->t);
}

/* Length in pixels of text at font size fs (UTF-8: a character per lead
 * byte). */
static double
text_px(const char *s, double fs)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return (double)n * 0.62 * fs;
}

static bool
meets(const struct rect *a, const struct rect *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 &&
		b->y0 < a->y1;
}

/* What a resource measures, for axis labels. */
static const char *
res_word(enum ovb_res r)
{
	return r == OVB_CPU ? "CPU usage" : r == OVB_NET ?
		"network usage (sent)" : "network usage (received)";
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ---- a capsule: U and rho(sigma) ---- */

/* The percentiles with equal values merged: "p95,p99" at 2.614e6. */
struct mark { double v; char what[96]; };

static size_t
pct_marks(const struct ovb_plot_capsule *c, struct mark *m)
{
	size_t n = 0;
	for (int i = 0; i < c->npct; i++) {
		char b[32];
		ovb_fmt_real(b, c->pct_p[i]);
		size_t j = 0;
		while (j < n && m[j].v != c->pct_v[i])
			j++;
		if (j == n) {
			m[n].v = c->pct_v[i];
			snprintf(m[n++].what, sizeof m->what, "p%s", b);
		} else {
			size_t l = strlen(m[j].what);
			snprintf(m[j].what + l, sizeof m->what - l, ",p%s", b);
		}
	}
	return n;
}

static void
capsule_title(FILE *g, struct strs *a, const struct ovb_plot_capsule *c,
	const char *what)
{
	fprintf(g, "set title %s\n", q(a, "%s · %s: %s (%llu intervals of %s "
		"s)", c->capsule, ovb_res_name(c->res), what,
		(unsigned long long)c->n, real(a, c->interval)));
}

/* The x axis of U's plots: up to the largest usage the bins allow, or to
 * sigma when that is larger (*top), scaled. */
static struct scale
capsule_scale(const struct ovb_plot_capsule *c, double *top)
{
	*top = (double)(c->nbins - 1) * c->width;
	if (c->has_qos)
		*top = fmax(*top, c->sigma);
	return scale_for(ovb_res_rate_unit(c->res), *top);
}

/* Fig. 4(a): U as a histogram, bar k over ((k-1)w, kw], with its
 * percentiles, mean and sigma.  The percentiles' tags hang from the top of
 * the graph, rotated; tags closer than a tag's thickness are one tag
 * ("p95,p99"), and the bars are kept below the longest. */
void
ovb_plot_pdf(FILE *g, bool png, const struct ovb_plot_capsule *c)
{
	struct strs a = { 0 };
	double top;
	struct scale sc = capsule_scale(c, &top);
	double w = c->width / sc.div, pmax = 0, n = (double)c->n;
	const char *ru = ovb_res_rate_unit(c->res);
	for (size_t k = 0; k < c->nbins; k++)
		pmax = fmax(pmax, (double)c->count[k] / n);
	if (!(pmax > 0))
		pmax = 1;
	struct frame fr = { 640, 450, 0.11, 0.97, 0.30, 0.90, -w / 2,
		top / sc.div * 1.06 + w, 0, 1 };
	/* the tags: marks sorted by value, grouped while closer than 16 px */
	struct mark m[OVB_MAXPCT], grp[OVB_MAXPCT];
	size_t nm = pct_marks(c, m), ng = 0;
	ovb_qsort(m, nm, sizeof *m, cmp_double);
	double fs = 9, longest = 0;
	for (size_t i = 0; i < nm; i++) {
		double x = px_x(&fr, m[i].v / sc.div);
		if (ng && x - px_x(&fr, grp[ng - 1].v / sc.div) < 1.5 * fs + 3) {
			size_t l = strlen(grp[ng - 1].what);
			snprintf(grp[ng - 1].what + l, sizeof grp->what - l, ",%s",
				m[i].what);
		} else
			grp[ng++] = m[i];
	}
	for (size_t i = 0; i < ng; i++)
		longest = fmax(longest, text_px(grp[i].what, fs));
	/* bars below the tags: the tags start at graph 0.98 */
	double graph_h = fr.H * (fr.t - fr.b);
	double free_ = 0.98 - (longest + 6) / graph_h;
	double ytop = pmax * 1.3;
	if (ng && free_ > 0.3)
		ytop = fmax(ytop, pmax / free_);
	head(g, png, (int)fr.W, (int)fr.H);
	frame_margins(g, &fr);
	capsule_title(g, &a, c, "usage distribution U");
	fprintf(g, "set xlabel %s\nset ylabel 'probability (share of "
		"intervals)'\nset xrange [" N ":" N "]\nset yrange [0:" N "]\n"
		"set key below vertical maxrows 3 width 1 noopaque nobox\n"
		"$U << EOD\n", q(&a, "%s per measurement interval [%s]",
		res_word(c->res), sc.unit), fr.xlo, fr.xhi, ytop);
	for (size_t k = 1; k < c->nbins; k++)
		if (c->count[k])
			fprintf(g, N " " N " " N "\n", ((double)k - 0.5) * w,
				(double)c->count[k] / n, w);
	fprintf(g, "EOD\n$Z << EOD\n0 " N "\nEOD\n", (double)c->count[0] / n);
	for (size_t i = 0; i < nm; i++) {
		double x = m[i].v / sc.div;
		fprintf(g, "set arrow from " N ", graph 0 to " N ", graph 1 "
			"nohead dt 2 lw 1 lc rgb '" C_PCT "' back\n", x, x);
	}
	for (size_t i = 0; i < ng; i++)
		fprintf(g, "set label %s at " N ", graph 0.98 rotate by 90 right "
			"offset character -0.6, 0 font ',9' tc rgb '" C_PCT "' front\n",
			q(&a, "%s", grp[i].what), grp[i].v / sc.div);
	if (c->has_mean)
		fprintf(g, "set arrow from " N ", graph 0 to " N ", graph 1 "
			"nohead dt 4 lw 2 lc rgb '" C_MEAN "' front\n",
			c->mean / sc.div, c->mean / sc.div);
	if (c->has_qos)
		fprintf(g, "set arrow from " N ", graph 0 to " N ", graph 1 "
			"nohead lw 2.5 lc rgb '" C_SIGMA "' front\n",
			c->sigma / sc.div, c->sigma / sc.div);
	fprintf(g, "plot $U using 1:2:3 with boxes lc rgb '" C_U "' title %s",
		q(&a, "U: bins of %s %s", real(&a, c->width / sc.div), sc.unit));
	if (c->count[0])
		fprintf(g, ", $Z using 1:2 with impulses lw 6 lc rgb '" C_LOAD
			"' title 'usage exactly 0'");
	if (nm)
		fprintf(g, ", NaN with lines dt 2 lc rgb '" C_PCT "' title "
			"'percentiles (exact)'");
	if (c->has_mean)
		fprintf(g, ", NaN with lines dt 4 lw 2 lc rgb '" C_MEAN "' title "
			"%s", q(&a, "mean = %s", qty(&a, c->mean, ru)));
	if (c->has_qos)
		fprintf(g, ", NaN with lines lw 2.5 lc rgb '" C_SIGMA "' title %s",
			q(&a, "σ (rate) = %s, O = %.4g", qty(&a, c->sigma, ru),
			c->O));
	fprintf(g, "\n");
	strs_free(&a);
}

/* Fig. 4(b): the CDF at the bins' upper edges, with the percentiles.
 * The curve is known at the bins' edges only: percentile p is marked
 * where the curve reaches p (the upper edge of the bin that holds its
 * exact value, on the curve's rise there), and the exact values are
 * listed in a box.  Each dot gets a short tag where one fits: beside it,
 * right or left, above or below, clear of the other tags, the box and the
 * graph's edges; a dot without room keeps its value in the box. */
void
ovb_plot_cdf(FILE *g, bool png, const struct ovb_plot_capsule *c)
{
	struct strs a = { 0 };
	double top;
	struct scale sc = capsule_scale(c, &top);
	double w = c->width / sc.div, xmax = top / sc.div * 1.06 + w;
	const char *ru = ovb_res_rate_unit(c->res);
	struct frame fr = { 640, 420, 0.11, 0.97, 0.27, 0.90, -w, xmax, 0,
		1.05 };
	head(g, png, (int)fr.W, (int)fr.H);
	frame_margins(g, &fr);
	capsule_title(g, &a, c, "cumulative distribution of U");
	fprintf(g, "set xlabel %s\nset ylabel 'Pr(usage ≤ x)'\nset xrange [" N
		":" N "]\nset yrange [0:1.05]\nset ytics 0.1\n"
		"set key below vertical maxrows 2 width 1 noopaque nobox\n"
		"$F << EOD\n" N " 0\n",
		q(&a, "%s per measurement interval [%s]", res_word(c->res),
		sc.unit), -w, xmax, -w);
	uint64_t cum = 0;
	for (size_t k = 0; k < c->nbins; k++) {
		cum += c->count[k];
		fprintf(g, N " " N "\n", (double)k * w, (double)cum /
			(double)c->n);
	}
	fprintf(g, N " 1\nEOD\n", xmax);
	double P[OVB_MAXPCT], X[OVB_MAXPCT];
	int np = c->npct;
	memcpy(P, c->pct_p, (size_t)np * sizeof *P);
	ovb_qsort(P, (size_t)np, sizeof *P, cmp_double);
	/* where the curve reaches p: the least k with cum_k >= p n / 100 */
	for (int i = 0; i < np; i++) {
		uint64_t s = 0;
		size_t k = 0;
		for (; k < c->nbins; k++) {
			s += c->count[k];
			if ((double)s * 100 >= P[i] * (double)c->n)
				break;
		}
		if (k == c->nbins)
			k = c->nbins - 1;
		X[i] = (double)k * w;
	}
	fprintf(g, "$P << EOD\n");
	for (int i = 0; i < np; i++)
		fprintf(g, N " " N "\n", X[i], P[i] / 100);
	fprintf(g, "EOD\n");
	char *box = NULL;
	size_t boxlen = 0, boxw = 0;
	FILE *bf = open_memstream(&box, &boxlen);
	for (int i = 0; i < np; i++) {
		int j = 0;
		while (c->pct_p[j] != P[i])
			j++;
		char *line = NULL;
		size_t ll = 0;
		FILE *lf = open_memstream(&line, &ll);
		fprintf(lf, "p%s = %s", real(&a, P[i]), qty(&a, c->pct_v[j], ru));
		fclose(lf);
		fprintf(bf, "%s%s", i ? "\n" : "", line);
		boxw = (size_t)fmax((double)boxw, text_px(line, 10));
		free(line);
	}
	fclose(bf);
	/* the box: right-aligned at graph 0.97, centred at graph 0.5 */
	double bfs = 10, lh = 1.25 * bfs;
	struct rect used[OVB_MAXPCT + 1];
	size_t nused = 0;
	if (np) {
		double bx1 = fr.W * (fr.l + 0.97 * (fr.r - fr.l)),
			by = fr.H * (1 - (fr.b + 0.5 * (fr.t - fr.b)));
		used[nused++] = (struct rect){ bx1 - (double)boxw - 8,
			by - np * lh / 2 - 6, bx1 + 4, by + np * lh / 2 + 6 };
	}
	double gx0 = fr.W * fr.l, gx1 = fr.W * fr.r, gy0 = fr.H * (1 - fr.t),
		gy1 = fr.H * (1 - fr.b), fs = 9;
	for (int i = 0; i < np; i++) {
		char tag[40];
		snprintf(tag, sizeof tag, "p%s", real(&a, P[i]));
		double x = px_x(&fr, X[i]), y = px_y(&fr, P[i] / 100);
		double tw = text_px(tag, fs), th = 1.3 * fs;
		/* right, left, above-right, below-right, above-left, below-left */
		static const struct { double dx, dy; bool right; } cand[] = {
			{ 7, 0, false }, { -7, 0, true }, { 5, -1.1, false },
			{ 5, 1.1, false }, { -5, -1.1, true }, { -5, 1.1, true } };
		for (size_t k = 0; k < sizeof cand / sizeof *cand; k++) {
			double ax = x + cand[k].dx, cy = y + cand[k].dy * th;
			struct rect r = { cand[k].right ? ax - tw : ax, cy - th / 2,
				cand[k].right ? ax : ax + tw, cy + th / 2 };
			bool ok = r.x0 >= gx0 + 2 && r.x1 <= gx1 - 2 &&
				r.y0 >= gy0 + 2 && r.y1 <= gy1 - 2;
			for (size_t u = 0; ok && u < nused; u++)
				ok = !meets(&r, &used[u]);
			if (!ok)
				continue;
			used[nused++] = r;
			fprintf(g, "set label %s at screen %.5f, screen %.5f %s "
				"font ',9' tc rgb '" C_PCT "' front\n", q(&a, "%s", tag),
				ax / fr.W, 1 - cy / fr.H, cand[k].right ? "right" :
				"left");
			break;
		}
	}
	if (np)
		fprintf(g, "set label %s at graph 0.97, graph 0.5 right front "
			"font ',10' boxed\nset style textbox opaque border lc rgb "
			"'#bbbbbb'\n", q(&a, "%s", box));
	free(box);
	fprintf(g, "plot $F using 1:2 with steps lw 2 lc rgb '" C_U "' title "
		"'Pr(usage ≤ x), bins at their upper edge'%s\n", np ? ", $P using "
		"1:2 with points pt 7 ps 1 lc rgb '" C_SIGMA "' title 'percentile "
		"p at the bin where the curve reaches p (exact values boxed)'" :
		"");
	strs_free(&a);
}

/* Fig. 4(c): the token-bucket curve rho(sigma) and the chosen point; on
 * log scales when the rates or bursts span more than 1.5 decades (network
 * curves run from the mean rate to the rate of the largest single
 * transfer).  rho(sigma) is linear between breakpoints, which on a log
 * scale is a curve: it is drawn point by point. */
void
ovb_plot_curve(FILE *g, bool png, const struct ovb_plot_capsule *c)
{
	struct strs a = { 0 };
	const struct ovb_pt *pt = c->pt;
	size_t n = c->npt;
	double smin = pt[0].sigma, smax = pt[n - 1].sigma, rmax = pt[0].rho;
	double rpos = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (pt[i].rho > 0)
			rpos = fmin(rpos, pt[i].rho);
	if (c->has_qos) {
		smax = fmax(smax, c->sigma);
		rmax = fmax(rmax, c->rho);
		if (c->rho > 0)
			rpos = fmin(rpos, c->rho);
	}
	if (!(smax > 0))
		smax = 1;
	if (!(rmax > 0))
		rmax = 1;
	bool logx = smin > 0 && smax / smin > 30;
	bool logy = isfinite(rpos) && rmax / rpos > 30;
	const char *ru = ovb_res_rate_unit(c->res),
		*bu = ovb_res_amount_unit(c->res);
	struct scale sx = scale_for(ru, smax), sy = scale_for(bu, rmax);
	double xlo = logx ? smin / sx.div / 1.5 : 0;
	double xmax = smax / sx.div * (logx ? 1.5 : 1.08);
	double ylo = logy ? rpos / sy.div / 3 : 0;
	double bottom = logy ? ylo : 0;
	head(g, png, 640, 450);
	struct frame fr = { 640, 450, 0.13, 0.97, 0.30, 0.90, 0, 1, 0, 1 };
	frame_margins(g, &fr);
	fprintf(g, "set title %s\nset xlabel %s\nset ylabel %s\n%s%s"
		"set xrange [" N ":" N "]\nset yrange [" N ":" N "]\n"
		"set key below vertical maxrows 3 width 1 noopaque nobox\n",
		q(&a, "%s · %s: token-bucket curve ρ(σ)%s", c->capsule,
		ovb_res_name(c->res), logx && logy ? " (log scales)" :
		logx ? " (σ on a log scale)" : logy ? " (ρ on a log scale)" : ""),
		q(&a, "σ: token-bucket rate [%s]", sx.unit),
		q(&a, "ρ: least burst at rate σ [%s]", sy.unit),
		logx ? "set logscale x\nset format x '%g'\n" : "",
		logy ? "set logscale y\nset format y '%g'\n" : "",
		xlo, xmax, ylo, rmax / sy.div * (logy ? 3 : 1.15));
	if (!logx)   /* no finite burst below the mean rate */
		fprintf(g, "set object 1 rect from graph 0, graph 0 to first " N
			", graph 1 fc rgb '#eeeeee' fs solid 1.0 noborder behind\n"
			"set label 'below the mean rate' at graph 0.01, graph 0.04 "
			"left font ',9' tc rgb '#777777'\n", smin / sx.div);
	fprintf(g, "$C << EOD\n");
	for (size_t i = 0; i < n; i++)
		fprintf(g, N " " N "\n", pt[i].sigma / sx.div,
			fmax(pt[i].rho / sy.div, bottom));
	double last = fmax(pt[n - 1].rho / sy.div, bottom);
	fprintf(g, N " " N "\nEOD\n$L << EOD\n", xmax, last);
	int steps = logx || logy ? 32 : 1;
	for (size_t i = 0; i + 1 < n; i++)
		for (int k = 0; k < steps; k++) {
			double f = k / (double)steps;
			double x = pt[i].sigma + f * (pt[i + 1].sigma - pt[i].sigma);
			double y = pt[i].rho + f * (pt[i + 1].rho - pt[i].rho);
			fprintf(g, N " " N "\n", x / sx.div, fmax(y / sy.div,
				bottom));
		}
	fprintf(g, N " " N "\n" N " " N "\nEOD\n", pt[n - 1].sigma / sx.div,
		last, xmax, last);
	double x = c->sigma / sx.div, y = fmax(c->rho / sy.div, bottom);
	if (c->has_qos)
		fprintf(g, "set arrow from first " N ", graph 0 to first " N
			", first " N " nohead dt 2 lc rgb '" C_SIGMA "'\n"
			"set arrow from graph 0, first " N " to first " N ", first "
			N " nohead dt 2 lc rgb '" C_SIGMA "'\n", x, x, y, y, x, y);
	fprintf(g, "plot $L using 1:2 with lines lw 2 lc rgb '" C_U "' title "
		"'ρ(σ): usage over any t is at most σ t + ρ', $C every ::0::%zu "
		"using 1:2 with points pt 7 ps 0.6 lc rgb '" C_U "' title %s",
		n - 1, q(&a, "breakpoints, from the mean rate %s",
		qty(&a, pt[0].sigma, ru)));
	if (c->has_qos)
		fprintf(g, ", '+' using (" N "):(" N ") every ::0::0 with points "
			"pt 9 ps 2.2 lc rgb '" C_SIGMA "' title %s", x, y,
			q(&a, "chosen: σ = %s, ρ = %s (O = %.4g)",
			qty(&a, c->sigma, ru), qty(&a, c->rho, bu), c->O));
	fprintf(g, "\n");
	strs_free(&a);
}

/* ---- a node: Y against its capacity ---- */

struct box {             /* Y's grid points lo..hi, drawn as one box */
	size_t lo, hi;
	double p, tail;      /* Pr(lo <= index <= hi), Pr(Y > value of hi) */
	bool over;           /* above the capacity */
};

/* Y's grid points in at most MAXDISP boxes, a box boundary at c. */
static struct box *
boxes(const struct ovb_pmf *y, double c, size_t *nbox)
{
	size_t n = y->n;
	double *tail = ovb_xcalloc(n, sizeof *tail);
	ovb_pmf_tails(y, tail);
	/* the grid points not above c */
	size_t nbelow = 0;
	while (nbelow < n && (double)nbelow * y->g <= c)
		nbelow++;
	size_t step = (n + MAXDISP - 1) / MAXDISP;
	if (step < 1)
		step = 1;
	struct box *b = ovb_xcalloc(n / step + 3, sizeof *b);
	size_t nb = 0;
	/* below: boxes end at the last point not above c, counted down */
	size_t first = nbelow % step ? nbelow % step : step;
	for (size_t lo = 0; lo < nbelow;) {
		size_t hi = (lo == 0 ? first : lo + step) - 1;
		b[nb++] = (struct box){ lo, hi, 0, 0, false };
		lo = hi + 1;
	}
	for (size_t lo = nbelow; lo < n; lo += step) {
		size_t hi = lo + step - 1 < n ? lo + step - 1 : n - 1;
		b[nb++] = (struct box){ lo, hi, 0, 0, true };
	}
	for (size_t i = 0; i < nb; i++) {
		for (size_t k = b[i].lo; k <= b[i].hi; k++)
			b[i].p += y->p[k];
		b[i].tail = tail[b[i].hi];
	}
	free(tail);
	*nbox = nb;
	return b;
}

/* The distribution of Y with the capacity and the overflow (top), and
 * Pr(Y > x) on a log scale against O_min (bottom). */
void
ovb_plot_node(FILE *g, bool png, const struct ovb_plot_node *nd)
{
	struct strs a = { 0 };
	const char *u = ovb_res_rate_unit(nd->res);
	double gw = nd->y ? nd->y->g : 0;
	size_t nb = 0;
	struct box *b = nd->y ? boxes(nd->y, nd->cap, &nb) : NULL;
	double g0 = gw ? gw : nd->cap / 100;
	double ymax = gw ? (double)(nd->y->n - 1) * gw : nd->plain;
	/* the axis from the data: a capacity far above Y and the load is
	 * off the axis (named at its right end), not an empty axis */
	double dmax = fmax(ymax, nd->load);
	bool offaxis = dmax > 0 && nd->cap > 4 * dmax;
	double xtop = offaxis ? dmax * 1.15 : fmax(dmax, nd->cap) * 1.06;
	if (!isfinite(xtop))
		xtop = DBL_MAX / 4;
	struct scale sc = scale_for(u, xtop);
	double d = sc.div, x0 = 0;
	/* room left of 0 for the box of Y = 0 (((0-1)g, 0]) when it has mass */
	if ((gw && nb && b[0].lo == 0 && b[0].p > 0) || (!gw && nd->plain == 0))
		x0 = -g0 / d;
	double floor_ = 1e-6;
	if (nd->ncapsules && nd->omin > 0)
		floor_ = fmin(floor_, nd->omin / 20);
	if (nd->pr > 0)
		floor_ = fmin(floor_, nd->pr / 20);
	if (floor_ < 1e-15)
		floor_ = 1e-15;
	const char *cap = qty(&a, nd->cap, u), *ld = qty(&a, nd->load, u),
		*prs = qty(&a, nd->pr, NULL),
		*om = nd->ncapsules ? qty(&a, nd->omin, NULL) : "-";
	head(g, png, 640, 640);
	double c = nd->cap / d, l = nd->load / d;
	fprintf(g, "set multiplot title %s\n"
		"set lmargin at screen 0.12\nset rmargin at screen 0.96\n"
		"set xrange [" N ":" N "]\n",
		q(&a, "node %s · %s: aggregate usage Y of %zu capsule%s",
		nd->node, ovb_res_name(nd->res), nd->ncapsules,
		nd->ncapsules == 1 ? "" : "s"), x0, xtop / d);
	if (offaxis)
		fprintf(g, "set label 11 %s at graph 0.99, graph 0.93 right "
			"font ',9' tc rgb '" C_CAP "'\n", q(&a, "capacity C = %s: "
			"off the axis →", cap));
	else
		fprintf(g, "set object 1 rect from first " N ", graph 0 to graph "
			"1, graph 1 fc rgb '" C_CAP "' fs transparent solid 0.07 "
			"noborder behind\nset arrow 1 from " N ", graph 0 to " N
			", graph 1 nohead lw 2.5 lc rgb '" C_CAP "' front\n", c, c, c);
	fprintf(g, "set arrow 2 from " N ", graph 0 to " N ", graph 1 nohead "
		"dt 2 lw 1.5 lc rgb '" C_LOAD "' front\n$Y << EOD\n", l, l);
	/* top: Pr(Y in box), below the capacity (index 0) and above (1) */
	double pmax = 0;
	for (int over = 0; over < 2; over++) {
		for (size_t i = 0; i < nb; i++) {
			if (b[i].over != over)
				continue;
			double lo = ((double)b[i].lo - 1) * gw,
				hi = (double)b[i].hi * gw;
			fprintf(g, N " " N " " N "\n", (lo + hi) / 2 / d, b[i].p,
				(hi - lo) / d);
			pmax = fmax(pmax, b[i].p);
		}
		if (!gw && !over) {  /* plain reservations only: one point */
			fprintf(g, N " 1 " N "\n", (nd->plain - g0 / 2) / d, g0 / d);
			pmax = 1;
		}
		fprintf(g, "%s", over ? "EOD\n" : "\n\n");
	}
	if (!(pmax > 0))
		pmax = 1;
	fprintf(g, "set label 10 %s at screen 0.54, screen 0.912 center font "
		"',10' tc rgb '%s'\n",
		q(&a, "Eq. 1 %s (reserved %s capacity)   Eq. 3 %s (Pr(Y > C) = "
		"%s %s O_min = %s)", nd->eq1 ? "holds" : "VIOLATED",
		nd->eq1 ? "≤" : ">", nd->eq3 ? "holds" : "VIOLATED", prs,
		nd->eq3 ? "≤" : ">", om), nd->eq1 && nd->eq3 ? "#1b7a1b" : C_CAP);
	fprintf(g, "set ylabel 'Pr(Y in bin)' offset 1.2,0\nset format x ''\n"
		"set xlabel ''\nset yrange [0:" N "]\n"
		"set tmargin at screen 0.885\nset bmargin at screen 0.615\n"
		"unset key\n"
		"plot $Y index 0 using 1:2:3 with boxes lc rgb '" C_U "', "
		"$Y index 1 using 1:2:3 with boxes lc rgb '" C_CAP "'\n"
		"unset label 10\nunset label 11\n", pmax * 1.15);
	/* bottom: Pr(Y > x), and the key of both panels */
	fprintf(g, "set format x '%%g'\nset xlabel %s\n"
		"set ylabel 'Pr(Y > x)' offset 1.2,0\nset logscale y\n"
		"set format y '%%.0e'\nset yrange [" N ":2]\n"
		"set tmargin at screen 0.585\nset bmargin at screen 0.27\n"
		"set key at screen 0.5, screen 0.16 center top vertical "
		"maxrows 4 nobox noopaque width 1 samplen 2.5\n$T << EOD\n"
		N " 1\n", q(&a, "%s of the node, summed over its capsules [%s]",
		res_word(nd->res), sc.unit), floor_, x0);
	for (size_t i = 0; i < nb; i++)
		fprintf(g, N " " N "\n", (double)b[i].hi * gw / d,
			fmax(b[i].tail, floor_ / 10));
	if (!gw)
		fprintf(g, N " " N "\n", nd->plain / d, floor_ / 10);
	fprintf(g, N " " N "\nEOD\n", xtop / d, floor_ / 10);
	if (nd->ncapsules && nd->omin > 0)
		fprintf(g, "set arrow 3 from graph 0, first " N " to graph 1, "
			"first " N " nohead dt 3 lw 2 lc rgb '" C_MEAN "' front\n",
			nd->omin, nd->omin);
	fprintf(g, "plot NaN with boxes lc rgb '" C_U "' title 'Pr(Y in bin), "
		"Y ≤ C', NaN with boxes lc rgb '" C_CAP "' title 'Y > C "
		"(overflow)', NaN with lines lw 2.5 lc rgb '" C_CAP "' title %s, "
		"NaN with lines dt 2 lw 1.5 lc rgb '" C_LOAD "' title %s, "
		"$T using 1:2 with steps lw 2 lc rgb '" C_U "' title 'Pr(Y > x)'",
		q(&a, "capacity C = %s", cap),
		q(&a, "reserved (Eq. 1) = %s", ld));
	if (nd->ncapsules)
		fprintf(g, ", NaN with lines dt 3 lw 2 lc rgb '" C_MEAN "' title "
			"%s", q(&a, "O_min = %s (Eq. 3 limit)", om));
	/* Pr(Y > C) = 0 is not a value of the log scale: an open triangle
	 * on its floor, pointing down, says so */
	if (nd->pr > 0)
		fprintf(g, ", '+' using (" N "):(" N ") every ::0::0 with points "
			"pt 7 ps 1.3 lc rgb '" C_CAP "' title %s", c, nd->pr,
			q(&a, "Pr(Y > C) = %s%s", prs, nd->pr_from_plan ?
			" (plan)" : ""));
	else if (offaxis)
		fprintf(g, ", NaN with points pt 10 ps 1.3 lc rgb '" C_CAP "' "
			"title %s", q(&a, "Pr(Y > C) = 0%s, C off axis",
			nd->pr_from_plan ? " (plan)" : ""));
	else
		fprintf(g, ", '+' using (" N "):(" N ") every ::0::0 with points "
			"pt 10 ps 1.3 lc rgb '" C_CAP "' title %s", c, floor_,
			q(&a, "Pr(Y > C) = 0%s, under scale", nd->pr_from_plan ?
			" (plan)" : ""));
	fprintf(g, "\nunset multiplot\n");
	free(b);
	strs_free(&a);
}

/* A node per hour of the day (--mode tod): the Eq. 1 load against the
 * capacity (top) and Pr(Y > C) on a log scale against O_min (bottom), a
 * step line per day type; an hour where a capsule has no samples is a gap
 * in the lines and a cross near the top of both panels (never a value);
 * Pr(Y > C) = 0 is drawn on the floor of the log scale, the key says so. */
void
ovb_plot_windows(FILE *g, bool png, const struct ovb_plot_windows *w)
{
	struct strs a = { 0 };
	static const char *const lc[2] = { C_LOAD, C_SIGMA };
	static const char *const day[2] = { "weekday", "weekend" };
	const char *u = ovb_res_rate_unit(w->res);
	double top = w->cap, floor_ = 1e-6;
	bool zero = false, unmeasured[2] = { false, false };
	for (int s = 0; s < OVB_TOD_SLOTS; s++) {
		if (!w->measured[s]) {
			unmeasured[s / 24] = true;
			continue;
		}
		top = fmax(top, w->load[s]);
		if (w->pr[s] > 0)
			floor_ = fmin(floor_, w->pr[s] / 20);
		zero |= !(w->pr[s] > 0);
	}
	if (w->omin > 0)
		floor_ = fmin(floor_, w->omin / 20);
	if (floor_ < 1e-15)
		floor_ = 1e-15;
	if (!(top > 0) || !isfinite(top))
		top = isfinite(top) ? 1 : DBL_MAX / 4;
	struct scale sc = scale_for(u, top);
	double d = sc.div, ytop = top / d * 1.18;
	head(g, png, 640, 620);
	fprintf(g, "set multiplot title %s\n"
		"set lmargin at screen 0.12\nset rmargin at screen 0.96\n"
		"set xrange [0:24]\nset xtics 0,3,24\nunset key\n",
		q(&a, "node %s · %s: Eq. 1 and Eq. 3 per hour of the day (%zu "
		"capsule%s)", w->node, ovb_res_name(w->res), w->ncapsules,
		w->ncapsules == 1 ? "" : "s"));
	/* index 2k: day type k's load and Pr(Y > C) per hour, a last point
	 * at 24 to close its steps; index 2k+1: its unmeasured hours */
	fputs("$W << EOD\n", g);
	for (int k = 0; k < 2; k++) {
		for (int h = 0; h <= 24; h++) {
			int s = 24 * k + (h < 24 ? h : 23);
			if (w->measured[s])
				fprintf(g, "%d " N " " N "\n", h, w->load[s] / d,
					fmax(w->pr[s], floor_));
			else
				fprintf(g, "%d NaN NaN\n", h);
		}
		fputs("\n\n", g);
		int nu = 0;
		for (int h = 0; h < 24; h++)
			if (!w->measured[24 * k + h]) {
				fprintf(g, "%d.5\n", h);
				nu++;
			}
		if (!nu)
			fputs("NaN\n", g);
		fputs(k ? "EOD\n" : "\n\n", g);
	}
	/* top: the load against C */
	fprintf(g, "set ylabel %s offset 1.2,0\nset format x ''\nset xlabel ''\n"
		"set yrange [0:" N "]\nset tmargin at screen 0.885\n"
		"set bmargin at screen 0.62\n"
		"set arrow 1 from graph 0, first " N " to graph 1, first " N
		" nohead lw 2.5 lc rgb '" C_CAP "' front\nplot ",
		q(&a, "Eq. 1 load [%s]", sc.unit), ytop, w->cap / d, w->cap / d);
	for (int k = 0; k < 2; k++)
		fprintf(g, "%s$W index %d using 1:2 with steps lw 2 lc rgb '%s', "
			"$W index %d using 1:(" N ") with points pt 2 ps 1 lc rgb "
			"'%s'", k ? ", " : "", 2 * k, lc[k], 2 * k + 1,
			ytop * (k ? 0.9 : 0.96), lc[k]);
	fputs("\nunset arrow 1\n", g);
	/* bottom: Pr(Y > C) against O_min, and the key of both panels */
	fprintf(g, "set format x '%%g'\nset xlabel %s\n"
		"set ylabel 'Pr(Y > C)' offset 1.2,0\nset logscale y\n"
		"set format y '%%.0e'\nset yrange [" N ":2]\n"
		"set tmargin at screen 0.59\nset bmargin at screen 0.27\n"
		"set key at screen 0.5, screen 0.165 center top vertical "
		"maxrows 3 nobox noopaque width 1 samplen 2.5\n",
		q(&a, "hour of the day (%s)", w->clock), floor_);
	if (w->ncapsules && w->omin > 0)
		fprintf(g, "set arrow 3 from graph 0, first " N " to graph 1, "
			"first " N " nohead dt 3 lw 2 lc rgb '" C_MEAN "' front\n",
			w->omin, w->omin);
	fputs("plot ", g);
	for (int k = 0; k < 2; k++)
		fprintf(g, "%s$W index %d using 1:3 with steps lw 2 lc rgb '%s' "
			"title %s, $W index %d using 1:(%s) with points pt 2 ps 1 "
			"lc rgb '%s' notitle", k ? ", " : "", 2 * k, lc[k],
			q(&a, "%s", day[k]), 2 * k + 1, k ? "0.9" : "1.4", lc[k]);
	fprintf(g, ", NaN with lines lw 2.5 lc rgb '" C_CAP "' title %s",
		q(&a, "capacity C = %s", qty(&a, w->cap, u)));
	if (w->ncapsules && w->omin > 0)
		fprintf(g, ", NaN with lines dt 3 lw 2 lc rgb '" C_MEAN "' title "
			"%s", q(&a, "O_min = %s (Eq. 3 limit)", qty(&a, w->omin,
			NULL)));
	for (int k = 0; k < 2; k++)
		if (unmeasured[k])
			fprintf(g, ", NaN with points pt 2 ps 1 lc rgb '%s' title "
				"'%s unmeasured'", lc[k], day[k]);
	if (zero)
		fputs(", NaN with points pt 0 lc rgb '#ffffff' title "
			"'Pr(Y > C) = 0: on the floor'", g);
	fputs("\nunset multiplot\n", g);
	strs_free(&a);
}

/* ---- the cluster, the capacity experiment ---- */

/* Reserved (Eq. 1) vs capacity per node, a panel per resource, its key
 * above the panel (never over a bar's percentage); a panel whose bars span
 * more than 1.5 decades (a huge capacity, a tiny load; as the curve plot) is
 * on a log scale. */
void
ovb_plot_cluster(FILE *g, bool png, const struct ovb_plot_load *v,
	size_t n, size_t nnodes)
{
	struct strs a = { 0 };
	int w = nnodes > 12 ? (int)(220 + 40 * nnodes) : 720;
	if (w > 2400)
		w = 2400;
	/* cpu, net, and net-rx and mem where the cluster has them */
	bool has[OVB_NRES] = { true, true };
	for (size_t i = 0; i < n; i++)
		has[v[i].res] = true;
	int nr = 0;
	for (int r = 0; r < OVB_NRES; r++)
		nr += has[r];
	head(g, png, w, nr == 2 ? 660 : nr == 3 ? 960 : 1260);
	fprintf(g, "set multiplot layout %d,1 title 'Reserved (Eq. 1 load) vs "
		"capacity per node'\nset lmargin 11\nset rmargin 3\n"
		"set style fill solid 1.0 border lc rgb '#888888'\n"
		"set grid noxtics\nset xtics scale 0\n%sset xrange [-0.6:" N "]\n"
		"set key tmargin right horizontal noopaque nobox\n", nr, nnodes > 12 ?
		"set xtics rotate by -40 left\n" : "", (double)nnodes - 0.4);
	for (int r = 0; r < OVB_NRES; r++) {
		if (!has[r])
			continue;
		double top = 0, low = INFINITY;
		for (size_t i = 0; i < n; i++)
			if ((int)v[i].res == r) {
				top = fmax(top, fmax(v[i].cap, v[i].load));
				if (v[i].cap > 0)
					low = fmin(low, v[i].cap);
				if (v[i].load > 0)
					low = fmin(low, v[i].load);
			}
		struct scale sc = scale_for(ovb_res_rate_unit((enum ovb_res)r),
			top);
		bool logy = isfinite(low) && top / low > 30;
		double ylo = logy ? fmax(low / sc.div / 3, 1e-300) : 0,
			yhi = logy ? top / sc.div * 8 : top / sc.div * 1.15;
		fprintf(g, "$D%d << EOD\n", r);
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if ((int)v[i].res == r) {
				char *u = ovb_plot_used(v[i].load, v[i].cap);
				fprintf(g, "%zu %s " N " " N " %d \"%s\"\n", k++,
					v[i].node, v[i].cap / sc.div, logy ?
					fmax(v[i].load / sc.div, ylo) : v[i].load / sc.div,
					v[i].over, u);
				free(u);
			}
		fprintf(g, "EOD\nset ylabel %s\n%sset yrange [" N ":" N "]\n"
			"plot $D%d using 1:3:(0.78):xtic(2) with boxes fc rgb '"
			C_GRAY "' title 'capacity', $D%d using 1:($5 > 0.5 ? NaN : $4)"
			":(0.46) with boxes fc rgb '" C_LOAD "' title 'reserved', "
			"$D%d using 1:($5 > 0.5 ? $4 : NaN):(0.46) with boxes fc rgb '"
			C_CAP "' title 'reserved > capacity'",
			q(&a, "%s [%s]%s", r == OVB_CPU ? "CPU" : r == OVB_NET ?
			"network (sent)" : r == OVB_MEM ? "memory (requests)" :
			"network (received)",
			sc.unit, logy ? " (log)" : ""), logy ? "set logscale y\n"
			"set format y '%g'\n" : "unset logscale y\nset format y "
			"'% h'\n", ylo, yhi, r, r, r);
		if (nnodes <= 24)
			fprintf(g, ", $D%d using 1:4:6 with labels offset 0,0.7 "
				"font ',9' notitle", r);
		fprintf(g, "\n");
	}
	fprintf(g, "unset multiplot\n");
	strs_free(&a);
}

/* Fig. 7: applications placed against the overbooking tolerance, a line
 * per cluster size (v sorted by nodes, then O). */
void
ovb_plot_gain(FILE *g, bool png, const struct ovb_plot_gain *v, size_t n)
{
	struct strs a = { 0 };
	double omax = 0;
	for (size_t i = 0; i < n; i++)
		omax = fmax(omax, 100 * v[i].O);
	if (!(omax > 0))
		omax = 1;
	head(g, png, 680, 440);
	fprintf(g, "set title 'Capacity gained by overbooking'\n"
		"set xlabel 'overbooking tolerance O [%%]'\n"
		"set ylabel 'applications placed (mean, 95%% CI)'\n"
		"set key top left\nset yrange [0:*]\nset offsets 0, 0, graph "
		"0.1, 0\nset xrange [" N ":" N "]\n", -0.04 * omax, 1.04 * omax);
	size_t nb = 0;
	for (size_t i = 0, j; i < n; i = j, nb++) {
		fprintf(g, "$G%zu << EOD\n", nb);
		for (j = i; j < n && v[j].nodes == v[i].nodes; j++)
			fprintf(g, N " " N " " N "\n", 100 * v[j].O, v[j].mean,
				v[j].ci);
		fprintf(g, "EOD\n");
	}
	fprintf(g, "plot ");
	nb = 0;
	for (size_t i = 0, j; i < n; i = j, nb++) {
		for (j = i; j < n && v[j].nodes == v[i].nodes; j++)
			;
		const struct ovb_plot_gain *last = &v[j - 1];
		unsigned long long nodes = (unsigned long long)v[i].nodes;
		const char *s = nodes == 1 ? "" : "s";
		fprintf(g, "%s$G%zu using 1:2:3 with yerrorlines lw 2 pt 7 ps 0.8 "
			"title %s", nb ? ", " : "", nb, !isnan(last->gain) &&
			last->O > 0 ? q(&a, "%llu node%s: %.2fx at O = %.4g", nodes, s,
			last->gain, last->O) : q(&a, "%llu node%s", nodes, s));
	}
	fprintf(g, "\n");
	strs_free(&a);
}

/* A trading replay over time (issue 12): per day the mean lent (sum of
 * R - A over the lenders) and the node-intervals above capacity, a line
 * per replay. */
void
ovb_plot_trade(FILE *g, bool png, const struct ovb_plot_trade *v, size_t n)
{
	struct strs a = { 0 };
	head(g, png, 900, 620);
	fprintf(g, "set multiplot layout 2,1 title %s\n"
		"set xdata time\nset timefmt '%%s'\nset format x '%%Y-%%m-%%d'\n"
		"set key top right\nset yrange [0:*]\n", q(&a, "Resource "
		"trading replayed (%s)", n ? v[0].unit : ""));
	for (size_t i = 0; i < n; i++) {
		fprintf(g, "$T%zu << EOD\n", i);
		for (size_t d = 0; d < v[i].ndays; d++) {
			const struct ovb_trade_day *x = &v[i].days[d];
			fprintf(g, "%llu " N " %zu\n", (unsigned long long)
				x->day * OVB_DAY, x->intervals ? x->lent /
				(double)x->intervals : 0, x->node_over);
		}
		fprintf(g, "EOD\n");
	}
	for (int panel = 0; panel < 2; panel++) {
		fprintf(g, "set ylabel %s\n", panel ? q(&a, "node-intervals "
			"above capacity (per day)") : q(&a, "lent, mean [%s]",
			n ? v[0].unit : ""));
		fprintf(g, "plot ");
		for (size_t i = 0; i < n; i++)
			fprintf(g, "%s$T%zu using 1:%d with steps lw 2 title %s",
				i ? ", " : "", i, panel ? 3 : 2,
				q(&a, "%s", v[i].label));
		if (!n)
			fprintf(g, "0 notitle");
		fprintf(g, "\n");
	}
	fprintf(g, "unset multiplot\n");
	strs_free(&a);
}

/* An ovb-fit answer: COUNT against O, one point per O; a bound (at-least,
 * at-most) drawn as an open point, "never" left out; exact counts
 * joined by a line; the key outside, right of the plot, clear of the
 * points. */
void
ovb_plot_fit(FILE *g, bool png, const struct ovb_fit *fit)
{
	struct strs a = { 0 };
	double omax = 0, cmax = 1;
	bool more = fit->q == OVB_FIT_MORE;
	for (size_t i = 0; i < fit->n; i++) {
		omax = fmax(omax, 100 * fit->p[i].O);
		cmax = fmax(cmax, (double)fit->p[i].count);
	}
	if (!(omax > 0))
		omax = 1;
	head(g, png, 680, 440);
	fprintf(g, "set title %s\nset xlabel 'overbooking tolerance O [%%]'\n"
		"set ylabel %s\nset key outside right top vertical\n"
		"set yrange [0:" N "]\n"
		"set xrange [" N ":" N "]\n", more ? q(&a, "Copies of %s that "
		"fit (%s)", fit->name, fit->search) : q(&a, "Nodes like %s "
		"needed (%s)", fit->name, fit->search), more ? "'copies'" :
		"'nodes'", 1.15 * cmax, -0.04 * omax, 1.04 * omax);
	fprintf(g, "$E << EOD\n");
	size_t ne = 0;
	for (size_t i = 0; i < fit->n; i++)
		if (fit->p[i].bound == OVB_FIT_EXACT) {
			fprintf(g, N " %llu\n", 100 * fit->p[i].O,
				(unsigned long long)fit->p[i].count);
			ne++;
		}
	fprintf(g, "EOD\n$B << EOD\n");
	size_t nb = 0;
	for (size_t i = 0; i < fit->n; i++)
		if (fit->p[i].bound == OVB_FIT_AT_LEAST ||
		    fit->p[i].bound == OVB_FIT_AT_MOST) {
			fprintf(g, N " %llu\n", 100 * fit->p[i].O,
				(unsigned long long)fit->p[i].count);
			nb++;
		}
	fprintf(g, "EOD\n");
	if (!ne && !nb)
		fprintf(g, "set label 1 %s at graph 0.5, 0.5 center\n"
			"plot NaN notitle", more ? "'no copy fits'" :
			"'no number of nodes holds the applications'");
	else
		fprintf(g, "plot ");
	if (ne)
		fprintf(g, "$E using 1:2 with linespoints lw 2 pt 7 ps 0.8 "
			"title %s", q(&a, "%s", more ? "copies that fit" :
			"fewest nodes"));
	if (nb)
		fprintf(g, "%s$B using 1:2 with points pt 6 ps 1.2 title %s",
			ne ? ", " : "",
			q(&a, "%s", more ? "at least (search cut short)" :
			"at most (search cut short)"));
	fprintf(g, "\n");
	strs_free(&a);
}

/* ---- a backtest: promises held against density ---- */

static int
cmp_front(const void *a, const void *b)
{
	const struct ovb_plot_btpoint *x = *(const struct ovb_plot_btpoint *
		const *)a, *y = *(const struct ovb_plot_btpoint *const *)b;
	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	if (x->held != y->held)
		return x->held > y->held ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* A method's point type and colour: by its index among the methods. */
static const int bt_pt[] = { 7, 5, 9, 11, 13, 15, 3, 1, 2, 4, 6, 8, 10, 12 };
static const char *const bt_lc[] = { "#1f77b4", "#d62728", "#2ca02c",
	"#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
	"#bcbd22" };

/* Held (percent of the promises measured) against density, a point per
 * configuration: a data block per method (in order of first appearance),
 * each row "x held% 'id'", drawn in that order, each method's points
 * smaller than the one's before (a point on another leaves it visible);
 * the Pareto front's points in $F by x, ringed and joined by a dashed
 * staircase (the boundary of what they dominate); the 95% line. */
void
ovb_plot_backtest(FILE *g, bool png, const struct ovb_plot_bt *b)
{
	struct strs a = { 0 };
	const char **meth = ovb_xcalloc(b->n ? b->n : 1, sizeof *meth);
	size_t nm = 0;
	double xmax = 0, ymin = 95;
	for (size_t i = 0; i < b->n; i++) {
		size_t k = 0;
		while (k < nm && strcmp(meth[k], b->p[i].method))
			k++;
		if (k == nm)
			meth[nm++] = b->p[i].method;
		xmax = fmax(xmax, b->p[i].x);
		ymin = fmin(ymin, 100 * b->p[i].held);
	}
	if (!(xmax > 0))
		xmax = 1;
	double ylo = fmax(0, 5 * floor(ymin / 5) - 5);
	head(g, png, 760, 480);
	fprintf(g, "set title %s\nset xlabel %s\n"
		"set ylabel 'node-period promises held [%% of those measured]'\n"
		"set key outside right top vertical Left reverse\n"
		"set xrange [0:" N "]\nset yrange [" N ":101]\n",
		q(&a, "%s", b->title), b->vs_peak ? "'density against peak "
		"provisioning [x; 1 = peak]'" : "'density [VMs per node]'",
		1.1 * xmax, ylo);
	for (size_t k = 0; k < nm; k++) {
		fprintf(g, "$M%zu << EOD\n", k);
		for (size_t i = 0; i < b->n; i++)
			if (!strcmp(b->p[i].method, meth[k]))
				fprintf(g, N " " N " \"%s\"\n", b->p[i].x,
					100 * b->p[i].held, b->p[i].id);
		fprintf(g, "EOD\n");
	}
	const struct ovb_plot_btpoint **f = ovb_xcalloc(b->n ? b->n : 1,
		sizeof *f);
	size_t nf = 0;
	for (size_t i = 0; i < b->n; i++)
		if (b->p[i].front)
			f[nf++] = &b->p[i];
	qsort(f, nf, sizeof *f, cmp_front);
	fprintf(g, "$F << EOD\n");
	for (size_t i = 0; i < nf; i++)
		fprintf(g, N " " N " \"%s\"\n", f[i]->x, 100 * f[i]->held,
			f[i]->id);
	fprintf(g, "EOD\n");
	if (!b->n)
		fprintf(g, "set label 1 'no configuration with a measured node' "
			"at graph 0.5, 0.5 center\n");
	fprintf(g, "plot 95 with lines dt 2 lw 1.5 lc rgb '" C_CAP "' title "
		"'95%% held'");
	if (nf)
		fprintf(g, ", $F using 1:2 with fsteps dt 3 lw 1 lc rgb '#888888' "
			"notitle, $F using 1:2 with points pt 6 ps 2.6 lw 1.2 lc "
			"rgb '#444444' title 'Pareto front'");
	for (size_t k = 0; k < nm; k++)
		fprintf(g, ", $M%zu using 1:2 with points pt %d ps %.2f lc rgb "
			"'%s' title %s", k, bt_pt[k % (sizeof bt_pt / sizeof
			*bt_pt)], k < 8 ? 1.7 - 0.12 * (double)k : 0.8,
			bt_lc[k % (sizeof bt_lc / sizeof *bt_lc)],
			q(&a, "%s", meth[k]));
	fprintf(g, "\n");
	free(f);
	free(meth);
	strs_free(&a);
}

/* ---- usage over time ---- */

size_t
ovb_plot_usage_per(size_t n)
{
	return n > OVB_PLOT_MAXPTS ? (n + OVB_PLOT_MAXPTS - 1) /
		OVB_PLOT_MAXPTS : 1;
}

/* The bucket of interval i: from the first interval's start, per slots
 * of step each. */
static uint64_t
bucket_of(const struct ovb_plot_usage *u, size_t i, size_t per)
{
	return (u->t[i] - u->t[0]) / u->step / per;
}

/* The slots of the span: from the first interval to the end of the last. */
static size_t
usage_slots(const struct ovb_plot_usage *u)
{
	return u->n ? (size_t)((u->t[u->n - 1] - u->t[0]) / u->step + 1) : 0;
}

size_t
ovb_plot_usage_points(const struct ovb_plot_usage *u, size_t *per)
{
	size_t p = ovb_plot_usage_per(usage_slots(u)), k = 0;
	for (size_t i = 0; i < u->n; i++)
		k += !i || bucket_of(u, i, p) != bucket_of(u, i - 1, p);
	*per = p;
	return k;
}

/* Tics of a date axis spanning span s: the least of these steps that
 * gives at most 6 tics, so that the dates never touch. */
static uint64_t
date_step(uint64_t span)
{
	static const uint64_t st[] = { 60, 300, 900, 1800, 3600, 3 * 3600,
		6 * 3600, 12 * 3600, OVB_DAY, 2 * OVB_DAY, 7 * OVB_DAY,
		14 * OVB_DAY, 28 * OVB_DAY, 56 * OVB_DAY, 91 * OVB_DAY,
		182 * OVB_DAY, 364 * OVB_DAY };
	size_t i = 0;
	while (i + 1 < sizeof st / sizeof *st && span / st[i] > 6)
		i++;
	return st[i];
}

/* The usage in each measurement interval over time (at most
 * OVB_PLOT_MAXPTS boxes, the largest of each bucket), sigma and the p99
 * as horizontal lines, the key below the graph. */
void
ovb_plot_usage(FILE *g, bool png, const struct ovb_plot_usage *u)
{
	struct strs a = { 0 };
	const char *ru = ovb_res_rate_unit(u->res);
	size_t per;
	ovb_plot_usage_points(u, &per);
	double top = 0;
	for (size_t i = 0; i < u->n; i++)
		top = fmax(top, u->v[i]);
	if (u->has_sigma)
		top = fmax(top, u->sigma);
	if (u->has_p99)
		top = fmax(top, u->p99);
	if (!(top > 0))
		top = 1;
	struct scale sc = scale_for(ru, top);
	uint64_t first = u->n ? u->t[0] : u->t0,
		end = u->n ? u->t[u->n - 1] + u->step : u->t0 + u->step;
	head(g, png, 760, 420);
	fprintf(g, "set title %s\nset ylabel %s\nset yrange [0:" N "]\n"
		"set key below horizontal noopaque nobox width 1\n",
		q(&a, "%s · %s: usage over time (%zu intervals of %s s%s)",
		u->capsule, ovb_res_name(u->res), u->n, real(&a, u->interval),
		per > 1 ? keep(&a, ovb_xasprintf(", the largest of every %zu "
		"drawn", per)) : ""),
		q(&a, "%s per interval [%s]", res_word(u->res), sc.unit),
		top / sc.div * 1.12);
	/* a box per bucket, over its slots (the last may reach beyond the
	 * span's end, where the x axis ends) */
	double w = (double)u->step * (double)per;
	char xcol[96];
	if (u->epoch) {
		uint64_t span = end - first, st = date_step(span);
		uint64_t t1 = (first + st - 1) / st * st;
		fprintf(g, "set xdata time\nset timefmt '%%s'\n"
			"set format x %s\nset xlabel 'date (UTC)'\n"
			"set xrange ['%llu':'%llu']\nset xtics '%llu', %llu\n",
			st < OVB_DAY ? "'%m-%d %H:%M'" : "'%Y-%m-%d'",
			(unsigned long long)first, (unsigned long long)end,
			(unsigned long long)t1, (unsigned long long)st);
		snprintf(xcol, sizeof xcol, "($1+" N "):($2/" N "):(" N ")",
			w / 2, sc.div, w);
	} else {
		fprintf(g, "set xlabel 'time from the trace start [s]'\n"
			"set xrange [" N ":" N "]\n", (double)(first - u->t0) / 1e9,
			(double)(end - u->t0) / 1e9);
		snprintf(xcol, sizeof xcol, "(($1+" N ")/1e9):($2/" N "):(" N ")",
			w / 2, sc.div, w / 1e9);
	}
	/* the points: T (trace ns from t0, or s since the epoch) and the
	 * usage in the rate unit, exact; a blank line where intervals are
	 * missing */
	fprintf(g, "$U << EOD\n");
	for (size_t i = 0, j; i < u->n; i = j) {
		uint64_t k = bucket_of(u, i, per);
		double m = u->v[i];
		for (j = i + 1; j < u->n && bucket_of(u, j, per) == k; j++)
			m = fmax(m, u->v[j]);
		if (i && k != bucket_of(u, i - 1, per) + 1)
			fputc('\n', g);
		char b[32];
		fprintf(g, "%llu %s\n", (unsigned long long)(u->t[0] + k * per *
			u->step - (u->epoch ? 0 : u->t0)), ovb_fmt_real(b, m));
	}
	fprintf(g, "EOD\n");
	if (u->has_sigma)
		fprintf(g, "set arrow 1 from graph 0, first " N " to graph 1, "
			"first " N " nohead dt 2 lw 2 lc rgb '" C_SIGMA "' front\n",
			u->sigma / sc.div, u->sigma / sc.div);
	if (u->has_p99)
		fprintf(g, "set arrow 2 from graph 0, first " N " to graph 1, "
			"first " N " nohead dt 3 lw 2 lc rgb '" C_PCT "' front\n",
			u->p99 / sc.div, u->p99 / sc.div);
	fprintf(g, "plot $U using %s with boxes fs solid 0.55 noborder "
		"lc rgb '" C_U "' title %s", xcol, per > 1 ? q(&a, "usage: the "
		"largest of each %zu intervals of %s s", per,
		real(&a, u->interval)) : q(&a, "usage in each interval of %s s",
		real(&a, u->interval)));
	if (u->has_sigma)
		fprintf(g, ", NaN with lines dt 2 lw 2 lc rgb '" C_SIGMA "' "
			"title %s", q(&a, "σ (rate) = %s", qty(&a, u->sigma, ru)));
	if (u->has_p99)
		fprintf(g, ", NaN with lines dt 3 lw 2 lc rgb '" C_PCT "' "
			"title %s", q(&a, "p99 of U = %s", qty(&a, u->p99, ru)));
	if (!u->n)
		fprintf(g, ", NaN notitle");
	fprintf(g, "\n");
	strs_free(&a);
}

/* ---- running gnuplot ---- */

int
ovb_plot_run(const char *script, size_t len, int outfd)
{
	const char *bin = getenv("OVB_GNUPLOT");
	if (!bin || !*bin)
		bin = "gnuplot";
	int pin[2];
	FILE *errf = tmpfile();
	if (!errf || pipe2(pin, O_CLOEXEC)) {
		ovb_warn("cannot run gnuplot: %s", strerror(errno));
		return OVB_ESOFT;
	}
	pid_t pid;
	char *argv[] = { (char *)bin, "-d", NULL };
	int e = ovb_proc_spawn(&pid, bin, argv, pin[0], outfd, fileno(errf));
	close(pin[0]);
	if (e) {
		close(pin[1]);
		fclose(errf);
		ovb_warn("cannot run %s: %s (plots need gnuplot: install the "
			"Debian package gnuplot-nox, or name its binary in "
			"OVB_GNUPLOT)", bin, strerror(e));
		return OVB_EUNAVAIL;
	}
	struct sigaction ign, old;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	for (size_t done = 0; done < len;) {
		ssize_t w = write(pin[1], script + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;          /* gnuplot stopped reading: see its status */
		done += (size_t)w;
	}
	close(pin[1]);
	sigaction(SIGPIPE, &old, NULL);
	int ws = 0;
	ovb_proc_wait(pid, &ws);
	char msg[2048];
	rewind(errf);
	size_t m = fread(msg, 1, sizeof msg - 1, errf);
	msg[m] = '\0';
	fclose(errf);
	while (m && (msg[m - 1] == '\n' || msg[m - 1] == ' '))
		msg[--m] = '\0';
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		if (WIFEXITED(ws))
			ovb_warn("%s failed (exit status %d)%s%s", bin,
				WEXITSTATUS(ws), m ? ": " : "", msg);
		else
			ovb_warn("%s failed (signal %d)%s%s", bin, WTERMSIG(ws),
				m ? ": " : "", msg);
		return OVB_EUNAVAIL;
	}
	if (m && ovb_verbose)
		ovb_warn("gnuplot said: %s", msg);
	return 0;
}

/* n scripts in one gnuplot: each script's output goes to a file of a
 * temporary directory (set output), the session reset between them. */
int
ovb_plot_capture_all(char *const *script, const size_t *len, size_t n,
	char **out, size_t *outlen)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = NULL;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&dir, "%s/ovb-plot.XXXXXX", tmp) < 0)
		return OVB_ESOFT;
	memset(out, 0, n * sizeof *out);
	if (strpbrk(dir, "'\\\n") || !mkdtemp(dir)) {
		/* a directory gnuplot's quotes cannot name: one by one */
		free(dir);
		return OVB_ESOFT;
	}
	char *all = NULL;
	size_t alen = 0;
	FILE *f = ovb_xmemstream(&all, &alen);
	/* the svg terminal keeps one state from a plot to the next (the
	 * stroke of an empty group: currentColor in a session's first plot,
	 * black after it): a first plot to nowhere, so that every figure is
	 * drawn as any other */
	fprintf(f, "set terminal svg\nset output '/dev/null'\nplot 0 notitle\n"
		"unset output\nreset session\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "# ovb figure %zu\nset output '%s/%zu'\n", i, dir, i);
		fwrite(script[i], 1, len[i], f);
		fprintf(f, "\nunset output\nreset session\n");
	}
	fclose(f);
	FILE *junk = tmpfile();         /* gnuplot's stdout: nothing */
	int st = junk ? ovb_plot_run(all, alen, fileno(junk)) : OVB_EIO;
	if (junk)
		fclose(junk);
	free(all);
	for (size_t i = 0; i < n; i++) {
		char *path = NULL;
		if (asprintf(&path, "%s/%zu", dir, i) < 0)
			abort();
		FILE *g = st ? NULL : fopen(path, "r");
		if (g) {
			FILE *m = ovb_xmemstream(&out[i], &outlen[i]);
			char buf[65536];
			size_t k;
			while ((k = fread(buf, 1, sizeof buf, g)) > 0)
				fwrite(buf, 1, k, m);
			fclose(m);
			fclose(g);
		}
		if (!st && (!out[i] || !outlen[i]))
			st = OVB_EUNAVAIL;      /* gnuplot wrote nothing */
		unlink(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
	for (size_t i = 0; st && i < n; i++) {
		free(out[i]);
		out[i] = NULL;
		outlen[i] = 0;
	}
	return st;
}

/* ---- plots in HTML pages ---- */

void
ovb_plot_html(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fprintf(f, "&amp;"); break;
		case '<': fprintf(f, "&lt;"); break;
		case '>': fprintf(f, "&gt;"); break;
		case '"': fprintf(f, "&quot;"); break;
		case '\'': fprintf(f, "&#39;"); break;
		default: fprintf(f, "%c", *s);
		}
}

int
ovb_plot_capture(const char *script, size_t len, char **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	FILE *tmp = tmpfile();
	if (!tmp) {
		ovb_warn("cannot create a temporary file: %s", strerror(errno));
		return OVB_EIO;
	}
	int st = ovb_plot_run(script, len, fileno(tmp));
	size_t cap = 0, k;
	char buf[65536];
	rewind(tmp);
	while (!st && (k = fread(buf, 1, sizeof buf, tmp)) > 0) {
		if (*n + k + 1 > cap) {
			cap = 2 * (*n + k + 1);
			*out = ovb_xrealloc(*out, cap, 1);
		}
		memcpy(*out + *n, buf, k);
		*n += k;
	}
	fclose(tmp);
	if (!st && !*out) {
		ovb_warn("gnuplot wrote nothing");
		st = OVB_EUNAVAIL;
	}
	if (st) {
		free(*out);
		*out = NULL;
		*n = 0;
	} else
		(*out)[*n] = '\0';
	return st;
}

/* The ids an SVG defines (id='...' or id="..." after a blank). */
static void
svg_ids(const char *p, const char *end, struct ovb_names *ids,
	struct strs *keys)
{
	for (const char *s = p; (s = strstr(s, "id=")) && s + 4 < end; s++) {
		char q = s[3];
		if ((q != '\'' && q != '"') || (s > p && !strchr(" \t\n", s[-1])))
			continue;
		const char *e = strchr(s + 4, q);
		if (!e)
			break;
		char *k = strndup(s + 4, (size_t)(e - s - 4));
		if (ovb_names_add(ids, k, 0))
			keep(keys, k);
		else
			free(k);
	}
}

void
ovb_plot_embed(FILE *f, const char *svg, size_t len, int fig,
	const char *title)
{
	const char *p = strstr(svg, "<svg");
	if (!p)
		return;
	const char *end = svg + len;
	struct ovb_names ids;
	struct strs keys = { 0 };
	memset(&ids, 0, sizeof ids);
	svg_ids(p, end, &ids, &keys);
	while (p < end) {
		const char *e;
		if (!strncmp(p, "<title>", 7) && (e = strstr(p, "</title>"))) {
			fprintf(f, "<title>");
			ovb_plot_html(f, title);
			fprintf(f, "</title>");
			p = e + 8;
			continue;
		}
		if ((*p == ' ' || *p == '\t' || *p == '\n') && !strncmp(p + 1,
		    "id=", 3) && (p[4] == '\'' || p[4] == '"')) {
			fprintf(f, "%.5sf%d-", p, fig);
			p += 5;
			continue;
		}
		if (*p == '#') {
			size_t n = strcspn(p + 1, "'\")");
			if (p + 1 + n < end && n < 128) {
				char k[130];
				memcpy(k, p + 1, n);
				k[n] = '\0';
				if (ovb_names_get(&ids, k) != OVB_NONE) {
					fprintf(f, "#f%d-", fig);
					p++;
					continue;
				}
			}
		}
		fprintf(f, "%c", *p++);
	}
	ovb_names_free(&ids);
	strs_free(&keys);
}
