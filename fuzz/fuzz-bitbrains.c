/* fuzz-bitbrains.c: libFuzzer target for the Bitbrains CSV reader
 * (formats/bitbrains.c, spec formats/bitbrains.md).  Each input is read as
 * one VM's trace with I = 300 s and a --from/--to window; nothing may
 * crash, leak or read out of bounds, and every row read must keep the
 * spec's promises: T a multiple of I inside the window, values finite and
 * >= 0, no cpu value where there is no CPU data, counts that add up; and
 * the reader's fast line path must give what its general path gives (the
 * same status, counts and rows, bit for bit: ovb_bitbrains_fast off).  The
 * reader's messages are silenced (ovb_set_errout), not stderr: sanitizer
 * reports stay visible. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FILE *f = fuzz_input(data, size);
	if (!f)
		return 0;
	/* 2013-01-01 to 2014-01-01: the year of the traces */
	struct ovb_bitbrains_opt opt = { 300, 1024, true, true, 1356998400,
		1388534400 };
	struct ovb_bitbrains_vm vm;
	memset(&vm, 0, sizeof vm);
	struct ovb_bitbrains_counts k = { 0, 0, 0, 0 };
	size_t order = 0;
	int st = ovb_bitbrains_read(f, "<fuzz>", &opt, &vm, &order, &k);
	fclose(f);
	if (st != 0 && st != OVB_EDATA)
		abort(); /* fmemopen cannot fail to read */
	if (vm.n != k.kept || order != vm.n || k.nocpu > k.kept)
		abort();
	if (st == 0 && k.lines != k.kept + k.outside)
		abort();
	for (size_t i = 0; i < vm.n; i++) {
		const struct ovb_bitbrains_row *r = &vm.row[i];
		if (r->t % opt.interval || r->t < opt.from || r->t >= opt.to ||
		    r->order != i)
			abort();
		for (int j = 0; j < OVB_NRES; j++)
			if (!isfinite(r->v[j]) || r->v[j] < 0 ||
			    (j == OVB_CPU && !r->has_cpu && r->v[j] != 0))
				abort();
	}
	/* the same input by the general path alone */
	struct ovb_bitbrains_vm vm2;
	memset(&vm2, 0, sizeof vm2);
	struct ovb_bitbrains_counts k2 = { 0, 0, 0, 0 };
	size_t order2 = 0;
	ovb_bitbrains_fast = false;
	int st2 = ovb_bitbrains_parse((const char *)data, size, "<fuzz>", &opt,
		&vm2, &order2, &k2);
	ovb_bitbrains_fast = true;
	if (st2 != st || k2.lines != k.lines || k2.kept != k.kept ||
	    k2.nocpu != k.nocpu || k2.outside != k.outside || vm2.n != vm.n ||
	    order2 != order)
		abort();
	for (size_t i = 0; i < vm.n; i++) {
		const struct ovb_bitbrains_row *a = &vm.row[i], *b = &vm2.row[i];
		if (a->t != b->t || a->order != b->order ||
		    a->has_cpu != b->has_cpu ||
		    memcmp(a->v, b->v, sizeof a->v) != 0)
			abort();
	}
	free(vm2.row);
	free(vm.row);
	return 0;
}
