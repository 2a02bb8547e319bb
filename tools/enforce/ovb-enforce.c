/* ovb-enforce: render a plan into the settings that enforce it, per node,
 * for one facility (--target): SCHED_DEADLINE (chrt -d), cgroup v2 files,
 * systemd drop-ins, tc htb commands, Kubernetes resources.
 *
 * Reads a cluster and a plan for it (any order; the plan's qos records
 * carry sigma, rho, tau and O, so no profile is needed).  Every number is
 * checked against the kernel's limit (lib/enforce.c); a number the
 * facility cannot take is an error naming the capsule, the target and the
 * limit, or with --clamp a warning and the limit's value.  Memory (qos
 * mem) goes with the cpu settings of the targets that have it (cgroup,
 * cgroup1, systemd, kubernetes): the request protected, the limit the
 * OOM kill point, pages rounded up; a node's requests within its memory.  The output is
 * written whole or not at all.  tc: a default class 1:2 for unmatched
 * traffic; a capsule's class is told by its cgroup's net_cls.classid.
 * --script DIR: per node an idempotent apply script and a remove script
 * (cgroup, cgroup1, tc), each file whole or not at all, none after an
 * error; a capsule's cgroup is --cgroup TEMPLATE, never outside its root. */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ovb.h"

#define tname ovb_target_names
enum { T_DL = OVB_T_DL, T_CGROUP = OVB_T_CGROUP, T_SYSTEMD = OVB_T_SYSTEMD,
	T_TC = OVB_T_TC, T_K8S = OVB_T_K8S, T_CGROUP1 = OVB_T_CGROUP1 };

enum { OPT_DEV = 0x100, OPT_SCRIPT, OPT_CGROUP };

static int opt_target = -1;
static bool opt_clamp;
static const char *opt_dev = "eth0";
static const char *opt_script;          /* --script DIR */
static const char *opt_cgroup = "ovb.slice/ovb-%a.%c.service";
static struct cgmap { char *key; const char *path; bool used; } *opt_map;
static size_t opt_nmap;          /* --cgroup APP/CAPSULE=PATH */
#define L ovb_klim

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Output:", 1 },
	{ "dev", OPT_DEV, "IFACE", 0, "tc: the interface (default eth0)", 0 },
	{ "script", OPT_SCRIPT, "DIR", 0, "Write DIR/NODE.apply.sh, which "
	  "applies everything of the node (idempotent), and DIR/NODE.remove.sh, "
	  "which removes it (cgroup, cgroup1, tc)", 0 },
	{ "cgroup", OPT_CGROUP, "TEMPLATE|APP/CAPSULE=PATH", 0, "The cgroup "
	  "that runs a capsule, under each controller's root: %a the app, %c "
	  "the capsule, %n the node, %% a % (default "
	  "ovb.slice/ovb-%a.%c.service, the unit of --target systemd); or, "
	  "repeatable, one capsule's own (shop/web=system.slice/nginx.service)",
	  0 },
	{ 0 }
};

static const char doc[] =
	"Render a plan into the settings that enforce it, per node."
	"\v"
	"Inputs: an ovb-cluster and an ovb-plan for it, in any order.  A "
	"target that guarantees (sched-deadline, cpu.weight, tc rate, "
	"Kubernetes requests) gives each capsule at least its Eq. 1 term "
	"(sigma tau + rho)(1 - O) over any window of its tau; one that caps "
	"(cpu.max, CPUQuota, tc ceil, Kubernetes limits) lets through at "
	"least sigma tau + rho.  Units: ns (sched-deadline), us (cgroup), "
	"bit/s and bytes (tc), millicores (kubernetes).  Memory (a plan's "
	"qos mem REQUEST LIMIT): the request is protected (memory.min, "
	"MemoryMin=, cgroup1 memory.soft_limit_in_bytes, requests.memory), "
	"the limit is the OOM kill point (memory.max, MemoryMax=, "
	"memory.limit_in_bytes, limits.memory), both in B rounded up to "
	"pages of 4096 B (kubernetes: up to Mi); a node's requests add up "
	"to at most its memory.  sched-deadline and tc have no memory.\n\n"
	"tc: an htb class per capsule, and a default class (1:2) for all "
	"other traffic with what the capsules' rates leave of the link; a "
	"capsule's packets are told by its cgroup: the net_cls.classid of "
	"its cgroup (--cgroup, under the net_cls controller) is the class, "
	"and nftables copies it to the packet's priority, which htb takes as "
	"the class (ovb-enforce(1)).\n\n"
	"EXAMPLES:\n"
	"  ovb-enforce -t sched-deadline cluster plan   chrt -d lines and a "
	"table\n"
	"  ovb-enforce -t cgroup cluster plan           NODE/APP.CAPSULE/FILE "
	"VALUE\n"
	"  ovb-enforce -t tc --dev ens3 cluster plan    tc htb commands\n"
	"  ovb-enforce -t cgroup1 --script d cluster plan  d/NODE.apply.sh, "
	".remove.sh\n"
	"  ovb-enforce -t systemd --clamp cluster plan  drop-ins, limits "
	"clamped\n\n"
	OVB_EXIT_DOC_NOCHECK;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_DEV:
		if (!*arg || strlen(arg) >= 16 || strpbrk(arg, " /\t\n"))
			argp_error(st, "--dev: '%s' is not an interface name",
				arg);
		opt_dev = arg;
		return 0;
	case OPT_SCRIPT:
		if (!*arg)
			argp_error(st, "--script: an empty directory name");
		opt_script = arg;
		return 0;
	case OPT_CGROUP: {
		char *eq = strchr(arg, '=');
		if (eq) {
			opt_map = ovb_xrealloc(opt_map, opt_nmap + 1,
				sizeof *opt_map);
			opt_map[opt_nmap] = (struct cgmap){ ovb_xstrdup(arg),
				eq + 1, false };
			opt_map[opt_nmap].key[eq - arg] = '\0';
			if (!strchr(opt_map[opt_nmap].key, '/'))
				argp_error(st, "--cgroup: '%s': APP/CAPSULE=PATH",
					arg);
			arg = eq + 1;
			opt_nmap++;
		}
		if (!*arg || *arg == '/' || strstr(arg, "..") ||
		    strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789_.:+@/%-") != strlen(arg))
			argp_error(st, "--cgroup: '%s' is not a relative path of "
				"[A-Za-z0-9_.:+@/%%-] without ..", arg);
		for (const char *q = arg; (q = strchr(q, '%')); q += 2)
			if (!q[1] || !strchr("acn%", q[1]))
				argp_error(st, "--cgroup: '%s': %% is followed by "
					"a, c, n or %%", arg);
		if (eq && strchr(arg, '%'))
			argp_error(st, "--cgroup: '%s': a capsule's own path "
				"has no %%", arg);
		if (!eq)
			opt_cgroup = arg;
		return 0;
	}
	case ARGP_KEY_SUCCESS:
		if (ovb_ntargets == 0)
			argp_error(st, "--target is required");
		if (ovb_ntargets > 1)
			argp_error(st, "--target: one target at a time");
		for (int t = 0; t < OVB_NTARGET; t++)
			if (ovb_target_on[t])
				opt_target = t;
		opt_clamp = ovb_target_clamp;
		if (opt_script && opt_target != T_CGROUP &&
		    opt_target != T_CGROUP1 && opt_target != T_TC)
			argp_error(st, "--script: cgroup, cgroup1 or tc (%s is "
				"applied by its own tool: chrt -d, systemctl, "
				"kubectl)", tname[opt_target]);
		if (opt_script && ovb_opt_output)
			argp_error(st, "--script and -o exclude each other");
		if (ovb_enforce_mask)
			argp_error(st, "--enforce is ovb-place's and ovb-check's "
				"(a plan records what it was placed for)");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt,
	"CLUSTER PLAN", doc, ovb_target_children, NULL, NULL };

static struct {
	struct ovb_cluster cluster;
	struct ovb_plan plan;
	char *cluster_file, *plan_file;
	bool have_cluster, have_plan;
} S;

static int
take(void *ctx, const struct ovb_format *fmt, struct ovb_lex *lx)
{
	(void)ctx;
	int st;
	if (!strcmp(fmt->name, "cluster")) {
		if (S.have_cluster)
			return ovb_err(lx, "a second cluster file (the first "
				"is %s)", S.cluster_file);
		if (!(st = ovb_cluster_read(lx, &S.cluster))) {
			S.have_cluster = true;
			S.cluster_file = ovb_xstrdup(lx->name);
		}
	} else if (!strcmp(fmt->name, "plan")) {
		if (S.have_plan)
			return ovb_err(lx, "a second plan (the first is %s)",
				S.plan_file);
		if (!(st = ovb_plan_read(lx, &S.plan))) {
			S.have_plan = true;
			S.plan_file = ovb_xstrdup(lx->name);
		}
	} else
		st = ovb_err(lx, "an ovb-%s file is not an input of "
			"ovb-enforce (cluster, plan)", fmt->name);
	return st;
}

/* The plan is for this cluster: its nodes exist, its capacities agree. */
static int
same_cluster(void)
{
	int st = 0;
	for (size_t i = 0; i < S.plan.n; i++) {
		const struct ovb_placed *p = &S.plan.p[i];
		if (ovb_names_get(&S.cluster.byname, p->node) == OVB_NONE)
			st = ovb_err_at(S.plan_file, p->line, "capsule %s/%s is "
				"on node %s, which is not in %s: a plan for "
				"another cluster", p->app, p->capsule, p->node,
				S.cluster_file);
		else if (p->has_qos[OVB_MEM] && !ovb_cluster_has_mem(&S.cluster))
			st = ovb_err_at(S.plan_file, p->line, "capsule %s/%s has "
				"a mem qos, but %s gives no node memory: a plan "
				"for another cluster", p->app, p->capsule,
				S.cluster_file);
	}
	for (size_t i = 0; i < S.plan.nrisk; i++) {
		const struct ovb_noderisk *r = &S.plan.risk[i];
		size_t j = ovb_names_get(&S.cluster.byname, r->node);
		if (j == OVB_NONE)
			st = ovb_err_at(S.plan_file, r->line, "node %s is not "
				"in %s: a plan for another cluster", r->node,
				S.cluster_file);
		else if (S.cluster.node[j].cap[r->res] != r->capacity)
			st = ovb_err_at(S.plan_file, r->line, "node %s has %s "
				"capacity %.17g here but %.17g in %s: a plan for "
				"another cluster", r->node, ovb_res_name(r->res),
				r->capacity, S.cluster.node[j].cap[r->res],
				S.cluster_file);
	}
	return st;
}

static bool
need_of(const struct ovb_placed *p, int r, struct ovb_need *n)
{
	memset(n, 0, sizeof *n);
	if (!p->has_qos[r])
		return false;
	n->used = true;
	n->sigma = p->sigma[r];
	n->rho = p->rho[r];
	n->tau = p->tau[r];
	n->O = p->O[r];
	n->level = r == OVB_MEM;
	n->limit = n->level ? p->limit : 0;
	return true;
}

/* A limit: an error (65) or, with --clamp, a warning; v < 0 cannot be
 * represented even clamped. */
static int
limit(const struct ovb_placed *p, int v, const char *why)
{
	if (v == 0)
		return 0;
	if (v > 0 && opt_clamp) {
		if (!ovb_quiet)
			ovb_warn("%s:%lu: capsule %s/%s: %s: %s; clamped to "
				"the limit", S.plan_file, p->line, p->app,
				p->capsule, tname[opt_target], why);
		return 0;
	}
	return ovb_err_at(S.plan_file, p->line, "capsule %s/%s: %s: %s",
		p->app, p->capsule, tname[opt_target], why);
}

static bool
unit_name(const char *s)
{
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789_.:-") == strlen(s);
}

/* ---- --script: a node's apply and remove scripts ----
 *
 * Both are sh, set -eu.  apply makes each capsule's cgroup (mkdir -p) and
 * writes its files (the same values again: the same state), for tc
 * replaces the qdisc, the classes and the nftables table; remove moves a
 * capsule's processes to the controller's root cgroup, removes its cgroup
 * and the parents it leaves empty, the table and the root qdisc. */
static FILE *SA, *SR;   /* the node's apply and remove scripts, or NULL */
static struct script {
	const struct ovb_node *node;
	char *text[2];          /* apply, remove */
	size_t len[2];
} *SC;
static size_t nsc;

/* The cgroup of capsule p (--cgroup expanded), or NULL after an error. */
static char *
cg_path(const struct ovb_placed *p)
{
	char *buf = NULL;
	size_t len = 0;
	const char *tpl = opt_cgroup;
	for (size_t i = 0; i < opt_nmap; i++) {
		const char *k = opt_map[i].key, *sl = strchr(k, '/');
		/* APP/CAPSULE: the split that names this capsule */
		for (; sl; sl = strchr(sl + 1, '/'))
			if ((size_t)(sl - k) == strlen(p->app) &&
			    !strncmp(k, p->app, (size_t)(sl - k)) &&
			    !strcmp(sl + 1, p->capsule)) {
				tpl = opt_map[i].path;
				opt_map[i].used = true;
			}
	}
	FILE *f = ovb_xmemstream(&buf, &len);
	for (const char *q = tpl; *q; q++) {
		if (*q != '%') {
			fputc(*q, f);
			continue;
		}
		q++;
		fputs(*q == 'a' ? p->app : *q == 'c' ? p->capsule :
			*q == 'n' ? p->node : "%", f);
	}
	fclose(f);
	/* names may hold '/' and '.': never a step up, nor an empty step */
	bool bad = !strcmp(buf, "..") || !strncmp(buf, "../", 3) ||
		strstr(buf, "/../") || strstr(buf, "//") ||
		(len >= 3 && !strcmp(buf + len - 3, "/..")) ||
		buf[len - 1] == '/';
	if (bad) {
		ovb_err_at(S.plan_file, p->line, "capsule %s/%s: --cgroup "
			"%s gives the path '%s', which leaves its root",
			p->app, p->capsule, tpl, buf);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The start of both scripts of node nd: what they are, the shell
 * functions.  B CONTROLLER: the directory a cgroup path is under. */
static void
script_heads(const struct ovb_node *nd)
{
	static const char *const what[2] = { "applies the plan's settings "
		"of the node; idempotent: run again, the same state",
		"removes what its apply.sh made: each capsule's processes go to "
		"the root cgroup, its cgroup goes, and so do the parents it "
		"leaves empty" };
	FILE *f[2] = { SA, SR };
	const char *n = nd->name, *t = tname[opt_target];
	for (int i = 0; i < 2; i++) {
		fprintf(f[i], "#!/bin/sh\n# %s.%s.sh, by ovb-enforce --target "
			"%s --script: %s.\n", n, i ? "remove" : "apply", t,
			what[i]);
		if (opt_target == T_TC)
			fprintf(f[i], "# Needs tc, nft (nftables) and the v1 "
				"net_cls controller at $OVB_NET_CLS.\n"
				"set -eu\nDEV=${OVB_DEV:-%s}\n"
				"R=${OVB_NET_CLS:-/sys/fs/cgroup/net_cls}\n"
				"B() { echo \"$R\"; }\n", opt_dev);
		else
			fprintf(f[i], "# The cgroups are under "
				"$OVB_CGROUP_ROOT%s.\nset -eu\n"
				"R=${OVB_CGROUP_ROOT:-/sys/fs/cgroup}\n%s",
				opt_target == T_CGROUP1 ? "/CONTROLLER" : " (cgroup v2)",
				opt_target == T_CGROUP1 ? "B() { echo \"$R/$1\"; }\n" :
				"B() { echo \"$R\"; }\n");
	}
	if (opt_target == T_CGROUP)
		fprintf(SA, "# w CONTROLLER PATH FILE VALUE: the cgroup made, "
			"the controller passed down to it\n"
			"w() {\n\td=$R p=$2\n\twhile :; do\n"
			"\t\tgrep -qw \"$1\" \"$d/cgroup.subtree_control\" ||\n"
			"\t\t\techo \"+$1\" >\"$d/cgroup.subtree_control\"\n"
			"\t\td=$d/${p%%%%/*}\n\t\tmkdir -p \"$d\"\n"
			"\t\tcase $p in */*) p=${p#*/} ;; *) break ;; esac\n"
			"\tdone\n\techo \"$4\" >\"$d/$3\"\n}\n");
	else
		fprintf(SA, "# w CONTROLLER PATH FILE VALUE: the cgroup made "
			"if missing, the file written\n"
			"w() { mkdir -p \"$(B \"$1\")/$2\"; "
			"echo \"$4\" >\"$(B \"$1\")/$2/$3\"; }\n");
	if (opt_target == T_TC)
		fprintf(SA, "command -v nft >/dev/null || { echo \"$0: nft "
			"(nftables) is missing\" >&2; exit 69; }\n"
			"[ -e \"$R/net_cls.classid\" ] || { echo \"$0: no net_cls "
			"controller at $R: mount -t cgroup -o net_cls net_cls $R\" "
			">&2; exit 1; }\n");
	fprintf(SR, "# rm_cg CONTROLLER PATH\n"
		"rm_cg() {\n\td=$(B \"$1\")/$2\n\t[ -d \"$d\" ] || return 0\n"
		"\twhile read -r pid; do\n"
		"\t\techo \"$pid\" >\"$(B \"$1\")/cgroup.procs\" || :\n"
		"\tdone <\"$d/cgroup.procs\"\n\trmdir \"$d\"\n\tp=$2\n"
		"\twhile [ \"${p%%/*}\" != \"$p\" ]; do\n\t\tp=${p%%/*}\n"
		"\t\trmdir \"$(B \"$1\")/$p\" 2>/dev/null || break\n\tdone\n}\n");
}

static void
cpu_header(FILE *f, const struct ovb_placed *p, const struct ovb_need *n)
{
	double x, y, w;
	ovb_cpu_resv(n, &x, &y, &w);
	fprintf(f, "# %s/%s: Eq. 1 term %.17g cpu-s over tau %.17g s; cap "
		"%.17g cpu-s; section 4.1 x %.17g cpu-s every y %.17g s\n",
		p->app, p->capsule, ovb_enf_guarantee(n), n->tau,
		ovb_enf_envelope(n), x, y);
}

/* The memory of a capsule: what the plan asks, what is rendered. */
static void
mem_header(FILE *f, const struct ovb_placed *p, const struct ovb_mem *mm)
{
	fprintf(f, "# %s/%s: memory request %.17g B (protected: %" PRIu64
		" B), limit %.17g B (the OOM kill point: ", p->app, p->capsule,
		p->sigma[OVB_MEM], mm->request, p->limit);
	if (mm->unlimited)
		fprintf(f, "none, beyond the page counter");
	else
		fprintf(f, "%" PRIu64 " B", mm->limit);
	fprintf(f, "), window %.17g s, rounded up to %s\n", p->tau[OVB_MEM],
		opt_target == T_K8S ? "MiB" : "pages of 4096 B");
}

/* A capsule's memory rendered, or an error; mm cleared when it has none. */
static int
mem_of(const struct ovb_placed *p, struct ovb_mem *mm, bool *has)
{
	char why[256];
	struct ovb_need n;
	*has = false;
	memset(mm, 0, sizeof *mm);
	if (!need_of(p, OVB_MEM, &n))
		return 0;
	int e = limit(p, ovb_mem_map(opt_target, &n, mm, why, sizeof why), why);
	*has = !e;
	return e;
}

/* The node's memory admission: the rendered requests within its memory. */
static int
mem_admit(const struct ovb_node *nd, const struct ovb_mem *mm,
	const bool *has, size_t m)
{
	struct ovb_mem *a = ovb_xcalloc(m + 1, sizeof *a);
	size_t k = 0;
	double sum;
	for (size_t i = 0; i < m; i++)
		if (has[i])
			a[k++] = mm[i];
	int st = 0;
	if (k && !ovb_mem_admit(a, k, nd->cap[OVB_MEM], &sum))
		st = ovb_err_at(S.cluster_file, nd->line, "node %s: %s: the "
			"memory requests add up to %.17g B > the node's %.17g B",
			nd->name, tname[opt_target], sum, nd->cap[OVB_MEM]);
	free(a);
	return st;
}

static int
node_dl(FILE *f, const struct ovb_node *nd, size_t *idx, size_t m)
{
	int st = 0;
	char why[256];
	double sum = 0;
	struct ovb_dl *dls = ovb_xcalloc(m + 1, sizeof *dls);
	size_t nd_ = 0;
	for (size_t i = 0; i < m; i++) {
		const struct ovb_placed *p = &S.plan.p[idx[i]];
		struct ovb_need n;
		struct ovb_dl d;
		if (!need_of(p, OVB_CPU, &n))
			continue;
		int v = ovb_dl_map(&n, &L, opt_clamp, &d, why, sizeof why);
		int e = limit(p, v, why);
		if (e) {
			st = e;
			continue;
		}
		if (d.k == 0)
			continue;
		cpu_header(f, p, &n);
		fprintf(f, "dl %s %s %s %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %.17g\n", nd->name, p->app, p->capsule,
			d.k, d.runtime, d.deadline, d.period, n.tau);
		for (uint64_t j = 0; j < d.k; j++)
			fprintf(f, "chrt -d --sched-runtime %" PRIu64
				" --sched-deadline %" PRIu64 " --sched-period %"
				PRIu64 " 0 CMD\n", d.runtime, d.deadline,
				d.period);
		dls[nd_] = d;
		nd_++;
	}
	double cap = L.dl_cap * nd->cap[OVB_CPU];
	if (!st && !ovb_dl_admit(dls, nd_, L.dl_cap, nd->cap[OVB_CPU], &sum))
		st = ovb_err_at(S.cluster_file, nd->line, "node %s: "
			"sched-deadline: over-admitted: sum runtime/period "
			"%.9g > %g x %g cpu = %.9g", nd->name, sum, L.dl_cap,
			nd->cap[OVB_CPU], cap);
	fprintf(f, "# node %s: sum runtime/period %.9g of %.9g\n", nd->name,
		sum, cap);
	free(dls);
	return st;
}

/* A capsule's cgroup files in the apply script, its cgroups in the
 * remove script (the order: a burst never above the quota). */
static void
script_cfs(const struct ovb_placed *p, const char *cg, const struct ovb_cfs *c,
	uint64_t w, const struct ovb_mem *q)
{
	fprintf(SA, "# %s/%s\n", p->app, p->capsule);
	if (c && opt_target == T_CGROUP)
		fprintf(SA, "w cpu \"%s\" cpu.max.burst 0\n"
			"w cpu \"%s\" cpu.max \"%" PRIu64 " %" PRIu64 "\"\n"
			"w cpu \"%s\" cpu.max.burst %" PRIu64 "\n"
			"w cpu \"%s\" cpu.weight %" PRIu64 "\n", cg, cg, c->quota,
			c->period, cg, c->burst, cg, w);
	else if (c)
		fprintf(SA, "w cpu \"%s\" cpu.cfs_burst_us 0\n"
			"w cpu \"%s\" cpu.cfs_period_us %" PRIu64 "\n"
			"w cpu \"%s\" cpu.cfs_quota_us %" PRIu64 "\n"
			"w cpu \"%s\" cpu.cfs_burst_us %" PRIu64 "\n"
			"w cpu \"%s\" cpu.shares %" PRIu64 "\n", cg, cg, c->period,
			cg, c->quota, cg, c->burst, cg, w);
	if (q && opt_target == T_CGROUP) {
		fprintf(SA, "w memory \"%s\" memory.min %" PRIu64 "\n", cg,
			q->request);
		if (q->unlimited)
			fprintf(SA, "w memory \"%s\" memory.max max\n", cg);
		else
			fprintf(SA, "w memory \"%s\" memory.max %" PRIu64 "\n", cg,
				q->limit);
	} else if (q) {
		if (q->unlimited)
			fprintf(SA, "w memory \"%s\" memory.limit_in_bytes -1\n",
				cg);
		else
			fprintf(SA, "w memory \"%s\" memory.limit_in_bytes %" PRIu64
				"\n", cg, q->limit);
		fprintf(SA, "w memory \"%s\" memory.soft_limit_in_bytes %" PRIu64
			"\n", cg, q->request);
	}
	/* v2: one cgroup (memory's rm_cg finds it gone) */
	if (c)
		fprintf(SR, "rm_cg cpu \"%s\"\n", cg);
	if (q)
		fprintf(SR, "rm_cg memory \"%s\"\n", cg);
}

static int
node_cfs(FILE *f, const struct ovb_node *nd, size_t *idx, size_t m)
{
	int st = 0;
	char why[256];
	struct ovb_cfs *c = ovb_xcalloc(m + 1, sizeof *c);
	double *g = ovb_xcalloc(m + 1, sizeof *g);
	uint64_t *w = ovb_xcalloc(m + 1, sizeof *w);
	size_t *use = ovb_xcalloc(m + 1, sizeof *use), nu = 0;
	/* capsule i's cpu settings: c[slot[i] - 1] (0: none); its memory */
	size_t *slot = ovb_xcalloc(m + 1, sizeof *slot);
	struct ovb_mem *mm = ovb_xcalloc(m + 1, sizeof *mm);
	bool *hm = ovb_xcalloc(m + 1, sizeof *hm);
	for (size_t i = 0; i < m; i++) {
		const struct ovb_placed *p = &S.plan.p[idx[i]];
		struct ovb_need n;
		if (!p->has_qos[OVB_CPU] && !p->has_qos[OVB_MEM])
			continue;
		if (opt_target == T_SYSTEMD &&
		    (!unit_name(p->app) || !unit_name(p->capsule))) {
			st = ovb_err_at(S.plan_file, p->line, "capsule %s/%s: "
				"systemd: the name is not part of a unit name "
				"([A-Za-z0-9_.:-])", p->app, p->capsule);
			continue;
		}
		int e = mem_of(p, &mm[i], &hm[i]);
		if (e)
			st = e;
		if (!need_of(p, OVB_CPU, &n))
			continue;
		int v = ovb_cfs_map(&n, opt_clamp, &c[nu], why, sizeof why);
		e = limit(p, v, why);
		if (e) {
			st = e;
			continue;
		}
		g[nu] = ovb_enf_guarantee(&n) / n.tau;
		use[nu++] = idx[i];
		slot[i] = nu;
	}
	bool v1 = opt_target == T_CGROUP1;
	size_t bad = st ? 0 : ovb_weight_map(g, nu, nd->cap[OVB_CPU],
		v1 ? OVB_SHARES_MIN : OVB_WEIGHT_MIN,
		v1 ? OVB_SHARES_MAX : OVB_WEIGHT_MAX, w, why, sizeof why);
	if (bad) {
		int e = limit(&S.plan.p[use[bad - 1]], 1, why);
		if (e)
			st = e;
	}
	if (!st)
		st = mem_admit(nd, mm, hm, m);
	for (size_t j = 0; !st && j < m; j++) {
		const struct ovb_placed *p = &S.plan.p[idx[j]];
		const char *nn = nd->name, *a = p->app, *k = p->capsule;
		struct ovb_need n;
		size_t i = slot[j] - 1;
		bool cpu = slot[j] > 0;
		const struct ovb_mem *q = &mm[j];
		if (!cpu && !hm[j])
			continue;
		if (cpu) {
			need_of(p, OVB_CPU, &n);
			cpu_header(f, p, &n);
		}
		if (hm[j])
			mem_header(f, p, q);
		if (SA && (opt_target == T_CGROUP || opt_target == T_CGROUP1)) {
			char *cg = cg_path(p);
			if (!cg) {
				st = OVB_EDATA;
				break;
			}
			script_cfs(p, cg, cpu ? &c[i] : NULL, cpu ? w[i] : 0,
				hm[j] ? q : NULL);
			free(cg);
		}
		if (opt_target == T_CGROUP) {
			if (cpu) {
				fprintf(f, "%s/%s.%s/cpu.max %" PRIu64 " %" PRIu64
					"\n", nn, a, k, c[i].quota, c[i].period);
				fprintf(f, "%s/%s.%s/cpu.max.burst %" PRIu64 "\n",
					nn, a, k, c[i].burst);
				fprintf(f, "%s/%s.%s/cpu.weight %" PRIu64 "\n", nn,
					a, k, w[i]);
			}
			if (hm[j]) {
				fprintf(f, "%s/%s.%s/memory.min %" PRIu64 "\n", nn,
					a, k, q->request);
				if (q->unlimited)
					fprintf(f, "%s/%s.%s/memory.max max\n", nn, a,
						k);
				else
					fprintf(f, "%s/%s.%s/memory.max %" PRIu64
						"\n", nn, a, k, q->limit);
			}
			continue;
		}
		if (opt_target == T_CGROUP1) {
			if (cpu) {
				fprintf(f, "%s/%s.%s/cpu.cfs_period_us %" PRIu64
					"\n", nn, a, k, c[i].period);
				fprintf(f, "%s/%s.%s/cpu.cfs_quota_us %" PRIu64
					"\n", nn, a, k, c[i].quota);
				fprintf(f, "%s/%s.%s/cpu.cfs_burst_us %" PRIu64
					"\n", nn, a, k, c[i].burst);
				fprintf(f, "%s/%s.%s/cpu.shares %" PRIu64 "\n", nn,
					a, k, w[i]);
			}
			if (hm[j]) {
				if (q->unlimited)
					fprintf(f, "%s/%s.%s/memory.limit_in_bytes "
						"-1\n", nn, a, k);
				else
					fprintf(f, "%s/%s.%s/memory.limit_in_bytes %"
						PRIu64 "\n", nn, a, k, q->limit);
				fprintf(f, "%s/%s.%s/memory.soft_limit_in_bytes %"
					PRIu64 "\n", nn, a, k, q->request);
			}
			continue;
		}
		fprintf(f, "### %s/ovb-%s.%s.service.d/50-ovb.conf\n"
			"[Service]\nSlice=ovb.slice\n", nn, a, k);
		if (cpu) {
			uint64_t pm = (c[i].quota * 10000 + c[i].period - 1) /
				c[i].period;
			fprintf(f, "CPUWeight=%" PRIu64 "\n"
				"CPUQuota=%" PRIu64 ".%02" PRIu64 "%%\n"
				"CPUQuotaPeriodSec=%" PRIu64 "us\n", w[i],
				pm / 100, pm % 100, c[i].period);
		}
		if (hm[j]) {
			fprintf(f, "MemoryMin=%" PRIu64 "\n", q->request);
			if (q->unlimited)
				fprintf(f, "MemoryMax=infinity\n");
			else
				fprintf(f, "MemoryMax=%" PRIu64 "\n", q->limit);
		}
	}
	free(c);
	free(g);
	free(w);
	free(use);
	free(slot);
	free(mm);
	free(hm);
	return st;
}

/* tc: the root class (the link), the default class 1:2 (unmatched
 * traffic: what the capsules' rates leave of the link, at least 1 B/s),
 * a class 1:N per capsule from 1:10.  A capsule's packets reach its class
 * by its cgroup: net_cls.classid 0x0001NNNN in its cgroup, which nftables
 * copies to the packet's priority (meta cgroup ... meta priority set 1:N),
 * and htb takes a priority naming one of its classes as the class. */
static int
node_tc(FILE *f, const struct ovb_node *nd, size_t *idx, size_t m)
{
	int st = 0;
	char why[256];
	double link = ceil(nd->cap[OVB_NET] * 8), sum = 0;
	unsigned cls = 0x10;
	struct ovb_tb *tbs = ovb_xcalloc(m + 1, sizeof *tbs);
	size_t ntb = 0;
	char *buf = NULL, *sbuf = NULL, *nbuf = NULL, *rbuf = NULL;
	size_t len = 0, slen = 0, nlen = 0, rlen = 0;
	FILE *g = ovb_xmemstream(&buf, &len);    /* stdout: the classes */
	FILE *sg = ovb_xmemstream(&sbuf, &slen); /* apply: the classes */
	FILE *nf = ovb_xmemstream(&nbuf, &nlen); /* apply: the nft rules */
	FILE *rg = ovb_xmemstream(&rbuf, &rlen); /* remove: the cgroups */
	for (size_t i = 0; i < m; i++) {
		const struct ovb_placed *p = &S.plan.p[idx[i]];
		struct ovb_need n;
		struct ovb_tb t;
		if (!need_of(p, OVB_NET, &n))
			continue;
		int v = ovb_tc_map(&n, &L, opt_clamp, &t, why, sizeof why);
		int e = limit(p, v, why);
		if (e) {
			st = e;
			continue;
		}
		if (cls > 0xffff) {
			st = ovb_err_at(S.plan_file, p->line, "node %s: tc: "
				"more than 65519 classes", nd->name);
			break;
		}
		char *cg = cg_path(p);
		if (!cg) {
			st = OVB_EDATA;
			continue;
		}
		fprintf(g, "# %s/%s: Eq. 1 term %.17g B over tau %.17g s; cap "
			"sigma %.17g B/s burst %.17g B\n", p->app, p->capsule,
			ovb_enf_guarantee(&n), n.tau, n.sigma, n.rho);
		fprintf(g, "tc class add dev %s parent 1:1 classid 1:%x htb "
			"rate %" PRIu64 "bit ceil %" PRIu64 "bit burst %" PRIu64
			"b cburst %" PRIu64 "b\n", opt_dev, cls, t.rate,
			t.ceil, t.burst, t.burst);
		fprintf(g, "# %s/%s: cgroup %s, net_cls.classid 0x%08x\n",
			p->app, p->capsule, cg, 0x10000u | cls);
		fprintf(sg, "# %s/%s\ntc class replace dev \"$DEV\" parent 1:1 "
			"classid 1:%x htb rate %" PRIu64 "bit ceil %" PRIu64
			"bit burst %" PRIu64 "b cburst %" PRIu64 "b\n"
			"w net_cls \"%s\" net_cls.classid 0x%08x\n", p->app,
			p->capsule, cls, t.rate, t.ceil, t.burst, t.burst, cg,
			0x10000u | cls);
		fprintf(nf, "\t\toifname \"$DEV\" meta cgroup 0x%08x meta "
			"priority set 1:%x\n", 0x10000u | cls, cls);
		fprintf(rg, "rm_cg net_cls \"%s\"\n", cg);
		free(cg);
		cls++;
		tbs[ntb++] = t;
	}
	fclose(g);
	fclose(sg);
	fclose(nf);
	fclose(rg);
	if (!st && !ovb_tc_admit(tbs, ntb, nd->cap[OVB_NET], &sum))
		st = ovb_err_at(S.cluster_file, nd->line, "node %s: tc: the "
			"guaranteed rates add up to %.17g bit/s > the link's "
			"%.17g bit/s", nd->name, sum, link);
	/* the default class: the link less the rates (integers, exact) */
	double def = fmax(8, link - sum);
	if (!st && cls > 0x10) {
		fprintf(f, "# node %s: %s, link %.17g bit/s; unmatched traffic "
			"in the default class 1:2\n", nd->name, opt_dev, link);
		fprintf(f, "tc qdisc add dev %s root handle 1: htb default 2\n",
			opt_dev);
		fprintf(f, "tc class add dev %s parent 1: classid 1:1 htb rate "
			"%.17gbit ceil %.17gbit\n", opt_dev, link, link);
		fprintf(f, "tc class add dev %s parent 1:1 classid 1:2 htb rate "
			"%.17gbit ceil %.17gbit\n", opt_dev, def, link);
		fwrite(buf, 1, len, f);
	}
	if (!st && SA && cls > 0x10) {
		/* htb cannot change its default: an htb 1: of another
		 * default, or another root qdisc, is replaced by a new one */
		fprintf(SA, "if ! tc qdisc show dev \"$DEV\" root | grep -q "
			"'^qdisc htb 1: root .* default 0x2 '; then\n"
			"\ttc qdisc del dev \"$DEV\" root 2>/dev/null || :\n"
			"\ttc qdisc add dev \"$DEV\" root handle 1: htb default 2\n"
			"fi\n"
			"tc class replace dev \"$DEV\" parent 1: classid 1:1 htb "
			"rate %.17gbit ceil %.17gbit\n"
			"tc class replace dev \"$DEV\" parent 1:1 classid 1:2 htb "
			"rate %.17gbit ceil %.17gbit\n", link, link, def, link);
		fwrite(sbuf, 1, slen, SA);
		fprintf(SA, "# a packet's class: its socket's net_cls.classid, "
			"as its priority\nnft -f - <<EOF\ntable inet ovb\n"
			"delete table inet ovb\ntable inet ovb {\n"
			"\tchain out {\n\t\ttype filter hook output priority 0; "
			"policy accept;\n");
		fwrite(nbuf, 1, nlen, SA);
		fprintf(SA, "\t}\n}\nEOF\n");
		fprintf(SR, "if nft list table inet ovb >/dev/null 2>&1; then\n"
			"\tnft delete table inet ovb\nfi\n"
			"if tc qdisc show dev \"$DEV\" root | grep -q '^qdisc htb 1: '; "
			"then\n\ttc qdisc del dev \"$DEV\" root\nfi\n");
		fwrite(rbuf, 1, rlen, SR);
	}
	free(buf);
	free(sbuf);
	free(nbuf);
	free(rbuf);
	free(tbs);
	return st;
}

/* Kubernetes's QoS class of a capsule (one container), and why. */
static void
k8s_qos(FILE *f, bool cpu, const struct ovb_k8s *k, bool mem,
	const struct ovb_mem *q)
{
	if (!mem) {
		fprintf(f, "  # QoS class Burstable: %s\n", k->has_limit ?
			"no memory request (not a resource of the plan)" :
			"tau < 0.2 s, two CFS periods of 100 ms: no cpu limit");
		return;
	}
	const char *c = !cpu ? "no cpu request (no cpu qos in the plan)" :
		!k->has_limit ? "no cpu limit (tau < 0.2 s, two CFS periods "
		"of 100 ms)" : k->request < k->limit ? "cpu request < limit" :
		NULL;
	const char *m = q->unlimited ? "no memory limit" :
		q->request < q->limit ? "memory request < limit" : NULL;
	if (!c && !m)
		fprintf(f, "  # QoS class Guaranteed: requests equal limits "
			"for cpu and memory\n");
	else
		fprintf(f, "  # QoS class Burstable: %s%s%s\n", c ? c : "",
			c && m ? "; " : "", m ? m : "");
}

static int
node_k8s(FILE *f, const struct ovb_node *nd, size_t *idx, size_t m)
{
	int st = 0;
	char why[256];
	struct ovb_k8s *ks = ovb_xcalloc(m + 1, sizeof *ks);
	struct ovb_mem *mm = ovb_xcalloc(m + 1, sizeof *mm);
	bool *hm = ovb_xcalloc(m + 1, sizeof *hm);
	size_t nk = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *g = ovb_xmemstream(&buf, &len);
	for (size_t i = 0; i < m; i++) {
		const struct ovb_placed *p = &S.plan.p[idx[i]];
		struct ovb_need n;
		struct ovb_k8s k = { 0, 0, false };
		if (!p->has_qos[OVB_CPU] && !p->has_qos[OVB_MEM])
			continue;
		int e = mem_of(p, &mm[i], &hm[i]);
		if (e)
			st = e;
		bool cpu = need_of(p, OVB_CPU, &n);
		if (cpu) {
			e = limit(p, ovb_k8s_map(&n, opt_clamp, &k, why,
				sizeof why), why);
			if (e) {
				st = e;
				continue;
			}
			ks[nk++] = k;
		}
		if (!hm[i] && !cpu)
			continue;
		const struct ovb_mem *q = &mm[i];
		if (hm[i])
			mem_header(g, p, q);
		fprintf(g, "- node: %s\n  app: %s\n  capsule: %s\n  resources:\n"
			"    requests: {", nd->name, p->app, p->capsule);
		if (cpu)
			fprintf(g, "cpu: %" PRIu64 "m", k.request);
		if (hm[i])
			fprintf(g, "%smemory: %" PRIu64 "Mi", cpu ? ", " : "",
				q->request >> 20);
		fprintf(g, "}\n");
		bool ml = hm[i] && !q->unlimited;
		if (k.has_limit || ml) {
			fprintf(g, "    limits: {");
			if (k.has_limit)
				fprintf(g, "cpu: %" PRIu64 "m", k.limit);
			if (ml)
				fprintf(g, "%smemory: %" PRIu64 "Mi",
					k.has_limit ? ", " : "", q->limit >> 20);
			fprintf(g, "}\n");
		}
		k8s_qos(g, cpu, &k, hm[i], q);
	}
	fclose(g);
	double sum;
	if (!st && !ovb_k8s_admit(ks, nk, nd->cap[OVB_CPU], &sum))
		st = ovb_err_at(S.cluster_file, nd->line, "node %s: kubernetes: "
			"the requests add up to %.17gm > the node's %.17gm",
			nd->name, sum, nd->cap[OVB_CPU] * 1000);
	if (!st)
		st = mem_admit(nd, mm, hm, m);
	if (!st)
		fwrite(buf, 1, len, f);
	free(buf);
	free(ks);
	free(mm);
	free(hm);
	return st;
}

static int
render(FILE *f)
{
	int st = 0;
	fprintf(f, "# ovb-enforce --target %s\n", tname[opt_target]);
	size_t *idx = ovb_xcalloc(S.plan.n + 1, sizeof *idx);
	for (size_t j = 0; j < S.cluster.n; j++) {
		const struct ovb_node *nd = &S.cluster.node[j];
		size_t m = 0;
		for (size_t i = 0; i < S.plan.n; i++)
			if (!strcmp(S.plan.p[i].node, nd->name))
				idx[m++] = i;
		if (!m)
			continue;
		struct script *sc = NULL;
		if (opt_script) {
			SC = ovb_xrealloc(SC, nsc + 1, sizeof *SC);
			sc = &SC[nsc++];
			memset(sc, 0, sizeof *sc);
			sc->node = nd;
			SA = ovb_xmemstream(&sc->text[0], &sc->len[0]);
			SR = ovb_xmemstream(&sc->text[1], &sc->len[1]);
			script_heads(nd);
		}
		int e;
		switch (opt_target) {
		case T_DL: e = node_dl(f, nd, idx, m); break;
		case T_TC: e = node_tc(f, nd, idx, m); break;
		case T_K8S: e = node_k8s(f, nd, idx, m); break;
		default: e = node_cfs(f, nd, idx, m); break;
		}
		if (sc) {
			fclose(SA);
			fclose(SR);
			SA = SR = NULL;
		}
		if (sc && strchr(nd->name, '/'))
			e = ovb_err_at(S.cluster_file, nd->line, "node %s: "
				"--script: a '/' in the name cannot name its "
				"scripts", nd->name);
		if (e > st)
			st = e;
	}
	free(idx);
	return st;
}

/* --script DIR: DIR/NODE.apply.sh and DIR/NODE.remove.sh, each whole or
 * not at all, executable. */
static int
write_scripts(void)
{
	static const char *const suffix[2] = { "apply", "remove" };
	if (mkdir(opt_script, 0777) != 0 && errno != EEXIST) {
		ovb_warn("%s: cannot create: %s", opt_script, strerror(errno));
		return OVB_EIO;
	}
	mode_t mask = umask(0);
	umask(mask);
	for (size_t i = 0; i < nsc; i++)
		for (int k = 0; k < 2; k++) {
			char *path;
			struct ovb_out o;
			if (asprintf(&path, "%s/%s.%s.sh", opt_script,
			    SC[i].node->name, suffix[k]) < 0)
				return OVB_EIO;
			int st = ovb_out_open(&o, path);
			if (!st) {
				fwrite(SC[i].text[k], 1, SC[i].len[k], o.f);
				st = ovb_out_close(&o, true);
			}
			if (!st && chmod(path, 0777 & ~mask) != 0) {
				ovb_warn("%s: cannot make executable: %s", path,
					strerror(errno));
				st = OVB_EIO;
			}
			free(path);
			if (st)
				return st;
		}
	return 0;
}
/* A capsule whose plan says a resource the target renders was not
 * measured (ovb-place --unmeasured=zero): 65 at its record, naming the
 * capsule and the resource, unless --unmeasured=zero here too (then a
 * warning: nothing is rendered of it). */
static int
unmeasured(void)
{
	unsigned rendered = 1u << ovb_target_res(opt_target) |
		(ovb_target_has_mem(opt_target) ? 1u << OVB_MEM : 0);
	for (size_t i = 0; i < S.plan.n; i++) {
		const struct ovb_placed *p = &S.plan.p[i];
		unsigned m = p->unmeasured & rendered;
		for (int r = 0; m && r < OVB_NCAP; r++) {
			if (!(m & (1u << r)))
				continue;
			if (!ovb_unmeasured_zero)
				return ovb_err_at(S.plan_file, p->unmeasured_line,
					"capsule %s/%s: %s was not measured (placed "
					"as 0 with --unmeasured=zero); %s renders "
					"nothing true of it: measure it, give the "
					"capsule plain values, or pass "
					"--unmeasured=zero", p->app, p->capsule,
					ovb_res_name((enum ovb_res)r),
					tname[opt_target]);
			if (!ovb_quiet)
				ovb_warn("%s:%lu: capsule %s/%s: %s was not "
					"measured; nothing of it rendered "
					"(--unmeasured=zero)", S.plan_file,
					p->unmeasured_line, p->app, p->capsule,
					ovb_res_name((enum ovb_res)r));
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	int first, status = 0, st;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	for (int i = first; i < argc; i++)
		if ((st = ovb_read_input(argv[i], take, NULL)) > status)
			status = st;
	if (!status && (!S.have_cluster || !S.have_plan)) {
		ovb_warn("missing input: %s%s(give the cluster and the plan)",
			S.have_cluster ? "" : "no ovb-cluster file; ",
			S.have_plan ? "" : "no ovb-plan file; ");
		status = OVB_EUSAGE;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = ovb_xmemstream(&buf, &len);
	if (!status && S.plan.enforce &&
	    !(S.plan.enforce & (1u << opt_target)) && !ovb_quiet)
		ovb_warn("%s: placed for other targets (its enforce record), not "
			"for %s: its numbers were not reserved as %s grants them "
			"(ovb-place --enforce %s; ovb-check -t %s checks them)",
			S.plan_file, tname[opt_target], tname[opt_target],
			tname[opt_target], tname[opt_target]);
	if (!status && (S.plan.enforce & (1u << opt_target)) && !ovb_quiet &&
	    (S.plan.enf_hz != ovb_klim.hz || S.plan.enf_mtu != ovb_klim.mtu ||
	    S.plan.enf_dlcap != ovb_klim.dl_cap))
		ovb_warn("%s: placed for %s with HZ %llu, MTU %llu B and dl-cap "
			"%g (its enforce record), rendered with %llu, %llu B and "
			"%g: give the same --hz, --mtu, --dl-cap", S.plan_file,
			tname[opt_target], (unsigned long long)S.plan.enf_hz,
			(unsigned long long)S.plan.enf_mtu, S.plan.enf_dlcap,
			(unsigned long long)ovb_klim.hz,
			(unsigned long long)ovb_klim.mtu, ovb_klim.dl_cap);
	if (!status && !(status = same_cluster()) &&
	    !(status = unmeasured()))
		status = render(f);
	fclose(f);
	/* the cgroups are named by --script and tc's classids */
	bool named = opt_script || opt_target == T_TC;
	for (size_t i = 0; !status && named && i < opt_nmap; i++)
		if (!opt_map[i].used) {
			ovb_warn("--cgroup %s=%s: no capsule %s in %s (with "
				"something to enforce under %s)", opt_map[i].key,
				opt_map[i].path, opt_map[i].key, S.plan_file,
				tname[opt_target]);
			status = OVB_EUSAGE;
		}
	if (!status && opt_script)
		status = write_scripts();
	else if (!status)
		status = ovb_out_buffer(buf, len, 0);
	free(buf);
	for (size_t i = 0; i < nsc; i++)
		free(SC[i].text[0]), free(SC[i].text[1]);
	free(SC);
	for (size_t i = 0; i < opt_nmap; i++)
		free(opt_map[i].key);
	free(opt_map);
	if (S.have_plan)
		ovb_plan_free(&S.plan);
	if (S.have_cluster)
		ovb_cluster_free(&S.cluster);
	free(S.plan_file);
	free(S.cluster_file);
	return status;
}
