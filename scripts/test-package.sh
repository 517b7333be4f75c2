#!/usr/bin/env bash
# The packages as a person uses them (make test-package): installs the two .deb files
# in OUT_DIR into this machine with apt, runs what was installed (versions, man page,
# bash completion, the unit through systemd-analyze, then the sandbox started with the
# unit's own command line serving a short walk-through to the installed chatctl),
# removes them (the sandbox's data stays), purges them (nothing stays).
# Run as root or with sudo. Usage: scripts/test-package.sh OUT_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "$1" && pwd)
version=$("$root/scripts/version.sh")
arch=$(dpkg --print-architecture)
debs=("$out/chatctl_$version-1_$arch.deb" "$out/chatctl-sandbox_$version-1_$arch.deb")
sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
unit=/usr/lib/systemd/system/chatctl-sandbox.service

say() { echo "test-package: $*"; }
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }
expect_equal() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }
for deb in "${debs[@]}"; do [ -f "$deb" ] || fail "no $deb: run make deb"; done

work=$(mktemp -d)
chmod 0755 "$work"
sandbox_pid=""
cleanup() {
    [ -z "$sandbox_pid" ] || $sudo kill "$sandbox_pid" 2>/dev/null || true
    # Never leave the machine with the packages half-checked.
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq chatctl chatctl-sandbox >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# Every file the packages hold, to check that a purge leaves none of them.
for deb in "${debs[@]}"; do dpkg-deb --fsys-tarfile "$deb" | tar -t; done | sed 's|^\./|/|' | grep -v '/$' | sort -u > "$work/files"

say "apt install ${debs[*]##*/}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${debs[@]}" >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install"; }

expect_equal "$(/usr/bin/chatctl --version)" "chatctl $version" "chatctl --version"
expect_equal "$(/usr/bin/chatctl-sandbox --version)" "chatctl-sandbox $version" "chatctl-sandbox --version"
expect_equal "$(man -w chatctl)" /usr/share/man/man1/chatctl.1.gz "man -w chatctl"
expect_equal "$(man -w chatctl-sandbox)" /usr/share/man/man1/chatctl-sandbox.1.gz "man -w chatctl-sandbox"
# sed reads the whole page: head would close the pipe early, and zcat's SIGPIPE fail it under pipefail.
zcat /usr/share/man/man1/chatctl.1.gz | sed -n 1p | grep -qF "\"chatctl $version\"" || fail "chatctl.1's .TH line lacks the version $version"
completion=$(bash -c 'source /usr/share/bash-completion/completions/chatctl && complete -p chatctl')
case $completion in "complete -F "*" chatctl") ;; *) fail "bash completion: '$completion'" ;; esac
say "versions, man pages and bash completion: ok"

if command -v systemd-analyze >/dev/null; then
    $sudo systemd-analyze verify "$unit" || fail "systemd-analyze verify $unit"
    say "systemd-analyze verify: ok"
else
    say "SKIPPED systemd-analyze verify: this machine has no systemd-analyze"
fi

getent passwd chatctl-sandbox >/dev/null || fail "no user chatctl-sandbox"
expect_equal "$(stat -c '%U:%G %a' /var/lib/chatctl-sandbox)" "chatctl-sandbox:chatctl-sandbox 750" "/var/lib/chatctl-sandbox"

# The unit's command line, as its user, in the runtime directory systemd would make:
# no systemd is needed to check that the installed sandbox serves the installed client.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
$sudo install -d -o chatctl-sandbox -g chatctl-sandbox -m 0750 /run/chatctl-sandbox
$sudo setpriv --reuid=chatctl-sandbox --regid=chatctl-sandbox --init-groups -- $exec_start --log-level warning >/dev/null 2>"$work/sandbox.err" &
sandbox_pid=$!
config=/run/chatctl-sandbox/config.json
until $sudo test -s "$config"; do
    kill -0 "$sandbox_pid" 2>/dev/null || { cat "$work/sandbox.err" >&2; fail "the sandbox stopped before writing $config"; }
    sleep 0.1
done
expect_equal "$($sudo stat -c '%U:%G %a' "$config")" "chatctl-sandbox:chatctl-sandbox 640" "$config"
$sudo cat "$config" > "$work/config.json"
export CHATCTL_CONFIG="$work/config.json"
alice=(env CHATCTL_STATE_DIR="$work/alice" /usr/bin/chatctl)
bob=(env CHATCTL_STATE_DIR="$work/bob" /usr/bin/chatctl)
printf 'bob-secret-1\n' | "${bob[@]}" login --login bob --password-stdin >/dev/null
printf 'alice-secret-1\n' | "${alice[@]}" login --login alice --password-stdin >/dev/null
"${alice[@]}" send @bob "hello from the package" >/dev/null
"${alice[@]}" send @bob --attach "$root/config.example.json" "the example config" >/dev/null
history=$("${bob[@]}" history @alice)
grep -q "hello from the package" <<<"$history" || fail "bob's history lacks alice's message: $history"
grep -q "config.example.json" <<<"$history" || fail "bob's history lacks alice's attachment: $history"
$sudo kill "$sandbox_pid"; wait "$sandbox_pid" || true; sandbox_pid=""
$sudo test -s /var/lib/chatctl-sandbox/sandbox.db || fail "the sandbox kept no database in /var/lib/chatctl-sandbox"
say "the unit's command line served login, send, an attachment and history: ok"

$sudo env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq chatctl chatctl-sandbox >/dev/null
[ ! -e /usr/bin/chatctl ] && [ ! -e /usr/bin/chatctl-sandbox ] || fail "remove left the binaries"
$sudo test -s /var/lib/chatctl-sandbox/sandbox.db || fail "remove deleted the sandbox's data"
getent passwd chatctl-sandbox >/dev/null || fail "remove deleted the user that owns the data"
say "remove kept /var/lib/chatctl-sandbox and its user: ok"

$sudo env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq chatctl chatctl-sandbox >/dev/null
left=$(while read -r file; do [ ! -e "$file" ] || echo "$file"; done < "$work/files")
[ -z "$left" ] || fail "purge left: $left"
[ ! -e /var/lib/chatctl-sandbox ] || fail "purge left /var/lib/chatctl-sandbox"
! getent passwd chatctl-sandbox >/dev/null || fail "purge left the user chatctl-sandbox"
! getent group chatctl-sandbox >/dev/null || fail "purge left the group chatctl-sandbox"
! dpkg-query -W chatctl chatctl-sandbox >/dev/null 2>&1 || fail "dpkg still knows the packages"
[ ! -e /var/lib/systemd/deb-systemd-helper-enabled/chatctl-sandbox.service.dsh-also ] || fail "purge left deb-systemd-helper's state"
say "purge left no file, user, group or data: ok"
