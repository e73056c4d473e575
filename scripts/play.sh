#!/usr/bin/env bash
# Setup command 1: installs what is missing, builds loopplay (release) and loops the bundled sample
# in a window. With no display it says so in one line and plays headless (stats + snapshot).
# Extra arguments go to loopplay, e.g. scripts/play.sh --fullscreen
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
scripts/install-deps.sh
swift build -c release --product loopplay
exec .build/release/loopplay --source swipe --loop "$@"
