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

test: build
	swift test 2>&1 | grep -v -e 'pthread' -e 'msse' ; exit $${PIPESTATUS[0]}

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

