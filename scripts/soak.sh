#!/usr/bin/env bash
# make soak: SOAK_MINUTES (30) of ordinary use against one sandbox (--db, --token-ttl 60)
# that is restarted every SOAK_RESTART_SECONDS (300; SIGTERM and SIGKILL in turn, same
# ports): two chat views in tmux typing now and then, three `listen --json --download`,
# a `send --lines` trickle into a group, attachments both ways between two users.
# At the end: every message delivered once to each of its recipients (their listens'
# JSON and their histories), every file whole (sha256), no long-lived process grown by
# more than 10 % resident (VmRSS after SOAK_WARMUP_SECONDS against the end; the sandbox
# per run, after a minute against just before its restart) nor holding more descriptors
# (/proc/PID/fd: the fewest held in the minute after the warm-up against the fewest in
# the last minute, so connections that come and go are not counted as a leak while a
# leak, which never goes, still raises the floor; 2 of slack). Prints a table
# of figures; exits 1 when a check fails (the work directory is then kept).
#   usage: scripts/soak.sh BIN_DIR
set -uo pipefail
bin=$(cd "${1:-.build/release}" && pwd)
minutes=${SOAK_MINUTES:-30}
restart_every=${SOAK_RESTART_SECONDS:-300}
warmup=${SOAK_WARMUP_SECONDS:-120}
trickle_interval=${SOAK_TRICKLE_INTERVAL:-0.2}
attach_every=${SOAK_ATTACH_SECONDS:-40}
type_every=${SOAK_TYPE_SECONDS:-30}
password=soak-password-1
work=$(mktemp -d "${TMPDIR:-/tmp}/chatctl-soak.XXXXXX")
tmux_socket="chatctl-soak-$$"
sandbox_pid=""
background=()
log() { printf 'soak: %s %s\n' "$(date +%T)" "$*" >&2; }

cleanup() {
    tmux -L "$tmux_socket" kill-server 2>/dev/null
    for pid in "${background[@]}"; do kill "$pid" 2>/dev/null; done
    [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the sandbox ---------------------------------------------------------------
sandbox_runs=0
# start_sandbox API_PORT CHAT_PORT: waits for its config line (its ready signal).
start_sandbox() {
    sandbox_runs=$((sandbox_runs + 1))
    local out="$work/sandbox.$sandbox_runs.out"
    : >"$out"
    "$bin/chatctl-sandbox" --host 127.0.0.1 --api-port "$1" --chat-port "$2" --db "$work/sandbox.db" \
        --token-ttl 60 --log-level warning >"$out" 2>>"$work/sandbox.log" &
    sandbox_pid=$!
    for _ in $(seq 200); do
        [ "$(wc -l <"$out")" -ge 1 ] && break
        kill -0 "$sandbox_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ "$(wc -l <"$out")" -lt 1 ]; then
        log "the sandbox did not start; its log:"; tail -20 "$work/sandbox.log" >&2; exit 1
    fi
    sandbox_started=$(date +%s)
    sandbox_warm_rss=""; sandbox_warm_fd=""; sandbox_recent_fd=""
}
rss_of() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
fds_of() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
# fewer A B: the smaller count, A when B is empty.
fewer() { if [ -z "$1" ] || { [ -n "$2" ] && [ "$2" -lt "$1" ]; }; then echo "$2"; else echo "$1"; fi; }

start_sandbox 0 0
head -1 "$work/sandbox.1.out" >"$work/config.json"
api_port=$(jq -r '.endpoints.api' "$work/config.json" | sed 's/.*:\([0-9]*\).*/\1/')
chat_port=$(jq -r '.endpoints.chat' "$work/config.json" | sed 's/.*:\([0-9]*\).*/\1/')
export CHATCTL_CONFIG="$work/config.json"

# --- the users -----------------------------------------------------------------
users="alice bob carol"
declare -A login id
for u in $users; do
    login[$u]="soak$u$$"
    mkdir -p "$work/$u/downloads"
    result=$(printf '%s\n' "$password" | CHATCTL_STATE_DIR="$work/$u/state" "$bin/chatctl" login --login "${login[$u]}" \
        --password-stdin --no-chat --json) || { log "login of $u failed"; exit 1; }
    id[$u]=$(jq -r '.user.id' <<<"$result")
done
as() { local u=$1; shift; CHATCTL_STATE_DIR="$work/$u/state" "$bin/chatctl" "$@"; }
group=$(as alice dialogs create --group soak --with "@${login[bob]},@${login[carol]}" --json | jq -r '._id')
as alice dialogs create --private "@${login[bob]}" --json >/dev/null
[ -n "$group" ] && [ "$group" != null ] || { log "the group was not made"; exit 1; }

# --- three listens, two chat views -----------------------------------------------
declare -A pid_of
for u in $users; do
    CHATCTL_STATE_DIR="$work/$u/state" "$bin/chatctl" listen --json --download "$work/$u/downloads" \
        >"$work/$u/listen.jsonl" 2>"$work/$u/listen.err" &
    pid_of[listen-$u]=$!; background+=($!)
done
for u in $users; do
    for _ in $(seq 300); do grep -q "listening to" "$work/$u/listen.err" && break; sleep 0.1; done
    grep -q "listening to" "$work/$u/listen.err" || { log "listen of $u did not start:"; cat "$work/$u/listen.err" >&2; exit 1; }
done
# Alice's view on the group, Bob's on Alice: each types a line now and then.
# A view that exits stays on its pane (remain-on-exit), so what it said can be shown.
printf 'set -g remain-on-exit on\nset -g default-terminal tmux-256color\n' >"$work/tmux.conf"
tmux -L "$tmux_socket" -f "$work/tmux.conf" new-session -d -s alice -x 100 -y 30 \
    "exec env CHATCTL_STATE_DIR=$work/alice/state TERM=tmux-256color $bin/chatctl chat $group"
tmux -L "$tmux_socket" new-session -d -s bob -x 100 -y 30 \
    "exec env CHATCTL_STATE_DIR=$work/bob/state TERM=tmux-256color $bin/chatctl chat @${login[alice]}"
for view in alice bob; do
    pid_of[chat-$view]=$(tmux -L "$tmux_socket" list-panes -t "$view" -F '#{pane_pid}')
done
for view in alice bob; do
    for _ in $(seq 300); do tmux -L "$tmux_socket" capture-pane -p -t "$view" | grep -q "connected" && break; sleep 0.1; done
    tmux -L "$tmux_socket" capture-pane -p -t "$view" | grep -q "connected" ||
        { log "the chat view of $view did not connect; its screen:"; tmux -L "$tmux_socket" capture-pane -p -t "$view" >&2; exit 1; }
done

# --- the traffic -------------------------------------------------------------------
start=$(date +%s)
deadline=$((start + minutes * 60))
# The trickle: Carol into the group, one line every SOAK_TRICKLE_INTERVAL seconds.
(
    n=0
    # Until the end samples are taken (the stop file), so the send is sampled running.
    while [ ! -e "$work/stop-trickle" ]; do
        echo "soak trickle $n"; n=$((n + 1)); sleep "$trickle_interval"
    done
) | tee "$work/trickle.sent" | CHATCTL_STATE_DIR="$work/carol/state" "$bin/chatctl" send "$group" --lines \
    >"$work/trickle.out" 2>"$work/trickle.err" &
# $! of a pipeline is its last command: chatctl itself.
trickle_job=$!
pid_of[send-lines-carol]=$trickle_job
background+=("$trickle_job")

# Expected deliveries, one line each: KIND<TAB>RECIPIENT<TAB>TEXT (trickle lines are added at the end).
: >"$work/expected"
: >"$work/files"
attachment=0; typed=0
next_attach=$((start + 5)); next_type=$((start + 10)); next_restart=$((start + restart_every))
declare -A samples_rss samples_fd end_rss end_fd
warmed=0
sandbox_table=""
sample_sandbox_end() {
    local rss fd
    rss=$(rss_of "$sandbox_pid"); fd=$(fewer "$sandbox_recent_fd" "$(fds_of "$sandbox_pid")")
    sandbox_table+="sandbox run $sandbox_runs|${sandbox_warm_rss:-?}|${rss:-?}|${sandbox_warm_fd:-?}|${fd:-?}"$'\n'
}
while :; do
    now=$(date +%s)
    if [ "$now" -ge "$deadline" ]; then
        # The end samples of the clients, while the trickle's send is still running.
        for name in "${!pid_of[@]}"; do end_rss[$name]=$(rss_of "${pid_of[$name]}"); end_fd[$name]=$(fewer "${end_fd[$name]:-}" "$(fds_of "${pid_of[$name]}")"); done
        touch "$work/stop-trickle"
        break
    fi
    if [ "$warmed" = 0 ] && [ "$now" -ge $((start + warmup)) ]; then
        for name in "${!pid_of[@]}"; do
            samples_rss[$name]=$(rss_of "${pid_of[$name]}"); samples_fd[$name]=$(fds_of "${pid_of[$name]}")
        done
        warmed=1; log "warm-up samples taken"
    fi
    # Descriptor floors: the fewest in the minute after the warm-up, and in the last minute.
    if [ "$warmed" = 1 ] && [ "$now" -lt $((start + warmup + 60)) ]; then
        for name in "${!pid_of[@]}"; do samples_fd[$name]=$(fewer "${samples_fd[$name]:-}" "$(fds_of "${pid_of[$name]}")"); done
    fi
    if [ "$now" -ge $((deadline - 60)) ]; then
        for name in "${!pid_of[@]}"; do end_fd[$name]=$(fewer "${end_fd[$name]:-}" "$(fds_of "${pid_of[$name]}")"); done
    fi
    if [ -z "$sandbox_warm_rss" ] && [ "$now" -ge $((sandbox_started + 60)) ]; then
        sandbox_warm_rss=$(rss_of "$sandbox_pid"); sandbox_warm_fd=$(fds_of "$sandbox_pid")
    elif [ -n "$sandbox_warm_rss" ] && [ "$now" -lt $((sandbox_started + 120)) ]; then
        sandbox_warm_fd=$(fewer "$sandbox_warm_fd" "$(fds_of "$sandbox_pid")")
    fi
    if [ "$now" -ge $((next_restart - 60)) ]; then
        sandbox_recent_fd=$(fewer "$sandbox_recent_fd" "$(fds_of "$sandbox_pid")")
    fi
    if [ "$now" -ge "$next_restart" ] && [ $((deadline - now)) -gt 60 ]; then
        sample_sandbox_end
        if [ $((sandbox_runs % 2)) = 1 ]; then signal=KILL; else signal=TERM; fi
        log "restarting the sandbox (SIG$signal)"
        kill -s "$signal" "$sandbox_pid"; wait "$sandbox_pid" 2>/dev/null
        start_sandbox "$api_port" "$chat_port"
        cmp -s <(head -1 "$work/sandbox.$sandbox_runs.out") "$work/config.json" || log "the config line changed across a restart"
        next_restart=$((now + restart_every))
    fi
    if [ "$now" -ge "$next_attach" ]; then
        attachment=$((attachment + 1))
        if [ $((attachment % 2)) = 1 ]; then from=alice; to=bob; else from=bob; to=alice; fi
        name="soak-$from-$attachment.bin"
        head -c $(( (RANDOM % 2048 + 1) * 1024 )) /dev/urandom >"$work/$from/$name"
        printf '%s\t%s\t%s\n' "$to" "$name" "$(sha256sum <"$work/$from/$name" | cut -d' ' -f1)" >>"$work/files"
        printf 'file\t%s\tsoak file %s\n' "$to" "$attachment" >>"$work/expected"
        as "$from" send "@${login[$to]}" --attach "$work/$from/$name" --quiet "soak file $attachment" \
            >>"$work/attach.out" 2>>"$work/attach.err" || log "send --attach $attachment: exit $? (flushed at the end)"
        next_attach=$((now + attach_every))
    fi
    if [ "$now" -ge "$next_type" ]; then
        typed=$((typed + 1))
        tmux -L "$tmux_socket" send-keys -t alice -l "soak view alice $typed"
        tmux -L "$tmux_socket" send-keys -t alice Enter
        printf 'view\tbob\tsoak view alice %s\nview\tcarol\tsoak view alice %s\n' "$typed" "$typed" >>"$work/expected"
        tmux -L "$tmux_socket" send-keys -t bob -l "soak view bob $typed"
        tmux -L "$tmux_socket" send-keys -t bob Enter
        printf 'view\talice\tsoak view bob %s\n' "$typed" >>"$work/expected"
        next_type=$((now + type_every))
    fi
    sleep 1
done

# --- the end: let everything arrive ------------------------------------------------
log "traffic over; waiting for the trickle to be acknowledged"
wait "$trickle_job"; trickle_status=$?
for u in $users; do as "$u" outbox flush --quiet >>"$work/flush.out" 2>>"$work/flush.err" || log "outbox flush of $u: exit $?"; done
while read -r line; do
    printf 'trickle\talice\t%s\ntrickle\tbob\t%s\n' "$line" "$line" >>"$work/expected"
done <"$work/trickle.sent"
# Delivered means in the recipient's listen: wait (up to two minutes) until each has its count.
expected_in() { awk -F'\t' -v u="$1" '$2 == u' "$work/expected" | wc -l; }
heard_in() { jq -r 'select(.outgoing != true) | .message' "$work/$1/listen.jsonl" 2>/dev/null | grep -c '^soak ' ; }
for _ in $(seq 120); do
    all=1
    for u in $users; do [ "$(heard_in "$u")" -ge "$(expected_in "$u")" ] || all=0; done
    [ "$all" = 1 ] && break
    sleep 1
done
sample_sandbox_end
for view in alice bob; do tmux -L "$tmux_socket" capture-pane -p -t "$view" >"$work/$view.screen" 2>/dev/null; done

# --- the checks ------------------------------------------------------------------------
failed=0
fail() { log "FAILED: $*"; failed=1; }
percent() { awk -v w="$1" -v e="$2" 'BEGIN { printf "%+.1f", (e - w) * 100 / w }'; }
[ "$trickle_status" = 0 ] || fail "send --lines exited $trickle_status: $(tail -3 "$work/trickle.err")"
sent_lines=$(wc -l <"$work/trickle.sent")
printf '\nsoak: %s minutes, sandbox restarted %s times (token TTL 60 s), %s trickle lines, %s files, %s lines typed in each view\n\n' \
    "$minutes" $((sandbox_runs - 1)) "$sent_lines" "$attachment" "$typed"

printf '%-10s %9s %9s %10s %9s\n' recipient expected delivered duplicates missing
for u in $users; do
    awk -F'\t' -v u="$u" '$2 == u { print $3 }' "$work/expected" | sort >"$work/$u.expected"
    jq -r 'select(.outgoing != true) | .message' "$work/$u/listen.jsonl" | grep '^soak ' | sort >"$work/$u.heard"
    dups=$(uniq -d <"$work/$u.heard" | wc -l)
    missing=$(comm -23 "$work/$u.expected" <(sort -u "$work/$u.heard") | wc -l)
    printf '%-10s %9s %9s %10s %9s\n' "$u" "$(wc -l <"$work/$u.expected")" "$(wc -l <"$work/$u.heard")" "$dups" "$missing"
    [ "$dups" = 0 ] || fail "$u heard $dups messages more than once"
    [ "$missing" = 0 ] || fail "$u never heard $missing messages, e.g. $(comm -23 "$work/$u.expected" <(sort -u "$work/$u.heard") | head -1)"
done
# The trickle in each listen in the order it was written, and in the group's history once each.
for u in alice bob; do
    jq -r 'select(.outgoing != true) | .message' "$work/$u/listen.jsonl" | grep '^soak trickle ' >"$work/$u.trickle"
    cmp -s "$work/$u.trickle" "$work/trickle.sent" || fail "the trickle reached $u's listen out of order or incomplete"
done
as alice history "$group" --json --limit $((sent_lines + typed + 100)) | jq -r '.[].message' >"$work/group.history"
grep '^soak trickle ' "$work/group.history" | cmp -s - "$work/trickle.sent" || fail "the group's history does not hold the trickle once each, in order"
for n in $(seq "$typed"); do
    [ "$(grep -cx "soak view alice $n" "$work/group.history")" = 1 ] || fail "'soak view alice $n' is not once in the group's history"
done
as alice history "@${login[bob]}" --json --limit 10000 | jq -r '.[].message' >"$work/private.history"
for n in $(seq "$typed"); do
    [ "$(grep -cx "soak view bob $n" "$work/private.history")" = 1 ] || fail "'soak view bob $n' is not once in alice and bob's history"
done
for n in $(seq "$attachment"); do
    [ "$(grep -cx "soak file $n" "$work/private.history")" = 1 ] || fail "'soak file $n' is not once in alice and bob's history"
done

whole=0
while IFS=$'\t' read -r to name sum; do
    got=$(sha256sum <"$work/$to/downloads/$name" 2>/dev/null | cut -d' ' -f1)
    if [ "$got" = "$sum" ]; then whole=$((whole + 1)); else fail "$name is not whole in $to's downloads"; fi
done <"$work/files"
printf '\nfiles: %s sent, %s whole at their recipient (sha256)\n\n' "$attachment" "$whole"

printf '%-18s %12s %12s %7s %9s %7s\n' process "RSS warm KB" "RSS end KB" growth "fds warm" "fds end"
for name in $(printf '%s\n' "${!pid_of[@]}" | sort); do
    w=${samples_rss[$name]:-}; e=${end_rss[$name]:-}; fw=${samples_fd[$name]:-}; fe=${end_fd[$name]:-}
    if [ -z "$w" ] || [ -z "$e" ]; then
        printf '%-18s %12s %12s %7s %9s %7s\n' "$name" "${w:--}" "${e:-gone}" - "${fw:--}" "${fe:--}"
        fail "$name was not running at the warm-up or the end"
        continue
    fi
    growth=$(( (e - w) * 1000 / w ))
    printf '%-18s %12s %12s %6s%% %9s %7s\n' "$name" "$w" "$e" "$(percent "$w" "$e")" "$fw" "$fe"
    [ "$growth" -le 100 ] || fail "$name grew its resident memory by more than 10 %"
    [ "$fe" -le $((fw + 2)) ] || fail "$name holds $fe descriptors, $fw after the warm-up"
done
while IFS='|' read -r name w e fw fe; do
    [ -n "$name" ] || continue
    if [ "$w" = "?" ] || [ "$e" = "?" ]; then printf '%-18s %12s %12s %7s %9s %7s\n' "$name" "$w" "$e" - "$fw" "$fe"; continue; fi
    growth=$(( (e - w) * 1000 / w ))
    printf '%-18s %12s %12s %6s%% %9s %7s\n' "$name" "$w" "$e" "$(percent "$w" "$e")" "$fw" "$fe"
    [ "$growth" -le 100 ] || fail "$name grew its resident memory by more than 10 %"
    [ "$fe" -le $((fw + 2)) ] || fail "$name holds $fe descriptors, $fw a minute in"
done <<<"$sandbox_table"

if [ "$failed" = 0 ]; then
    printf '\nsoak: every check passed\n'
    rm -rf "$work"
    exit 0
fi
printf '\nsoak: some checks failed; everything is kept in %s\n' "$work" >&2
exit 1
