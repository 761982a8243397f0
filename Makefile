# The README's two commands: `make demo` and `make test`. Both install what they need first.
SWIFT ?= swift
DEMO_TRACE ?= Traces/open-close.jsonl
BENCH_LINES ?= 1000000

.PHONY: demo test deps bench lint format docs

# json-c is the project's JSON library (SPEC 2); install it when pkg-config cannot find it.
deps:
	@if ! pkg-config --exists json-c 2>/dev/null; then \
	  echo "Installing libjson-c-dev and pkg-config…"; \
	  apt-get update -qq && apt-get install -y -qq libjson-c-dev pkg-config >/dev/null; \
	fi

demo: deps
	@$(SWIFT) build -c release --product crease 2>&1 | tail -n 1
	.build/release/crease replay --format text --summary $(DEMO_TRACE)

test: deps
	$(SWIFT) build
	$(SWIFT) test

bench: deps
	$(SWIFT) build -c release
	.build/release/crease-bench $(BENCH_LINES)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks

docs:
	$(SWIFT) build --target Crease -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc .build/symbol-graphs
	docc convert Sources/Crease/Crease.docc --additional-symbol-graph-dir .build/symbol-graphs --output-path .docc-build
