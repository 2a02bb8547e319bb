/* bitbrains.c: the Bitbrains VM traces (GWA-T-12 CSV, spec: bitbrains.md),
 * read by ovb-import --bitbrains.
 *
 *	header: the 11 column names separated by ';'
 *	sample: TIMESTAMP;CORES;CAPACITY;USAGE;...;RX;TX (11 fields)
 *
 * One file is one VM.  Each sample becomes one row: its slot (the timestamp
 * rounded to the nearest multiple of I), cpu = USAGE / (CAPACITY / CORES)
 * in CPUs (none when CORES or CAPACITY is 0), net = TX x KB and net-rx =
 * RX x KB in B/s, mem = Memory usage x KB in B (a level).  Merging files and choosing among rows of one slot is
 * the tool's business.
 *
 * Speed (issue 27: 0.7 GB of CSV for 250 VMs): a data line is first
 * tried by a fast path that scans it once in place, converting each field
 * exactly (lib/num.c's ovb_decimal_to_double: the double strtod gives),
 * and accepts only a line it can fully vouch for: 11 fields of the strict
 * grammar, non-negative, within the exact range, a timestamp below the
 * limit.  Any other line (an error, a NUL, a CR inside, 20 digits) goes to
 * the general path below, which decides and reports exactly as before, so
 * the fast path changes no value and no message. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "impl.h"

enum { NCOL = 11 };
static const char *const columns[NCOL] = {
	"Timestamp [ms]", "CPU cores", "CPU capacity provisioned [MHZ]",
	"CPU usage [MHZ]", "CPU usage [%]", "Memory capacity provisioned [KB]",
	"Memory usage [KB]", "Disk read throughput [KB/s]",
	"Disk write throughput [KB/s]", "Network received throughput [KB/s]",
	"Network transmitted throughput [KB/s]" };
enum { COL_TIME, COL_CORES, COL_CAP, COL_USAGE, COL_MEM = 6, COL_RX = 9,
	COL_TX = 10 };

/* Splits line at ';' into exactly NCOL fields without surrounding blanks;
 * the number of fields found. */
static int
split(char *line, char **field)
{
	int n = 0;
	char *p = line;
	for (;;) {
		char *end = strchr(p, ';');
		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		char *q = p + strlen(p);
		while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
			*--q = '\0';
		if (n < NCOL)
			field[n] = p;
		n++;
		if (!end)
			return n;
		p = end + 1;
	}
}

struct reader {
	const char *path;
	const struct ovb_bitbrains_opt *opt;
	struct ovb_bitbrains_vm *vm;
	size_t *order;
	struct ovb_bitbrains_counts *k;
};

/* Appends the row of a valid sample (ts <= OVB_SERIES_MAXT / 2, every x
 * finite and >= 0). */
static int
add_row(struct reader *rd, unsigned long line, uint64_t ts, const double *x)
{
	const struct ovb_bitbrains_opt *opt = rd->opt;
	uint64_t t = (ts + opt->interval / 2) / opt->interval * opt->interval;
	if ((opt->has_from && t < opt->from) || (opt->has_to && t >= opt->to)) {
		rd->k->outside++;
		return 0;
	}
	struct ovb_bitbrains_vm *vm = rd->vm;
	struct ovb_bitbrains_row *r = OVB_PUSH(vm->row, vm->n, vm->cap);
	r->t = t;
	r->order = (*rd->order)++;
	double cores = x[COL_CORES], cap = x[COL_CAP];
	r->has_cpu = cores > 0 && cap > 0;
	if (r->has_cpu)
		r->v[OVB_CPU] = x[COL_USAGE] / (cap / cores);
	else {
		r->v[OVB_CPU] = 0;
		rd->k->nocpu++;
	}
	r->v[OVB_NET] = x[COL_TX] * opt->kb;
	r->v[OVB_NETRX] = x[COL_RX] * opt->kb;
	r->v[OVB_MEM] = x[COL_MEM] * opt->kb;
	/* Huge or tiny fields can overflow: an ovb-series value is finite. */
	static const char *const what[OVB_NRES] = {
		"cpu (CPU usage / (CPU capacity / CPU cores))",
		"net (Network transmitted x KB)",
		"net-rx (Network received x KB)",
		"mem (Memory usage x KB)" };
	for (int i = 0; i < OVB_NRES; i++)
		if (!isfinite(r->v[i])) {
			vm->n--;
			(*rd->order)--;
			return ovb_err_at(rd->path, line, "%s is not a finite "
				"number", what[i]);
		}
	rd->k->kept++;
	return 0;
}

static int
data_line(struct reader *rd, unsigned long line, char **field)
{
	const char *path = rd->path;
	uint64_t ts;
	double x[NCOL];
	if (!ovb_parse_u64(field[COL_TIME], &ts))
		return ovb_err_at(path, line, "timestamp '%s' is not an unsigned "
			"integer (Unix seconds)", field[COL_TIME]);
	for (int i = 1; i < NCOL; i++) {
		if (!ovb_parse_real(field[i], &x[i]))
			return ovb_err_at(path, line, "%s: '%s' is not a finite "
				"decimal number", columns[i], field[i]);
		if (x[i] < 0)
			return ovb_err_at(path, line, "%s: %s is negative",
				columns[i], field[i]);
	}
	if (ts > OVB_SERIES_MAXT / 2)
		return ovb_err_at(path, line, "timestamp %s is too large",
			field[COL_TIME]);
	return add_row(rd, line, ts, x);
}

/* The fast path: the line [p, end) (its LF and trailing CRs removed) as
 * 11 fields of the strict grammar around blanks, each converted exactly
 * by ovb_decimal_to_double; false (and nothing done) for anything else:
 * another character, a negative value, more than 19 digits or an
 * exponent out of the exact range, too large a timestamp. */
static bool
fast_line(const char *p, const char *end, uint64_t *ts, double *x)
{
	for (int i = 0; i < NCOL; i++) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		bool neg = p < end && *p == '-';
		if (neg) {
			if (i == COL_TIME)
				return false;
			p++;
		}
		uint64_t m = 0;
		int nd = 0, e10 = 0;
		const char *d0 = p;
		for (; p < end && (unsigned)(*p - '0') < 10; p++)
			if (m || *p != '0') {
				if (++nd > 19)
					return false;
				m = m * 10 + (uint64_t)(*p - '0');
			}
		if (p == d0)
			return false;
		if (i == COL_TIME) {
			if (m > OVB_SERIES_MAXT / 2)
				return false;
			*ts = m;
		} else {
			if (p < end && *p == '.') {
				const char *f0 = ++p;
				for (; p < end && (unsigned)(*p - '0') < 10; p++) {
					e10--;
					if (m || *p != '0') {
						if (++nd > 19)
							return false;
						m = m * 10 + (uint64_t)(*p - '0');
					}
				}
				if (p == f0)
					return false;
			}
			if (p < end && (*p == 'e' || *p == 'E')) {
				p++;
				bool eneg = p < end && *p == '-';
				if (p < end && (*p == '-' || *p == '+'))
					p++;
				const char *x0 = p;
				int xe = 0;
				for (; p < end && (unsigned)(*p - '0') < 10; p++)
					if ((xe = xe * 10 + (*p - '0')) > 99)
						return false;
				if (p == x0)
					return false;
				e10 += eneg ? -xe : xe;
			}
			if (neg && m)
				return false;  /* negative: the general path says so */
			if (!ovb_decimal_to_double(m, e10, &x[i]))
				return false;
		}
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (i < NCOL - 1) {
			if (p == end || *p != ';')
				return false;
			p++;
		}
	}
	return p == end;
}

static int
check_header(const char *path, char **field, int n)
{
	if (n != NCOL)
		return ovb_err_at(path, 1, "not a Bitbrains trace: the header has "
			"%d fields separated by ';', expected %d (%s; ...)", n, NCOL,
			columns[0]);
	for (int i = 0; i < NCOL; i++)
		if (strcmp(field[i], columns[i]) != 0)
			return ovb_err_at(path, 1, "not a Bitbrains trace: header "
				"field %d is '%s', expected '%s'", i + 1, field[i],
				columns[i]);
	return 0;
}

bool ovb_bitbrains_fast = true;

int
ovb_bitbrains_parse(const char *buf, size_t len, const char *path,
	const struct ovb_bitbrains_opt *opt, struct ovb_bitbrains_vm *vm,
	size_t *order, struct ovb_bitbrains_counts *k)
{
	struct reader rd = { path, opt, vm, order, k };
	char *copy = NULL, *field[NCOL];
	size_t cap = 0;
	unsigned long line = 0;
	int st = 0;
	const char *p = buf, *bufend = buf + len;
	while (!st && p < bufend) {
		const char *nl = memchr(p, '\n', (size_t)(bufend - p));
		const char *next = nl ? nl + 1 : bufend, *end = next;
		line++;
		while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
			end--;
		uint64_t ts = 0;
		double x[NCOL];
		if (line > 1 && ovb_bitbrains_fast && fast_line(p, end, &ts, x)) {
			k->lines++;
			st = add_row(&rd, line, ts, x);
			p = next;
			continue;
		}
		/* the general path, on a NUL-terminated copy */
		if (memchr(p, '\0', (size_t)(next - p))) {
			st = ovb_err_at(path, line, "NUL byte in line: not a "
				"text file");
			break;
		}
		size_t n = (size_t)(end - p);
		if (n + 1 > cap) {
			cap = n + 1 > 2 * cap ? n + 1 : 2 * cap;
			copy = ovb_xrealloc(copy, cap, 1);
		}
		memcpy(copy, p, n);
		copy[n] = '\0';
		int nf = split(copy, field);
		if (line == 1)
			st = check_header(path, field, nf);
		else if (nf != NCOL)
			st = ovb_err_at(path, line, "%d fields separated by "
				"';', expected %d", nf, NCOL);
		else {
			k->lines++;
			st = data_line(&rd, line, field);
		}
		p = next;
	}
	if (!st && line == 0)
		st = ovb_err_at(path, 0, "empty input: no header line");
	free(copy);
	return st;
}

int
ovb_bitbrains_read(FILE *f, const char *path,
	const struct ovb_bitbrains_opt *opt, struct ovb_bitbrains_vm *vm,
	size_t *order, struct ovb_bitbrains_counts *k)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = ovb_xmalloc(cap);
	for (;;) {
		if (len == cap)
			buf = ovb_xrealloc(buf, cap *= 2, 1);
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	int st;
	if (ferror(f)) {
		ovb_warn("%s: read error: %s", path,
			strerror(errno ? errno : EIO));
		st = OVB_EIO;
	} else
		st = ovb_bitbrains_parse(buf, len, path, opt, vm, order, k);
	free(buf);
	return st;
}
