# Oekaki: every target installs what it needs first, so a fresh Debian 12 machine (as root) just works.
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build, the tests and the peers need. Installed only when missing.
DEPS := libgtk-4-dev libepoxy-dev libcairo2-dev libpango1.0-dev libgdk-pixbuf-2.0-dev libsqlite3-dev zlib1g-dev libdeflate-dev libpoppler-glib-dev \
        xvfb xdotool imagemagick poppler-utils librsvg2-bin xournalpp x11-utils \
        gettext desktop-file-utils appstream shared-mime-info xdg-utils libglib2.0-bin fonts-ipafont-gothic \
        dpkg-dev lintian bash-completion gsettings-desktop-schemas libnats-dev nats-server \
        libgtk-4-bin chromium chromium-driver python3-venv \
        python3-gi gir1.2-gtk-4.0 xclip
# The touch tests drive headless Chromium with Selenium (PyPI), kept in a virtual environment under .build.
TOUCH_VENV := .build/touch-venv
FUZZ_SECONDS ?= 60

# Installation (make install / uninstall / deb). One app id everywhere: GApplication, .desktop, metainfo, icons.
APP_ID := io.github.oekaki.Oekaki
VERSION := $(shell sed -nE 's/.*static let version = "([^"]+)".*/\1/p' Sources/OekakiApp/Window/AppInfo.swift)
PREFIX ?= /usr/local
DESTDIR ?=
# The binary to install; empty means: build the release binary first. The thumbnailer is the one beside it.
OEKAKI_BIN ?=
THUMBNAILER_BIN = $(if $(OEKAKI_BIN),$(dir $(OEKAKI_BIN))oekaki-thumbnailer,.build/release/oekaki-thumbnailer)
LOCALES := $(shell cat po/LINGUAS 2>/dev/null)
MO_FILES := $(foreach l,$(LOCALES),.build/locale/$(l)/LC_MESSAGES/oekaki.mo)

.PHONY: deps build release run test bench fuzz bigdoc clean locale pot install uninstall refresh-caches deb touch-venv

deps:
	@missing=$$(for p in $(DEPS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps locale
	swift build

release: deps locale
	swift build -c release

# Translations: po/LL.po → .build/locale/LL/LC_MESSAGES/oekaki.mo (where the app looks when run from .build/*/).
locale: $(MO_FILES)

.build/locale/%/LC_MESSAGES/oekaki.mo: po/%.po
	@mkdir -p $(@D)
	msgfmt --check -o $@ $<

# Regenerates po/oekaki.pot from the sources (Tools/extract-strings.sh says which calls), then merges it into each .po.
pot:
	Tools/extract-strings.sh po/oekaki.pot $(VERSION)
	for l in $(LOCALES); do msgmerge -q --update --backup=none po/$$l.po po/oekaki.pot; done

install: $(if $(OEKAKI_BIN),,release) locale
	$(eval ROOT := $(DESTDIR)$(PREFIX))
	install -Dm755 $(or $(OEKAKI_BIN),.build/release/oekaki) $(ROOT)/bin/oekaki
	install -Dm755 $(THUMBNAILER_BIN) $(ROOT)/bin/oekaki-thumbnailer
	install -Dm644 desktop/$(APP_ID).desktop $(ROOT)/share/applications/$(APP_ID).desktop
	install -Dm644 desktop/$(APP_ID).svg $(ROOT)/share/icons/hicolor/scalable/apps/$(APP_ID).svg
	install -Dm644 desktop/$(APP_ID)-symbolic.svg $(ROOT)/share/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg
	install -Dm644 desktop/application-x-oekaki.svg $(ROOT)/share/icons/hicolor/scalable/mimetypes/application-x-oekaki.svg
	install -Dm644 desktop/$(APP_ID).mime.xml $(ROOT)/share/mime/packages/$(APP_ID).xml
	install -Dm644 desktop/$(APP_ID).thumbnailer $(ROOT)/share/thumbnailers/$(APP_ID).thumbnailer
	install -Dm644 desktop/$(APP_ID).metainfo.xml $(ROOT)/share/metainfo/$(APP_ID).metainfo.xml
	install -Dm644 desktop/oekaki.1 $(ROOT)/share/man/man1/oekaki.1
	install -Dm644 desktop/oekaki-thumbnailer.1 $(ROOT)/share/man/man1/oekaki-thumbnailer.1
	install -Dm644 desktop/oekaki.bash-completion $(ROOT)/share/bash-completion/completions/oekaki
	for l in $(LOCALES); do install -Dm644 .build/locale/$$l/LC_MESSAGES/oekaki.mo $(ROOT)/share/locale/$$l/LC_MESSAGES/oekaki.mo; done
	$(if $(DESTDIR),,$(MAKE) --no-print-directory refresh-caches)

uninstall:
	$(eval ROOT := $(DESTDIR)$(PREFIX))
	rm -f $(ROOT)/bin/oekaki $(ROOT)/bin/oekaki-thumbnailer $(ROOT)/share/applications/$(APP_ID).desktop \
	  $(ROOT)/share/icons/hicolor/scalable/apps/$(APP_ID).svg $(ROOT)/share/icons/hicolor/symbolic/apps/$(APP_ID)-symbolic.svg \
	  $(ROOT)/share/icons/hicolor/scalable/mimetypes/application-x-oekaki.svg $(ROOT)/share/mime/packages/$(APP_ID).xml \
	  $(ROOT)/share/thumbnailers/$(APP_ID).thumbnailer $(ROOT)/share/metainfo/$(APP_ID).metainfo.xml \
	  $(ROOT)/share/man/man1/oekaki.1 $(ROOT)/share/man/man1/oekaki-thumbnailer.1 $(ROOT)/share/bash-completion/completions/oekaki
	for l in $(LOCALES); do rm -f $(ROOT)/share/locale/$$l/LC_MESSAGES/oekaki.mo; done
	$(if $(DESTDIR),,$(MAKE) --no-print-directory refresh-caches)

# Debian package: a release binary with the Swift runtime linked in (own scratch path, so `make run`'s build
# stays as it is). A file target: an up-to-date package is not rebuilt (the package test reuses it).
DEB := oekaki_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null || echo amd64).deb
DEB_INPUTS := Package.swift Makefile $(shell find Sources desktop packaging po -type f 2>/dev/null)

deb: deps $(DEB)

$(DEB): $(DEB_INPUTS)
	swift build -c release --static-swift-stdlib --scratch-path .build/deb
	packaging/deb.sh .build/deb/release/oekaki $(VERSION) $@

# The system's MIME, icon and launcher caches (only for a real install; packagers run them from triggers).
refresh-caches:
	-update-mime-database $(PREFIX)/share/mime
	-gtk-update-icon-cache -q -t -f $(PREFIX)/share/icons/hicolor
	-update-desktop-database -q $(PREFIX)/share/applications

run: release
	.build/release/oekaki

# Selenium for the touch tests (Tools/touch-driver.py), installed only when the venv lacks it.
touch-venv: deps
	@$(TOUCH_VENV)/bin/python -c 'import selenium' 2>/dev/null || { \
	  echo "installing selenium into $(TOUCH_VENV)"; \
	  /usr/bin/python3 -m venv $(TOUCH_VENV) && $(TOUCH_VENV)/bin/pip install -q selenium; }

# The C boundary first (Tools/check-c-boundary.sh: C calls and raw pointers only in the wrapper files ARCHITECTURE.md
# lists), then XCTest only (no Swift Testing suites exist); the last line is a plain "N passed, N failed" tally.
test: build touch-venv
	@Tools/check-c-boundary.sh
	@OEKAKI_REQUIRE_TOUCH=1 swift test --disable-swift-testing 2>&1 | grep --line-buffered -v -e '-pthread' -e '-msse' | tee .build/test.log; \
	status=$${PIPESTATUS[0]}; \
	line=$$(grep -E 'Executed [0-9]+ tests?, with' .build/test.log | tail -1); \
	run=$$(echo "$$line" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/'); \
	skipped=$$(echo "$$line" | sed -nE 's/.* ([0-9]+) tests? skipped.*/\1/p'); \
	failed=$$(echo "$$line" | sed -E 's/.* ([0-9]+) failures?.*/\1/'); \
	echo "$$(( $${run:-0} - $${skipped:-0} - $${failed:-0} )) passed, $${failed:-0} failed, $${skipped:-0} skipped"; \
	exit $$status

bench: release touch-venv
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

