# Sourced by demo.sh, startup-order.sh and bench-session.sh: starts a throw-away chatctl-sandbox on free
# loopback ports, points chatctl at it (CHATCTL_CONFIG, CHATCTL_STATE_DIR in a
# private work directory) and stops it, removing everything, on exit.
# Needs: $bin (directory of the binaries); $SANDBOX_ARGS, if set, adds options.
# Sets: $work, $sandbox_pid.
work=$(mktemp -d)
sandbox_pid=""
cleanup() {
    [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null && wait "$sandbox_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

mkfifo "$work/ready"
# shellcheck disable=SC2086 # SANDBOX_ARGS is a list of words
"$bin/chatctl-sandbox" --api-port 0 --chat-port 0 --log-level "${SANDBOX_LOG_LEVEL:-warning}" ${SANDBOX_ARGS:-} >"$work/ready" 2>"$work/sandbox.log" &
sandbox_pid=$!
# The sandbox prints one line, its own chatctl config, once it listens.
if ! read -r -t 20 config <"$work/ready"; then
    echo "$(basename "$0"): the sandbox did not start; its log:" >&2; cat "$work/sandbox.log" >&2; exit 1
fi
printf '%s\n' "$config" >"$work/config.json"
export CHATCTL_CONFIG="$work/config.json" CHATCTL_STATE_DIR="$work/state"
