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
# arrive; resident memory after paging back through 100,000 messages.
chat_state="$work/chat-state"
mkdir -p "$chat_state"
cp "$work/state/session-$state_key.json" "$chat_state/"   # the same account, a cache of its own
echo "bench: building a cache of one dialog of 1,000,000 messages..." >&2
read -r _ chat_dialog < <("$bin/BenchFixture" "$chat_state/cache-$state_key-$user_id.sqlite" 1 1000000)
CHATCTL_STATE_DIR="$chat_state" python3 "$(dirname "$0")/bench-chat.py" first-screen "$bin/chatctl" "$chat_dialog" "$work/chat_first.json" "$runs"
measure chat_first_baseline "env CHATCTL_STATE_DIR=$chat_state $bin/chatctl history $chat_dialog --offline --limit 50"
CHATCTL_STATE_DIR="$chat_state" python3 "$(dirname "$0")/bench-chat.py" rss "$bin/chatctl" "$chat_dialog" "$work/chat.rss" 100000
chat_live="$work/chat-live"
CHATCTL_STATE_DIR="$chat_live" "$bin/chatctl" login --login benchchat --password-file "$work/password" --no-chat >/dev/null
CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" send @benchchat "warm-up" >/dev/null
CHATCTL_STATE_DIR="$chat_live" python3 "$(dirname "$0")/bench-chat.py" latency "$bin/chatctl" @benchpeer "$work/chat_latency.json" \
    -- env CHATCTL_STATE_DIR="$peer_state" "$bin/chatctl" send @benchchat --lines

# A 1 GiB file up and down beside curl, with its own sandbox (scripts/bench-transfers.sh).
echo "bench: moving a 1 GiB file up and down, chatctl and curl..." >&2
BENCH_TRANSFERS_QUIET=1 "$(dirname "$0")/bench-transfers.sh" "$bin" "$work/transfers.result"
"$(dirname "$0")/bench-router.sh" "$bin" "$work/router.json" && "$(dirname "$0")/bench-scale.sh" "$bin" "$work/scale.json"

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
    ("chatctl chat, start to first full screen (one dialog, 1,000,000 cached)", "chat_first",
     "chatctl history --offline --limit 50, same dialog", "chat_first_baseline", 50.0),
]
print(f"{'measurement':<66} {'mean ms':>9} {'± sd':>7} {'min':>7} {'max':>7} {'runs':>5} {'target':>8}")
for label, key, base_label, base_key, target in rows:
    m, sd, lo, hi, n = stats(key)
    bm, bsd, blo, bhi, bn = stats(base_key)
    verdict = "ok" if m < target else "MISSED"
    print(f"{label:<66} {m:9.2f} {sd:7.2f} {lo:7.2f} {hi:7.2f} {n:5d} {'<'+str(target):>6} {verdict}")
    print(f"{'  baseline: ' + base_label:<66} {bm:9.2f} {bsd:7.2f} {blo:7.2f} {bhi:7.2f} {bn:5d}   ratio {m / bm:.2f}x")
m, sd, lo, hi, n = stats("chat_latency")
print(f"{'chatctl chat, keystroke to screen while 100 messages/s arrive':<66} {m:9.2f} {sd:7.2f} {lo:7.2f} {hi:7.2f} {n:5d} {'<16.0':>6} {'ok' if m < 16 else 'MISSED'}")
half, end, paged = (int(x) for x in open(os.path.join(work, "chat.rss")).read().split())
print(f"{f'chatctl chat resident memory after paging back through {paged:,} messages (MB)':<66} {end / 1024:9.1f} {'':>7} {'':>7} {'':>7} {1:5d} {'<40':>6} {'ok' if end / 1024 < 40 else 'MISSED'}")
print(f"{'  halfway (flat if equal)':<66} {half / 1024:9.1f}")
secs = float(open(os.path.join(work, "send_lines.secs")).read())
base = float(open(os.path.join(work, "send_lines_baseline.secs")).read())
rate = 10000 / secs
print(f"{'chatctl send --lines, 10,000 lines until acknowledged (msg/s)':<66} {rate:9.0f} {'':>7} {'':>7} {'':>7} {1:5d} {'>=5000':>6} {'ok' if rate >= 5000 else 'MISSED'}")
print(f"{'  baseline: go-sendxmpp -i (waits for no ack, drops its queue at exit)':<66} {10000 / base:9.0f} {'':>7} {'':>7} {'':>7} {1:5d}   ratio {base / secs:.2f}x")
half, end = (int(x) / 1024 for x in open(os.path.join(work, "listen.rss")).read().split())
print(f"{'chatctl listen resident memory after 100,000 messages (MB)':<66} {end:9.1f} {'':>7} {'':>7} {'':>7} {1:5d} {'<30':>6} {'ok' if end < 30 else 'MISSED'}")
print(f"{'  at 50,000 messages (flat if equal)':<66} {half:9.1f}")
refreshes, renewed, sent, heard, start, end = (int(x) for x in open(os.path.join(work, "renew.result")).read().split())
missed = sent - heard
print(f"{'chatctl listen across session refreshes (--token-ttl 2)':<66} {refreshes:9d} {'':>7} {'':>7} {'':>7} {1:5d} {'>=1000':>6} {'ok' if refreshes >= 1000 else 'MISSED'}")
print(f"{'  new sessions it had to open':<66} {renewed:9d}")
print(f"{f'  messages missed of {sent:,} sent throughout':<66} {missed:9d} {'':>7} {'':>7} {'':>7} {1:5d} {'0':>6} {'ok' if missed == 0 else 'MISSED'}")
print(f"{'  resident memory at start, at end (MB; flat if equal)':<66} {start / 1024:9.1f} {end / 1024:7.1f}")
mib, up, up_rss, curl_up, down, down_rss, curl_down, sandbox_hwm = open(os.path.join(work, "transfers.result")).read().split()
mb = int(mib) * 1048576 / 1e6
for label, secs, rss, base_label, base in [
        (f"chatctl send --attach of {mib} MiB on loopback (MB/s)", up, up_rss, "curl, the same multipart POST", curl_up),
        (f"chatctl download of {mib} MiB on loopback (MB/s)", down, down_rss, "curl, the same GET of the storage URL", curl_down)]:
    rate, base_rate = mb / float(secs), mb / float(base)
    ratio = rate / base_rate
    print(f"{label:<66} {rate:9.0f} {'':>7} {'':>7} {'':>7} {1:5d} {'>=0.8x':>6} {'ok' if ratio >= 0.8 else 'MISSED'}")
    print(f"{'  baseline: ' + base_label:<66} {base_rate:9.0f} {'':>7} {'':>7} {'':>7} {1:5d}   ratio {ratio:.2f}x")
    peak = int(rss) / 1024
    print(f"{'  peak resident memory of that process (MB)':<66} {peak:9.1f} {'':>7} {'':>7} {'':>7} {1:5d} {'<50':>6} {'ok' if peak < 50 else 'MISSED'}")
hwm = int(sandbox_hwm) / 1024
print(f"{'chatctl-sandbox peak resident memory, both ways, both clients (MB)':<66} {hwm:9.1f} {'':>7} {'':>7} {'':>7} {1:5d} {'<50':>6} {'ok' if hwm < 50 else 'MISSED'}")
PY
