# gangsim: make run | test | ci | lint | format-check | bench | figures | study-KEY | build
GO ?= go
PKGS := ./...
BIN := bin

# make run: the policies compared (one word each, e.g. POLICIES="easy
# conservative"; gs, sb and fcs alone are the thesis' set-up: MPL 6, EASY
# in front, DHC, replay --list-policies), the names the figure gives them,
# the hardware model that charges time sharing, and where the outputs go.
POLICIES ?= easy gs:mpl=1 gs sb fcs
LABELS ?= easy=EASY gs:mpl=1=batch gs=GS sb=SB fcs=FCS
HW ?= crescendo
# The thesis' 32 processors of Crescendo: 16 nodes of 2 PEs (6.4.1, Table 1.1).
MACHINE ?= 16x2
OUT ?= out

# make figures (and study-KEY, results/...csv): figure options passed to
# replay hw items and replay sweep, overriding the experiments' own; empty
# keeps them.
FIGURE_SIZE ?=
FIGURE_DPI ?=
FIGURE_FORMATS ?=
FIGURE_FLAGS := $(if $(FIGURE_SIZE),--figure-size $(FIGURE_SIZE)) $(if $(FIGURE_DPI),--figure-dpi $(FIGURE_DPI)) $(if $(FIGURE_FORMATS),--figure-formats $(FIGURE_FORMATS))

# The shared logs and pyss oracle (../shared next to the checkout):
# SHARED=DIR reads them from DIR instead, for every target (experiments,
# tests, benchmarks), as GANGSIM_SHARED=DIR does.
SHARED ?=
ifneq ($(SHARED),)
export GANGSIM_SHARED := $(abspath $(SHARED))
endif

.PHONY: all build run test test-slurm ci lint format-check vet bench bench-pipe fuzz figures clean clean-cache

all: build test

# The VCS revision --version prints: go build stamps it itself only when it
# finds the repository's .git directory (not in a git worktree) and
# GOFLAGS does not say -buildvcs=false, so make build also passes it in
# (internal/version.Revision), with +modified for uncommitted changes.
GIT_REVISION := $(shell git rev-parse HEAD 2>/dev/null)
GIT_MODIFIED := $(if $(GIT_REVISION),$(shell git status --porcelain --untracked-files=no 2>/dev/null | head -1))
BUILD_FLAGS := $(if $(GIT_REVISION),-buildvcs=true -ldflags "-X github.com/gangsim/gangsim/internal/version.Revision=$(GIT_REVISION)$(if $(GIT_MODIFIED),+modified)")

build:
	$(GO) build $(BUILD_FLAGS) -o $(BIN)/ ./cmd/...

# The main job on embedded defaults (no data downloaded): the thesis'
# dynamic workload (the preset thesis: 1000 Lublin-Feitelson jobs on 32
# processors with the thesis' statistics, loose estimates, time / 100) at
# offered load 74%, replayed under each of POLICIES on MACHINE (charged by
# HW, whose STORM mechanics the gang-scheduled policies model: the thesis'
# batch is gs at MPL 1 with EASY and DHC; plain easy beside it), a table
# comparing them ($(OUT)/summary.md, shown on the terminal without its
# manifest, which stays in the file) and the CDF of their response times
# ($(OUT)/responses.png, 16 x 10 cm at 300 dpi, its series named by
# LABELS).
RUN_COLUMNS := utilization,makespan_s,wait_s_mean,response_s_mean,response_s_median,ts_bsld_mean
run: build
	@mkdir -p $(OUT)
	$(BIN)/genwork lublin --preset thesis --load 0.74 --seed 1 -q -o $(OUT)/workload.parquet
	@for p in $(POLICIES); do echo "$(BIN)/replay --policy $$p --hw $(HW) --machine $(MACHINE) $(OUT)/workload.parquet -o $(OUT)/$$p.parquet"; \
		$(BIN)/replay --policy $$p --hw $(HW) --machine $(MACHINE) $(OUT)/workload.parquet -o $(OUT)/$$p.parquet -q || exit 1; done
	$(BIN)/analyze -q --by policy --columns $(RUN_COLUMNS) $(foreach p,$(POLICIES),$(OUT)/$(p).parquet) -o $(OUT)/summary.md
	$(BIN)/analyze -q --plot cdf --metric response --by policy --logx --dpi 300 --title "Response times, the thesis' workload at 74% load" $(foreach l,$(LABELS),--label $(l)) $(foreach p,$(POLICIES),$(OUT)/$(p).parquet) -o $(OUT)/responses.png
	@echo; sed '/^<!-- gangsim manifest/,/^-->/d' $(OUT)/summary.md
	@echo "table: $(OUT)/summary.md (with its manifest); figure: $(OUT)/responses.png"

# The test suite. CI (.ci/run) runs these same checks (format, vet, every
# test) and differs in two ways: it installs Node.js and DuckDB's npm
# package, Debian's python3-pandas and python3-matplotlib, slurm-wlm and
# munge, and sets GANGSIM_REQUIRE_DUCKDB=1, GANGSIM_REQUIRE_PYTHON=1,
# GANGSIM_REQUIRE_SLURM=1 and GANGSIM_REQUIRE_SHARED=1 (failing at once
# without ../shared or GANGSIM_SHARED), so the DuckDB, notebook, Slurm and
# shared-log tests must run there (here they skip when those are missing);
# and after make test it reruns
# the packages that start goroutines under the race detector, go test
# -race -short -count=1 ./internal/fileio ./internal/cli ./pipelines/...
# ./cmd/replay ./cmd/genwork ./cmd/analyze; and last it fuzzes whole
# replays for a minute, go test -run '^$' -fuzz '^FuzzReplay$' -fuzztime
# 60s ./cmd/replay, and analyze for half a minute, go test -run '^$' -fuzz
# '^FuzzAnalyze$' -fuzztime 30s ./cmd/analyze. make ci runs .ci/run
# itself.
# -timeout: TestResultsUpToDate reruns every experiment from an empty
# cache, the process-level SB and FCS replays of the dynamic items included
# (about 30 minutes of CPU, 21 of wall on two free cores), far past go
# test's default 10 minutes; 80 minutes leaves room for a machine twice
# as slow, or a busy one, inside CI's 90.
test: lint
	$(GO) test -count=1 -timeout 80m $(PKGS)

# The Slurm sweep test alone, on the single-node cluster it starts
# (conformance/slurm: needs root and Debian's slurm-wlm and munge). make test
# runs it too, and skips it without them.
test-slurm:
	GANGSIM_REQUIRE_SLURM=1 $(GO) test -count=1 -v -run 'TestSlurmSweep' ./cmd/replay

ci:
	bash .ci/run

format-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

lint: format-check vet

# Speed and memory targets are benchmarks; this prints their figures (the
# 10-million-job runs are separate, make bench-pipe: replay's and analyze's
# pipes, and 10^7 jobs submitted at once through FCFS and EASY, which holds
# every job in memory and takes minutes).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -skip 'Pipeline10M|AtOnce10M' $(PKGS)

bench-pipe:
	$(GO) test -run '^$$' -bench Pipeline10M -benchtime 1x ./cmd/replay ./cmd/analyze
	$(GO) test -run '^$$' -bench AtOnce10M -benchtime 1x -benchmem -timeout 60m ./policies

# Runs every fuzz target for FUZZTIME each (CI runs FuzzReplay and
# FuzzAnalyze alone, for a bounded time): whole replays from fuzzed
# traces, analyze on fuzzed outcomes tables, the SWF reader and writer, the CSV, Arrow and Parquet readers, the hardware preset JSON, the
# experiment and run JSON, the workload spec JSON. A failing input is
# written to the package's testdata/fuzz/<target>/; fix the bug and keep
# the input as a regression case.
FUZZTIME ?= 1m
FUZZ_TARGETS := \
	./cmd/replay:FuzzReplay ./cmd/analyze:FuzzAnalyze \
	./swf:FuzzRoundtrip \
	./columnar:FuzzCSVReader ./columnar:FuzzArrowReader ./columnar:FuzzParquetReader ./columnar:FuzzSecondsExact \
	./hwmodel/presets:FuzzLoad \
	./pipelines/analysis:FuzzExperiment \
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
	$(BIN)/replay hw items -o results $(FIGURE_FLAGS)
	$(BIN)/replay sweep -o results $(FIGURE_FLAGS) experiments/*/*.json
	$(BIN)/analyze report results

# A study of one's own: experiments/KEY/*.json, made into results/KEY/
# (cached like every sweep) and the report refreshed, e.g.
# make study-easy-vs-conservative.
study-%: build
	@ls experiments/$*/*.json >/dev/null 2>&1 || { echo "no experiments/$*/*.json"; exit 1; }
	$(BIN)/replay sweep -o results $(FIGURE_FLAGS) experiments/$*/*.json
	$(BIN)/analyze report results

# One item: make results/frachtenberg/fig-6.12.csv runs its experiment,
# make results/etsion/fig-5.csv its hardware model (the .png comes with it);
# make figures afterwards to refresh the report.
results/%.csv: build
	@if [ -f experiments/$*.json ]; then $(BIN)/replay sweep -o results $(FIGURE_FLAGS) experiments/$*.json; \
	else $(BIN)/replay hw items -o results $(FIGURE_FLAGS) --only $*; fi

clean:
	rm -rf $(BIN)

clean-cache:
	rm -rf .cache/gangsim
