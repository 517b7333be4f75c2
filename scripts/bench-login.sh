#!/usr/bin/env bash
# The login figure: `chatctl login` of an existing user (application session, sign-up
# answered 422, log-in, chat connection, session saved) beside go-sendxmpp connecting
# and sending one message as that user, both against a sandbox of its own, with
# hyperfine -N. The breakdown in "detail" comes from the same run (medians, steadier than
# means on a shared machine): the process alone (--version), the REST part (login
# --no-chat, less the process), the chat part (login, less login --no-chat), each REST
# request as --verbose times it, and the sandbox's CPU time per login. Timings only.
# Usage: scripts/bench-login.sh BIN_DIR OUT.json   (BENCH_RUNS sets the runs, default 30)
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
out=${2:-/dev/stdout}
runs=${BENCH_RUNS:-30}
SANDBOX_LOG_LEVEL=error
. "$(dirname "$0")/bench-session.sh"

# The user exists before the first measured run: every measured login goes through 422.
"$bin/chatctl" login --login benchuser --password-file "$work/password" --json >"$work/user.json"
read -r user_id app_id chat domain < <(python3 - "$work/user.json" "$work/config.json" <<'PY'
import json, sys
user = json.load(open(sys.argv[1]))["user"]
config = json.load(open(sys.argv[2]))
print(user["id"], config["appId"], config["endpoints"]["chat"].split("://")[1], config.get("chatDomain", "localhost"))
PY
)
# go-sendxmpp as scripts/bench.sh runs it: the password from an rc file, never argv.
cat >"$work/sendxmpprc" <<RC
username: ${user_id}-${app_id}@${domain}
password: bench-password-1
RC
chmod 600 "$work/sendxmpprc"

login="$bin/chatctl login --login benchuser --password-file $work/password"
sandbox_cpu() { awk '{print $14 + $15}' "/proc/$sandbox_pid/stat"; }  # utime + stime, clock ticks
cpu_before=$(sandbox_cpu)
hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/hyperfine.json" \
    "$login" "$login --no-chat" "$bin/chatctl --version" \
    "sh -c 'echo hi | go-sendxmpp -n -f $work/sendxmpprc -j $chat ${user_id}-${app_id}@${domain}'" \
    >/dev/null 2>"$work/hyperfine.err" || { echo "bench-login: hyperfine failed:" >&2; cat "$work/hyperfine.err" >&2; exit 1; }
cpu_after=$(sandbox_cpu)

# What each REST request took, as chatctl's --verbose reports it (the server's answer
# included), over ten logins.
for _ in $(seq 1 10); do
    $login --verbose 2>&1 >/dev/null | grep -E '^chatctl: (> (POST|GET|PUT|DELETE) |< [0-9]{3} in )' || true
done >"$work/verbose.txt"

python3 - "$work" "$out" "$runs" "$((cpu_after - cpu_before))" "$(getconf CLK_TCK)" <<'PY'
import json, os, re, statistics, sys
work, out, runs, cpu_ticks, tick = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
results = json.load(open(os.path.join(work, "hyperfine.json")))["results"]
login, no_chat, version, baseline = (r for r in results)
ms = lambda seconds: round(seconds * 1000, 2)
def summary(r):
    return {"mean": ms(r["mean"]), "stddev": ms(r["stddev"] or 0), "median": ms(r["median"]),
            "min": ms(r["min"]), "max": ms(r["max"]), "runs": len(r["times"])}
requests, pending = {}, None
for line in open(os.path.join(work, "verbose.txt")):
    if m := re.match(r"chatctl: > (\w+) \S+?(/[\w/]+\.json)", line):
        pending = f"{m[1]} {m[2]}"
    elif (m := re.match(r"chatctl: < (\d{3}) in ([0-9.]+) ms", line)) and pending:
        requests.setdefault(f"{pending} ({m[1]})", []).append(float(m[2]))
        pending = None
# hyperfine ran each command `runs` times after 3 warm-ups; two of the four log in.
logins = 2 * (runs + 3)
row = {
    "key": "login",
    "label": "chatctl login, existing user (session, sign-up 422, log-in, chat, session saved)",
    "value": ms(login["mean"]),
    "unit": "ms",
    "target": "<= 20 ms",
    "ok": login["mean"] * 1000 <= 20,
    "baseline": {"label": "go-sendxmpp connect+send", "value": ms(baseline["mean"]), "unit": "ms"},
    "detail": {
        "login": summary(login),
        "login_no_chat": summary(no_chat),
        "version": summary(version),
        "baseline": summary(baseline),
        "process_ms": ms(version["median"]),
        "rest_ms": ms(no_chat["median"] - version["median"]),
        "chat_ms": ms(login["median"] - no_chat["median"]),
        "rest_requests_ms": {name: round(statistics.median(times), 2) for name, times in requests.items()},
        "sandbox_cpu_ms_per_login": round(cpu_ticks * 1000 / tick / logins, 2),
        "note": "medians: process = chatctl --version; rest = login --no-chat less that; chat = login less login --no-chat; "
                "REST requests: medians of --verbose's own timing over 10 logins (the sandbox's answer included); "
                "sandbox CPU: its utime+stime over both kinds of measured login",
    },
}
text = json.dumps({"rows": [row]}, indent=2) + "\n"
if out == "/dev/stdout":
    sys.stdout.write(text)
else:
    open(out, "w").write(text)
PY
