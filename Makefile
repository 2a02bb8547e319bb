# overbook: capacity planning with controlled overbooking.  GNU make.
#
#   make            build every tools/*/ovb-*.c into bin/, linked with the
#                   one library built from formats/*.c and lib/*.c, and
#                   the manual's pages man/*.1 and man/ovb.7
#   make check      the Bats suite over t/ (installs missing packages first,
#                   and mounts tracefs for the live tests: .ci/live)
#   make asan       everything again with ASan+UBSan, then the suite
#   make layering   lib/ uses neither formats/ nor tools/, formats/ not
#                   tools/, no circle in formats/ (nm on the objects)
#   make fuzz       libFuzzer targets (clang), one per format, into build/fuzz/
#   make demo       the main job on shipped data
#   make deps       install the missing Debian packages (as root)
#   make install    PREFIX=/usr/local DESTDIR= BINDIR= MANDIR=

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=

CC      ?= cc
# -falign-loops=32: the hot loops (the convolution, the grid) start on a
# 32-byte line wherever the linker puts them; without it a change
# elsewhere moved ovb_pmf_add_into and cost the fleet backtest 25% of its
# time, the code unchanged (bench/README.md, "Fleet speed")
CFLAGS  ?= -O2 -g -falign-loops=32
WERROR  ?=
override CFLAGS := -std=gnu17 -Wall -Wextra -Wshadow -Wformat=2 \
	-Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
	-Wpointer-arith -Wvla -Wundef $(WERROR) $(CFLAGS)
override CPPFLAGS := -D_GNU_SOURCE -Ilib -Iformats -I/usr/include/traceevent \
	-MMD -MP $(CPPFLAGS)
override LDFLAGS := -Wl,--as-needed $(LDFLAGS)
LDLIBS  ?=
override LDLIBS := $(LDLIBS) -ltraceevent -lglpk -lgmp -lm

# Build and output directories; `make asan` re-invokes make with others.
BUILD   ?= build
BIN     ?= bin

LIBSRC  := $(sort $(wildcard formats/*.c lib/*.c))
TOOLSRC := $(sort $(wildcard tools/*/ovb-*.c))
LIBOBJ  := $(LIBSRC:%.c=$(BUILD)/%.o)
LIB     := $(BUILD)/libovb.a
TOOLS   := $(addprefix $(BIN)/,$(notdir $(TOOLSRC:.c=)))
FUZZSRC := $(sort $(wildcard fuzz/fuzz-*.c))
# The manual's pages, man/NAME.S from man/NAME.S.md (below).
MANS    := $(patsubst %.md,%,$(sort $(wildcard man/*.1.md man/*.7.md)))

.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all check test asan fuzz fuzz-run deps deps-check deps-tools-check demo bench man5 \
	install uninstall clean layering

all: $(TOOLS) $(MANS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# One rule per tool directory: bin/ovb-x from tools/*/ovb-x.c.
define tool_rule
$(BIN)/$(notdir $(1:.c=)): $(BUILD)/$(1:.c=.o) $(LIB)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$< $(LIB) $$(LDLIBS)
endef
$(foreach t,$(TOOLSRC),$(eval $(call tool_rule,$(t))))

# The layering of README's Layout, read off the objects (.ci/layering):
# no lib/ object needs a symbol defined in formats/ or tools/, no formats/
# object one defined in tools/, and no formats/ objects need each other in
# a circle.
layering: $(LIBOBJ) $(TOOLSRC:%.c=$(BUILD)/%.o)
	@.ci/layering $(BUILD) .

# The suite: built tools first on PATH, stdin from /dev/null.
BATS     ?= bats
BATSFLAGS ?=
# Test files run TEST_JOBS at a time (GNU parallel; one test at a time
# within a file).  Those marked "# ovb: serial" (they record the machine
# with perf, so two of them must not overlap) run one after the other, in
# a second bats beside the first, their report printed after it.
TEST_JOBS   ?= $(shell nproc 2>/dev/null || echo 1)
TESTS       := $(sort $(wildcard t/*.bats))
SERIALTESTS := $(shell grep -l '^\# ovb: serial' $(TESTS))
PARTESTS    := $(filter-out $(SERIALTESTS),$(TESTS))
BATSJOBS     = $(if $(filter-out 0 1,$(TEST_JOBS)),--jobs $(TEST_JOBS) \
	--no-parallelize-within-files)
RUNTESTS     = log=$$(mktemp); \
	$(if $(SERIALTESTS),$(BATS) $(BATSFLAGS) $(SERIALTESTS),:) \
		</dev/null >"$$log" 2>&1 & \
	$(if $(PARTESTS),$(BATS) $(BATSFLAGS) $(BATSJOBS) $(PARTESTS),:) </dev/null; s=$$?; \
	wait $$! || s=1; cat "$$log"; rm -f "$$log"; exit $$s
check: deps-check all
	@.ci/live
	export PATH="$(CURDIR)/$(BIN):$$PATH" OVB_ROOT="$(CURDIR)" \
		OVB_BUILD="$(CURDIR)/$(BUILD)"; \
		$(RUNTESTS)
test: check

# The same flags for gcc and clang; clang >= 17 (make asan CC=clang-19)
# adds UBSan's `function` check.  One build directory per compiler: their
# sanitizer runtimes do not mix.
SANFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
ASANDIR  := build/asan$(filter-out -cc,-$(notdir $(firstword $(CC))))
asan: deps-check
	$(MAKE) BUILD=$(ASANDIR) BIN=$(ASANDIR)/bin CFLAGS='$(SANFLAGS)' \
		WERROR='$(WERROR)' all
	@.ci/live
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		PATH="$(CURDIR)/$(ASANDIR)/bin:$$PATH" OVB_ROOT="$(CURDIR)" \
		OVB_BUILD="$(CURDIR)/$(ASANDIR)"; \
		$(RUNTESTS)

# libFuzzer: one target per format, derived (never listed by hand) from
# the specs formats/NAME.md and the readers formats/NAME.c (the registry
# format.c and the lexer lex.c aside; fuzz-format.c also keeps the
# comments of every format's input).  A format in the registry (an
# X(NAME, TYPE) line of formats/impl.h) is fuzz-NAME built from
# fuzz/fuzz-format.c; any other has its own fuzz/fuzz-NAME.c (perfdata's
# is fuzz/fuzz-perf.c).  Built by clang (clang-19 when installed: its
# UBSan has the `function` check) into build/fuzz/, against one library
# instrumented once in build/fuzz/lib/.
FUZZCC    ?= $(shell command -v clang-19 >/dev/null 2>&1 && echo clang-19 \
	|| echo clang)
FUZZSAN   := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZFLAGS := -std=gnu17 -g -O1 $(FUZZSAN) -D_GNU_SOURCE -Ilib -Iformats \
	-I/usr/include/traceevent
FUZZ_SPECS := $(sort $(basename $(notdir \
	$(filter-out formats/README.md,$(wildcard formats/*.md)) \
	$(filter-out formats/format.c formats/lex.c,\
	$(wildcard formats/*.c)))))
FUZZ_XLINE    := ^[[:space:]]*X(\([a-z0-9_]*\),.*
FUZZ_REGISTRY := $(shell sed -n 's/$(FUZZ_XLINE)/\1/p' formats/impl.h)
FUZZ_FORMATS := $(filter $(FUZZ_REGISTRY),$(FUZZ_SPECS))
FUZZ_OWN     := $(patsubst perfdata,perf,$(filter-out $(FUZZ_REGISTRY),\
	$(FUZZ_SPECS)))
FUZZ_TARGETS := $(FUZZ_FORMATS) $(FUZZ_OWN)
ifneq ($(filter fuzz fuzz-run build/fuzz/%,$(MAKECMDGOALS)),)
$(foreach t,$(FUZZ_OWN),$(if $(wildcard fuzz/fuzz-$(t).c),,\
	$(error formats/$(t): not in the registry and no fuzz/fuzz-$(t).c)))
endif
# Seeds of each target: t/data/*.NAME, and these (.gz: decompressed).
FUZZ_SEEDS_apps      := t/data/*.apps t/data/*.rsl
FUZZ_SEEDS_bitbrains := t/data/*bitbrains*.csv
FUZZ_SEEDS_perf      := t/fixtures/*.perf.data.gz t/fixtures/perf-regress-*.data.gz

FUZZLIBOBJ := $(LIBSRC:%.c=build/fuzz/lib/%.o)
FUZZLIB    := build/fuzz/lib/libovb.a
build/fuzz/lib/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FUZZLIB): $(FUZZLIBOBJ)
	@rm -f $@
	$(AR) rcs $@ $^
fuzz: deps-check $(FUZZ_TARGETS:%=build/fuzz/fuzz-%)
$(FUZZ_FORMATS:%=build/fuzz/fuzz-%): build/fuzz/fuzz-%: fuzz/fuzz-format.c \
		$(FUZZLIB)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer -DOVB_FUZZ_FORMAT='"$*"' \
		-o $@ $< $(FUZZLIB) -ltraceevent -lglpk -lgmp -lm
$(FUZZ_OWN:%=build/fuzz/fuzz-%): build/fuzz/fuzz-%: fuzz/fuzz-%.c $(FUZZLIB)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZLIB) \
		-ltraceevent -lglpk -lgmp -lm
# Runs every target FUZZ_SECONDS from a corpus of its seeds (a target
# without seeds is an error), goes on after a failure, prints one line per
# target and fails if any did.  Sanitizer reports and crash-* files are
# in build/fuzz/; the readers' own messages are silenced.
FUZZ_SECONDS ?= 60
fuzz-run: fuzz
	@fail=; for t in $(FUZZ_TARGETS); do \
		c=build/fuzz/corpus-$$t; mkdir -p $$c; \
		case $$t in \
		apps) seeds="$(FUZZ_SEEDS_apps)";; \
		bitbrains) seeds="$(FUZZ_SEEDS_bitbrains)";; \
		perf) seeds="$(FUZZ_SEEDS_perf)";; \
		*) seeds="t/data/*.$$t";; \
		esac; n=0; \
		for f in $$seeds; do [ -f "$$f" ] || continue; n=$$((n + 1)); \
			case $$f in \
			*.gz) gzip -dc "$$f" > $$c/$$(basename "$$f" .gz);; \
			*) cp "$$f" $$c/;; \
			esac; \
		done; \
		if [ $$n = 0 ]; then \
			echo "fuzz-run: fuzz-$$t has no seeds ($$seeds)" >&2; \
			fail="$$fail $$t"; continue; \
		fi; \
		echo "fuzz-run: fuzz-$$t: $$n seeds, $(FUZZ_SECONDS) s"; \
		if build/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
			-max_len=1048576 -print_final_stats=1 \
			-artifact_prefix=build/fuzz/$$t- $$c \
			> build/fuzz/$$t.log 2>&1; then \
			echo "fuzz-run: fuzz-$$t: ok, $$(grep -o \
				'stat::number_of_executed_units: *[0-9]*' \
				build/fuzz/$$t.log | grep -o '[0-9]*$$') runs"; \
		else \
			echo "fuzz-run: fuzz-$$t FAILED (build/fuzz/$$t.log):" >&2; \
			grep -E -A12 '^==[0-9]+==ERROR|runtime error|^SUMMARY' \
				build/fuzz/$$t.log | head -40 >&2; \
			fail="$$fail $$t"; \
		fi; \
	done; \
	if [ -n "$$fail" ]; then echo "fuzz-run: failed:$$fail" >&2; exit 1; fi

# deps: everything (tools, tests); make demo needs only the tools' set.
deps:
	.ci/deps install
deps-check:
	@.ci/deps check test
deps-tools-check:
	@.ci/deps check tools

demo: deps-tools-check all
	./demo.sh

bench: all
	bench/run

# The manual: man/ovb-TOOL.1.md (one per tool) and man/ovb.7.md, written
# by hand, rendered beside them as man/ovb-TOOL.1 and man/ovb.7 by
# formats/md2man.awk (read them uninstalled: man -l man/ovb-place.1).
$(MANS): man/%: man/%.md formats/md2man.awk lib/ovb.h
	awk -v name=$(basename $*) -v section=$(subst .,,$(suffix $*)) \
		-v version='$(VERSION)' -f formats/md2man.awk $< >$@

# The formats' pages, ovb-NAME(5), from their specs formats/NAME.md
# (formats/README.md: ovb-formats(5)) by formats/md2man.awk.
FMTMD    := $(sort $(wildcard formats/*.md))
FMANS    := $(patsubst %,$(BUILD)/man/ovb-%.5,$(patsubst README,formats,\
	$(basename $(notdir $(FMTMD)))))
VERSION   = $(shell sed -n 's/^\#define OVB_VERSION "\(.*\)"/\1/p' lib/ovb.h)
$(BUILD)/man/ovb-formats.5: formats/README.md formats/md2man.awk
	@mkdir -p $(@D)
	awk -v name=ovb-formats -v version='$(VERSION)' -f formats/md2man.awk $< >$@
$(BUILD)/man/ovb-%.5: formats/%.md formats/md2man.awk
	@mkdir -p $(@D)
	awk -v name=ovb-$* -v version='$(VERSION)' -f formats/md2man.awk $< >$@
man5: $(FMANS)

install: all man5
	install -d '$(DESTDIR)$(BINDIR)'
	install -m 755 $(TOOLS) '$(DESTDIR)$(BINDIR)'
	install -d '$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(MANDIR)/man5' \
		'$(DESTDIR)$(MANDIR)/man7'
	install -m 644 $(filter %.1,$(MANS)) '$(DESTDIR)$(MANDIR)/man1'
	install -m 644 $(FMANS) '$(DESTDIR)$(MANDIR)/man5'
	install -m 644 $(filter %.7,$(MANS)) '$(DESTDIR)$(MANDIR)/man7'

uninstall:
	rm -f $(addprefix '$(DESTDIR)$(BINDIR)'/,$(notdir $(TOOLS)))
	rm -f $(addprefix '$(DESTDIR)$(MANDIR)/man1/',$(notdir $(filter %.1,$(MANS))))
	rm -f $(addprefix '$(DESTDIR)$(MANDIR)/man7/',$(notdir $(filter %.7,$(MANS))))
	rm -f $(addprefix '$(DESTDIR)$(MANDIR)/man5/',$(notdir $(FMANS)))

clean:
	rm -rf build bin $(MANS)

-include $(LIBOBJ:.o=.d) $(TOOLSRC:%.c=$(BUILD)/%.d) $(FUZZLIBOBJ:.o=.d)
