# libFuzzer targets for the parsers that read user and run-directory input,
# which must refuse anything malformed in one line and never crash.
# Included by the Makefile.  `make fuzz-short` (part of
# `make test`) runs each target for FUZZ_SHORT seconds, `make fuzz` for
# FUZZ_SECONDS.  tests/fuzz/fuzz_NAME.c is built as build/fuzz/NAME.
FUZZ_CC      ?= clang
FUZZ_CFLAGS  := -g -O1 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Ibench/lib -Ireports -Idrivers/config \
                -Itests/fuzz -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SHORT   ?= 3
FUZZ_SECONDS ?= 60
FUZZ_STATS   := reports/rundir/samplesfile.c reports/rundir/metricsfile.c reports/rundir/benchdata.c \
                reports/rundir/tsv.c reports/base/xalloc.c reports/base/err.c tests/fuzz/infile.c
FUZZERS      := build/fuzz/config build/fuzz/size build/fuzz/metrics build/fuzz/samples
SHELL_FILES  += tests/fuzz/fuzz.sh

.PHONY: fuzz fuzz-short fuzzers
fuzzers: $(FUZZERS)

build/fuzz/config: tests/fuzz/fuzz_config.c drivers/config/parse.c drivers/config/parse.h
build/fuzz/size: tests/fuzz/fuzz_size.c bench/lib/size.c bench/lib/size.h
build/fuzz/metrics: tests/fuzz/fuzz_metrics.c $(FUZZ_STATS) reports/rundir/metricsfile.h reports/rundir/tsv.h
build/fuzz/samples: tests/fuzz/fuzz_samples.c $(FUZZ_STATS) reports/rundir/samplesfile.h reports/rundir/benchdata.h reports/rundir/tsv.h
$(FUZZERS):
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

fuzz-short: $(FUZZERS)
	@tests/fuzz/fuzz.sh $(FUZZ_SHORT) $(FUZZERS)
fuzz: $(FUZZERS)
	@tests/fuzz/fuzz.sh $(FUZZ_SECONDS) $(FUZZERS)
