"""Reads xsync's lines (window, frame, system time) for windows showing the 30-frame bar loop on a
shared timeline starting at EPOCH (1 s passes), and prints how far apart the windows showed each
frame and how late each was against its time on the timeline (epoch + pass + frame / 30).

usage: sync_analyze.py EPOCH [FROM_SECONDS] < xsync.txt
"""
import statistics
import sys

epoch = float(sys.argv[1])
start = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
shown = {}  # (pass, frame) -> {window: first time seen}
for line in sys.stdin:
    parts = line.split()
    if len(parts) != 3:
        continue
    window, frame, t = int(parts[0]), int(parts[1]), float(parts[2])
    if frame < 0 or t < epoch + start:
        continue
    k = round(t - epoch - frame / 30)
    shown.setdefault((k, frame), {}).setdefault(window, t)
windows = max((w for seen in shown.values() for w in seen), default=-1) + 1
spreads, lateness = [], []
for (k, frame), seen in shown.items():
    due = epoch + k + frame / 30
    lateness += [(t - due) * 1000 for t in seen.values()]
    if len(seen) == windows:
        spreads.append((max(seen.values()) - min(seen.values())) * 1000)
if not spreads:
    sys.exit("sync_analyze: no frame was seen by every window (nothing measured)")
def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")
print("windows %d, frames seen by all %d" % (windows, len(spreads)))
print("spread between windows (ms): median %.2f  p95 %.2f  max %.2f" % (pct(spreads, 0.5), pct(spreads, 0.95), max(spreads, default=float("nan"))))
print("after due on the timeline (ms): min %.2f  median %.2f  p95 %.2f  max %.2f" % (
    min(lateness, default=float("nan")), pct(lateness, 0.5), pct(lateness, 0.95), max(lateness, default=float("nan"))))
