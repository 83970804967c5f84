# gangsim: make run | test | lint | format-check | bench | figures | build
GO ?= go
PKGS := ./...
BIN := bin

.PHONY: all build run test lint format-check vet bench bench-pipe fuzz figures clean clean-cache

all: build test

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# The main job on embedded defaults (no data downloaded): the thesis' dynamic
# workload (1000 Lublin-Feitelson jobs on 32 processors, loose estimates,
# time / 100, offered load 74%) replayed under EASY and summarized.
run: build
	$(BIN)/genwork lublin --jobs 1000 --procs 32 --app --estimates loose --compress 100 --load 0.74 --seed 1 \
		| $(BIN)/replay --policy easy \
		| $(BIN)/analyze --format md

# The test command the README and CI use.
test:
	$(GO) test -count=1 $(PKGS)

format-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

lint: format-check vet

# Speed and memory targets are benchmarks; this prints their figures (the
# 10-million-job pipe is separate: make bench-pipe).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -skip Pipeline10M $(PKGS)

bench-pipe:
	$(GO) test -run '^$$' -bench Pipeline10M -benchtime 1x ./cmd/replay

# Runs every fuzz target for FUZZTIME each (not in CI): the SWF reader and
# writer, the CSV, Arrow and Parquet readers, the hardware preset JSON, the
# experiment and run JSON, the workload spec JSON. A failing input is
# written to the package's testdata/fuzz/<target>/; fix the bug and keep
# the input as a regression case.
FUZZTIME ?= 1m
FUZZ_TARGETS := \
	./swf:FuzzRoundtrip \
	./columnar:FuzzCSVReader ./columnar:FuzzArrowReader ./columnar:FuzzParquetReader ./columnar:FuzzSecondsExact \
	./hwmodel/presets:FuzzLoad \
	./pipelines:FuzzExperiment \
	./workload:FuzzParseSpec

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t#*:}; \
		echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

# Regenerates every reproduced table and figure into results/<paper>/ and
# results/REPRODUCTION.md: the hardware models' reproductions, then every
# experiment (runs cached in .cache/gangsim; a rerun skips finished ones).
figures: build
	$(BIN)/replay hw items -o results
	$(BIN)/replay sweep -o results experiments/*/*.json
	$(BIN)/analyze report results

# One item: make results/frachtenberg/fig-6.12.csv runs its experiment,
# make results/etsion/fig-5.csv its hardware model (the .png comes with it);
# make figures afterwards to refresh the report.
results/%.csv: build
	@if [ -f experiments/$*.json ]; then $(BIN)/replay sweep -o results experiments/$*.json; \
	else $(BIN)/replay hw items -o results --only $*; fi

clean:
	rm -rf $(BIN)

clean-cache:
	rm -rf .cache/gangsim
