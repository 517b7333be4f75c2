#!/usr/bin/env bash
# Transfer figures: one large file (1 GiB by default) up and down on loopback
# through a sandbox of its own, beside curl doing the same multipart POST and
# the same GET against the same sandbox in the same run; the wall time of each
# and the peak resident memory (ru_maxrss, the kernel's VmHWM) of the chatctl
# process and of the sandbox. chatctl's upload is `chatctl send --attach` to
# another user: its time includes the dialog lookup, keeping the file in the
# outbox (a hard link), creating and completing the blob and sending the message,
# curl's only the POST (and chatctl download's the session and the redirect,
# curl's only the GET).
# Usage: scripts/bench-transfers.sh BIN_DIR RESULT_FILE   (BENCH_TRANSFER_MB sets the size)
set -euo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
result=${2:-/dev/stdout}
size_mb=${BENCH_TRANSFER_MB:-1024}
# A sandbox of its own (its files in its private temporary directory), that takes the file.
SANDBOX_LOG_LEVEL=error SANDBOX_ARGS="--max-upload 4G"
. "$(dirname "$0")/bench-session.sh"
# The receiver first (its own state directory), so that the sender can find it.
CHATCTL_STATE_DIR="$work/peer" "$bin/chatctl" login --login benchpeer --password-file "$work/password" --no-chat >/dev/null
"$bin/chatctl" login --login benchfiles --password-file "$work/password" --no-chat >/dev/null
session=$(ls "$work"/state/session-*.json | head -1)
api=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["endpoints"]["api"])' "$work/config.json")
# curl reads the token from a file (-H @file), never from its argv.
python3 -c 'import json,sys; print("QB-Token: " + json.load(open(sys.argv[1]))["token"])' "$session" >"$work/token-header"
chmod 600 "$work/token-header"

echo "bench: writing a ${size_mb} MiB file to move..." >&2
head -c "$((size_mb * 1048576))" /dev/urandom >"$work/big.bin"

# Runs a command, its stdout to a file; prints "seconds peak-KiB" of that one child.
cat >"$work/measure.py" <<'PY'
import os, subprocess, sys, time
out = open(sys.argv[1], "wb")
start = time.monotonic()
child = subprocess.Popen(sys.argv[2:], stdout=out)
_, status, usage = os.wait4(child.pid, 0)
elapsed = time.monotonic() - start
if status != 0:
    sys.exit(f"bench: {sys.argv[2]} failed ({status})")
print(f"{elapsed:.4f} {usage.ru_maxrss}")
PY
# Each starts with nothing left to write back (the file just made, the last
# transfer's copy), so that none pays for the one before it.
measure() { sync; python3 "$work/measure.py" "$@"; }

# Up: chatctl send --attach, one message carrying the file ...
read -r up_secs up_rss < <(measure "$work/sent.json" "$bin/chatctl" send @benchpeer --attach "$work/big.bin" --quiet --json)
uid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["attachments"][0]["id"])' "$work/sent.json")
# ... and curl: a blob of its own, then the same multipart POST to the params URL.
curl -sS -H @"$work/token-header" -H 'Content-Type: application/json' \
    -d '{"blob":{"content_type":"application/octet-stream","name":"big.bin"}}' "$api/blobs.json" >"$work/blob.json"
python3 - "$work/blob.json" "$work/big.bin" >"$work/curl-upload.args" <<'PY'
import json, sys, urllib.parse
blob = json.load(open(sys.argv[1]))["blob"]
params = blob["blob_object_access"]["params"]
url, _, query = params.partition("?")
args = ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Expect:"]
for pair in query.split("&"):
    name, _, value = pair.partition("=")
    args += ["--form-string", f"{urllib.parse.unquote(name)}={urllib.parse.unquote(value)}"]
args += ["-F", f"file=@{sys.argv[2]};type=application/octet-stream", url]
print(blob["id"])
print("\0".join(args))
PY
curl_blob=$(sed -n 1p "$work/curl-upload.args")
sed -n 2p "$work/curl-upload.args" | tr -d '\n' | tr '\0' '\n' >"$work/curl-upload.list"
mapfile -t curl_args <"$work/curl-upload.list"
read -r curl_up_secs curl_up_rss < <(measure "$work/curl-up.status" curl "${curl_args[@]}")
[ "$(cat "$work/curl-up.status")" = 201 ] || { echo "bench: curl's upload answered $(cat "$work/curl-up.status")" >&2; exit 1; }
curl -sS -X PUT -H @"$work/token-header" -H 'Content-Type: application/json' \
    -d "{\"blob\":{\"size\":$(stat -c %s "$work/big.bin")}}" "$api/blobs/$curl_blob/complete.json" >/dev/null

# Down: chatctl download of chatctl's blob; curl GETs the same storage URL the redirect names.
read -r down_secs down_rss < <(measure /dev/null "$bin/chatctl" download "$uid" -o "$work/down-chatctl.bin" --quiet)
location=$(curl -sS -o /dev/null -w '%{redirect_url}' -H @"$work/token-header" "$api/blobs/$uid.json")
read -r curl_down_secs curl_down_rss < <(measure /dev/null curl -sS -o "$work/down-curl.bin" "$location")
cmp -s "$work/big.bin" "$work/down-chatctl.bin" || { echo "bench: chatctl's download differs from the file" >&2; exit 1; }
cmp -s "$work/big.bin" "$work/down-curl.bin" || { echo "bench: curl's download differs from the file" >&2; exit 1; }
sandbox_hwm=$(awk '/VmHWM/ {print $2}' "/proc/$sandbox_pid/status")

echo "$size_mb $up_secs $up_rss $curl_up_secs $down_secs $down_rss $curl_down_secs $sandbox_hwm" >"$result"
if [ "$result" != /dev/stdout ] && [ -z "${BENCH_TRANSFERS_QUIET:-}" ]; then cat "$result"; fi
