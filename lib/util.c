/* util.c: memory that never returns NULL, growable arrays, name tables,
 * valid names. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "ovb.h"

static void
oom(void)
{
	ovb_warn("out of memory");
	exit(OVB_ESOFT);
}

void *
ovb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

FILE *
ovb_xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		oom();
	return f;
}

char *
ovb_vxasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	return s;
}

char *
ovb_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = ovb_vxasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void *
ovb_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *
ovb_xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom();
	p = realloc(p, n && size ? n * size : 1);
	if (!p)
		oom();
	return p;
}

char *
ovb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(ovb_xmalloc(n), s, n);
}

void
ovb_grow(void *pp, size_t *cap, size_t n, size_t size)
{
	void **p = pp;
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 8;
	*p = ovb_xrealloc(*p, *cap, size);
}

void
ovb_qsort(void *base, size_t n, size_t size,
	int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

static size_t
hash(const char *s)
{
	size_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t
slot(const struct ovb_names *t, const char *key)
{
	size_t i = hash(key) & (t->cap - 1);
	while (t->key[i] && strcmp(t->key[i], key) != 0)
		i = (i + 1) & (t->cap - 1);
	return i;
}

size_t
ovb_names_get(const struct ovb_names *t, const char *key)
{
	if (!t->cap)
		return OVB_NONE;
	size_t i = slot(t, key);
	return t->key[i] ? t->val[i] : OVB_NONE;
}

static void
rehash(struct ovb_names *t)
{
	struct ovb_names old = *t;
	t->cap = old.cap ? 2 * old.cap : 16;
	t->key = ovb_xcalloc(t->cap, sizeof *t->key);
	t->val = ovb_xcalloc(t->cap, sizeof *t->val);
	for (size_t i = 0; i < old.cap; i++)
		if (old.key[i]) {
			size_t j = slot(t, old.key[i]);
			t->key[j] = old.key[i];
			t->val[j] = old.val[i];
		}
	free(old.key);
	free(old.val);
}

bool
ovb_names_add(struct ovb_names *t, const char *key, size_t val)
{
	if (2 * (t->n + 1) > t->cap)
		rehash(t);
	size_t i = slot(t, key);
	if (t->key[i])
		return false;
	t->key[i] = key;
	t->val[i] = val;
	t->n++;
	return true;
}

void
ovb_names_free(struct ovb_names *t)
{
	free(t->key);
	free(t->val);
	memset(t, 0, sizeof *t);
}

double
ovb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t
ovb_rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
ovb_rng_uniform(uint64_t *state)
{
	return (double)(ovb_rng_next(state) >> 11) / 9007199254740992.0;
}

bool
ovb_valid_name(const char *s)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"abcdefghijklmnopqrstuvwxyz0123456789_";
	size_t n = strlen(s);
	if (n == 0 || n > OVB_MAXNAME || !strchr(alnum, s[0]))
		return false;
	for (const char *p = s; *p; p++)
		if (!strchr(alnum, *p) && !strchr(".:+@/-", *p))
			return false;
	return true;
}
