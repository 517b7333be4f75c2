#!/usr/bin/env bash
# Regenerates Sources/Client/chatctl/startup.order, the function order lld lays chatctl's
# code out in (--symbol-ordering-file): every function that `--version`, help,
# completion scripts and the offline queries run, placed together, so that starting
# them touches a few hundred KB of code instead of pages spread over 11 MB (each
# first touch of a page is a page fault). Functions are listed as callgrind saw them
# run, busiest first, each once; a name the build no longer has is skipped by the
# linker, a new function simply stays where it was: regenerate after large changes.
# Usage: scripts/startup-order.sh BIN_DIR [OUT]   (valgrind: apt-get install valgrind)
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
out=${2:-$(cd "$(dirname "$0")/.." && pwd)/Sources/Client/chatctl/startup.order}
command -v valgrind >/dev/null || { echo "startup-order: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
SANDBOX_LOG_LEVEL=error
. "$(dirname "$0")/sandbox-session.sh"
printf 'order-password-1\n' >"$work/password"
chmod 600 "$work/password"
"$bin/chatctl" login --login orderuser --password-file "$work/password" --no-chat --json >"$work/user.json"
user_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user"]["id"])' "$work/user.json")
state_key=$(ls "$work/state" | sed -n 's/^session-\(.*\)\.json$/\1/p' | head -1)
read -r _ dialog0 < <("$bin/BenchFixture" "$work/state/cache-$state_key-$user_id.sqlite" 100 100)
# valgrind cannot read this toolchain's DWARF: profile a copy without it.
objcopy --strip-debug "$bin/chatctl" "$work/chatctl"
n=0
for args in "--version" "help" "help history" "completion bash" "dialogs --offline" \
            "history $dialog0 --offline --limit 50" "search zeta0042"; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # args is a list of words
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/profile.$n" "$work/chatctl" $args >/dev/null 2>&1
done
for i in $(seq 1 "$n"); do
    callgrind_annotate --inclusive=yes --threshold=100 "$work/profile.$i" 2>/dev/null \
        | sed -nE "s|^ *[0-9,]+ \([ 0-9.]+%\)  [^:]*:(.*) \[$work/chatctl\]\$|\1|p"
done | grep -v -e '^0x' -e '^(below main)$' | sed "s/'[0-9]*\$//" | awk '!seen[$0]++' >"$work/order"
[ -s "$work/order" ] || { echo "startup-order: callgrind listed no functions" >&2; exit 1; }
cp "$work/order" "$out"
echo "startup-order: $(wc -l <"$out") functions in $out" >&2
