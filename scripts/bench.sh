#!/usr/bin/env bash
# Benchmarks, not tests: loopplay against ffplay, mpv and `ffmpeg -f null` on the same machine in the
# same run, with ../shared/bench (fixtures, Xvfb, watchers). Results go to docs/benchmarks.md by hand.
#
#   scripts/bench.sh [seam|cpu|throughput|firstframe|kernels|filters|layers|audio|opus|overlay|subtitles|several|panels|rotate|snapshot|alerts|scale|realtime|cache|ipc|service|sync|syncplaylist|syncsound|all]   (default all; about 60 minutes)
#   scripts/bench.sh schedule      three windows on a synced schedule changing every 10 s (about 2 minutes)
#   BEFORE=path/to/older/loopplay scripts/bench.sh before-after   (the same checks on two builds, interleaved; about 8 minutes)
# Env: F=/tmp/lp-fixtures  OUT=/tmp/lp-bench-loopplay  DISP=:7 (below :10, see the bench README)
#      LP=path/to/loopplay: measure that build instead of building the release one (sound checks only)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH=$(cd "${BENCH:-../shared/bench}" && pwd)
export F=${F:-/tmp/lp-fixtures} OUT=${OUT:-/tmp/lp-bench-loopplay} DISP=${DISP:-:7}
mkdir -p "$OUT"
what=${1:-all}
command -v swift >/dev/null || export PATH=/opt/swift/usr/bin:$PATH
scripts/install-deps.sh --tests
missing=(); for p in mpv time imagemagick fonts-dejavu-core libx11-dev libxdamage-dev python3-xlib python3-numpy; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
((${#missing[@]} == 0)) || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [[ -z ${LP:-} ]]; then
  swift build -c release --product loopplay >/dev/null
  LP=$ROOT/.build/release/loopplay
fi
"$BENCH/make-fixtures.sh" "$F" >/dev/null
# Starts our own Xvfb on $DISP at SIZE (WxH) and sets xvfb_pid, or ends the run: another server may
# hold $DISP, and nothing measured on it would mean anything.
own_xvfb() {
  Xvfb "$DISP" -screen 0 "$1x24" -nolisten tcp >/dev/null 2>&1 & xvfb_pid=$!; sleep 1
  kill -0 "$xvfb_pid" 2>/dev/null && DISPLAY=$DISP xdpyinfo >/dev/null 2>&1 || { echo "$2: Xvfb $DISP did not start" >&2; exit 1; }
}
SWIPE=$F/c-swipe-640x360-h264.mp4 HD=$F/a-1080p30-h264-aac.mp4 SWIPE_AAC=$F/c-swipe-640x360-h264-aac.mp4

if [[ $what == seam || $what == all ]]; then
  echo "## Loop seam seen from the X server (seam.sh, 25 s)"
  CUSTOM_CMD="$LP --loop" PLAYERS="custom ffplay mpv-x11" "$BENCH/seam.sh" -d 25 "$SWIPE"
fi

if [[ $what == cpu || $what == all ]]; then
  echo "## CPU and memory, 20 s of 1080p30 under Xvfb (baseline.sh)"
  CUSTOM_CMD="$LP --loop" PLAYERS="custom ffplay mpv-x11" "$BENCH/baseline.sh" -d 20 "$HD"
  echo "### loopplay with SDL's YUV texture path (software renderer) instead of swscale into the surface"
  OUT=$OUT/texture CUSTOM_CMD="$LP --loop --video-output texture" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$HD"
fi

if [[ $what == throughput || $what == all ]]; then
  echo "## Headless untimed throughput, 1080p30 clip looped 3 times (900 frames), video only"
  for run in 1 2 3; do
    /usr/bin/time -f "ffmpeg -f null: wall %e s, cpu %U+%S s" \
      ffmpeg -hide_banner -nostdin -loglevel error -stream_loop 2 -an -i "$HD" -f null - 2>&1
    /usr/bin/time -f "loopplay --untimed: wall %e s, cpu %U+%S s" \
      "$LP" --source "$HD" --headless --untimed --loops 3 --stats-json "$OUT/throughput-$run.json" 2>&1
    python3 -c "import json; d = json.load(open('$OUT/throughput-$run.json')); print('  loopplay presented', d['framesPresented'], 'frames')"
  done
fi

if [[ $what == firstframe || $what == all ]]; then
  echo "## Time to first frame, local file, seen from the X server (7 runs each)"
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb=$!
  trap 'kill $xvfb 2>/dev/null' EXIT
  sleep 1
  export DISPLAY=$DISP SDL_AUDIODRIVER=dummy
  /usr/bin/python3 scripts/bench/first_frame.py 7 8 300 -- "$LP" --source "$SWIPE" --loop
  /usr/bin/python3 scripts/bench/first_frame.py 7 8 300 -- ffplay -loglevel quiet -loop 0 -left 0 -top 0 "$SWIPE"
  /usr/bin/python3 scripts/bench/first_frame.py 7 8 300 -- mpv --no-config --vo=x11 --ao=null --loop-file=inf --geometry=+0+0 "$SWIPE"
fi

if [[ $what == kernels || $what == all ]]; then
  echo "## Pixel kernels, one picture on one core (scripts/bench/kernels.c, clang -O2 as a release build)"
  k=$OUT/kernels; mkdir -p "$k"
  cflags=(-O2 -I Sources/CPixelKernels/include $(pkg-config --cflags sdl2 libswscale))
  libs=($(pkg-config --libs sdl2 libswscale libavutil))
  clang "${cflags[@]}" Sources/CPixelKernels/*.c scripts/bench/kernels.c -o "$k/kernels" "${libs[@]}"
  clang "${cflags[@]}" -DLP_KERNELS_WITHOUT_CLONES Sources/CPixelKernels/*.c scripts/bench/kernels.c -o "$k/kernels-sse2" "${libs[@]}"
  echo "### AVX2 clones (where the CPU has them)"; "$k/kernels"
  echo "### the default clone alone (SSE2)"; "$k/kernels-sse2" | grep "colour mixer"
fi

if [[ $what == layers || $what == all ]]; then
  echo "## Overlay layers by number, 20 s of 1080p30 in a window: logos, then planes over the whole picture"
  l=$OUT/layers; mkdir -p "$l"
  for i in $(seq 16); do
    x=$(( (i - 1) % 4 * 440 + 40 )) y=$(( (i - 1) / 4 * 250 + 40 ))
    printf '<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><rect x="%d" y="%d" width="240" height="120" rx="16" fill="#2060c0" fill-opacity="0.7" stroke="white" stroke-width="6"/></svg>\n' "$x" "$y" >"$l/logo$i.svg"
    printf '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="90"><rect x="4" y="4" width="152" height="82" rx="12" fill="#2060c0" fill-opacity="0.7"/></svg>\n' >"$l/whole$i.svg"
  done
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb3=$!
  sleep 1
  for kind in logo whole; do
    for n in 0 1 4 16; do
      args=(); for i in $(seq "$n"); do args+=(--overlay "$l/$kind$i.svg"); done
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "$kind x $n: cpu %U+%S s, max RSS %M KB" \
        "$LP" --source "$HD" --loop --duration 20 "${args[@]}" --stats-json "$l/$kind-$n.json" 2>&1 | tail -1
      python3 -c "import json,sys; d = json.load(open(sys.argv[1])); print('  shown', d['framesPresented'], 'dropped', d['framesDropped'])" "$l/$kind-$n.json"
    done
  done
  kill $xvfb3
fi

if [[ $what == filters || $what == all ]]; then
  echo "## Filters at 1080p: frames per CPU-second against ffmpeg -vf with the same chain (300 frames)"
  # Five alternating runs for the cheap chain (its difference is small), three for the heavy one.
  for case in "5 --brightness 0.1 --contrast 1.2" \
              "5 --brightness 0.1 --contrast 1.2 --filter sepia --filter vignette" \
              "3 --brightness 0.1 --contrast 1.2 --filter sepia --filter vignette --filter blur=2"; do
    runs=${case%% *} flags=${case#* }
    # shellcheck disable=SC2086
    graph=$("$LP" --source "$HD" $flags --print-filter-graph)
    echo "### $flags"
    echo "chain: $graph"
    for run in $(seq "$runs"); do
      /usr/bin/time -f "ffmpeg -vf: cpu %U+%S s wall %e s" ffmpeg -hide_banner -nostdin -loglevel error -an -i "$HD" \
        -vf "$graph" -f null - 2>&1
      # shellcheck disable=SC2086
      /usr/bin/time -f "loopplay:  cpu %U+%S s wall %e s" "$LP" --source "$HD" --headless --untimed $flags \
        --stats-json "$OUT/filters-$run.json" 2>&1
    done
  done
  echo "## Real time 1080p30 under Xvfb, 20 s, brightness+contrast+sepia+vignette, against mpv --vf"
  flags="--brightness 0.1 --contrast 1.2 --filter sepia --filter vignette"
  # shellcheck disable=SC2086
  graph=$("$LP" --source "$HD" $flags --print-filter-graph)
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb2=$!
  sleep 1
  # shellcheck disable=SC2086
  DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "loopplay: cpu %U+%S s, max RSS %M KB" \
    "$LP" --source "$HD" --loop --duration 20 $flags --stats-json "$OUT/filters-realtime.json" 2>&1
  python3 -c "import json; d = json.load(open('$OUT/filters-realtime.json')); print('  loopplay presented', d['framesPresented'], 'frames in 20 s, dropped', d['framesDropped'])"
  DISPLAY=$DISP /usr/bin/time -f "mpv --vo=x11: cpu %U+%S s, max RSS %M KB" timeout 20 mpv --no-config --really-quiet \
    --vo=x11 --ao=null --loop-file=inf --vf="lavfi=[$graph]" "$HD" 2>&1 | grep -v "^$" | tail -1
  kill $xvfb2
fi

if [[ $what == realtime || $what == all ]]; then
  echo "## Decoding at the pace of real time against all at once: 20 s of the 1080p30 clip, CPU-s, three alternating rounds"
  echo "### The same work in a C loop, back to back and with 30 ms sleeps (scripts/bench/paced.c, 300 pictures)"
  clang -O2 scripts/bench/paced.c -o "$OUT/paced"
  for run in 1 2; do
    for args in "1 300 0 1" "1 300 0.030 1" "1 300 0.030 8" "0 300 0 1" "0 300 0.030 1"; do
      # shellcheck disable=SC2086
      "$OUT/paced" $args
    done
  done
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb5=$!
  sleep 1
  for run in 1 2 3; do
    for threads in auto 1; do
      /usr/bin/time -f "ffmpeg -threads $threads -f null, all at once: cpu %U+%S s" ffmpeg -hide_banner -nostdin -loglevel error \
        -threads $threads -stream_loop 1 -i "$HD" -t 20 -f null - 2>&1
      /usr/bin/time -f "ffmpeg -threads $threads -re -f null, paced:     cpu %U+%S s" ffmpeg -hide_banner -nostdin -loglevel error \
        -threads $threads -re -stream_loop 1 -i "$HD" -t 20 -f null - 2>&1
    done
    SDL_AUDIODRIVER=dummy /usr/bin/time -f "loopplay --headless, paced:           cpu %U+%S s" \
      "$LP" --source "$HD" --loop --duration 20 --headless 2>&1
    DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "loopplay in the window, paced:       cpu %U+%S s" \
      "$LP" --source "$HD" --loop --duration 20 2>&1
  done
  kill $xvfb5
fi

if [[ $what == cache || $what == all ]]; then
  echo "## A short loop decoded once (--frame-cache): in a window under Xvfb, with and without, two alternating rounds"
  c=$OUT/cache; mkdir -p "$c"
  [[ -s $c/hd-3s.mp4 ]] || ffmpeg -hide_banner -nostdin -loglevel error -i "$HD" -t 3 -c copy -y "$c/hd-3s.mp4"
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb6=$!
  sleep 1
  for case in "$HD|20|1024" "$HD|60|1024" "$c/hd-3s.mp4|40|512" "$F/b-720p30-h264.mp4|40|512" "$SWIPE|40|256"; do
    IFS='|' read -r clip seconds budget <<<"$case"
    echo "### $(basename "$clip"), $seconds s, --frame-cache $budget"
    for run in 1 2; do
      for cache in 0 "$budget"; do
        DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "frame cache $cache MiB: cpu %U+%S s, max RSS %M KB" \
          "$LP" --source "$clip" --loop --duration "$seconds" --frame-cache "$cache" --stats-json "$c/run.json" 2>&1
        python3 -c "import json; d = json.load(open('$c/run.json')); print('  decoded', d['framesDecoded'], 'replayed', d['framesReplayed'], 'shown', d['framesPresented'], 'dropped', d['framesDropped'])"
      done
    done
  done
  kill $xvfb6
fi

if [[ $what == scale || $what == all ]]; then
  echo "## Scale: 20 s in a window from 360p to 2160p, one clip at 60 fps (baseline.sh: loopplay, mpv --vo=x11, ffmpeg decode-only)"
  # make OUTPUT LAVFI-SOURCE ENCODER-ARGS…: a generated clip, written under another name and renamed when whole.
  make() { local out=$1 source=$2; shift 2
    [[ -s $out ]] || { ffmpeg -hide_banner -nostdin -loglevel error -f lavfi -i "$source" "$@" -pix_fmt yuv420p -f mp4 -y "$out.part" \
                       && mv "$out.part" "$out"; }; }
  UHD=$OUT/g-2160p30-hevc.mp4   # 10 s of testsrc2 at 3840x2160, HEVC (libx265 ultrafast)
  make "$UHD" testsrc2=s=3840x2160:r=30:d=10 -c:v libx265 -preset ultrafast -x265-params log-level=error
  for clip in "$SWIPE" "$F/b-720p30-h264.mp4" "$HD" "$F/e-1080p60-hevc.mp4" "$UHD"; do
    OUT=$OUT/scale CUSTOM_CMD="$LP --loop" PLAYERS="custom mpv-x11" "$BENCH/baseline.sh" -d 20 "$clip"
  done
  echo "## Loop length: peak RSS after few and many loops of a 1 s clip, and over a 10 min clip (640x360, headless, untimed)"
  SHORT=$OUT/loop-1s.mp4 LONG=$OUT/loop-600s.mp4
  make "$SHORT" testsrc2=s=640x360:r=30:d=1 -c:v libx264 -preset veryfast
  make "$LONG" testsrc2=s=640x360:r=30:d=600 -c:v libx264 -preset ultrafast
  for run in "$SHORT:30" "$SHORT:3000" "$LONG:1"; do
    clip=${run%:*} loops=${run##*:}
    "$LP" --source "$clip" --headless --untimed --loops "$loops" --stats-json "$OUT/loop.json" >/dev/null
    python3 -c "import json, sys; d = json.load(open(sys.argv[2])); print(sys.argv[1], d['loopsCompleted'], 'loops,', \
      d['framesPresented'], 'frames, peak RSS', d['peakRSSBytes'] >> 20, 'MB')" "$(basename "$clip")" "$OUT/loop.json"
  done
fi

if [[ $what == overlay || $what == all ]]; then
  echo "## Overlays: 1080p30 in a window under Xvfb, 20 s each, three alternating rounds (baseline.sh)"
  swift build -c release --product AnimatedOverlay >/dev/null
  LOGO=$OUT/logo.svg; mkdir -p "$OUT"
  cat >"$LOGO" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 225">
  <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#ff8a00"/><stop offset="1" stop-color="#e52e71"/></linearGradient></defs>
  <g transform="translate(300 20)"><circle cx="40" cy="40" r="36" fill="url(#g)" stroke="#fff" stroke-width="4"/>
  <path d="M28 22 L62 40 L28 58 Z" fill="#fff"/></g>
</svg>
SVG
  FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
  static_vf="drawbox=x=1440:y=90:w=360:h=360:color=0xe52e71@0.9:t=fill,drawtext=fontfile=$FONT:text=LoopPlayer:x=20:y=20:fontsize=30:fontcolor=white:borderw=2"
  animated_vf="drawbox=x=1440:y=90:w=360:h=360:color=0xe52e71@0.9:t=fill,drawtext=fontfile=$FONT:text=%{n}:x=20:y=20:fontsize=30:fontcolor=white:borderw=2"
  MPV="mpv --no-config --really-quiet --vo=x11 --ao=null --loop-file=inf --title=lpbench --geometry=+0+0"
  for round in 1 2 3; do
    for case in "plain|$LP --loop --mute" \
                "static: SVG logo + text|$LP --loop --mute --overlay $LOGO --overlay-text LoopPlayer" \
                "animated: vector badge redrawn every frame (Examples/AnimatedOverlay)|$ROOT/.build/release/AnimatedOverlay" \
                "mpv plain|$MPV" \
                "mpv static: drawbox + drawtext|$MPV --vf=lavfi=[$static_vf]" \
                "mpv animated: drawbox + drawtext of the frame number|$MPV --vf=lavfi=[$animated_vf]"; do
      echo "### round $round, ${case%%|*}"
      OUT=$OUT/overlay CUSTOM_CMD="${case#*|}" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$HD" | grep custom
    done
  done
  echo "### Loop seam with overlays seen from the X server (seam.sh, 25 s, the 640x360 clip)"
  CUSTOM_CMD="$LP --loop --overlay $LOGO --overlay-text LoopPlayer" PLAYERS=custom "$BENCH/seam.sh" -d 25 "$SWIPE"
  CUSTOM_CMD="$ROOT/.build/release/AnimatedOverlay" PLAYERS=custom "$BENCH/seam.sh" -d 25 "$SWIPE"
fi

if [[ $what == subtitles || $what == all ]]; then
  echo "## Subtitles: 1080p30 with an ASS line every second in a window under Xvfb, 20 s, two rounds (baseline.sh)"
  SUBS=$OUT/subs; mkdir -p "$SUBS"
  { printf '[Script Info]\nScriptType: v4.00+\nPlayResX: 1920\nPlayResY: 1080\n\n[V4+ Styles]\n'
    printf 'Format: Name, Fontname, Fontsize, PrimaryColour, OutlineColour, BorderStyle, Outline, Shadow, Alignment, MarginV\n'
    printf 'Style: Default,DejaVu Sans,64,&H00FFFFFF,&H00000000,1,3,1,2,60\n\n[Events]\n'
    printf 'Format: Layer, Start, End, Style, Text\n'
    for i in $(seq 0 9); do printf 'Dialogue: 0,0:00:%02d.00,0:00:%02d.80,Default,Line %d of the loop, {\\c&H00FFFF&}coloured{\\c} words\n' "$i" "$i" "$i"; done
  } >"$SUBS/lines.ass"
  ffmpeg -hide_banner -loglevel error -y -i "$HD" -i "$SUBS/lines.ass" -map 0 -map 1 -c copy "$SUBS/hd-ass.mkv"
  MPV="mpv --no-config --really-quiet --vo=x11 --ao=null --loop-file=inf --title=lpbench --geometry=+0+0"
  for round in 1 2; do
    for case in "loopplay --sid no|$LP --loop --sid no" "loopplay --sid 1|$LP --loop --sid 1" \
                "mpv --sid=no|$MPV --sid=no" "mpv --sid=1|$MPV --sid=1"; do
      echo "### round $round, ${case%%|*}"
      OUT=$SUBS CUSTOM_CMD="${case#*|}" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$SUBS/hd-ass.mkv" | grep custom
    done
  done
fi

if [[ $what == audio || $what == all ]]; then
  echo "## Audio loop seam, on what each player played (13 s of the looping 4 s tone, 440 Hz left)"
  A=$OUT/audio; mkdir -p "$A"; rm -f "$A"/*.raw "$A"/*.pcm
  "$LP" --source "$SWIPE_AAC" --headless --loop --duration 13 --audio-driver disk --audio-device "$A/loopplay.raw" 2>/dev/null
  # ffplay -nodisp does not loop like ffplay with a picture: it runs with a window, as in the seam benchmarks.
  Xvfb "$DISP" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 & xvfb3=$!; sleep 1
  DISPLAY=$DISP SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=$A/ffplay.raw timeout 13 ffplay -v quiet -loop 0 "$SWIPE_AAC" || true
  kill $xvfb3
  timeout 13 mpv --no-config --really-quiet --vo=null --ao=pcm --ao-pcm-file="$A/mpv.pcm" --ao-pcm-waveheader=no \
    --loop-file=inf --length=13 "$SWIPE_AAC" || true
  # The floor: FFmpeg's own decode cut at exactly 4 s and laid end to end (the codec's edges, no player).
  ffmpeg -v error -y -i "$SWIPE_AAC" -t 4 -f f32le "$A/ideal-pass.raw"
  cat "$A/ideal-pass.raw" "$A/ideal-pass.raw" "$A/ideal-pass.raw" "$A/ideal-pass.raw" > "$A/ideal.raw"
  for run in "loopplay.raw f32" "ffplay.raw s16" "mpv.pcm f32" "ideal.raw f32"; do
    set -- $run
    python3 scripts/bench/audio_seam.py "$A/$1" "$2" 2 48000 440 --loop 4
  done
fi

if [[ $what == opus || $what == audio || $what == all ]]; then
  echo "## Opus audio loop seam (the swipe clip as VP9 + Opus in WebM: the sound starts 7 ms before the picture)"
  A=$OUT/opus; mkdir -p "$A"; rm -f "$A"/*.raw "$A"/*.pcm
  OPUS=$F/c-swipe-640x360-vp9-opus.webm
  [[ -s $OPUS ]] || ffmpeg -v error -y -i "$SWIPE_AAC" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 1M \
    -c:a libopus -b:a 128k "$OPUS"
  "$LP" --source "$OPUS" --headless --loop --duration 13 --audio-driver disk --audio-device "$A/loopplay.raw" 2>/dev/null
  timeout 13 mpv --no-config --really-quiet --vo=null --ao=pcm --ao-pcm-file="$A/mpv.pcm" --ao-pcm-waveheader=no \
    --loop-file=inf --length=13 "$OPUS" || true
  ffmpeg -v error -y -i "$OPUS" -t 4 -f f32le "$A/ideal-pass.raw"
  cat "$A/ideal-pass.raw" "$A/ideal-pass.raw" "$A/ideal-pass.raw" "$A/ideal-pass.raw" > "$A/ideal.raw"
  for run in "loopplay.raw f32" "mpv.pcm f32" "ideal.raw f32"; do
    set -- $run
    python3 scripts/bench/audio_seam.py "$A/$1" "$2" 2 48000 440 --loop 4
  done
fi

if [[ $what == audio || $what == all ]]; then
  echo "## Loop seam with AAC audio seen from the X server (seam.sh, 25 s; SDL's dummy driver: the picture's clock leads)"
  CUSTOM_CMD="$LP --loop" PLAYERS="custom ffplay mpv-x11" "$BENCH/seam.sh" -d 25 "$SWIPE_AAC"
  echo "### loopplay following an audio clock: SDL's disk driver, written in real time"
  CUSTOM_CMD="$LP --loop --audio-driver disk --audio-device $A/seam-sound.raw" PLAYERS=custom \
    "$BENCH/seam.sh" -d 25 "$SWIPE_AAC"
  "$LP" --source "$SWIPE_AAC" --loop --headless --duration 25 --audio-driver disk --audio-device "$A/stats.raw" \
    --stats-json "$A/stats.json" 2>/dev/null
  python3 -c "import json; d = json.load(open('$A/stats.json')); print('  headless, disk driver: picture − sound mean', \
    round(d['avOffsetMeanMs'], 2), 'ms, largest', round(d['avOffsetMaxMs'], 2), 'ms over', d['avOffsetSamples'], \
    'frames; underruns', d['audioUnderruns'], '; loop periods', [round(p) for p in d['loopPeriodsMs']])"
fi

if [[ $what == before-after ]]; then
  # Behaviour held across a change, measured on both builds in one run: the seam seen from the X
  # server, the sample-exact sound loop and playlist switch (SDL's disk driver), and CPU.
  [[ -x ${BEFORE:-} ]] || { echo "before-after needs BEFORE=path/to/the/older/loopplay" >&2; exit 64; }
  B=$OUT/before-after; mkdir -p "$B"
  for round in 1 2; do
    for build in before after; do
      bin=$LP; [[ $build == before ]] && bin=$BEFORE
      echo "### round $round, $build ($bin)"
      echo "seam (25 s):"
      OUT=$B/$build-seam-$round CUSTOM_CMD="$bin --loop" PLAYERS=custom "$BENCH/seam.sh" -d 25 "$SWIPE" | grep -E "custom|interval|frames" || true
      rm -f "$B"/*.raw
      "$bin" --source "$SWIPE_AAC" --headless --loop --duration 13 --audio-driver disk --audio-device "$B/loop.raw" 2>/dev/null
      echo -n "sound loop: "; python3 scripts/bench/audio_seam.py "$B/loop.raw" f32 2 48000 440 --loop 4 | tail -1
      "$bin" "$SWIPE_AAC" "$SWIPE_AAC" "$SWIPE_AAC" --headless --audio-driver disk --audio-device "$B/list.raw" 2>/dev/null
      echo -n "playlist of 3: "; python3 scripts/bench/audio_seam.py "$B/list.raw" f32 2 48000 440 --loop 4 | tail -1
      echo "CPU (20 s of 1080p30):"
      OUT=$B/$build-cpu-$round CUSTOM_CMD="$bin --loop" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$HD" | grep custom || true
    done
  done
fi

if [[ $what == ipc || $what == all ]]; then
  # The seam, CPU and memory with the remote control on and busy (a client observing time-pos and
  # pause and asking for time-pos 10 times a second) against the same build without it, alternating.
  echo "## With and without --input-ipc-server and a busy client: seam (25 s of the 640x360 clip), CPU and RSS (20 s of 1080p30)"
  I=$OUT/ipc; mkdir -p "$I"
  for round in 1 2; do
    for mode in off on; do
      extra=""; [[ $mode == on ]] && extra="--input-ipc-server $I/lp.sock"
      [[ $mode == on ]] && { python3 scripts/bench/ipc_client.py "$I/lp.sock" 33 & client=$!; }
      echo "### round $round, IPC $mode"
      OUT=$I/$mode-seam-$round CUSTOM_CMD="$LP --loop $extra" PLAYERS=custom "$BENCH/seam.sh" -d 25 "$SWIPE" | grep -E "custom|interval|frames" || true
      [[ $mode == on ]] && { wait $client || true; }
      [[ $mode == on ]] && { python3 scripts/bench/ipc_client.py "$I/lp.sock" 28 & client=$!; }
      OUT=$I/$mode-cpu-$round CUSTOM_CMD="$LP --loop $extra" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$HD" | grep custom || true
      [[ $mode == on ]] && { wait $client || true; }
    done
  done
fi

if [[ $what == service || $what == all ]]; then
  # Everything a service runs with on: the IPC with a busy client, the metrics endpoint scraped once a
  # second, against the same build with neither, alternating.
  echo "## With and without IPC + metrics (a busy IPC client, a scrape a second): seam (25 s of the 640x360 clip), CPU and RSS (20 s of 1080p30)"
  V=$OUT/service; mkdir -p "$V"
  port=19471
  for round in 1 2 3; do
    for mode in off on; do
      extra=""; [[ $mode == on ]] && extra="--input-ipc-server $V/lp.sock --metrics-address 127.0.0.1:$port"
      echo "### round $round, service $mode"
      [[ $mode == on ]] && { python3 scripts/bench/ipc_client.py "$V/lp.sock" 33 & client=$!; python3 scripts/bench/scraper.py $port 33 & scraper=$!; }
      OUT=$V/$mode-seam-$round CUSTOM_CMD="$LP --loop $extra" PLAYERS=custom "$BENCH/seam.sh" -d 25 "$SWIPE" | grep -E "custom|interval|frames" || true
      [[ $mode == on ]] && { wait $client $scraper || true; }
      [[ $mode == on ]] && { python3 scripts/bench/ipc_client.py "$V/lp.sock" 28 & client=$!; python3 scripts/bench/scraper.py $port 28 & scraper=$!; }
      OUT=$V/$mode-cpu-$round CUSTOM_CMD="$LP --loop $extra" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$HD" | grep custom || true
      [[ $mode == on ]] && { wait $client $scraper || true; }
    done
  done
fi

if [[ $what == sync || $what == syncplaylist || $what == all ]]; then
  # Three players on one shared timeline in three windows, started 1.5 s and 6 s apart (issue 26),
  # watched from the X server: how far apart each frame appears, and how late against the timeline.
  # Then CPU: the same clip synced and not (20 s each, alternating). `syncplaylist`: each player
  # plays a playlist of three copies of the 1 s clip on the timeline's schedule (so frame f of any
  # item is due where the single loop's would be): the switches between items measured the same way.
  echo "## Three windows on one shared timeline$([[ $what == syncplaylist ]] && echo ", a playlist of three 1 s items"): spread between windows and lateness (ms), 3 rounds of 30 s"
  Y=$OUT/$what; mkdir -p "$Y"
  cc -O2 -o "$Y/xsync" scripts/bench/xsync.c -lX11 -lXdamage -lm
  ffmpeg -loglevel error -y -f lavfi -i "color=c=black:s=320x180:r=30:d=1[bg];color=c=white:s=8x180:r=30[bar];[bg][bar]overlay=x='10*(n-1)':y=0:eval=frame:shortest=1" \
    -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$Y/bar.mp4"
  sources=("$Y/bar.mp4")
  if [[ $what == syncplaylist ]]; then
    cp "$Y/bar.mp4" "$Y/bar-b.mp4"; cp "$Y/bar.mp4" "$Y/bar-c.mp4"
    sources=("$Y/bar.mp4" "$Y/bar-b.mp4" "$Y/bar-c.mp4")
  fi
  Xvfb "$DISP" -screen 0 1000x200x24 -nolisten tcp >/dev/null 2>&1 & xvfbs=$!; sleep 1
  for round in 1 2 3; do
    epoch=$(python3 -c "import time; print('%.3f' % (time.time() + 1))")
    pids=()
    for i in 0 1 2; do
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy "$LP" --sync-epoch "$epoch" --geometry 320x180+$((i * 330))+0 --no-border \
        --osd-level 0 --title sync$i --stats-json "$Y/stats-$round-$i.json" "${sources[@]}" 2>/dev/null & pids+=($!)
      [[ $i == 0 ]] && sleep 1.5
      [[ $i == 1 ]] && sleep 6
    done
    sleep 2
    DISPLAY=$DISP "$Y/xsync" 90 30 0 330 660 > "$Y/xsync-$round.txt"
    kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
    echo "### round $round"
    python3 scripts/bench/sync_analyze.py "$epoch" 9.5 < "$Y/xsync-$round.txt"
  done
  kill $xvfbs
  if [[ ${SYNC_CPU:-1} != 0 && $what != syncplaylist ]]; then
    echo "CPU (20 s of 1080p30), synced and not:"
    for round in 1 2 3; do
      for mode in off on; do
        extra=""; [[ $mode == on ]] && extra="--sync-epoch now"
        echo -n "round $round, sync $mode: "
        OUT=$Y/$mode-cpu-$round CUSTOM_CMD="$LP --loop $extra" PLAYERS=custom "$BENCH/baseline.sh" -d 20 "$HD" | grep custom || true
      done
    done
  fi
fi

if [[ $what == schedule || $what == all ]]; then
  # Three players on one synced schedule (issue 40) whose entries change every 10 s, alternating two
  # copies of the 1 s bar clip, started 1.5 s and 6 s apart; watched from the X server. Every entry's
  # timeline starts at its window's open (a whole second), so each frame is due at a whole second +
  # frame / 30, as on one timeline: sync_analyze measures the spread and the lateness across the
  # changes too, and schedule_changes.py the change frames themselves (frame 0 at each change).
  echo "## Three windows on one synced schedule changing every 10 s: spread and lateness (ms), 90 s"
  S=$OUT/schedule; mkdir -p "$S"
  cc -O2 -o "$S/xsync" scripts/bench/xsync.c -lX11 -lXdamage -lm
  ffmpeg -loglevel error -y -f lavfi -i "color=c=black:s=320x180:r=30:d=1[bg];color=c=white:s=8x180:r=30[bar];[bg][bar]overlay=x='10*(n-1)':y=0:eval=frame:shortest=1" \
    -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$S/bar.mp4"
  cp "$S/bar.mp4" "$S/bar-b.mp4"
  start=$(python3 -c "import time; print(int(time.time()) + 3)")
  python3 - "$start" "$S" > "$S/schedule.yaml" <<'PY'
import sys, time
start, folder = int(sys.argv[1]), sys.argv[2]
print("timezone: UTC\nsync: true\ndefault: {playlist: [bar.mp4]}\nentries:")
for index, t in enumerate(range(start + 10 - start % 10, start + 130, 20)):
    stamp = lambda s: time.strftime("%H:%M:%S", time.gmtime(s))
    print('  - {name: e%d, from: "%s", to: "%s", playlist: [bar-b.mp4]}' % (index, stamp(t), stamp(t + 10)))
PY
  Xvfb "$DISP" -screen 0 1000x200x24 -nolisten tcp >/dev/null 2>&1 & xvfbs=$!; sleep 1
  pids=()
  for i in 0 1 2; do
    DISPLAY=$DISP SDL_AUDIODRIVER=dummy "$LP" --schedule "$S/schedule.yaml" --geometry 320x180+$((i * 330))+0 --no-border \
      --osd-level 0 --title schedule$i --events > "$S/events-$i.jsonl" 2>"$S/stderr-$i.txt" & pids+=($!)
    [[ $i == 0 ]] && sleep 1.5
    [[ $i == 1 ]] && sleep 6
  done
  sleep 2
  DISPLAY=$DISP "$S/xsync" 90 90 0 330 660 > "$S/xsync.txt"
  kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
  kill $xvfbs
  for i in 0 1 2; do echo "window $i: $(grep -o '"scheduleChanged"' "$S/events-$i.jsonl" | wc -l) schedule changes told"; done
  python3 scripts/bench/sync_analyze.py "$start" 9.5 < "$S/xsync.txt"
  python3 scripts/bench/schedule_changes.py "$S/schedule.yaml" < "$S/xsync.txt"
  # CPU and memory: 20 s of 1080p30 in a window, on a schedule changing every 5 s between two copies
  # of the clip, against the same clip looping; 3 alternating rounds.
  echo "CPU (20 s of 1080p30), a schedule changing every 5 s against a plain loop:"
  cp "$HD" "$S/hd-b.mp4"
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfbh=$!; sleep 1
  for round in 1 2 3; do
    start=$(python3 -c "import time; print(int(time.time()) + 2)")
    python3 - "$start" "$HD" "$S/hd-b.mp4" > "$S/hd.yaml" <<'PY'
import sys, time
start, first, second = int(sys.argv[1]), sys.argv[2], sys.argv[3]
stamp = lambda s: time.strftime("%H:%M:%S", time.gmtime(s))
print('timezone: UTC\ndefault: {playlist: ["%s"]}\nentries:' % first)
for index, t in enumerate(range(start + 5, start + 60, 10)):
    print('  - {name: e%d, from: "%s", to: "%s", playlist: ["%s"]}' % (index, stamp(t), stamp(t + 5), second))
PY
    for mode in schedule loop; do
      args=(--schedule "$S/hd.yaml"); [[ $mode == loop ]] && args=(--loop "$HD")
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "%U %S %M" -o "$S/time" \
        "$LP" "${args[@]}" --duration 20 --geometry 1920x1080+0+0 --no-border --osd-level 0 >/dev/null 2>&1 || true
      read -r user system rss < <(tail -1 "$S/time")
      awk -v r="$round" -v m="$mode" -v u="$user" -v y="$system" -v k="$rss" \
        'BEGIN { printf "round %d, %s: %.2f CPU-s, peak RSS %d MB\n", r, m, u + y, k / 1024 }'
    done
  done
  kill $xvfbh
fi

if [[ $what == syncsound || $what == all ]]; then
  # The sound of a synced player against the shared timeline, from outside (issue 26): SDL's disk
  # driver writes into a FIFO read by sync_sound.py; the player's system clock runs SYNC_SKEW fast
  # against the monotonic clock the device is paced by (clockskew.c), as a sound card drifts.
  SYNC_SOUND_SECONDS=${SYNC_SOUND_SECONDS:-600}
  echo "## Sound on the shared timeline: ${SYNC_SOUND_SECONDS} s, system clock ${SYNC_SKEW:-1.0002}× the sound card's"
  Z=$OUT/syncsound; mkdir -p "$Z"
  cc -shared -fPIC -O2 -o "$Z/clockskew.so" scripts/bench/clockskew.c -ldl
  ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=320x180:rate=30:duration=4" \
    -f lavfi -i "aevalsrc=0.5*sin(2*PI*480*t)|if(lt(t\,0.001)\,0.8\,if(lt(mod(t\,0.5)\,0.001)\,0.4\,0)):s=48000:d=4:c=stereo" \
    -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p -c:a pcm_s16le -shortest "$Z/clicks.mkv"
  python3 scripts/bench/sync_sound.py "$LP" "$Z/clicks.mkv" "$Z/clockskew.so" "$Z" --seconds "$SYNC_SOUND_SECONDS" \
    --rate "${SYNC_SKEW:-1.0002}"
fi

if [[ $what == rotate || $what == all ]]; then
  echo "## A portrait screen: 20 s of 1080p30 in a 1080x1920 window turned 90° (--video-rotate) against a 1920x1080 one unturned; mpv alike; 3 alternating rounds"
  R=$OUT/rotate; mkdir -p "$R"
  Xvfb "$DISP" -screen 0 1920x1920x24 -nolisten tcp >/dev/null 2>&1 & xvfb6=$!; sleep 1
  kill -0 "$xvfb6" 2>/dev/null && DISPLAY=$DISP xdpyinfo >/dev/null 2>&1 || { echo "rotate: Xvfb $DISP did not start" >&2; exit 1; }
  xticks() { awk '{print $14 + $15}' "/proc/$xvfb6/stat"; }
  XW=$OUT/xwatch; [[ $XW -nt $BENCH/xwatch.c ]] || cc -O2 -Wall -o "$XW" "$BENCH/xwatch.c" -lX11 -lXdamage
  # Frames shown are counted by the X server's damage (xwatch) over 16 s of the 20, the same for both players.
  for round in 1 2 3; do
    # loopplay: the window surface (swscale, then QuarterTurn); loopplay-renderer: SDL's software
    # renderer turning the texture as it copies it (SDL_RenderCopyEx).
    for run in "loopplay 0" "loopplay 90" "loopplay-renderer 0" "loopplay-renderer 90" "mpv 0" "mpv 90"; do
      player=${run% *} turn=${run#* }
      size=$([[ $turn == 0 ]] && echo 1920x1080 || echo 1080x1920)
      case $player in
        loopplay*) cmd=("$LP" --loop --geometry "$size+0+0" --no-border --video-rotate "$turn")
                   [[ $player == loopplay-renderer ]] && cmd=(env SDL_RENDER_DRIVER=software "${cmd[@]}" --video-output texture) ;;
        mpv) cmd=(mpv --no-config --really-quiet --vo=x11 --ao=null --loop-file=inf --no-border
                  --geometry="$size+0+0" --video-rotate="$turn") ;;
      esac
      before=$(xticks)
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "%U %S %M" -o "$R/time" \
        timeout -s TERM 20 "${cmd[@]}" "$HD" >/dev/null 2>&1 & pid=$!
      sleep 2
      read -r frames maxgap < <(DISPLAY=$DISP "$XW" count "${size%x*}" "${size#*x}" 16)
      wait "$pid" || true
      x=$(( $(xticks) - before ))
      read -r user system rss < <(tail -1 "$R/time")  # after "Command exited with non-zero status 124"
      awk -v r="$round" -v p="$player" -v t="$turn" -v s="$size" -v u="$user" -v y="$system" -v m="$rss" -v x="$x" \
        -v hz="$(getconf CLK_TCK)" -v f="$frames" -v g="$maxgap" 'BEGIN {
        printf "round %d, %s turned %d in %s: %.2f CPU-s, peak RSS %d MB, Xvfb %.2f CPU-s, shown %.1f fps, max gap %s ms\n",
               r, p, t, s, u + y, m / 1024, x / hz, f / 16, g }'
    done
  done
  kill $xvfb6
fi

if [[ $what == snapshot || $what == all ]]; then
  # Issue 38: a fleet's operator polls each screen's picture; playback must not pay for it in frames.
  echo "## Pictures of the screen polled once a second (GET /snapshot.png, 1920x1080) beside 1080p30 in a 1920x1080 window, 60 s, against no polling; 3 alternating rounds"
  S=$OUT/snapshot; mkdir -p "$S"
  own_xvfb 1920x1080 snapshot
  XW=$OUT/xwatch; [[ $XW -nt $BENCH/xwatch.c ]] || cc -O2 -Wall -o "$XW" "$BENCH/xwatch.c" -lX11 -lXdamage
  port=19472
  for round in 1 2 3; do
    for mode in off on; do
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "%U %S %M" -o "$S/time" \
        timeout -s TERM 64 "$LP" --loop --geometry 1920x1080+0+0 --no-border --metrics-address 127.0.0.1:$port \
        --metrics-snapshot --stats-json "$S/$mode-$round.json" "$HD" >/dev/null 2>&1 & pid=$!
      sleep 2
      [[ $mode == on ]] && { python3 scripts/bench/snapshot_poller.py $port 60 > "$S/poller-$round" 2>&1 & poller=$!; }
      read -r frames maxgap < <(DISPLAY=$DISP "$XW" count 1920 1080 60)
      [[ $mode == on ]] && { wait $poller || true; }
      wait "$pid" || true
      read -r user system rss < <(tail -1 "$S/time")
      dropped=$(python3 -c "import json; print(json.load(open('$S/$mode-$round.json'))['framesDropped'])")
      polled=$([[ $mode == on ]] && cat "$S/poller-$round" || echo "poller: off")
      awk -v r="$round" -v m="$mode" -v u="$user" -v y="$system" -v k="$rss" -v f="$frames" -v g="$maxgap" -v d="$dropped" -v p="$polled" 'BEGIN {
        printf "round %d, polling %s: %.2f CPU-s, peak RSS %d MB, shown %.2f fps, max gap %s ms, dropped %d; %s\n",
               r, m, u + y, k / 1024, f / 60, g, d, p }'
    done
  done
  kill "$xvfb_pid"
fi

if [[ $what == alerts || $what == all ]]; then
  # Issue 38: the picture alerts sample every picture; they must cost nothing worth turning them off for.
  echo "## Picture alerts on (--alert-black 10 --alert-frozen 10) against off: 20 s of 1080p30 in a 1920x1080 window; 3 alternating rounds"
  A=$OUT/alerts; mkdir -p "$A"
  own_xvfb 1920x1080 alerts
  for round in 1 2 3; do
    for mode in off on; do
      extra=(); [[ $mode == on ]] && extra=(--alert-black 10 --alert-frozen 10)
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "%U %S %M" -o "$A/time" \
        timeout -s TERM 20 "$LP" --loop --geometry 1920x1080+0+0 --no-border "${extra[@]}" --stats-json "$A/$mode-$round.json" "$HD" >/dev/null 2>&1 || true
      read -r user system rss < <(tail -1 "$A/time")
      read -r presented dropped < <(python3 -c "import json; d = json.load(open('$A/$mode-$round.json')); print(d['framesPresented'], d['framesDropped'])")
      awk -v r="$round" -v m="$mode" -v u="$user" -v y="$system" -v k="$rss" -v p="$presented" -v d="$dropped" 'BEGIN {
        printf "round %d, alerts %s: %.2f CPU-s, peak RSS %d MB, presented %d, dropped %d\n", r, m, u + y, k / 1024, p, d }'
    done
  done
  kill "$xvfb_pid"
fi

if [[ $what == panels || $what == all ]]; then
  echo "## A wall from one decoder: 20 s of 1080p30 in one 1920x1080 window against 2, 4 and 9 --panel windows tiling it; 3 alternating rounds"
  P=$OUT/panels; mkdir -p "$P"
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb5=$!; sleep 1
  # Our own server, or nothing measured means anything (another one may hold $DISP).
  kill -0 "$xvfb5" 2>/dev/null && DISPLAY=$DISP xdpyinfo >/dev/null 2>&1 || { echo "panels: Xvfb $DISP did not start" >&2; exit 1; }
  xticks() { awk '{print $14 + $15}' "/proc/$xvfb5/stat"; }
  # Panels of an N-by-M grid over the 1920x1080 picture, each at its own place and size.
  grid() { local cols=$1 rows=$2 w=$((1920 / $1)) h=$((1080 / $2)) r c
    for ((r = 0; r < rows; r++)); do for ((c = 0; c < cols; c++)); do
      printf -- '--panel %dx%d+%d+%d ' "$w" "$h" $((c * w)) $((r * h)); done; done; }
  # BEFORE=path/to/older/loopplay: that build too, alternating with this one.
  builds=("$LP"); [[ -n ${BEFORE:-} ]] && builds+=("$BEFORE")
  for round in 1 2 3; do
    for layout in window "2 1" "2 2" "3 3"; do
      if [[ $layout == window ]]; then flags=(--geometry 1920x1080+0+0 --no-border); name="one window"
      else read -r -a flags <<< "$(grid $layout)"; name="$(( ${layout% *} * ${layout#* } )) panels"; fi
      for build in "${builds[@]}"; do
        before=$(xticks); rm -f "$P/stats.json"
        DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "%U %S %M" -o "$P/time" \
          "$build" --loop --duration 20 --stats-json "$P/stats.json" "${flags[@]}" "$HD" 2>/dev/null
        x=$(( $(xticks) - before ))
        label=$([[ $build == "$LP" ]] && echo this || echo before)
        python3 - "$P/time" "$P/stats.json" "$name" "$round" "$x" "$label" <<'PY'
import json, os, sys
user, system, rss = open(sys.argv[1]).read().split()[-3:]
stats = json.load(open(sys.argv[2]))  # missing: the run failed, and so does this
if stats["framesPresented"] + stats["framesDropped"] < 570:
    sys.exit(f"{sys.argv[3]}: {stats['framesPresented']} frames in 20 s: the run did not play")
print(f"round {sys.argv[4]}, {sys.argv[6]}, {sys.argv[3]}: {float(user) + float(system):.2f} CPU-s, peak RSS {int(rss) // 1024} MB, "
      f"Xvfb {int(sys.argv[5]) / os.sysconf('SC_CLK_TCK'):.2f} CPU-s, presented {stats['framesPresented']}, "
      f"dropped {stats['framesDropped']}")
PY
      done
    done
  done
  kill $xvfb5
fi

if [[ $what == several || $what == all ]]; then
  echo "## Several players in one process: 1 and 3 windows of the 640x360 clip, PiP, inset; 20 s, 3 alternating rounds"
  swift build -c release --product SeveralWindows >/dev/null
  SW=$ROOT/.build/release/SeveralWindows S=$OUT/several; mkdir -p "$S"
  Xvfb "$DISP" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 & xvfb4=$!; sleep 1
  xticks() { awk '{print $14 + $15}' "/proc/$xvfb4/stat"; }
  for round in 1 2 3; do
    for run in 1 "1 --pip" "1 --inset" 3; do
      # --pip: the mini window from 2 s on; --inset: a second player's 320x180 scene inside the window
      n=${run%% *} flags=(); [[ $run == *--pip ]] && flags=(--pip); [[ $run == *--inset ]] && flags=(--inset "$SWIPE")
      clips=(); for ((i = 0; i < n; i++)); do clips+=("$SWIPE"); done
      # The mini window needs a window manager to stay on top (refused without one): openbox for that run.
      wm=
      if [[ $run == *--pip ]]; then
        DISPLAY=$DISP xprop -root -remove _NET_SUPPORTED 2>/dev/null || true  # the last run's openbox left it
        DISPLAY=$DISP openbox --sm-disable >/dev/null 2>&1 & wm=$!
        for _ in $(seq 50); do DISPLAY=$DISP xprop -root _NET_SUPPORTED 2>/dev/null | grep -q _NET_WM_STATE_ABOVE && break; sleep 0.1; done
        DISPLAY=$DISP xprop -root _NET_SUPPORTED | grep -q _NET_WM_STATE_ABOVE || { echo "openbox did not start" >&2; exit 1; }
      fi
      before=$(xticks)
      DISPLAY=$DISP SDL_AUDIODRIVER=dummy /usr/bin/time -f "%U %S %M" -o "$S/time" \
        "$SW" --duration 20 "${flags[@]}" "${clips[@]}" > "$S/stats.jsonl"
      x=$(( $(xticks) - before ))
      if [[ -n $wm ]]; then kill "$wm"; wait "$wm" 2>/dev/null || true; fi
      python3 - "$S/time" "$S/stats.jsonl" "$run" "$round" "$x" <<'PY'
import json, os, sys
user, system, rss = open(sys.argv[1]).read().split()[-3:]
players = [json.loads(line) for line in open(sys.argv[2])]  # the inset's player last, if any
cpu = float(user) + float(system)
print(f"round {sys.argv[4]}, {sys.argv[3]} window(s): {cpu:.2f} CPU-s, peak RSS {int(rss) // 1024} MB, "
      f"Xvfb {int(sys.argv[5]) / os.sysconf('SC_CLK_TCK'):.2f} CPU-s, presented "
      f"{[p['framesPresented'] for p in players]}, dropped {[p['framesDropped'] for p in players]}")
PY
    done
  done
  kill $xvfb4
fi
