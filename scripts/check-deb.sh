#!/usr/bin/env bash
# The Debian package on a fresh Debian 12: lintian, then a minimal root made by debootstrap (kept
# as a tarball in CACHE between runs, unpacked afresh each time), where the package is installed with
# apt-get (so its Depends must be right), run (--version, man, completions, a headless --loops 2 of
# the bundled sample, the shipped config), removed and purged; nothing of it may be left.
#   scripts/check-deb.sh [DEB]     (default: scripts/package-deb.sh builds one; needs root)
#   CACHE=/var/cache/loopplay-check-deb (default)
# The archive is the one this machine's apt uses (its sources are copied into the root).
set -euo pipefail
[[ -n ${1:-} ]] && set -- "$(realpath -m "$1")"  # before the cd below
cd "$(dirname "$0")/.."
shopt -s nullglob
fail() { echo "check-deb.sh: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || fail "needs root (debootstrap and chroot)"
for tool in debootstrap lintian chroot systemd-analyze man lexgrog; do command -v "$tool" >/dev/null || fail "$tool is missing (scripts/install-deps.sh --tests)"; done
started=$SECONDS
if [[ -n ${1:-} ]]; then deb=$1; else deb=$(scripts/package-deb.sh | tail -1); fi
[[ -f $deb ]] || fail "no package at '$deb'"
echo "package: $deb, $(du -k "$deb" | cut -f1) KiB, built in $((SECONDS - started)) s"
version=$(dpkg-deb -f "$deb" Version)

# lintian: no error and no warning (what cannot be fixed is overridden in the package, with its reason).
lint=$(lintian "$deb" 2>&1 | grep -v "running with root privileges" || true)
[[ -z $lint ]] || fail "lintian: $lint"
echo "lintian: clean"
# The man page as groff and man-db read it: no warning, and a NAME line whatis can index.
page=$(mktemp -d /tmp/loopplay-man-XXXXXX)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$page" ./usr/share/man/man1/loopplay.1.gz
warned=$(LC_ALL=C.UTF-8 man --warnings -l "$page/usr/share/man/man1/loopplay.1.gz" 2>&1 >/dev/null || echo "man failed")
indexed=$(lexgrog "$page/usr/share/man/man1/loopplay.1.gz" 2>&1 || true)
rm -rf "$page"
[[ -z $warned ]] || fail "man --warnings: $warned"
grep -q 'loopplay - ' <<<"$indexed" || fail "lexgrog finds no NAME line: $indexed"
echo "man page: no groff warning; lexgrog: ${indexed#*: }"

# The first Debian archive this machine's apt reads from (deb822 or one-line sources).
sources=(/etc/apt/sources.list.d/*.sources) lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
mirror=""
((${#sources[@]})) && mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)\/\?$/\1/p' "${sources[@]}" | head -1 || true)
[[ -n $mirror ]] || mirror=$(grep -shE '^deb .*/debian/? bookworm' "${lists[@]}" | awk '{print $2}' | head -1 || true)
[[ -n $mirror ]] || fail "no Debian archive in this machine's apt sources"
cache=${CACHE:-/var/cache/loopplay-check-deb}
tarball=$cache/bookworm-minbase.tar
mkdir -p "$cache"
# One maker of the cached root at a time; a run that waited finds it made.
exec 8> "$cache/.lock" && flock 8
if [[ ! -f $tarball ]]; then
  fresh=$(mktemp -d "$cache/root-XXXXXX")
  trap 'rm -rf --one-file-system "$fresh"' EXIT
  debootstrap --variant=minbase bookworm "$fresh" "$mirror" > "$cache/debootstrap.log" 2>&1 \
    || fail "debootstrap failed (its log: $cache/debootstrap.log)"
  tar -C "$fresh" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
  rm -rf --one-file-system "$fresh"
  trap - EXIT
  echo "debootstrap: made $tarball"
fi
flock -u 8

root=$(mktemp -d /tmp/loopplay-debroot-XXXXXX)
chmod 0755 "$root"  # apt's _apt and man-db's man users read it, as they read a real /
cleanup() {
  umount "$root/dev/pts" 2>/dev/null || true
  umount "$root/proc" 2>/dev/null || true
  if mountpoint -q "$root/proc" || mountpoint -q "$root/dev/pts"; then echo "check-deb.sh: left mounted in $root" >&2
  else rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT
tar -C "$root" -xf "$tarball"
mount -t proc proc "$root/proc"
mount -t devpts devpts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
cp -a /etc/apt/sources.list.d/. "$root/etc/apt/sources.list.d/"  # (nullglob: the rm above may match nothing)
[[ -f /etc/apt/sources.list ]] && cp /etc/apt/sources.list "$root/etc/apt/"
# Only what apt will read: the host's disabled lists stay disabled.
find "$root/etc/apt/sources.list.d" -type f ! -name '*.sources' ! -name '*.list' -delete
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -qq -o APT::Sandbox::User=root  # the unpacked lists are not _apt's
install_started=$SECONDS
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" > "$root/tmp/install.log" 2>&1 \
  || { tail -20 "$root/tmp/install.log"; fail "apt-get install of the package failed"; }
echo "installed with its Depends in $((SECONDS - install_started)) s: $(in_root dpkg-query -W -f='${Installed-Size}' loopplay) KiB"

# What a user runs first.
said=$(in_root loopplay --version) || fail "loopplay --version failed"
echo "$said"
grep -q "^loopplay $version (commit " <<<"$said" || fail "--version does not name $version and its commit"
said=$(in_root loopplay --help) || fail "loopplay --help failed"
grep -q "^USAGE: loopplay" <<<"$said" || fail "--help printed no usage"
in_root apt-get install -y -qq --no-install-recommends man-db bash-completion zsh fish > /dev/null 2>&1 || fail "man-db and the shells did not install"
page=$(in_root man -P cat loopplay 2>"$root/tmp/man.err") || fail "man loopplay failed: $(cat "$root/tmp/man.err")"
for section in NAME SYNOPSIS OPTIONS KEYS IPC CONFIGURATION "EXIT STATUS" ENVIRONMENT FILES; do
  grep -q "^$section" <<<"$page" || fail "man loopplay has no $section section"
done
grep -q -- "--video-rotate" <<<"$page" || fail "man loopplay does not list --video-rotate"
# bash: the completion loaded the way bash-completion loads it, asked to complete a word.
bash_completes() {  # the words before, then the one being typed
  in_root bash -c 'source /usr/share/bash-completion/bash_completion; _completion_loader loopplay
    COMP_WORDS=(loopplay "$@"); COMP_CWORD=$#; COMP_LINE="loopplay $*"; COMP_POINT=${#COMP_LINE}
    $(complete -p loopplay | sed -n "s/.*-F \([^ ]*\) .*/\1/p") loopplay "${@: -1}" "${COMP_WORDS[COMP_CWORD-1]}"
    echo "${COMPREPLY[@]}"' bash "$@"
}
words=$(bash_completes --video-r)
grep -q -- "--video-rotate" <<<"$words" || fail "bash completes '--video-r' as '$words'"
words=$(bash_completes --gravity f)
[[ $words == fill ]] || fail "bash completes '--gravity f' as '$words'"
words=$(bash_completes /usr/share/loopplay/Media/sw)
[[ $words == /usr/share/loopplay/Media/swipe.mp4 ]] || fail "bash completes a source's path as '$words'"
words=$(in_root fish -c 'complete -C "loopplay --video-r"')
grep -q -- "--video-rotate" <<<"$words" || fail "fish completes '--video-r' as '$words'"
# zsh: a real interactive zsh on a pseudo-terminal (zpty), typing `loopplay --video-r` and Tab; the
# read waits for the completed word or zsh's error, and timeout bounds it.
cat > "$root/tmp/complete.zsh" <<'ZSH'
zmodload zsh/zpty
zpty -b z 'zsh -f -i'
zpty -w z 'autoload -U compinit && compinit -u && PS1="ready> "'
zpty -w -n z $'loopplay --video-r\t'
zpty -r z said '*(--video-rotate |doubled rest|_arguments:)*' && print -r -- "$said"
ZSH
words=$(in_root timeout 60 zsh -f /tmp/complete.zsh 2>&1) || fail "zsh did not complete '--video-r': $words"
grep -q -- "--video-rotate " <<<"$words" && ! grep -q "doubled rest\|_arguments:" <<<"$words" \
  || fail "zsh completes '--video-r' as: $words"
echo "man page, bash, zsh and fish completions: work"

# The units as installed, checked by this machine's systemd (ExecStart pointed into the root, whose
# loopplay runs here too; their man: link is the page checked above).
units=$(mktemp -d /tmp/loopplay-units-XXXXXX)
sed "s|/usr/bin/loopplay|$root/usr/bin/loopplay|" "$root/usr/lib/systemd/system/loopplay@.service" > "$units/loopplay@lobby.service"
sed "s|/usr/bin/loopplay|$root/usr/bin/loopplay|" "$root/usr/lib/systemd/user/loopplay.service" > "$units/loopplay.service"
said=$(systemd-analyze verify --man=no "$units/loopplay@lobby.service" 2>&1 \
  && XDG_RUNTIME_DIR=$units systemd-analyze --user verify --man=no "$units/loopplay.service" 2>&1) \
  || { rm -rf "$units"; fail "systemd-analyze verify: $said"; }
rm -rf "$units"
echo "systemd units: verified"

# The bundled sample, twice round, headless (no display here), and the shipped config read as is.
stats=$(in_root loopplay --headless --untimed --loops 2 --stats-json - swipe) || fail "loopplay --loops 2 swipe failed"
grep -q '"loopsCompleted":2' <<<"$stats" || fail "the sample did not loop twice: $stats"
stats=$(in_root loopplay --no-config --config /etc/loopplay/loopplay.conf --headless --untimed --loops 1 --stats-json -) \
  || fail "the shipped /etc/loopplay/loopplay.conf did not play"
grep -q '"loopsCompleted":1' <<<"$stats" || fail "the shipped config did not play its source: $stats"
echo "headless --loops 2 of the bundled sample and the shipped config: played"

# Removed, the conffile stays (dpkg's rule); purged, nothing of the package is left, not even the
# link of a screen the administrator enabled (`systemctl enable loopplay@lobby` makes it).
mkdir -p "$root/etc/systemd/system/graphical.target.wants"
ln -s /usr/lib/systemd/system/loopplay@.service "$root/etc/systemd/system/graphical.target.wants/loopplay@lobby.service"
in_root apt-get remove -y -qq loopplay > /dev/null
[[ ! -e $root/usr/bin/loopplay && -f $root/etc/loopplay/loopplay.conf ]] || fail "remove left the program or took the conffile"
in_root apt-get purge -y -qq loopplay > /dev/null
in_root dpkg-query -W loopplay >/dev/null 2>&1 && [[ $(in_root dpkg-query -W -f='${db:Status-Status}' loopplay) != not-installed ]] \
  && fail "dpkg still knows loopplay after purge"
left=$(cd "$root" && ls -d etc/loopplay usr/share/loopplay usr/share/doc/loopplay usr/lib/systemd/system/loopplay@.service \
  etc/systemd/system/graphical.target.wants/loopplay@lobby.service 2>/dev/null || true)
[[ -z $left ]] || fail "purge left: $left"
echo "removed and purged: nothing left"
echo "check-deb.sh: $version passed in $((SECONDS - started)) s"
