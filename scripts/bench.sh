#!/usr/bin/env bash
# Speed figures for the release build, each beside a named baseline measured
# in the same run. Prints a table; asserts nothing (timings are not tests).
# Usage: scripts/bench.sh BIN_DIR
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
runs=${BENCH_RUNS:-30}
work=$(mktemp -d)
sandbox_pid=""
cleanup() {
    [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkfifo "$work/ready"
"$bin/chatctl-sandbox" --api-port 0 --chat-port 0 --log-level error >"$work/ready" 2>"$work/sandbox.log" &
sandbox_pid=$!
read -r -t 20 config <"$work/ready" || { echo "bench: sandbox did not start" >&2; cat "$work/sandbox.log" >&2; exit 1; }
printf '%s\n' "$config" >"$work/config.json"
export CHATCTL_CONFIG="$work/config.json" CHATCTL_STATE_DIR="$work/state"
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

measure version "$bin/chatctl --version"
measure version_baseline "curl --version"
measure login "$bin/chatctl login --login benchuser --password-file $work/password"
measure login_baseline "sh -c 'echo hi | go-sendxmpp -n -f $work/sendxmpprc -j $chat ${user_id}-${app_id}@${domain}'"

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
]
print(f"{'measurement':<66} {'mean ms':>9} {'± sd':>7} {'min':>7} {'max':>7} {'runs':>5} {'target':>8}")
for label, key, base_label, base_key, target in rows:
    m, sd, lo, hi, n = stats(key)
    bm, bsd, blo, bhi, bn = stats(base_key)
    verdict = "ok" if m < target else "MISSED"
    print(f"{label:<66} {m:9.2f} {sd:7.2f} {lo:7.2f} {hi:7.2f} {n:5d} {'<'+str(target):>6} {verdict}")
    print(f"{'  baseline: ' + base_label:<66} {bm:9.2f} {bsd:7.2f} {blo:7.2f} {bhi:7.2f} {bn:5d}   ratio {m / bm:.2f}x")
PY
