/* ovb-capture: record the kernel events a profile needs with perf record.
 *
 * Checks that tracing is permitted before starting, picks the tracepoints
 * the running kernel has (CPU: sched:sched_switch, and
 * sched:sched_stat_runtime, whose charges close the switches some kernels
 * drop, e.g. from an idle task that emits no tracepoints; network: the socket
 * layer's sock:sock_send_length / sock_recv_length where present, else
 * net:net_dev_queue, which fires in the sending task's context for locally
 * generated packets, or in a softirq's, with tcp:tcp_probe,
 * sock:inet_sock_set_state, irq:softirq_entry/exit, timer:hrtimer_* and
 * timer:timer_* (TCP's retransmit and delayed-ACK timers),
 * which name the socket a softirq sends from, and net:net_dev_start_xmit,
 * the segments a packet is cut into (on loopback, a packet sent in a
 * softirq is named by their arrival at its receiver); beside the socket events
 * it names the device a socket's packets go to), the cgroup of every
 * sample where a cgroup v2 hierarchy is mounted (--all-cgroups, for
 * ovb-onoff's cgroup: and unit: selectors), and runs perf system-wide,
 * without a shell, for a duration or while a command runs.  The trace
 * appears at -o FILE only when
 * perf succeeded (it is recorded to a temporary file and renamed); "-o -"
 * streams pipe mode to stdout for ovb-onoff. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

#define TRACEFS "/sys/kernel/tracing"

enum { OPT_RECV = 0x100, OPT_NET, OPT_PERF, OPT_DRY_RUN, OPT_NO_CGROUPS };

static double opt_duration = -1;
static bool opt_recv, opt_dry_run, opt_no_cgroups;
static const char *opt_net = "auto";
static const char *opt_perf = "perf";

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "What to record:", 1 },
	{ "duration", 'd', "SECONDS", 0,
	  "Record system-wide for SECONDS (default: while COMMAND runs)", 0 },
	{ "recv", OPT_RECV, NULL, 0, "Also record bytes received", 0 },
	{ "net", OPT_NET, "auto|sock|devq|none", 0,
	  "Network events: the socket layer, the device queue, or none "
	  "(default auto: sock where the kernel has it)", 0 },
	{ "no-cgroups", OPT_NO_CGROUPS, NULL, 0,
	  "Do not record the cgroup of every sample (by default recorded, "
	  "perf record --all-cgroups, where a cgroup v2 hierarchy is mounted: "
	  "ovb-onoff's cgroup: and unit: selectors need it)", 0 },
	{ NULL, 0, NULL, 0, "Running perf:", 2 },
	{ "perf", OPT_PERF, "PROGRAM", 0, "The perf program (default perf)", 0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0,
	  "Print the perf command line and exit", 0 },
	{ 0 }
};

static const char doc[] =
	"Record the kernel events ovb-onoff needs, with perf record."
	"\v"
	"Tracing system-wide needs root, or kernel.perf_event_paranoid <= -1 "
	"and a readable " TRACEFS "; ovb-capture checks first and says what "
	"to change (exit status 77 when tracing is not permitted).  Without -o "
	"the trace goes to perf.data.\n\n"
	"EXAMPLES:\n"
	"  ovb-capture -d 30 -o web.data          record 30 s system-wide\n"
	"  ovb-capture -o db.data -- pgbench -T 20 record while a command runs\n"
	"  ovb-capture -d 10 -o - | ovb-onoff -c web=comm:^nginx$\n\n"
	"Exit status: 0 success; 64 usage error; 69 perf missing or failed; "
	"74 I/O error; 77 tracing not permitted.\n";

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'd':
		opt_duration = ovb_arg_real(st, "--duration", arg, 0.001, 1e7);
		return 0;
	case OPT_RECV: opt_recv = true; return 0;
	case OPT_NET:
		if (strcmp(arg, "auto") && strcmp(arg, "sock") &&
		    strcmp(arg, "devq") && strcmp(arg, "none"))
			argp_error(st, "--net: '%s' is not auto, sock, devq or none",
				arg);
		opt_net = arg;
		return 0;
	case OPT_PERF: opt_perf = arg; return 0;
	case OPT_DRY_RUN: opt_dry_run = true; return 0;
	case OPT_NO_CGROUPS: opt_no_cgroups = true; return 0;
	case ARGP_KEY_ARG:
		return ARGP_ERR_UNKNOWN;
	case ARGP_KEY_SUCCESS:
		if (opt_duration < 0 && st->next >= st->argc)
			argp_error(st, "give -d SECONDS or a COMMAND to run");
		if (opt_duration >= 0 && st->next < st->argc)
			argp_error(st, "-d and a COMMAND exclude each other");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[-- COMMAND [ARG...]]",
	doc, ovb_cli_child, NULL, NULL };

static bool
has_event(const char *sysname)
{
	char path[256];
	snprintf(path, sizeof path, TRACEFS "/events/%s/format", sysname);
	return access(path, R_OK) == 0;
}

static int
read_int(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = fscanf(f, "%ld", v);
	fclose(f);
	return n == 1 ? 0 : -1;
}

/* Tracepoints need root, or paranoid <= -1 with a readable tracefs. */
static int
check_permitted(void)
{
	long paranoid = 2;
	read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (geteuid() != 0 && paranoid > -1) {
		ovb_warn("tracing is not permitted: kernel.perf_event_paranoid is "
			"%ld and you are not root.  Run as root, or allow it with: "
			"sudo sysctl -w kernel.perf_event_paranoid=-1", paranoid);
		return OVB_ENOPERM;
	}
	if (access(TRACEFS "/events", R_OK | X_OK) != 0) {
		ovb_warn("tracing is not permitted: %s/events is not readable "
			"(%s).  Mount tracefs there and make it readable: sudo mount "
			"-t tracefs nodev %s && sudo chmod 755 %s", TRACEFS,
			strerror(errno), TRACEFS, TRACEFS);
		return OVB_ENOPERM;
	}
	if (!has_event("sched/sched_switch")) {
		ovb_warn("this kernel has no sched:sched_switch tracepoint "
			"(%s/events/sched/sched_switch)", TRACEFS);
		return OVB_ENOPERM;
	}
	return 0;
}

/* Is a cgroup v2 hierarchy mounted (alone, or beside v1 ones)?  perf
 * names cgroups by their path in it. */
static bool
has_cgroup2(void)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	if (!f)
		return false;
	char line[4096], dev[256], dir[2048], type[64];
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		found = sscanf(line, "%255s %2047s %63s", dev, dir, type) == 3 &&
			!strcmp(type, "cgroup2");
	fclose(f);
	return found;
}

static void
push(char ***argv, size_t *n, size_t *cap, const char *s)
{
	*OVB_PUSH(*argv, *n, *cap) = (char *)s;
}

/* The perf command line; events as the running kernel has them. */
static char **
perf_argv(const char *out, char **cmd, int ncmd, char *dur)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	bool sock = strcmp(opt_net, "devq") && strcmp(opt_net, "none") &&
		has_event("sock/sock_send_length");
	if (!strcmp(opt_net, "sock") && !sock)
		ovb_warn("this kernel has no sock:sock_send_length; using "
			"net:net_dev_queue");
	push(&v, &n, &cap, opt_perf);
	push(&v, &n, &cap, "record");
	push(&v, &n, &cap, "-a");
	push(&v, &n, &cap, "-k");
	push(&v, &n, &cap, "CLOCK_MONOTONIC");
	if (!opt_no_cgroups && has_cgroup2())
		push(&v, &n, &cap, "--all-cgroups");
	push(&v, &n, &cap, "-e");
	push(&v, &n, &cap, "sched:sched_switch");
	if (has_event("sched/sched_stat_runtime")) {
		push(&v, &n, &cap, "-e");
		push(&v, &n, &cap, "sched:sched_stat_runtime");
	}
	if (strcmp(opt_net, "none") && sock) {
		push(&v, &n, &cap, "-e");
		push(&v, &n, &cap, "sock:sock_send_length");
		if (opt_recv && has_event("sock/sock_recv_length")) {
			push(&v, &n, &cap, "-e");
			push(&v, &n, &cap, "sock:sock_recv_length");
		}
		/* the device a socket's packets go to (ovb-onoff --iface) */
		if (has_event("net/net_dev_queue")) {
			push(&v, &n, &cap, "-e");
			push(&v, &n, &cap, "net:net_dev_queue");
		}
	} else if (strcmp(opt_net, "none") && has_event("net/net_dev_queue")) {
		/* and what names the socket a softirq sends from: its
		 * tcp_probe, the softirq's bounds, and the owner's own
		 * socket events; on loopback, the segments (their skbs
		 * arrive at the receiver's tcp_probe) */
		static const char *const devq[] = { "net:net_dev_queue",
			"net:net_dev_start_xmit",
			"tcp:tcp_probe", "sock:inet_sock_set_state",
			"irq:softirq_entry", "irq:softirq_exit",
			"timer:hrtimer_start", "timer:hrtimer_expire_entry",
			"timer:hrtimer_expire_exit", "timer:timer_start",
			"timer:timer_expire_entry", "timer:timer_expire_exit" };
		for (size_t i = 0; i < sizeof devq / sizeof *devq; i++) {
			char path[64];
			snprintf(path, sizeof path, "%s", devq[i]);
			*strchr(path, ':') = '/';
			if (i && !has_event(path))
				continue;
			push(&v, &n, &cap, "-e");
			push(&v, &n, &cap, devq[i]);
		}
	}
	push(&v, &n, &cap, "-o");
	push(&v, &n, &cap, out);
	if (ovb_quiet)
		push(&v, &n, &cap, "-q");
	push(&v, &n, &cap, "--");
	if (dur) {
		push(&v, &n, &cap, "sleep");
		push(&v, &n, &cap, dur);
	}
	for (int i = 0; i < ncmd; i++)
		push(&v, &n, &cap, cmd[i]);
	push(&v, &n, &cap, NULL);
	return v;
}

/* Runs perf; SIGINT and SIGTERM reach perf (same process group), which
 * stops and finishes its file, so we wait for it rather than die. */
static int
run_perf(char **argv)
{
	pid_t pid = fork();
	if (pid < 0) {
		ovb_warn("cannot fork: %s", strerror(errno));
		return 71;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n",
			program_invocation_short_name, argv[0], strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	int ws;
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return 71;
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
		return OVB_EUNAVAIL;
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		ovb_warn("perf record failed (%s %d)", WIFEXITED(ws) ?
			"exit status" : "signal", WIFEXITED(ws) ?
			WEXITSTATUS(ws) : WTERMSIG(ws));
		return OVB_EUNAVAIL;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	int first;
	argp_parse(&argp, argc, argv, ARGP_IN_ORDER, &first, NULL);
	const char *out = ovb_opt_output ? ovb_opt_output : "perf.data";
	struct stat sb;
	bool pipe = !strcmp(out, "-") || (stat(out, &sb) == 0 &&
		!S_ISREG(sb.st_mode));
	char dur[32], *tmp = NULL;
	if (opt_duration >= 0)
		snprintf(dur, sizeof dur, "%.9g", opt_duration);
	if (!pipe) {
		tmp = ovb_xmalloc(strlen(out) + 16);
		sprintf(tmp, "%s.tmp%ld", out, (long)getpid());
	}
	char **pv = perf_argv(opt_dry_run || pipe ? out : tmp, argv + first,
		argc - first, opt_duration >= 0 ? dur : NULL);
	if (opt_dry_run) {
		for (char **a = pv; *a; a++)
			printf("%s%s", a == pv ? "" : " ", *a);
		putchar('\n');
		free(pv);
		free(tmp);
		return ovb_fshut_stdout();
	}
	int st = check_permitted();
	if (!st)
		st = run_perf(pv);
	if (!pipe) {
		if (!st && rename(tmp, out) != 0) {
			ovb_warn("%s: cannot rename into place: %s", out,
				strerror(errno));
			st = OVB_EIO;
		}
		if (st)
			unlink(tmp);
	}
	free(pv);
	free(tmp);
	return st;
}
