#!/usr/bin/env bash
# Speed figures for the release build, each beside a named baseline measured
# in the same run. Prints a table; asserts nothing (timings are not tests).
# Usage: scripts/bench.sh BIN_DIR
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
runs=${BENCH_RUNS:-30}
SANDBOX_LOG_LEVEL=error
. "$(dirname "$0")/sandbox-session.sh"
printf 'bench-password-1\n' >"$work/password"
chmod 600 "$work/password"

# An existing user: the first login signs up, every measured one goes through 422.
"$bin/chatctl" login --login benchuser --password-file "$work/password" --json >"$work/user.json"
user_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user"]["id"])' "$work/user.json")
app_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["appId"])' "$work/config.json")
chat=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["endpoints"]["chat"].split("://")[1])' "$work/config.json")
domain=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("chatDomain","localhost"))' "$work/config.json")
cat >"$work/sendxmpprc" <<RC
username: ${user_id}-${app_id}@${domain}
password: bench-password-1
RC
chmod 600 "$work/sendxmpprc"

measure() { # name, command...
    local name=$1; shift
    hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/$name.json" "$@" >/dev/null 2>"$work/$name.err" \
        || { echo "bench: '$name' failed:" >&2; cat "$work/$name.err" >&2; exit 1; }
}

# A cache of 1,000 dialogs x 1,000 messages for the offline figures.
state_key=$(ls "$work/state" | sed -n 's/^session-\(.*\)\.json$/\1/p' | head -1)
cache="$work/state/cache-$state_key-$user_id.sqlite"
echo "bench: building a cache of 1,000,000 messages (about half a minute)..." >&2
read -r _ dialog0 < <("$bin/BenchFixture" "$cache" 1000 1000)
history_sql="SELECT id, sender_id, date_sent, text FROM messages WHERE dialog_id = '$dialog0' ORDER BY date_sent DESC, id DESC LIMIT 50"
dialogs_sql="SELECT id, type, name, last_message, last_message_date_sent FROM dialogs ORDER BY last_message_date_sent DESC LIMIT 100"
search_sql="SELECT snippet(messages_fts, 0, '[', ']', '…', 16) FROM messages_fts WHERE messages_fts MATCH 'text : (zeta0042)' ORDER BY bm25(messages_fts) LIMIT 20"

measure version "$bin/chatctl --version"
measure version_baseline "curl --version"
measure login "$bin/chatctl login --login benchuser --password-file $work/password"
measure login_baseline "sh -c 'echo hi | go-sendxmpp -n -f $work/sendxmpprc -j $chat ${user_id}-${app_id}@${domain}'"
measure dialogs "$bin/chatctl dialogs --offline"
measure dialogs_baseline "sqlite3 $cache \"$dialogs_sql\""
measure history "$bin/chatctl history $dialog0 --offline --limit 50"
measure history_baseline "sqlite3 $cache \"$history_sql\""
measure search "$bin/chatctl search zeta0042"
measure search_baseline "sqlite3 $cache \"$search_sql\""

# send --lines throughput: 10,000 lines until all are acknowledged, beside a
# Debian XMPP sender's line mode (-i) sending the same lines to the same sandbox.
peer_state="$work/peer-state"
CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" login --login benchpeer --password-file "$work/password" --no-chat >/dev/null
peer_id=$(python3 -c 'import json,sys,glob; print(json.load(open(glob.glob(sys.argv[1]+"/session-*.json")[0]))["user_id"])' "$peer_state")
seq 1 10000 | sed 's/^/bench line /' >"$work/lines"
# The sender has a cache of its own (not the 1,000,000-message one above).
sender_state="$work/sender-state"
CHATCTL_STATE_DIR="$sender_state" "$bin/chatctl" login --login benchsender --password-file "$work/password" --no-chat >/dev/null
CHATCTL_STATE_DIR="$sender_state" "$bin/chatctl" send @benchpeer "warm-up" >/dev/null
measure_once() { # name, command: one timed run, seconds to stdout
    local start end; start=$(date +%s.%N); sh -c "$2" >/dev/null 2>"$work/$1.err" || { echo "bench: '$1' failed:" >&2; cat "$work/$1.err" >&2; exit 1; }
    end=$(date +%s.%N); python3 -c "print($end - $start)" >"$work/$1.secs"
}
measure_once send_lines "CHATCTL_STATE_DIR=$sender_state $bin/chatctl send @benchpeer --lines <$work/lines"
# go-sendxmpp's line mode ends with "failed to read from stdin" (exit 1) at end of input.
measure_once send_lines_baseline "go-sendxmpp -n -f $work/sendxmpprc -j $chat -i ${peer_id}-${app_id}@${domain} <$work/lines || true"

# listen: resident memory after 100,000 received messages (and halfway, to see it flat).
CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" listen --count 100000 --timeout 600s >/dev/null 2>"$work/listen.err" &
listen_pid=$!
sleep 1.5
rss() { awk '/VmRSS/ {print $2}' "/proc/$listen_pid/status" 2>/dev/null || echo 0; }
seq 1 50000 | sed 's/^/listen line /' | "$bin/chatctl" send @benchpeer --lines
sleep 1; rss_half=$(rss)
seq 50001 100000 | sed 's/^/listen line /' | "$bin/chatctl" send @benchpeer --lines
for _ in $(seq 1 300); do kill -0 "$listen_pid" 2>/dev/null || break; rss_end=$(rss); sleep 0.1; done
kill "$listen_pid" 2>/dev/null || true
listen_status=0; wait "$listen_pid" 2>/dev/null || listen_status=$?
if [ "$listen_status" -ne 0 ] && [ "$listen_status" -ne 143 ]; then
    echo "bench: listen ended with status $listen_status; its stderr:" >&2; tail -20 "$work/listen.err" >&2
    [ -n "${BENCH_KEEP:-}" ] && cp -r "$work" "$BENCH_KEEP"
fi
echo "${rss_half:-0} ${rss_end:-0}" >"$work/listen.rss"

python3 - "$work" <<'PY'
import json, sys, os
work = sys.argv[1]
def stats(name):
    r = json.load(open(os.path.join(work, name + ".json")))["results"][0]
    return r["mean"] * 1000, r["stddev"] * 1000, r["min"] * 1000, r["max"] * 1000, len(r["times"])
rows = [
    ("chatctl --version", "version", "curl --version", "version_baseline", 5.0),
    ("chatctl login (existing user: session, 422, login, chat, saved)", "login",
     "go-sendxmpp connect+send", "login_baseline", 40.0),
    ("chatctl dialogs --offline (1,000 dialogs cached)", "dialogs", "sqlite3 shell, same query", "dialogs_baseline", 10.0),
    ("chatctl history --offline --limit 50 (1,000,000 cached)", "history", "sqlite3 shell, same query", "history_baseline", 10.0),
    ("chatctl search (1,000,000 cached)", "search", "sqlite3 shell, same FTS5 query", "search_baseline", 50.0),
]
print(f"{'measurement':<66} {'mean ms':>9} {'± sd':>7} {'min':>7} {'max':>7} {'runs':>5} {'target':>8}")
for label, key, base_label, base_key, target in rows:
    m, sd, lo, hi, n = stats(key)
    bm, bsd, blo, bhi, bn = stats(base_key)
    verdict = "ok" if m < target else "MISSED"
    print(f"{label:<66} {m:9.2f} {sd:7.2f} {lo:7.2f} {hi:7.2f} {n:5d} {'<'+str(target):>6} {verdict}")
    print(f"{'  baseline: ' + base_label:<66} {bm:9.2f} {bsd:7.2f} {blo:7.2f} {bhi:7.2f} {bn:5d}   ratio {m / bm:.2f}x")
secs = float(open(os.path.join(work, "send_lines.secs")).read())
base = float(open(os.path.join(work, "send_lines_baseline.secs")).read())
rate = 10000 / secs
print(f"{'chatctl send --lines, 10,000 lines until acknowledged (msg/s)':<66} {rate:9.0f} {'':>7} {'':>7} {'':>7} {1:5d} {'>=5000':>6} {'ok' if rate >= 5000 else 'MISSED'}")
print(f"{'  baseline: go-sendxmpp -i (waits for no ack, drops its queue at exit)':<66} {10000 / base:9.0f} {'':>7} {'':>7} {'':>7} {1:5d}   ratio {base / secs:.2f}x")
half, end = (int(x) / 1024 for x in open(os.path.join(work, "listen.rss")).read().split())
print(f"{'chatctl listen resident memory after 100,000 messages (MB)':<66} {end:9.1f} {'':>7} {'':>7} {'':>7} {1:5d} {'<30':>6} {'ok' if end < 30 else 'MISSED'}")
print(f"{'  at 50,000 messages (flat if equal)':<66} {half:9.1f}")
PY
