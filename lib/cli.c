/* cli.c: the options every ovb-* tool shares, as one argp child, the
 * strict parsing of option values, and the one hint of a tool about to
 * read a terminal (no silent wait). */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ovb.h"

/* --version: "PROGRAM (overbook) VERSION", the GNU form, so that help2man
 * names each manual page after its tool. */
static void
version(FILE *f, struct argp_state *st)
{
	(void)st;
	fprintf(f, "%s (overbook) %s\n", program_invocation_short_name,
		OVB_VERSION);
}
void (*argp_program_version_hook)(FILE *, struct argp_state *) = version;
const char *ovb_opt_output;
int ovb_verbose;
bool ovb_quiet;

static const struct argp_option common_options[] = {
	{ NULL, 0, NULL, 0, "Common options:", 100 },
	{ "output", 'o', "FILE", 0,
	  "Write to FILE (created whole or not at all) instead of stdout", 0 },
	{ "quiet", 'q', NULL, 0, "No warnings or progress on stderr", 0 },
	{ "verbose", 'v', NULL, 0, "Say more on stderr (repeatable)", 0 },
	{ 0 }
};

/* The tool's own argp (its usage, for ovb_stdin_tty). */
static const struct argp *root_argp;
const char *ovb_stdin_expects;
const char *ovb_stdin_refuse;

static error_t
parse_common(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case ARGP_KEY_INIT:
		/* glibc's root is its own wrapper around the tool's argp (the
		 * first child) and --help's */
		root_argp = st->root_argp;
		if (!root_argp->args_doc && root_argp->children &&
		    root_argp->children[0].argp)
			root_argp = root_argp->children[0].argp;
		return 0;
	case 'o':
		ovb_opt_output = arg;
		return 0;
	case 'q':
		ovb_quiet = true;
		return 0;
	case 'v':
		ovb_verbose++;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

int
ovb_stdin_tty(void)
{
	if (!isatty(STDIN_FILENO))
		return 0;
	const char *me = program_invocation_short_name;
	const char *args = root_argp && root_argp->args_doc ?
		root_argp->args_doc : "FILE";
	if (ovb_stdin_refuse) {
		fprintf(stderr, "%s: stdin is a terminal: %s\n", me,
			ovb_stdin_refuse);
		if (root_argp)
			argp_help(root_argp, stderr, ARGP_HELP_USAGE |
				ARGP_HELP_SEE, (char *)me);
		return OVB_EUSAGE;
	}
	if (ovb_quiet)
		return 0;
	if (ovb_stdin_expects)
		fprintf(stderr, "%s: reading stdin, a terminal: %s; Ctrl-D "
			"ends it (%s --help)\n", me, ovb_stdin_expects, me);
	else
		fprintf(stderr, "%s: reading stdin, a terminal: one input of "
			"%s, as text; Ctrl-D ends it (%s --help)\n", me, args, me);
	return 0;
}

static const struct argp common_argp = { common_options, parse_common,
	NULL, NULL, NULL, NULL, NULL };

const struct argp_child ovb_cli_child[] = {
	{ &common_argp, 0, NULL, 0 },
	{ 0 }
};

double
ovb_arg_real(struct argp_state *st, const char *opt, const char *s, double lo,
	double hi)
{
	double v = 0;
	if (!ovb_parse_real(s, &v))
		argp_error(st, "%s: '%s' is not a decimal number", opt, s);
	else if (v < lo || v > hi)
		argp_error(st, "%s: %s is outside [%g, %g]", opt, s, lo, hi);
	return v;
}

uint64_t
ovb_arg_u64(struct argp_state *st, const char *opt, const char *s,
	uint64_t lo, uint64_t hi)
{
	uint64_t v = 0;
	if (!ovb_parse_u64(s, &v))
		argp_error(st, "%s: '%s' is not an unsigned integer", opt, s);
	else if (v < lo || v > hi)
		argp_error(st, "%s: %s is outside [%llu, %llu]", opt, s,
			(unsigned long long)lo, (unsigned long long)hi);
	return v;
}

int64_t
ovb_arg_i64(struct argp_state *st, const char *opt, const char *s,
	uint64_t max)
{
	uint64_t v = ovb_arg_u64(st, opt, s + (*s == '-'), 0, max);
	return *s == '-' ? -(int64_t)v : (int64_t)v;
}

uint64_t
ovb_arg_seconds(struct argp_state *st, const char *opt, const char *s,
	uint64_t lo, uint64_t hi)
{
	static const struct { char c; uint64_t mul; } unit[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', OVB_DAY },
		{ 'w', 7 * OVB_DAY } };
	size_t n = strlen(s);
	uint64_t mul = 1;
	char num[32];
	for (size_t i = 0; n > 1 && i < sizeof unit / sizeof *unit; i++)
		if (s[n - 1] == unit[i].c) {
			mul = unit[i].mul;
			n--;
			break;
		}
	if (n >= sizeof num)
		n = sizeof num - 1;
	memcpy(num, s, n);
	num[n] = '\0';
	uint64_t v = 0;
	if (!ovb_parse_u64(num, &v) || v > UINT64_MAX / mul)
		argp_error(st, "%s: '%s' is not a whole number of seconds, "
			"minutes, hours, days or weeks (3600, 60m, 1h, 1d, 1w)", opt,
			s);
	v *= mul;
	if (v < lo || v > hi)
		argp_error(st, "%s: %s (%llu s) is outside [%llu, %llu] s", opt,
			s, (unsigned long long)v, (unsigned long long)lo,
			(unsigned long long)hi);
	return v;
}

void
ovb_arg_list(struct argp_state *st, const char *opt, const char *arg)
{
	size_t n = strlen(arg);
	if (!n || arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,"))
		argp_error(st, "%s: '%s' has an empty item", opt, arg);
}

void
ovb_arg_res(struct argp_state *st, const char *opt, char *arg,
	bool want[OVB_NRES])
{
	ovb_arg_list(st, opt, arg);
	for (char *s, *save = NULL; (s = strtok_r(arg, ",", &save)); arg = NULL) {
		int r = strcmp(s, "all") == 0 ? OVB_NRES : ovb_res_parse(s);
		if (r < 0)
			argp_error(st, "%s: unknown resource '%s' (cpu, net, "
				"net-rx, mem, all)", opt, s);
		for (int i = 0; i < OVB_NRES; i++)
			want[i] |= r == OVB_NRES || r == i;
	}
}

void
ovb_arg_capsules(struct argp_state *st, const char *opt, char *arg,
	struct ovb_select *sel)
{
	ovb_arg_list(st, opt, arg);
	for (char *s, *save = NULL; (s = strtok_r(arg, ",", &save)); arg = NULL) {
		if (!ovb_valid_name(s))
			argp_error(st, "%s: '%s' is not a capsule name", opt, s);
		if (ovb_names_add(&sel->caps, s, sel->ncaps)) {
			sel->cap = ovb_xrealloc(sel->cap, sel->ncaps + 1,
				sizeof *sel->cap);
			sel->cap[sel->ncaps++] = s;
		}
	}
}

/* ---- -r and -c of the profiling tools ---- */

struct ovb_select ovb_sel;

static const struct argp_option select_options[] = {
	{ NULL, 0, NULL, 0, "Selection:", 2 },
	{ "resource", 'r', "RES[,...]", 0,
	  "cpu, net (bytes sent), net-rx (bytes received), mem (bytes in "
	  "use; series only) or all (default: cpu,net); repeatable", 0 },
	{ "capsule", 'c', "NAME[,...]", 0,
	  "Only these capsules (default: all); repeatable", 0 },
	{ 0 }
};

static error_t
parse_select(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'r':
		ovb_arg_res(st, "-r", arg, ovb_sel.res);
		ovb_sel.res_given = true;
		return 0;
	case 'c':
		ovb_arg_capsules(st, "-c", arg, &ovb_sel);
		return 0;
	case ARGP_KEY_SUCCESS:
		if (!ovb_sel.res_given)
			ovb_sel.res[OVB_CPU] = ovb_sel.res[OVB_NET] = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp select_argp = { select_options, parse_select,
	NULL, NULL, NULL, NULL, NULL };

const struct argp_child ovb_select_children[] = {
	{ &select_argp, 0, NULL, 0 },
	{ &common_argp, 0, NULL, 0 },
	{ 0 }
};

/* ---- the enforcement targets: ovb-enforce, ovb-check, ovb-place ---- */

bool ovb_target_on[OVB_NTARGET];
size_t ovb_ntargets;
bool ovb_target_clamp;
struct ovb_klimits ovb_klim;

enum { TOPT_CLAMP = 0x180, TOPT_DLCAP, TOPT_HZ, TOPT_MTU, TOPT_ENFORCE };
unsigned ovb_enforce_mask;

static const struct argp_option target_options[] = {
	{ NULL, 0, NULL, 0, "Enforcement (the kernel's limits, ovb-enforce(1)):", 90 },
	{ "target", 't', "T[,T...]", 0, "sched-deadline, cgroup, cgroup1 (the "
	  "v1 cpu and memory controllers), systemd, tc or kubernetes (cgroup, "
	  "cgroup1, systemd and kubernetes: memory too, a node's requests "
	  "rounded up to pages, or MiB, within its memory)", 0 },
	{ "clamp", TOPT_CLAMP, NULL, 0, "Move a number beyond a kernel limit "
	  "to the limit, with a warning naming the capsule (default: an "
	  "error)", 0 },
	{ "dl-cap", TOPT_DLCAP, "F", 0, "SCHED_DEADLINE share per CPU, (0, 1] "
	  "(default 0.90: sched_rt_runtime_us/sched_rt_period_us minus the "
	  "fair server)", 0 },
	{ "hz", TOPT_HZ, "N", 0, "Kernel HZ for tc's burst >= rate/HZ "
	  "(default 100, the least)", 0 },
	{ "mtu", TOPT_MTU, "B", 0, "MTU in bytes (default 1500)", 0 },
	{ "enforce", TOPT_ENFORCE, "T[,T...]", 0, "ovb-place: reserve per "
	  "capsule what target T will really grant (tc: a burst of at least "
	  "the MTU and rate/HZ; cgroup, systemd, cgroup1: the least CFS quota; "
	  "sched-deadline: the least runtime), so that Eq. 1 and Eq. 3 hold "
	  "for the enforced numbers and ovb-enforce -t T needs no --clamp; "
	  "recorded in the plan (enforce); implies -t T.  ovb-check: the plan "
	  "must have been placed for T", 0 },
	{ 0 }
};

static error_t
parse_target(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case ARGP_KEY_INIT:
		ovb_klimits_default(&ovb_klim);
		return 0;
	case 't':
	case TOPT_ENFORCE: {
		/* --enforce T: reserve what T grants, and -t T: what it admits */
		const char *opt = key == 't' ? "--target" : "--enforce";
		ovb_arg_list(st, opt, arg);
		for (char *s, *save = NULL; (s = strtok_r(arg, ",", &save));
		     arg = NULL) {
			int t = ovb_target_parse(s);
			if (t < 0)
				argp_error(st, "%s: unknown target '%s' "
					"(sched-deadline, cgroup, cgroup1, "
					"systemd, tc, kubernetes)", opt, s);
			if (key == TOPT_ENFORCE)
				ovb_enforce_mask |= 1u << t;
			if (!ovb_target_on[t])
				ovb_ntargets++;
			ovb_target_on[t] = true;
		}
		return 0;
	}
	case TOPT_CLAMP: ovb_target_clamp = true; return 0;
	case TOPT_DLCAP:
		ovb_klim.dl_cap = ovb_arg_real(st, "--dl-cap", arg, 1e-6, 1);
		return 0;
	case TOPT_HZ:
		ovb_klim.hz = ovb_arg_u64(st, "--hz", arg, 1, 100000);
		return 0;
	case TOPT_MTU:
		ovb_klim.mtu = ovb_arg_u64(st, "--mtu", arg, 68, 1 << 20);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp target_argp = { target_options, parse_target,
	NULL, NULL, NULL, NULL, NULL };

const struct argp_child ovb_target_children[] = {
	{ &target_argp, 0, NULL, 0 },
	{ &ovb_unmeasured_argp, 0, NULL, 0 },
	{ &common_argp, 0, NULL, 0 },
	{ 0 }
};
