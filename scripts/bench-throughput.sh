#!/usr/bin/env bash
# Throughput rows, on a sandbox of its own: `chatctl send --lines` with
# 100,000 lines until the command exits 0, every line counted once at the receiver;
# `chatctl listen --json --count 100000`, from the first message printed to the last,
# every one printed once and cached, its resident memory sampled along the way. Each
# beside the sandbox's own rate for the same stream, measured in the same run by a raw
# XMPP client (scripts/bench-throughput.py): the same 100,000 stanzas pipelined and
# acknowledged; received by a raw client that answers each with a `received` marker,
# as listen does. The receiver of the send rows is that raw client too.
# Usage: scripts/bench-throughput.sh BIN_DIR OUT.json
#   BENCH_MESSAGES (default 100000), BENCH_THROUGHPUT_RUNS (default 1; more: the
#   median, every run in "detail").
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
result=${2:-/dev/stdout}
count=${BENCH_MESSAGES:-100000}
runs=${BENCH_THROUGHPUT_RUNS:-1}
helper="$(cd "$(dirname "$0")" && pwd)/bench-throughput.py"
SANDBOX_LOG_LEVEL=error
. "$(dirname "$0")/bench-session.sh"

# Two users, each with a state directory of its own; a first message makes their dialog.
as_sender() { CHATCTL_STATE_DIR="$work/sender" "$@"; }
as_peer() { CHATCTL_STATE_DIR="$work/peer" "$@"; }
as_peer "$bin/chatctl" login --login benchpeer --password-file "$work/password" --no-chat >/dev/null
as_sender "$bin/chatctl" login --login benchsender --password-file "$work/password" --no-chat >/dev/null
as_sender "$bin/chatctl" send @benchpeer "warm-up" >/dev/null
user_id() { python3 -c 'import json,sys,glob; print(json.load(open(glob.glob(sys.argv[1]+"/session-*.json")[0]))["user_id"])' "$1"; }
sender_id=$(user_id "$work/sender")
peer_id=$(user_id "$work/peer")
dialog=$(as_sender "$bin/chatctl" dialogs --offline --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["_id"])')

# A raw client receiving as the peer, in the background; waits until it is logged in.
drain() { # prefix, output, [--markers]
    rm -f "$work/drain.ready"
    python3 "$helper" drain "$work/config.json" "$peer_id" "$work/password" "$count" "$1" "$work/drain.ready" ${3:-} >"$2" &
    drain_pid=$!
    for _ in $(seq 1 200); do [ -s "$work/drain.ready" ] && return; sleep 0.05; done
    echo "bench-throughput: the raw receiver did not log in" >&2; exit 1
}
flood() { # prefix, output
    python3 "$helper" flood "$work/config.json" "$sender_id" "$work/password" "$peer_id" "$dialog" "$count" "$1" >"$2"
}
# The sandbox's CPU time so far, in clock ticks: what each phase cost it goes in "detail".
sandbox_ticks() { awk '{print $14 + $15}' "/proc/$sandbox_pid/stat"; }

for run in $(seq 1 "$runs"); do
    echo "bench-throughput: run $run of $runs, $count messages each way..." >&2
    # send: the baseline, then chatctl send --lines (its own state directory, its outbox
    # empty at the start), both into a raw receiver counting every line.
    drain "raw send $run" "$work/send-base-$run.drain"
    ticks=$(sandbox_ticks)
    flood "raw send $run" "$work/send-base-$run.flood"
    wait "$drain_pid"
    echo $(($(sandbox_ticks) - ticks)) >"$work/send-base-$run.ticks"
    seq 1 "$count" | sed "s/^/chatctl send $run /" >"$work/lines"
    drain "chatctl send $run" "$work/send-$run.drain"
    ticks=$(sandbox_ticks)
    start=$(date +%s.%N)
    status=0
    as_sender "$bin/chatctl" send @benchpeer --lines <"$work/lines" >/dev/null 2>"$work/send-$run.err" || status=$?
    end=$(date +%s.%N)
    echo $(($(sandbox_ticks) - ticks)) >"$work/send-$run.ticks"
    if [ "$status" -ne 0 ]; then
        echo "bench-throughput: send --lines exited $status: $(tail -2 "$work/send-$run.err")" >&2
        kill "$drain_pid" 2>/dev/null || true
    fi
    wait "$drain_pid" || true
    outbox=$(sqlite3 "$work"/sender/cache-*.sqlite "SELECT count(*) FROM outbox")
    python3 -c 'import json,sys; print(json.dumps({"seconds": float(sys.argv[2]) - float(sys.argv[1]), "status": int(sys.argv[3]), "outbox_left": int(sys.argv[4])}))' \
        "$start" "$end" "$status" "$outbox" >"$work/send-$run.time"

    # listen: the baseline (a raw receiver answering markers), then chatctl listen --json
    # fed by the same raw sender; both count what they got.
    drain "raw listen $run" "$work/listen-base-$run.drain" --markers
    ticks=$(sandbox_ticks)
    flood "raw listen $run" "$work/listen-base-$run.flood"
    wait "$drain_pid"
    echo $(($(sandbox_ticks) - ticks)) >"$work/listen-base-$run.ticks"
    mkfifo "$work/listen-$run.fifo"
    # Not through as_peer: $! must be chatctl itself, whose memory is sampled.
    CHATCTL_STATE_DIR="$work/peer" "$bin/chatctl" listen --json --count "$count" --timeout 900s \
        >"$work/listen-$run.fifo" 2>"$work/listen-$run.err" &
    listen_pid=$!
    python3 "$helper" watch "$listen_pid" "$count" "chatctl listen $run" <"$work/listen-$run.fifo" >"$work/listen-$run.watch" &
    watch_pid=$!
    for _ in $(seq 1 300); do grep -q "^chatctl: listening to" "$work/listen-$run.err" && break; sleep 0.1; done
    ticks=$(sandbox_ticks)
    flood "chatctl listen $run" "$work/listen-$run.flood"
    wait "$watch_pid" || echo "bench-throughput: listen's output fell short: $(tail -2 "$work/listen-$run.err")" >&2
    status=0
    wait "$listen_pid" || status=$?
    echo $(($(sandbox_ticks) - ticks)) >"$work/listen-$run.ticks"
    [ "$status" -eq 0 ] || echo "bench-throughput: listen exited $status: $(tail -2 "$work/listen-$run.err")" >&2
    cached=$(sqlite3 "$work"/peer/cache-*.sqlite "SELECT count(*) FROM messages WHERE text LIKE 'chatctl listen $run %'")
    echo "{\"status\": $status, \"cached\": $cached}" >"$work/listen-$run.end"
done

python3 - "$work" "$count" "$runs" >"$result" <<'PY'
import json, os, statistics, sys
work, count, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(name):
    path = os.path.join(work, name)
    return json.load(open(path)) if os.path.exists(path) and os.path.getsize(path) else {}
def rate(seconds):
    return round(count / seconds) if seconds and seconds > 0 else 0
def sandbox_cpu(name):
    """Seconds of the sandbox's CPU the phase took (clock ticks of 1/100 s)."""
    path = os.path.join(work, name + ".ticks")
    return round(int(open(path).read()) / os.sysconf("SC_CLK_TCK"), 2) if os.path.exists(path) else None
send, send_base, listen, listen_base = [], [], [], []
for run in range(1, runs + 1):
    timing, received = load(f"send-{run}.time"), load(f"send-{run}.drain")
    send.append({"msg_per_s": rate(timing.get("seconds")), "seconds": round(timing.get("seconds", 0), 3),
                 "exit_status": timing.get("status"), "outbox_left": timing.get("outbox_left"),
                 "received": received.get("messages", 0), "each_once": received.get("each_once", False),
                 "in_order": received.get("in_order", False), "sandbox_cpu_s": sandbox_cpu(f"send-{run}")})
    base = load(f"send-base-{run}.flood")
    send_base.append({"msg_per_s": rate(base.get("seconds")), "seconds": round(base.get("seconds", 0), 3),
                      "each_once": load(f"send-base-{run}.drain").get("each_once", False),
                      "sandbox_cpu_s": sandbox_cpu(f"send-base-{run}")})
    watched, end = load(f"listen-{run}.watch"), load(f"listen-{run}.end")
    listen.append({"msg_per_s": rate(watched.get("seconds")), "seconds": round(watched.get("seconds", 0), 3),
                   "printed": watched.get("messages", 0), "each_once": watched.get("each_once", False),
                   "in_order": watched.get("in_order", False), "cached": end.get("cached", 0), "exit_status": end.get("status"),
                   "rss_half_mb": round(watched.get("rss_half_kb", 0) / 1024, 1),
                   "rss_end_mb": round(watched.get("rss_end_kb", 0) / 1024, 1),
                   "rss_mb_by_tenth": [round(kb / 1024, 1) for kb in watched.get("rss_kb_by_tenth", [])],
                   "sandbox_cpu_s": sandbox_cpu(f"listen-{run}")})
    received = load(f"listen-base-{run}.drain")
    listen_base.append({"msg_per_s": rate(received.get("seconds")), "seconds": round(received.get("seconds", 0), 3),
                        "each_once": received.get("each_once", False), "sandbox_cpu_s": sandbox_cpu(f"listen-base-{run}")})
def median(items):
    return sorted(items, key=lambda item: item["msg_per_s"])[len(items) // 2]
def spread(items):
    rates = [item["msg_per_s"] for item in items]
    return {"runs": len(items), "min_msg_per_s": min(rates), "max_msg_per_s": max(rates), "all": items}
s, sb, l, lb = median(send), median(send_base), median(listen), median(listen_base)
send_ok = all(r["exit_status"] == 0 and r["each_once"] and r["in_order"] and r["outbox_left"] == 0 for r in send)
listen_ok = all(r["exit_status"] == 0 and r["each_once"] and r["cached"] == count for r in listen)
flat = all(r["rss_half_mb"] > 0 and r["rss_end_mb"] <= r["rss_half_mb"] * 1.1 + 1 for r in listen)
rows = [
    {"key": "send_lines", "label": f"chatctl send --lines, {count:,} lines until all acknowledged (every line once at the receiver)",
     "value": s["msg_per_s"], "unit": "msg/s", "target": ">= 20000 msg/s, every line once",
     "ok": send_ok and s["msg_per_s"] >= 20000,
     "baseline": {"label": "the sandbox's router: a raw XMPP client pipelining the same stanzas until acknowledged",
                  "value": sb["msg_per_s"], "unit": "msg/s", "detail": spread(send_base)},
     "detail": dict(s, **spread(send))},
    {"key": "listen_json", "label": f"chatctl listen --json, {count:,} incoming, printed and cached (first to last printed)",
     "value": l["msg_per_s"], "unit": "msg/s", "target": ">= 20000 msg/s, RSS flat",
     "ok": listen_ok and flat and l["msg_per_s"] >= 20000,
     "baseline": {"label": "the sandbox's router to a raw XMPP client answering each with a received marker",
                  "value": lb["msg_per_s"], "unit": "msg/s", "detail": spread(listen_base)},
     "detail": dict(l, **spread(listen))},
    {"key": "listen_rss", "label": f"chatctl listen resident memory after {count:,} messages (halfway in detail)",
     "value": l["rss_end_mb"], "unit": "MB", "target": "< 30 MB, flat", "ok": flat and l["rss_end_mb"] < 30,
     "detail": {"rss_half_mb": l["rss_half_mb"], "rss_mb_by_tenth": l["rss_mb_by_tenth"]}},
]
print(json.dumps({"rows": rows}, indent=1))
PY
if [ "$result" != /dev/stdout ]; then
    python3 - "$result" >&2 <<'PY'
import json, sys
for row in json.load(open(sys.argv[1]))["rows"]:
    base = row.get("baseline")
    beside = f" (baseline {base['value']} {base['unit']})" if base else ""
    print(f"bench-throughput: {row['label']}: {row['value']} {row['unit']}{beside}{'' if row['ok'] else '  MISSED'}")
PY
fi
