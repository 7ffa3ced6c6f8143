# rtctrace: `make run` replays a bundled trace, `make test` runs everything CI checks.
SHELL := /bin/bash
SWIFT ?= swift
DEBUG_BIN := .build/debug/rtctrace
RELEASE_BIN := .build/release/rtctrace
DEMO_TRACE ?= traces/srtc-bluetooth-blocks-speaker.jsonl

.PHONY: all deps run-deps test-deps build release run test ratchet bench bench-recorder fuzz clean

all: build

# apt-get install for the packages named in $(1) that are missing (as root, else with sudo).
define apt_install
	if [ -n "$(strip $(1))" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  echo "installing: $(strip $(1))"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(1) >/dev/null; \
	fi
endef

# What building and running need, and nothing else: the zstd library and pkg-config to find it.
run-deps:
	@missing=""; \
	pkg-config --exists libzstd 2>/dev/null || missing="$$missing libzstd-dev"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	$(call apt_install,$$missing)

# What the tests need on top: the stock zstd command (container tests, and every recorder compression
# path), git (the recorder's tagged-dependency test), GNU time, Chromium (the browser test of the HTML
# report), python3 with junitparser (the JUnit output test; pip, else Debian's package) and DuckDB's
# Python package (the SQL test of triage rows; pip, as a user package where the system Python is
# externally managed), valgrind and taskset (the ratchet's instruction counts, on one core). No test
# installs anything itself.
test-deps: run-deps
	@missing=""; \
	command -v zstd >/dev/null || missing="$$missing zstd"; \
	command -v valgrind >/dev/null || missing="$$missing valgrind"; \
	command -v taskset >/dev/null || missing="$$missing util-linux"; \
	command -v git >/dev/null || missing="$$missing git"; \
	command -v python3 >/dev/null || missing="$$missing python3"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	command -v chromium >/dev/null || command -v chromium-browser >/dev/null || missing="$$missing chromium"; \
	$(call apt_install,$$missing)
	@python3 -c 'import junitparser' 2>/dev/null || python3 -m pip install -q junitparser 2>/dev/null || \
	  { $(call apt_install,python3-junitparser); }
	@python3 -c 'import duckdb' 2>/dev/null || python3 -m pip install -q duckdb 2>/dev/null || \
	  python3 -m pip install -q --user --break-system-packages duckdb

# Everything (kept for habit): what the tests need includes what running needs.
deps: test-deps

build: run-deps
	$(SWIFT) build

release: run-deps
	$(SWIFT) build -c release --static-swift-stdlib --product rtctrace

# Replays a bundled trace; findings in a trace are a successful run (explain exits 1 for them).
run: release
	@$(RELEASE_BIN) explain $(DEMO_TRACE); rc=$$?; [ $$rc -le 1 ] || exit $$rc

# The recorder's tests run again with each other way of making frames: the project's own stored-block
# encoder, and a compressor passed in as an SDK that links its own zstd does (Tests/TraceRecorderTests).
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	RTCTRACE_RECORDER_COMPRESSION=stored $(SWIFT) test --skip-build --filter TraceRecorderTests --skip DependencyTests
	RTCTRACE_RECORDER_COMPRESSION=injected $(SWIFT) test --skip-build --filter TraceRecorderTests --skip DependencyTests
	$(DEBUG_BIN) check traces/
	# The writer harness (test code in TestSupport, run as a child of the test executable) builds in release too.
	$(SWIFT) build -c release --target TestSupport
	$(MAKE) --no-print-directory ratchet

# The ratchet: allocations per record, instructions against zstd -dc, timers fired per record and the
# replayed record's size, counted on the release binary and the bench sessions and held to
# benchmarks/budget.json (docs/performance.md). Counts, not times: the same on every run.
ratchet: test-deps release
	$(SWIFT) build --package-path benchmarks --product ratchet-figures
	@bash benchmarks/ratchet.sh

bench: release
	@command -v hyperfine >/dev/null || { if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  echo "installing: hyperfine"; $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq hyperfine >/dev/null; }
	@missing=""; command -v valgrind >/dev/null || missing="valgrind"; $(call apt_install,$$missing)
	$(SWIFT) build -c release --static-swift-stdlib --package-path benchmarks
	$(SWIFT) build --package-path benchmarks --product ratchet-figures
	@bash benchmarks/run.sh

# The recorder's figures alone (benchmarks/recorder.sh), measured as make bench measures them.
bench-recorder:
	$(SWIFT) build -c release --static-swift-stdlib --package-path benchmarks
	@bash benchmarks/recorder.sh

# libFuzzer targets (fuzz/, a separate package): frame reader, record decoder, full replay,
# FUZZ_SECONDS each. Crashes land in fuzz/artifacts/; copy them to fuzz/regressions/, which
# `make test` replays (RobustnessTests).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= frames decoder replay limits
fuzz: run-deps
	cd fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library
	@cd fuzz && ./seed-corpus.sh && mkdir -p artifacts && status=0; \
	for t in $(FUZZ_TARGETS); do \
	  bin=.build/release/Fuzz$$(echo $${t:0:1} | tr a-z A-Z)$${t:1}; \
	  echo "== fuzz $$t for $(FUZZ_SECONDS)s"; \
	  SWIFT_BACKTRACE=enable=no $$bin -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 \
	    -print_final_stats=1 -artifact_prefix=artifacts/$$t- corpus/$$t 2>&1 \
	    | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|Fatal error|artifact_prefix)' ; \
	  [ $${PIPESTATUS[0]} -eq 0 ] || status=1; \
	done; exit $$status

clean:
	rm -rf .build
