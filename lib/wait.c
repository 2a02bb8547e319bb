/* wait.c: a capsule's runnable wait judged: its share of the busy time
 * and whether it is above OVB_WAIT_PCT %, the one test ovb-onoff -v and
 * ovb-profile apply to the wait record they carry (formats/onoff.md,
 * "Demand"), and the words both say it in.
 *
 * Invariants: the test is exact (integers, 100 (PREEMPTED + WOKEN) >
 * OVB_WAIT_PCT BUSY); a wait with nothing run (BUSY 0) is above it, and
 * said so in words (never "inf %"). */
#include <math.h>
#include <stdio.h>

#include "ovb.h"

double
ovb_wait_share(const struct ovb_wait *w)
{
	uint64_t t = w->preempted + w->woken;
	if (!w->busy)
		return t ? INFINITY : 0;
	return 100.0 * (double)t / (double)w->busy;
}

bool
ovb_wait_over(const struct ovb_wait *w)
{
	/* 100 (PREEMPTED + WOKEN) > PCT BUSY, in 128 bits: exact */
	unsigned __int128 t = (unsigned __int128)(w->preempted + w->woken);
	return 100 * t > (unsigned __int128)OVB_WAIT_PCT * w->busy;
}

const char *
ovb_wait_say(char *buf, size_t size, const struct ovb_wait *w)
{
	char woke[96] = "after wake-ups not measured: the trace has no "
		"sched:sched_wakeup";
	if (w->woke)
		snprintf(woke, sizeof woke, "%.6f after wake-ups",
			(double)w->woken / 1e9);
	char share[64] = "against no busy time at all (it never ran)";
	if (w->busy || !(w->preempted + w->woken))
		snprintf(share, sizeof share, "%.3g %% of its busy time",
			ovb_wait_share(w));
	snprintf(buf, size, "its tasks waited for a CPU while runnable %.6f "
		"task-s (%.6f after preemptions, %s), %s",
		(double)(w->preempted + w->woken) / 1e9,
		(double)w->preempted / 1e9, woke, share);
	return buf;
}
