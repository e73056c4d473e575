#!/usr/bin/env bash
# Regenerates the bundled sample loop: 640x360, 30 fps, 4 s (120 frames), H.264 in mp4.
# A white bar steps right once per frame over a dark gradient and the frame number is
# burned in, so a hitch or a lost frame at the loop seam is visible (same recipe as the
# seam fixture of ../shared/bench). Writes Sources/LoopPlayer/Resources/Media/swipe.mp4;
# Examples/Media/swipe.mp4 is a symlink to it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/LoopPlayer/Resources/Media/swipe.mp4
mkdir -p "$(dirname "$out")" Examples/Media
graph='color=c=0x101830:s=640x360:r=30:d=4[bg];color=c=white:s=16x360:r=30[bar];[bg][bar]overlay=x=5*n:y=0:eval=frame:shortest=1'
if ffmpeg -hide_banner -nostdin -loglevel error -f lavfi -i "color=s=64x64:d=0.1,drawtext=font=monospace:text=1" -f null - 2>/dev/null; then
  graph="$graph,drawtext=font=monospace:text=%{frame_num}:x=20:y=20:fontsize=48:fontcolor=yellow"
fi
ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i "$graph" \
  -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 \
  -movflags +faststart -fflags +bitexact -flags:v +bitexact -map_metadata -1 "$out"
ln -sfn ../../Sources/LoopPlayer/Resources/Media/swipe.mp4 Examples/Media/swipe.mp4
ls -l "$out"
