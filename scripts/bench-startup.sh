#!/usr/bin/env bash
# Start-up figures: chatctl --version beside the floor (a static Swift binary that
# only prints one line, built here with swiftc -O -static-stdlib), and the offline
# queries (dialogs, history --limit 50) beside the sqlite3 shell running the same
# SQL on the same cache of 1,000 dialogs x 1,000 messages; help and search for
# information. Each pair runs in alternating rounds (hyperfine -N, no shell), so a
# busy neighbour slows both sides alike; the figure is the median of all runs.
# Minor page faults are the median of a few runs (the kernel's ru_minflt).
# Usage: scripts/bench-startup.sh BIN_DIR OUT.json
#   BIN_DIR holds the release chatctl, chatctl-sandbox and BenchFixture.
#   BENCH_RUNS (default 10) runs per command per round, BENCH_ROUNDS (9) rounds: short
#   rounds alternate the two sides often, so a neighbour's burst lands on both.
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
out=${2:-/dev/stdout}
runs=${BENCH_RUNS:-10}
rounds=${BENCH_ROUNDS:-9}
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
SANDBOX_LOG_LEVEL=error
. "$(dirname "$0")/bench-session.sh"

# The floor: what any static Swift program pays to start and print a line.
printf 'print("floor 1.0")\n' >"$work/floor.swift"
"$swiftc" -O -static-stdlib "$work/floor.swift" -o "$work/floor" 2>"$work/floor.err" \
    || { echo "bench-startup: cannot build the floor binary:" >&2; cat "$work/floor.err" >&2; exit 1; }

# A logged-in user (the session names the cache) and a cache of 1,000,000 messages.
"$bin/chatctl" login --login benchuser --password-file "$work/password" --no-chat --json >"$work/user.json"
user_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["user"]["id"])' "$work/user.json")
state_key=$(ls "$work/state" | sed -n 's/^session-\(.*\)\.json$/\1/p' | head -1)
cache="$work/state/cache-$state_key-$user_id.sqlite"
echo "bench-startup: building a cache of 1,000,000 messages..." >&2
read -r _ dialog0 < <("$bin/BenchFixture" "$cache" 1000 1000)
# The SQL each chatctl command runs for its rows, as the sqlite3 shell's baseline.
dialogs_sql="SELECT id, type, name, last_message, last_message_date_sent FROM dialogs ORDER BY last_message_date_sent DESC LIMIT 100"
history_sql="SELECT id, sender_id, date_sent, text FROM messages WHERE dialog_id = '$dialog0' ORDER BY date_sent DESC, id DESC LIMIT 50"
search_sql="SELECT snippet(messages_fts, 0, '[', ']', '…', 16) FROM messages_fts WHERE messages_fts MATCH 'text : (zeta0042)' ORDER BY bm25(messages_fts) LIMIT 20"

# Each pair: one hyperfine run of both commands per round, all rounds kept.
pair() { # key, command, baseline command
    local key=$1 round
    for round in $(seq 1 "$rounds"); do
        hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/$key.$round.json" "$2" "$3" \
            >/dev/null 2>"$work/$key.err" || { echo "bench-startup: '$key' failed:" >&2; cat "$work/$key.err" >&2; exit 1; }
    done
}
# Median minor page faults of a command over 9 runs (its output discarded).
cat >"$work/faults.py" <<'PY'
import os, shlex, statistics, subprocess, sys
counts = []
for _ in range(9):
    child = subprocess.Popen(shlex.split(sys.argv[1]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    counts.append(usage.ru_minflt)
print(int(statistics.median(counts)))
PY
faults() { python3 "$work/faults.py" "$2" >"$work/$1.faults"; }

pair version "$bin/chatctl --version" "$work/floor"
pair help "$bin/chatctl help" "$work/floor"
pair dialogs "$bin/chatctl dialogs --offline" "sqlite3 $cache \"$dialogs_sql\""
pair history "$bin/chatctl history $dialog0 --offline --limit 50" "sqlite3 $cache \"$history_sql\""
pair search "$bin/chatctl search zeta0042" "sqlite3 $cache \"$search_sql\""
faults version "$bin/chatctl --version"
faults floor "$work/floor"
faults dialogs "$bin/chatctl dialogs --offline"
faults dialogs_baseline "sqlite3 $cache \"$dialogs_sql\""

python3 - "$work" "$rounds" "$out" <<'PY'
import json, os, statistics, sys
work, rounds, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def times(key):
    """Seconds of every run of the command and of its baseline, all rounds."""
    mine, base = [], []
    for r in range(1, rounds + 1):
        results = json.load(open(os.path.join(work, f"{key}.{r}.json")))["results"]
        mine += results[0]["times"]; base += results[1]["times"]
    return mine, base

def stats(seconds):
    ms = [s * 1000 for s in seconds]
    return {"median": round(statistics.median(ms), 3), "mean": round(statistics.mean(ms), 3),
            "stddev": round(statistics.stdev(ms), 3) if len(ms) > 1 else 0.0,
            "min": round(min(ms), 3), "max": round(max(ms), 3), "runs": len(ms)}

def faults(name):
    path = os.path.join(work, name + ".faults")
    return int(open(path).read()) if os.path.exists(path) else None

def row(key, label, base_label, limit=None, target=None, extra=None):
    mine, base = times(key)
    m, b = stats(mine), stats(base)
    ratio = m["median"] / b["median"]
    detail = {"statistic": "median of all runs", "rounds": rounds, "ratio": round(ratio, 2),
              "chatctl": m, "baseline": b}
    detail.update(extra or {})
    return {"key": "startup_" + key, "label": label, "value": m["median"], "unit": "ms",
            "target": target or (f"<= {limit}x baseline" if limit else "for information"),
            "ok": ratio <= limit if limit else True,
            "baseline": {"label": base_label, "value": b["median"], "unit": "ms"}, "detail": detail}

floor = "static Swift binary that only prints one line (swiftc -O -static-stdlib, built by the bench)"
rows = [
    row("version", "chatctl --version", floor, limit=1.5,
        extra={"page_faults": faults("version"), "baseline_page_faults": faults("floor")}),
    row("dialogs", "chatctl dialogs --offline (1,000 dialogs cached)", "sqlite3 shell, same query", limit=1.5,
        extra={"page_faults": faults("dialogs"), "baseline_page_faults": faults("dialogs_baseline")}),
    row("history", "chatctl history --offline --limit 50 (1,000,000 cached)", "sqlite3 shell, same query", limit=1.5),
    row("help", "chatctl help", floor),
    row("search", "chatctl search (1,000,000 cached)", "sqlite3 shell, same FTS5 query"),
]
text = json.dumps({"rows": rows}, indent=2) + "\n"
if out == "/dev/stdout":
    sys.stdout.write(text)
else:
    open(out, "w").write(text)
    for r in rows:
        verdict = "" if r["target"] == "for information" else ("  ok" if r["ok"] else "  MISSED")
        print(f"{r['label']:<58} {r['value']:7.2f} ms  {r['baseline']['label'][:34]:<34} {r['baseline']['value']:6.2f} ms"
              f"  {r['detail']['ratio']:.2f}x{verdict}", file=sys.stderr)
PY
