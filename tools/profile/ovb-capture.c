/* ovb-capture: record the kernel events a profile needs with perf record.
 *
 * Checks that tracing is permitted before starting, picks the tracepoints
 * the running kernel has (CPU: sched:sched_switch, and
 * sched:sched_stat_runtime, whose charges close the switches some kernels
 * drop, e.g. from an idle task that emits no tracepoints, and
 * sched:sched_wakeup / sched_wakeup_new, when a task became runnable;
 * network: the socket
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
 * streams pipe mode to stdout for ovb-onoff.  Where tracefs is not mounted
 * yet it is mounted first, as perf would, so the events chosen are the
 * same on the first run after boot as on the next.  SIGINT and SIGTERM stop
 * perf, which finishes the file; it is kept, and ovb-capture ends by the
 * signal.  The finished file is read through once to count the events the
 * kernel lost, which are reported with the --mmap-pages to pass, and
 * perf's passes over its buffers (more than a recording never woken has:
 * said, as perf drops the charges made while the kernel wakes it).  The
 * buffers are large by default so that it is not woken (mmap_pages). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

#define TRACEFS "/sys/kernel/tracing"
#define WOKEN_ROUNDS 3   /* perf's passes over its buffers when the kernel
                            never woke it (ovb-onoff's WOKEN_ROUNDS) */

enum { OPT_RECV = 0x100, OPT_NET, OPT_PERF, OPT_DRY_RUN, OPT_NO_CGROUPS,
	OPT_MMAP_PAGES };

static double opt_duration = -1;
static const char *opt_mmap_pages;
static char default_pages[24];
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
	{ "mmap-pages", OPT_MMAP_PAGES, "PAGES", 0,
	  "The ring buffer of each CPU, in pages (a power of 2; perf record -m; "
	  "default 64 MiB, less where all CPUs' buffers would take more than "
	  "1/32 of the memory): perf drops the CPU-time charges made while the "
	  "kernel wakes it to empty a buffer half full, and loses events when "
	  "it empties them too late", 0 },
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
	"Where tracefs is not mounted yet (a fresh boot), ovb-capture mounts it "
	"at " TRACEFS " as perf does, when permitted (root).  When perf lost "
	"events (the kernel's buffers filled on a busy machine), it says how "
	"many and the --mmap-pages to pass; when the kernel woke perf to empty "
	"them (which drops the CPU time charged meanwhile), it says so too.  SIGINT or SIGTERM, to ovb-capture "
	"alone or to its process group, stops the recording: the trace "
	"recorded until then is kept whole, and ovb-capture then ends by that "
	"signal (130 or 143 in a shell).\n\n"
	"EXAMPLES:\n"
	"  ovb-capture -d 30 -o web.data          record 30 s system-wide\n"
	"  ovb-capture -o db.data -- pgbench -T 20 record while a command runs\n"
	"  ovb-capture -d 10 -o - | ovb-onoff -c web=comm:^nginx$\n\n"
	"Exit status: 0 success; 64 usage error; 69 perf missing or failed; "
	"74 I/O error; 77 tracing not permitted; 130, 143 stopped by SIGINT, "
	"SIGTERM (the trace kept).\n";

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
	case OPT_MMAP_PAGES: {
		double v = ovb_arg_real(st, "--mmap-pages", arg, 1, 1 << 24);
		if (v != (long)v || ((long)v & ((long)v - 1)))
			argp_error(st, "--mmap-pages: '%s' is not a power of 2 "
				"(1, 2, 4, ..., 16777216)", arg);
		opt_mmap_pages = arg;
		return 0;
	}
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

/* A fresh machine has no tracefs mounted until something mounts it (perf
 * does, the first time it needs a tracepoint).  The events are chosen from
 * it before perf runs, so it is mounted here the way perf mounts it, when
 * permitted: the first recording asks for the same events as the next. */
static void
mount_tracefs(void)
{
	if (access(TRACEFS "/events", R_OK | X_OK) == 0)
		return;
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) == 0) {
		if (!ovb_quiet)
			ovb_warn("mounted tracefs at %s (it was not mounted; "
				"perf would mount it too)", TRACEFS);
	} else if (ovb_verbose)
		ovb_warn("cannot mount tracefs at %s: %s", TRACEFS,
			strerror(errno));
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

/* perf's ring buffers, per CPU, when --mmap-pages is not given.  The
 * kernel wakes perf each time a CPU's buffer is half full, and perf drops
 * every event raised while that wakeup runs (perf_pending_irq() holds
 * perf's recursion guard): among them the sched_stat_runtime charge that
 * enqueuing perf makes to the task running where it is woken, up to a
 * tick of CPU time missing from the trace per wakeup (nginx under wrk with
 * perf's 512 KiB: 166 wakeups in 3 s, a worker's charges 0.2-3 % below
 * its /proc/PID/schedstat; bench/README.md).  So the default is large
 * enough that a recording of minutes is not woken at all: 64 MiB per CPU,
 * halved while all CPUs' buffers would take more than 1/32 of the memory,
 * never below perf's own 512 KiB (then perf's default is used). */
static const char *
mmap_pages(void)
{
	if (opt_mmap_pages)
		return opt_mmap_pages;
	long pg = sysconf(_SC_PAGESIZE), ncpu = sysconf(_SC_NPROCESSORS_ONLN),
		phys = sysconf(_SC_PHYS_PAGES);
	if (pg <= 0 || ncpu <= 0 || phys <= 0 || (64L << 20) % pg)
		return NULL;
	long pages = (64L << 20) / pg, floor = (512L << 10) / pg;
	while (pages > floor && (double)pages * (double)ncpu > (double)phys / 32)
		pages /= 2;
	if (pages <= floor)
		return NULL;
	snprintf(default_pages, sizeof default_pages, "%ld", pages);
	return default_pages;
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
	/* when a task became runnable: its wait for a CPU after a wake-up
	 * (ovb-onoff's runnable wait and --demand) */
	if (has_event("sched/sched_wakeup")) {
		push(&v, &n, &cap, "-e");
		push(&v, &n, &cap, "sched:sched_wakeup");
		if (has_event("sched/sched_wakeup_new")) {
			push(&v, &n, &cap, "-e");
			push(&v, &n, &cap, "sched:sched_wakeup_new");
		}
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
	const char *pages = mmap_pages();
	if (pages) {
		push(&v, &n, &cap, "-m");
		push(&v, &n, &cap, pages);
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

/* SIGINT and SIGTERM: sent to the process group (Ctrl-C) they reach perf
 * too; sent to ovb-capture alone they are passed on to perf.  Either way
 * perf stops recording and finishes its file, and then dies by the signal;
 * so the signal is noted, the file kept, and ovb-capture ends by the same
 * signal after it has put the trace in place. */
static volatile sig_atomic_t perf_pid, stop_sig;

static void
on_stop(int sig)
{
	int e = errno;
	stop_sig = sig;
	if (perf_pid > 0)
		kill((pid_t)perf_pid, sig);
	errno = e;
}

static void
catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Ends by the signal that stopped the recording (status 128 + its number
 * in a shell: 130, 143), as a program stopped by it would. */
static void
die_by(int sig)
{
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

/* Runs perf; waits for it, passing on SIGINT and SIGTERM (above). */
static int
run_perf(char **argv)
{
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	catch_stop();
	pid_t pid;
	int e = ovb_proc_spawn(&pid, argv[0], argv, -1, -1, -1);
	if (e) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		ovb_warn("cannot run %s: %s", argv[0], strerror(e));
		return OVB_EUNAVAIL;
	}
	perf_pid = pid;
	/* a signal that came before perf was known is passed on now (perf
	 * may not have its handlers yet: then it dies unfinished, below) */
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (stop_sig)
		kill(pid, stop_sig);
	int ws;
	if (ovb_proc_wait(pid, &ws))
		return 71;
	perf_pid = 0;
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
		return OVB_EUNAVAIL;
	/* stopped: perf finished its file and raised the signal it got */
	if (stop_sig && WIFSIGNALED(ws) && (WTERMSIG(ws) == SIGINT ||
	    WTERMSIG(ws) == SIGTERM))
		return 0;
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		ovb_warn("perf record failed (%s %d)", WIFEXITED(ws) ?
			"exit status" : "signal", WIFEXITED(ws) ?
			WEXITSTATUS(ws) : WTERMSIG(ws));
		return OVB_EUNAVAIL;
	}
	return 0;
}

/* The trace perf wrote: whole (a perf stopped before it had set up its
 * handlers leaves a file it never finished), and how many events the
 * kernel dropped because perf did not empty its buffers in time. */
static int
check_trace(const char *tmp, const char *out)
{
	FILE *f = fopen(tmp, "rb");
	if (!f && stop_sig) {
		ovb_warn("%s: perf was stopped before it had started recording; "
			"nothing is kept", out);
		return OVB_EUNAVAIL;
	}
	if (!f) {
		ovb_warn("%s: cannot open the trace perf wrote: %s", tmp,
			strerror(errno));
		return OVB_EIO;
	}
	struct ovb_perf *p;
	uint64_t samples = 0, lost = 0, rounds = 0;
	int st = ovb_perf_open(f, out, &p);
	if (!st)
		st = ovb_perf_count(p, &samples, &lost);
	if (!st)
		rounds = ovb_perf_rounds(p);
	ovb_perf_close(p);
	fclose(f);
	if (st) {
		ovb_warn("%s: perf did not leave a whole trace%s; nothing is "
			"kept", out, stop_sig ? " (it was stopped before it had "
			"started recording)" : "");
		return st == OVB_EIO ? st : OVB_EUNAVAIL;
	}
	/* perf's default: 512 KiB per CPU */
	long pages = mmap_pages() ? atol(mmap_pages()) :
		524288 / sysconf(_SC_PAGESIZE);
	if (lost) {
		ovb_warn("%s: perf lost %llu of %llu events (%.2f %%): the "
			"kernel's buffers filled faster than perf emptied them, and "
			"what they held is not in the trace (ovb-onoff reports the "
			"gaps, ovb-profile the share lost); record again with a "
			"larger buffer: --mmap-pages=%ld (now %ld pages per CPU)",
			out, (unsigned long long)lost, (unsigned long long)(samples +
			lost), 100.0 * (double)lost / (double)(samples + lost),
			pages * 4, pages);
	} else if (rounds > WOKEN_ROUNDS)
		ovb_warn("%s: perf emptied its buffers %llu times while it "
			"recorded (more than the %d passes of a recording the kernel "
			"never woke it in): perf drops the events raised while the "
			"kernel wakes it, among them CPU time charged to the task "
			"then running (up to a tick each), so busy time may be low; "
			"record again with a larger buffer: --mmap-pages=%ld (now "
			"%ld pages per CPU)", out, (unsigned long long)rounds,
			WOKEN_ROUNDS, pages * 4, pages);
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
	mount_tracefs();
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
	if (!pipe && !st)
		st = check_trace(tmp, out);
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
	if (stop_sig) {   /* the trace kept (or said why not), then die */
		if (!st && !ovb_quiet)
			ovb_warn("stopped by %s: the trace ends there",
				stop_sig == SIGINT ? "SIGINT" : "SIGTERM");
		die_by(stop_sig);
	}
	return st;
}
