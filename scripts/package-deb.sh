#!/usr/bin/env bash
# Builds the Debian package of loopplay from this checkout and prints its path as the last line:
#   scripts/package-deb.sh [OUTDIR]        (default .build/deb; LOOPPLAY_DEB_ALLOW_DIRTY=1 for a tree with changes)
# The release loopplay with the Swift runtime linked in (the target needs no toolchain), Depends
# worked out by dpkg-shlibdeps from what the binary links, the bundled sample, the man page and
# completions made from the binary's own definitions, systemd units, an example conffile.
# The version is LibraryVersions.loopPlayer's; --version names the commit it was built from.
set -euo pipefail
[[ -n ${1:-} ]] && { mkdir -p "$1"; set -- "$(cd "$1" && pwd)"; }  # before the cd below
cd "$(dirname "$0")/.."
# One packaging at a time in a checkout: the commit's header and the release build are shared.
mkdir -p .build && exec 9> .build/package-deb.lock && flock 9
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
out=$(mkdir -p "${1:-.build/deb}" && cd "${1:-.build/deb}" && pwd)
for tool in dpkg-deb dpkg-shlibdeps fakeroot gzip python3; do
  command -v "$tool" >/dev/null || { echo "package-deb.sh: $tool is missing (scripts/install-deps.sh --package)" >&2; exit 69; }
done
# Debian's own variables name who made the package.
maintainer="${DEBFULLNAME:-LoopPlayer} <${DEBEMAIL:-loopplay@example.org}>"
version=$(sed -n 's/.*static let loopPlayer = "\([^"]*\)".*/\1/p' Sources/LoopPlayerOutput/LibraryVersions.swift)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "package-deb.sh: no version in LibraryVersions.swift" >&2; exit 70; }
commit=$(git rev-parse --short=10 HEAD 2>/dev/null || echo unknown)
# A package names the commit it was built from: not a tree with changes, unless asked (the test
# script packages the tree it tests).
if [[ -n $(git status --porcelain 2>/dev/null) ]]; then
  [[ ${LOOPPLAY_DEB_ALLOW_DIRTY:-} == 1 ]] || {
    echo "package-deb.sh: the tree has uncommitted changes (commit them, or LOOPPLAY_DEB_ALLOW_DIRTY=1 for a -dirty package)" >&2; exit 65; }
  commit+=-dirty
fi

# The commit reaches the build through a header written for this build alone (ignored by git) and
# taken out after it; touching the file that includes it makes SwiftPM compile it again both times.
header=Sources/CBuildInfo/build_commit.h
forget_commit() { rm -f "$header"; touch Sources/CBuildInfo/build_info.c; }
trap forget_commit EXIT
echo "#define LP_BUILD_COMMIT $commit" > "$header"
touch Sources/CBuildInfo/build_info.c
# Relocations read-only before main (lintian's hardening-no-bindnow).
build=(swift build -c release --static-swift-stdlib --product loopplay -Xlinker -z -Xlinker now)
if ! "${build[@]}" > "$out/build.log" 2>&1; then
  grep -E "error" "$out/build.log" >&2 || tail -20 "$out/build.log" >&2
  echo "package-deb.sh: the build failed (its log: $out/build.log)" >&2; exit 1
fi
bin=$("${build[@]}" --show-bin-path)/loopplay
forget_commit
trap - EXIT
"$bin" --version | grep -q "(commit $commit)" || { echo "package-deb.sh: the binary does not name commit $commit" >&2; exit 70; }

work=$(mktemp -d /tmp/loopplay-deb-XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/loopplay/Media" "$root/usr/share/man/man1" \
  "$root/usr/share/doc/loopplay" "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/lib/systemd/system" "$root/usr/lib/systemd/user" "$root/etc/loopplay"
install -m 0755 "$bin" "$root/usr/bin/loopplay"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/loopplay"
install -m 0644 Sources/LoopPlayer/Resources/Media/swipe.mp4 "$root/usr/share/loopplay/Media/"
# The man page's date is the commit's, so that two builds of one commit make the same page.
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s) python3 scripts/make-man.py "$bin" "$work/loopplay.1" "$version"
gzip -9n -c "$work/loopplay.1" > "$root/usr/share/man/man1/loopplay.1.gz"
# swift-argument-parser's scripts, less the `help` subcommand it gives every command (loopplay has
# none: `loopplay help` plays a file named help; in zsh its rest argument doubles the sources' and
# every Tab fails); bash sources its completions: no #! line (lintian's bash-completion-with-hashbang).
"$bin" --generate-completion-script bash | sed "1{/^#!/d}; /compgen -W 'help'/d" \
  > "$root/usr/share/bash-completion/completions/loopplay"
"$bin" --generate-completion-script zsh | sed "/'(-): :->command'/d; /'(-)\*:: :->arg'/d" \
  > "$root/usr/share/zsh/vendor-completions/_loopplay"
"$bin" --generate-completion-script fish | sed "/-fa 'help' -d 'Show subcommand help information.'/d" \
  > "$root/usr/share/fish/vendor_completions.d/loopplay.fish"
grep -q -- "->arg'" "$root/usr/share/zsh/vendor-completions/_loopplay" && { echo "package-deb.sh: the zsh script kept its help subcommand" >&2; exit 70; }
install -m 0644 contrib/debian/loopplay@.service "$root/usr/lib/systemd/system/loopplay@.service"
install -m 0644 contrib/debian/loopplay.user.service "$root/usr/lib/systemd/user/loopplay.service"
install -m 0644 contrib/debian/loopplay.conf "$root/etc/loopplay/loopplay.conf"
echo /etc/loopplay/loopplay.conf > "$root/DEBIAN/conffiles"
for script in postinst prerm postrm; do install -m 0755 "contrib/debian/$script" "$root/DEBIAN/$script"; done
install -d "$root/usr/share/lintian/overrides"
install -m 0644 contrib/debian/lintian-overrides "$root/usr/share/lintian/overrides/loopplay"
install -m 0644 contrib/debian/copyright "$root/usr/share/doc/loopplay/copyright"
changelog_date=$(date -R -u -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")
printf 'loopplay (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
  "$version" "$commit" "$maintainer" "$changelog_date" | gzip -9n > "$root/usr/share/doc/loopplay/changelog.gz"
chmod 0644 "$root"/usr/share/*/*/* "$root"/usr/share/*/*/*/* 2>/dev/null || true

# Depends: what the binary links, as dpkg-shlibdeps finds it in this system's packages.
mkdir -p "$work/debian"
printf 'Source: loopplay\n\nPackage: loopplay\nArchitecture: amd64\n' > "$work/debian/control"
shlibs=$(cd "$work" && dpkg-shlibdeps -O root/usr/bin/loopplay 2>"$work/shlibdeps.err") \
  || { cat "$work/shlibdeps.err" >&2; echo "package-deb.sh: dpkg-shlibdeps failed" >&2; exit 70; }
depends=$(sed -n 's/^shlibs:Depends=//p' <<<"$shlibs")
[[ -n $depends ]] || { echo "package-deb.sh: dpkg-shlibdeps found no dependency" >&2; exit 70; }
# The default face of text and subtitles (fontconfig finds no font without one). SDL loads its GL
# and PipeWire back ends itself (Recommends): without them, software rendering and no pipewire driver.
depends+=", fonts-dejavu-core"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: loopplay
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: libgl1, libegl1, libgl1-mesa-dri, libpipewire-0.3-0
Suggests: prometheus, socat
Section: video
Priority: optional
Description: seamless video loop player for screens and signage
 loopplay plays a video in a seamless loop: local files, http(s) and HLS
 sources, playlists and schedules, with sound, subtitles, filters and vector
 overlays, in a window, fullscreen, on the panels of a video wall kept in step
 with other screens, or headless. It follows mpv's flags, keys, config file and
 JSON IPC, serves Prometheus metrics and runs as a systemd service per screen.
EOF
(cd "$root" && find usr etc -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"
deb=$out/loopplay_${version}_amd64.deb
# Every file dated at the commit, so that two builds of one commit make the same archive.
epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
find "$root" -exec touch -h -d "@$epoch" {} +
SOURCE_DATE_EPOCH=$epoch fakeroot dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >/dev/null
echo "$deb"
