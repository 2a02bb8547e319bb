/* fuzz-format.c: libFuzzer target for one format reader, chosen at build
 * time with -DOVB_FUZZ_FORMAT="cluster" (see `make fuzz`).  Each input is
 * read as that format; a valid one is also written in canonical form, read
 * back and written again, and the two texts must be identical; so must
 * the canonical form with the input's comments kept (lib/comments.c)
 * and the same made of it.  The
 * readers' messages are silenced (ovb_set_errout), not stderr: sanitizer
 * reports stay visible. */
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

#ifndef OVB_FUZZ_FORMAT
#error "build with -DOVB_FUZZ_FORMAT='\"NAME\"'"
#endif

static char *
canonical(const struct ovb_format *fmt, const void *obj, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	fmt->write(f, obj);
	fclose(f);
	return buf;
}

static int
parse(const struct ovb_format *fmt, const char *data, size_t size, void *obj)
{
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return -1;
	struct ovb_lex lx;
	ovb_lex_init(&lx, f, "<fuzz>");
	int st = fmt->read(&lx, obj);
	ovb_lex_free(&lx);
	fclose(f);
	return st;
}

/* The readers' own error messages go to /dev/null; stderr stays open for
 * the sanitizers' and libFuzzer's reports. */
static void
quiet(void)
{
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		abort();
	ovb_set_errout(null);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const struct ovb_format *fmt;
	if (!fmt) {
		fmt = ovb_format_by_name(OVB_FUZZ_FORMAT);
		if (!fmt)
			abort(); /* not a registry format: a build error */
		quiet();
	}
	if (size == 0)
		return 0;
	void *obj = ovb_xcalloc(1, fmt->size);
	if (parse(fmt, (const char *)data, size, obj) == 0) {
		size_t n1, n2;
		char *t1 = canonical(fmt, obj, &n1);
		void *again = ovb_xcalloc(1, fmt->size);
		if (parse(fmt, t1, n1, again) != 0)
			abort(); /* canonical output must read back */
		char *t2 = canonical(fmt, again, &n2);
		if (n1 != n2 || memcmp(t1, t2, n1) != 0)
			abort(); /* and be a fixed point */
		/* the comments kept (ovb-fmt): read back, a fixed point too */
		size_t k1, k2, n3;
		char *c1 = ovb_keep_comments((const char *)data, size, t1, n1,
			&k1);
		void *third = ovb_xcalloc(1, fmt->size);
		if (parse(fmt, c1, k1, third) != 0)
			abort();
		char *t3 = canonical(fmt, third, &n3);
		char *c2 = ovb_keep_comments(c1, k1, t3, n3, &k2);
		if (k1 != k2 || memcmp(c1, c2, k1) != 0)
			abort();
		fmt->free(third);
		free(third);
		free(t3);
		free(c1);
		free(c2);
		fmt->free(again);
		free(again);
		free(t1);
		free(t2);
	}
	fmt->free(obj);
	free(obj);
	return 0;
}
