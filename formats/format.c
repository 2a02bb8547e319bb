/* format.c: the table of formats, the magic record, sniffing a file's kind.
 *
 * Every file starts with the record "ovb-NAME VERSION"; VERSION is the
 * format's major version (1).  A Sharc RSL file (first record
 * "Application ...") is read as the apps format, a gain table of the older
 * header-only form (first record "nodes O placed") as gain. */
#include <string.h>

#include "ovb.h"

#define OVB_FORMAT_VERSION 1

#define FORMAT(n, T) { #n, sizeof(struct T), \
	(int (*)(struct ovb_lex *, void *))ovb_##n##_read, \
	(int (*)(FILE *, const void *))ovb_##n##_write, \
	(void (*)(void *))ovb_##n##_free }

const struct ovb_format ovb_formats[] = {
	FORMAT(onoff, ovb_onoff),
	FORMAT(usage, ovb_usage),
	FORMAT(profile, ovb_profiles),
	FORMAT(cluster, ovb_cluster),
	FORMAT(apps, ovb_apps),
	FORMAT(plan, ovb_plan),
	FORMAT(reserves, ovb_reserves),
	FORMAT(curve, ovb_curves),
	FORMAT(series, ovb_series_set),
	FORMAT(gain, ovb_gain),
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
	*status = ovb_err(lx, "'%s' is not the magic record of an overbook "
		"file (ovb-onoff, ovb-usage, ovb-profile, ovb-cluster, ovb-apps, "
		"ovb-plan, ovb-reserves, ovb-curve, ovb-series, ovb-gain, or a "
		"Sharc RSL 'Application')", t);
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
	if (lx->ntok != 2 || !ovb_parse_u64(lx->tok[1], &v))
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
