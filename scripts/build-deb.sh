#!/usr/bin/env bash
# Builds chatctl_VERSION_ARCH.deb and chatctl-sandbox_VERSION_ARCH.deb from release
# binaries already built (make deb), with Debian's own tools: dpkg-shlibdeps for the
# libraries the binaries link, packaging/deb/dlopen-libraries for those chatctl opens
# on first use (at the versions installed here), dpkg-gencontrol, dpkg-deb, then lintian,
# which must report no errors. Usage: scripts/build-deb.sh BIN_DIR OUT_DIR
set -euo pipefail
bin=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
pkg="$root/packaging/deb"

version=$("$root/scripts/version.sh")
commit=$("$root/scripts/version.sh" --commit)
debversion="$version-1"
arch=$(dpkg --print-architecture)
# The commit's time for every date in the packages (changelog, file times): the same
# commit gives the same packages.
if git -C "$root" rev-parse --verify --quiet HEAD >/dev/null 2>&1; then
    export SOURCE_DATE_EPOCH=$(git -C "$root" log -1 --format=%ct)
    maintainer=$(git -C "$root" log --reverse --format='%an <%ae>' | sed -n 1p)
else
    export SOURCE_DATE_EPOCH=$(date +%s)
    maintainer="chatctl maintainers <chatctl@localhost>"
fi
maintainer=${DEB_MAINTAINER:-$maintainer}
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-unstable}")

# The binaries must say the version the packages carry (make release stamps it).
for program in chatctl chatctl-sandbox; do
    said=$("$bin/$program" --version)
    if [ "$said" != "$program $version" ]; then
        echo "build-deb.sh: $bin/$program says '$said', not '$program $version': run make release" >&2
        exit 1
    fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir debian
sed "s|@MAINTAINER@|$maintainer|" "$pkg/control" > debian/control
{
    echo "chatctl ($debversion) $codename; urgency=medium"
    echo
    echo "  * Built from commit $commit."
    echo "    What changed is in changelog.gz beside this file (CHANGELOG.md)."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} > debian/changelog

# One package's tree: the binary (stripped), its man page and completions, docs.
stage() {
    local program=$1 tree="$work/$1"
    install -d "$tree/usr/bin" "$tree/usr/share/man/man1" "$tree/usr/share/doc/$program" \
        "$tree/usr/share/bash-completion/completions" "$tree/usr/share/zsh/vendor-completions" \
        "$tree/usr/share/fish/vendor_completions.d" "$tree/DEBIAN"
    install -m 0755 "$bin/$program" "$tree/usr/bin/$program"
    strip --strip-unneeded --remove-section=.comment --remove-section=.note "$tree/usr/bin/$program"
    # The pages and completions are what the binary prints, so they match the program.
    "$bin/$program" help --man | gzip -9n > "$tree/usr/share/man/man1/$program.1.gz"
    "$bin/$program" completion bash > "$tree/usr/share/bash-completion/completions/$program"
    "$bin/$program" completion zsh > "$tree/usr/share/zsh/vendor-completions/_$program"
    "$bin/$program" completion fish > "$tree/usr/share/fish/vendor_completions.d/$program.fish"
    install -m 0644 "$pkg/copyright" "$tree/usr/share/doc/$program/copyright"
    gzip -9n < debian/changelog > "$tree/usr/share/doc/$program/changelog.Debian.gz"
    gzip -9n < "$root/CHANGELOG.md" > "$tree/usr/share/doc/$program/changelog.gz"
    if [ -f "$pkg/$program.lintian-overrides" ]; then
        install -d "$tree/usr/share/lintian/overrides"
        install -m 0644 "$pkg/$program.lintian-overrides" "$tree/usr/share/lintian/overrides/$program"
    fi
}
stage chatctl
stage chatctl-sandbox
gzip -9n < "$root/README.md" > chatctl/usr/share/doc/chatctl/README.md.gz
install -m 0644 "$root/config.example.json" chatctl/usr/share/doc/chatctl/config.example.json
install -d chatctl-sandbox/usr/lib/systemd/system
install -m 0644 "$pkg/chatctl-sandbox.service" chatctl-sandbox/usr/lib/systemd/system/chatctl-sandbox.service
for script in postinst prerm postrm; do
    install -m 0755 "$pkg/chatctl-sandbox.$script" "chatctl-sandbox/DEBIAN/$script"
done

# Linked libraries: dpkg-shlibdeps, from the symbols files of the libraries installed here.
for program in chatctl chatctl-sandbox; do
    dpkg-shlibdeps -T"debian/$program.substvars" -e "$program/usr/bin/$program"
done

# Libraries opened with dlopen: the list says which package ships each soname (checked
# here against dpkg's own records) and whether chatctl needs it or can do without.
declare -A relation_of=() version_of=()
while read -r soname package relation; do
    case $soname in ''|'#'*) continue ;; esac
    owners=$(dpkg-query -S "*/$soname" 2>/dev/null | cut -d: -f1 | sort -u)
    if ! grep -qx "$package" <<<"$owners"; then
        echo "build-deb.sh: $soname is not in $package here (dpkg -S says: ${owners:-nothing}); fix packaging/deb/dlopen-libraries" >&2
        exit 1
    fi
    installed=$(dpkg-query -W -f='${Version}' "$package:$arch" 2>/dev/null || dpkg-query -W -f='${Version}' "$package")
    # At least the upstream version installed here (epoch kept, Debian revision dropped).
    version_of[$package]=${installed%-*}
    if [ "${relation_of[$package]:-}" != Depends ]; then relation_of[$package]=$relation; fi
done < "$pkg/dlopen-libraries"
depends=() recommends=()
for package in $(printf '%s\n' "${!relation_of[@]}" | sort); do
    entry="$package (>= ${version_of[$package]})"
    case ${relation_of[$package]} in
        Depends) depends+=("$entry") ;;
        Recommends) recommends+=("$entry") ;;
        *) echo "build-deb.sh: unknown relation '${relation_of[$package]}' for $package" >&2; exit 1 ;;
    esac
done
join() { local IFS=,; local joined="$*"; echo "${joined//,/, }"; }
{
    echo "dlopen:Depends=$(join "${depends[@]}")"
    echo "dlopen:Recommends=$(join "${recommends[@]}")"
} >> debian/chatctl.substvars

for program in chatctl chatctl-sandbox; do
    # DEBIAN/md5sums, as dh_md5sums writes it: what debsums checks an installation against.
    (cd "$program" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums)
    dpkg-gencontrol -p"$program" -P"$program" -v"$debversion" -T"debian/$program.substvars" -fdebian/files
    deb="$out/${program}_${debversion}_$arch.deb"
    dpkg-deb --root-owner-group -Zxz --build "$program" "$deb" >/dev/null
    echo "built $deb"
    echo "  Depends: $(dpkg-deb -f "$deb" Depends)"
done

# Errors fail the build; what remains beyond them is listed in docs/packaging.md, with why.
lintian --fail-on error --tag-display-limit 0 \
    "$out/chatctl_${debversion}_$arch.deb" "$out/chatctl-sandbox_${debversion}_$arch.deb"
echo "lintian: no errors"
