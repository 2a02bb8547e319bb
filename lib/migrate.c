/* migrate.c: migration plans a market can execute in the order written
 * (issue 28), and the exact rebalancer of small instances.
 *
 * A plan is a list of steps (deploy a new VM, or move a VM); after every
 * step each node's VMs' mem a_max sum to at most its mem.  A swap between
 * full nodes needs a staging move through a third node with room; every
 * move, staging ones included, counts against M_max.
 *
 * Small instances ((N + 1)^M <= OVB_EXACT_STATES placements, N nodes, M
 * VMs) are searched exactly: a 0-1 breadth-first search from the input
 * placement over the placements that fit in memory, a move costing 1 and
 * a deployment 0, gives every placement's least number of moves by an
 * executable order; the result is the least max error (Eq. 2) among
 * those reached within M_max, then the fewest moves, then the least sum
 * of errors.  Larger instances take the tabu search's best placement
 * when a plan built greedily (direct steps where the destination has
 * room, else a staging move) reaches it within M_max, else the latest
 * earlier best placement that it reaches: the input, with its new VMs
 * deployed, always is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

static double
vm_mem(const struct ovb_market *m, size_t j)
{
	return m->nres > 1 ? m->amax[OVB_MMEM][j] : 0;
}

static bool
fits(const struct ovb_market *m, const double *used, size_t j, size_t n)
{
	return m->nres < 2 || used[n] + vm_mem(m, j) <= m->cap[OVB_MMEM][n];
}

/* ---- plans built greedily ---- */

static void
push_step(struct ovb_mstep **s, size_t *n, size_t *cap, size_t vm,
	size_t from, size_t to)
{
	*OVB_PUSH(*s, *n, *cap) = (struct ovb_mstep){ vm, from, to };
}

uint64_t
ovb_migrate_plan(const struct ovb_market *m, const size_t *start,
	const size_t *target, struct ovb_mstep **steps, size_t *nsteps,
	char *why, size_t whylen)
{
	size_t M = m->nvm, N = m->nnode, cap = 0;
	size_t *cur = ovb_xcalloc(M + 1, sizeof *cur);
	double *used = ovb_xcalloc(N + 1, sizeof *used);
	uint64_t moves = 0;
	*steps = NULL;
	*nsteps = 0;
	memcpy(cur, start, M * sizeof *cur);
	for (size_t j = 0; j < M; j++)
		if (cur[j] != OVB_NONE)
			used[cur[j]] += vm_mem(m, j);
	/* each staging move is followed by at least one direct step, so
	 * 2 M + 2 rounds suffice unless the staging goes round a cycle */
	for (size_t round = 0;; round++) {
		bool progress = false, left = false;
		for (size_t j = 0; j < M; j++) {
			if (cur[j] == target[j])
				continue;
			if (!fits(m, used, j, target[j])) {
				left = true;
				continue;
			}
			push_step(steps, nsteps, &cap, j, cur[j], target[j]);
			if (cur[j] != OVB_NONE) {
				used[cur[j]] -= vm_mem(m, j);
				moves++;
			}
			used[target[j]] += vm_mem(m, j);
			cur[j] = target[j];
			progress = true;
		}
		if (!left)
			break;
		if (progress)
			continue;
		/* every VM left waits for room: stage one through a third node
		 * with room (placed VMs first: a staged deployment costs a
		 * move as well) */
		size_t sj = OVB_NONE, sn = OVB_NONE;
		for (int pass = 0; pass < 2 && sj == OVB_NONE; pass++)
			for (size_t j = 0; j < M && sj == OVB_NONE; j++) {
				if (cur[j] == target[j] ||
				    (cur[j] == OVB_NONE) != (pass == 1))
					continue;
				for (size_t n = 0; n < N && sj == OVB_NONE; n++)
					if (n != cur[j] && n != target[j] &&
					    fits(m, used, j, n))
						sj = j, sn = n;
			}
		if (sj == OVB_NONE || round > 2 * M + 2) {
			size_t j = 0;
			while (cur[j] == target[j])
				j++;
			snprintf(why, whylen, "vm %s (%g MiB) waits for room on "
				"node %s (%g of %g MiB used) and no node has room "
				"to stage a vm of the cycle", m->b->vm[j].name,
				vm_mem(m, j), m->c->node[target[j]].name,
				used[target[j]], m->cap[OVB_MMEM][target[j]]);
			moves = UINT64_MAX;
			break;
		}
		push_step(steps, nsteps, &cap, sj, cur[sj], sn);
		if (cur[sj] != OVB_NONE)
			used[cur[sj]] -= vm_mem(m, sj);
		used[sn] += vm_mem(m, sj);
		cur[sj] = sn;
		moves++;
	}
	free(cur);
	free(used);
	return moves;
}

/* ---- the exact search of small instances ---- */

/* (max, sum) of the errors, the max compared with a relative slack so
 * that rounding does not split equal placements */
static bool
max_less(double a, double b)
{
	return a < b - 1e-12 * fmax(1, b);
}

static bool
max_same(double a, double b)
{
	return !max_less(a, b) && !max_less(b, a);
}

bool
ovb_exact_fits(const struct ovb_market *m)
{
	double states = pow((double)m->nnode + 1, (double)m->nvm);
	return m->nnode > 0 && states <= OVB_EXACT_STATES;
}

static void
decode(uint32_t x, size_t M, size_t B, size_t *node_of)
{
	for (size_t j = 0; j < M; j++) {
		size_t d = x % B;
		node_of[j] = d == B - 1 ? OVB_NONE : d;
		x /= (uint32_t)B;
	}
}

int
ovb_rebalance_exact(const struct ovb_market *m, const struct ovb_tabu_opt *o,
	const size_t *start, size_t *node_of, struct ovb_tabu_stat *st,
	struct ovb_mstep **steps, size_t *nsteps, char *why, size_t whylen,
	const char *bfile)
{
	size_t M = m->nvm, N = m->nnode, B = N + 1;
	uint32_t S = 1, x0 = 0;
	for (size_t j = 0; j < M; j++)
		S *= (uint32_t)B;
	for (size_t j = M; j-- > 0;)
		x0 = x0 * (uint32_t)B + (uint32_t)(start[j] == OVB_NONE ? N :
			start[j]);
	uint32_t *dist = ovb_xcalloc(S, sizeof *dist);
	uint32_t *par = ovb_xcalloc(S, sizeof *par);
	uint32_t *q[2] = { ovb_xcalloc(S, sizeof **q),
		ovb_xcalloc(S, sizeof **q) };
	size_t nq[2] = { 0, 0 };
	size_t *pl = ovb_xcalloc(M + 1, sizeof *pl);
	double *used = ovb_xcalloc(N + 1, sizeof *used);
	double *err = ovb_xcalloc(M + 1, sizeof *err);
	uint32_t *pw = ovb_xcalloc(M + 1, sizeof *pw);
	for (size_t j = 0; j < M; j++)
		pw[j] = j ? pw[j - 1] * (uint32_t)B : 1;
	for (uint32_t x = 0; x < S; x++)
		dist[x] = UINT32_MAX;
	/* by levels of moves: a deployment (cost 0) stays in the level, a
	 * move (cost 1) goes to the next; a state enters each queue once */
	dist[x0] = 0;
	par[x0] = x0;
	q[0][nq[0]++] = x0;
	for (uint32_t d = 0; nq[d & 1]; d++) {
		uint32_t *Q = q[d & 1], *Q1 = q[(d + 1) & 1];
		for (size_t i = 0; i < nq[d & 1]; i++) {
			uint32_t x = Q[i];
			if (dist[x] != d)
				continue;
			decode(x, M, B, pl);
			memset(used, 0, N * sizeof *used);
			for (size_t j = 0; j < M; j++)
				if (pl[j] != OVB_NONE)
					used[pl[j]] += vm_mem(m, j);
			for (size_t j = 0; j < M; j++)
				for (size_t n = 0; n < N; n++) {
					if (n == pl[j] || !fits(m, used, j, n))
						continue;
					uint32_t from = pl[j] == OVB_NONE ?
						(uint32_t)N : (uint32_t)pl[j];
					uint32_t y = x - from * pw[j] +
						(uint32_t)n * pw[j];
					uint32_t w = pl[j] == OVB_NONE ? 0 : 1;
					if (d + w >= dist[y])
						continue;
					dist[y] = d + w;
					par[y] = x;
					if (w)
						Q1[nq[(d + 1) & 1]++] = y;
					else
						Q[nq[d & 1]++] = y;
				}
		}
		nq[d & 1] = 0;
	}
	/* the best placement reached within M_max, and the best of all that
	 * fit in memory (to say why it was not taken) */
	uint32_t best = UINT32_MAX, any = UINT32_MAX;
	double bmax = 0, bsum = 0, amax = 0;
	for (uint32_t x = 0; x < S; x++) {
		decode(x, M, B, pl);
		bool all = true;
		memset(used, 0, N * sizeof *used);
		for (size_t j = 0; j < M && all; j++) {
			all = pl[j] != OVB_NONE;
			if (all)
				used[pl[j]] += vm_mem(m, j);
		}
		for (size_t n = 0; n < N && all && m->nres > 1; n++)
			all = used[n] <= m->cap[OVB_MMEM][n];
		if (!all)
			continue;
		double sum = 0, mx = ovb_market_errors(m, pl, NULL, err);
		for (size_t j = 0; j < M; j++)
			sum += err[j];
		if (any == UINT32_MAX || max_less(mx, amax))
			any = x, amax = mx;
		if (dist[x] == UINT32_MAX || dist[x] > o->mmax)
			continue;
		if (best == UINT32_MAX || max_less(mx, bmax) ||
		    (max_same(mx, bmax) && (dist[x] < dist[best] ||
		    (dist[x] == dist[best] && sum < bsum - 1e-12 *
		    fmax(1, bsum))))) {
			best = x;
			bmax = mx;
			bsum = sum;
		}
	}
	int status = 0;
	if (best == UINT32_MAX) {
		/* the start with its new VMs deployed is always reached, with
		 * no move: only an input whose new VMs fit nowhere gets here */
		status = ovb_err_at(bfile, 0, "no placement of the new vms fits "
			"in memory");
	} else {
		if (max_less(bmax, amax) || max_same(bmax, amax) || !why)
			;
		else if (dist[any] == UINT32_MAX)
			snprintf(why, whylen, "a placement of max error %.17g "
				"fits in memory, but no order of moves reaches it "
				"(every order overcommits a node on the way, staging "
				"included)", amax);
		else
			snprintf(why, whylen, "a placement of max error %.17g "
				"needs %lu moves (staging included), above M_max "
				"%llu", amax, (unsigned long)dist[any],
				(unsigned long long)o->mmax);
		decode(best, M, B, node_of);
		st->after = bmax;
		st->moves = dist[best];
		/* the path, from the parents, reversed */
		size_t n = 0, cap = 0;
		for (uint32_t x = best; x != x0; x = par[x])
			n++;
		*nsteps = n;
		*steps = ovb_xcalloc(n + 1, sizeof **steps);
		cap = n;
		size_t *a = ovb_xcalloc(M + 1, sizeof *a);
		for (uint32_t x = best; x != x0; x = par[x]) {
			decode(x, M, B, pl);
			decode(par[x], M, B, a);
			size_t j = 0;
			while (pl[j] == a[j])
				j++;
			(*steps)[--n] = (struct ovb_mstep){ j, a[j], pl[j] };
		}
		(void)cap;
		free(a);
	}
	free(dist);
	free(par);
	free(q[0]);
	free(q[1]);
	free(pl);
	free(used);
	free(err);
	free(pw);
	return status;
}
