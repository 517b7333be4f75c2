#!/usr/bin/env bash
# A short scripted session against a throw-away local sandbox: the first login
# signs up, the second falls back through 422 to a log-in, then status and
# logout. Usage: scripts/demo.sh BIN_DIR
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
SANDBOX_LOG_LEVEL=warning
. "$(dirname "$0")/sandbox-session.sh"

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
