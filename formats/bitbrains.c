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
 * the tool's business. */
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

static int
data_line(struct reader *rd, unsigned long line, char **field)
{
	const struct ovb_bitbrains_opt *opt = rd->opt;
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
	uint64_t t = (ts + opt->interval / 2) / opt->interval * opt->interval;
	if ((opt->has_from && t < opt->from) || (opt->has_to && t >= opt->to)) {
		rd->k->outside++;
		return 0;
	}
	struct ovb_bitbrains_vm *vm = rd->vm;
	struct ovb_bitbrains_row *r = OVB_PUSH(vm->row, vm->n, vm->cap);
	memset(r, 0, sizeof *r);
	r->t = t;
	r->order = (*rd->order)++;
	double cores = x[COL_CORES], cap = x[COL_CAP];
	r->has_cpu = cores > 0 && cap > 0;
	if (r->has_cpu)
		r->v[OVB_CPU] = x[COL_USAGE] / (cap / cores);
	else
		rd->k->nocpu++;
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
			return ovb_err_at(path, line, "%s is not a finite "
				"number", what[i]);
		}
	rd->k->kept++;
	return 0;
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

int
ovb_bitbrains_read(FILE *f, const char *path,
	const struct ovb_bitbrains_opt *opt, struct ovb_bitbrains_vm *vm,
	size_t *order, struct ovb_bitbrains_counts *k)
{
	struct reader rd = { path, opt, vm, order, k };
	char *buf = NULL, *field[NCOL];
	size_t cap = 0;
	unsigned long line = 0;
	ssize_t len;
	int st = 0;
	while (!st && (errno = 0, len = getline(&buf, &cap, f)) >= 0) {
		line++;
		if (memchr(buf, '\0', (size_t)len)) {
			st = ovb_err_at(path, line, "NUL byte in line: not a "
				"text file");
			break;
		}
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		int n = split(buf, field);
		if (line == 1)
			st = check_header(path, field, n);
		else if (n != NCOL)
			st = ovb_err_at(path, line, "%d fields separated by "
				"';', expected %d", n, NCOL);
		else {
			k->lines++;
			st = data_line(&rd, line, field);
		}
	}
	if (!st && ferror(f)) {
		ovb_warn("%s: read error: %s", path,
			strerror(errno ? errno : EIO));
		st = OVB_EIO;
	}
	if (!st && line == 0)
		st = ovb_err_at(path, 0, "empty input: no header line");
	free(buf);
	return st;
}
