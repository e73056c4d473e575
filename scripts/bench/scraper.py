"""A Prometheus-like scraper for the metrics benchmark: reads http://127.0.0.1:PORT/metrics once a
second (as a 1 s scrape_interval does) for SECONDS, from when the endpoint answers.
Prints the scrapes that succeeded and the last loopplay_frames_presented_total.

usage: scraper.py PORT SECONDS
"""
import sys
import time
import urllib.request

port, seconds = int(sys.argv[1]), float(sys.argv[2])
end = time.monotonic() + seconds
url = "http://127.0.0.1:%d/metrics" % port
scrapes = 0
frames = None
while time.monotonic() < end:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            for line in response.read().decode().splitlines():
                if line.startswith("loopplay_frames_presented_total "):
                    frames = float(line.split()[1])
        scrapes += 1
        time.sleep(max(0.0, 1 - (time.monotonic() - started)))
    except OSError:
        time.sleep(0.05)
print("scraper: %d scrapes, frames presented %s" % (scrapes, frames), file=sys.stderr)
if scrapes == 0:
    sys.exit("scraper: no scrape answered at " + url)
