#!/usr/bin/env bash
# The sandbox with many users at once: for 125, 250, 500 and 1,000 users (BENCH_SCALE_USERS),
# each count against a fresh sandbox of its own (with a database file), BenchLoad's scale
# mode signs the users up over REST, connects them all as chatctl does, joins them to one
# group of everyone (MUC) and pairs each with the next (U private pairs), then each sends a
# 1:1 message a second and a group message every 100 s for 10 s (BENCH_SCALE_SECONDS).
# One row per count: deliveries routed a second, with the p99 latency, the sandbox's
# resident memory per connection and more in its detail; then the sandbox's total
# resident memory with the most users. Each delivery is checked to arrive once, in order.
# Usage: scripts/bench-scale.sh BIN_DIR OUT.json
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
out=${2:-/dev/stdout}
counts=${BENCH_SCALE_USERS:-125 250 500 1000}
seconds=${BENCH_SCALE_SECONDS:-10}
# One descriptor per connection, and some: the sandbox inherits this soft limit (BenchLoad raises its own).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
. "$(dirname "$0")/bench-load-sandbox.sh"

for users in $counts; do
    echo "bench: $users users at once on the sandbox..." >&2
    start_sandbox --db "$work/scale-$users.db"
    "$bin/BenchLoad" scale "$work/config.json" --users "$users" --seconds "$seconds" --sandbox-pid "$sandbox_pid" \
        --password-iterations "$load_iterations" >"$work/scale-$users.json"
    stop_sandbox
done

python3 - "$work" $counts >"$work/scale.json" <<'PY'
import json, os, sys
work, counts = sys.argv[1], sys.argv[2:]
rows = [json.load(open(os.path.join(work, f"scale-{n}.json")))["rows"][0] for n in counts]
largest = rows[-1]["detail"]
rss_kb = largest.get("sandbox_rss_peak_kb", largest.get("sandbox_rss_end_kb", 0))
rows.append({
    "key": "sandbox_scale_rss", "label": f"chatctl-sandbox resident memory, {largest['users']} users chatting (peak)",
    "value": round(rss_kb / 1024, 1), "unit": "MB", "target": "report", "ok": all(r["ok"] for r in rows),
    "baseline": None,
    "detail": {"users": largest["users"], "rss_before_users_kb": largest.get("sandbox_rss_before_kb"),
               "rss_per_connection_kb": largest.get("rss_per_connection_kb"),
               "curve": [{"users": r["detail"]["users"], "routed_msg_per_s": r["value"],
                          "latency_p99_ms": r["detail"]["latency_p99_ms"],
                          "rss_per_connection_kb": r["detail"].get("rss_per_connection_kb")} for r in rows]},
})
print(json.dumps({"rows": rows}, sort_keys=True, ensure_ascii=False))
PY
cat "$work/scale.json" >"$out"
