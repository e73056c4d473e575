#!/usr/bin/env bash
# Installs the Debian 12 packages LoopPlayer needs; only missing ones, so it is cheap to repeat.
#   scripts/install-deps.sh          build and run (FFmpeg, SDL2, Cairo, Pango, librsvg and libass development
#                                    files, and the default font of overlay text and subtitles; GTK 4's for
#                                    Examples/GTKBackground)
#   scripts/install-deps.sh --tests  also what the tests use (ffmpeg tool, Xvfb, xwininfo, xdotool, python3 for
#                                    the loopback HTTP servers, openbox: a window manager for the
#                                    picture-in-picture window, which only one can keep on top; openssl: the
#                                    certificate of the https test server; socat and python-mpv-jsonipc from
#                                    PyPI, into .build/test-python: real clients of the mpv IPC; prometheus
#                                    and its promtool: a real scraper and checker of the metrics endpoint;
#                                    dpkg-dev, fakeroot, lintian, debootstrap and man-db: the Debian package
#                                    built, checked and installed in a fresh Debian 12 root)
set -euo pipefail
packages=(pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
          libavfilter-dev libsdl2-dev libcairo2-dev libpango1.0-dev librsvg2-dev libass-dev fonts-dejavu-core
          libgtk-4-dev)
tests=false; [[ ${1:-} == --tests ]] && tests=true
$tests && packages+=(ffmpeg xvfb x11-utils xdotool python3 python3-pip openbox openssl socat prometheus
                     dpkg-dev fakeroot lintian debootstrap man-db)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=(); [[ $(id -u) == 0 ]] || sudo=(sudo)
  echo "installing: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The mpv client library the IPC tests drive loopplay with, beside the build (not into the system's Python).
python_lib="$(cd "$(dirname "$0")/.." && pwd)/.build/test-python"
if $tests && [[ ! -f $python_lib/python_mpv_jsonipc.py ]]; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target "$python_lib" \
    python-mpv-jsonipc==1.5.0
fi
