#!/bin/sh
# make fuzz: builds the libFuzzer targets (Fuzz/Targets, with AddressSanitizer) into
# .build-fuzz and runs each for SECONDS over its committed seed corpus (Fuzz/Corpus,
# read only); what the fuzzer finds new goes to .build-fuzz/corpus, a crash to
# .build-fuzz/crashes. Fails when any target crashes, hangs or runs out of memory.
#   usage: scripts/fuzz.sh SECONDS TARGET...
set -u
seconds=$1; shift
swift=${SWIFT:-swift}
failed=""
mkdir -p .build-fuzz
for target in "$@"; do
    case $target in
        FuzzArguments) max_len=512 ;;
        FuzzSandboxXML|FuzzClientResponses) max_len=8192 ;;
        *) max_len=4096 ;;
    esac
    if ! CHATCTL_FUZZ=1 $swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address --product "$target" \
        > ".build-fuzz/$target.build.log" 2>&1; then
        grep -v "Cannot export local symbol" ".build-fuzz/$target.build.log" | grep -A3 "error:" | head -20 >&2
        echo "fuzz: $target did not build (.build-fuzz/$target.build.log)" >&2
        exit 1
    fi
    # SWIFT_BACKTRACE: the Swift runtime's backtracer reads memory ASan then reports,
    # hiding the real fatal error.
    mkdir -p .build-fuzz ".build-fuzz/corpus/$target" ".build-fuzz/crashes/$target"
    echo "fuzz: $target for ${seconds}s (max_len $max_len)"
    if SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix=".build-fuzz/crashes/$target/" \
        ".build-fuzz/corpus/$target" "Fuzz/Corpus/$target" > ".build-fuzz/$target.log" 2>&1; then
        grep -E "^stat::number_of_executed_units|^Done" ".build-fuzz/$target.log" | tail -2 | sed "s/^/fuzz: $target: /"
    else
        echo "fuzz: $target FAILED (.build-fuzz/$target.log):" >&2
        grep -E "ERROR|Test unit written|SUMMARY|Fatal error|precondition" ".build-fuzz/$target.log" | head -8 >&2
        failed="$failed $target"
    fi
done
if [ -n "$failed" ]; then
    echo "fuzz: crashes in$failed; each input is in .build-fuzz/crashes/TARGET/" >&2
    exit 1
fi
echo "fuzz: no crash in $# targets"
