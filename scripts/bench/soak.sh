#!/usr/bin/env bash
# Soak: loop a short clip with sound for a while and watch the resident memory.
#   scripts/bench/soak.sh CLIP SECONDS [loopplay flags...]
# Prints RSS every 30 s, then loopplay's statistics (wraps, underruns, picture − sound).
set -euo pipefail
clip=$1 seconds=$2; shift 2
LP=${LP:-.build/release/loopplay}
out=$(mktemp -d)
"$LP" --source "$clip" --loop --headless --duration "$seconds" --stats-json "$out/stats.json" "$@" 2>/dev/null &
pid=$!
for ((t = 0; t < seconds; t += 30)); do
  sleep 30
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
  echo "t=$((t + 30)) s  RSS ${rss} kB"
done
wait $pid
python3 -c "import json; d = json.load(open('$out/stats.json')); print('loops', d['loopsCompleted'], '| underruns', d['audioUnderruns'], '| picture − sound mean', round(d['avOffsetMeanMs'] or 0, 2), 'ms, largest', round(d['avOffsetMaxMs'] or 0, 2), 'ms | frames dropped', d['framesDropped'], '| peak RSS', d['peakRSSBytes'] // 1024, 'kB | CPU', round(d['cpuSeconds'], 2), 's')"
