#!/usr/bin/python3
"""Time from starting a player to its first video frame on screen, seen from the X server.

Usage: first_frame.py REPS X Y -- COMMAND...
Starts COMMAND REPS times. Each time it polls (every 0.5 ms) for the largest viewable top-level
window and the pixel at (X, Y) inside it, until that pixel is bright (the swipe clip's white bar at
frame 0), then kills the player. Prints one line per run and the median in ms.
Needs python3-xlib (Debian) and DISPLAY.
"""
import os, signal, statistics, subprocess, sys, time
from Xlib import X, display

def largest_window(d):
    best, area = None, 0
    for w in d.screen().root.query_tree().children:
        try:
            if w.get_attributes().map_state != X.IsViewable:
                continue
            g = w.get_geometry()
        except Exception:
            continue
        if g.width * g.height > area:
            best, area = w, g.width * g.height
    return best

def first_frame_ms(command, x, y, timeout=10.0):
    d = display.Display()
    start = time.monotonic()
    player = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while time.monotonic() - start < timeout:
            w = largest_window(d)
            if w is not None:
                try:
                    # Read the screen (root window) where the window is: what a viewer sees, and the
                    # only reliable read for OpenGL windows (ffplay's default renderer).
                    origin = w.translate_coords(d.screen().root, 0, 0)
                    pixel = d.screen().root.get_image(-origin.x + x, -origin.y + y, 1, 1, X.ZPixmap, 0xFFFFFFFF).data
                    if len(pixel) >= 3 and min(pixel[0], pixel[1], pixel[2]) > 200:
                        return (time.monotonic() - start) * 1000
                except Exception:
                    pass
            time.sleep(0.0005)
        return float("nan")
    finally:
        os.killpg(player.pid, signal.SIGTERM)
        try:
            player.wait(timeout=1)
        except subprocess.TimeoutExpired:  # ffplay can miss SIGTERM while SDL starts up
            os.killpg(player.pid, signal.SIGKILL)
            player.wait()
        d.close()
        time.sleep(0.3)

def main():
    reps, x, y = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    command = sys.argv[sys.argv.index("--") + 1:]
    runs = [first_frame_ms(command, x, y) for _ in range(reps)]
    for ms in runs:
        print(f"  {ms:.1f} ms")
    print(f"median {statistics.median(runs):.1f} ms  ({' '.join(command[:3])} ...)")

if __name__ == "__main__":
    main()
