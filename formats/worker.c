/* worker.c: the ovb-worker protocol of ovb-reserves --serve (worker.md):
 * binary, every integer an unsigned 64-bit little-endian word, every real
 * an IEEE 754 binary64 in little-endian byte order, whatever the host's.
 * These are its words; the messages are in ovb-reserves.c. */
#include <string.h>

#include "ovb.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE 1
#else
#define HOST_BE 0
#endif

static uint64_t
le64(uint64_t v)
{
	return HOST_BE ? __builtin_bswap64(v) : v;
}

bool
ovb_wire_put_u64(FILE *f, uint64_t v)
{
	v = le64(v);
	return fwrite(&v, sizeof v, 1, f) == 1;
}

bool
ovb_wire_get_u64(FILE *f, uint64_t *v)
{
	if (fread(v, sizeof *v, 1, f) != 1)
		return false;
	*v = le64(*v);
	return true;
}

bool
ovb_wire_put_f64(FILE *f, const double *v, size_t n)
{
	if (!HOST_BE)
		return fwrite(v, sizeof *v, n, f) == n;
	for (size_t i = 0; i < n; i++) {
		uint64_t b;
		memcpy(&b, &v[i], sizeof b);
		if (!ovb_wire_put_u64(f, b))
			return false;
	}
	return true;
}

bool
ovb_wire_get_f64(FILE *f, double *v, size_t n)
{
	if (!HOST_BE)
		return fread(v, sizeof *v, n, f) == n;
	for (size_t i = 0; i < n; i++) {
		uint64_t b;
		if (!ovb_wire_get_u64(f, &b))
			return false;
		memcpy(&v[i], &b, sizeof b);
	}
	return true;
}

bool
ovb_wire_put_magic(FILE *f)
{
	return fwrite(OVB_WIRE_MAGIC, 8, 1, f) == 1 &&
		ovb_wire_put_u64(f, OVB_WIRE_VERSION);
}

int
ovb_wire_get_magic(FILE *f, uint64_t *version)
{
	char m[8];
	if (fread(m, 8, 1, f) != 1)
		return -1;
	if (memcmp(m, OVB_WIRE_MAGIC, 8) != 0)
		return 1;
	return ovb_wire_get_u64(f, version) ? 0 : -1;
}
