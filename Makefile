# chatctl — build, demo, test, bench, install.
# Every target installs the Debian packages it needs (apt-get; run as root or
# with sudo available), so `make demo` and `make test` work on a fresh machine.

PREFIX   ?= /usr/local
SWIFT    ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
RELEASE  := $(SWIFT) build -c release --static-swift-stdlib
BIN_REL  := .build/release

BUILD_PACKAGES := pkg-config libcurl4-openssl-dev libsqlite3-dev libstrophe-dev libssl-dev libevent-dev libexpat1-dev openssl
TEST_PACKAGES  := prosody go-sendxmpp sqlite3 fish zsh groff-base
BENCH_PACKAGES := hyperfine go-sendxmpp sqlite3 curl python3

.PHONY: all build release demo test bench install uninstall clean deps-build deps-test deps-bench

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

build: deps-build
	$(SWIFT) build

release: deps-build
	$(RELEASE)

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
	@scripts/bench.sh $(BIN_REL)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN_REL)/chatctl $(BIN_REL)/chatctl-sandbox $(DESTDIR)$(PREFIX)/bin/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/chatctl $(DESTDIR)$(PREFIX)/bin/chatctl-sandbox

clean:
	rm -rf .build
