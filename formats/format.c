/* format.c: the table of formats, the magic record, sniffing a file's kind.
 *
 * Every file starts with the record "ovb-NAME VERSION"; VERSION is the
 * format's major version (1).  A Sharc RSL file (first record
 * "Application ...") is read as the apps format, a gain table of the older
 * header-only form (first record "nodes O placed") as gain. */
#include <string.h>

#include "impl.h"

#define OVB_FORMAT_VERSION 1

/* The registry: one X(NAME, TYPE) per format, NAME its magic's name and
 * TYPE its in-memory struct, with ovb_NAME_read, _write and _free.  The
 * Makefile derives the fuzz targets from formats/NAME.md and this list. */
#define OVB_FORMAT_LIST(X) \
	X(onoff, ovb_onoff) \
	X(usage, ovb_usage) \
	X(profile, ovb_profiles) \
	X(cluster, ovb_cluster) \
	X(apps, ovb_apps) \
	X(plan, ovb_plan) \
	X(fit, ovb_fit) \
	X(reserves, ovb_reserves) \
	X(curve, ovb_curves) \
	X(series, ovb_series_set) \
	X(gain, ovb_gain) \
	X(trade, ovb_trade) \
	X(rt, ovb_rt) \
	X(bids, ovb_bids) \
	X(migrations, ovb_migrations)

/* Each format's reader, writer and free behind the registry's exact
 * signatures: one small wrapper per function converts the void * to the
 * format's type (calling a function through a pointer of another type is
 * undefined, C11 6.3.2.3p8, and clang's -fsanitize=function aborts on it). */
#define WRAP(n, T) \
static int n##_read(struct ovb_lex *lx, void *obj) \
	{ struct T *o = obj; return ovb_##n##_read(lx, o); } \
static int n##_write(FILE *f, const void *obj) \
	{ const struct T *o = obj; return ovb_##n##_write(f, o); } \
static void n##_free(void *obj) \
	{ struct T *o = obj; ovb_##n##_free(o); }
OVB_FORMAT_LIST(WRAP)

#define ENTRY(n, T) { #n, sizeof(struct T), n##_read, n##_write, n##_free },
const struct ovb_format ovb_formats[] = {
	OVB_FORMAT_LIST(ENTRY)
};
const size_t ovb_nformats = sizeof ovb_formats / sizeof *ovb_formats;

const struct ovb_format *
ovb_format_by_name(const char *name)
{
	for (size_t i = 0; i < ovb_nformats; i++)
		if (strcmp(ovb_formats[i].name, name) == 0)
			return &ovb_formats[i];
	return NULL;
}

const struct ovb_format *
ovb_format_sniff(struct ovb_lex *lx, int *status)
{
	int st = ovb_lex_next(lx);
	*status = 0;
	if (st != 1) {
		*status = st ? st : ovb_err(lx, "empty input: no magic record");
		return NULL;
	}
	ovb_lex_unread(lx);
	const char *t = lx->tok[0];
	if (strcmp(t, "Application") == 0)
		return ovb_format_by_name("apps");
	if (ovb_gain_header(lx))
		return ovb_format_by_name("gain");
	if (strncmp(t, "ovb-", 4) == 0) {
		const struct ovb_format *f = ovb_format_by_name(t + 4);
		if (f)
			return f;
	}
	/* The list of magics, from the table. */
	char list[1024];
	size_t len = 0;
	list[0] = '\0';
	for (size_t i = 0; i < ovb_nformats && len < sizeof list; i++) {
		int k = snprintf(list + len, sizeof list - len, "ovb-%s, ",
			ovb_formats[i].name);
		len += k > 0 ? (size_t)k : 0;
	}
	*status = ovb_err(lx, "'%s' is not the magic record of an overbook "
		"file (%sor a Sharc RSL 'Application')", t, list);
	return NULL;
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
		if (strncmp(t, "ovb-", 4) == 0 && ovb_format_by_name(t + 4))
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
