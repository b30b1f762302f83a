# mmdelta build.  Sources stay in their folders; everything built goes
# under build/, which `make clean` removes:
#   build/bin/     the benches, mmconfig, mmstat, mmci, mmseqgate, mmhistory, minimunlock
#   build/static/  static benches, mmconfig, mmci and mmstat for --kernel guests
#   build/obj/     objects, with the header dependencies the compiler found (.d)
#   build/san/     the unit tests, built with ASan and UBSan
#   build/fuzz/    the libFuzzer targets (tests/fuzz/fuzz.mk)
# The shell finds the binaries through drivers/core/build.sh, the one place
# that knows this layout (and the installed one, docs/install.md).
SHELL    := /bin/bash
CC       ?= gcc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Ibench/lib -Ireports -Idrivers/config
DEPFLAGS  = -MMD -MP
LDLIBS   += -lpthread -lm
PREFIX   ?= /usr/local
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD    := build
BIN      := $(BUILD)/bin
STATIC   := $(BUILD)/static
OBJ      := $(BUILD)/obj
obj       = $(patsubst %.c,$(OBJ)/%.o,$(1))

# bench/X.c is one scenario, linked with its own helpers bench/X-*.c (a
# bench's name has no dash) and the harness; harness.c holds main(), and
# fit.c (the size checks), settle.c (the settle step) and tasks.c (N tasks
# timed as one region) report through it; the rest of bench/lib is library
# code that unit tests link too.
HELPER_SRCS  := $(wildcard bench/*-*.c)
SCENARIOS    := $(notdir $(basename $(filter-out $(HELPER_SRCS),$(wildcard bench/*.c))))
HARNESS_SRCS := bench/lib/harness.c bench/lib/fit.c bench/lib/settle.c bench/lib/tasks.c
BENCHLIB_SRCS := $(filter-out $(HARNESS_SRCS),$(wildcard bench/lib/*.c))
# reports/: one folder per stage of the pipeline (docs/design-notes.md),
# the mains at its top.  history/ alone needs SQLite, which mmstat and
# mmci (run inside --kernel guests) do without.
REPORT_STAGES := base rundir stats compare gate render plot profile
REPORT_SRCS  := $(foreach d,$(REPORT_STAGES),$(wildcard reports/$(d)/*.c))
HISTORY_SRCS := $(wildcard reports/history/*.c)
CONFIG_SRCS  := drivers/config/parse.c
TOOLS        := mmconfig mmstat mmci mmseqgate mmhistory mmprofile minimunlock
GSL          := -lgsl -lgslcblas

UNIT_SRCS    := $(wildcard tests/unit/test_*.c)
UNIT_BINS    := $(patsubst tests/unit/%.c,$(BUILD)/san/%,$(UNIT_SRCS))
SAN_OBJS     := $(patsubst %.c,$(BUILD)/san/obj/%.o,$(BENCHLIB_SRCS) $(REPORT_SRCS) $(HISTORY_SRCS))
SHELL_FILES  := run.sh compare.sh history.sh bisect.sh series.sh .ci/run $(wildcard drivers/*/*.sh libexec/*.sh \
                  reports/*/*.sh tools/*.sh tests/stats/*.sh tests/cli/*.bash tests/cli/*/*.bash tests/fleet/*.sh \
                  tests/kernels/*.sh tests/kernels/*.bash tests/bisect-build/*.sh tests/threads/*.sh tests/robot/*.sh tests/mutants/*.sh)

.PHONY: all static test selfcheck unit cli shellcheck lint deps install uninstall clean
all: $(addprefix $(BIN)/,$(SCENARIOS) $(TOOLS))

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# A bench's helpers, bench/X-*.c, are found when it is built: second
# expansion puts the stem into the wildcard.
.SECONDEXPANSION:
BENCH_DEPS = $$(call obj,bench/$$*.c $$(wildcard bench/$$*-*.c)) $(call obj,$(HARNESS_SRCS) $(BENCHLIB_SRCS))
# A library a bench preloads into the program it wraps (stressng into
# stress-ng), bench/preload/X-*.c, is build/lib/X-*.so, built with it.
PRELOADS := $(patsubst bench/preload/%.c,$(BUILD)/lib/%.so,$(wildcard bench/preload/*.c))
preloads_of = $(patsubst bench/preload/%.c,$(BUILD)/lib/%.so,$(wildcard bench/preload/$(1)-*.c))
$(BUILD)/lib/%.so: bench/preload/%.c
	@mkdir -p $(@D) $(OBJ)
	$(CC) $(CFLAGS) -Ibench $(DEPFLAGS) -MF $(OBJ)/preload-$*.d -shared -fPIC -o $@ $< -ldl
$(addprefix $(BIN)/,$(SCENARIOS)): $(BIN)/%: $(BENCH_DEPS) | $$(call preloads_of,$$*)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/mmconfig: $(call obj,drivers/config/mmconfig.c $(CONFIG_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(BIN)/mmstat $(BIN)/mmci $(BIN)/mmseqgate $(BIN)/mmprofile: $(BIN)/%: $(OBJ)/reports/%.o $(call obj,$(REPORT_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ $(GSL) $(LDLIBS)
$(BIN)/mmhistory: $(call obj,reports/mmhistory.c $(HISTORY_SRCS) $(REPORT_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 $(GSL) $(LDLIBS)
$(BIN)/minimunlock: $(OBJ)/tools/minimunlock.o
	$(CC) $(CFLAGS) -o $@ $^

# Static binaries for the initramfs of --kernel runs (the guest has no
# libc): the same objects, linked statically.  The guest's run.sh needs
# mmconfig, mmci (-i auto's stopping check) and mmstat (the result at the
# end of each bench).
static: $(addprefix $(STATIC)/,$(SCENARIOS) mmconfig mmci mmstat) $(PRELOADS)
$(addprefix $(STATIC)/,$(SCENARIOS)): $(STATIC)/%: $(BENCH_DEPS) | $$(call preloads_of,$$*)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(LDLIBS)
$(STATIC)/mmconfig: $(call obj,drivers/config/mmconfig.c $(CONFIG_SRCS))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(LDLIBS)
$(STATIC)/mmci $(STATIC)/mmstat: $(STATIC)/%: $(OBJ)/reports/%.o $(call obj,$(REPORT_SRCS))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(GSL) $(LDLIBS)

# The insns monitor's QEMU plugin (docs/monitors.md), built when a --kernel
# run asks for the monitor.  No Debian package ships qemu-plugin.h: the
# script takes it from the source package of the installed qemu, at its
# exact version, into build/include (docs/dependencies.md); `make
# qemu-plugin-header` takes it again, after an upgrade of qemu.
$(BUILD)/include/qemu-plugin.h:
	./libexec/qemu-plugin-header.sh $(@D)
.PHONY: qemu-plugin-header
qemu-plugin-header:
	./libexec/qemu-plugin-header.sh $(BUILD)/include
$(BUILD)/lib/insns-plugin.so: drivers/vm/insns-plugin.c drivers/vm/insns-marker.c drivers/vm/insns-marker.h \
		$(BUILD)/include/qemu-plugin.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -shared -fPIC -I$(BUILD)/include \
		$$(pkg-config --cflags glib-2.0) -o $@ $(filter %.c,$^)

# bin/ must exist before a link writes into it; objects make their own folders.
$(addprefix $(BIN)/,$(SCENARIOS) $(TOOLS)): | $(BIN)
$(BIN):
	@mkdir -p $@

# Unit tests are built with ASan/UBSan against every library source, each
# source compiled once for all of them.
$(BUILD)/san/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) -O1 $(SAN) -c -o $@ $<
# A test file declares its tests with TEST() (tests/unit/unit.h) and has no
# main(): tests/unit/main.c runs them, and fails unless as many are
# registered as the file has TEST( lines, the count UNIT_DECLARED gives it.
UNIT_MAIN := tests/unit/main.c tests/unit/unit.h
unit_cc    = $(CC) $(CFLAGS) -O1 $(SAN) -DUNIT_DECLARED=$$(grep -c '^TEST(' $<) -o $@ $(filter %.c %.o,$^)
$(BUILD)/san/%: tests/unit/%.c $(UNIT_MAIN) $(SAN_OBJS)
	@mkdir -p $(@D)
	$(unit_cc) -lcmocka -lsqlite3 $(GSL) $(LDLIBS)
$(BUILD)/san/test_config: tests/unit/test_config.c $(UNIT_MAIN) $(CONFIG_SRCS)
	@mkdir -p $(@D)
	$(unit_cc) -lcmocka $(LDLIBS)
$(BUILD)/san/test_insns_marker: CFLAGS += -Idrivers
$(BUILD)/san/test_insns_marker: tests/unit/test_insns_marker.c $(UNIT_MAIN) drivers/vm/insns-marker.c
	@mkdir -p $(@D)
	$(unit_cc) -lcmocka $(LDLIBS)

# The change-point detection's precision and recall on seeded synthetic
# series (a few minutes), and the time of `history.sh changes` over a
# generated history of 10,000 nightly runs of 4 benches.
.PHONY: test-history-stats
test-history-stats: $(BUILD)/cpsweep $(BUILD)/histgen $(BIN)/mmhistory
	./tests/stats/history-stats.sh
$(BUILD)/cpsweep: $(call obj,tests/stats/cpsweep.c $(REPORT_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ $(GSL) $(LDLIBS)
$(BUILD)/histgen: $(call obj,tests/stats/histgen.c $(HISTORY_SRCS) $(REPORT_SRCS))
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 $(GSL) $(LDLIBS)

# Not part of test (make test runs 2 rounds): 32 ingests and 4 readers of
# one history database at once, 20 rounds, 3-5 minutes on this machine.
.PHONY: test-history-race
test-history-race: all
	HISTORY_RACE_ROUNDS=20 bats --print-output-on-failure tests/cli/history/history_race.bats

# Every package set of libexec/deps.list; run.sh and compare.sh install
# only the sets they need.
deps:
	@./libexec/deps.sh

# Debian's cloud kernels for --kernel runs, vm.bats and the bisect tests:
# the 6.1 series the archive serves and two 6.12 builds, their vmlinuz and
# config only, in tests/cache/kernels (never installed, never committed).
.PHONY: test-kernels
test-kernels:
	@./tests/kernels/fetch-debian-kernels.sh

# Not part of test (about twenty minutes of boots): bisect.sh over the real
# Debian 6.1 series, images form, every step (with the 6.12 kernels) and
# tree form, against each image measured on its own; several images in one
# run.sh; a guest with two NUMA nodes.  make test checks the same logic
# with stand-ins.
.PHONY: test-bisect-series
test-bisect-series: all static
	bats --print-output-on-failure tests/kernels

# Not part of test (about 20 minutes of boots): each bench's resolution
# under icount from two boots of one kernel, the lines of
# drivers/vm/resolution.tsv (docs/vm.md).
.PHONY: test-resolution
test-resolution: all static
	./tests/kernels/resolution.sh

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

# Not part of test: what a guest kernel without THP gets, on a `make
# defconfig` kernel of Debian's linux-source-6.12 (71 min of build the
# first time on two busy cores, then 40 s; see docs/vm.md).
.PHONY: test-defconfig
test-defconfig: all static
	./tests/kernels/defconfig.sh

# Not part of test: two kernel test robot reports reproduced on Debian's
# linux-source-6.12 (the mseal walk, and a link-order change that moves code
# only), measured under icount and bisected (docs/robot.md).
.PHONY: test-robot
test-robot: all static
	./tests/robot/run.sh $(ROBOT_ARGS)

# Not part of test: the four threads undone on Debian's linux-source-6.1,
# each measured on base and undone kernels and bisected (about an hour
# and a half from scratch; see docs/threads.md).
.PHONY: test-threads
test-threads: all static
	./tests/threads/run.sh $(THREADS_ARGS)

# Not part of test (two TCG boots, minutes on a busy host): the contention
# monitor in a realtime guest with two vCPUs and in an icount one.
.PHONY: test-contention-guests
test-contention-guests: all static
	MMDELTA_CONTENTION_GUESTS=1 bats --print-output-on-failure -f 'in a guest' tests/cli/run/contention.bats

# Not part of test: the tests tried against the small realistic bugs of
# tests/mutants/ (docs/testing.md); each must be caught by a test that
# exercises the file it breaks.  MUTANTS=NAME... tries only those.
.PHONY: test-mutants
test-mutants: all $(UNIT_BINS)
	./tests/mutants/run.sh $(MUTANTS)

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

# The TAP stream is kept so the closing line can count it for CI's reader.
# The CLI tests in two phases.  The native ones measure this machine's own
# timings, so they run one file at a time with nothing beside them; the
# ones that boot icount guests or only compute (compare, history, vm) give
# the same results whatever the load, so they run NPROC files at a time
# (GNU parallel, bats --jobs).  CLI_JOBS=1 runs them one at a time too.
CLI_NATIVE   := tests/cli/bench tests/cli/run
CLI_PARALLEL := tests/cli/compare tests/cli/history tests/cli/vm
CLI_JOBS     ?= $(shell nproc)
cli: all
	@mkdir -p $(BUILD)
	@set -o pipefail; rc=0; \
	bats --print-output-on-failure -r $(CLI_NATIVE) | tee $(BUILD)/cli-native.tap || rc=1; \
	bats --print-output-on-failure --jobs $(CLI_JOBS) --no-parallelize-within-files -r $(CLI_PARALLEL) | \
		tee $(BUILD)/cli-parallel.tap || rc=1; \
	cat $(BUILD)/cli-native.tap $(BUILD)/cli-parallel.tap >$(BUILD)/cli.tap; \
	awk '/^ok / { p++ } /^not ok / { f++ } /^ok .* # skip/ { s++; p-- } \
		END { printf "cli: %d passed, %d failed, %d skipped\n", p, f, s }' $(BUILD)/cli.tap; exit $$rc

# check-unassigned-uppercase: a global read in a file that neither assigns it
# nor sources drivers/core/globals.sh, where the shared ones are declared, is an error.
shellcheck:
	shellcheck -x -o check-unassigned-uppercase $(SHELL_FILES)

# Every shell file sources what it calls; every header of reports/ declares
# what its own source defines; every negated check of a bats test can fail,
# and the lint that says so fails on its own cases (tests/lint/).
LINT_SHELL := run.sh compare.sh history.sh bisect.sh series.sh $(wildcard drivers/*/*.sh libexec/*.sh reports/*/*.sh)
LINT_BATS  := $(wildcard tests/cli/*.bash tests/cli/*/*.bats tests/cli/*/*.bash tests/fleet/*.bats \
                tests/fleet/*.bash tests/kernels/*.bats)
lint: all
	python3 tests/lint/sources.py $(LINT_SHELL)
	python3 tests/lint/headers.py
	python3 tests/lint/negations.py $(LINT_BATS)
	python3 tests/lint/negations.py --self-test

test: deps
	$(MAKE) -j$(shell nproc) all $(UNIT_BINS)
	$(MAKE) shellcheck lint
	$(MAKE) unit
	$(MAKE) fuzz-short
	$(MAKE) cli

# Not part of test: measures the suite itself for a quarter of an hour and
# rewrites docs/selfcheck.md.
selfcheck: all
	./tools/selfcheck.sh

# An installed tree is PREFIX/lib/mmdelta: the front doors, the shell,
# configs and report assets, with the binaries built here in bin/ and
# static/, and no C sources or Makefile, so nothing there runs make
# (drivers/core/build.sh).  Every front door NAME.sh gets
# PREFIX/bin/mmdelta-NAME, a relative link, so a tree staged under DESTDIR
# works where it is and where it lands, and a man page,
# PREFIX/share/man/man1/mmdelta-NAME.1, which help2man makes from the
# installed command's --help and --version (docs/install.md).
INSTALL_DIR     = $(DESTDIR)$(PREFIX)/lib/mmdelta
MAN_DIR         = $(DESTDIR)$(PREFIX)/share/man/man1
INSTALL_SCRIPTS := run.sh compare.sh bisect.sh series.sh history.sh
# Each man page's NAME line: what the command is for, in a few words.
MAN_NAME_run     := run memory-management microbenchmarks into a run directory
MAN_NAME_compare := compare run directories: tables, significance, a CI gate
MAN_NAME_bisect  := find the kernel or commit that changed a benchmark figure
MAN_NAME_series  := measure every commit of a patch series, one table
MAN_NAME_history := the history of runs: change points, a gate, trend charts
# man_page NAME: one help2man line of the recipe (the blank line ends it).
define man_page
	help2man --no-info --include=docs/man.h2m --name='$(MAN_NAME_$(1))' --output=$(MAN_DIR)/mmdelta-$(1).1 $(DESTDIR)$(PREFIX)/bin/mmdelta-$(1)

endef
install: all static
	./libexec/deps.sh install
	rm -rf $(INSTALL_DIR)
	install -d $(INSTALL_DIR)/bin $(INSTALL_DIR)/static $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/doc/mmdelta $(MAN_DIR)
	cp $(INSTALL_SCRIPTS) $(INSTALL_DIR)/
	find drivers libexec configs reports -type f ! -name '*.[ch]' -exec cp --parents -t $(INSTALL_DIR) {} +
	cp $(addprefix $(BIN)/,$(SCENARIOS) $(TOOLS)) $(INSTALL_DIR)/bin/
	cp $(STATIC)/* $(INSTALL_DIR)/static/
	install -d $(INSTALL_DIR)/lib $(INSTALL_DIR)/bench
	cp $(PRELOADS) $(INSTALL_DIR)/lib/
	cp bench/*.sh $(INSTALL_DIR)/bench/
	(git describe --always --dirty 2>/dev/null || echo unknown) >$(INSTALL_DIR)/VERSION
	cp -R README.md docs $(DESTDIR)$(PREFIX)/share/doc/mmdelta/
	for s in $(INSTALL_SCRIPTS:.sh=); do ln -sfn ../lib/mmdelta/$$s.sh $(DESTDIR)$(PREFIX)/bin/mmdelta-$$s; done
	$(foreach s,$(INSTALL_SCRIPTS:.sh=),$(call man_page,$(s)))

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/lib/mmdelta $(DESTDIR)$(PREFIX)/share/doc/mmdelta
	rm -f $(patsubst %.sh,$(DESTDIR)$(PREFIX)/bin/mmdelta-%,$(INSTALL_SCRIPTS))
	rm -f $(patsubst %.sh,$(MAN_DIR)/mmdelta-%.1,$(INSTALL_SCRIPTS))

clean:
	rm -rf $(BUILD)

include tests/fuzz/fuzz.mk
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
