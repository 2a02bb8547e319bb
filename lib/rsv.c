/* rsv.c: one manager's Cluster Reserves allocation (steps 1-3 of
 * section 3.2.1 of the hierarchical bank paper) and the bank algorithm
 * (section 3.2.2), for ovb-reserves.
 *
 * Step 1 is an LP solved by GLPK's simplex: variables R[i,j], p[j], m[j]
 * >= 0; rows sum_j R[i,j] <= cap[i] and sum_i R[i,j] - p[j] + m[j] = T[j];
 * minimize sum_j p[j] + m[j].  A cold start uses a primal feasible crash
 * basis (every R at its lower bound, the node slacks and one of p[j], m[j]
 * basic).  The problem object is kept, with the last 3 optimal bases: a
 * warm round installs the one with the least primal infeasibility under
 * the new bounds (the manager loop tends to alternate between two states:
 * usage caps on, then off) and solves a restricted LP first, with the
 * cells that basis holds at their lower bound fixed there; cells whose
 * reduced cost prices out are freed until none does (warm_restricted).
 *
 * GLPK's solution is then made exactly feasible ("cleaned": clipped to its
 * bounds, node rows scaled into capacity) and V is the deviation of the
 * cleaned point, within GLPK's tolerance of the optimum.  With L[j] =
 * sum_i lb[i,j]: in every optimum a class with L[j] >= T[j] sits at its
 * lower bounds, and every other class (the set J) has sum_i R[i,j] <= T[j];
 * so "deviation <= V" is exactly: R = lb for classes outside J, column sums
 * C[j] <= T[j] on J, and sum_J C[j] >= F* (the cleaned point's flow).  The
 * tolerance is GLPK's on the class rows, 1e-7 sum_j (1 + T[j]).
 *
 * Step 2 minimizes sum_i (1/w[i]) sum_j (R[i,j] - t[i,j])^2 over that set
 * by its dual: multipliers lambda[j] >= 0 on C[j] <= T[j] and mu >= 0 on the
 * flow, class prices pi = lambda - mu.  For given prices each node is a
 * separable QP solved exactly by water-filling, R = clip(t - w/2 (pi + nu))
 * with nu >= 0 its capacity price; the dual is a smooth concave function of
 * |J| + 1 variables with a piecewise-linear gradient, maximized by projected
 * Newton (generalized Hessian, Armijo on the projection arc; along
 * (1,...,1) it is linear, which the step uses).  It stops on a
 * certificate: for the dual point y and the primal point x (R(y) with
 * columns above target scaled down), ||x* - R(y)||^2 <= w_max (f(x) -
 * q(y)), so max |x - x*| <= ||x - R(y)|| + sqrt(w_max gap) is a proven
 * bound, reported.  The gap has first-order terms lambda (C - T), so
 * rounding floors it near 1e-5 points at 1000 nodes: the loop also stops
 * when the bound stops improving.  When Newton stalls above 0.01 points
 * (degenerate faces make its generalized Hessian singular), a primal-dual
 * interior-point method (ipm_solve) solves the same QP, which cannot
 * stall, and Newton restarts from its duals; should that too end above
 * 0.01 points, the feasible step-1 point is kept with the bound the best
 * duals prove for it (sqrt(w_max (f(x) - q(y)))).  Step 2 never fails.
 *
 * Step 3 gives capacity left on a node to the classes idle there (r > u:
 * the usage cap held them) that are below target, in proportion to their
 * targets, never beyond a class's cluster-wide deficit (see step3).
 *
 * Invariants of every R returned: lb <= R <= ub after steps 1, 2 (step 3
 * may exceed ub, never cap); sum_j R[i,j] <= cap[i] (1e-9 relative). */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovb.h"

#define IDLE_TOL 1e-6           /* r > u + IDLE_TOL: allocation left unused */
#define DEV_RTOL 1e-7           /* deviation tolerance, as GLPK's tol_bnd */
#define QP_MAXIT 500
#define ARMIJO 1e-4

#define NBASIS 3                /* recent optimal bases kept */

struct ovb_rsv {
	size_t n, s;
	struct ovb_rsv_opt o;
	glp_prob *lp;
	unsigned char *bas[NBASIS]; /* row then column statuses, newest first */
	int nbas;
	/* step 2, kept for the next round */
	double *lam;                /* s: lambda per class (0 outside J) */
	double mu;
	double *nu;                 /* n: each node's capacity price */
	bool dual;
	/* the bank */
	double *bank;               /* s: balances */
	double *cols2;              /* s: column sums after step 2 */
};

double
ovb_rsv_k(double D, double u)
{
	if (!(D > 0))
		return -5;
	double k = 500 * (D - u) / D;
	return u < D ? fmin(5, k) : fmax(-5, k);
}

void
ovb_rsv_cell(double D, double u, double r, double floor, double *lb,
	double *ub, double *t, bool *idle)
{
	*idle = r > u + IDLE_TOL;
	*lb = floor;
	*ub = *idle ? fmax(u, floor) : 100;
	*t = u + ovb_rsv_k(D, u);
}

static void
glpk_hook(void *info)
{
	(void)info;
	ovb_warn("GLPK failed internally (out of memory, or a GLPK error)");
	exit(OVB_ESOFT);
}

struct ovb_rsv *
ovb_rsv_new(size_t n, size_t s, const struct ovb_rsv_opt *o)
{
	struct ovb_rsv *m = ovb_xcalloc(1, sizeof *m);
	m->n = n;
	m->s = s;
	m->o = *o;
	m->lam = ovb_xcalloc(s, sizeof *m->lam);
	m->nu = ovb_xcalloc(n, sizeof *m->nu);
	m->bank = ovb_xcalloc(s, sizeof *m->bank);
	m->cols2 = ovb_xcalloc(s, sizeof *m->cols2);
	return m;
}

void
ovb_rsv_free(struct ovb_rsv *m)
{
	if (!m)
		return;
	if (m->lp)
		glp_delete_prob(m->lp);
	for (int b = 0; b < NBASIS; b++)
		free(m->bas[b]);
	free(m->lam);
	free(m->nu);
	free(m->bank);
	free(m->cols2);
	free(m);
}

static double
deviation(const struct ovb_rsv_in *in, const double *R)
{
	double v = 0;
	for (size_t j = 0; j < in->s; j++) {
		long double c = 0;
		for (size_t i = 0; i < in->n; i++)
			c += R[i * in->s + j];
		v += fabs((double)(c - in->T[j]));
	}
	return v;
}

/* The deviation tolerance: GLPK's tol_bnd for each class row, 1e-7 (1 +
 * T[j]), summed over the classes. */
static double
dev_tol(const struct ovb_rsv_in *in)
{
	double t = 0;
	for (size_t j = 0; j < in->s; j++)
		t += DEV_RTOL * (1 + in->T[j]);
	return t;
}

/* ---- step 1 ---- */

static void
lp_build(struct ovb_rsv *m)
{
	size_t n = m->n, s = m->s, ns = n * s;
	glp_term_out(GLP_OFF);
	glp_error_hook(glpk_hook, NULL);
	glp_prob *lp = m->lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MIN);
	glp_add_rows(lp, (int)(n + s));
	glp_add_cols(lp, (int)(ns + 2 * s));
	size_t ne = 2 * ns + 2 * s;
	int *ia = ovb_xmalloc((ne + 1) * sizeof *ia);
	int *ja = ovb_xmalloc((ne + 1) * sizeof *ja);
	double *ar = ovb_xmalloc((ne + 1) * sizeof *ar);
	size_t k = 1;
	for (size_t c = 0; c < ns; c++) {
		ia[k] = (int)(1 + c / s), ja[k] = (int)(1 + c), ar[k++] = 1;
		ia[k] = (int)(1 + n + c % s), ja[k] = (int)(1 + c), ar[k++] = 1;
	}
	for (size_t j = 0; j < s; j++) {
		int p = (int)(1 + ns + j), q = (int)(1 + ns + s + j);
		ia[k] = (int)(1 + n + j), ja[k] = p, ar[k++] = -1;
		ia[k] = (int)(1 + n + j), ja[k] = q, ar[k++] = 1;
		glp_set_col_bnds(lp, p, GLP_LO, 0, 0);
		glp_set_col_bnds(lp, q, GLP_LO, 0, 0);
		glp_set_obj_coef(lp, p, 1);
		glp_set_obj_coef(lp, q, 1);
	}
	glp_load_matrix(lp, (int)ne, ia, ja, ar);
	free(ia);
	free(ja);
	free(ar);
}

/* The primal feasible crash basis: R at lower bounds, node slacks basic,
 * and per class whichever of p, m takes up T - L. */
static void
lp_crash(struct ovb_rsv *m, const struct ovb_rsv_in *in)
{
	size_t n = m->n, s = m->s, ns = n * s;
	for (size_t i = 0; i < n; i++)
		glp_set_row_stat(m->lp, (int)(1 + i), GLP_BS);
	for (size_t c = 0; c < ns; c++)
		glp_set_col_stat(m->lp, (int)(1 + c),
			in->lb[c] == in->ub[c] ? GLP_NS : GLP_NL);
	for (size_t j = 0; j < s; j++) {
		long double L = 0;
		for (size_t i = 0; i < n; i++)
			L += in->lb[i * s + j];
		bool over = L > in->T[j];
		glp_set_row_stat(m->lp, (int)(1 + n + j), GLP_NS);
		glp_set_col_stat(m->lp, (int)(1 + ns + j), over ? GLP_BS : GLP_NL);
		glp_set_col_stat(m->lp, (int)(1 + ns + s + j), over ? GLP_NL : GLP_BS);
	}
}

/* Saves the LP's (optimal) basis as the newest of the cache. */
static void
basis_save(struct ovb_rsv *m)
{
	int nr = glp_get_num_rows(m->lp), nc = glp_get_num_cols(m->lp);
	unsigned char *b = m->bas[NBASIS - 1];
	if (!b)
		b = ovb_xmalloc((size_t)(nr + nc));
	memmove(m->bas + 1, m->bas, (NBASIS - 1) * sizeof *m->bas);
	m->bas[0] = b;
	for (int i = 0; i < nr; i++)
		b[i] = (unsigned char)glp_get_row_stat(m->lp, i + 1);
	for (int j = 0; j < nc; j++)
		b[nr + j] = (unsigned char)glp_get_col_stat(m->lp, j + 1);
	if (m->nbas < NBASIS)
		m->nbas++;
}

/* A non-basic status that fits the variable's bounds now. */
static int
fit_stat(int stat, int type)
{
	if (stat == GLP_BS)
		return GLP_BS;
	switch (type) {
	case GLP_FX: return GLP_NS;
	case GLP_LO: return GLP_NL;
	case GLP_UP: return GLP_NU;
	case GLP_FR: return GLP_NF;
	}
	return stat == GLP_NU ? GLP_NU : GLP_NL;
}

/* Installs cached basis b; returns the sum of the primal infeasibilities
 * it has under the current bounds, or -1 if it cannot be factorized. */
static double
basis_try(struct ovb_rsv *m, const unsigned char *b)
{
	glp_prob *lp = m->lp;
	int nr = glp_get_num_rows(lp), nc = glp_get_num_cols(lp);
	for (int i = 0; i < nr; i++)
		glp_set_row_stat(lp, i + 1, fit_stat(b[i], glp_get_row_type(lp,
			i + 1)));
	for (int j = 0; j < nc; j++)
		glp_set_col_stat(lp, j + 1, fit_stat(b[nr + j], glp_get_col_type(lp,
			j + 1)));
	if (glp_warm_up(lp))
		return -1;
	double inf = 0;
	for (int i = 0; i < nr; i++) {
		if (glp_get_row_stat(lp, i + 1) != GLP_BS)
			continue;
		double x = glp_get_row_prim(lp, i + 1);
		double v = fmax(0, glp_get_row_lb(lp, i + 1) - x) + fmax(0, x -
			glp_get_row_ub(lp, i + 1));
		inf += v;
	}
	for (int j = 0; j < nc; j++) {
		if (glp_get_col_stat(lp, j + 1) != GLP_BS)
			continue;
		double x = glp_get_col_prim(lp, j + 1), v = 0;
		int t = glp_get_col_type(lp, j + 1);
		if (t != GLP_FR && t != GLP_UP)
			v += fmax(0, glp_get_col_lb(lp, j + 1) - x);
		if (t == GLP_DB || t == GLP_FX || t == GLP_UP)
			v += fmax(0, x - glp_get_col_ub(lp, j + 1));
		inf += v;
	}
	return inf;
}

/* Of the cached bases, installs the one with the least infeasibility
 * under the new bounds (in the manager loop, allocations often alternate
 * between two states: usage caps on, then off).  false: none usable. */
static bool
basis_best(struct ovb_rsv *m)
{
	int best = -1;
	double bestinf = INFINITY;
	for (int b = 0; b < m->nbas; b++) {
		double inf = basis_try(m, m->bas[b]);
		if (inf >= 0 && inf < bestinf)
			best = b, bestinf = inf;
		if (inf == 0)
			break;
	}
	if (best < 0)
		return false;
	if (best != m->nbas - 1 || bestinf != 0)
		basis_try(m, m->bas[best]);
	return true;
}

static const char *
glpk_why(int rc)
{
	switch (rc) {
	case GLP_EBADB: return "invalid initial basis";
	case GLP_ESING: return "singular basis matrix";
	case GLP_ECOND: return "ill-conditioned basis matrix";
	case GLP_EBOUND: return "inconsistent bounds";
	case GLP_EFAIL: return "numerical failure";
	case GLP_EITLIM: return "iteration limit";
	case GLP_ETMLIM: return "time limit";
	case GLP_ENOPFS: return "no primal feasible solution";
	case GLP_ENODFS: return "no dual feasible solution";
	}
	return "unknown failure";
}

/* A warm round as a restricted LP: the cells the basis holds at their
 * lower bound stay fixed there while GLPK solves the rest (fixed columns
 * leave its working LP, so pivots are cheaper); then each such cell is
 * priced with the row duals (reduced cost -(y_node + y_class) < 0: it
 * could improve the deviation) and freed, and GLPK resumes, until none
 * prices out.  The result is optimal for the whole LP.  Returns GLPK's
 * code. */
static int
warm_restricted(struct ovb_rsv *m, const struct ovb_rsv_in *in,
	glp_smcp *p)
{
	glp_prob *lp = m->lp;
	size_t n = m->n, s = m->s, ns = n * s;
	unsigned char *fixed = ovb_xcalloc(ns, 1);
	for (size_t c = 0; c < ns; c++)
		if (in->lb[c] < in->ub[c] &&
		    glp_get_col_stat(lp, (int)(1 + c)) == GLP_NL) {
			glp_set_col_bnds(lp, (int)(1 + c), GLP_FX, in->lb[c],
				in->lb[c]);
			fixed[c] = 1;
		}
	int rc = 0;
	for (int pass = 0; pass < 50; pass++) {
		if ((rc = glp_simplex(lp, p)) || glp_get_status(lp) != GLP_OPT)
			break;
		size_t freed = 0;
		for (size_t c = 0; c < ns; c++) {
			if (!fixed[c])
				continue;
			double d = -(glp_get_row_dual(lp, (int)(1 + c / s)) +
				glp_get_row_dual(lp, (int)(1 + n + c % s)));
			if (d < -1e-9) {
				glp_set_col_bnds(lp, (int)(1 + c), GLP_DB, in->lb[c],
					in->ub[c]);
				glp_set_col_stat(lp, (int)(1 + c), GLP_NL);
				fixed[c] = 0;
				freed++;
			}
		}
		if (!freed)
			break;
	}
	for (size_t c = 0; c < ns; c++)
		if (fixed[c]) {
			glp_set_col_bnds(lp, (int)(1 + c), GLP_DB, in->lb[c],
				in->ub[c]);
			glp_set_col_stat(lp, (int)(1 + c), GLP_NL);
		}
	free(fixed);
	return rc;
}

static int
step1(struct ovb_rsv *m, const struct ovb_rsv_in *in, double *R,
	struct ovb_rsv_stat *st, char *why, size_t whylen)
{
	size_t n = m->n, s = m->s, ns = n * s;
	if (!m->lp)
		lp_build(m);
	glp_prob *lp = m->lp;
	for (size_t i = 0; i < n; i++)
		glp_set_row_bnds(lp, (int)(1 + i), GLP_UP, 0, in->cap[i]);
	for (size_t j = 0; j < s; j++)
		glp_set_row_bnds(lp, (int)(1 + n + j), GLP_FX, in->T[j], in->T[j]);
	for (size_t c = 0; c < ns; c++) {
		double lo = in->lb[c], hi = in->ub[c];
		glp_set_col_bnds(lp, (int)(1 + c), lo == hi ? GLP_FX : GLP_DB,
			lo, hi);
	}
	glp_smcp p;
	glp_init_smcp(&p);
	p.msg_lev = GLP_MSG_OFF;
	st->warm = m->nbas && !m->o.cold && basis_best(m);
	int it0 = glp_get_it_cnt(lp), rc;
	if (st->warm) {
		p.meth = GLP_PRIMAL;
		rc = warm_restricted(m, in, &p);
		if (rc || glp_get_status(lp) != GLP_OPT)
			st->warm = false;       /* try again from scratch */
	}
	if (!st->warm) {
		lp_crash(m, in);
		p.meth = GLP_PRIMAL;
		rc = glp_simplex(lp, &p);
		if (rc == GLP_ESING || rc == GLP_ECOND || rc == GLP_EFAIL) {
			glp_adv_basis(lp, 0);   /* once more, GLPK's own basis */
			rc = glp_simplex(lp, &p);
		}
		if (rc) {
			snprintf(why, whylen, "step 1: GLPK simplex failed: %s",
				glpk_why(rc));
			return OVB_ESOFT;
		}
	}
	st->lp_iter = glp_get_it_cnt(lp) - it0;
	int status = glp_get_status(lp);
	if (status != GLP_OPT) {
		m->nbas = 0;
		snprintf(why, whylen, "step 1: the LP %s", status == GLP_NOFEAS ?
			"is infeasible (the lower bounds of a node exceed its "
			"capacity)" : "has no optimal solution (GLPK status "
			"undefined or unbounded)");
		return status == GLP_NOFEAS ? OVB_EDATA : OVB_ESOFT;
	}
	basis_save(m);
	for (size_t c = 0; c < ns; c++)
		R[c] = glp_get_col_prim(lp, (int)(1 + c));
	return 0;
}

/* Makes R satisfy the bounds and node capacities exactly: clipped, then
 * each node's amount above lb scaled down to fit. */
static void
clean_rows(const struct ovb_rsv_in *in, double *R)
{
	size_t n = in->n, s = in->s;
	for (size_t i = 0; i < n; i++) {
		double *Ri = R + i * s;
		const double *lo = in->lb + i * s, *hi = in->ub + i * s;
		long double sum = 0, room = 0;
		for (size_t j = 0; j < s; j++) {
			Ri[j] = fmin(fmax(Ri[j], lo[j]), hi[j]);
			sum += Ri[j];
			room += Ri[j] - lo[j];
		}
		if (sum > in->cap[i] && room > 0) {
			double f = (double)(1 - (sum - in->cap[i]) / room);
			for (size_t j = 0; j < s; j++)
				Ri[j] = lo[j] + (Ri[j] - lo[j]) * fmax(f, 0);
		}
	}
}

/* Scales class j's amounts above lb so that its column sum is at most
 * lim[j] (classes with lim[j] < 0 are left alone). */
static void
trim_cols(const struct ovb_rsv_in *in, double *R, const double *lim)
{
	size_t n = in->n, s = in->s;
	for (size_t j = 0; j < s; j++) {
		if (lim[j] < 0)
			continue;
		long double C = 0, L = 0;
		for (size_t i = 0; i < n; i++) {
			C += R[i * s + j];
			L += in->lb[i * s + j];
		}
		if (C <= lim[j] || C <= L)
			continue;
		double f = (double)((lim[j] - L) / (C - L));
		for (size_t i = 0; i < n; i++) {
			double *x = &R[i * s + j];
			*x = in->lb[i * s + j] + (*x - in->lb[i * s + j]) * fmax(f, 0);
		}
	}
}

/* ---- step 2 ---- */

/* Step 2's data over the classes of J (m of them): n x m cells. */
struct qp {
	size_t n, m, s;
	size_t *J;                  /* m: class index */
	double *t, *lb, *ub;        /* n x m */
	double *cap, *h, *iw;       /* n: capacity left, w/2, 1/w */
	double *T;                  /* m */
	double F, wmax;             /* flow to reach; largest w */
	double fval;                /* scale of q, for rounding noise */
	double *R, *Rn, *nu, *nun;  /* current and candidate */
	unsigned char *tight, *tightn; /* row at capacity (nu > 0 or sum = cap) */
	long double *C, *Cn;
	double *pi;
	long evals;
};

/* fmin(fmax(x, lo), hi) without the calls into libm (the hot loop of
 * step 2): the same value for every x, NaN included (lo). */
static inline double
clip(double x, double lo, double hi)
{
	double y = x > lo ? x : lo;
	return y < hi ? y : hi;
}

/* Node i for prices pi: R = clip(t - h (pi + nu), lb, ub), nu >= 0 the
 * least with sum R <= cap.  Returns nu; nu0 is a guess. */
static double
node_solve(const struct qp *q, size_t i, const double *pi, double nu0,
	double *R)
{
	size_t m = q->m;
	const double *t = q->t + i * m, *lo = q->lb + i * m, *hi = q->ub + i * m;
	double h = q->h[i], cap = q->cap[i];
	long double sum = 0;
	for (size_t k = 0; k < m; k++) {
		R[k] = clip(t[k] - h * pi[k], lo[k], hi[k]);
		sum += R[k];
	}
	if (sum <= cap)
		return 0;
	/* S(nu) = sum_k clip(...) decreases piecewise linearly; bracketed
	 * Newton from the guess (exact once on the final piece). */
	double a = 0, b = 0;
	for (size_t k = 0; k < m; k++) {
		double v = (t[k] - h * pi[k] - lo[k]) / h;
		b = v > b ? v : b;
	}
	double nu = nu0 > a && nu0 < b ? nu0 : b / 2;
	for (int it = 0; it < 200; it++) {
		long double S = 0;
		size_t nfree = 0;
		for (size_t k = 0; k < m; k++) {
			double x = t[k] - h * (pi[k] + nu);
			if (x <= lo[k])
				x = lo[k];
			else if (x >= hi[k])
				x = hi[k];
			else
				nfree++;
			R[k] = x;
			S += x;
		}
		long double e = S - cap;
		if (fabsl(e) <= 1e-15L * (cap + 1))
			return nu;
		if (e > 0)
			a = nu;
		else
			b = nu;
		double next = nfree ? nu + (double)e / (h * (double)nfree) : -1;
		if (!(next > a && next < b))
			next = a + (b - a) / 2;
		if (next == nu || b - a <= 1e-15 * b)
			break;
		nu = next;
	}
	/* Bracket exhausted: take its upper end, where S <= cap. */
	for (size_t k = 0; k < m; k++)
		R[k] = clip(t[k] - h * (pi[k] + b), lo[k], hi[k]);
	return b;
}

/* R(y), C(y) into Rn, Cn, nun. */
static void
qp_eval(struct qp *q, const double *y)
{
	size_t n = q->n, m = q->m;
	for (size_t k = 0; k < m; k++)
		q->pi[k] = y[k] - y[m];
	for (size_t k = 0; k < m; k++)
		q->Cn[k] = 0;
	for (size_t i = 0; i < n; i++) {
		double *Ri = q->Rn + i * m;
		q->nun[i] = node_solve(q, i, q->pi, q->nu[i], Ri);
		long double sum = 0;
		for (size_t k = 0; k < m; k++) {
			q->Cn[k] += Ri[k];
			sum += Ri[k];
		}
		q->tightn[i] = q->nun[i] > 0 || sum >= q->cap[i] - 1e-9 *
			(1 + q->cap[i]);
	}
	q->evals++;
}

static long double
flow(const long double *C, size_t m)
{
	long double f = 0;
	for (size_t k = 0; k < m; k++)
		f += C[k];
	return f;
}

/* max_k |y_k - max(0, y_k + g_k)| at yn, from the candidate's sums. */
static double
pgrad(const struct qp *q, const double *yn)
{
	size_t m = q->m;
	double pg = 0, g;
	for (size_t k = 0; k < m; k++) {
		g = (double)(q->Cn[k] - q->T[k]);
		pg = fmax(pg, fabs(yn[k] - fmax(0, yn[k] + g)));
	}
	g = (double)(q->F - flow(q->Cn, m));
	return fmax(pg, fabs(yn[m] - fmax(0, yn[m] + g)));
}

static void
qp_accept(struct qp *q)
{
	double *t = q->R;
	q->R = q->Rn, q->Rn = t;
	t = q->nu;
	q->nu = q->nun, q->nun = t;
	unsigned char *b = q->tight;
	q->tight = q->tightn, q->tightn = b;
	long double *c = q->C;
	q->C = q->Cn, q->Cn = c;
}

/* q(yn) - q(y), accurately (from differences). */
static double
qp_delta(const struct qp *q, const double *y, const double *yn)
{
	size_t n = q->n, m = q->m;
	long double d = 0;
	for (size_t i = 0; i < n; i++) {
		const double *a = q->R + i * m, *b = q->Rn + i * m,
			*t = q->t + i * m;
		double di = 0;
		for (size_t k = 0; k < m; k++)
			di += (b[k] - a[k]) * (b[k] + a[k] - 2 * t[k]);
		d += di * q->iw[i];
	}
	for (size_t k = 0; k < m; k++)
		d += yn[k] * (q->Cn[k] - q->T[k]) - y[k] * (q->C[k] - q->T[k]);
	d += yn[m] * (q->F - flow(q->Cn, m)) - y[m] * (q->F - flow(q->C, m));
	return (double)d;
}

/* The certificate at the current point: x = R(y) with columns above T
 * scaled down (into q->Rn); returns the bound on max |x - x*| and sets
 * *shortfall = F - flow(x) (>= 0). */
static double
qp_cert(struct qp *q, const double *y, double *shortfall)
{
	size_t n = q->n, m = q->m;
	memcpy(q->Rn, q->R, n * m * sizeof *q->Rn);
	long double fx = 0;
	for (size_t k = 0; k < m; k++) {
		long double C = q->C[k];
		if (C <= q->T[k]) {
			fx += C;
			continue;
		}
		long double L = 0;
		for (size_t i = 0; i < n; i++)
			L += q->lb[i * m + k];
		double f = C > L ? (double)((q->T[k] - L) / (C - L)) : 0;
		long double Cx = 0;
		for (size_t i = 0; i < n; i++) {
			double *x = &q->Rn[i * m + k], lo = q->lb[i * m + k];
			*x = lo + (*x - lo) * fmax(f, 0);
			Cx += *x;
		}
		fx += Cx;
	}
	double Fs = fminl(q->F, fx);
	*shortfall = (double)(q->F - Fs);
	long double df = 0, dist = 0;
	for (size_t i = 0; i < n; i++) {
		const double *a = q->R + i * m, *b = q->Rn + i * m,
			*t = q->t + i * m;
		double di = 0;
		for (size_t k = 0; k < m; k++) {
			di += (b[k] - a[k]) * (b[k] + a[k] - 2 * t[k]);
			dist += (long double)(b[k] - a[k]) * (b[k] - a[k]);
		}
		df += di * q->iw[i];
	}
	long double gap = df;
	for (size_t k = 0; k < m; k++)
		gap -= y[k] * (q->C[k] - q->T[k]);
	gap -= y[m] * (Fs - flow(q->C, m));
	return (double)(sqrtl(dist) + sqrtl(fmaxl(gap, 0) * q->wmax));
}

/* The generalized Hessian of -q over the coordinates with free[k], into M
 * (d x d, d = m + 1, row-major). */
static void
qp_hessian(const struct qp *q, double *M)
{
	size_t n = q->n, m = q->m, d = m + 1;
	memset(M, 0, d * d * sizeof *M);
	size_t *F = ovb_xmalloc(m * sizeof *F);
	for (size_t i = 0; i < n; i++) {
		const double *Ri = q->R + i * m, *lo = q->lb + i * m,
			*hi = q->ub + i * m;
		size_t nf = 0;
		for (size_t k = 0; k < m; k++) {
			double e = 1e-11 * (1 + fabs(hi[k]));
			if (Ri[k] > lo[k] + e && Ri[k] < hi[k] - e)
				F[nf++] = k;
		}
		if (!nf)
			continue;
		double h = q->h[i];
		for (size_t a = 0; a < nf; a++)
			M[F[a] * d + F[a]] += h;
		if (q->tight[i]) {
			double g = h / (double)nf;
			for (size_t a = 0; a < nf; a++)
				for (size_t b = 0; b < nf; b++)
					M[F[a] * d + F[b]] -= g;
		} else {
			for (size_t a = 0; a < nf; a++) {
				M[F[a] * d + m] -= h;
				M[m * d + F[a]] -= h;
			}
			M[m * d + m] += h * (double)nf;
		}
	}
	free(F);
}

/* Solves (A + delta I) x = b for the symmetric positive semidefinite A
 * (p x p, overwritten) by Cholesky; false if it breaks down. */
static bool
chol_solve(double *A, size_t p, double delta, const double *b, double *x)
{
	for (size_t i = 0; i < p; i++)
		A[i * p + i] += delta;
	for (size_t j = 0; j < p; j++) {
		double djj = A[j * p + j];
		for (size_t k = 0; k < j; k++)
			djj -= A[j * p + k] * A[j * p + k];
		if (!(djj > 0))
			return false;
		djj = sqrt(djj);
		A[j * p + j] = djj;
		for (size_t i = j + 1; i < p; i++) {
			double v = A[i * p + j];
			for (size_t k = 0; k < j; k++)
				v -= A[i * p + k] * A[j * p + k];
			A[i * p + j] = v / djj;
		}
	}
	for (size_t i = 0; i < p; i++) {
		double v = b[i];
		for (size_t k = 0; k < i; k++)
			v -= A[i * p + k] * x[k];
		x[i] = v / A[i * p + i];
	}
	for (size_t i = p; i-- > 0;) {
		double v = x[i];
		for (size_t k = i + 1; k < p; k++)
			v -= A[k * p + i] * x[k];
		x[i] = v / A[i * p + i];
	}
	return true;
}

/* Projected Newton on the dual; y (m + 1) in/out.  0, or -1 when it
 * stalled before the bound reached acc (q->R is then the best point). */
static int
qp_newton(struct qp *q, double *y, double acc, double tol, double Vp,
	double *bound, double *shortfall, long *iters)
{
	size_t m = q->m, d = m + 1;
	double *g = ovb_xmalloc(d * sizeof *g), *dir = ovb_xmalloc(d * sizeof *dir),
		*yn = ovb_xmalloc(d * sizeof *yn), *M = ovb_xmalloc(d * d * sizeof *M),
		*MF = ovb_xmalloc(d * d * sizeof *MF), *gF = ovb_xmalloc(d * sizeof *gF),
		*xF = ovb_xmalloc(d * sizeof *xF);
	size_t *F = ovb_xmalloc(d * sizeof *F);
	bool *act = ovb_xmalloc(d * sizeof *act);
	qp_eval(q, y);
	qp_accept(q);
	double reg = 1e-9, best = INFINITY;
	int rc = -1, stall = 0;
	long it;
	for (it = 0; it < QP_MAXIT; it++) {
		*bound = qp_cert(q, y, shortfall);
		if (*bound <= acc && *shortfall <= 1e-3 * tol) {
			rc = 0;
			break;
		}
		/* Rounding ends the progress of the bound (its gap has terms
		 * lambda (C - T)); stop after 3 iterations without 10%. */
		if (*bound < 0.9 * best)
			best = *bound, stall = 0;
		else if (*bound <= 0.01 && *shortfall <= tol && ++stall >= 3)
			break;
		for (size_t k = 0; k < m; k++)
			g[k] = (double)(q->C[k] - q->T[k]);
		g[m] = (double)(q->F - flow(q->C, m));
		double pg = 0;
		for (size_t k = 0; k < d; k++)
			pg = fmax(pg, fabs(y[k] - fmax(0, y[k] + g[k])));
		double eps = fmin(1e-3, pg);
		size_t nf = 0;
		for (size_t k = 0; k < d; k++) {
			act[k] = y[k] <= eps && g[k] < 0;
			if (!act[k])
				F[nf++] = k;
		}
		/* All free and a positive shortfall V': q is linear along n =
		 * (1,...,1), falling at rate V', and n is in the Hessian's null
		 * space.  Newton orthogonally to n, then slide along -n until
		 * the least y reaches 0. */
		bool slide = nf == d && Vp > 0;
		qp_hessian(q, M);
		double dmax = 0, gn = 0;
		for (size_t k = 0; slide && k < d; k++)
			gn += g[k] / (double)d;
		for (size_t a = 0; a < nf; a++) {
			for (size_t b = 0; b < nf; b++)
				MF[a * nf + b] = M[F[a] * d + F[b]];
			gF[a] = g[F[a]] - gn;
			dmax = fmax(dmax, MF[a * nf + a]);
		}
		for (size_t k = 0; k < d; k++)
			dir[k] = act[k] ? -y[k] : 0;
		if (nf && !chol_solve(MF, nf, reg * fmax(dmax, 1), gF, xF)) {
			reg *= 100;
			stall++;
			continue;
		}
		if (slide) {
			double xn = 0, t = INFINITY;
			for (size_t a = 0; a < nf; a++)
				xn += xF[a] / (double)d;
			for (size_t a = 0; a < nf; a++) {
				xF[a] -= xn;            /* exactly orthogonal to n */
				t = fmin(t, y[F[a]] + xF[a]);
			}
			for (size_t a = 0; t > 0 && a < nf; a++)
				xF[a] -= t;
		}
		double big = 0, lim = 1e3;
		for (size_t a = 0; a < nf; a++) {
			dir[F[a]] = xF[a];
			big = fmax(big, fabs(xF[a]));
		}
		for (size_t k = 0; k < d; k++)
			lim = fmax(lim, 10 * y[k]);
		if (big > lim)
			for (size_t a = 0; a < nf; a++)
				dir[F[a]] *= lim / big;
		double slope = 0;
		for (size_t a = 0; a < nf; a++)
			slope += g[F[a]] * dir[F[a]];
		bool ok = false;
		for (double al = 1; al > 1e-12; al /= 2) {
			double pred = al * slope;
			for (size_t k = 0; k < d; k++) {
				yn[k] = fmax(0, y[k] + al * dir[k]);
				if (act[k])
					pred += g[k] * (yn[k] - y[k]);
			}
			qp_eval(q, yn);
			double dq = qp_delta(q, y, yn);
			if (dq >= ARMIJO * pred && pred >= 0) {
				ok = true;
				break;
			}
			/* Below rounding, q cannot tell: take the step when it
			 * halves the projected gradient. */
			if (dq >= -1e-12 * (1 + fabs(q->fval)) &&
			    pgrad(q, yn) <= 0.5 * pg) {
				ok = true;
				break;
			}
		}
		if (!ok) {
			if (reg > 1e6)
				break;
			reg *= 1000;      /* more gradient-like next time */
			continue;
		}
		reg = fmax(1e-9, reg / 10);
		qp_accept(q);
		memcpy(y, yn, d * sizeof *y);
	}
	if (rc)
		*bound = qp_cert(q, y, shortfall);
	*iters = it;
	free(g), free(dir), free(yn), free(M), free(MF), free(gF), free(xF);
	free(F), free(act);
	return rc;
}

/* ---- step 2's fallback: a primal-dual interior-point method ----
 *
 * When projected Newton on the dual stalls (its generalized Hessian is
 * singular on degenerate faces, and the face "flow = F" is exactly the
 * maximal flow), the same QP is solved in the primal by a path-following
 * barrier method, which cannot stall: every iteration solves one positive
 * definite system and cuts the complementarity mu by a fraction.  Rows:
 * node i (sum_k x <= cap), class k (sum_i x <= T), flow (-sum x <= -F'),
 * F' = F - tol/2 (the stated tolerance leaves the interior non-empty);
 * bounds lb <= x <= ub (cells with lb = ub are constants).  The normal
 * equations G D G^T + E, D = (2/w + Sigma)^-1, are reduced to the m + 1
 * class and flow rows by eliminating the diagonal node block: O(n m^2)
 * per iteration.  Only the duals y = (lambda, mu) are used: the
 * certificate (qp_cert) is computed from them exactly as for Newton. */
static void
ipm_solve(const struct qp *q, double tol, double *y, long *iters)
{
	size_t n = q->n, m = q->m, d = m + 1, nc = n * m;
	double *x = ovb_xmalloc(nc * sizeof *x), *zl = ovb_xmalloc(nc *
		sizeof *zl), *zu = ovb_xmalloc(nc * sizeof *zu),
		*D = ovb_xmalloc(nc * sizeof *D), *rd = ovb_xmalloc(nc * sizeof *rd),
		*dx = ovb_xmalloc(nc * sizeof *dx);
	size_t nr = n + d;          /* rows: nodes, classes, flow */
	double *s = ovb_xmalloc(nr * sizeof *s), *lam = ovb_xmalloc(nr *
		sizeof *lam), *h = ovb_xmalloc(nr * sizeof *h), *rp = ovb_xmalloc(nr *
		sizeof *rp), *dl = ovb_xmalloc(nr * sizeof *dl), *a = ovb_xmalloc(n *
		sizeof *a), *S = ovb_xmalloc(d * d * sizeof *S), *Sc = ovb_xmalloc(d *
		d * sizeof *Sc), *rhs = ovb_xmalloc(d * sizeof *rhs), *sol =
		ovb_xmalloc(d * sizeof *sol), *Gx = ovb_xmalloc(nr * sizeof *Gx),
		*rt = ovb_xmalloc(nr * sizeof *rt), *ds = ovb_xmalloc(nr * sizeof *ds);
	unsigned char *fix = ovb_xmalloc(nc);
	double scale = 1;
	for (size_t c = 0; c < nc; c++) {
		fix[c] = !(q->ub[c] - q->lb[c] > 1e-12 * (1 + fabs(q->ub[c])));
		x[c] = fix[c] ? q->lb[c] : q->lb[c] + 0.5 * (q->ub[c] - q->lb[c]);
		zl[c] = zu[c] = fix[c] ? 0 : 1;
		scale = fmax(scale, fabs(q->t[c]));
	}
	for (size_t i = 0; i < n; i++)
		h[i] = q->cap[i];
	for (size_t k = 0; k < m; k++)
		h[n + k] = q->T[k];
	h[n + m] = -(q->F - 0.5 * tol);
	long it;
	for (it = 0; it < 200; it++) {
		/* Gx, primal residual, mu */
		memset(Gx, 0, nr * sizeof *Gx);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < m; k++) {
				double v = x[i * m + k];
				Gx[i] += v;
				Gx[n + k] += v;
				Gx[n + m] -= v;
			}
		if (it == 0)
			for (size_t r = 0; r < nr; r++) {
				s[r] = fmax(h[r] - Gx[r], 1);
				lam[r] = 1;
			}
		double mu = 0, pres = 0, dres = 0;
		size_t cnt = nr;
		for (size_t r = 0; r < nr; r++) {
			rp[r] = Gx[r] + s[r] - h[r];
			pres = fmax(pres, fabs(rp[r]));
			mu += s[r] * lam[r];
		}
		for (size_t c = 0; c < nc; c++) {
			if (fix[c])
				continue;
			mu += (x[c] - q->lb[c]) * zl[c] + (q->ub[c] - x[c]) * zu[c];
			cnt += 2;
		}
		mu /= (double)cnt;
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < m; k++) {
				size_t c = i * m + k;
				if (fix[c])
					continue;
				double g = 2 * q->iw[i] * (x[c] - q->t[c]) + lam[i] +
					lam[n + k] - lam[n + m] - zl[c] + zu[c];
				dres = fmax(dres, fabs(g));
			}
		if (!isfinite(mu) || (mu < 1e-12 * scale && pres < 1e-8 * (1 +
		    scale) && dres < 1e-8 * (1 + scale)) || mu < 1e-15 * scale)
			break;
		for (size_t k = 0; k < d; k++)
			y[k] = fmax(0, lam[n + k]);     /* the last finite duals */
		/* D and the reduced system, once per iteration */
		memset(S, 0, d * d * sizeof *S);
		for (size_t i = 0; i < n; i++) {
			double *Di = D + i * m, ai = s[i] / lam[i], sd = 0;
			for (size_t k = 0; k < m; k++) {
				size_t c = i * m + k;
				Di[k] = fix[c] ? 0 : 1 / (2 * q->iw[i] + zl[c] / (x[c] -
					q->lb[c]) + zu[c] / (q->ub[c] - x[c]));
				sd += Di[k];
				S[k * d + k] += Di[k];
			}
			S[m * d + m] += sd;
			for (size_t k = 0; k < m; k++)
				S[k * d + m] -= Di[k], S[m * d + k] -= Di[k];
			ai += sd;
			a[i] = ai;
			/* minus b b^T / a, b = (D_i, -sd) */
			for (size_t k = 0; k < m; k++) {
				double f = Di[k] / ai;
				if (f == 0)
					continue;
				for (size_t l = 0; l <= k; l++)
					S[k * d + l] -= f * Di[l];
				S[m * d + k] += f * sd;
			}
			S[m * d + m] -= sd * sd / ai;
		}
		for (size_t k = 0; k < d; k++) {
			S[k * d + k] += s[n + k] / lam[n + k];
			for (size_t l = 0; l < k; l++)
				S[l * d + k] = S[k * d + l];
		}
		/* predictor (sigma 0), then the step for sigma (mu_aff/mu)^3 */
		double sigma = 0, alpha = 0;
		for (int pass = 0; pass < 2; pass++) {
			double smu = sigma * mu;
			/* r~_d = 2c(x-t) + G^T lam - smu/(x-lb) + smu/(ub-x) */
			for (size_t i = 0; i < n; i++)
				for (size_t k = 0; k < m; k++) {
					size_t c = i * m + k;
					rd[c] = fix[c] ? 0 : 2 * q->iw[i] * (x[c] - q->t[c]) +
						lam[i] + lam[n + k] - lam[n + m] - smu / (x[c] -
						q->lb[c]) + smu / (q->ub[c] - x[c]);
				}
			/* (G D G^T + E) dl = r~_p - G D r~_d, r~_p = rp + smu/lam - s */
			for (size_t r = 0; r < nr; r++)
				rt[r] = rp[r] + smu / lam[r] - s[r];
			memset(rhs, 0, d * sizeof *rhs);
			for (size_t i = 0; i < n; i++) {
				double gi = 0;
				const double *Di = D + i * m;
				for (size_t k = 0; k < m; k++) {
					double v = Di[k] * rd[i * m + k];
					gi += v;
					rhs[k] -= v;
					rhs[m] += v;
				}
				dl[i] = rt[i] - gi;     /* node rhs, for now */
			}
			for (size_t k = 0; k < d; k++)
				rhs[k] += rt[n + k];
			for (size_t i = 0; i < n; i++) {
				const double *Di = D + i * m;
				double f = dl[i] / a[i], sd = 0;
				for (size_t k = 0; k < m; k++) {
					rhs[k] -= f * Di[k];
					sd += Di[k];
				}
				rhs[m] += f * sd;
			}
			memcpy(Sc, S, d * d * sizeof *S);
			double dmax = 0;
			for (size_t k = 0; k < d; k++)
				dmax = fmax(dmax, Sc[k * d + k]);
			if (!chol_solve(Sc, d, 1e-14 * dmax, rhs, sol))
				goto out;
			for (size_t k = 0; k < d; k++)
				dl[n + k] = sol[k];
			for (size_t i = 0; i < n; i++) {
				const double *Di = D + i * m;
				double v = dl[i];
				for (size_t k = 0; k < m; k++)
					v -= Di[k] * (sol[k] - sol[m]);
				dl[i] = v / a[i];
			}
			/* dx = -D (r~_d + G^T dl); ds = (smu - s lam - s dl) / lam */
			for (size_t i = 0; i < n; i++)
				for (size_t k = 0; k < m; k++) {
					size_t c = i * m + k;
					dx[c] = -D[c] * (rd[c] + dl[i] + dl[n + k] - dl[n + m]);
				}
			for (size_t r = 0; r < nr; r++)
				ds[r] = (smu - s[r] * lam[r] - s[r] * dl[r]) / lam[r];
			/* the largest step keeping everything positive */
			double ap = 1;
			for (size_t r = 0; r < nr; r++) {
				if (ds[r] < 0)
					ap = fmin(ap, -s[r] / ds[r]);
				if (dl[r] < 0)
					ap = fmin(ap, -lam[r] / dl[r]);
			}
			double muaff = 0;
			for (size_t c = 0; c < nc; c++) {
				if (fix[c])
					continue;
				double xl = x[c] - q->lb[c], xu = q->ub[c] - x[c];
				double dzl = (smu - xl * zl[c] - zl[c] * dx[c]) / xl;
				double dzu = (smu - xu * zu[c] + zu[c] * dx[c]) / xu;
				if (dx[c] < 0)
					ap = fmin(ap, -xl / dx[c]);
				if (dx[c] > 0)
					ap = fmin(ap, xu / dx[c]);
				if (dzl < 0)
					ap = fmin(ap, -zl[c] / dzl);
				if (dzu < 0)
					ap = fmin(ap, -zu[c] / dzu);
				rd[c] = dzl;    /* kept for the update */
			}
			if (pass == 0) {
				for (size_t r = 0; r < nr; r++)
					muaff += (s[r] + ap * ds[r]) * (lam[r] + ap * dl[r]);
				for (size_t c = 0; c < nc; c++) {
					if (fix[c])
						continue;
					double xl = x[c] - q->lb[c], xu = q->ub[c] - x[c];
					double dzu = (-xu * zu[c] + zu[c] * dx[c]) / xu;
					muaff += (xl + ap * dx[c]) * (zl[c] + ap * rd[c]) +
						(xu - ap * dx[c]) * (zu[c] + ap * dzu);
				}
				muaff /= (double)cnt;
				double rr = muaff / mu;
				sigma = fmin(0.9, fmax(1e-4, rr * rr * rr));
				continue;
			}
			alpha = fmin(1, 0.99 * ap);
			for (size_t c = 0; c < nc; c++) {
				if (fix[c])
					continue;
				double xu = q->ub[c] - x[c];
				double dzu = (smu - xu * zu[c] + zu[c] * dx[c]) / xu;
				x[c] += alpha * dx[c];
				zl[c] += alpha * rd[c];
				zu[c] += alpha * dzu;
			}
			for (size_t r = 0; r < nr; r++) {
				s[r] += alpha * ds[r];
				lam[r] += alpha * dl[r];
			}
		}
		if (!(alpha > 1e-10))
			break;
	}
out:
	*iters = it;
	free(x), free(zl), free(zu), free(D), free(rd), free(dx), free(s);
	free(lam), free(h), free(rp), free(dl), free(a), free(S), free(Sc);
	free(rhs), free(sol), free(Gx), free(rt), free(ds), free(fix);
}

/* sqrt(w_max (f(x) - q(y))): a bound on ||x - x*|| for any feasible x (f
 * is strongly convex with modulus 2 / w_max); x is n x m like q->R. */
static double
cert_point(struct qp *q, const double *y, const double *x)
{
	size_t n = q->n, m = q->m;
	qp_eval(q, y);
	long double gap = 0;
	for (size_t i = 0; i < n; i++) {
		const double *a = q->Rn + i * m, *b = x + i * m, *t = q->t + i * m;
		double di = 0;
		for (size_t k = 0; k < m; k++)
			di += (b[k] - a[k]) * (b[k] + a[k] - 2 * t[k]);
		gap += di * q->iw[i];
	}
	for (size_t k = 0; k < m; k++)
		gap -= y[k] * (q->Cn[k] - q->T[k]);
	gap -= y[m] * (q->F - flow(q->Cn, m));
	return (double)sqrtl(fmaxl(gap, 0) * q->wmax);
}

static int
step2(struct ovb_rsv *m, const struct ovb_rsv_in *in, double *R,
	struct ovb_rsv_stat *st, char *why, size_t whylen)
{
	size_t n = in->n, s = in->s;
	/* Classes forced above target stay at lb; the rest form J. */
	struct qp q;
	memset(&q, 0, sizeof q);
	q.n = n, q.s = s;
	q.J = ovb_xmalloc(s * sizeof *q.J);
	double *L = ovb_xcalloc(s, sizeof *L), *lim = ovb_xmalloc(s * sizeof *lim);
	for (size_t j = 0; j < s; j++) {
		long double l = 0;
		for (size_t i = 0; i < n; i++)
			l += in->lb[i * s + j];
		L[j] = (double)l;
		bool inJ = L[j] < in->T[j] - 1e-12 * (1 + in->T[j]);
		lim[j] = inJ ? in->T[j] : -1;
		if (inJ)
			q.J[q.m++] = j;
	}
	/* The cleaned step-1 point: classes outside J at lb, J at most T. */
	for (size_t j = 0; j < s; j++)
		if (lim[j] < 0)
			for (size_t i = 0; i < n; i++)
				R[i * s + j] = in->lb[i * s + j];
	trim_cols(in, R, lim);
	long double Fl = 0;
	double V = 0;
	for (size_t j = 0; j < s; j++) {
		long double C = 0;
		for (size_t i = 0; i < n; i++)
			C += R[i * s + j];
		if (lim[j] >= 0)
			Fl += C;
		V += fabs((double)(C - in->T[j]));
	}
	st->V = V;
	st->dev[0] = V;
	double tol = dev_tol(in);
	if (m->o.steps < 2 || q.m == 0) {
		st->dev[1] = V;
		free(q.J), free(L), free(lim);
		return 0;
	}
	size_t mm = q.m;
	q.F = (double)Fl;
	double Vp = 0;
	q.T = ovb_xmalloc(mm * sizeof *q.T);
	for (size_t k = 0; k < mm; k++) {
		q.T[k] = in->T[q.J[k]];
		Vp += q.T[k];
	}
	Vp -= q.F;
	q.t = ovb_xmalloc(n * mm * sizeof *q.t);
	q.lb = ovb_xmalloc(n * mm * sizeof *q.lb);
	q.ub = ovb_xmalloc(n * mm * sizeof *q.ub);
	q.cap = ovb_xmalloc(n * sizeof *q.cap);
	q.h = ovb_xmalloc(n * sizeof *q.h);
	q.iw = ovb_xmalloc(n * sizeof *q.iw);
	q.R = ovb_xmalloc(n * mm * sizeof *q.R);
	q.Rn = ovb_xmalloc(n * mm * sizeof *q.Rn);
	q.nu = ovb_xmalloc(n * sizeof *q.nu);
	q.nun = ovb_xmalloc(n * sizeof *q.nun);
	q.tight = ovb_xmalloc(n);
	q.tightn = ovb_xmalloc(n);
	q.C = ovb_xmalloc(mm * sizeof *q.C);
	q.Cn = ovb_xmalloc(mm * sizeof *q.Cn);
	q.pi = ovb_xmalloc(mm * sizeof *q.pi);
	for (size_t i = 0; i < n; i++) {
		double w = in->w ? in->w[i] : 1, c = in->cap[i];
		for (size_t j = 0; j < s; j++)
			if (lim[j] < 0)
				c -= in->lb[i * s + j];
		q.cap[i] = c;
		q.h[i] = w / 2;
		q.iw[i] = 1 / w;
		q.wmax = fmax(q.wmax, w);
		q.nu[i] = m->dual && !m->o.cold ? m->nu[i] : 0;
		for (size_t k = 0; k < mm; k++) {
			size_t c2 = i * s + q.J[k];
			q.t[i * mm + k] = in->t[c2];
			q.lb[i * mm + k] = in->lb[c2];
			q.ub[i * mm + k] = in->ub[c2];
		}
	}
	for (size_t c = 0; c < n * mm; c++)
		q.fval += q.t[c] * q.t[c] * q.iw[c / mm];
	double *y = ovb_xcalloc(mm + 1, sizeof *y);
	if (m->dual && !m->o.cold) {
		for (size_t k = 0; k < mm; k++)
			y[k] = m->lam[q.J[k]];
		y[mm] = m->mu;
	}
	double bound, shortfall;
	int rc = qp_newton(&q, y, m->o.accuracy, tol, Vp, &bound,
		&shortfall, &st->qp_iter);
	st->how = OVB_RSV_NEWTON;
	if (rc && !(bound <= 0.01 && shortfall <= tol)) {
		/* Newton stalled: the barrier method's duals, then Newton
		 * from there (it finishes the job near the optimum). */
		double *y2 = ovb_xmalloc((mm + 1) * sizeof *y2);
		ipm_solve(&q, tol, y2, &st->ipm_iter);
		double b2, s2;
		long it2;
		int rc2 = qp_newton(&q, y2, m->o.accuracy, tol, Vp, &b2, &s2,
			&it2);
		st->qp_iter += it2;
		st->how = OVB_RSV_IPM;
		if (s2 <= tol && (!(shortfall <= tol) || b2 < bound)) {
			rc = rc2, bound = b2, shortfall = s2;
			memcpy(y, y2, (mm + 1) * sizeof *y);
		}
		free(y2);
	}
	st->evals = q.evals;
	if (rc && !(bound <= 0.01 && shortfall <= tol) && !(shortfall <= tol &&
	    bound <= 1e3)) {
		/* No dual point certifies a point of its own: keep the
		 * (feasible) step-1 point, with the bound the best y proves. */
		double *x1 = ovb_xmalloc(n * mm * sizeof *x1);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < mm; k++)
				x1[i * mm + k] = R[i * s + q.J[k]];
		bound = cert_point(&q, y, x1);
		shortfall = 0;
		st->how = OVB_RSV_STEP1;
		free(x1);
	} else {
		/* The certified point (q.Rn, left by qp_cert) into R. */
		if (rc)
			bound = qp_cert(&q, y, &shortfall);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < mm; k++)
				R[i * s + q.J[k]] = q.Rn[i * mm + k];
		memset(m->lam, 0, s * sizeof *m->lam);
		for (size_t k = 0; k < mm; k++)
			m->lam[q.J[k]] = y[k];
		m->mu = y[mm];
		memcpy(m->nu, q.nu, n * sizeof *m->nu);
		m->dual = true;
	}
	st->acc = bound;
	st->shortfall = shortfall;
	(void)why, (void)whylen;
	int status = 0;
	st->dev[1] = deviation(in, R);
	free(y);
	free(q.J), free(q.T), free(q.t), free(q.lb), free(q.ub), free(q.cap);
	free(q.h), free(q.iw), free(q.R), free(q.Rn), free(q.nu), free(q.nun);
	free(q.tight), free(q.tightn);
	free(q.C), free(q.Cn), free(q.pi);
	free(L), free(lim);
	return status;
}

/* ---- step 3 ----
 *
 * Capacity left on node i, cap[i] - sum_j R[i,j], goes to the classes that
 * are idle on node i (r > u: the usage cap held them there) and below
 * target (C[j] < T[j]), in proportion to their targets T[j]; a class's
 * grants over all nodes stop at its deficit T[j] - C[j] (offers beyond it
 * are scaled down), and what a saturated class declined is offered again
 * to the others, until nothing changes (at most s + 1 passes).  Deficits
 * within GLPK's tolerance, 1e-7 (1 + T[j]), count as none. */
static void
step3(const struct ovb_rsv_in *in, double *R)
{
	size_t n = in->n, s = in->s;
	double *need = ovb_xmalloc(s * sizeof *need), *spare = ovb_xmalloc(n *
		sizeof *spare), *offer = ovb_xcalloc(n * s, sizeof *offer),
		*O = ovb_xmalloc(s * sizeof *O);
	for (size_t j = 0; j < s; j++) {
		long double C = 0;
		for (size_t i = 0; i < n; i++)
			C += R[i * s + j];
		need[j] = (double)(in->T[j] - C);
		if (need[j] <= DEV_RTOL * (1 + in->T[j]))
			need[j] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		long double sum = 0;
		for (size_t j = 0; j < s; j++)
			sum += R[i * s + j];
		spare[i] = (double)(in->cap[i] - sum);
		if (spare[i] <= 1e-12 * in->cap[i])
			spare[i] = 0;
	}
	for (size_t pass = 0; pass <= s + 1; pass++) {
		bool any = false;
		memset(O, 0, s * sizeof *O);
		for (size_t i = 0; i < n; i++) {
			double W = 0;
			for (size_t j = 0; j < s; j++) {
				offer[i * s + j] = 0;
				if (spare[i] > 0 && need[j] > 0 && in->idle[i * s + j])
					W += in->T[j];
			}
			if (!(W > 0))
				continue;
			for (size_t j = 0; j < s; j++)
				if (need[j] > 0 && in->idle[i * s + j]) {
					offer[i * s + j] = spare[i] * in->T[j] / W;
					O[j] += offer[i * s + j];
					any = true;
				}
		}
		if (!any)
			break;
		bool saturated = false;
		for (size_t j = 0; j < s; j++) {
			if (!(O[j] > 0))
				continue;
			double f = 1;
			if (O[j] >= need[j]) {
				f = need[j] / O[j];
				saturated = true;
			}
			for (size_t i = 0; i < n; i++) {
				double gnt = offer[i * s + j] * f;
				R[i * s + j] += gnt;
				spare[i] = fmax(0, spare[i] - gnt);
			}
			need[j] = O[j] >= need[j] ? 0 : need[j] - O[j];
		}
		if (!saturated)
			break;
	}
	free(need), free(spare), free(offer), free(O);
}

/* ---- the bank algorithm (section 3.2.2), with ticket = percent ----
 *
 * 1. Every class deposits the allocation it left unused on any node.
 * 2. R = u + c on nodes where the class was needy (used all it had), else
 *    u - c; never below lb nor above the node's capacity (c per node,
 *    times w for a group).
 * 3. A class above target gives back the excess from its amounts above
 *    lb, in proportion; a class below target gets the deficit on its
 *    needy nodes, in proportion to R there.
 * 4. What step 3 could not take back is withdrawn from the account (it
 *    may go negative); what it could not give is deposited.
 * 5. A positive balance is paid out on the class's needy nodes, in
 *    proportion to R there, and leaves the account.
 * 6. Each node is scaled to exactly its capacity in its amounts above lb;
 *    balances are then multiplied by keep (0: spatial compensation only,
 *    1: full temporal compensation). */
static void
add_needy(const struct ovb_rsv_in *in, double *R, size_t j, double amount,
	double *given)
{
	size_t n = in->n, s = in->s, cnt = 0;
	long double W = 0;
	for (size_t i = 0; i < n; i++)
		if (in->needy[i * s + j]) {
			W += R[i * s + j];
			cnt++;
		}
	*given = 0;
	if (!cnt || !(amount > 0))
		return;
	for (size_t i = 0; i < n; i++)
		if (in->needy[i * s + j])
			R[i * s + j] += W > 0 ? amount * (double)(R[i * s + j] / W) :
				amount / (double)cnt;
	*given = amount;
}

static void
bank(struct ovb_rsv *m, const struct ovb_rsv_in *in, double *R)
{
	size_t n = in->n, s = in->s;
	double *B = m->bank;
	for (size_t c = 0; c < n * s; c++)
		B[c % s] += in->unused[c];
	for (size_t i = 0; i < n; i++) {
		double w = in->w ? in->w[i] : 1;
		for (size_t j = 0; j < s; j++) {
			size_t c = i * s + j;
			double x = in->u[c] + (in->needy[c] ? 1 : -1) * m->o.bank_c * w;
			R[c] = fmin(fmax(x, in->lb[c]), in->cap[i]);
		}
	}
	for (size_t j = 0; j < s; j++) {
		long double A = 0, room = 0;
		for (size_t i = 0; i < n; i++) {
			A += R[i * s + j];
			room += R[i * s + j] - in->lb[i * s + j];
		}
		double given;
		if (A > in->T[j] && room > 0) {
			double f = 1 - fminl(1, (A - in->T[j]) / room);
			for (size_t i = 0; i < n; i++) {
				double *x = &R[i * s + j], lo = in->lb[i * s + j];
				*x = lo + (*x - lo) * f;
			}
		} else if (A < in->T[j]) {
			add_needy(in, R, j, (double)(in->T[j] - A), &given);
		}
		A = 0;
		for (size_t i = 0; i < n; i++)
			A += R[i * s + j];
		B[j] -= (double)(A - in->T[j]);      /* step 4 */
		if (B[j] > 0) {                      /* step 5 */
			add_needy(in, R, j, B[j], &given);
			B[j] -= given;
		}
	}
	for (size_t i = 0; i < n; i++) {
		double *Ri = R + i * s;
		long double sum = 0, L = 0;
		for (size_t j = 0; j < s; j++) {
			sum += Ri[j];
			L += in->lb[i * s + j];
		}
		double f = sum > L ? (double)((in->cap[i] - L) / (sum - L)) : 0;
		for (size_t j = 0; j < s; j++) {
			double lo = in->lb[i * s + j];
			Ri[j] = sum > L ? lo + (Ri[j] - lo) * f :
				lo + (double)((in->cap[i] - L) / (long double)s);
		}
	}
	for (size_t j = 0; j < s; j++)
		B[j] *= m->o.bank_keep;
}

static void
col_sums(const struct ovb_rsv_in *in, const double *R, double *out)
{
	for (size_t j = 0; j < in->s; j++) {
		long double c = 0;
		for (size_t i = 0; i < in->n; i++)
			c += R[i * in->s + j];
		out[j] = (double)c;
	}
}

const double *
ovb_rsv_cols2(const struct ovb_rsv *m)
{
	return m->cols2;
}

int
ovb_rsv_solve(struct ovb_rsv *m, const struct ovb_rsv_in *in, double *R,
	struct ovb_rsv_stat *st, char *why, size_t whylen)
{
	memset(st, 0, sizeof *st);
	size_t n = in->n, s = in->s;
	for (size_t i = 0; i < n; i++) {
		long double L = 0;
		for (size_t j = 0; j < s; j++)
			L += in->lb[i * s + j];
		if (L > in->cap[i] * (1 + 1e-12)) {
			snprintf(why, whylen, "infeasible: the lower bounds of "
				"node %zu add up to %g, above its capacity %g", i + 1,
				(double)L, in->cap[i]);
			return OVB_EDATA;
		}
	}
	double t0 = ovb_now();
	if (m->o.method == OVB_RSV_BANK) {
		bank(m, in, R);
		st->sec[0] = ovb_now() - t0;
		st->dev[0] = st->dev[1] = st->dev[2] = deviation(in, R);
		col_sums(in, R, m->cols2);
		return 0;
	}
	int rc = 0;
	if (in->start)          /* the caller's point: step 2 takes V from it */
		memcpy(R, in->start, n * s * sizeof *R);
	else if ((rc = step1(m, in, R, st, why, whylen)))
		return rc;
	clean_rows(in, R);
	double t1 = ovb_now();
	st->sec[0] = t1 - t0;
	if ((rc = step2(m, in, R, st, why, whylen)))
		return rc;
	double t2 = ovb_now();
	st->sec[1] = t2 - t1;
	col_sums(in, R, m->cols2);
	if (st->dev[1] > st->V + dev_tol(in)) {
		snprintf(why, whylen, "step 2's deviation %.17g exceeds V = %.17g "
			"beyond the tolerance", st->dev[1], st->V);
		return OVB_ESOFT;
	}
	if (m->o.steps >= 3)
		step3(in, R);
	st->sec[2] = ovb_now() - t2;
	st->dev[2] = deviation(in, R);
	return 0;
}
