#!/usr/bin/env python3
"""The audio loop seam, measured on what a player really played (SDL's disk driver, mpv's pcm ao).

    audio_seam.py FILE FORMAT CHANNELS RATE FREQ --loop SECONDS [--skip SECONDS]

FILE holds raw interleaved samples (FORMAT f32 or s16, or a .wav with its header skipped) of a looping
tone whose passes hold whole cycles (the bench fixture: 440 Hz left, 4 s passes), so a perfect loop is
one unbroken sine. Channel 0 is checked with the sine recurrence x[n] = 2cos(w)x[n-1] - x[n-2]: a gap,
a repeated stretch or a click shows as a spike. Prints each disturbance (position, exact silence
inside it, and how much longer than one loop the sound since the previous disturbance lasted: a
player that plays the codec's padding, or inserts a gap, makes every pass longer than the file) and
a summary line.
"""
import sys
import numpy as np

path, fmt, channels, rate, freq = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
skip = float(sys.argv[sys.argv.index("--skip") + 1]) if "--skip" in sys.argv else 0.5
loop = float(sys.argv[sys.argv.index("--loop") + 1])
raw = np.fromfile(path, dtype="<f4" if fmt == "f32" else "<i2")
if path.endswith(".wav"):
    raw = raw[44 // raw.itemsize:]
x = raw[0::channels].astype(np.float64)
if fmt == "s16":
    x /= 32768.0
sound = np.nonzero(np.abs(x) > 1e-3)[0]
if len(sound) == 0:
    sys.exit("no sound in " + path)
# From the first sound (plus `skip`, past any fade-in) to the last sound.
x = x[sound[0] + int(skip * rate): sound[-1] - rate // 10]
amplitude = np.percentile(np.abs(x), 99.9)
w = 2 * np.pi * freq / rate
residual = np.abs(x[2:] - 2 * np.cos(w) * x[1:-1] + x[:-2]) / amplitude
# A one-sample slip of the sine leaves about w (0.058 at 440 Hz/48 kHz); codec noise stays far below.
threshold = 0.5 * w
bad = np.nonzero(residual > threshold)[0]
events = []
for index in bad:
    if events and index - events[-1][1] < rate // 20:
        events[-1][1] = index
    else:
        events.append([index, index])
quiet = np.abs(x) < 1e-3 * amplitude
extras = []
previous = None
for start, end in events:
    lo, hi = max(0, start - rate // 20), min(len(x), end + rate // 20)
    run = longest = 0
    for q in quiet[lo:hi]:
        run = run + 1 if q else 0
        longest = max(longest, run)
    extra = "" if previous is None else f", pass longer than the loop by {((start - previous) / rate - loop) * 1000:+.2f} ms"
    if previous is not None:
        extras.append((start - previous) / rate - loop)
    previous = start
    print(f"  at {start / rate + skip:8.3f} s: disturbance over {(end - start) / rate * 1000:6.1f} ms, "
          f"silence {longest / rate * 1000:5.1f} ms, peak residual {residual[start:end + 1].max():.3f}{extra}")
summary = f", passes longer than the loop by {min(extras) * 1000:+.2f}…{max(extras) * 1000:+.2f} ms" if extras else ""
print(f"{path}: {len(x) / rate:.1f} s checked, {len(events)} disturbances, "
      f"worst residual {residual.max():.4f} (a one-sample slip is about {w:.3f}){summary}")
