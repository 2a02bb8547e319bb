/* res.c: the names and units of the resources (enum ovb_res) and of the
 * market's resources (enum ovb_mres). */
#include <string.h>

#include "ovb.h"

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

static const char *const mres_name[OVB_NMRES] = { "cpu", "mem" };
static const char *const mres_unit[OVB_NMRES] = { "cpu", "MiB" };

const char *ovb_mres_name(enum ovb_mres r) { return mres_name[r]; }
const char *ovb_mres_unit(enum ovb_mres r) { return mres_unit[r]; }

int
ovb_mres_parse(const char *s)
{
	for (int r = 0; r < OVB_NMRES; r++)
		if (!strcmp(s, mres_name[r]))
			return r;
	return -1;
}
