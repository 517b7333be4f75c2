#!/usr/bin/env bash
# A short scripted session against a throw-away local sandbox: the first login
# signs up, the second falls back through 422 to a log-in, then status and
# logout. Usage: scripts/demo.sh BIN_DIR
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
work=$(mktemp -d)
sandbox_pid=""
cleanup() {
    [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkfifo "$work/ready"
"$bin/chatctl-sandbox" --api-port 0 --chat-port 0 --log-level warning >"$work/ready" 2>"$work/sandbox.log" &
sandbox_pid=$!
# The sandbox prints one line, its own chatctl config, once it listens.
if ! read -r -t 20 config <"$work/ready"; then
    echo "demo: the sandbox did not start; its log:" >&2; cat "$work/sandbox.log" >&2; exit 1
fi
printf '%s\n' "$config" >"$work/config.json"
export CHATCTL_CONFIG="$work/config.json" CHATCTL_STATE_DIR="$work/state"

login="demo$RANDOM"
show() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
chatctl() { "$bin/chatctl" "$@"; }
run() { show "chatctl $*"; chatctl "$@"; }

echo "Sandbox running; config: $CHATCTL_CONFIG"
show "printf 'correct-horse-9' | chatctl login --login $login --full-name 'Demo User' --password-stdin"
printf 'correct-horse-9\n' | chatctl login --login "$login" --full-name "Demo User" --password-stdin

show "printf 'correct-horse-9' | chatctl login --login $login --password-stdin --verbose   # login taken: 422, then log in"
printf 'correct-horse-9\n' | chatctl login --login "$login" --password-stdin --verbose 2>"$work/verbose.log"
echo "(--verbose, requests and statuses only:)"
grep -E '^chatctl: (> (GET|POST|PUT|DELETE) |< [0-9]{3} )' "$work/verbose.log" >&2 || true

show "printf 'wrong-password-1' | chatctl login --login $login --password-stdin"
printf 'wrong-password-1\n' | chatctl login --login "$login" --password-stdin || echo "(exit $?)"

run status
run status --json
run logout
show "chatctl status"
chatctl status || echo "(exit $?: not logged in)"
echo
echo "Demo done; stopping the sandbox."
