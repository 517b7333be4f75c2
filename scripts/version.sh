#!/usr/bin/env bash
# The version a build carries, from git: "0.1.0" on the tag v0.1.0, "0.1.0+5.g1a2b3c4"
# five commits after it, "0.1.0~537.g1a2b3c4" before the first tag (the commit count
# keeps builds in order; "~" sorts them before 0.1.0 itself, as Debian compares versions).
# Outside a git checkout: the base version. `--commit` prints the commit instead
# ("1a2b3c4d5e6f", "+dirty" when tracked files differ from it, "unknown" outside git).
# Usage: scripts/version.sh [--commit]
set -euo pipefail
base=0.1.0
cd "$(dirname "$0")/.."

if ! git rev-parse --verify --quiet HEAD >/dev/null 2>&1; then
    if [ "${1:-}" = --commit ]; then echo unknown; else echo "$base"; fi
    exit 0
fi

if [ "${1:-}" = --commit ]; then
    commit=$(git rev-parse --short=12 HEAD)
    git update-index -q --refresh >/dev/null 2>&1 || true
    git diff-index --quiet HEAD -- || commit="$commit+dirty"
    echo "$commit"
    exit 0
fi

if described=$(git describe --tags --match 'v[0-9]*' --long 2>/dev/null); then
    # v0.1.0-5-g1a2b3c4: the tag, the commits since, the commit.
    hash=${described##*-}
    rest=${described%-*}
    count=${rest##*-}
    tag=${rest%-*}
    version=${tag#v}
    if [ "$count" != 0 ]; then version="$version+$count.$hash"; fi
else
    version="$base~$(git rev-list --count HEAD).g$(git rev-parse --short=7 HEAD)"
fi
echo "$version"
