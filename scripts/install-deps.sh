#!/usr/bin/env bash
# Installs the Debian 12 packages LoopPlayer needs; only missing ones, so it is cheap to repeat.
#   scripts/install-deps.sh          build and run (FFmpeg, SDL2, Cairo, Pango, librsvg and libass development
#                                    files, and the default font of overlay text and subtitles)
#   scripts/install-deps.sh --tests  also what the tests use (ffmpeg tool, Xvfb, xwininfo, xdotool, python3 for
#                                    the loopback HTTP servers, openbox: a window manager for the
#                                    picture-in-picture window, which only one can keep on top; openssl: the
#                                    certificate of the https test server)
set -euo pipefail
packages=(pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
          libavfilter-dev libsdl2-dev libcairo2-dev libpango1.0-dev librsvg2-dev libass-dev fonts-dejavu-core)
[[ ${1:-} == --tests ]] && packages+=(ffmpeg xvfb x11-utils xdotool python3 openbox openssl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
sudo=(); [[ $(id -u) == 0 ]] || sudo=(sudo)
echo "installing: ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
