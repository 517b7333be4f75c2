#!/bin/sh
# make sanitize: the unit suites (every test target but EndToEndTests and InteropTests,
# which spawn the real binaries and servers) built with each SANITIZER into a build
# directory of its own (.build-asan, .build-tsan) and run there; fails on any report.
#   usage: scripts/sanitize.sh address|thread...
set -eu
swift=${SWIFT:-swift}
for sanitizer in "$@"; do
    case $sanitizer in
        address) dir=.build-asan; export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" ;;
        thread) dir=.build-tsan; export TSAN_OPTIONS="second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp" ;;
        *) echo "sanitize: unknown sanitizer $sanitizer (address or thread)" >&2; exit 2 ;;
    esac
    # The hostile-peer tests then skip their resident-memory check (see there).
    export CHATCTL_SANITIZER="$sanitizer"
    start=$(date +%s)
    echo "sanitize: building the tests with --sanitize=$sanitizer into $dir"
    mkdir -p "$dir"
    if ! $swift build --build-tests --scratch-path "$dir" --sanitize="$sanitizer" > "$dir/build.log" 2>&1; then
        grep -A3 "error:" "$dir/build.log" | head -20 >&2
        echo "sanitize: the $sanitizer build failed ($dir/build.log)" >&2
        exit 1
    fi
    built=$(date +%s)
    echo "sanitize: running the unit suites under $sanitizer"
    $swift test --skip-build --scratch-path "$dir" --sanitize="$sanitizer" --skip EndToEndTests --skip InteropTests
    echo "sanitize: $sanitizer: built in $((built - start)) s, tests ran in $(( $(date +%s) - built )) s"
done
