#!/usr/bin/env bash
# CPU of 1080p30 (video only) in a 1280x720 window: Examples/GTKBackground (GTK 4, Cairo renderer)
# against loopplay's own window, under one Xvfb, alternating, ROUNDS times (default 2), SECONDS each.
#   scripts/bench/gtk-background.sh FIXTURE.mp4     (release builds of both: swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/../.."
fixture=${1:?a 1080p30 clip (../shared/bench/make-fixtures.sh: a-1080p30-h264-aac.mp4)}
seconds=${SECONDS_EACH:-20}
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/lp-gtk-bench-XXXXXX)
ffmpeg -loglevel error -y -i "$fixture" -an -c copy "$work/video.mp4"
Xvfb :91 -screen 0 1920x1080x24 -nolisten tcp & xvfb=$!
trap 'kill $xvfb; rm -rf "$work"' EXIT
sleep 1
export DISPLAY=:91
for round in $(seq "${ROUNDS:-2}"); do
  /usr/bin/time -o "$work/gtk.time" -f "%U %S %M" env GSK_RENDERER=cairo GTK_A11Y=none GDK_BACKEND=x11 \
    "$bin/GTKBackground" "$work/video.mp4" "$seconds" 1280x720 > "$work/gtk.out"
  read -r user sys rss < "$work/gtk.time"
  echo "round $round GTKBackground: cpu $(echo "$user + $sys" | bc) s, max RSS $((rss / 1024)) MB, $(tail -1 "$work/gtk.out")"
  /usr/bin/time -o "$work/lp.time" -f "%U %S %M" "$bin/loopplay" --no-config --loop --duration "$seconds" \
    --window-size 1280x720 --stats-json "$work/lp.json" "$work/video.mp4" > /dev/null
  read -r user sys rss < "$work/lp.time"
  echo "round $round loopplay: cpu $(echo "$user + $sys" | bc) s, max RSS $((rss / 1024)) MB," \
    "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['framesPresented'], 'frames presented,', d['framesDropped'], 'dropped')" "$work/lp.json")"
done
