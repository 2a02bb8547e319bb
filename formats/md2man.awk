# formats/md2man.awk: a format's spec (formats/NAME.md) as a section 5
# manual page, ovb-NAME(5) (README.md: ovb-formats(5)), and a tool's page
# man/ovb-TOOL.1.md (or man/ovb.7.md) as ovb-TOOL(1) (ovb(7)).
#
#   awk -v name=ovb-plan -v version=VERSION -f formats/md2man.awk formats/plan.md
#   awk -v name=ovb-place -v section=1 -v version=VERSION \
#       -f formats/md2man.awk man/ovb-place.1.md
#
# A section 1 or 7 page starts "# NAME(S) -- what it is" (the NAME
# section) and has its own "## SYNOPSIS", "## DESCRIPTION", ... and
# "## SEE ALSO"; an item "- `-x`, `--long=ARG`: text" of a list is an
# option (.TP, the term up to the first "`: ").  A format's page gets its
# NAME and DESCRIPTION from its first heading and a SEE ALSO at the end.
#
# The Markdown the specs use, and only that: '#' headings (the first is the
# page's title, "TITLE: what it is"), paragraphs, fenced (```) and
# indented (4 spaces) code, tables (| a | b |, shown as lines, the
# separator row dropped), '-' and numbered lists, `code`, **bold**,
# *emphasis* and [links](target) (the text, then the target when it is a
# URL).  roff's specials are escaped: a backslash is \e, a line starting
# with '.' or "'" gets \&.

function esc(s) {
	gsub(/\\/, "\\e", s)
	return s
}

function lead(s) {
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

# Inline Markdown to roff fonts.
function inline(s,    out, b, l) {
	s = esc(s)
	out = ""
	while (match(s, /`[^`]+`/)) {
		b = RSTART
		l = RLENGTH   # inline2's match() sets RSTART and RLENGTH again
		out = out inline2(substr(s, 1, b - 1)) "\\fB" \
			substr(s, b + 1, l - 2) "\\fR"
		s = substr(s, b + l)
	}
	return lead(out inline2(s))
}

function inline2(s,    t, u) {
	while (match(s, /\[[^]]+\]\([^)]+\)/)) {
		t = substr(s, RSTART, RLENGTH)
		u = t
		sub(/^\[/, "", t)
		sub(/\]\(.*$/, "", t)
		sub(/^[^(]*\(/, "", u)
		sub(/\)$/, "", u)
		if (u ~ /^https?:/)
			t = t " <" u ">"
		s = substr(s, 1, RSTART - 1) t substr(s, RSTART + RLENGTH)
	}
	while (match(s, /\*\*[^*]+\*\*/))
		s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 2, \
			RLENGTH - 4) "\\fR" substr(s, RSTART + RLENGTH)
	while (match(s, /(^|[ (])\*[^* ][^*]*\*/)) {
		if (substr(s, RSTART, 1) != "*") {
			s = substr(s, 1, RSTART) "\\fI" substr(s, RSTART + 2, \
				RLENGTH - 3) "\\fR" substr(s, RSTART + RLENGTH)
		} else
			s = "\\fI" substr(s, 2, RLENGTH - 2) "\\fR" \
				substr(s, RLENGTH + 1)
	}
	return s
}

function endpara() {
	if (inlist) {
		print ".RE"
		inlist = 0
	}
}

BEGIN {
	up = toupper(name)
	if (section == "")
		section = 5
	if (section == 5) {
		print ".\\\" Made from formats/" (name == "ovb-formats" ? \
			"README" : substr(name, 5)) \
			".md by formats/md2man.awk; do not edit."
		print ".TH " up " 5 \"\" \"overbook " version \
			"\" \"overbook file formats\""
	} else {
		print ".\\\" Made from man/" name "." section \
			".md by formats/md2man.awk; do not edit."
		print ".TH " up " " section " \"\" \"overbook " version \
			"\" \"overbook manual\""
	}
	code = 0
	titled = 0
}

# an HTML comment on its own line (the tests' markers) is not shown
/^<!--.*-->[ \t]*$/ { next }

# fenced code
/^```/ {
	if (!code) {
		endpara()
		print ".PP\n.nf\n.RS 4"
		code = 1
	} else {
		print ".RE\n.fi"
		code = 0
	}
	next
}
code { print lead(esc($0)); next }

/^# / && !titled && section != 5 {
	t = substr($0, 3)
	sub(/^[^ ]* +-- +/, "", t)
	print ".SH NAME\n" name " \\- " esc(t)
	titled = 1
	next
}
/^# / && !titled {
	t = substr($0, 3)
	d = t
	sub(/^[^:]*: */, "", d)
	if (d == t)
		d = t
	print ".SH NAME\n" name " \\- " esc(d)
	print ".SH DESCRIPTION"
	print ".PP\n" inline(t)
	titled = 1
	next
}
/^#+ / {
	endpara()
	lvl = index($0, " ") - 1
	t = substr($0, lvl + 2)
	t = esc(t)
	if (lvl <= 2) {
		t = toupper(t)
		gsub(/\\E/, "\\e", t)
	}
	gsub(/"/, "\\(dq", t)
	print (lvl <= 2 ? ".SH" : ".SS") " \"" t "\""
	next
}

# tables: the cells of a row on one line, separated by two spaces
/^\|/ {
	if ($0 ~ /^\|[ :|-]+\|?[ ]*$/)
		next
	row = $0
	sub(/^\| */, "", row)
	sub(/ *\| *$/, "", row)
	gsub(/ *\| */, " | ", row)
	if (!intable) {
		endpara()
		print ".PP"
		intable = 1
	} else
		print ".PP"
	print inline(row)
	next
}
{ intable = 0 }

/^    / {
	if (!indent) {
		endpara()
		print ".PP\n.nf\n.RS 4"
		indent = 1
	}
	print lead(esc(substr($0, 5)))
	next
}
indent && /^[ \t]*$/ { pending_blank = 1; next }
indent {
	print ".RE\n.fi"
	indent = 0
	pending_blank = 0
}

# a `code span` broken over two lines: the line waits for the next one
carry != "" && /^[ \t]*$/ { print inline(carry); carry = "" }
carry != "" {
	t = $0
	sub(/^ +/, "", t)
	$0 = carry " " t
	carry = ""
}
{
	t = $0
	if (gsub(/`/, "`", t) % 2) {
		carry = $0
		next
	}
}

/^[ \t]*$/ { next_para = 1; next }

# an option: "- `-x`, `--long=ARG`: text"
section != 5 && /^- `[^`]+`(, `[^`]+`)*: / {
	endpara()
	match($0, /^- `[^`]+`(, `[^`]+`)*: /)
	l = RLENGTH   # inline()'s match() sets RLENGTH again
	print ".TP\n" inline(substr($0, 3, l - 4))
	print inline(substr($0, l + 1))
	inlist_item = 1
	next_para = 0
	next
}

/^(- |\* |[0-9]+\. )/ {
	endpara()
	item = $0
	mark = item
	sub(/ .*$/, "", mark)
	sub(/^[^ ]+ +/, "", item)
	print ".IP \"" (mark ~ /^[0-9]/ ? mark : "\\(bu") "\" 4"
	print inline(item)
	inlist_item = 1
	next_para = 0
	next
}

/^  +[^ ]/ && inlist_item && !next_para {
	t = $0
	sub(/^ +/, "", t)
	print inline(t)
	next
}

{
	if (next_para || !started) {
		print ".PP"
		inlist_item = 0
	}
	next_para = 0
	started = 1
	print inline($0)
}

END {
	if (carry != "")
		print inline(carry)
	if (code || indent)
		print ".RE\n.fi"
	if (section != 5)
		exit
	print ".SH SEE ALSO"
	print "ovb-formats(5), ovb-fmt(1); the specification is formats/" \
		(name == "ovb-formats" ? "README" : substr(name, 5)) \
		".md in the overbook sources."
}
