/* profidx.c: profiles looked up by (capsule, resource) through a table
 * made at the first question: a pass over every profile per capsule
 * (ovb_profile_find) was quadratic with a profile per application.  Used
 * by the engine (lib/place.c), the unmeasured rule (lib/unmeasured.c) and
 * ovb-check.
 *
 * Invariants: the answer is ovb_profile_find's, the first block of that
 * capsule and resource; the keys are the profiles' own names, so the
 * profiles outlive the index; nothing is made until asked. */
#include "ovb.h"

void
ovb_profidx_init(struct ovb_profidx *x, const struct ovb_profiles *p)
{
	*x = (struct ovb_profidx){ .p = p };
}

const struct ovb_qos *
ovb_profidx_find(struct ovb_profidx *x, const char *capsule,
	enum ovb_res r)
{
	if (!x->made) {
		for (size_t i = 0; i < x->p->n; i++)
			ovb_names_add(&x->by[x->p->q[i].U.res],
				x->p->q[i].U.capsule, i);    /* the first kept */
		x->made = true;
	}
	size_t i = ovb_names_get(&x->by[r], capsule);
	return i == OVB_NONE ? NULL : &x->p->q[i];
}

void
ovb_profidx_free(struct ovb_profidx *x)
{
	for (int r = 0; r < OVB_NCAP; r++)
		ovb_names_free(&x->by[r]);
	x->made = false;
}
