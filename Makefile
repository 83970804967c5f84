# gangsim: make test | lint | format-check | bench | figures | build
GO ?= go
PKGS := ./...

.PHONY: all build test lint format-check vet bench figures clean

all: build test

build:
	$(GO) build -o bin/ ./cmd/...

# The test command the README and CI use.
test:
	$(GO) test -count=1 $(PKGS)

format-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

lint: format-check vet

# Speed and memory targets are benchmarks; this prints their figures.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 1x $(PKGS)

# Regenerates every reproduced table and figure into results/ (filled in by
# the reproduction issues).
figures:
	@echo "figures: no reproduced items yet"

clean:
	rm -rf bin
