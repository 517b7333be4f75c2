#!/usr/bin/env bash
# The sandbox's raw router rate: BenchLoad's router mode streams 100,000 1:1 messages
# (chatctl's stanza, save_to_history 1, an ack asked for every 50, at most 1,000
# unacknowledged) from one user to another through a sandbox of its own, timed from
# the first byte until the receiver has them all, each checked to arrive once and in
# order. The row is the sandbox with a database file (--db: what is acknowledged is on
# disk); the same stream through an in-memory sandbox (the default of chatctl-sandbox,
# make demo and the tests) is in its detail, as is the sandbox's CPU time per message.
# This is the baseline `send --lines` and `listen` are printed beside.
# Usage: scripts/bench-router.sh BIN_DIR OUT.json   (BENCH_ROUTER_MESSAGES sets the count)
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
out=${2:-/dev/stdout}
messages=${BENCH_ROUTER_MESSAGES:-100000}
. "$(dirname "$0")/bench-load-sandbox.sh"

echo "bench: the sandbox's router, $messages messages, with a database file and in memory..." >&2
start_sandbox --db "$work/router.db"
"$bin/BenchLoad" router "$work/config.json" --messages "$messages" --sandbox-pid "$sandbox_pid" \
    --password-iterations "$load_iterations" >"$work/file.json"
stop_sandbox
start_sandbox
"$bin/BenchLoad" router "$work/config.json" --messages "$messages" --sandbox-pid "$sandbox_pid" \
    --password-iterations "$load_iterations" >"$work/memory.json"
stop_sandbox

python3 - "$work/file.json" "$work/memory.json" >"$work/router.json" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
memory = json.load(open(sys.argv[2]))["rows"][0]
row["label"] = row["label"].replace("chatctl-sandbox router", "chatctl-sandbox --db router")
row["detail"]["database"] = "file (--db)"
row["detail"]["memory_msg_per_s"] = memory["value"]
for key in ("latency_p50_ms", "latency_p99_ms", "sandbox_cpu_us_per_message"):
    if key in memory["detail"]:
        row["detail"]["memory_" + key] = memory["detail"][key]
row["ok"] = row["ok"] and memory["ok"]
print(json.dumps({"rows": [row]}, sort_keys=True, ensure_ascii=False))
PY
cat "$work/router.json" >"$out"
