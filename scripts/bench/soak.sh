#!/usr/bin/env bash
# Soak: loop a short clip with sound for a while and watch resident memory and threads.
#   scripts/bench/soak.sh CLIP SECONDS [loopplay flags...]
#   scripts/bench/soak.sh A,B SECONDS [loopplay flags...]   (a playlist, looping: a switch per item)
# Samples RSS and the thread count every 30 s, then prints the growth after a 60 s warm-up and
# loopplay's statistics (wraps, underruns, picture − sound, drops, CPU).
set -euo pipefail
clip=$1 seconds=$2; shift 2
LP=${LP:-.build/release/loopplay}
out=$(mktemp -d)
IFS=, read -r -a clips <<<"$clip"
if ((${#clips[@]} > 1)); then what=("${clips[@]}" --loop-playlist); else what=(--source "$clip" --loop); fi
"$LP" "${what[@]}" --headless --duration "$seconds" --stats-json "$out/stats.json" "$@" 2>/dev/null &
pid=$!
for ((t = 30; t < seconds; t += 30)); do
  sleep 30
  read -r rss threads < <(awk '/VmRSS/ {r = $2} /Threads/ {n = $2} END {print r + 0, n + 0}' /proc/$pid/status 2>/dev/null || echo "0 0")
  echo "t=$t s  RSS ${rss} kB  threads $threads" | tee -a "$out/samples"
done
wait $pid
awk '{ t = substr($1, 3) + 0; rss = $4; th = $7
       if (t >= 60) { if (first == "") first = rss; last = rss; if (rss > peak) peak = rss }
       if (minth == "" || th < minth) minth = th; if (th > maxth) maxth = th }
     END { printf "after warm-up (60 s): RSS %d → %d kB (growth %d kB, peak %d kB); threads %d…%d\n",
           first, last, last - first, peak, minth, maxth }' "$out/samples"
python3 -c "import json; d = json.load(open('$out/stats.json')); print('loops', d['loopsCompleted'], '| seams (wraps and switches)', len(d['seamIntervalsMs']), '| underruns', d['audioUnderruns'], '| picture − sound mean', round(d['avOffsetMeanMs'] or 0, 2), 'ms, largest', round(d['avOffsetMaxMs'] or 0, 2), 'ms | frames dropped', d['framesDropped'], '| peak RSS', d['peakRSSBytes'] // 1024, 'kB | CPU', round(d['cpuSeconds'], 2), 's')"
