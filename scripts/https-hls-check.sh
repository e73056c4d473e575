#!/usr/bin/env bash
# Plays a 3-segment VOD HLS presentation from a self-signed https server on 127.0.0.1 with the
# release loopplay, ROUNDS times, and counts the runs that crashed (issue 23: TLS's close-notify
# called the interrupt callback on a freed NetworkWatch, SIGSEGV in 11 of 15 runs).
#   scripts/https-hls-check.sh [ROUNDS]      (default 20; builds loopplay in release first)
#   LOOPPLAY=/path/to/loopplay scripts/https-hls-check.sh 20     (another build, e.g. an older commit's)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
rounds=${1:-20}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "https-hls-check.sh: ROUNDS must be 1 or more, not '$rounds'" >&2; exit 64; }
if [[ -n ${LOOPPLAY:-} ]]; then
  bin=$LOOPPLAY
else
  swift build -c release --product loopplay 2>&1 | grep -E "error" || true
  bin=$(swift build -c release --show-bin-path)/loopplay
fi
work=$(mktemp -d /tmp/lp-https-XXXXXX)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
ffmpeg -hide_banner -loglevel error -f lavfi -i testsrc2=s=426x240:r=30:d=3 -c:v libx264 -preset veryfast -g 30 \
  -f hls -hls_time 1 -hls_playlist_type vod -hls_segment_filename "$work/seg%d.ts" "$work/index.m3u8"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
echo '{}' > "$work/control.json"
python3 -u Tests/LoopPlayerTests/Support/fault_server.py --root "$work" --control "$work/control.json" --log "$work/log.jsonl" \
  --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" > "$work/port" &
server=$!
for _ in $(seq 50); do grep -q port "$work/port" 2>/dev/null && break; sleep 0.1; done
port=$(awk '{print $2}' "$work/port")
crashed=0; failed=0
for round in $(seq "$rounds"); do
  status=0
  "$bin" --headless --untimed --loops 2 "https://127.0.0.1:$port/index.m3u8" >/dev/null 2>"$work/err" || status=$?
  if ((status >= 128)); then crashed=$((crashed + 1)); echo "round $round: killed by signal $((status - 128))"
  elif ((status != 0)); then failed=$((failed + 1)); echo "round $round: exit $status: $(head -c 300 "$work/err")"; fi
done
echo "https HLS, $rounds runs of the release loopplay: $crashed crashed, $failed failed, $((rounds - crashed - failed)) played"
((crashed == 0 && failed == 0))
