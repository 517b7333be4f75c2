# Sourced by bench-router.sh and bench-scale.sh: `start_sandbox [OPTION…]` starts a
# chatctl-sandbox of their own on free loopback ports (its config line in
# $work/config.json, its process in $sandbox_pid), `stop_sandbox` stops it, and
# everything goes at exit. Needs: $bin (directory of the binaries).
# Its users sign up with --password-iterations 1000 (the least it takes): PBKDF2 is not
# what these figures measure, and BenchLoad says so in its output.
work=$(mktemp -d)
sandbox_pid=""
load_iterations=1000
stop_sandbox() {
    if [ -n "$sandbox_pid" ]; then
        kill "$sandbox_pid" 2>/dev/null || true
        wait "$sandbox_pid" 2>/dev/null || true
        sandbox_pid=""
    fi
}
trap 'stop_sandbox; rm -rf "$work"' EXIT INT TERM

start_sandbox() {
    rm -f "$work/ready"
    mkfifo "$work/ready"
    "$bin/chatctl-sandbox" --api-port 0 --chat-port 0 --log-level warning --password-iterations "$load_iterations" "$@" \
        >"$work/ready" 2>>"$work/sandbox.log" &
    sandbox_pid=$!
    # The sandbox prints one line, its own chatctl config, once it listens.
    if ! read -r -t 20 config <"$work/ready"; then
        echo "$(basename "$0"): the sandbox did not start; its log:" >&2
        cat "$work/sandbox.log" >&2
        exit 1
    fi
    printf '%s\n' "$config" >"$work/config.json"
}
