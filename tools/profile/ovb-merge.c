/* ovb-merge: the profiles of many hosts as one set.
 *
 * Reads ovb-profile files (stdin when none or "-"), each the KB-sized
 * result of profiling one host, and writes one ovb-profile file holding
 * every block, in input order, as ovb-fmt would write it.
 *
 * Invariants: a (capsule, resource) may have one profile in the set, so a
 * second one anywhere is an error naming both places (two hosts that
 * named their capsules alike), and nothing is written; every input is read
 * before anything is written; the output is whole or absent. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

static const char doc[] =
	"Merge the ovb-profile files of several hosts into one set."
	"\v"
	"Every input must be an ovb-profile file.  A capsule and resource "
	"profiled in two inputs (two hosts that named their capsules alike) "
	"is an error naming both places: give each host's capsules their own "
	"names (ovb-onoff -c NAME=SELECTOR, e.g. web-$(hostname -s)).  The "
	"output holds every block in input order, in canonical form.\n\n"
	"EXAMPLES:\n"
	"  ovb-merge h1.profile h2.profile -o fleet.profile\n"
	"  for h in h1 h2; do ssh $h 'ovb-capture -d 30 -o - | ...' >$h.profile; "
	"done; ovb-merge *.profile\n\n"
	OVB_EXIT_DOC_NOCHECK;

static const struct argp argp = { NULL, NULL, "[FILE...]", doc,
	ovb_cli_child, NULL, NULL };

static struct ovb_profiles all;

static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)ctx;
	if (strcmp(fmt->name, "profile"))
		return ovb_err(lx, "an ovb-%s file is not an input of ovb-merge "
			"(ovb-profile files only)", fmt->name);
	struct ovb_profiles p;
	int st = ovb_profile_read(lx, &p);
	if (st) {
		ovb_profile_free(&p);
		return st;
	}
	return ovb_profile_merge(&all, &p, lx->name);
}

int
main(int argc, char **argv)
{
	int first;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	int status = ovb_read_inputs(argc - first, argv + first, take, NULL);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = ovb_xmemstream(&buf, &len);
	if (!status && ovb_verbose)
		ovb_warn("%zu profile blocks from %d inputs", all.n,
			argc - first ? argc - first : 1);
	if (!status)
		status = ovb_profile_write(f, &all);
	fclose(f);
	if (!status)
		status = ovb_out_buffer(buf, len, 0);
	free(buf);
	ovb_profile_free(&all);
	return status;
}
