# Oekaki: every target installs what it needs first, so a fresh Debian 12 machine (as root) just works.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build, the tests and the peers need. Installed only when missing.
DEPS := libgtk-4-dev libcairo2-dev libsqlite3-dev zlib1g-dev \
        xvfb xdotool imagemagick poppler-utils librsvg2-bin xournalpp x11-utils
FUZZ_SECONDS ?= 60

.PHONY: deps build release run test bench fuzz bigdoc clean

deps:
	@missing=$$(for p in $(DEPS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	swift build

release: deps
	swift build -c release

run: release
	.build/release/oekaki

# XCTest only (no Swift Testing suites exist); the last line is a plain "N passed, N failed" tally.
test: build
	@swift test --disable-swift-testing 2>&1 | grep --line-buffered -v -e '-pthread' -e '-msse' | tee .build/test.log; \
	status=$${PIPESTATUS[0]}; \
	line=$$(grep -E 'Executed [0-9]+ tests?, with' .build/test.log | tail -1); \
	run=$$(echo "$$line" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/'); \
	skipped=$$(echo "$$line" | sed -nE 's/.* ([0-9]+) tests? skipped.*/\1/p'); \
	failed=$$(echo "$$line" | sed -E 's/.* ([0-9]+) failures?.*/\1/'); \
	echo "$$(( $${run:-0} - $${skipped:-0} - $${failed:-0} )) passed, $${failed:-0} failed, $${skipped:-0} skipped"; \
	exit $$status

bench: release
	.build/release/oekaki-bench --write BENCHMARKS.md

clean:
	rm -rf .build

# libFuzzer harnesses (Fuzz/): builds with -sanitize=fuzzer,address, then runs each target FUZZ_SECONDS.
# Not part of `make test`. Crashes land in .build/fuzz/crashes/<target>/ and fail the target.
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/fuzz.sh all

# Manual check (not in make test): a 10,000,000-point document opens and exports as PNG within 1 GiB.
bigdoc: build
	Fuzz/big-document.sh

