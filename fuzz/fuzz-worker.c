/* fuzz-worker.c: libFuzzer target for the words of the ovb-worker protocol
 * (formats/worker.c, spec formats/worker.md).  Each input is read as a
 * peer would: the magic and version, then a stream of messages whose
 * lengths come from the input itself (a u64 count, then that many
 * binary64 values, bounded as the worker bounds a batch).  Nothing may
 * crash or read out of bounds; a short read is a clean false; every value
 * read back through put/get is the same bits. */
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define MAXWORDS 4096   /* a message's doubles, here */

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	uint64_t version;
	int m = ovb_wire_get_magic(f, &version);
	if (m != 0 && m != 1 && m != -1)
		abort();
	static double v[MAXWORDS], w[MAXWORDS];
	uint64_t n;
	while (m == 0 && ovb_wire_get_u64(f, &n)) {
		size_t k = (size_t)(n % MAXWORDS);
		if (!ovb_wire_get_f64(f, v, k))
			break;
		/* round trip: the same bits back */
		char *buf = NULL;
		size_t len = 0;
		FILE *o = open_memstream(&buf, &len);
		if (!o || !ovb_wire_put_u64(o, n) || !ovb_wire_put_f64(o, v, k))
			abort();
		fclose(o);
		FILE *i = fmemopen(buf, len, "r");
		uint64_t n2;
		if (!i || !ovb_wire_get_u64(i, &n2) || n2 != n ||
		    !ovb_wire_get_f64(i, w, k) || memcmp(v, w, k * sizeof *v))
			abort();
		fclose(i);
		free(buf);
	}
	fclose(f);
	return 0;
}
