/* enforce.c: a capsule's share rendered into the kernel's own controls
 * (SCHED_DEADLINE, cgroup v2 CPU bandwidth and weight, tc htb, Kubernetes
 * requests and limits), every number checked against the kernel's limit.
 * The mappings and the decision on the tolerance are in lib/ovb.h; the
 * limits and their sources in man/ovb-enforce.1.md.
 *
 * Invariants: every emitted number is an integer in the facility's own
 * unit, rounded the safe way (a guarantee or a cap up); a guarantee is
 * re-checked in doubles from the rounded integers and bumped until it
 * holds. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

#define BIG 9e15                /* integers beyond this: not represented */
/* A guarantee or a cap computed in doubles is raised by this factor before
 * it is rounded up, so that it holds for the exact values too (the
 * rounding error of these few operations is below 1e-15 relative). */
#define SLACK (1 + 1e-12)

static bool ints_within(const uint64_t *x, size_t stride, size_t m,
	double a, double b, double *sum);

void
ovb_klimits_default(struct ovb_klimits *L)
{
	L->dl_cap = 0.90;               /* 0.95 RT bandwidth minus the fair
	                                   server, measured on this kernel */
	L->dl_pmin = UINT64_C(100) * 1000;      /* 100 us */
	L->dl_pmax = UINT64_C(4194304) * 1000;  /* 4.194304 s */
	L->hz = 100;                    /* the least HZ: the largest rate/HZ */
	L->mtu = 1500;
}

double
ovb_enf_guarantee(const struct ovb_need *n)
{
	return (n->sigma * n->tau + n->rho) * (1 - n->O);
}

double
ovb_enf_envelope(const struct ovb_need *n)
{
	return n->sigma * n->tau + n->rho;
}

/* The least integer >= the exact Eq. 1 rate of n over its tau, times
 * scale (GMP: the rational of the doubles, no slack needed). */
static double
eq1_ceil(const struct ovb_need *n, double scale)
{
	mpq_t t, q;
	mpz_t z;
	mpq_inits(t, q, NULL);
	mpz_init(z);
	mpq_set_d(q, n->tau);
	ovb_eq1_xterm(t, n, q);
	mpq_set_d(q, scale);
	mpq_mul(t, t, q);
	mpz_cdiv_q(z, mpq_numref(t), mpq_denref(t));
	double v = mpz_get_d(z);
	mpq_clears(t, q, NULL);
	mpz_clear(z);
	return v;
}

/* ---- SCHED_DEADLINE ---- */

double
ovb_dl_sbf(const struct ovb_dl *d, double t)
{
	if (d->k == 0 || d->period == 0)
		return 0;
	double Q = (double)d->runtime * 1e-9, P = (double)d->period * 1e-9;
	double s = (Q / P) * (t - 2 * (P - Q));
	return s > 0 ? (double)d->k * s : 0;
}

int
ovb_dl_map(const struct ovb_need *n, const struct ovb_klimits *L,
	bool clamp, struct ovb_dl *d, char *why, size_t len)
{
	int viol = 0;
	double D = ovb_enf_guarantee(n) * SLACK, tau = n->tau;
	*d = (struct ovb_dl){ 0, 0, 0, 0 };
	if (!(D > 0))
		return 0;
	if (!(D / tau <= 1e6) || !(tau * 1e9 < BIG)) {
		snprintf(why, len, "a reservation of %g cpu over %g s cannot "
			"be represented in ns", D / tau, tau);
		return -1;
	}
	double x, y, w;
	ovb_cpu_resv(n, &x, &y, &w);
	double Ps = fmin(y, tau / 100);
	double Pn = floor(Ps * 1e9);
	if (Pn < (double)L->dl_pmin) {
		snprintf(why, len, "period %.0f ns < "
			"sched_deadline_period_min_us %g us", Pn,
			(double)L->dl_pmin / 1000);
		viol = 1;
		if (!clamp)
			return 1;
		Pn = (double)L->dl_pmin;
	} else if (Pn > (double)L->dl_pmax) {
		snprintf(why, len, "period %.0f ns > "
			"sched_deadline_period_max_us %g us", Pn,
			(double)L->dl_pmax / 1000);
		viol = 1;
		if (!clamp)
			return 1;
		Pn = (double)L->dl_pmax;
	}
	d->period = d->deadline = (uint64_t)Pn;
	double P = Pn * 1e-9;
	if (1 - tau / (2 * P) >= L->dl_cap) {
		/* a task's supply over tau is positive only when Q/P > 1 -
		 * tau/(2P): beyond the cap, whatever k */
		snprintf(why, len, "tau %g s is too short for any task of "
			"period %.0f ns within the cap %g", tau, Pn, L->dl_cap);
		return -1;
	}
	uint64_t k = (uint64_t)ceil(D / tau / L->dl_cap);
	if (k < 1)
		k = 1;
	for (;; k++) {
		if (k > 1000000) {
			snprintf(why, len, "no set of SCHED_DEADLINE tasks of "
				"period %.0f ns reserves %g cpu-s over %g s",
				Pn, D, tau);
			return -1;
		}
		double dk = D / (double)k, b = tau - 2 * P;
		double u = (-b + sqrt(b * b + 8 * P * dk)) / (4 * P);
		double Q = ceil(u * Pn);
		if (Q < OVB_DL_RUNTIME_MIN) {
			if (!viol)
				snprintf(why, len, "runtime %.0f ns < %d ns",
					Q, OVB_DL_RUNTIME_MIN);
			viol = 1;
			if (!clamp)
				return 1;
			Q = OVB_DL_RUNTIME_MIN;
		}
		d->k = k;
		d->runtime = (uint64_t)Q;
		while (d->runtime <= d->period && ovb_dl_sbf(d, tau) < D)
			d->runtime++;
		if (d->runtime <= d->period &&
		    (double)d->runtime / Pn <= L->dl_cap)
			break;
	}
	return viol;
}

/* ---- cgroup v2 CPU bandwidth ---- */

double
ovb_cfs_allow(const struct ovb_cfs *c, double t)
{
	if (c->period == 0)
		return 0;
	double n = floor(t * 1e6 / (double)c->period) - 1;
	return n > 0 ? n * (double)c->quota * 1e-6 : 0;
}

int
ovb_cfs_map(const struct ovb_need *n, bool clamp, struct ovb_cfs *c,
	char *why, size_t len)
{
	int viol = 0;
	double E = ovb_enf_envelope(n) * SLACK, tau = n->tau;
	*c = (struct ovb_cfs){ 0, 0, 0 };
	if (!(tau * 1e6 < BIG) || !(E * 1e6 < BIG)) {
		snprintf(why, len, "%g cpu-s over %g s cannot be represented "
			"in us", E, tau);
		return -1;
	}
	double p = floor(fmin(1e6, tau * 1e6 / 10));
	if (p < OVB_CFS_PERIOD_MIN) {
		snprintf(why, len, "period %.0f us < %d us", p,
			OVB_CFS_PERIOD_MIN);
		viol = 1;
		if (!clamp)
			return 1;
		p = OVB_CFS_PERIOD_MIN;
	}
	c->period = (uint64_t)p;
	double m = floor(tau * 1e6 / p) - 1;
	if (m < 1)
		m = 1;          /* clamped: the window holds under two periods */
	double q = ceil(E * 1e6 / m);
	if (q < OVB_CFS_QUOTA_MIN) {
		if (!viol)
			snprintf(why, len, "quota %.0f us < %d us", q,
				OVB_CFS_QUOTA_MIN);
		viol = 1;
		if (!clamp)
			return 1;
		q = OVB_CFS_QUOTA_MIN;
	}
	if (q > (double)OVB_CFS_QUOTA_MAX) {
		snprintf(why, len, "quota %.0f us > %" PRIu64 " us", q,
			OVB_CFS_QUOTA_MAX);
		return -1;
	}
	c->quota = (uint64_t)q;
	while (!viol && ovb_cfs_allow(c, tau) < E)
		c->quota++;
	double b = ceil(n->rho * 1e6);
	c->burst = b < (double)c->quota ? (uint64_t)b : c->quota;
	return viol;
}

size_t
ovb_weight_map(const double *g, size_t n, double C, uint64_t wmin,
	uint64_t wmax, uint64_t *w, char *why, size_t len)
{
	double gmax = 0, W = 0;
	for (size_t i = 0; i < n; i++)
		gmax = fmax(gmax, g[i]);
	for (size_t i = 0; i < n; i++) {
		double v = gmax > 0 ?
			ceil(g[i] / gmax * (double)wmax * SLACK) : 1;
		v = fmin(v, (double)wmax);
		w[i] = v < (double)wmin ? wmin : (uint64_t)v;
		W += (double)w[i];
	}
	for (size_t i = 0; i < n; i++)
		if ((double)w[i] * C < g[i] * W * SLACK) {
			snprintf(why, len, "%s %" PRIu64 " of %.0f "
				"gives %g cpu < its Eq. 1 term %g cpu",
				wmax == OVB_SHARES_MAX ? "cpu.shares" :
				"cpu.weight", w[i], W, (double)w[i] * C / W, g[i]);
			return i + 1;
		}
	return 0;
}

/* ---- tc ---- */

int
ovb_tc_map(const struct ovb_need *n, const struct ovb_klimits *L,
	bool clamp, struct ovb_tb *t, char *why, size_t len)
{
	int viol = 0;
		*t = (struct ovb_tb){ 0, 0, 0 };
	if (!(n->sigma * 8 < 1e15) || !(n->tau > 0)) {
		snprintf(why, len, "rate %g B/s beyond tc's range", n->sigma);
		return -1;
	}
	double rate = eq1_ceil(n, 8), ceil_ = ceil(n->sigma * 8);
	double burst = ceil(n->rho);  /* exact: no slack */
	if (!(ceil_ < 1e15) || !(rate < 1e15) || !(burst < 4e9)) {
		snprintf(why, len, "rate %g B/s or burst %g B beyond tc's "
			"range", n->sigma, n->rho);
		return -1;
	}
	if (ceil_ < rate)
		ceil_ = rate;
	if (rate < 8)
		rate = 8;               /* tc: a rate of at least 1 B/s */
	if (ceil_ < 8)
		ceil_ = 8;
	double need = fmax((double)L->mtu, ceil(ceil_ / 8 / (double)L->hz));
	if (burst < need) {
		snprintf(why, len, "burst %.0f B < %s %.0f B", burst,
			need == (double)L->mtu ? "the MTU" : "rate/HZ", need);
		viol = 1;
		if (!clamp)
			return 1;
		burst = need;
	}
	t->rate = (uint64_t)rate;
	t->ceil = (uint64_t)ceil_;
	t->burst = (uint64_t)burst;
	return viol;
}

/* ---- Kubernetes ---- */

int
ovb_k8s_map(const struct ovb_need *n, bool clamp, struct ovb_k8s *k,
	char *why, size_t len)
{
	(void)clamp;
	double D = ovb_enf_guarantee(n) * SLACK;
	double E = ovb_enf_envelope(n) * SLACK;
	double tau = n->tau;
	*k = (struct ovb_k8s){ 0, 0, false };
	if (!(D / tau * 1000 < BIG) || !(E * 1000 < BIG)) {
		snprintf(why, len, "%g cpu cannot be represented in "
			"millicores", E / tau);
		return -1;
	}
	double r = eq1_ceil(n, 1000);
	k->request = r < 1 ? 1 : (uint64_t)r;
	double m = floor(tau / 0.1) - 1;        /* CFS periods of 100 ms */
	if (m >= 1) {
		double l = ceil(E / (m * 0.1) * 1000);
		if (l < 10)
			l = 10;         /* the kubelet's least quota, 1 ms */
		k->limit = l < (double)k->request ? k->request : (uint64_t)l;
		k->has_limit = true;
	}
	return 0;
}

/* ---- memory ---- */

int
ovb_mem_map(int t, const struct ovb_need *n, struct ovb_mem *mm, char *why,
	size_t len)
{
	/* a power of two: the division and the product are exact */
	double g = t == OVB_T_K8S ? 1048576 : OVB_MEM_PAGE;
	double lim = fmax(n->limit, n->sigma);
	*mm = (struct ovb_mem){ 0, 0, false };
	double r = ceil(n->sigma / g) * g, l = ceil(lim / g) * g;
	if (!(r >= 0) || !(r <= OVB_MEM_MAX)) {
		snprintf(why, len, "memory request %g B cannot be represented "
			"(the page counter's largest is %.0f B)", n->sigma,
			OVB_MEM_MAX);
		return -1;
	}
	mm->request = (uint64_t)r;
	if (l <= OVB_MEM_MAX)
		mm->limit = (uint64_t)l;
	else
		mm->unlimited = true;   /* beyond the counter: no limit */
	return 0;
}

bool
ovb_mem_admit(const struct ovb_mem *mm, size_t m, double C, double *sum)
{
	/* the requests are integers: sum <= C exactly */
	return ints_within(&mm->request, sizeof *mm, m, 1, C, sum);
}

/* ---- a node's admission ---- */

/* Whether the rational sum of the terms num[i]/den[i] is at most a * b
 * (doubles, taken exactly). */
static bool
sum_within(const uint64_t *num, const uint64_t *den, size_t m, double a,
	double b)
{
	mpq_t s, t, lim;
	mpq_inits(s, t, lim, NULL);
	for (size_t i = 0; i < m; i++) {
		mpz_import(mpq_numref(t), 1, 1, sizeof num[i], 0, 0, &num[i]);
		mpz_import(mpq_denref(t), 1, 1, sizeof den[i], 0, 0, &den[i]);
		mpq_canonicalize(t);
		mpq_add(s, s, t);
	}
	mpq_set_d(lim, a);
	mpq_set_d(t, b);
	mpq_mul(lim, lim, t);
	bool ok = mpq_cmp(s, lim) <= 0;
	mpq_clears(s, t, lim, NULL);
	return ok;
}

bool
ovb_dl_admit(const struct ovb_dl *d, size_t m, double dl_cap, double C,
	double *sum)
{
	uint64_t *num = ovb_xcalloc(m + 1, sizeof *num);
	uint64_t *den = ovb_xcalloc(m + 1, sizeof *den);
	size_t k = 0;
	*sum = 0;
	for (size_t i = 0; i < m; i++) {
		if (d[i].k == 0)
			continue;
		/* k Q < 2^64: k <= 1e6 and Q <= P <= 4.2e9 */
		num[k] = d[i].k * d[i].runtime;
		den[k++] = d[i].period;
		*sum += (double)d[i].k * (double)d[i].runtime /
			(double)d[i].period;
	}
	bool ok = sum_within(num, den, k, dl_cap, C);
	free(num);
	free(den);
	return ok;
}

/* The sum of m integers x(i) against a * b, exactly. */
static bool
ints_within(const uint64_t *x, size_t stride, size_t m, double a, double b,
	double *sum)
{
	mpq_t s, t, lim;
	mpq_inits(s, t, lim, NULL);
	*sum = 0;
	for (size_t i = 0; i < m; i++) {
		uint64_t v = *(const uint64_t *)((const char *)x + i * stride);
		mpz_add_ui(mpq_numref(s), mpq_numref(s), v);  /* 64-bit long */
		*sum += (double)v;
	}
	mpq_set_d(lim, a);
	mpq_set_d(t, b);
	mpq_mul(lim, lim, t);
	bool ok = mpq_cmp(s, lim) <= 0;
	mpq_clears(s, t, lim, NULL);
	return ok;
}

bool
ovb_tc_admit(const struct ovb_tb *t, size_t m, double C, double *sum)
{
	/* the link ceil(8 C) bit/s: the rates are integers, so a sum <=
	 * 8 C is the same test */
	return ints_within(&t->rate, sizeof *t, m, 8, C, sum);
}

bool
ovb_k8s_admit(const struct ovb_k8s *k, size_t m, double C, double *sum)
{
	return ints_within(&k->request, sizeof *k, m, 1000, C, sum);
}

/* ---- targets ---- */

const char *const ovb_target_names[OVB_NTARGET] = { "sched-deadline",
	"cgroup", "systemd", "tc", "kubernetes", "cgroup1" };

int
ovb_target_parse(const char *s)
{
	for (int t = 0; t < OVB_NTARGET; t++)
		if (!strcmp(s, ovb_target_names[t]))
			return t;
	return -1;
}

enum ovb_res
ovb_target_res(int t)
{
	return t == OVB_T_TC ? OVB_NET : OVB_CPU;
}

bool
ovb_target_has_mem(int t)
{
	return t == OVB_T_CGROUP || t == OVB_T_SYSTEMD || t == OVB_T_CGROUP1 ||
		t == OVB_T_K8S;
}

/* A node's mem needs under target t: each rendered, their requests
 * within the node's memory C. */
static int
enf_mem_node(int t, const struct ovb_need *n, size_t m, double C,
	size_t *bad, char *why, size_t len)
{
	struct ovb_mem *mm = ovb_xcalloc(m + 1, sizeof *mm);
	size_t used = 0;
	int v = 0;
	*bad = m;
	for (size_t i = 0; i < m && !v; i++) {
		if (!n[i].used)
			continue;
		if ((v = ovb_mem_map(t, &n[i], &mm[used++], why, len)))
			*bad = i;
	}
	double sum;
	if (!v && !ovb_mem_admit(mm, used, C, &sum)) {
		snprintf(why, len, "the memory requests add up to %.17g B > "
			"the node's %.17g B", sum, C);
		v = 1;
	}
	free(mm);
	return v;
}

/* One capsule's map under target t; the node's admission needs what the
 * map gives, kept in the arrays at index i. */
static int
map_one(int t, const struct ovb_klimits *L, bool clamp,
	const struct ovb_need *n, size_t i, struct ovb_dl *dl,
	struct ovb_cfs *cfs, double *g, struct ovb_tb *tb, struct ovb_k8s *k8,
	char *why, size_t len)
{
	switch (t) {
	case OVB_T_DL:
		return ovb_dl_map(n, L, clamp, &dl[i], why, len);
	case OVB_T_TC:
		return ovb_tc_map(n, L, clamp, &tb[i], why, len);
	case OVB_T_K8S:
		return ovb_k8s_map(n, clamp, &k8[i], why, len);
	default:
		g[i] = ovb_enf_guarantee(n) / n->tau;
		return ovb_cfs_map(n, clamp, &cfs[i], why, len);
	}
}

int
ovb_enf_node(int t, const struct ovb_klimits *L, bool clamp,
	const struct ovb_need *n, size_t m, double C, size_t *bad, char *why,
	size_t len)
{
	for (size_t i = 0; i < m; i++)
		if (n[i].used && n[i].level)
			return ovb_target_has_mem(t) ?
				enf_mem_node(t, n, m, C, bad, why, len) : 0;
	size_t sz = m + 1;
	struct ovb_dl *dl = t == OVB_T_DL ? ovb_xcalloc(sz, sizeof *dl) : NULL;
	struct ovb_tb *tb = t == OVB_T_TC ? ovb_xcalloc(sz, sizeof *tb) : NULL;
	struct ovb_k8s *k8 = t == OVB_T_K8S ? ovb_xcalloc(sz, sizeof *k8) :
		NULL;
	bool cfs_like = !dl && !tb && !k8;
	struct ovb_cfs *cfs = cfs_like ? ovb_xcalloc(sz, sizeof *cfs) : NULL;
	double *g = cfs_like ? ovb_xcalloc(sz, sizeof *g) : NULL;
	uint64_t *w = cfs_like ? ovb_xcalloc(sz, sizeof *w) : NULL;
	size_t used = 0;
	int v = 0;
	*bad = m;
	for (size_t i = 0; i < m && !v; i++) {
		if (!n[i].used)
			continue;
		struct ovb_need one = n[i];
		size_t j = used;
		v = map_one(t, L, clamp, &one, j, dl, cfs, g, tb, k8, why, len);
		if (v && clamp && v > 0)
			v = 0;
		if (v)
			*bad = i;
		used++;
	}
	double sum;
	if (!v) {
		switch (t) {
		case OVB_T_DL:
			if (!ovb_dl_admit(dl, used, L->dl_cap, C, &sum)) {
				snprintf(why, len, "over-admitted: sum runtime/"
					"period %.9g > %g x %g cpu = %.9g", sum,
					L->dl_cap, C, L->dl_cap * C);
				v = 1;
			}
			break;
		case OVB_T_TC:
			if (!ovb_tc_admit(tb, used, C, &sum)) {
				snprintf(why, len, "the guaranteed rates add up to "
					"%.17g bit/s > the link's %.17g bit/s", sum,
					ceil(C * 8));
				v = 1;
			}
			break;
		case OVB_T_K8S:
			if (!ovb_k8s_admit(k8, used, C, &sum)) {
				snprintf(why, len, "the requests add up to %.17gm "
					"> the node's %.17gm", sum, C * 1000);
				v = 1;
			}
			break;
		default: {
			bool v1 = t == OVB_T_CGROUP1;
			size_t b = ovb_weight_map(g, used, C,
				v1 ? OVB_SHARES_MIN : OVB_WEIGHT_MIN,
				v1 ? OVB_SHARES_MAX : OVB_WEIGHT_MAX, w, why, len);
			if (b) {
				/* the b-th used capsule */
				for (size_t i = 0, u = 0; i < m; i++)
					if (n[i].used && ++u == b)
						*bad = i;
				v = 1;
			}
		}
		}
	}
	free(dl);
	free(tb);
	free(k8);
	free(cfs);
	free(g);
	free(w);
	return v;
}

/* ---- what a target grants: the reservation placed for it ---- */

/* The map of target t (its resource's) without clamping: 0, 1 or -1. */
static int
map_plain(int t, const struct ovb_klimits *L, const struct ovb_need *n,
	char *why, size_t len)
{
	struct ovb_dl dl;
	struct ovb_cfs cfs;
	struct ovb_tb tb;
	struct ovb_k8s k8;
	double g;
	return map_one(t, L, false, n, 0, &dl, &cfs, &g, &tb, &k8, why, len);
}

int
ovb_enf_grant(int t, const struct ovb_klimits *L, struct ovb_need *n,
	char *why, size_t len)
{
	if (!n->used || n->level)
		return 0;
	int v = map_plain(t, L, n, why, len);
	if (v <= 0)
		return v;
	if (t == OVB_T_TC) {
		/* the burst tc grants, max(MTU, rate/HZ), a whole byte; the
		 * rate grows with the burst (Eq. 1's term), so again until
		 * it holds (tau HZ > 1: a few rounds) */
		for (int i = 0; i < 64; i++) {
			struct ovb_tb tb;
			ovb_tc_map(n, L, true, &tb, why, len);
			n->rho = (double)tb.burst;
			if ((v = ovb_tc_map(n, L, false, &tb, why, len)) <= 0)
				return v;
		}
		snprintf(why, len, "no burst meets tc's rate/HZ at tau %g s "
			"and HZ %llu", n->tau, (unsigned long long)L->hz);
		return -1;
	}
	/* CPU: the least burst (to the last double) for which the quota
	 * or the runtime is at least the kernel's least: doubled until it
	 * holds, then halved between the two */
	struct ovb_need m = *n;
	double lo = n->rho, step = fmax(n->rho, n->sigma * n->tau) * 1e-6;
	if (!(step > 0))
		step = 1e-9;
	char w2[256];
	for (;;) {
		m.rho = lo + step;
		if ((v = map_plain(t, L, &m, w2, sizeof w2)) == 0)
			break;
		if (v < 0 || !(step < 1e12)) {
			/* no burst helps: the limit is of tau itself */
			snprintf(why, len, "%s, whatever the burst", w2);
			return -1;
		}
		step *= 2;
	}
	double hi = lo + step;
	for (int i = 0; i < 2100; i++) {
		double mid = lo + (hi - lo) / 2;
		if (!(mid > lo && mid < hi))
			break;
		m.rho = mid;
		if (map_plain(t, L, &m, w2, sizeof w2) == 0)
			hi = mid;
		else
			lo = mid;
	}
	n->rho = hi;
	return 0;
}

int
ovb_need_grant(unsigned targets, const struct ovb_klimits *L,
	struct ovb_need need[OVB_NCAP], int *tbad, char *why, size_t len)
{
	/* a burst raised for one target may want another's again */
	for (int pass = 0; pass < 8; pass++) {
		bool changed = false;
		for (int t = 0; t < OVB_NTARGET; t++) {
			if (!(targets & (1u << t)))
				continue;
			struct ovb_need *n = &need[ovb_target_res(t)];
			double before = n->rho;
			if (ovb_enf_grant(t, L, n, why, len) < 0) {
				*tbad = t;
				return -1;
			}
			changed = changed || n->rho != before;
		}
		if (!changed)
			return 0;
	}
	return 0;
}

void
ovb_plan_klimits(const struct ovb_plan *p, struct ovb_klimits *L)
{
	ovb_klimits_default(L);
	if (!p->enforce)
		return;
	L->hz = p->enf_hz;
	L->mtu = p->enf_mtu;
	L->dl_cap = p->enf_dlcap;
}
