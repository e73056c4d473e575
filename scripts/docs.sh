#!/usr/bin/env bash
# Builds the API documentation (DocC) of the library's layers as one combined archive, and fails on
# any DocC warning (a broken link, a symbol an article names that is not there).
#
#   scripts/docs.sh      → .build/plugins/Swift-DocC/outputs/LoopPlayer.doccarchive
#
# The public types live in the layer that owns them (PlayerError in LoopPlayerCore, VideoFrame in
# LoopPlayerMedia, ComposedFrame in LoopPlayerOutput…) and `import LoopPlayer` re-exports them; the
# catalog in Sources/LoopPlayer links to them as ``/LoopPlayerCore/PlayerError``, which DocC resolves
# in a combined build of the four targets.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift package generate-documentation --enable-experimental-combined-documentation \
  --target LoopPlayerCore --target LoopPlayerMedia --target LoopPlayerOutput --target LoopPlayer --target LoopPlayerIPC --target LoopPlayerMetrics 2>&1 | tee "$log" | tail -2
if grep -q "warning:" "$log"; then
  grep "warning:" "$log" | sort -u >&2
  echo "docs.sh: DocC warnings (above)" >&2
  exit 1
fi
