/* impl.h: reader and writer internals shared by the files of formats/ only.
 *
 * Tools include lib/ovb.h, the public API; nothing here is used outside
 * formats/ (check: grep -w over tools/ and lib/ finds none of these names).
 * Every formats/NAME.c includes this header, which includes ovb.h. */
#ifndef OVB_IMPL_H
#define OVB_IMPL_H

#include "ovb.h"

/* ---- the formats: the registry's list (formats/format.c builds the
 * table from it, formats/lex.c the names the magic record knows) ---- */

/* The registry: one X(NAME, TYPE) per format, NAME its magic's name and
 * TYPE its in-memory struct, with ovb_NAME_read, _write and _free.  The
 * Makefile derives the fuzz targets from formats/NAME.md and this list. */
#define OVB_FORMAT_LIST(X) \
	X(onoff, ovb_onoff) \
	X(usage, ovb_usage) \
	X(profile, ovb_profiles) \
	X(cluster, ovb_cluster) \
	X(apps, ovb_apps) \
	X(plan, ovb_plan) \
	X(fit, ovb_fit) \
	X(reserves, ovb_reserves) \
	X(curve, ovb_curves) \
	X(series, ovb_series_set) \
	X(gain, ovb_gain) \
	X(trade, ovb_trade) \
	X(rt, ovb_rt) \
	X(bids, ovb_bids) \
	X(migrations, ovb_migrations) \
	X(backtest, ovb_backtest)

/* ---- formats/lex.c: the magic record ---- */

/* Reads and checks the magic record "ovb-NAME VERSION"; 0 or OVB_EDATA. */
int ovb_magic(struct ovb_lex *lx, const char *name);
/* Writes the magic record "ovb-NAME VERSION". */
void ovb_put_magic(FILE *f, const char *name);

/* ---- formats/lex.c: token checks and canonical numbers ----
 *
 * Each check reports "WHAT: ..." at the current line and returns OVB_EDATA
 * on failure, 0 on success (the public ones, ovb_arity, ovb_tok_prob and
 * ovb_tok_u64, are in ovb.h). */
int ovb_tok_real(const struct ovb_lex *lx, int i, const char *what, double *v);
int ovb_tok_nonneg(const struct ovb_lex *lx, int i, const char *what, double *v);
int ovb_tok_pos(const struct ovb_lex *lx, int i, const char *what, double *v);
int ovb_tok_name(const struct ovb_lex *lx, int i, const char *what);
int ovb_tok_unit(const struct ovb_lex *lx, int i, const char *unit);
/* A quantity record "KEYWORD VALUE UNIT" (or "KEYWORD VALUE" when unit is
 * NULL) with VALUE in range; what names it in messages. */
enum ovb_range { OVB_ANY, OVB_NONNEG, OVB_POS, OVB_PROB };
int ovb_quantity(const struct ovb_lex *lx, enum ovb_range range,
	const char *what, double *v, const char *unit);
/* Writes " " and the canonical number (ovb_fmt_real) to f. */
void ovb_put_real(FILE *f, double v);

/* ---- formats/usage.c: one distribution block, shared with profile.c ---- */

struct ovb_dist_reader {
	struct ovb_dist *d;
	unsigned long line;      /* of the block's opening record */
	unsigned seen;           /* which required records were given */
	size_t capcount;
	unsigned char *binseen;  /* bins given, to reject duplicates */
	uint64_t wnext[OVB_TOD_SLOTS];  /* per window: its next wbin K at
	                           least (wbin records ascend) */
};
void ovb_dist_begin(struct ovb_dist_reader *r, struct ovb_dist *d,
	unsigned long line);
/* 1: the record belonged to U and was read; 0: not a U record; or
 * OVB_EDATA (reported). */
int ovb_dist_record(struct ovb_dist_reader *r, struct ovb_lex *lx);
/* Checks the finished block (counts, mean, percentiles); 0 or OVB_EDATA. */
int ovb_dist_end(struct ovb_dist_reader *r, struct ovb_lex *lx);
void ovb_dist_put(FILE *f, const struct ovb_dist *d);
/* A block's opening record "KEYWORD CAPSULE RES", unique in its file;
 * fills d->capsule and d->res.  keys holds the strings seen indexes. */
int ovb_block_open(struct ovb_lex *lx, struct ovb_names *seen, char ***keys,
	size_t *nkeys, struct ovb_dist *d);
void ovb_block_keys_free(struct ovb_names *seen, char **keys, size_t nkeys);

/* ---- formats/series.c ---- */

/* The exact mean of v[0..n) (n >= 1) rounded once to the nearest double. */
double ovb_exact_mean(const double *v, size_t n);

#endif
