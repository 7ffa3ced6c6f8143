# rtctrace: `make run` replays a bundled trace, `make test` runs everything CI checks.
SHELL := /bin/bash
SWIFT ?= swift
DEBUG_BIN := .build/debug/rtctrace
RELEASE_BIN := .build/release/rtctrace
DEMO_TRACE ?= traces/srtc-bluetooth-blocks-speaker.jsonl

.PHONY: all deps build release run test bench fuzz clean

all: build

# Installs the system packages the build and tests need, only when they are missing.
deps:
	@missing=""; if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	pkg-config --exists libzstd 2>/dev/null || missing="$$missing libzstd-dev"; \
	command -v pkg-config >/dev/null || missing="$$missing pkg-config"; \
	command -v zstd >/dev/null || missing="$$missing zstd"; \
	command -v python3 >/dev/null || missing="$$missing python3"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi; \
	python3 -c 'import junitparser' 2>/dev/null || python3 -m pip install -q junitparser 2>/dev/null || \
	  { $$SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-junitparser >/dev/null; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product rtctrace

# Replays a bundled trace; findings in a trace are a successful run (explain exits 1 for them).
run: release
	@$(RELEASE_BIN) explain $(DEMO_TRACE); rc=$$?; [ $$rc -le 1 ] || exit $$rc

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(DEBUG_BIN) check traces/

bench: release
	@command -v hyperfine >/dev/null || { if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  echo "installing: hyperfine"; $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq hyperfine >/dev/null; }
	$(SWIFT) build -c release --static-swift-stdlib --product rtctrace-bench
	@bash benchmarks/run.sh

# libFuzzer targets (fuzz/, a separate package): frame reader, record decoder, full replay,
# FUZZ_SECONDS each. Crashes land in fuzz/artifacts/; copy them to fuzz/regressions/, which
# `make test` replays (RobustnessTests).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= frames decoder replay
fuzz: deps
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
