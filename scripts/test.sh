#!/usr/bin/env bash
# Setup command 2: installs what is missing (build and test packages), builds, runs every test.
# Window tests start their own Xvfb; media is generated at test time with the ffmpeg tool.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
scripts/install-deps.sh --tests
swift build --build-tests
swift test --skip-build --disable-swift-testing
