/* ovb-fmt: validate overbook files and rewrite them in canonical form.
 *
 * Reads each FILE (stdin when none or "-"), finds its format from the magic
 * record (or --type), checks syntax and meaning with the one reader of that
 * format, and, as asked, writes the canonical form: to stdout or -o FILE,
 * or back over each FILE (--in-place, atomically).  The input's comments
 * are kept, each with its record (lib/comments.c).  Canonical output
 * read back and written again is byte-identical.  A cluster's capacity far
 * outside real hardware is a warning (a typo?), read as given.  A bad file
 * is reported and skipped; the exit status is the largest of all files'
 * statuses. */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ovb.h"

enum { OPT_TYPE = 't', OPT_CANON = 'c', OPT_INPLACE = 'i', OPT_LIST = 'l' };

static const struct ovb_format *opt_type;
static bool opt_canonical, opt_inplace, opt_list;

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Mode:", 1 },
	{ "canonical", OPT_CANON, NULL, 0,
	  "Write the canonical form of the input(s)", 0 },
	{ "in-place", OPT_INPLACE, NULL, 0,
	  "Rewrite each FILE in canonical form (atomically)", 0 },
	{ "list", OPT_LIST, NULL, 0,
	  "Print the names of valid files not in canonical form; exit 1 if any",
	  0 },
	{ NULL, 0, NULL, 0, "Input:", 2 },
	{ "type", OPT_TYPE, "FORMAT", 0,
	  "Require FORMAT (onoff, usage, profile, curve, cluster, apps, plan, "
	  "reserves)",
	  0 },
	{ 0 }
};

static const char doc[] =
	"Validate overbook files and rewrite them in canonical form."
	"\v"
	"Formats are recognised by their first record (ovb-cluster 1, ...); a "
	"file starting with 'Application' is read as Sharc RSL and written in "
	"canonical form as ovb-apps.  Comments are kept: a comment line with "
	"the record that follows it, a comment after a record's fields on its "
	"line, the comments after the last record at the end "
	"(formats/README.md).  A cluster node of under 0.01 or over 10000 "
	"CPUs, or a link under 1 Mbit/s or over 1 Tbit/s, is a warning (a "
	"typo?), and read as given.\n\n"
	"EXAMPLES:\n"
	"  ovb-fmt cluster.txt apps.txt      check hand-written files (CI lint)\n"
	"  ovb-fmt -c plan.txt -o plan.c.txt write the canonical form\n"
	"  ovb-fmt -i *.cluster              canonicalize files in place\n"
	"  ovb-fmt -l conf/*                 list files needing ovb-fmt -i\n\n"
	OVB_EXIT_DOC;

static error_t
parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case OPT_TYPE:
		if (!(opt_type = ovb_format_by_name(arg)))
			argp_error(st, "--type: unknown format '%s'", arg);
		return 0;
	case OPT_CANON: opt_canonical = true; return 0;
	case OPT_INPLACE: opt_inplace = true; return 0;
	case OPT_LIST: opt_list = true; return 0;
	case ARGP_KEY_SUCCESS:
		if (opt_inplace + opt_canonical + opt_list > 1)
			argp_error(st, "--canonical, --in-place and --list "
				"exclude each other");
		if (opt_inplace && ovb_opt_output)
			argp_error(st, "--in-place and -o exclude each other");
		if (opt_inplace && st->next >= st->argc)
			argp_error(st, "--in-place needs FILE arguments");
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp argp = { options, parse_opt, "[FILE...]", doc,
	ovb_cli_child, NULL, NULL };

/* The canonical text of a parsed file, in memory. */
static char *
canonical(const struct ovb_format *fmt, const void *obj, size_t *len)
{
	char *buf = NULL;
	FILE *f = ovb_xmemstream(&buf, len);
	fmt->write(f, obj);
	fclose(f);
	return buf;
}

/* Is the file's text already canonical?  Reads it again (files only). */
static bool
same_as_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool same = true;
	size_t i = 0;
	int c;
	while ((c = getc(f)) != EOF && same)
		same = i < len && text[i++] == (char)c;
	same = same && i == len && c == EOF;
	fclose(f);
	return same;
}

static int
emit(const char *path, const char *text, size_t len, struct ovb_out *out)
{
	if (opt_inplace) {
		struct ovb_out o;
		int st = ovb_out_open(&o, path);
		if (st)
			return st;
		fwrite(text, 1, len, o.f);
		return ovb_out_close(&o, true);
	}
	if (opt_list) {
		if (strcmp(path, "-") == 0 || !same_as_file(path, text, len)) {
			printf("%s\n", path);
			return OVB_FAIL;
		}
		return 0;
	}
	if (opt_canonical)
		fwrite(text, 1, len, out->f);
	return 0;
}

/* The whole of an input, in memory (its comments are put back into the
 * canonical form from the text). */
static int
slurp(FILE *f, const char *name, char **buf, size_t *len)
{
	FILE *m = ovb_xmemstream(buf, len);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		fwrite(chunk, 1, n, m);
	int err = ferror(f) ? errno : 0;
	fclose(m);
	if (!err)
		return 0;
	ovb_warn("%s: read error: %s", name, strerror(err));
	return OVB_EIO;
}

static int
fmt_one(const char *path, struct ovb_out *out)
{
	FILE *f;
	const char *name;
	char *in = NULL;
	size_t inlen = 0;
	int st = ovb_open_in(path, &f, &name);
	if (st)
		return st;
	st = slurp(f, name, &in, &inlen);
	ovb_close_in(f);
	FILE *m = NULL;
	if (!st && !(m = inlen ? fmemopen(in, inlen, "r") :
	    fopen("/dev/null", "r"))) {
		ovb_warn("%s: %s", name, strerror(errno));
		st = OVB_EIO;
	}
	if (st) {
		free(in);
		return st;
	}
	struct ovb_lex lx;
	ovb_lex_init(&lx, m, name);
	const struct ovb_format *fmt = opt_type;
	if (!fmt)
		fmt = ovb_format_sniff(&lx, &st);
	void *obj = ovb_xcalloc(1, fmt ? fmt->size : 1);
	if (fmt)
		st = fmt->read(&lx, obj);
	if (!st) {
		size_t clen, len;
		char *canon = canonical(fmt, obj, &clen);
		char *text = ovb_keep_comments(in, inlen, canon, clen, &len);
		st = emit(path ? path : "-", text, len, out);
		free(canon);
		free(text);
		if (!st && ovb_verbose)
			ovb_warn("%s: valid ovb-%s", name, fmt->name);
	}
	if (fmt)
		fmt->free(obj);
	free(obj);
	ovb_lex_free(&lx);
	fclose(m);
	free(in);
	return st;
}

int
main(int argc, char **argv)
{
	int first, status = 0;
	argp_parse(&argp, argc, argv, 0, &first, NULL);
	ovb_stdin_expects = "an overbook file of any format (its magic record "
		"first: ovb-cluster 1, ovb-apps 1, ...)";
	ovb_cluster_hw_warn = true;
	struct ovb_out out;
	if ((status = ovb_out_open(&out, ovb_opt_output)))
		return status;
	int nfiles = argc - first;
	for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
		int st = fmt_one(nfiles ? argv[first + i] : NULL, &out);
		if (st > status)
			status = st;
	}
	return ovb_out_end(&out, status);
}
