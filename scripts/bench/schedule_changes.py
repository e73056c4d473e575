"""Reads xsync's lines (window, frame, system time) for windows on a synced schedule of the 30-frame
bar clip, and the schedule file, and prints for each change (each entry's from and to) how far apart
the windows showed its first frame (frame 0 due at the change's instant) and, per window, the hold
across it: the time from the frame before to that first frame, against one frame interval (33.3 ms).

usage: schedule_changes.py SCHEDULE.yaml < xsync.txt
"""
import calendar
import re
import sys
import time

day = time.strftime("%Y-%m-%d", time.gmtime())
changes = set()
for line in open(sys.argv[1]):
    for stamp in re.findall(r'"(\d\d:\d\d:\d\d)"', line):
        changes.add(calendar.timegm(time.strptime(day + " " + stamp, "%Y-%m-%d %H:%M:%S")))
seen = {}  # window -> [(time, frame)]
for line in sys.stdin:
    parts = line.split()
    if len(parts) == 3 and int(parts[1]) >= 0:
        seen.setdefault(int(parts[0]), []).append((float(parts[2]), int(parts[1])))
measured = 0
for change in sorted(changes):
    firsts, holds = [], []
    for window, frames in sorted(seen.items()):
        after = [i for i, (t, frame) in enumerate(frames) if frame == 0 and abs(t - change) < 0.5]
        if not after or after[0] == 0:
            break
        i = after[0]
        firsts.append(frames[i][0])
        holds.append((frames[i][0] - frames[i - 1][0]) * 1000)
    if len(firsts) != len(seen) or not seen:
        continue
    measured += 1
    print("change %s: first frame spread %.2f ms, late %.2f ms (max), holds %s ms" % (
        time.strftime("%H:%M:%S", time.gmtime(change)), (max(firsts) - min(firsts)) * 1000,
        (max(firsts) - change) * 1000, " ".join("%.1f" % h for h in holds)))
if not measured:
    sys.exit("schedule_changes: no change was seen by every window (nothing measured)")
