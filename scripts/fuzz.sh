#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS (not part of CI): the parsers of untrusted input, built with
# libFuzzer and AddressSanitizer in Fuzz/.build. Crashes are written to /tmp/lp-fuzz/TARGET/ (replay
# one with: Fuzz/.build/debug/TARGET FILE); every crash found becomes a test.
#   scripts/fuzz.sh FuzzHLSPlaylist 600        HLS playlists and attribute lists
#   scripts/fuzz.sh FuzzM3UPlaylist 300        .m3u playlists (--playlist)
#   scripts/fuzz.sh FuzzSubtitleFile 600       external subtitle files, from their bytes
#   scripts/fuzz.sh FuzzParsers 300            colours, WxH sizes, filter specs, the source policy
# Seeds are in Fuzz/Corpus/TARGET; what the fuzzer adds goes to /tmp/lp-fuzz/TARGET/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
targets=(FuzzHLSPlaylist FuzzM3UPlaylist FuzzSubtitleFile FuzzParsers)
target=${1:-}; seconds=${2:-60}
if [[ ! " ${targets[*]} " == *" $target "* ]]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS   (TARGET: ${targets[*]})" >&2
  exit 64
fi
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 64; }
scripts/install-deps.sh
# lld: gold fails on the instrumented objects (an internal error in its DWARF reader).
(cd Fuzz && swift build -c debug --product "$target" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
out=/tmp/lp-fuzz/$target
mkdir -p "$out/corpus" "$out/crashes"
status=0
Fuzz/.build/debug/"$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
  -artifact_prefix="$out/crashes/" -print_final_stats=1 "$out/corpus" "Fuzz/Corpus/$target" || status=$?
echo "fuzz.sh: $target ran ${seconds} s; exit $status; crashes: $(ls "$out/crashes" | wc -l) in $out/crashes"
exit "$status"
