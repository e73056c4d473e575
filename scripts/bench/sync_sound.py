#!/usr/bin/env python3
"""The sound of a synced player against the shared timeline, measured from outside the process.

    sync_sound.py PLAYER SOURCE SKEW_LIB OUT_DIR --seconds S [--rate R]

Runs `PLAYER --sync-epoch` on SOURCE with SDL's disk driver writing into a FIFO read here, and the
player's system clock running R times as fast as the real one (SKEW_LIB, scripts/bench/clockskew.c:
as a sound card's crystal runs against the system clock; 1.0002 = 200 ppm). SOURCE is the bench's
4 s loop: a 480 Hz tone on the left, a click on the right every 0.5 s (twice as loud at each pass's
start). Every click's arrival is placed on the real clock by the device's exact pacing (each buffer
arrives when it is due; the earliest arrivals over two seconds give the line), turned into the
player's (skewed) system time and compared with where the click is on the timeline. The left tone is
checked for breaks with audio_seam.py. Prints the offsets per minute and overall, and the player's
own figures (--stats-json).
"""
import json, os, subprocess, sys, tempfile, threading, time
import numpy as np

player, source, skew_lib, out = sys.argv[1:5]
seconds = float(sys.argv[sys.argv.index("--seconds") + 1])
rate = float(sys.argv[sys.argv.index("--rate") + 1]) if "--rate" in sys.argv else 1.0002
RATE, CH, BUFFER, PASS, CLICK = 48000, 2, 960, 4.0, 0.5
os.makedirs(out, exist_ok=True)
fifo = os.path.join(out, "sound.fifo")
if os.path.exists(fifo):
    os.remove(fifo)
os.mkfifo(fifo)
origin = time.time()
epoch = origin + 3
env = dict(os.environ, LD_PRELOAD=skew_lib, SKEW_RATE=repr(rate), SKEW_ORIGIN=repr(origin),
           XDG_CONFIG_HOME=tempfile.mkdtemp())
stats_path = os.path.join(out, "stats.json")
proc = subprocess.Popen([player, "--headless", "--sync-epoch", repr(epoch), "--audio-driver", "disk",
                         "--audio-device", fifo, "--duration", str(seconds), "--stats-json", stats_path, source],
                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
reads = []  # (real time, frames written so far)
chunks = []
def release_reader():
    # A player that ends without opening its device would leave the open below waiting forever.
    proc.wait()
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass
threading.Thread(target=release_reader, daemon=True).start()
fd = os.open(fifo, os.O_RDONLY)
total = 0
while True:
    data = os.read(fd, 1 << 16)
    now = time.time()
    if not data:
        break
    chunks.append(data)
    total += len(data)
    reads.append((now, total // (4 * CH)))
os.close(fd)
proc.wait()
raw = np.frombuffer(b"".join(chunks), dtype="<f4")
raw = raw[: len(raw) // CH * CH]
raw.tofile(os.path.join(out, "sound.raw"))
left, right = raw[0::CH].astype(np.float64), raw[1::CH].astype(np.float64)
if len(left) < RATE * 20:
    sys.exit(f"only {len(left) / RATE:.1f} s of sound: nothing measured")

# When each frame was due: a buffer arrives when it is due (later if the reader was late), so over
# each stretch of two seconds the earliest arrival gives the line.
reads = np.array(reads)
starts = reads[:, 0] - (reads[:, 1] - BUFFER) / RATE
window = 100
line = np.array([starts[max(0, i - window): i + window].min() for i in range(len(starts))])
def heard(frame):
    i = min(np.searchsorted(reads[:, 1], frame), len(line) - 1)
    return line[i] + frame / RATE

def skewed(real):
    return origin + (real - origin) * rate

# Clicks: rising edges on the right; the crossing of half their peak, between samples.
above = right > 0.1
edges = np.nonzero(above[1:] & ~above[:-1])[0] + 1
results = []  # (seconds since the first sound, offset ms, loud)
first = None
for n in edges:
    peak = right[n: n + 40].max()
    half = peak / 2
    k = n
    while k > 0 and right[k - 1] >= half:
        k -= 1
    while right[k] < half:
        k += 1
    frac = k - 1 + (half - right[k - 1]) / (right[k] - right[k - 1])
    real = heard(frac)
    position = skewed(real) - epoch
    grid = round(position / CLICK) * CLICK
    loud = peak > 0.6
    if first is None:
        first = real
    results.append((real - first, (grid - position) * 1000, loud, abs((grid % PASS)) < 1e-6 or abs((grid % PASS) - PASS) < 1e-6))
settled = [r for r in results if r[0] >= 10]
if not settled:
    sys.exit("no clicks heard after the first 10 s")
offsets = np.array([r[1] for r in settled])
mislabelled = sum(1 for r in settled if r[2] != r[3])
print(f"skew {((rate - 1) * 1e6):+.0f} ppm (the system clock against the monotonic one); {len(left) / RATE:.0f} s of sound, "
      f"{len(settled)} clicks after the first 10 s; uncorrected, the sound would end {(rate - 1) * len(left) / RATE * 1000:+.0f} ms off")
for minute in range(int(settled[-1][0] // 60) + 1):
    part = np.array([r[1] for r in settled if minute * 60 <= r[0] < (minute + 1) * 60])
    if len(part):
        print(f"  minute {minute + 1:2d}: sound − timeline median {np.median(part):+.2f} ms, "
              f"min {part.min():+.2f}, max {part.max():+.2f} ({len(part)} clicks)")
print(f"overall: median {np.median(offsets):+.2f} ms, p95 |offset| {np.percentile(np.abs(offsets), 95):.2f} ms, "
      f"min {offsets.min():+.2f}, max {offsets.max():+.2f}; pass starts on the wrong click: {mislabelled}")
seam = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "audio_seam.py"),
                       os.path.join(out, "sound.raw"), "f32", "2", "48000", "480", "--loop", "4", "--skip", "10"],
                      capture_output=True, text=True)
print("tone:", seam.stdout.strip().splitlines()[-1] if seam.stdout.strip() else seam.stderr.strip())
stats = json.load(open(stats_path))
print("player: " + ", ".join(f"{k} {stats.get(k)}" for k in
      ["syncSoundCorrectionPpm", "syncSoundOffsetMeanMs", "syncSoundOffsetMaxMs", "audioUnderruns", "framesDropped", "syncOffsetMaxMs"]))
os.remove(fifo)
