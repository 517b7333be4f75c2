# chatctl — build, demo, test, bench, install.
# Every target installs the Debian packages it needs (apt-get; run as root or
# with sudo available), so `make demo` and `make test` work on a fresh machine.

PREFIX   ?= /usr/local
# Conventional places for man pages and shell completions below PREFIX.
MANDIR      ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# config.example.json, which chatctl's "no config" error names when it is here.
DOCDIR      ?= $(PREFIX)/share/doc/chatctl
PROGRAMS    := chatctl chatctl-sandbox
SWIFT    ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
# No $ORIGIN rpath: the binaries need no library of their own, and the loader would
# search that directory (and its glibc-hwcaps subdirectories) at every start.
# -I: the header scripts/build-stamp.sh writes, with the version from git, for Sources/Shims/CBuildInfo.
STAMP_DIR := $(CURDIR)/.build/stamp
RELEASE  := $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath -Xcc -I$(STAMP_DIR)
BIN_REL  := .build/release

# libsqlite3-dev also holds the libsqlite3.a chatctl links (GCC's libstdc++.a comes with
# libstdc++-N-dev, which the Swift toolchain itself needs). libstb-dev and libchafa-dev:
# image previews in the chat view; libglib2.0-dev because
# chafa's headers include GLib's and Debian's libchafa-dev does not pull them in.
BUILD_PACKAGES := pkg-config libcurl4-openssl-dev libsqlite3-dev libstrophe-dev libssl-dev libevent-dev libexpat1-dev libwebsockets-dev libmicrohttpd-dev libmagic-dev libncurses-dev openssl libstb-dev libchafa-dev libglib2.0-dev
# chromium and libjs-strophe: a web chat client (Strophe.js) for the XMPP-over-WebSocket test;
# curl: the multipart uploads and ranged downloads of the sandbox's storage tests;
# python3-slixmpp: a standard XMPP client library for the sandbox's conformance suite;
# tmux: a real terminal for the chat view's end-to-end tests;
# libnotify4 (loaded by `listen --notify` alone, so no build needs it), dbus (dbus-run-session),
# python3-dbus and python3-gi: listen --notify's test, with a stub notification service;
# python3-jsonschema: checks the sandbox's answers against QuickBlox's REST reference;
# node-jasmine: jasmine-core, which runs QuickBlox's own SDK suite in Chromium.
TEST_PACKAGES  := prosody go-sendxmpp sqlite3 fish zsh groff-base chromium libjs-strophe curl python3-slixmpp tmux libnotify4 dbus python3-dbus python3-gi python3-jsonschema node-jasmine
BENCH_PACKAGES := hyperfine go-sendxmpp sqlite3 curl python3 gnuplot-nox
DOCS_PACKAGES  := graphviz
# make deb and make test-package: Debian's packaging tools, adduser (the sandbox's
# postinst), and what the install test runs (man -w, systemd-analyze verify).
DEB_PACKAGES   := dpkg-dev lintian adduser man-db systemd
DEB_OUT        ?= dist
# tmux: the soak's two chat views; jq: reading the listens' JSON Lines.
SOAK_PACKAGES  := tmux jq

.PHONY: all build release demo test bench bench-cache fuzz soak sanitize docs install install-built uninstall clean deps-build deps-test deps-bench deps-docs deb test-package deps-deb deps-soak

all: build

# Installs whichever of the named Debian packages are missing.
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${db:Status-Status}' $$p 2>/dev/null | grep -qx installed || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "make: installing Debian packages:" $$missing; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

deps-build:
	$(call apt_install,$(BUILD_PACKAGES))
deps-test: deps-build
	$(call apt_install,$(TEST_PACKAGES))
deps-bench: deps-build
	$(call apt_install,$(BENCH_PACKAGES))
deps-docs:
	$(call apt_install,$(DOCS_PACKAGES))
deps-deb:
	$(call apt_install,$(DEB_PACKAGES))
deps-soak: deps-build
	$(call apt_install,$(SOAK_PACKAGES))

build: deps-build
	$(SWIFT) build

release: deps-build
	@scripts/build-stamp.sh $(STAMP_DIR) $(SWIFT)
	$(RELEASE)

# chatctl and chatctl-sandbox as Debian packages in $(DEB_OUT), checked by lintian.
deb: deps-deb release
	@scripts/build-deb.sh $(BIN_REL) $(DEB_OUT)

# Installs the packages into this machine, uses them, removes and purges them (.ci/run).
test-package: deb
	@scripts/test-package.sh $(DEB_OUT)

# Starts a sandbox, shows the whole login flow, stops the sandbox.
demo: release
	@scripts/demo.sh $(BIN_REL)

# Unit, end-to-end and interop tests; starts (and stops) every server it needs.
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Speed figures beside named baselines, from the release build.
bench: deps-bench release
	$(RELEASE) --product BenchFixture
	$(RELEASE) --product BenchLoad
	@scripts/bench.sh $(BIN_REL)

# The cache's own calls timed in-process over a million messages (no chatctl around them):
# where bench's dialogs, history and search figures stand against the SQLite work under them.
bench-cache: deps-build release
	$(RELEASE) --product BenchFixture
	$(BIN_REL)/BenchFixture --timings $${TMPDIR:-/tmp}/chatctl-bench-cache.sqlite

# libFuzzer targets (Fuzz/Targets, with AddressSanitizer) run FUZZ_SECONDS each over
# their committed corpus (Fuzz/Corpus), FUZZ_JOBS at a time; crashes go to .build-fuzz, and
# the inputs that add coverage join Fuzz/Corpus/<target> (FUZZ_MERGE=0: they stay in .build-fuzz).
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_MERGE   ?= 1
FUZZ_TARGETS := FuzzSandboxJSON FuzzSandboxXML FuzzSandboxREST FuzzClientResponses FuzzClientStanzas FuzzArguments
fuzz: deps-build
	@SWIFT=$(SWIFT) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_MERGE=$(FUZZ_MERGE) scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# SOAK_MINUTES (30) of chat views, listens, a send --lines trickle and attachments against a
# sandbox restarted every five minutes, then checks of delivery, files, memory and descriptors
# (not part of make test: docs/faults.md, "Soak").
SOAK_MINUTES ?= 30
soak: deps-soak release
	@SOAK_MINUTES=$(SOAK_MINUTES) scripts/soak.sh $(BIN_REL)

# The unit suites under AddressSanitizer and under ThreadSanitizer, each in a build
# directory of its own (not part of make test: docs/faults.md says how long it takes).
# SANITIZERS=address or thread runs one.
SANITIZERS ?= address thread
sanitize: deps-test
	@SWIFT=$(SWIFT) scripts/sanitize.sh $(SANITIZERS)

# The binaries, their man pages and their bash, zsh and fish completions.
# The module graph picture in docs/architecture.md, from docs/modules.dot
# (edges implied by others left out); the rendered SVG is committed.
docs: deps-docs
	tred docs/modules.dot | dot -Tsvg -o docs/modules.svg

install: release
	@$(MAKE) --no-print-directory install-built BIN=$(BIN_REL)

# Installs binaries already built in $(BIN); the pages and completions are
# what the binaries themselves print, so they always match the program.
BIN ?= $(BIN_REL)
install-built:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 $(addprefix $(BIN)/,$(PROGRAMS)) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 config.example.json $(DESTDIR)$(DOCDIR)/config.example.json
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for p in $(PROGRAMS); do \
		$(BIN)/$$p help --man > "$$tmp/$$p.1"; \
		$(BIN)/$$p completion bash > "$$tmp/$$p.bash"; \
		$(BIN)/$$p completion zsh > "$$tmp/_$$p"; \
		$(BIN)/$$p completion fish > "$$tmp/$$p.fish"; \
		install -m 0644 "$$tmp/$$p.1" $(DESTDIR)$(MANDIR)/$$p.1; \
		install -m 0644 "$$tmp/$$p.bash" $(DESTDIR)$(BASHCOMPDIR)/$$p; \
		install -m 0644 "$$tmp/_$$p" $(DESTDIR)$(ZSHCOMPDIR)/_$$p; \
		install -m 0644 "$$tmp/$$p.fish" $(DESTDIR)$(FISHCOMPDIR)/$$p.fish; \
		echo "installed $$p, $(MANDIR)/$$p.1 and its completions"; \
	done

uninstall:
	for p in $(PROGRAMS); do \
		rm -f $(DESTDIR)$(PREFIX)/bin/$$p $(DESTDIR)$(MANDIR)/$$p.1 $(DESTDIR)$(BASHCOMPDIR)/$$p \
		      $(DESTDIR)$(ZSHCOMPDIR)/_$$p $(DESTDIR)$(FISHCOMPDIR)/$$p.fish; \
	done
	rm -f $(DESTDIR)$(DOCDIR)/config.example.json
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
	rm -f $(DEB_OUT)/chatctl_*.deb $(DEB_OUT)/chatctl-sandbox_*.deb
