/* ovb-onoff: turn a perf.data kernel trace into On/Off traces of capsules.
 *
 * Reads a trace recorded with sched:sched_switch (and, for the network,
 * sock:sock_send_length / sock:sock_recv_length or net:net_dev_queue)
 * in file or pipe mode, follows which task runs on every CPU, maps tasks
 * to processes and names from the trace's COMM/FORK/EXIT records, and
 * writes the ovb-onoff format for every capsule given with -c, in one pass.
 *
 * Invariants of the output: a capsule's busy periods are the maximal
 * stretches of time during which a constant number (>= 1) of CPUs ran its
 * tasks, in order and disjoint, within the span [first sample, last
 * sample]; a task already running when recording began counts from the
 * span's start; with --demand, also one per task of the capsule waiting
 * for a CPU while runnable after a preemption (its switch out with
 * prev_state R to its switch in) or a wake-up (sched_wakeup to its switch
 * in), at most the trace's CPUs.  Bytes are credited to the task in whose context the
 * socket call ran, never to a task interrupted by a hard or soft irq;
 * bytes net:net_dev_queue saw in a softirq go to the owner of the socket
 * the softirq served (tcp:tcp_probe, an hrtimer or timer_list timer the
 * socket armed, or on
 * loopback the socket the skb reached), or are counted as not credited.
 * Lost events become gap records.  Memory does not grow with the trace's
 * length, only with the number of tasks, CPUs and sockets. */
#include <regex.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ovb.h"

#define MAXCAPS 64
#define PID_LIMIT 4194304            /* the kernel's PID_MAX_LIMIT */
#define LOOKBACK 1000000000ULL /* ns of trace time held before output */
#define FALLBACK 100000000ULL  /* ns a loopback packet sent in irq context
                                  may take to reach its receiver's
                                  tcp_probe before the softirq rules name
                                  its socket instead (< LOOKBACK / 2) */

enum { OPT_RECV = 0x100, OPT_NO_NET, OPT_STRICT, OPT_ALLOW_EMPTY, OPT_MAXU,
	OPT_IFACE, OPT_DEMAND };
#define MAXIFACES 64
#define MAXDEVS 1024         /* device names a trace may name */
#define BOUND_PCT 1.5        /* default bound on the uncertainty, % of busy */
#define WOKEN_ROUNDS 3       /* perf's passes over its buffers (FINISHED_ROUND
                                records) in a recording the kernel never
                                woke it in (ovb-capture's WOKEN_ROUNDS) */

struct selector {
	char *name, *text;
	enum { SEL_PID, SEL_COMM, SEL_CGROUP, SEL_UNIT } kind;
	char *path;          /* cgroup: the path, no trailing '/'; unit: name */
	int32_t pid;
	regex_t re;
};

struct task {
	uint64_t lastout;    /* when it was last switched out */
	uint64_t run;        /* a moving average of its observed runs, ns */
	uint64_t charged;    /* CPU time the kernel charged it since then
	                        (sched:sched_stat_runtime), ns */
	bool runnable;       /* it was preempted then, not asleep */
	uint64_t woken;      /* when sched_wakeup made it runnable, 0 not
	                        since it last left a CPU */
	bool demand;         /* --demand: its wait since then counts as busy
	                        for capsule dcap */
	int16_t dcap;
};

struct proc {
	int32_t ppid;
	int16_t cap;         /* capsule, -1 none; valid when cached */
	bool cached, known;
	bool counted;        /* in its capsule's nproc */
	char comm[16];
	uint64_t cgid;       /* its cgroup v2 id, 0 unknown */
};

struct capstate {
	uint32_t n;          /* CPUs running the capsule's tasks */
	uint64_t since;
	uint64_t busy;       /* CPU-ns written */
	uint64_t unsure;     /* CPU-ns by which busy may be off: runs whose
	                        start the trace misses and nothing closed */
	uint64_t nunsure;    /* how many such runs */
	uint64_t woken;      /* CPU-ns by which busy may be off: runs of woken
	                        tasks the kernel may have charged from before
	                        their switch in (no sched_stat_runtime) */
	uint64_t nwoken;     /* how many such runs */
	uint64_t uncharged;  /* CPU-ns by which busy may be off: runs the
	                        trace has no charge of though it has
	                        sched_stat_runtime (perf dropped them), counted
	                        from their switches, which a woken task's
	                        charges may begin before (issue 26 item 6) */
	uint64_t nuncharged; /* how many such runs */
	uint64_t wait_ns;    /* task-ns its tasks waited for a CPU while
	                        runnable after a preemption (switched out with
	                        prev_state R until switched in again) */
	uint64_t wake_ns;    /* and after a wake-up (sched_wakeup to the
	                        switch in) */
	uint64_t short_ns;   /* CPU-ns between where runs' charges ended and
	                        their switch out: the busy time is low by at
	                        most this much if charges the trace does not
	                        show were made there (issue 26 item 6) */
	size_t nproc;        /* processes the selector matched */
	char seen[160];      /* the first of them, "pid(comm) ...", for -v */
	struct ovb_busy last;/* the period not yet written (last.ncpu 0: none),
	                        so that one ending where the next begins with
	                        as many CPUs is written as one */
};

/* A change held for output: a capsule's CPU count (kind 0), or bytes it
 * sent (1) or received (2) when transfers are held too (see on_xfer). */
struct change {
	uint64_t time, bytes;
	uint32_t seq;        /* the low bits of a count: the changes held at
	                        once are far fewer than 2^31, so compared
	                        modulo 2^32 (earlier) */
	int8_t cap;          /* < MAXCAPS */
	int8_t delta, kind;
};
_Static_assert(MAXCAPS <= 127, "struct change: a capsule in an int8_t");

/* A map of 64-bit keys (never 0) to values, by open addressing: sockets
 * (named by tcp:tcp_probe and sock:inet_sock_set_state) to their owner,
 * the task in whose context an event named them; flows (a tcp_probe's
 * address hash) to their socket. */
struct kv { uint64_t key, val; };
struct map { struct kv *e; size_t n, cap; };
/* Bytes sent in irq context whose socket (sk) or owner is not known yet;
 * sk 0: only the skb, on cpu, is (loopback: its tcp_probe will come).
 * lo: a loopback packet whose segments (S.inflight) are awaited at their
 * receiver's tcp_probe, which names the sender exactly; until then guess
 * (a socket) or gtid (a task) is what the softirq rules name. */
struct pending {
	uint64_t time, sk, skb, bytes, guess;
	uint64_t hrt;        /* lo: the hrtimer whose callback sent it, 0 */
	uint32_t cpu;
	int32_t gtid;        /* or the guess's owner when it was sent */
	bool done, lo;
	bool arr;            /* sk was named by the packet's arrival */
};

static struct selector sel[MAXCAPS];
static int nsel;
static bool opt_recv, opt_net = true, opt_strict, opt_allow_empty;
static bool opt_demand;
static double opt_bound = BOUND_PCT;   /* < 0: any */
static const char *opt_input;
static const char *opt_iface[MAXIFACES];
static int niface;
static bool need_cgroups;

/* Network devices: interned names; per socket and per task, the device
 * its packets were seen queued to (net:net_dev_queue). */
struct u64map { uint64_t *key; int16_t *val; size_t n, cap; };
static struct netstate {
	char (*dev)[16];
	size_t ndev, capdev;
	struct u64map sock_dev;   /* socket address -> device */
	struct u64map task_dev;   /* tid -> device queued to since its last
	                             socket call */
	bool has_devq, has_sock;
	uint64_t unknown_bytes;   /* socket bytes of no known device */
	uint64_t excluded_bytes;  /* bytes on devices not chosen */
	uint64_t nonet_bytes;     /* sockets of no network family (unix) */
} N;

/* Per CPU: since when its current capsule holds, where it changed during
 * the current run (an exec, a cgroup learnt), else 0. */
static uint64_t *cap_from;

static struct state {
	struct ovb_perf *perf;
	const char *name;    /* the trace, for messages */
	FILE *out;
	int32_t *task_pid;   /* tid -> pid, 0 unknown (tid 0 is the idle task) */
	struct task *task;   /* by tid */
	size_t ntask;
	struct proc *proc;   /* by pid */
	size_t nproc;
	uint32_t ncpus;
	int32_t *cur_tid;    /* per CPU; -1 unknown */
	int16_t *cur_cap;
	uint64_t *cpu_last;  /* per CPU: time of its last event */
	uint32_t nknown;
	struct capstate cap[MAXCAPS];
	bool started, header;
	uint64_t t0, t1;
	uint64_t *cpu_since; /* per CPU: when its current task was switched in */
	int16_t *pred_cap;   /* per CPU: the capsule of the task before it */
	uint64_t *pred_start;/* and when that task's run began */
	uint64_t *pred_end;  /* and ended (before the switch when the kernel
	                        stopped charging it there) */
	bool *pred_charged;  /* and whether the trace has charges of that run:
	                        only then is what a later run takes of it
	                        owed elsewhere (charged_start) */
	uint64_t *in_lo;     /* per CPU: the earliest its current task may
	                        have been charged from, if woken (its start
	                        where the trace lacks its charges) */
	struct change *held; /* a min-heap by (time, seq): changes held out of
	                        order */
	size_t nheld, capheld;
	struct change *fifo; /* the rest, in (time, seq) order as they came:
	                        most changes (the heap's cost was a third of
	                        the time) */
	size_t fhead, nfifo, capfifo; /* a ring: nfifo from fhead on,
	                        capfifo a power of 2 */
	uint64_t seq, emitted, clamped, mismatched;
	struct ovb_gap gap;  /* the last gap, held to merge overlaps */
	bool have_gap;
	uint64_t events, irq_bytes;
	bool has_runtime;    /* sched:sched_stat_runtime was recorded */
	bool has_wakeup;     /* sched:sched_wakeup was recorded */
	bool hold_xfers;     /* tcp:tcp_probe was recorded: transfers go
	                        through held, so late credits stay in order */
	uint64_t *cur_sk;    /* per CPU: the socket the running softirq
	                        serves (the last tcp_probe in it), 0 none */
	uint64_t *cur_hrt;   /* per CPU: the hrtimer whose callback runs, 0 */
	struct map paced;    /* hrtimer -> the socket that a loopback packet
	                        its callback sent arrived from (the timer
	                        lies in that socket) */
	int32_t *cur_timer;  /* per CPU: the task that armed the hrtimer whose
	                        callback runs, 0 none */
	struct map armed;    /* hrtimer -> the task that armed it last */
	struct map armed_sk; /* hrtimer -> the socket a softirq served when
	                        it armed it last */
	uint64_t tmr_off;    /* where a socket's pacing hrtimer lies in it,
	                        once seen twice alike (tmr_cand, tmr_seen) */
	uint64_t tmr_cand, tmr_seen;
	uint64_t tmr_exact;  /* the same, from timers whose packets were seen
	                        arriving (tmr_ecand, tmr_eseen); it wins */
	uint64_t tmr_ecand, tmr_eseen;
	uint64_t lst_off[8], lst_seen[8]; /* where timer_list timers lie in
	                        their sockets (TCP's retransmit and delayed-ACK
	                        timers: one offset each), and how often each
	                        was seen; confirmed at 2 */
	size_t nlst;
	struct map known;    /* sockets the trace named -> 1 */
	uint64_t *anon_since;/* per CPU: since when the running softirq sent
	                        without naming a socket */
	struct map owner;    /* sk -> tid */
	struct map gone;     /* sk -> tid: its owner when it closed (for
	                        packets it sent before) */
	struct map flows;    /* flow hash -> sk */
	struct pending *pend;/* irq bytes of sockets without an owner yet,
	                        in time order from pend_head */
	size_t npend, cappend, pend_head;
	size_t pend_fb;      /* the first loopback packet not past FALLBACK */
	uint64_t pend_base;  /* entries dropped from pend's front: entry i
	                        is number pend_base + i + 1 */
	bool seg_xmit;       /* net:net_dev_start_xmit was recorded (and the
	                        softirq rules' events): loopback packets sent
	                        in irq context are matched at their arrival */
	struct map inflight; /* skb -> the number of the pending loopback
	                        packet it is (or a segment of), 0 none */
	uint64_t *last_q;    /* per CPU: that number for the last loopback
	                        packet queued on it, 0 not pending */
	uint64_t irq_credited, irq_nosock, irq_noowner, irq_arrived;
	uint64_t closed, lost;
	uint64_t *owed;      /* per CPU and capsule (c * MAXCAPS + k): CPU-ns
	                        the kernel charged the capsule there that no
	                        run could hold (two runs' charges reaching
	                        into each other), placed in the CPU's next
	                        idle stretch (repay) */
	uint64_t *idle_from; /* per CPU: where its last run ended, 0 none */
	uint64_t *free_from; /* per CPU: where its last run of a capsule
	                        ended, 0 while one runs or none ran: from
	                        there it ran only tasks no capsule selects */
	uint64_t *filled_to; /* per CPU: where what it owed last went */
	uint64_t moved, unplaced;
} S;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Capsules:", 1 },
	{ "capsule", 'c', "NAME=SEL", 0,
	  "A capsule: SEL is pid:N (process N and its descendants), "
	  "comm:REGEX (processes whose command name matches the extended "
	  "regular expression), cgroup:PATH (processes in the cgroup v2 PATH "
	  "or below it, PATH from the hierarchy's root) or unit:NAME (those "
	  "of the systemd unit NAME, e.g. nginx.service); repeatable, first "
	  "match wins", 0 },
	{ NULL, 0, NULL, 0, "Network:", 2 },
	{ "iface", OPT_IFACE, "NAME", 0,
	  "Count the traffic of network device NAME (repeatable; default: "
	  "every device but the loopback lo)", 0 },
	{ "recv", OPT_RECV, NULL, 0, "Also write bytes received", 0 },
	{ "no-net", OPT_NO_NET, NULL, 0, "Write CPU busy periods only (the "
	  "file says so, measured cpu: its net is not measured, not 0)", 0 },
	{ NULL, 0, NULL, 0, "Checks:", 3 },
	{ "max-uncertainty", OPT_MAXU, "PCT|any", 0,
	  "Refuse the trace (status 65) when a capsule's busy time may be off "
	  "by more than PCT % (default 1.5); 'any' warns instead", 0 },
	{ "strict", OPT_STRICT, "PCT", OPTION_ARG_OPTIONAL,
	  "As --max-uncertainty=PCT (default 1.5), and also fail when network "
	  "bytes could not be credited to a capsule, or (without --demand) when "
	  "a capsule's tasks waited for a CPU while runnable more than 5 % of "
	  "its busy time", 0 },
	{ "demand", OPT_DEMAND, NULL, 0,
	  "Count the time a capsule's tasks waited for a CPU while runnable "
	  "(after a preemption or a wake-up) as busy: what it needed, not what "
	  "a busy host "
	  "let it have (at most as many CPUs as the trace has)", 0 },
	{ "allow-empty", OPT_ALLOW_EMPTY, NULL, 0,
	  "A selector that matches no process of the trace is no error (its "
	  "capsule is written, with no busy period)", 0 },
	{ 0 }
};

static const char doc[] =
	"Turn a perf.data kernel trace into On/Off traces (ovb-onoff) of "
	"capsules."
	"\v"
	"PERF.DATA is a file written by perf record (or ovb-capture), or '-' "
	"(the default) for a pipe-mode stream from 'perf record -o -'.  It "
	"must hold sched:sched_switch; network bytes come from "
	"sock:sock_send_length / sock:sock_recv_length, or from "
	"net:net_dev_queue where those are missing (with tcp:tcp_probe, "
	"sock:inet_sock_set_state, irq:softirq_entry/exit and "
	"timer:hrtimer_* and timer:timer_*, as ovb-capture --net=devq records "
	"them, bytes a "
	"softirq sent go to the socket's owner); bytes count on the devices "
	"chosen with --iface, by default on every one but the loopback lo "
	"(the device of a socket is that of the packets its task queued, "
	"net:net_dev_queue, which ovb-capture records beside the socket "
	"events).  cgroup: and unit: selectors need the cgroup of every sample "
	"(perf record --all-cgroups; ovb-capture adds it where cgroup v2 is "
	"mounted).  sched:sched_stat_runtime "
	"places every run where the kernel's accounting does: from before its "
	"switch in when a wakeup preempted, and where the kernel dropped the "
	"switch (some idle tasks emit none).  Without it each such start is "
	"bounded, not known: -v prints the bound per capsule, and a trace "
	"whose busy time may be off by more than 1.5 % is refused (status 65; "
	"--max-uncertainty); a capsule whose tasks waited for a CPU while "
	"runnable (preempted) more than 5 % of its busy time is warned of "
	"(the host was busy: its busy time is what it got). "
	"Traces recorded per task (no -a, -p), on a CPU subset (-C), with "
	"sampled tracepoints (-F, -c) or filtered ones (--filter) are "
	"refused.\n\n"
	"EXAMPLES:\n"
	"  perf record -a -e sched:sched_switch -e sched:sched_stat_runtime \\\n"
	"      -e sock:sock_send_length -o web.data -- sleep 30\n"
	"  ovb-onoff -c web=comm:^nginx$ web.data > web.onoff\n"
	"  ovb-onoff -c web=comm:^nginx$ -c db=comm:^postgres$ all.data\n"
	"  ovb-onoff -c web=unit:nginx.service -c db=cgroup:/db all.data\n"
	"  ovb-onoff --iface eth0 -c web=comm:^nginx$ web.data\n"
	"  perf record -a -e sched:sched_switch -o - -- sleep 5 | \\\n"
	"      ovb-onoff -c app=pid:1234 > app.onoff\n\n"
	OVB_EXIT_DOC_NOCHECK;

/* cgroup:PATH (from the v2 hierarchy's root, "/" optional at either
 * end) or unit:NAME (a systemd unit: NAME.service, .scope, ...). */
static void
cgroup_selector(struct argp_state *st, struct selector *s, const char *cap,
	char *text)
{
	need_cgroups = true;
	if (text[0] == 'u') {
		s->kind = SEL_UNIT;
		s->path = text + 5;
		const char *dot = strrchr(s->path, '.');
		if (!*s->path || strchr(s->path, '/') || !dot || dot == s->path ||
		    !dot[1])
			argp_error(st, "--capsule %s: unit '%s' is not NAME.TYPE "
				"(e.g. nginx.service)", cap, s->path);
		return;
	}
	s->kind = SEL_CGROUP;
	char *p = text + 7;
	size_t n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	if (!n || strstr(p, "//") || strstr(p, "/../") || !strcmp(p, "..") ||
	    !strncmp(p, "../", 3) || (n >= 3 && !strcmp(p + n - 3, "/..")))
		argp_error(st, "--capsule %s: '%s' is not a cgroup path", cap, p);
	s->path = p;
}

static void
add_selector(struct argp_state *st, char *arg)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		argp_error(st, "--capsule: '%s' is not NAME=SELECTOR", arg);
	*eq = '\0';
	if (!ovb_valid_name(arg))
		argp_error(st, "--capsule: '%s' is not a valid capsule name", arg);
	if (nsel == MAXCAPS)
		argp_error(st, "--capsule: at most %d capsules", MAXCAPS);
	for (int i = 0; i < nsel; i++)
		if (!strcmp(sel[i].name, arg))
			argp_error(st, "--capsule: '%s' is given twice", arg);
	struct selector *s = &sel[nsel];
	s->name = arg;
	s->text = eq + 1;
	if (!strncmp(eq + 1, "pid:", 4)) {
		s->kind = SEL_PID;
		s->pid = (int32_t)ovb_arg_u64(st, "--capsule pid", eq + 5, 1,
			PID_LIMIT);
	} else if (!strncmp(eq + 1, "comm:", 5)) {
		s->kind = SEL_COMM;
		int e = regcomp(&s->re, eq + 6, REG_EXTENDED | REG_NOSUB);
		if (e) {
			char msg[128];
			regerror(e, &s->re, msg, sizeof msg);
			argp_error(st, "--capsule %s: bad regular expression: %s",
				arg, msg);
		}
	} else if (!strncmp(eq + 1, "cgroup:", 7) ||
	    !strncmp(eq + 1, "unit:", 5))
		cgroup_selector(st, s, arg, eq + 1);
	else
		argp_error(st, "--capsule %s: selector '%s' is not pid:N, "
			"comm:REGEX, cgroup:PATH or unit:NAME", arg, eq + 1);
	if (strpbrk(s->text, " \t"))
		argp_error(st, "--capsule %s: the selector may not contain blanks "
			"(use [[:space:]] in a regex)", arg);
	nsel++;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'c': add_selector(st, arg); return 0;
	case OPT_RECV: opt_recv = true; return 0;
	case OPT_NO_NET: opt_net = false; return 0;
	case OPT_ALLOW_EMPTY: opt_allow_empty = true; return 0;
	case OPT_IFACE:
		if (!*arg || strlen(arg) >= 16 || strpbrk(arg, "/ \t:"))
			argp_error(st, "--iface: '%s' is not a device name", arg);
		if (niface == MAXIFACES)
			argp_error(st, "--iface: at most %d devices", MAXIFACES);
		opt_iface[niface++] = arg;
		return 0;
	case OPT_DEMAND: opt_demand = true; return 0;
	case OPT_STRICT:
		opt_strict = true;
		if (arg)
			opt_bound = ovb_arg_real(st, "--strict", arg, 0, 1e9);
		return 0;
	case OPT_MAXU:
		opt_bound = !strcmp(arg, "any") ? -1 :
			ovb_arg_real(st, "--max-uncertainty", arg, 0, 1e9);
		return 0;
	case ARGP_KEY_ARG:
		if (st->arg_num > 0)
			argp_error(st, "one trace at a time");
		opt_input = arg;
		return 0;
	case ARGP_KEY_SUCCESS:
		if (!nsel)
			argp_error(st, "no capsules: give at least one -c NAME=SEL");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[PERF.DATA]", doc,
	ovb_cli_child, NULL, NULL };

/* ---- tasks and processes ---- */

static int
grow_ids(int32_t id, const char *what)
{
	if (id < 0 || id > PID_LIMIT)
		return ovb_err_at(S.name, 0, "trace names %s %d, beyond the kernel's "
			"limit", what, id), OVB_EDATA;
	size_t need = (size_t)id + 1;
	if (need > S.ntask) {
		size_t n = S.ntask ? S.ntask : 1024;
		while (n < need)
			n *= 2;
		S.task_pid = ovb_xrealloc(S.task_pid, n, sizeof *S.task_pid);
		memset(S.task_pid + S.ntask, 0, (n - S.ntask) * sizeof *S.task_pid);
		S.task = ovb_xrealloc(S.task, n, sizeof *S.task);
		memset(S.task + S.ntask, 0, (n - S.ntask) * sizeof *S.task);
		S.proc = ovb_xrealloc(S.proc, n, sizeof *S.proc);
		memset(S.proc + S.nproc, 0, (n - S.nproc) * sizeof *S.proc);
		S.ntask = S.nproc = n;
	}
	return 0;
}

static bool
descends(int32_t pid, int32_t root)
{
	for (int depth = 0; pid > 0 && depth < 4096; depth++) {
		if (pid == root)
			return true;
		if ((size_t)pid >= S.nproc || !S.proc[pid].known)
			return false;
		pid = S.proc[pid].ppid;
	}
	return false;
}

/* Is path (from the cgroup v2 root) the cgroup want or below it? */
static bool
under(const char *path, const char *want)
{
	if (want[0] == '/')
		want++;
	if (path[0] == '/')
		path++;
	size_t n = strlen(want);
	return !n || (!strncmp(path, want, n) && (!path[n] || path[n] == '/'));
}

/* Is path the cgroup of systemd unit (or below it)?  A unit's cgroup is
 * its name under its slice's, and slices nest: "/system.slice/x.service",
 * "/a.slice/a-b.slice/x.service"; a user manager's units (under
 * user@UID.service, which is no slice) are not the system's. */
static bool
in_unit(const char *path, const char *unit)
{
	size_t n = strlen(unit);
	for (const char *c = path;;) {
		while (*c == '/')
			c++;
		const char *e = strchrnul(c, '/');
		if ((size_t)(e - c) == n && !strncmp(c, unit, n))
			return true;
		if (e - c < 6 || strncmp(e - 6, ".slice", 6))
			return false;
		c = e;
	}
}

static bool
selects(const struct selector *s, int32_t pid, const struct proc *p)
{
	switch (s->kind) {
	case SEL_PID: return descends(pid, s->pid);
	case SEL_COMM:
		return p->comm[0] && !regexec(&s->re, p->comm, 0, NULL, 0);
	case SEL_CGROUP:
	case SEL_UNIT: {
		const char *path = p->cgid ?
			ovb_perf_cgroup_path(S.perf, p->cgid) : NULL;
		return path && (s->kind == SEL_CGROUP ? under(path, s->path) :
			in_unit(path, s->path));
	}
	}
	return false;
}

static int16_t
capsule_of_proc(int32_t pid)
{
	struct proc *p = &S.proc[pid];
	if (p->cached)
		return p->cap;
	int16_t was = p->cap;
	p->cap = -1;
	for (int i = 0; i < nsel && p->cap < 0; i++)
		if (selects(&sel[i], pid, p))
			p->cap = (int16_t)i;
	p->cached = true;
	if (p->cap >= 0 && (p->cap != was || !p->counted)) {
		struct capstate *c = &S.cap[p->cap];
		size_t len = strlen(c->seen);
		c->nproc++;
		p->counted = true;
		if (len < sizeof c->seen - 40)
			snprintf(c->seen + len, sizeof c->seen - len, "%s%d(%.16s)",
				len ? " " : "", pid, p->comm);
	}
	return p->cap;
}

static int16_t
capsule_of_task(int32_t tid)
{
	if (tid <= 0 || (size_t)tid >= S.ntask)
		return -1;
	int32_t pid = S.task_pid[tid] ? S.task_pid[tid] : tid;
	return (size_t)pid < S.nproc ? capsule_of_proc(pid) : -1;
}

/* A process's capsule is fixed by its ancestry (pid selectors, decided
 * when it is forked) and its name (comm selectors, changed by exec). */
static void
uncache(int32_t pid)
{
	S.proc[pid].cached = false;
}

/* ---- output ---- */

/* Where and when the trace was recorded (formats/onoff.md, trace), from
 * the perf.data header's HOSTNAME, OSRELEASE and CLOCK_DATA. */
static void
put_trace(void)
{
	uint64_t wall, clock;
	bool has_clock = ovb_perf_clock(S.perf, &wall, &clock);
	ovb_onoff_put_trace(S.out, ovb_perf_host(S.perf),
		ovb_perf_kernel(S.perf), has_clock, wall, clock);
}

static void
put_header(void)
{
	if (S.header)
		return;
	S.header = true;
	ovb_onoff_put_header(S.out, S.ncpus);
	put_trace();
	/* what the trace measured: busy time always; bytes sent (received)
	 * only from events that show them, and not with --no-net (--recv
	 * for received): an unmeasured resource is said, not written as 0 */
	bool send = ovb_perf_has(S.perf, "sock:sock_send_length") ||
		ovb_perf_has(S.perf, "net:net_dev_queue");
	bool recv = ovb_perf_has(S.perf, "sock:sock_recv_length");
	ovb_onoff_put_measured(S.out, 1u << OVB_CPU |
		(opt_net && send ? 1u << OVB_NET : 0) |
		(opt_net && opt_recv && recv ? 1u << OVB_NETRX : 0));
	for (int i = 0; i < nsel; i++)
		ovb_onoff_put_capsule(S.out, sel[i].name, sel[i].text);
}

static void
flush_busy(int16_t k)
{
	struct capstate *c = &S.cap[k];
	if (c->last.ncpu)
		ovb_onoff_put_busy(S.out, sel[k].name, &c->last);
	c->last.ncpu = 0;
}

/* The capsule's CPU count changes by delta at time t. */
static void
apply(int16_t k, int delta, uint64_t t)
{
	struct capstate *c = &S.cap[k];
	/* --demand: runs and runnable waits, at most one per CPU */
	uint32_t n = c->n > S.ncpus && opt_demand ? S.ncpus : c->n;
	if (n && t > c->since) {
		c->busy += (t - c->since) * n;
		if (c->last.ncpu == n && c->last.end == c->since)
			c->last.end = t;
		else {
			flush_busy(k);
			c->last = (struct ovb_busy){ c->since, t, n };
		}
	}
	c->n = (uint32_t)((int)c->n + delta);
	c->since = t;
}

/* Changes are held for LOOKBACK ns of trace time, so that what is only
 * learnt later (the task a CPU ran when recording began, a switch the
 * trace missed) can still be placed at the time it happened; one older
 * than what was already written is moved up to it. */
static bool
earlier(const struct change *a, const struct change *b)
{
	return a->time < b->time ||
		(a->time == b->time && (int32_t)(a->seq - b->seq) < 0);
}

/* The ring of changes in order, twice as large (the memmove that kept a
 * plain array from growing without end had been 3% of the time). */
static void
grow_fifo(void)
{
	size_t cap = S.capfifo ? 2 * S.capfifo : 4096;
	struct change *q = ovb_xrealloc(NULL, cap, sizeof *q);
	for (size_t i = 0; i < S.nfifo; i++)
		q[i] = S.fifo[(S.fhead + i) & (S.capfifo - 1)];
	free(S.fifo);
	S.fifo = q;
	S.fhead = 0;
	S.capfifo = cap;
}

static void
hold(int16_t k, int delta, uint64_t t, int kind, uint64_t bytes)
{
	if (k < 0)
		return;
	if (t < S.emitted) {
		S.clamped++;
		t = S.emitted;
	}
	struct change c = { .time = t, .seq = (uint32_t)S.seq++,
		.bytes = bytes, .cap = (int8_t)k, .delta = (int8_t)delta,
		.kind = (int8_t)kind };
	if (!S.nfifo || !earlier(&c, &S.fifo[(S.fhead + S.nfifo - 1) &
	    (S.capfifo - 1)])) {
		if (S.nfifo == S.capfifo)
			grow_fifo();
		S.fifo[(S.fhead + S.nfifo++) & (S.capfifo - 1)] = c;
		return;
	}
	*OVB_PUSH(S.held, S.nheld, S.capheld) = c;
	size_t i = S.nheld - 1;
	while (i && earlier(&S.held[i], &S.held[(i - 1) / 2])) {
		struct change x = S.held[i];
		S.held[i] = S.held[(i - 1) / 2];
		S.held[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

static void
change(int16_t k, int delta, uint64_t t)
{
	hold(k, delta, t, 0, 0);
}

/* The earliest held change, from the queue or the heap (NULL: none). */
static const struct change *
first_held(void)
{
	const struct change *q = S.nfifo ? &S.fifo[S.fhead] : NULL;
	if (!S.nheld || (q && earlier(q, &S.held[0])))
		return q;
	return &S.held[0];
}

/* Takes f, first_held()'s answer, out of its queue or heap. */
static void
pop_change(const struct change *f, struct change *out)
{
	if (S.nfifo && f == &S.fifo[S.fhead]) {
		*out = *f;
		S.fhead = (S.fhead + 1) & (S.capfifo - 1);
		S.nfifo--;
		return;
	}
	*out = S.held[0];
	S.held[0] = S.held[--S.nheld];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < S.nheld && earlier(&S.held[l], &S.held[m]))
			m = l;
		if (r < S.nheld && earlier(&S.held[r], &S.held[m]))
			m = r;
		if (m == i)
			break;
		struct change x = S.held[i];
		S.held[i] = S.held[m];
		S.held[m] = x;
		i = m;
	}
}

/* Writes the held changes up to time limit. */
static void
release(uint64_t limit)
{
	const struct change *f = first_held();
	if (f)
		put_header();
	for (; f && f->time <= limit; f = first_held()) {
		struct change c;
		pop_change(f, &c);
		if (c.kind) {
			struct ovb_xfer x = { c.time, c.bytes };
			ovb_onoff_put_xfer(S.out, c.kind == 1 ? "send" : "recv",
				sel[c.cap].name, &x);
		} else
			apply(c.cap, c.delta, c.time);
		S.emitted = c.time;
	}
}

static void
put_gap(uint64_t start, uint64_t end, uint64_t lost)
{
	if (S.have_gap && start <= S.gap.end) {
		if (end > S.gap.end)
			S.gap.end = end;
		S.gap.lost += lost;
		return;
	}
	if (S.have_gap) {
		put_header();
		ovb_onoff_put_gap(S.out, &S.gap);
		if (start < S.gap.end)
			start = S.gap.end;
	}
	S.gap = (struct ovb_gap){ start, end < start ? start : end, lost };
	S.have_gap = true;
}

/* ---- events ---- */

/* When did task tid start running on CPU c, if the switch to it is
 * missing?  A task that was preempted (still runnable) when it last left
 * a CPU was waiting and is taken to start as soon as it could; one that
 * slept is taken to have run for as long as its runs usually last. */
static uint64_t
missed_start(uint32_t c, int32_t tid, uint64_t t, int16_t cap)
{
	const struct task *k = &S.task[tid];
	uint64_t since = S.cpu_since[c], s;
	if (S.has_runtime && k->charged) {
		/* the kernel's charges since it last left a CPU are this run */
		s = t > k->charged ? t - k->charged : 0;
		S.closed++;
	} else {
		if (k->runnable && k->lastout)
			s = k->lastout;
		else
			s = t > k->run ? t - k->run : 0;
		/* it started somewhere in [lo, t], after it last left a CPU:
		 * bound the error */
		uint64_t lo = since > k->lastout ? since : k->lastout;
		if (s < lo)
			s = lo;
		if (lo < t) {
			if (cap >= 0)
				S.cap[cap].unsure += t - lo, S.cap[cap].nunsure++;
			if (S.cur_cap[c] >= 0 && S.cur_cap[c] != cap)
				S.cap[S.cur_cap[c]].unsure += t - lo,
				S.cap[S.cur_cap[c]].nunsure++;
		}
	}
	return s < since ? since : s > t ? t : s;
}

/* Without sched:sched_stat_runtime: the kernel charges a task woken onto
 * a CPU from when it was enqueued, not from its sched_switch, and stops
 * charging the task it displaces then (see charged_start); a trace of
 * switches alone does not say when that was.  It was after the CPU's
 * previous switch and after the task last left a CPU: the time in between
 * is what the capsules of both may be off by.  A task resumed after a
 * preemption was not woken and is charged from its switch in. */
static void
woken_bound(uint32_t c, int32_t tid, uint64_t t, int16_t cap)
{
	if (tid <= 0)
		return;
	const struct task *k = &S.task[tid];
	if (k->runnable && k->lastout)
		return;
	uint64_t lo = S.cpu_since[c] > k->lastout ? S.cpu_since[c] : k->lastout;
	if (lo >= t)
		return;
	int16_t pred = S.cur_cap[c];
	if (cap == pred)
		return;
	if (cap >= 0)
		S.cap[cap].woken += t - lo, S.cap[cap].nwoken++;
	if (pred >= 0)
		S.cap[pred].woken += t - lo, S.cap[pred].nwoken++;
}

/* Task tid is switched in on CPU c at t: if it was preempted (still
 * runnable) when it last left a CPU, it waited for one since: its
 * capsule's demand beyond what it got (issue 26 item 1). */
static void
note_resume(uint32_t c, int32_t tid, uint64_t t)
{
	if (tid <= 0 || (size_t)tid >= S.ntask)
		return;
	struct task *k = &S.task[tid];
	int16_t cap = capsule_of_task(tid);
	if (k->runnable && k->lastout && t > k->lastout && cap >= 0)
		S.cap[cap].wait_ns += t - k->lastout;
	else if (!k->runnable && k->woken && t > k->woken && cap >= 0)
		S.cap[cap].wake_ns += t - k->woken;
	uint64_t from = k->runnable ? k->lastout : k->woken;
	if (k->demand)
		change(k->dcap, -1, t > from ? t : from);
	k->demand = false;
	k->runnable = false;
	k->woken = 0;
	(void)c;
}

/* Per task: the end and kind of its last run, and its usual run length. */
static void
note_run(uint32_t c, const struct ovb_pev *ev, uint64_t t)
{
	if (ev->prev <= 0)
		return;
	struct task *k = &S.task[ev->prev];
	if (S.cur_tid[c] == ev->prev) {
		uint64_t run = t - S.cpu_since[c];
		k->run = k->run ? (7 * k->run + run) / 8 : run;
	}
	k->lastout = t;
	k->runnable = ev->prev_runnable;
	k->charged = 0;
	k->demand = false;
	k->woken = 0;
	if (opt_demand && k->runnable) {
		/* it waits for a CPU from now until its next switch in */
		k->dcap = capsule_of_task(ev->prev);
		k->demand = k->dcap >= 0;
		change(k->dcap, +1, t);
	}
}

/* CPU time the kernel charged capsule k on CPU c that the run it
 * belongs to cannot hold without two runs overlapping on c: placed in the
 * CPU's next stretch where nothing ran instead (what is still owed when
 * the trace ends: where no capsule's task ran since, on any CPU), so that
 * a capsule's busy time is the sum of its charges (formats/perfdata.md). */
static void
owe(uint32_t c, int16_t k, uint64_t d)
{
	if (k >= 0 && d)
		S.owed[(size_t)c * MAXCAPS + (size_t)k] += d;
}

/* Nothing was placed on CPU c from idle_from[c] (where its last run
 * ended: the idle task's runs are nobody's) until until (where its next
 * run was placed): what it owes goes there, capsule after capsule. */
static uint64_t fill(uint32_t c, uint64_t a, uint64_t until);

static void
repay(uint32_t c, uint64_t until)
{
	uint64_t a = S.idle_from[c];
	S.idle_from[c] = 0;
	if (a)
		fill(c, a, until);
}

/* What CPU c owes, placed from a on, capsule after capsule, no further
 * than until (a stretch of some CPU where nothing ran); returns where
 * it ended. */
static uint64_t
fill(uint32_t c, uint64_t a, uint64_t until)
{
	/* not before what was written already (the stretch may have begun
	 * long ago): a change there would be moved up, and lost */
	if (a < S.emitted)
		a = S.emitted;
	for (int k = 0; k < nsel && a < until; k++) {
		uint64_t *d = &S.owed[(size_t)c * MAXCAPS + (size_t)k];
		uint64_t take = *d < until - a ? *d : until - a;
		if (!take)
			continue;
		change((int16_t)k, +1, a);
		change((int16_t)k, -1, a + take);
		a += take;
		*d -= take;
		S.moved += take;
	}
	if (a > S.filled_to[c])
		S.filled_to[c] = a;
	return a;
}

/* Task tid switched in on CPU c at t: the earliest the kernel may have
 * charged it from.  A task woken onto the CPU is charged from its
 * enqueue, after the CPU's previous switch and after it last left a
 * CPU; one resumed after a preemption, from its switch in. */
static uint64_t
in_lo(uint32_t c, int32_t tid, uint64_t t)
{
	if (tid <= 0 || (size_t)tid >= S.ntask)
		return t;
	const struct task *k = &S.task[tid];
	if (k->runnable && k->lastout)
		return t;
	uint64_t lo = S.cpu_since[c] > k->lastout ? S.cpu_since[c] : k->lastout;
	return lo < t ? lo : t;
}

/* With sched:sched_stat_runtime, the run ending on CPU c (began at
 * began) has no charge in the trace: perf dropped them (it drops what is
 * raised while the kernel wakes it).  Its busy time is its switches'
 * span, exact at its end when a successor's charges say where the kernel
 * stopped charging it (charged_start), but at its start the kernel may
 * have charged it from its enqueue: from in_lo on, taken from its
 * predecessor on the CPU.  Both capsules may be off by that much. */
static void
uncharged_bound(uint32_t c, uint64_t began)
{
	int16_t cap = S.cur_cap[c], pred = S.pred_cap[c];
	uint64_t w = S.in_lo[c] < began ? began - S.in_lo[c] : 0;
	if (cap >= 0)
		S.cap[cap].uncharged += w, S.cap[cap].nuncharged++;
	if (pred >= 0 && pred != cap && w)
		S.cap[pred].uncharged += w, S.cap[pred].nuncharged++;
}

/* The kernel charges a task woken onto a CPU from the moment it was
 * enqueued, not from its sched_switch (the scheduler skips the clock
 * update between them), and stops charging the task it displaces then.
 * With sched:sched_stat_runtime, a run that the kernel charged from
 * before its switch-in starts there, and its predecessor on the CPU ends
 * there; returns the run's start. */
static uint64_t
charged_start(uint32_t c, int32_t tid, uint64_t t)
{
	uint64_t in = S.cpu_since[c], charged = tid > 0 ? S.task[tid].charged : 0;
	if (!S.has_runtime || !charged || t - in >= charged)
		return in;
	uint64_t s = t - charged, e = S.pred_end[c];
	if (s < S.pred_start[c]) {
		owe(c, S.cur_cap[c], S.pred_start[c] - s);
		s = S.pred_start[c];
	}
	/* it ran over [s, in]; its predecessor only until e <= in.  Both
	 * are written even when the two runs are of one capsule: the
	 * predecessor's run was ended at e (its charges), so [e, in] is
	 * counted for nobody unless this run claims its part of it. */
	change(S.cur_cap[c], +1, s);
	change(S.cur_cap[c], -1, in);
	if (s < e) {
		change(S.pred_cap[c], -1, s);
		change(S.pred_cap[c], +1, e);
		/* what the predecessor was charged moves elsewhere; a run the
		 * trace lacks the charges of was counted from its switches,
		 * and the kernel did not charge it past s */
		if (S.pred_charged[c])
			owe(c, S.pred_cap[c], e - s);
	}
	return s;
}

/* When the capsule of the run ending on CPU c (begun at began) took
 * effect: a run whose capsule changed on the way counts as the new one
 * only from then on, so nothing may move the old one's time to it. */
static uint64_t
cap_start(uint32_t c, uint64_t began)
{
	uint64_t from = cap_from ? cap_from[c] : 0;
	if (cap_from)
		cap_from[c] = 0;
	return from > began ? from : began;
}

static int
on_switch(const struct ovb_pev *ev)
{
	uint32_t c = ev->cpu;
	if (c >= S.ncpus)
		return ovb_err_at(S.name, 0, "sched_switch on CPU %u, but the trace "
			"has %u CPUs", c, S.ncpus), OVB_EDATA;
	int st;
	if ((st = grow_ids(ev->prev, "task")) || (st = grow_ids(ev->next, "task")))
		return st;
	int16_t next = capsule_of_task(ev->next);
	uint64_t t = ev->time, began = S.cpu_since[c], end = t;
	int16_t ran = S.cur_cap[c];
	if (S.cur_tid[c] < 0) {
		/* the first switch on this CPU: prev ran since the span began */
		int16_t prev = capsule_of_task(ev->prev);
		uint64_t s = S.t0;
		if (ev->prev > 0 && S.has_runtime && S.task[ev->prev].charged &&
		    t - S.t0 > S.task[ev->prev].charged) {
			/* it started inside the span, its switch-in missed */
			s = t - S.task[ev->prev].charged;
			S.closed++;
		}
		change(prev, +1, s);
		change(prev, -1, t);
		change(next, +1, t);
		ran = prev;
		began = s;
	} else if (S.cur_tid[c] != ev->prev) {
		/* the trace missed a switch on this CPU (kernels drop some
		 * switches out of the idle task): prev ran from an estimated
		 * start, the task we thought ran until then */
		int16_t prev = capsule_of_task(ev->prev);
		uint64_t s = missed_start(c, ev->prev, t, prev);
		S.mismatched++;
		change(S.cur_cap[c], -1, s);
		change(prev, +1, s);
		change(prev, -1, t);
		change(next, +1, t);
		ran = prev;
		began = s;
	} else {
		began = charged_start(c, ev->prev, t);
		if (!S.has_runtime)
			woken_bound(c, ev->next, t, next);
		else if (ev->prev > 0 && !S.task[ev->prev].charged)
			uncharged_bound(c, began);
		/* With sched:sched_stat_runtime, a run the kernel charged less
		 * than its switches span ended where the charges end: the
		 * scheduler charges prev up to its clock update before the
		 * switch and the next task from there (which, if it is
		 * charged from before its switch in, charged_start places). */
		uint64_t charged = ev->prev > 0 ? S.task[ev->prev].charged : 0;
		if (S.has_runtime && charged && began + charged < t) {
			end = began + charged;
			if (S.cur_cap[c] >= 0)
				S.cap[S.cur_cap[c]].short_ns += t - end;
		}
		if (S.cur_cap[c] != next || end < t) {
			change(S.cur_cap[c], -1, end);
			change(next, +1, t);
		}
	}
	/* the CPU was idle until the run ending now began (or, when the
	 * trace missed a switch, until the run it shows began) */
	if (ev->prev > 0)
		repay(c, S.cur_tid[c] > 0 && S.cur_tid[c] != ev->prev ?
			S.cpu_since[c] : began);
	/* where its last run of a capsule ended, 0 while one runs */
	if (ran >= 0 || next >= 0 || (S.cur_cap[c] >= 0 &&
	    S.cur_tid[c] != ev->prev))
		S.free_from[c] = next >= 0 ? 0 : end;
	S.pred_cap[c] = ran;
	S.pred_start[c] = cap_start(c, began);
	S.pred_end[c] = end;
	S.pred_charged[c] = !S.has_runtime ||
		(ev->prev > 0 && S.task[ev->prev].charged);
	S.in_lo[c] = in_lo(c, ev->next, t);
	if (S.cur_tid[c] >= 0 && S.cur_tid[c] != ev->prev)
		note_resume(c, ev->prev, began);   /* its switch in missed */
	note_run(c, ev, t);
	note_resume(c, ev->next, t);
	if (ev->prev > 0 || S.cur_tid[c] < 0)
		S.idle_from[c] = end;
	S.cur_tid[c] = ev->next;
	S.cur_cap[c] = next;
	S.cpu_since[c] = t;
	return 0;
}

/* CPU time the kernel charged a task (sched:sched_stat_runtime, fired
 * when the scheduler updates the running task's statistics: at every
 * tick, and when it leaves the CPU, before its sched_switch). */
static int
on_runtime(const struct ovb_pev *ev)
{
	int32_t tid = ev->next;
	uint32_t c = ev->cpu;
	int st = grow_ids(tid, "task");
	if (st || tid <= 0)
		return st;
	S.task[tid].charged += ev->n;
	/* Charged in its own context, so running on this CPU: if the trace
	 * missed the switch to it, it began where the kernel began charging
	 * it (placed now, not at its switch out, which may be far ahead). */
	if (!S.started || ev->tid != tid || c >= S.ncpus || S.cur_tid[c] == tid)
		return 0;
	for (uint32_t o = 0; o < S.ncpus; o++)
		if (S.cur_tid[o] == tid)
			return 0;
	uint64_t t = ev->time, s = t > S.task[tid].charged ?
		t - S.task[tid].charged : 0;
	uint64_t lo = S.cur_tid[c] < 0 ? S.t0 : S.cpu_since[c];
	if (s < lo)
		s = lo;
	int16_t k = capsule_of_task(tid);
	if (S.cur_tid[c] >= 0)
		S.mismatched++;
	S.closed++;
	repay(c, S.cur_tid[c] > 0 ? S.cpu_since[c] : s);
	S.idle_from[c] = 0;
	note_resume(c, tid, s);
	change(S.cur_cap[c], -1, s);
	change(k, +1, s);
	if (k >= 0 || S.cur_cap[c] >= 0)
		S.free_from[c] = k >= 0 ? 0 : s;
	S.pred_cap[c] = S.cur_cap[c];
	S.pred_start[c] = cap_start(c, S.cur_tid[c] < 0 ? S.t0 : S.cpu_since[c]);
	S.pred_end[c] = s;
	S.pred_charged[c] = true;
	S.in_lo[c] = s;
	S.cur_tid[c] = tid;
	S.cur_cap[c] = k;
	S.cpu_since[c] = s;
	return 0;
}

/* sched:sched_wakeup (or _new): task next became runnable; until its
 * switch in it waits for a CPU (note_resume), unless it still runs (woken
 * before it left the CPU) or was preempted (its wait counted from then). */
static int
on_wakeup(const struct ovb_pev *ev)
{
	int32_t tid = ev->next;
	int st = grow_ids(tid, "task");
	if (st || tid <= 0 || !S.started)
		return st;
	struct task *k = &S.task[tid];
	if (k->runnable || k->woken)
		return 0;
	for (uint32_t o = 0; o < S.ncpus; o++)
		if (S.cur_tid[o] == tid)
			return 0;
	k->woken = ev->time ? ev->time : 1;
	if (opt_demand) {
		k->dcap = capsule_of_task(tid);
		k->demand = k->dcap >= 0;
		change(k->dcap, +1, ev->time);
	}
	return 0;
}

static void recheck_running(int32_t pid, uint64_t t);

/* ---- network devices ---- */

static size_t
hash64(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

static int16_t
dmap_get(const struct u64map *m, uint64_t k)
{
	if (!m->cap || !k)
		return -1;
	for (size_t i = hash64(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->key[i] == k)
			return m->val[i];
		if (!m->key[i])
			return -1;
	}
}

static void
dmap_put(struct u64map *m, uint64_t k, int16_t v)
{
	if (!k)
		return;
	if (2 * (m->n + 1) > m->cap) {
		struct u64map g = { NULL, NULL, 0, m->cap ? 2 * m->cap : 1024 };
		g.key = ovb_xcalloc(g.cap, sizeof *g.key);
		g.val = ovb_xcalloc(g.cap, sizeof *g.val);
		for (size_t i = 0; i < m->cap; i++)
			if (m->key[i])
				dmap_put(&g, m->key[i], m->val[i]);
		free(m->key);
		free(m->val);
		*m = g;
	}
	size_t i = hash64(k, m->cap);
	while (m->key[i] && m->key[i] != k)
		i = (i + 1) & (m->cap - 1);
	if (!m->key[i])
		m->n++;
	m->key[i] = k;
	m->val[i] = v;
}

/* The device's index, interned; -1 when the trace names too many. */
static int16_t
device(const char *name)
{
	for (size_t i = 0; i < N.ndev; i++)
		if (!strcmp(N.dev[i], name))
			return (int16_t)i;
	if (N.ndev == MAXDEVS)
		return -1;
	char (*d)[16] = OVB_PUSH(N.dev, N.ndev, N.capdev);
	snprintf(*d, sizeof *d, "%s", name);
	return (int16_t)(N.ndev - 1);
}

/* Is traffic on device d counted: chosen by --iface, or by default every
 * device but the loopback? */
static bool
chosen(int16_t d)
{
	if (d < 0)
		return !niface;
	if (!niface)
		return strcmp(N.dev[d], "lo") != 0;
	for (int i = 0; i < niface; i++)
		if (!strcmp(opt_iface[i], N.dev[d]))
			return true;
	return false;
}

/* Whether the bytes of a network event count.  A packet queued to a
 * device (net:net_dev_queue) names it.  The socket layer's events do
 * not: a socket takes the device of the packets its task queued during
 * the call (a send transmits in the caller's context when it can, a
 * receive sends its ACKs there), remembered for its later calls.  Where
 * the trace has both, packets only map sockets (their bytes are the
 * socket's, counted once).  Sockets of no network family (unix) are no
 * network traffic. */
static bool
net_counts(const struct ovb_pev *ev)
{
	if (ev->devq) {
		int16_t d = ev->dev[0] ? device(ev->dev) : -1;
		if (N.has_sock) {
			if (!ev->irq && ev->tid > 0 && d >= 0)
				dmap_put(&N.task_dev, (uint64_t)ev->tid, d);
			return false;
		}
		if (!chosen(d))
			N.excluded_bytes += ev->n;
		return chosen(d);
	}
	if (ev->family >= 0 && ev->family != AF_INET && ev->family != AF_INET6) {
		N.nonet_bytes += ev->n;
		return false;
	}
	int16_t d = ev->tid > 0 && !ev->irq ?
		dmap_get(&N.task_dev, (uint64_t)ev->tid) : -1;
	if (d >= 0) {
		dmap_put(&N.sock_dev, ev->sk, d);
		dmap_put(&N.task_dev, (uint64_t)ev->tid, -1);
	} else
		d = dmap_get(&N.sock_dev, ev->sk);
	if (d < 0 && (!ev->n || (ev->kind == OVB_PEV_RECV && !opt_recv)))
		return false;
	if (d < 0) {
		N.unknown_bytes += ev->n;
		return true;
	}
	if (!chosen(d))
		N.excluded_bytes += ev->n;
	return chosen(d);
}

/* What the device filter did: -v says it; bytes of no known device are
 * counted, with a warning (loopback traffic may be among them). */
static int
net_report(const char *name)
{
	if (!opt_net)
		return 0;
	if (ovb_verbose) {
		ovb_warn("%s: devices: %zu seen, counting %s; %llu bytes on "
			"other devices not counted, %llu bytes on sockets of no "
			"network family (unix) not counted", name, N.ndev,
			niface ? "those of --iface" : "all but lo",
			(unsigned long long)N.excluded_bytes,
			(unsigned long long)N.nonet_bytes);
		for (size_t i = 0; i < N.ndev; i++)
			ovb_warn("%s: device %s: %s", name, N.dev[i],
				chosen((int16_t)i) ? "counted" : "not counted");
	}
	if (!N.unknown_bytes)
		return 0;
	if (!ovb_quiet)
		ovb_warn("%s: %llu bytes on sockets whose device the trace does "
			"not show are counted (loopback traffic may be among them)%s",
			name, (unsigned long long)N.unknown_bytes, N.has_devq ?
			"" : "; record net:net_dev_queue with the socket events "
			"(ovb-capture does) to tell devices apart");
	return 0;
}

/* ---- cgroups ---- */

/* Which events the selectors and the device filter need. */
static int
features_start(void)
{
	N.has_sock = ovb_perf_has(S.perf, "sock:sock_send_length") ||
		ovb_perf_has(S.perf, "sock:sock_recv_length");
	N.has_devq = ovb_perf_has(S.perf, "net:net_dev_queue");
	cap_from = ovb_xcalloc(S.ncpus, sizeof *cap_from);
	if (need_cgroups && !ovb_perf_has_cgroups(S.perf)) {
		ovb_warn("%s: the trace has no cgroup ids, which cgroup: and unit: "
			"selectors need; record with perf record --all-cgroups on a "
			"cgroup v2 hierarchy (ovb-capture does where one is "
			"mounted)", S.name);
		return OVB_EDATA;
	}
	return 0;
}

/* A sample names the cgroup of the task it was taken in.  A process whose
 * cgroup is learnt or changed: its capsule follows, on the CPU the sample
 * was taken on from the start of the task's current run (the switch in
 * preceded the first sample in its context), elsewhere from now. */
static int
note_cgroup(const struct ovb_pev *ev)
{
	if (!need_cgroups || !ev->sample || !ev->cgroup || ev->pid <= 0 ||
	    ev->tid <= 0 || !S.started)
		return 0;
	int st;
	if ((st = grow_ids(ev->pid, "process")) || (st = grow_ids(ev->tid, "task")))
		return st;
	struct proc *p = &S.proc[ev->pid];
	if (p->cgid == ev->cgroup)
		return 0;
	p->cgid = ev->cgroup;
	uncache(ev->pid);
	/* on this CPU, from the start of the run (or of its capsule, if that
	 * changed on the way) */
	uint32_t c = ev->cpu;
	if (c < S.ncpus && S.cur_tid[c] == ev->tid) {
		int16_t k = capsule_of_task(ev->tid);
		uint64_t from = cap_from[c] ? cap_from[c] : S.cpu_since[c];
		if (k != S.cur_cap[c]) {
			change(S.cur_cap[c], -1, from);
			change(k, +1, from);
			S.cur_cap[c] = k;
		}
	}
	recheck_running(ev->pid, ev->time);
	return 0;
}

/* ---- sockets (net:net_dev_queue in irq context) ---- */

static size_t
map_slot(const struct map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)((key >> 4) * 0x9e3779b97f4a7c15ULL >> 20) & mask;
	while (m->e[i].key && m->e[i].key != key)
		i = (i + 1) & mask;
	return i;
}

static uint64_t
map_get(const struct map *m, uint64_t key)
{
	if (!m->cap || !key)
		return 0;
	const struct kv *e = &m->e[map_slot(m, key)];
	return e->key ? e->val : 0;
}

static void
map_put(struct map *m, uint64_t key, uint64_t val)
{
	if (!key)
		return;
	if (2 * (m->n + 1) > m->cap) {
		struct kv *old = m->e;
		size_t n = m->cap;
		m->cap = n ? 2 * n : 1024;
		m->e = ovb_xcalloc(m->cap, sizeof *m->e);
		for (size_t i = 0; i < n; i++)
			if (old[i].key)
				m->e[map_slot(m, old[i].key)] = old[i];
		free(old);
	}
	struct kv *e = &m->e[map_slot(m, key)];
	if (!e->key)
		m->n++;
	*e = (struct kv){ key, val };
}

/* Bytes credited to the task owning a socket, at time t. */
static int
credit(int32_t owner, uint64_t t, uint64_t bytes)
{
	int st = grow_ids(owner, "task");
	int16_t k = st ? -1 : capsule_of_task(owner);
	if (k >= 0)
		hold(k, 0, t, 1, bytes);
	S.irq_credited += bytes;
	return st;
}

/* A loopback packet that did not reach a tcp_probe in time: the socket
 * (or task) the softirq rules named when it was sent. */
static int
fall_back(struct pending *p)
{
	p->lo = false;
	p->skb = 0;
	uint64_t sk = p->hrt ? map_get(&S.paced, p->hrt) : 0;
	if (sk) {   /* sent by a timer a later packet showed the socket of */
		int32_t own = (int32_t)map_get(&S.owner, sk);
		p->guess = sk;
		p->gtid = own ? own : (int32_t)map_get(&S.gone, sk);
	}
	if (p->guess && p->gtid <= 0) {
		int32_t own = (int32_t)map_get(&S.owner, p->guess);
		p->sk = p->guess;
		if (own) {
			p->done = true;
			return credit(own, p->time, p->bytes);
		}
	} else if (p->gtid > 0) {
		p->done = true;
		return credit(p->gtid, p->time, p->bytes);
	}
	return 0;
}

/* Pending bytes older than half the look-back get no owner any more (so
 * that a late credit is still ahead of what was written); loopback
 * packets not matched within FALLBACK go by the softirq rules. */
static int
expire_pending(uint64_t now)
{
	int st = 0;
	if (S.pend_fb < S.pend_head)
		S.pend_fb = S.pend_head;
	while (!st && S.pend_fb < S.npend &&
	    (now == UINT64_MAX || S.pend[S.pend_fb].time + FALLBACK < now)) {
		struct pending *p = &S.pend[S.pend_fb++];
		if (p->lo && !p->done)
			st = fall_back(p);
	}
	while (S.pend_head < S.pend_fb &&
	    (now == UINT64_MAX || S.pend[S.pend_head].time + LOOKBACK / 2 < now)) {
		struct pending *p = &S.pend[S.pend_head++];
		if (!p->done) {
			S.irq_bytes += p->bytes;
			if (p->sk)
				S.irq_noowner += p->bytes;
			else
				S.irq_nosock += p->bytes;
		}
	}
	if (S.pend_head == S.npend) {
		S.pend_base += S.npend;
		S.npend = S.pend_head = S.pend_fb = 0;
	} else if (S.pend_head > 4096 && 2 * S.pend_head > S.npend) {
		memmove(S.pend, S.pend + S.pend_head,
			(S.npend - S.pend_head) * sizeof *S.pend);
		S.pend_base += S.pend_head;
		S.npend -= S.pend_head;
		S.pend_fb -= S.pend_head;
		S.pend_head = 0;
	}
	return st;
}

/* A loopback packet sent in irq context reached socket ev->sk (the skb
 * of one of its segments is ev's): its sender is that socket's peer. */
static int
arrived(const struct ovb_pev *ev)
{
	uint64_t id = map_get(&S.inflight, ev->skb);
	if (id <= S.pend_base + S.pend_head || id > S.pend_base + S.npend)
		return 0;
	struct pending *p = &S.pend[id - S.pend_base - 1];
	uint64_t from = map_get(&S.flows, ev->rflow);
	map_put(&S.inflight, ev->skb, 0);   /* it arrives once */
	if (!p->lo || p->done || !from)
		return 0;
	int32_t own = (int32_t)map_get(&S.owner, from);
	if (!own)   /* closed since it sent */
		own = (int32_t)map_get(&S.gone, from);
	p->lo = false;
	p->skb = 0;
	p->sk = from;
	p->arr = true;
	if (p->hrt) {   /* the timer is that socket's (its pacing timer) */
		uint64_t d = p->hrt - from;
		map_put(&S.paced, p->hrt, from);
		if (p->hrt > from && d < 8192) {
			S.tmr_eseen = d == S.tmr_ecand ? S.tmr_eseen + 1 : 1;
			S.tmr_ecand = d;
			if (S.tmr_eseen >= 2)
				S.tmr_off = S.tmr_exact = d;
		}
	}
	if (!own)
		return 0;
	p->done = true;
	S.irq_arrived += p->bytes;
	return credit(own, p->time, p->bytes);
}

/* Socket sk closed (its timers were stopped): the timers that lie in it
 * serve nobody known any more, so that a socket reusing the address, whose
 * timer is first armed where no socket is named, is not taken for the old
 * one (its bytes are reported, not credited to the old owner). */
static void
forget_timers(uint64_t sk)
{
	struct map *m[] = { &S.armed, &S.armed_sk };
	for (size_t j = 0; j < 2; j++)
		for (size_t i = 0; i < m[j]->cap; i++) {
			struct kv *e = &m[j]->e[i];
			if (e->key > sk && e->key - sk < 8192)
				e->val = 0;
		}
}

/* A socket named in a task's own context (connect, close, listen, or
 * segments it processed from its backlog) belongs to that task; in irq
 * context, the softirq is serving it, and what it sends is the socket's
 * (formats/perfdata.md). */
static int
on_sock(const struct ovb_pev *ev)
{
	int st = 0;
	if (!ev->sk || ev->cpu >= S.ncpus || !S.started)
		return 0;
	map_put(&S.flows, ev->flow, ev->sk);
	map_put(&S.known, ev->sk, 1);
	if (ev->skb && S.seg_xmit)
		st = arrived(ev);
	else if (ev->skb) {
		/* loopback: a segment sent in irq context arrives here (on the
		 * CPU that sent it); its sender is this socket's peer */
		uint64_t from = map_get(&S.flows, ev->rflow);
		int32_t own = (int32_t)map_get(&S.owner, from);
		for (size_t i = S.pend_head; i < S.npend && !st; i++) {
			struct pending *p = &S.pend[i];
			if (p->done || p->sk || p->skb != ev->skb ||
			    p->cpu != ev->cpu)
				continue;
			p->skb = 0;   /* matched once */
			if (!from)
				continue;
			p->sk = from;
			if (own) {
				p->done = true;
				st = credit(own, p->time, p->bytes);
			}
		}
	}
	if (ev->irq)
		S.cur_sk[ev->cpu] = ev->sk, S.anon_since[ev->cpu] = UINT64_MAX;
	else if (ev->tid > 0 && (int32_t)map_get(&S.owner, ev->sk) != ev->tid) {
		map_put(&S.owner, ev->sk, (uint64_t)ev->tid);
		for (size_t i = S.pend_head; i < S.npend && !st; i++)
			if (!S.pend[i].done && S.pend[i].sk == ev->sk) {
				S.pend[i].done = true;
				if (S.pend[i].arr)
					S.irq_arrived += S.pend[i].bytes;
				st = credit(ev->tid, S.pend[i].time, S.pend[i].bytes);
			}
	}
	if (ev->sk_state == 7)
		forget_timers(ev->sk);
	if (ev->sk_state == 7 /* TCP_CLOSE: the address may be reused */ &&
	    map_get(&S.owner, ev->sk)) {
		map_put(&S.gone, ev->sk, map_get(&S.owner, ev->sk));
		map_put(&S.owner, ev->sk, 0);
	}
	return st;
}

/* Timer tmr, armed in a softirq on CPU c that named no socket, lies in
 * socket sk: what that softirq sent so far is the socket's, and the timer
 * serves it.  sk 0: the socket is not known, but the timer was armed last
 * in the own context of a task (its socket's owner, sending): that task's. */
static int
claim_anon(uint32_t c, uint64_t tmr, uint64_t sk)
{
	int st = 0;
	int32_t own = sk ? (int32_t)map_get(&S.owner, sk) :
		(int32_t)map_get(&S.armed, tmr);
	if (sk) {
		map_put(&S.armed_sk, tmr, sk);
		map_put(&S.armed, tmr, 0);
	}
	for (size_t i = S.npend; !st && i-- > S.pend_head &&
	    S.pend[i].time >= S.anon_since[c];) {
		struct pending *p = &S.pend[i];
		if (p->cpu != c || p->sk || p->done)
			continue;
		if (p->lo) {   /* what the rules name, if it never arrives */
			p->guess = sk, p->gtid = own;
			continue;
		}
		p->sk = sk;
		p->skb = 0;
		if (own) {
			p->done = true;
			st = credit(own, p->time, p->bytes);
		}
	}
	return st;
}

/* A timer_list timer armed d bytes into the socket a softirq served. */
static void
learn_listed(uint64_t d)
{
	for (size_t i = 0; i < S.nlst; i++)
		if (S.lst_off[i] == d) {
			S.lst_seen[i]++;
			return;
		}
	if (S.nlst < 8)
		S.lst_off[S.nlst] = d, S.lst_seen[S.nlst++] = 1;
}

/* The socket a timer_list timer lies in, if an offset seen twice puts it
 * in one the trace named; 0 none. */
static uint64_t
listed_sk(uint64_t tmr)
{
	for (size_t i = 0; i < S.nlst; i++)
		if (S.lst_seen[i] >= 2 && tmr > S.lst_off[i] &&
		    map_get(&S.known, tmr - S.lst_off[i]))
			return tmr - S.lst_off[i];
	return 0;
}

/* An hrtimer armed while a softirq served a socket (TCP's pacing timer,
 * armed as the socket sends) serves that socket when it fires; one armed
 * in a task's own context (the socket's owner, sending), that task.  The
 * same holds for timer_list timers (timer:timer_*: TCP's retransmit, loss
 * probe and delayed-ACK timers, which send from the TIMER softirq), except
 * that only hrtimers teach where a timer lies in its socket.  What a timer
 * served is forgotten when the socket it lies in closes (forget_timers):
 * its address may be reused by another socket's timer. */
static int
on_timer(const struct ovb_pev *ev)
{
	uint32_t c = ev->cpu;
	int st = 0;
	bool list = ev->n >= 3;        /* a timer_list timer */
	uint64_t kind = list ? ev->n - 3 : ev->n, sk;
	if (c >= S.ncpus || !S.started || !ev->sk)
		return 0;
	if (kind == 0 && ev->irq && S.cur_sk[c]) {
		map_put(&S.armed_sk, ev->sk, S.cur_sk[c]);
		map_put(&S.armed, ev->sk, 0);
		/* the timer lies inside the socket, at one offset */
		uint64_t d = ev->sk - S.cur_sk[c];
		if (list && ev->sk > S.cur_sk[c] && d < 8192)
			learn_listed(d);
		if (!list && ev->sk > S.cur_sk[c] && d < 8192 && !S.tmr_exact) {
			S.tmr_seen = d == S.tmr_cand ? S.tmr_seen + 1 : 1;
			S.tmr_cand = d;
			if (S.tmr_seen >= 2)
				S.tmr_off = d;
		}
	} else if (kind == 0 && ev->irq && (sk = map_get(&S.armed_sk, ev->sk))) {
		/* a timer of a socket a softirq named when it armed it before
		 * (armed again by one that named none: TCP's small-queue
		 * tasklet, which sends and re-arms the pacing timer) */
		st = claim_anon(c, ev->sk, sk);
	} else if (kind == 0 && ev->irq && map_get(&S.armed, ev->sk)) {
		/* one its socket's owner armed in its own context */
		st = claim_anon(c, ev->sk, 0);
	} else if (kind == 0 && ev->irq && !list && S.tmr_off &&
	    ev->sk > S.tmr_off && map_get(&S.known, ev->sk - S.tmr_off)) {
		/* a socket's pacing timer, armed by a softirq that named no
		 * socket (the segment that made it send did not reach
		 * tcp_probe): what that softirq sent so far is the socket's,
		 * and the timer serves it */
		st = claim_anon(c, ev->sk, ev->sk - S.tmr_off);
	} else if (kind == 0 && ev->irq && list && (sk = listed_sk(ev->sk))) {
		/* the same for a socket's retransmit timer (a socket that
		 * closed with data queued, FIN_WAIT1, gets no tcp_probe:
		 * this is what names it, over a veth pair) */
		st = claim_anon(c, ev->sk, sk);
	} else if (kind == 0 && !ev->irq && ev->tid > 0) {
		map_put(&S.armed, ev->sk, (uint64_t)ev->tid);
		map_put(&S.armed_sk, ev->sk, 0);
	} else if (kind == 1) {
		sk = map_get(&S.armed_sk, ev->sk);
		/* a timer first armed where no socket was named: the socket
		 * it lies in, if that is one the trace named */
		if (!list && !sk && S.tmr_off && ev->sk > S.tmr_off &&
		    map_get(&S.owner, ev->sk - S.tmr_off))
			sk = ev->sk - S.tmr_off;
		/* one a loopback packet showed the socket of */
		if (!list && map_get(&S.paced, ev->sk))
			sk = map_get(&S.paced, ev->sk);
		S.cur_sk[c] = sk;
		S.cur_hrt[c] = list ? 0 : ev->sk;
		S.cur_timer[c] = (int32_t)map_get(&S.armed, ev->sk);
		S.anon_since[c] = sk ? UINT64_MAX : ev->time;
	} else if (kind == 2)
		S.cur_sk[c] = 0, S.cur_timer[c] = 0, S.cur_hrt[c] = 0,
		S.anon_since[c] = ev->time;
	return st;
}

static int
on_xfer(const struct ovb_pev *ev)
{
	if (!opt_net || !net_counts(ev) || !ev->n ||
	    (ev->kind == OVB_PEV_RECV && !opt_recv))
		return 0;
	/* a packet that may arrive at a local socket: on lo, or on a veth
	 * pair between namespaces, whose peer hands the same skb on (a packet
	 * that leaves the machine never arrives: after FALLBACK it goes by
	 * the softirq rules, as before) */
	bool lo = S.seg_xmit && ev->devq && ev->skb && ev->cpu < S.ncpus;
	if (lo) {   /* an skb not awaited (yet) */
		map_put(&S.inflight, ev->skb, 0);
		S.last_q[ev->cpu] = 0;
	}
	if (ev->irq) {
		uint64_t sk = S.hold_xfers && ev->cpu < S.ncpus ?
			S.cur_sk[ev->cpu] : 0;
		int32_t own = sk ? (int32_t)map_get(&S.owner, sk) :
			S.hold_xfers && ev->cpu < S.ncpus ? S.cur_timer[ev->cpu] : 0;
		if (lo) {
			/* awaited at its receiver's tcp_probe (on_sock), the
			 * rules' answer kept for the case it never gets there */
			*OVB_PUSH(S.pend, S.npend, S.cappend) = (struct pending){
				.time = ev->time, .skb = ev->skb, .bytes = ev->n,
				.guess = sk, .gtid = own, .cpu = ev->cpu,
				.hrt = S.cur_hrt[ev->cpu],
				.lo = true };
			S.last_q[ev->cpu] = S.pend_base + S.npend;
			map_put(&S.inflight, ev->skb, S.last_q[ev->cpu]);
			return 0;
		}
		if (own)
			return credit(own, ev->time, ev->n);
		if (!sk && (!S.hold_xfers || !ev->skb)) {
			S.irq_nosock += ev->n;
			S.irq_bytes += ev->n;
		} else
			*OVB_PUSH(S.pend, S.npend, S.cappend) = (struct pending){
				.time = ev->time, .sk = sk, .skb = sk ? 0 : ev->skb,
				.bytes = ev->n, .cpu = ev->cpu };
		return 0;
	}
	int st = grow_ids(ev->tid, "task");
	int16_t k = st ? -1 : capsule_of_task(ev->tid);
	if (st || k < 0)
		return st;
	if (S.hold_xfers) {
		hold(k, 0, ev->time, ev->kind == OVB_PEV_SEND ? 1 : 2, ev->n);
		return 0;
	}
	put_header();
	struct ovb_xfer x = { ev->time, ev->n };
	ovb_onoff_put_xfer(S.out, ev->kind == OVB_PEV_SEND ? "send" : "recv",
		sel[k].name, &x);
	return 0;
}

/* A running task whose capsule changed (exec) moves its CPU along. */
static void
recheck_running(int32_t pid, uint64_t t)
{
	for (uint32_t c = 0; c < S.ncpus; c++) {
		int32_t tid = S.cur_tid[c];
		if (tid <= 0 || (S.task_pid[tid] ? S.task_pid[tid] : tid) != pid)
			continue;
		int16_t k = capsule_of_task(tid);
		if (k != S.cur_cap[c]) {
			change(S.cur_cap[c], -1, t);
			change(k, +1, t);
			S.cur_cap[c] = k;
			if (cap_from)
				cap_from[c] = t;
		}
	}
}

static int
on_task(const struct ovb_pev *ev)
{
	int st;
	if ((st = grow_ids(ev->pid, "process")) || (st = grow_ids(ev->tid, "task")) ||
	    (ev->kind == OVB_PEV_FORK && (st = grow_ids(ev->ppid, "process"))))
		return st;
	if (ev->kind == OVB_PEV_EXIT)
		return 0;
	S.task_pid[ev->tid] = ev->pid;
	struct proc *p = &S.proc[ev->pid];
	if (ev->kind == OVB_PEV_FORK && ev->pid == ev->tid) {
		memset(p, 0, sizeof *p);
		p->known = true;
		p->ppid = ev->ppid;
		p->cgid = S.proc[ev->ppid].cgid;   /* a child starts in its
		                                      parent's cgroup */
		memcpy(p->comm, S.proc[ev->ppid].comm, sizeof p->comm);
		uncache(ev->pid);
	} else if (ev->kind == OVB_PEV_COMM && ev->pid == ev->tid) {
		p->known = true;
		memcpy(p->comm, ev->comm, sizeof p->comm);
		uncache(ev->pid);
		if (S.started)
			recheck_running(ev->pid, ev->time);
	}
	return 0;
}

static void
on_lost(const struct ovb_pev *ev)
{
	uint64_t start = ev->cpu < S.ncpus && S.cpu_last[ev->cpu] ?
		S.cpu_last[ev->cpu] : S.t0;
	if (!S.started)
		return;
	S.lost += ev->n;
	put_gap(start < S.t0 ? S.t0 : start, ev->time, ev->n ? ev->n : 1);
}

static int
start(const struct ovb_pev *ev)
{
	S.started = true;
	S.t0 = ev->time;
	S.ncpus = ovb_perf_ncpus(S.perf);
	if (!S.ncpus) {
		ovb_warn("the trace does not say how many CPUs were online (no "
			"NRCPUS header)");
		return OVB_EDATA;
	}
	S.cur_tid = ovb_xmalloc(S.ncpus * sizeof *S.cur_tid);
	S.cur_cap = ovb_xmalloc(S.ncpus * sizeof *S.cur_cap);
	S.cpu_last = ovb_xcalloc(S.ncpus, sizeof *S.cpu_last);
	S.cpu_since = ovb_xcalloc(S.ncpus, sizeof *S.cpu_since);
	S.pred_cap = ovb_xmalloc(S.ncpus * sizeof *S.pred_cap);
	S.pred_start = ovb_xcalloc(S.ncpus, sizeof *S.pred_start);
	S.pred_end = ovb_xcalloc(S.ncpus, sizeof *S.pred_end);
	S.pred_charged = ovb_xcalloc(S.ncpus, sizeof *S.pred_charged);
	S.in_lo = ovb_xcalloc(S.ncpus, sizeof *S.in_lo);
	S.owed = ovb_xcalloc((size_t)S.ncpus * MAXCAPS, sizeof *S.owed);
	S.idle_from = ovb_xcalloc(S.ncpus, sizeof *S.idle_from);
	S.free_from = ovb_xcalloc(S.ncpus, sizeof *S.free_from);
	S.filled_to = ovb_xcalloc(S.ncpus, sizeof *S.filled_to);
	S.has_runtime = ovb_perf_has(S.perf, "sched:sched_stat_runtime");
	S.has_wakeup = ovb_perf_has(S.perf, "sched:sched_wakeup");
	S.hold_xfers = ovb_perf_has(S.perf, "tcp:tcp_probe") &&
		ovb_perf_has(S.perf, "irq:softirq_entry") &&
		ovb_perf_has(S.perf, "irq:softirq_exit");
	S.seg_xmit = S.hold_xfers &&
		ovb_perf_has(S.perf, "net:net_dev_start_xmit");
	S.last_q = ovb_xcalloc(S.ncpus, sizeof *S.last_q);
	S.cur_sk = ovb_xcalloc(S.ncpus, sizeof *S.cur_sk);
	S.cur_timer = ovb_xcalloc(S.ncpus, sizeof *S.cur_timer);
	S.cur_hrt = ovb_xcalloc(S.ncpus, sizeof *S.cur_hrt);
	S.anon_since = ovb_xcalloc(S.ncpus, sizeof *S.anon_since);
	for (uint32_t c = 0; c < S.ncpus; c++)
		S.cur_tid[c] = -1, S.cur_cap[c] = -1, S.pred_cap[c] = -1;
	return features_start();
}

static int
on_event(const struct ovb_pev *ev)
{
	if (ev->sample) {
		int st;
		if (!S.started && (st = start(ev)))
			return st;
		S.t1 = ev->time;
		if (ev->cpu < S.ncpus)
			S.cpu_last[ev->cpu] = ev->time;
		if (ev->time > S.t0 + LOOKBACK)
			release(ev->time - LOOKBACK);
		if (S.npend && (st = expire_pending(ev->time)))
			return st;
		S.events++;
		if ((st = note_cgroup(ev)))
			return st;
	}
	switch (ev->kind) {
	case OVB_PEV_SWITCH: return on_switch(ev);
	case OVB_PEV_SEND:
	case OVB_PEV_RECV: return on_xfer(ev);
	case OVB_PEV_LOST: on_lost(ev); return 0;
	case OVB_PEV_RUNTIME: return on_runtime(ev);
	case OVB_PEV_WAKEUP: return on_wakeup(ev);
	case OVB_PEV_SOCK: return on_sock(ev);
	case OVB_PEV_SOFTIRQ:
		if (ev->cpu < S.ncpus)
			S.cur_sk[ev->cpu] = 0, S.cur_timer[ev->cpu] = 0,
			S.cur_hrt[ev->cpu] = 0,
			S.anon_since[ev->cpu] = ev->time;
		return 0;
	case OVB_PEV_TIMER: return on_timer(ev);
	case OVB_PEV_XMIT:
		/* the segments of the packet queued last on this CPU (the
		 * loopback device has no queue: they follow at once) */
		if (S.seg_xmit && ev->cpu < S.ncpus && !strcmp(ev->dev, "lo"))
			map_put(&S.inflight, ev->skb, S.last_q[ev->cpu]);
		return 0;
	default: return on_task(ev);
	}
}

static int
finish(const char *name)
{
	int st = 0;
	for (int k = 0; k < nsel; k++) {
		const struct capstate *c = &S.cap[k];
		if (ovb_verbose)
			ovb_warn("capsule %s (%s): %zu process%s%s%s%s", sel[k].name,
				sel[k].text, c->nproc, c->nproc == 1 ? "" : "es",
				c->nproc ? ": " : "", c->seen,
				strlen(c->seen) >= sizeof c->seen - 40 ? " ..." : "");
		if (!c->nproc && !opt_allow_empty)
			st = ovb_err_at(name, 0, "selector %s=%s matches no process "
				"of the trace (a typo?  --allow-empty accepts it)",
				sel[k].name, sel[k].text);
	}
	if (st)
		return st;
	put_header();   /* a file with no busy period still has its magic */
	if (S.t1 == S.t0)
		S.t1 = S.t0 + 1;
	if ((st = expire_pending(UINT64_MAX)))
		return st;
	/* What a CPU still owes when the trace ends (it was never idle
	 * again) goes where no capsule's task ran since: the rest of its
	 * own trace and then of the other CPUs', if they too ran only tasks
	 * no capsule selects, so that a capsule's busy time is the sum of
	 * its charges wherever the trace leaves room for them */
	uint64_t *tail = ovb_xcalloc(S.ncpus, sizeof *tail);
	for (uint32_t c = 0; c < S.ncpus; c++) {
		repay(c, S.cur_tid[c] > 0 ? S.cpu_since[c] : S.t1);
		if (S.cur_cap[c] < 0 && S.free_from[c])
			tail[c] = S.free_from[c] > S.filled_to[c] ?
				S.free_from[c] : S.filled_to[c];
	}
	for (uint32_t c = 0; c < S.ncpus; c++) {
		for (uint32_t i = 0; i < S.ncpus; i++) {
			uint32_t o = (c + i) % S.ncpus;
			if (tail[o] && tail[o] < S.t1)
				tail[o] = fill(c, tail[o], S.t1);
		}
		for (int k = 0; k < nsel; k++)
			S.unplaced += S.owed[(size_t)c * MAXCAPS + (size_t)k];
	}
	free(tail);
	release(UINT64_MAX);
	for (int k = 0; k < nsel; k++) {
		if (S.cap[k].n)
			apply((int16_t)k, -(int)S.cap[k].n, S.t1);
		flush_busy((int16_t)k);
	}
	/* losses perf counted per event that no LOST record placed: lost
	 * after each CPU's last event */
	uint64_t ls = ovb_perf_lost_samples(S.perf);
	if (ls > S.lost) {
		uint64_t from = S.t1;
		for (uint32_t c = 0; c < S.ncpus; c++)
			if (S.cpu_last[c] && S.cpu_last[c] < from)
				from = S.cpu_last[c];
		put_gap(from, S.t1, ls - S.lost);
		S.lost = ls;
	}
	if (S.have_gap) {
		if (S.gap.end > S.t1)
			S.gap.end = S.t1;
		ovb_onoff_put_gap(S.out, &S.gap);
	}
	return 0;   /* the span is written once the trace is accepted (run) */
}

/* The kernel wakes perf each time a CPU's buffer is half full, and perf
 * drops every event raised while that wakeup runs, among them the
 * sched_stat_runtime charge its enqueue makes to the task running where
 * it is woken (up to a tick of that task's CPU time each).  A trace
 * whose FINISHED_ROUND records show perf emptied its buffers more often
 * than a recording never woken does lacks such charges: said (the runs
 * they belong to count in -v's "low by at most" bound). */
static void
woken_report(const char *name)
{
	uint64_t r = ovb_perf_rounds(S.perf);
	if (!S.has_runtime || r <= WOKEN_ROUNDS || ovb_quiet)
		return;
	ovb_warn("%s: perf emptied its buffers %llu times while it recorded "
		"(more than the %d passes of a recording the kernel never woke it "
		"in): perf drops the events raised while the kernel wakes it, "
		"among them CPU time charged to the task then running (up to a "
		"tick each), so busy time may be low; record with a larger "
		"buffer (ovb-capture's default, or perf record -m)", name,
		(unsigned long long)r, WOKEN_ROUNDS);
}

/* Capsule k's runnable waits, as its record "wait NAME ..." carries them
 * (formats/onoff.md): BUSY is what it ran, so with --demand, whose busy
 * time holds the waits, the busy time less them. */
static struct ovb_wait
wait_of(int k)
{
	const struct capstate *c = &S.cap[k];
	uint64_t w = c->wait_ns + (S.has_wakeup ? c->wake_ns : 0);
	return (struct ovb_wait){ .has = true, .woke = S.has_wakeup,
		.demand = opt_demand, .preempted = c->wait_ns,
		.woken = S.has_wakeup ? c->wake_ns : 0, .busy = !opt_demand ? c->busy :
		c->busy > w ? c->busy - w : 0 };
}

/* Per capsule, how far its busy time may be off: runs whose switch in
 * the trace misses, and (without sched:sched_stat_runtime) runs of woken
 * tasks the kernel may have charged from before their switch in.  -v says
 * it; above the bound the trace is refused (--max-uncertainty=any: a
 * warning).  Network bytes sent in interrupt context (net:net_dev_queue)
 * that could not be credited: said, and --strict fails. */
static int
check_bounds(const char *name)
{
	int st = 0;
	for (int k = 0; k < nsel; k++) {
		const struct capstate *c = &S.cap[k];
		uint64_t u = c->unsure + c->woken + c->uncharged;
		double pct = c->busy ? 100.0 * (double)u / (double)c->busy :
			u ? 100.0 : 0;
		bool over = opt_bound >= 0 && pct > opt_bound;
		bool warn = opt_bound < 0 && pct > BOUND_PCT && !ovb_quiet;
		if (!ovb_verbose && !over && !warn)
			continue;
		char why[256];
		snprintf(why, sizeof why, "%llu runs whose switch in the trace "
			"misses%s", (unsigned long long)c->nunsure,
			S.has_runtime ? "" : ", ");
		if (!S.has_runtime)
			snprintf(why + strlen(why), sizeof why - strlen(why),
				"%llu runs of woken tasks (the kernel charges a woken "
				"task from before its switch in, by how much only "
				"sched:sched_stat_runtime says)",
				(unsigned long long)c->nwoken);
		else
			snprintf(why + strlen(why), sizeof why - strlen(why),
				", %llu runs whose charges the trace lacks (perf "
				"dropped them; counted from their switches)",
				(unsigned long long)c->nuncharged);
		char low[200] = "";
		if (S.has_runtime)
			snprintf(low, sizeof low, "; and low by at most %.6f cpu-s "
				"more (%.3g %%) where runs' charges end before their "
				"switch out, if the kernel charged them there unseen",
				(double)c->short_ns / 1e9, c->busy ? 100.0 *
				(double)c->short_ns / (double)c->busy : 0);
		ovb_warn("%s: capsule %s: busy %.6f cpu-s, uncertain by at most "
			"%.6f cpu-s (%.3g %%): %s%s%s", name, sel[k].name,
			(double)c->busy / 1e9, (double)u / 1e9, pct, why,
			!over && !warn ? "" : S.has_runtime ? "; the kernel "
			"dropped switches this trace could not close" :
			"; record -e sched:sched_stat_runtime too, as ovb-capture "
			"does", low);
		if (over)
			st = OVB_EDATA;
	}
	int waited = 0;
	for (int k = 0; k < nsel; k++) {
		/* judged and said as ovb-profile does the record it carries */
		struct ovb_wait w = wait_of(k);
		bool over = ovb_wait_over(&w);
		bool fail = opt_strict && !opt_demand && over;
		char say[256], refused[64] = "";
		if (fail)
			snprintf(refused, sizeof refused, "; refused under "
				"--strict (above %d %%)", OVB_WAIT_PCT);
		if (ovb_verbose || fail || (over && !ovb_quiet))
			ovb_warn("%s: capsule %s: %s%s%s", name, sel[k].name,
				ovb_wait_say(say, sizeof say, &w), !over ? "" :
				opt_demand ? ": the host was busy; counted as busy "
				"(--demand)" : ": the host was busy, and its busy time "
				"is what it got, not what it needed (--demand counts "
				"the wait as demand)", refused);
		if (fail)
			waited = OVB_EDATA;
	}
	if (st)
		ovb_warn("%s: refused: busy time uncertain by more than %g %% "
			"(--max-uncertainty=PCT, or any, accepts it)", name,
			opt_bound);
	if (waited)
		st = waited;
	if (S.irq_bytes && (ovb_verbose || !ovb_quiet || opt_strict))
		ovb_warn("%s: %llu bytes sent in interrupt context "
			"(net:net_dev_queue) are not credited to any capsule: %llu "
			"sent where the trace names no socket, %llu from sockets "
			"whose owner it never names%s; sock:sock_send_length "
			"(ovb-capture --net=sock) credits every byte where the kernel "
			"has it", name, (unsigned long long)S.irq_bytes,
			(unsigned long long)S.irq_nosock,
			(unsigned long long)S.irq_noowner, S.hold_xfers ? "" :
			" (record tcp:tcp_probe, irq:softirq_entry, "
			"irq:softirq_exit and timer:* too, as ovb-capture "
			"--net=devq does, to credit most of them)");
	if (S.irq_bytes && opt_strict) {
		ovb_warn("%s: refused under --strict", name);
		st = OVB_EDATA;
	}
	return st;
}

static int
run(const char *path)
{
	FILE *f;
	const char *name;
	struct stat sb;
	if (path && strcmp(path, "-") && stat(path, &sb) == 0 &&
	    S_ISDIR(sb.st_mode)) {
		ovb_warn("%s: a directory-format trace (perf record --dir); "
			"record without --dir", path);
		return OVB_EDATA;
	}
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	S.name = name;
	if (!(st = ovb_perf_open(f, name, &S.perf))) {
		struct ovb_pev ev;
		while ((st = ovb_perf_next(S.perf, &ev)) == 1) {
			if ((st = on_event(&ev)))
				break;
			if ((S.events & 0xffff) == 0) {
				double done, total;
				ovb_perf_progress(S.perf, &done, &total);
				ovb_progress("reading the trace", done, total);
			}
		}
		ovb_progress_end();
		if (!st && !S.started) {
			ovb_warn("%s: no samples: the trace is empty", name);
			st = OVB_EDATA;
		} else if (!st && !ovb_perf_has(S.perf, "sched:sched_switch")) {
			ovb_warn("%s: the trace has no sched:sched_switch events; "
				"record with -e sched:sched_switch", name);
			st = OVB_EDATA;
		}
		if (!st)
			st = finish(name);
		if (!st)
			st = check_bounds(name);
		if (!st)
			woken_report(name);
		if (!st)
			st = net_report(name);
		/* Last, and only for a trace accepted: a refused one leaves
		 * nothing (ovb_out_whole), and a file cut short some other way
		 * lacks its span, which every reader refuses (formats/onoff.md) */
		if (!st) {
			for (int k = 0; k < nsel; k++) {
				struct ovb_wait w = wait_of(k);
				ovb_wait_put(S.out, sel[k].name, &w);
			}
			ovb_onoff_put_span(S.out, S.t0, S.t1);
		}
	}
	if (!st && ovb_verbose)
		ovb_warn("%s: %llu samples, %llu delivered out of order, %llu "
			"switches missing from the trace (%llu closed by "
			"sched_stat_runtime), %llu changes placed late, %llu events "
			"lost, %llu bytes sent in irq context credited to the "
			"socket's owner (%llu named by the loopback packet's "
			"arrival), %llu not credited; %llu CPU-ns charged where two runs' "
			"charges overlapped placed in idle time, %llu not placed; "
			"perf emptied its buffers %llu times", name,
			(unsigned long long)S.events,
			(unsigned long long)ovb_perf_reordered(S.perf),
			(unsigned long long)S.mismatched,
			(unsigned long long)S.closed,
			(unsigned long long)S.clamped,
			(unsigned long long)S.lost,
			(unsigned long long)S.irq_credited,
			(unsigned long long)S.irq_arrived,
			(unsigned long long)S.irq_bytes,
			(unsigned long long)S.moved,
			(unsigned long long)S.unplaced,
			(unsigned long long)ovb_perf_rounds(S.perf));
	ovb_perf_close(S.perf);
	ovb_close_in(f);
	return st;
}

int
main(int argc, char **argv)
{
	argp_parse(&argp, argc, argv, 0, NULL, NULL);
	ovb_stdin_refuse = "a perf.data trace is binary: name the file, or "
		"pipe a trace in (perf record -o - ... | ovb-onoff ...)";
	struct ovb_out out;
	int status = ovb_out_open(&out, ovb_opt_output);
	if (status)
		return status;
	/* a refused trace leaves nothing on stdout either (ovb_out_whole);
	 * its span line, written last, still marks a whole file */
	if ((status = ovb_out_whole(&out)))
		return ovb_out_end(&out, status);
	S.out = out.f;
	/* a busy record per change of a capsule's CPU count: hundreds of
	 * thousands of lines, written in 1 MiB blocks */
	static char obuf[1 << 20];
	setvbuf(S.out, obuf, _IOFBF, sizeof obuf);
	status = run(opt_input);
	return ovb_out_end(&out, status);
}
