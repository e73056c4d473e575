"""Polls a loopplay's pictures of the screen for the snapshot benchmark: GET
http://127.0.0.1:PORT/PATH once a second for SECONDS, from when the endpoint answers. Prints how
many pictures came, their size and the answers' times (median, max).

usage: snapshot_poller.py PORT SECONDS [PATH]   (PATH: /snapshot.png by default)
"""
import statistics
import sys
import time
import urllib.request

port, seconds = int(sys.argv[1]), float(sys.argv[2])
path = sys.argv[3] if len(sys.argv) > 3 else "/snapshot.png"
url = "http://127.0.0.1:%d%s" % (port, path)
end = time.monotonic() + seconds
times, sizes, failures = [], [], 0
while time.monotonic() < end:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = response.read()
        times.append(time.monotonic() - started)
        sizes.append(len(body))
        time.sleep(max(0.0, 1 - (time.monotonic() - started)))
    except OSError:
        if times:
            failures += 1
        time.sleep(0.05)
if not times:
    sys.exit("snapshot_poller: no picture answered at " + url)
print("poller: %d pictures (%d failed), %.0f KiB each, answered in %.0f ms median, %.0f ms max"
      % (len(times), failures, statistics.mean(sizes) / 1024, statistics.median(times) * 1000, max(times) * 1000))
