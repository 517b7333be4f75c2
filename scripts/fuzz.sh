#!/bin/sh
# make fuzz: builds the libFuzzer targets (Fuzz/Targets, with AddressSanitizer) into
# .build-fuzz and runs each for SECONDS over its committed corpus (Fuzz/Corpus/TARGET);
# what the fuzzer finds new goes to .build-fuzz/corpus, a crash to .build-fuzz/crashes.
# After a clean run, the inputs that reach code the corpus did not (libFuzzer's -merge=1)
# join Fuzz/Corpus/TARGET, so the committed corpus grows only by what adds coverage
# (FUZZ_MERGE=0 leaves it alone). FUZZ_JOBS targets run at a time (1; the machine's
# cores are the limit). Fails when any target crashes, hangs or runs out of memory.
#   usage: scripts/fuzz.sh SECONDS TARGET...
set -u
seconds=$1; shift
swift=${SWIFT:-swift}
jobs=${FUZZ_JOBS:-1}
merge=${FUZZ_MERGE:-1}
mkdir -p .build-fuzz

max_len_of() {
    case $1 in
        FuzzArguments) echo 512 ;;
        FuzzSandboxXML|FuzzClientResponses) echo 8192 ;;
        *) echo 4096 ;;
    esac
}

# All targets are built first, so the runs that share the machine are only runs.
for target in "$@"; do
    if ! CHATCTL_FUZZ=1 $swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address --product "$target" \
        > ".build-fuzz/$target.build.log" 2>&1; then
        grep -v "Cannot export local symbol" ".build-fuzz/$target.build.log" | grep -A3 "error:" | head -20 >&2
        echo "fuzz: $target did not build (.build-fuzz/$target.build.log)" >&2
        exit 1
    fi
done

# One target: the run, then (when clean) the merge. Its verdict goes to .build-fuzz/TARGET.verdict.
run_target() {
    target=$1
    max_len=$(max_len_of "$target")
    mkdir -p ".build-fuzz/corpus/$target" ".build-fuzz/crashes/$target" "Fuzz/Corpus/$target"
    echo "fuzz: $target for ${seconds}s (max_len $max_len)"
    # SWIFT_BACKTRACE: the Swift runtime's backtracer reads memory ASan then reports,
    # hiding the real fatal error.
    if SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/$target" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix=".build-fuzz/crashes/$target/" \
        ".build-fuzz/corpus/$target" "Fuzz/Corpus/$target" > ".build-fuzz/$target.log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' ".build-fuzz/$target.log" | tail -1)
        line="fuzz: $target: ${seconds}s, ${runs:-?} executions, no crash"
        if [ "$merge" = 1 ]; then
            before=$(ls "Fuzz/Corpus/$target" | wc -l)
            SWIFT_BACKTRACE=enable=no ".build-fuzz/debug/$target" -merge=1 -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
                "Fuzz/Corpus/$target" ".build-fuzz/corpus/$target" > ".build-fuzz/$target.merge.log" 2>&1
            after=$(ls "Fuzz/Corpus/$target" | wc -l)
            size=$(du -s --apparent-size -k "Fuzz/Corpus/$target" | cut -f1)
            line="$line; corpus $before -> $after inputs (${size} KB)"
        fi
        echo "$line"
        echo ok > ".build-fuzz/$target.verdict"
    else
        echo "fuzz: $target FAILED (.build-fuzz/$target.log):" >&2
        grep -E "ERROR|Test unit written|SUMMARY|Fatal error|precondition" ".build-fuzz/$target.log" | head -8 >&2
        echo failed > ".build-fuzz/$target.verdict"
    fi
}

# Waves of FUZZ_JOBS targets (every run lasts SECONDS, so waves waste nothing).
set -- "$@"
total=$#
while [ $# -gt 0 ]; do
    n=0
    while [ $# -gt 0 ] && [ $n -lt "$jobs" ]; do
        rm -f ".build-fuzz/$1.verdict"
        run_target "$1" &
        wave="${wave:-} $1"
        n=$((n + 1)); shift
    done
    wait
done
failed=""
for target in $wave; do
    [ "$(cat ".build-fuzz/$target.verdict" 2>/dev/null)" = ok ] || failed="$failed $target"
done
if [ -n "$failed" ]; then
    echo "fuzz: crashes in$failed; each input is in .build-fuzz/crashes/TARGET/" >&2
    exit 1
fi
echo "fuzz: no crash in $total targets"
