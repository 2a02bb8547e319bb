/* fuzz-perf.c: libFuzzer target for the perf.data reader (formats/
 * perfdata.c): every input is opened and read to the end; nothing may
 * crash, leak or read out of bounds, whatever the bytes say. */
#include <stdlib.h>

#include "ovb.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static bool quiet;
	if (!quiet) {
		/* The reader's messages to /dev/null; stderr stays open for
		 * the sanitizers' and libFuzzer's reports. */
		FILE *null = fopen("/dev/null", "w");
		if (!null)
			abort();
		ovb_set_errout(null);
		quiet = true;
	}
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
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
