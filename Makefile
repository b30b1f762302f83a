# mmdelta build.  Every bench/X.c is one scenario, linked against bench/lib
# and against its own helper sources bench/X-*.c (a bench name has no dash);
# reports/mmstat.c, mmci.c and mmseq.c are mains, the rest of reports/*.c their library.
SHELL    := /bin/bash
CC       ?= gcc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Ibench/lib -Ireports
LDLIBS   += -lpthread -lm
PREFIX   ?= /usr/local
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

HELPER_SRCS := $(wildcard bench/*-*.c)
BENCH_SRCS  := $(filter-out $(HELPER_SRCS),$(wildcard bench/*.c))
BENCHES     := $(BENCH_SRCS:.c=)
# harness.c holds main() and fit.c the size checks that report through it;
# everything else in bench/lib is library code that tools and unit tests link too.
HARNESS_SRCS := bench/lib/harness.c bench/lib/fit.c
HARNESS_OBJS := $(HARNESS_SRCS:.c=.o)
LIB_SRCS    := $(filter-out $(HARNESS_SRCS),$(wildcard bench/lib/*.c))
LIB_OBJS    := $(LIB_SRCS:.c=.o)
# reports/hist*.c need SQLite, which mmstat and mmci (run inside --kernel
# guests) do without.
HIST_LIB    := $(wildcard reports/hist*.c)
HIST_OBJS   := $(HIST_LIB:.c=.o)
REPORT_LIB  := $(filter-out reports/mmstat.c reports/mmci.c reports/mmseq.c reports/mmhistory.c $(HIST_LIB),$(wildcard reports/*.c))
REPORT_OBJS := $(REPORT_LIB:.c=.o)
TOOLS       := tools/mmconfig tools/minimunlock reports/mmstat reports/mmci reports/mmseq reports/mmhistory
UNIT_SRCS   := $(wildcard tests/unit/test_*.c)
UNIT_BINS   := $(patsubst tests/unit/%.c,build/san/%,$(UNIT_SRCS))
SAN_OBJS    := $(patsubst %.c,build/san/obj/%.o,$(LIB_SRCS) $(REPORT_LIB) $(HIST_LIB))
SHELL_FILES := run.sh $(wildcard compare.sh history.sh bisect.sh tests/stats/*.sh drivers/*.sh drivers/lib/*.sh \
                 drivers/lib/*/*.sh tests/cli/*.bash tests/fleet/*.sh tests/bisect-build/*.sh .ci/run reports/*.sh tools/*.sh)

# Objects are kept between builds, not deleted as intermediates of bench/%.
.SECONDARY: $(HARNESS_OBJS) $(LIB_OBJS) $(REPORT_OBJS) $(HIST_OBJS) $(SAN_OBJS)

.PHONY: all static test selfcheck unit cli shellcheck deps install uninstall clean
all: $(BENCHES) $(TOOLS)

bench/lib/%.o: bench/lib/%.c $(wildcard bench/lib/*.h)
	$(CC) $(CFLAGS) -c -o $@ $<
reports/%.o: reports/%.c $(wildcard reports/*.h)
	$(CC) $(CFLAGS) -c -o $@ $<

# The config parser is mmconfig's alone, so it lives in tools/, not bench/lib.
tools/mmconfig: tools/mmconfig.c tools/config.c tools/config.h
	$(CC) $(CFLAGS) -o $@ $(filter %.c,$^) $(LDLIBS)
# A bench's helpers, bench/X-*.c, are found when bench/X is built: second
# expansion puts the stem into the wildcard.
.SECONDEXPANSION:
bench/%: bench/%.c $$(wildcard bench/$$*-*.c bench/$$*-*.h) $(HARNESS_OBJS) $(LIB_OBJS) $(wildcard bench/lib/*.h)
	$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)
tools/minimunlock: tools/minimunlock.c
	$(CC) $(CFLAGS) -o $@ $<
reports/mmstat reports/mmci reports/mmseq: %: %.c $(REPORT_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ -lgsl -lgslcblas $(LDLIBS)
reports/mmhistory: reports/mmhistory.c $(HIST_OBJS) $(REPORT_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lgsl -lgslcblas $(LDLIBS)

# Static binaries for the initramfs of --kernel runs (the guest has no libc).
static: $(patsubst bench/%,build/static/%,$(BENCHES)) build/static/mmconfig build/static/mmci build/static/mmstat
build/static/%: bench/%.c $$(wildcard bench/$$*-*.c bench/$$*-*.h) $(HARNESS_SRCS) $(LIB_SRCS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $(filter %.c,$^) $(LDLIBS)
build/static/mmconfig: tools/mmconfig.c tools/config.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(LDLIBS)
# The guest's run.sh needs mmci (-i auto's stopping check) and mmstat (the
# summary at the end of each bench).
build/static/mmci build/static/mmstat: build/static/mm%: reports/mm%.c $(REPORT_LIB) $(wildcard reports/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $(filter %.c,$^) -lgsl -lgslcblas $(LDLIBS)

# Unit tests are built with ASan/UBSan against every library source, each
# source compiled once for all of them.
build/san/obj/%.o: %.c $(wildcard bench/lib/*.h reports/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O1 $(SAN) -c -o $@ $<
build/san/%: tests/unit/%.c $(SAN_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O1 $(SAN) -o $@ $^ -lcmocka -lsqlite3 -lgsl -lgslcblas $(LDLIBS)
build/san/test_config: tests/unit/test_config.c tools/config.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools -O1 $(SAN) -o $@ $^ -lcmocka $(LDLIBS)

# The change-point detection's precision and recall on seeded synthetic
# series (a few minutes), and the time of `history.sh changes` over a
# generated history of 10,000 nightly runs of 4 benches.
.PHONY: test-history-stats
test-history-stats: build/cpsweep build/histgen reports/mmhistory
	./tests/stats/history-stats.sh
build/cpsweep: tests/stats/cpsweep.c tests/stats/synth.h $(REPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(REPORT_OBJS) -lgsl -lgslcblas $(LDLIBS)
build/histgen: tests/stats/histgen.c $(HIST_OBJS) $(REPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lgsl -lgslcblas $(LDLIBS)

# Every package set of drivers/lib/deps.list; run.sh and compare.sh install
# only the sets they need.
deps:
	@./drivers/lib/deps.sh

# Debian's cloud kernels for --kernel runs, vm.bats and the bisect tests:
# the 6.1 series the archive serves and two 6.12 builds, their vmlinuz and
# config only, in tests/cache/kernels (never installed, never committed).
.PHONY: test-kernels
test-kernels:
	@./drivers/lib/vm/fetch-debian-kernels.sh

# Not part of test (about five minutes of boots): bisect.sh over the real
# Debian 6.1 series, images form and tree form, against each image measured
# on its own.  make test checks the same logic with a stand-in runner.
.PHONY: test-bisect-series
test-bisect-series: all static
	bats --print-output-on-failure tests/kernels

# Not part of test: the slow Slurm cases (kernel matrix, a node dying, K-ary
# bisection) on a cluster of four nodes on this machine; needs make test-kernels.
.PHONY: test-fleet
test-fleet: all static
	bats --print-output-on-failure tests/fleet

# Not part of test: bisect.sh in tree mode over real kernel builds of
# Debian's linux-source-6.1 (about half an hour; see docs/bisect.md).
.PHONY: test-bisect-build
test-bisect-build: all static
	./tests/bisect-build/run.sh

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

# The TAP stream is kept so the closing line can count it for CI's reader.
cli: all
	@mkdir -p build
	@set -o pipefail; bats --print-output-on-failure tests/cli | tee build/cli.tap; rc=$$?; \
	awk '/^ok / { p++ } /^not ok / { f++ } /^ok .* # skip/ { s++; p-- } \
		END { printf "cli: %d passed, %d failed, %d skipped\n", p, f, s }' build/cli.tap; exit $$rc

# check-unassigned-uppercase: a global read in a file that neither assigns it
# nor sources drivers/lib/state.sh, where the shared ones are declared, is an error.
shellcheck:
	shellcheck -x -o check-unassigned-uppercase $(SHELL_FILES)

test: deps
	$(MAKE) -j$(shell nproc) all $(UNIT_BINS)
	$(MAKE) shellcheck
	$(MAKE) unit
	$(MAKE) fuzz-short
	$(MAKE) cli

# Not part of test: measures the suite itself for a quarter of an hour and
# rewrites docs/selfcheck.md.
selfcheck: all
	./tools/selfcheck.sh

# An installed tree is PREFIX/lib/mmdelta: the scripts, shell libraries,
# configs and report assets with the binaries built here, and no sources or
# Makefile, so nothing there runs make (drivers/lib/build.sh).  Every
# top-level NAME.sh gets PREFIX/bin/mmdelta-NAME, a relative link, so a tree
# staged under DESTDIR works where it is and where it lands (docs/install.md).
INSTALL_DIR     = $(DESTDIR)$(PREFIX)/lib/mmdelta
INSTALL_SCRIPTS := $(wildcard *.sh)
REPORT_ASSETS   := $(filter-out %.c %.h %.o $(TOOLS),$(wildcard reports/*))
install: all static
	rm -rf $(INSTALL_DIR)
	install -d $(INSTALL_DIR)/bench $(INSTALL_DIR)/tools $(INSTALL_DIR)/reports \
		$(INSTALL_DIR)/build/static $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/mmdelta
	cp $(INSTALL_SCRIPTS) $(INSTALL_DIR)/
	cp -R drivers configs $(INSTALL_DIR)/
	cp $(BENCHES) $(INSTALL_DIR)/bench/
	cp tools/mmconfig $(INSTALL_DIR)/tools/
	cp $(REPORT_ASSETS) reports/mmstat reports/mmci reports/mmseq reports/mmhistory $(INSTALL_DIR)/reports/
	cp build/static/* $(INSTALL_DIR)/build/static/
	(git describe --always --dirty 2>/dev/null || echo unknown) >$(INSTALL_DIR)/VERSION
	cp -R README.md docs $(DESTDIR)$(PREFIX)/share/doc/mmdelta/
	for s in $(INSTALL_SCRIPTS:.sh=); do ln -sfn ../lib/mmdelta/$$s.sh $(DESTDIR)$(PREFIX)/bin/mmdelta-$$s; done

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/lib/mmdelta $(DESTDIR)$(PREFIX)/share/doc/mmdelta
	rm -f $(patsubst %.sh,$(DESTDIR)$(PREFIX)/bin/mmdelta-%,$(INSTALL_SCRIPTS))

clean:
	rm -rf build $(BENCHES) $(TOOLS) bench/lib/*.o reports/*.o

include tests/fuzz/fuzz.mk
