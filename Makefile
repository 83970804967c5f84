# gangsim: make run | test | lint | format-check | bench | figures | build
GO ?= go
PKGS := ./...
BIN := bin

.PHONY: all build run test lint format-check vet bench bench-pipe figures clean clean-cache

all: build test

build:
	$(GO) build -o $(BIN)/ ./cmd/...

# The main job on embedded defaults (no data downloaded): the thesis' dynamic
# workload (the preset thesis: 1000 Lublin-Feitelson jobs on 32 processors
# with the thesis' statistics, loose estimates, time / 100) at offered load
# 74%, replayed under EASY and summarized.
run: build
	$(BIN)/genwork lublin --preset thesis --load 0.74 --seed 1 \
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
