#!/usr/bin/env bash
# Setup command 2: installs what is missing (build and test packages), builds, runs every test.
# Window tests start their own Xvfb; media is generated at test time with the ffmpeg tool.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
# docs/architecture.md names only targets, folders, files and types that exist (no build needed: first).
scripts/check-architecture.sh
# The public surface within its budget; no type over 800 lines with its extension files.
scripts/check-size.sh
scripts/install-deps.sh --tests
# The Prometheus alert rules shipped in contrib/: promtool's check and its unit tests of every alert.
scripts/check-rules.sh
# The Debian package (the release loopplay), installed, run and purged in a fresh Debian 12 root.
deb=$(LOOPPLAY_DEB_ALLOW_DIRTY=1 scripts/package-deb.sh | tail -1)
scripts/check-deb.sh "$deb"
# https HLS in a release build (the package's): a use-after-free at TLS's close crashed release builds only.
LOOPPLAY=$(swift build -c release --show-bin-path)/loopplay scripts/https-hls-check.sh 10
swift build --build-tests
log=$(mktemp -t loopplayer-tests.XXXXXX)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log" || status=$?
# The API documentation builds without a DocC warning.
scripts/docs.sh || status=1
# The full log is long; repeat what failed at its end, where a CI summary looks.
if ((status)); then
  echo "---- failures ----"
  grep -E ": error: |' failed \(" "$log" || echo "(no failure line; exit status $status)"
fi
exit "$status"
