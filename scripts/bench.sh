#!/usr/bin/env bash
# Speed figures for the release build, each beside a named baseline measured
# in the same run. Prints a table; writes every figure to BENCH_OUT/results.json
# and draws BENCH_OUT/bench.png (default docs/bench). Asserts nothing (timings
# are not tests).
# Usage: scripts/bench.sh BIN_DIR
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
runs=${BENCH_RUNS:-30}
SANDBOX_LOG_LEVEL=error
. "$(dirname "$0")/bench-session.sh"

# The account whose cache holds the chat view's 1,000,000 messages (the offline
# queries and search are scripts/bench-startup.sh's, with a cache of their own).
"$bin/chatctl" login --login benchuser --password-file "$work/password" --json >"$work/user.json"
user_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user"]["id"])' "$work/user.json")

measure() { # name, command...
    local name=$1; shift
    hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/$name.json" "$@" >/dev/null 2>"$work/$name.err" \
        || { echo "bench: '$name' failed:" >&2; cat "$work/$name.err" >&2; exit 1; }
}

state_key=$(ls "$work/state" | sed -n 's/^session-\(.*\)\.json$/\1/p' | head -1)

# The account the chat view's latency row sends from.
peer_state="$work/peer-state"
CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" login --login benchpeer --password-file "$work/password" --no-chat >/dev/null

# listen across session renewals: a second sandbox whose sessions die two
# seconds after their last request. listen refreshes its session once half of
# what is left is gone, about once a second here: 1,000 refreshes would take 17
# minutes, so CHATCTL_SESSION_REFRESH_EVERY (tests and bench only) makes it
# refresh every 20 ms; the code path is the same. Messages go to it throughout.
mkfifo "$work/renew-ready"
"$bin/chatctl-sandbox" --api-port 0 --chat-port 0 --token-ttl 2 --log-level error >"$work/renew-ready" 2>"$work/renew-sandbox.log" &
renew_sandbox_pid=$!
trap 'kill "$renew_sandbox_pid" 2>/dev/null; wait "$renew_sandbox_pid" 2>/dev/null; cleanup' EXIT INT TERM
read -r -t 20 renew_config <"$work/renew-ready" || { echo "bench: the second sandbox did not start" >&2; exit 1; }
printf '%s\n' "$renew_config" >"$work/renew-config.json"
as_renew_bob() { CHATCTL_CONFIG="$work/renew-config.json" CHATCTL_STATE_DIR="$work/renew-bob" "$@"; }
as_renew_alice() { CHATCTL_CONFIG="$work/renew-config.json" CHATCTL_STATE_DIR="$work/renew-alice" "$@"; }
as_renew_bob "$bin/chatctl" login --login renewbob --password-file "$work/password" --no-chat >/dev/null
as_renew_alice "$bin/chatctl" login --login renewalice --password-file "$work/password" --no-chat >/dev/null
as_renew_alice "$bin/chatctl" send @renewbob "warm-up" --password-file "$work/password" >/dev/null
# --verbose shows each request: the refreshes are counted from it.
CHATCTL_CONFIG="$work/renew-config.json" CHATCTL_STATE_DIR="$work/renew-bob" CHATCTL_SESSION_REFRESH_EVERY=0.02 \
    "$bin/chatctl" listen --json --verbose --password-file "$work/password" >"$work/renew-listen.out" 2>"$work/renew-listen.err" &
renew_listen_pid=$!
for _ in $(seq 1 300); do grep -q "^chatctl: listening to" "$work/renew-listen.err" && break; sleep 0.1; done
renew_rss() { awk '/VmRSS/ {print $2}' "/proc/$renew_listen_pid/status" 2>/dev/null || echo 0; }
refreshes() { grep -c "> GET .*/session.json" "$work/renew-listen.err" || true; }
renew_rss_start=$(renew_rss)
mkfifo "$work/renew-lines"
as_renew_alice "$bin/chatctl" send @renewbob --lines --password-file "$work/password" <"$work/renew-lines" >/dev/null 2>"$work/renew-send.err" &
renew_send_pid=$!
exec 7>"$work/renew-lines"
sent=0
while [ "$(refreshes)" -lt 1000 ] && kill -0 "$renew_listen_pid" 2>/dev/null; do
    sent=$((sent + 1)); echo "renewal message $sent" >&7; sleep 0.05
done
exec 7>&-
wait "$renew_send_pid" || echo "bench: the sender of the renewal row failed: $(tail -1 "$work/renew-send.err")" >&2
heard() { grep -c '"renewal message ' "$work/renew-listen.out" || true; }
for _ in $(seq 1 300); do [ "$(heard)" -ge "$sent" ] && break; sleep 0.1; done
renew_rss_end=$(renew_rss)
kill "$renew_listen_pid" 2>/dev/null || true
wait "$renew_listen_pid" 2>/dev/null || true
renewed=$(grep -c "> POST .*/session.json" "$work/renew-listen.err" || true)
echo "$(refreshes) $renewed $sent $(heard) ${renew_rss_start:-0} ${renew_rss_end:-0}" >"$work/renew.result"

# The chat view (scripts/bench-chat.py runs it on a pseudo-terminal of 80x24): its first
# full screen with one dialog of 1,000,000 cached messages, beside history --offline
# --limit 50 of that dialog; keystroke-to-screen latency while 100 messages a second
# arrive; resident memory after paging back through 100,000 messages. All with avatars
# on (chatView.avatars image: asked for each sender, initials where there is no picture).
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); c["chatView"]={"avatars":"image"}; json.dump(c,open(sys.argv[2],"w"))' \
    "$CHATCTL_CONFIG" "$work/config-avatars.json"
chat_config="$work/config-avatars.json"
chat_state="$work/chat-state"
mkdir -p "$chat_state"
cp "$work/state/session-$state_key.json" "$chat_state/"   # the same account, a cache of its own
echo "bench: building a cache of one dialog of 1,000,000 messages..." >&2
read -r _ chat_dialog < <("$bin/BenchFixture" "$chat_state/cache-$state_key-$user_id.sqlite" 1 1000000)
CHATCTL_CONFIG="$chat_config" CHATCTL_STATE_DIR="$chat_state" python3 "$(dirname "$0")/bench-chat.py" first-screen "$bin/chatctl" "$chat_dialog" "$work/chat_first.json" "$runs"
measure chat_first_baseline "env CHATCTL_STATE_DIR=$chat_state $bin/chatctl history $chat_dialog --offline --limit 50"
CHATCTL_CONFIG="$chat_config" CHATCTL_STATE_DIR="$chat_state" python3 "$(dirname "$0")/bench-chat.py" rss "$bin/chatctl" "$chat_dialog" "$work/chat.rss" 100000
chat_live="$work/chat-live"
CHATCTL_STATE_DIR="$chat_live" "$bin/chatctl" login --login benchchat --password-file "$work/password" --no-chat >/dev/null
CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" send @benchchat "warm-up" >/dev/null
CHATCTL_CONFIG="$chat_config" CHATCTL_STATE_DIR="$chat_live" python3 "$(dirname "$0")/bench-chat.py" latency "$bin/chatctl" @benchpeer "$work/chat_latency.json" \
    -- env CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" send @benchchat --lines

# A 1 GiB file up and down beside curl, with its own sandbox (scripts/bench-transfers.sh).
echo "bench: moving a 1 GiB file up and down, chatctl and curl..." >&2
BENCH_TRANSFERS_QUIET=1 "$(dirname "$0")/bench-transfers.sh" "$bin" "$work/transfers.result"

# Each of these starts what it needs and writes its rows to $work/results/NAME.json.
mkdir -p "$work/results"
for part in startup login throughput router scale; do
    script="$(dirname "$0")/bench-$part.sh"
    [ -x "$script" ] || continue
    echo "bench: $part..." >&2
    "$script" "$bin" "$work/results/$part.json" || { echo "bench: scripts/bench-$part.sh failed" >&2; exit 1; }
done

# The table on stdout; results.json and the chart (bench.png) in BENCH_OUT.
python3 "$(dirname "$0")/bench-report.py" "$work" "${BENCH_OUT:-docs/bench}"
