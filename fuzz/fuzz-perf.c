/* fuzz-perf.c: libFuzzer target for the perf.data reader (formats/
 * perfdata.c): every input is opened and read to the end; nothing may
 * crash, leak or read out of bounds, whatever the bytes say. */
#include <stdlib.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	FILE *f = fuzz_input(data, size);
	if (!f)
		return 0;
	struct ovb_perf *p = NULL;
	if (ovb_perf_open(f, "<fuzz>", &p) == 0) {
		struct ovb_pev ev;
		while (ovb_perf_next(p, &ev) == 1)
			;
	}
	ovb_perf_close(p);
	fclose(f);
	return 0;
}
