#!/usr/bin/env bash
# Writes DIR/chatctl_build_stamp.h, the version, commit and Swift version that
# Sources/Shims/CBuildInfo compiles in (the Makefile's release build puts DIR on the include
# path). Left untouched when nothing changed, so a rebuild does not recompile it.
# Usage: scripts/build-stamp.sh DIR SWIFT
set -euo pipefail
dir=$1 swift=$2
here=$(dirname "$0")
version=$("$here/version.sh")
commit=$("$here/version.sh" --commit)
swift_version=$("$swift" --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -n 1)
for value in "$version" "$commit" "$swift_version"; do
    case $value in *[!A-Za-z0-9.+~-]*) echo "build-stamp.sh: unexpected characters in '$value'" >&2; exit 1 ;; esac
done
mkdir -p "$dir"
new="$dir/chatctl_build_stamp.h.new"
{
    echo "// Written by scripts/build-stamp.sh for make release; not in git."
    echo "#define CHATCTL_VERSION \"$version\""
    echo "#define CHATCTL_COMMIT \"$commit\""
    echo "#define CHATCTL_SWIFT_VERSION \"$swift_version\""
} > "$new"
if cmp -s "$new" "$dir/chatctl_build_stamp.h"; then rm "$new"; else mv "$new" "$dir/chatctl_build_stamp.h"; fi
