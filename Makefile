# overbook: capacity planning with controlled overbooking.  GNU make.
#
#   make            build every tools/*/ovb-*.c into bin/, linked with the
#                   one library built from formats/*.c and lib/*.c
#   make check      the Bats suite over t/ (installs missing packages first)
#   make asan       everything again with ASan+UBSan, then the suite
#   make fuzz       libFuzzer targets (clang) into build/fuzz/
#   make demo       the main job on shipped data
#   make deps       install the missing Debian packages (as root)
#   make install    PREFIX=/usr/local DESTDIR= BINDIR= MANDIR=

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DESTDIR ?=

CC      ?= cc
CFLAGS  ?= -O2 -g
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

.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all check test asan fuzz fuzz-run deps deps-check demo bench \
	install uninstall clean

all: $(TOOLS)

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

# The suite: built tools first on PATH, stdin from /dev/null.
BATS     ?= bats
BATSFLAGS ?=
check: deps-check all
	PATH="$(CURDIR)/$(BIN):$$PATH" OVB_ROOT="$(CURDIR)" \
		$(BATS) $(BATSFLAGS) t/ </dev/null
test: check

SANFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
asan: deps-check
	$(MAKE) BUILD=build/asan BIN=build/asan/bin CFLAGS='$(SANFLAGS)' \
		WERROR='$(WERROR)' all
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	PATH="$(CURDIR)/build/asan/bin:$$PATH" OVB_ROOT="$(CURDIR)" \
		$(BATS) $(BATSFLAGS) t/ </dev/null

# libFuzzer: one target per reader, built by clang into build/fuzz/.
FUZZCC    ?= clang
FUZZFLAGS := -std=gnu17 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -D_GNU_SOURCE -Ilib -Iformats -I/usr/include/traceevent
FUZZ_FORMATS := onoff usage profile cluster apps plan reserves curve series
FUZZ_TARGETS := $(FUZZ_FORMATS:%=fuzz-%)
fuzz: deps-check $(FUZZ_TARGETS:%=build/fuzz/%) build/fuzz/fuzz-perf
$(FUZZ_FORMATS:%=build/fuzz/fuzz-%): build/fuzz/fuzz-%: fuzz/fuzz-format.c \
		$(LIBSRC) lib/ovb.h
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZFLAGS) -DOVB_FUZZ_FORMAT='"$*"' -o $@ $< $(LIBSRC) \
		-ltraceevent -lglpk -lgmp -lm
build/fuzz/fuzz-perf: fuzz/fuzz-perf.c $(LIBSRC) lib/ovb.h
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZFLAGS) -o $@ $< $(LIBSRC) -ltraceevent -lglpk -lgmp -lm
# Runs each target FUZZ_SECONDS from its seeds (t/ examples); crashes are
# left in build/fuzz/ as crash-*.
FUZZ_SECONDS ?= 60
fuzz-run: fuzz
	for t in $(FUZZ_FORMATS); do \
		mkdir -p build/fuzz/corpus-$$t && \
		cp t/data/*.$$t build/fuzz/corpus-$$t/ 2>/dev/null; \
		build/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=build/fuzz/ build/fuzz/corpus-$$t \
			|| exit 1; \
	done
	mkdir -p build/fuzz/corpus-perf
	for f in t/fixtures/*.perf.data.gz; do \
		gzip -dc $$f > build/fuzz/corpus-perf/$$(basename $$f .gz); done
	build/fuzz/fuzz-perf -max_total_time=$(FUZZ_SECONDS) -max_len=1048576 \
		-artifact_prefix=build/fuzz/ build/fuzz/corpus-perf

deps:
	.ci/deps install
deps-check:
	@.ci/deps check

demo: deps-check all
	./demo.sh

bench: all
	bench/run

# Manual pages are made from each tool's --help by help2man, when present.
MANS := $(TOOLS:$(BIN)/%=$(BUILD)/man/%.1)
$(BUILD)/man/%.1: $(BIN)/%
	@mkdir -p $(@D)
	help2man --no-info --no-discard-stderr -n "$$($< --help | sed -n 2p)" \
		-o $@ ./$<

install: all
	install -d '$(DESTDIR)$(BINDIR)'
	install -m 755 $(TOOLS) '$(DESTDIR)$(BINDIR)'
	if command -v help2man >/dev/null; then \
		$(MAKE) $(MANS) && install -d '$(DESTDIR)$(MANDIR)/man1' && \
		install -m 644 $(MANS) '$(DESTDIR)$(MANDIR)/man1'; fi

uninstall:
	rm -f $(addprefix '$(DESTDIR)$(BINDIR)'/,$(notdir $(TOOLS)))
	rm -f $(addprefix '$(DESTDIR)$(MANDIR)/man1/',$(notdir $(MANS)))

clean:
	rm -rf build bin

-include $(LIBOBJ:.o=.d) $(TOOLSRC:%.c=$(BUILD)/%.d)
