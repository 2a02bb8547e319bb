/* fuzz.h: what the fuzz targets with their own file share.  One function
 * (static: each target includes this once): the input as a stream, the
 * readers' messages to /dev/null (set once; stderr stays open for the
 * sanitizers' and libFuzzer's reports).  NULL for an empty input or when
 * fmemopen fails. */
#include <stdio.h>
#include <stdlib.h>

#include "ovb.h"

static FILE *
fuzz_input(const unsigned char *data, size_t size)
{
	static bool quiet;
	if (!quiet) {
		FILE *null = fopen("/dev/null", "w");
		if (!null)
			abort();
		ovb_set_errout(null);
		quiet = true;
	}
	if (size == 0)
		return NULL;
	return fmemopen((void *)data, size, "r");
}
