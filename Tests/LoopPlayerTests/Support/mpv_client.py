"""Drives a running loopplay through its --input-ipc-server socket with python-mpv-jsonipc, the
mpv client library from PyPI, unchanged. Prints one JSON object of what it saw; every wait is
for an event, bounded by a timeout.

usage: mpv_client.py SOCKET SECOND_SOURCE
"""
import json
import sys
import threading

from python_mpv_jsonipc import MPV, MPVError

WAIT = 20
socket_path, second_source = sys.argv[1], sys.argv[2]
mpv = MPV(start_mpv=False, ipc_socket=socket_path)
seen = {}


def wait_for(name, check):
    """Observes property `name` until `check(value)` holds; returns the last value seen and whether it held."""
    done = threading.Event()
    last = {}

    def changed(_, value):
        last["value"] = value
        if check(value):
            done.set()

    observer = mpv.bind_property_observer(name, changed)
    held = done.wait(WAIT)
    mpv.unbind_property_observer(observer)
    return last.get("value"), held


seen["duration"] = mpv.duration
seen["path"] = mpv.path
seen["filename"] = mpv.filename
seen["playlist_count"] = mpv.playlist_count
seen["volume"] = mpv.volume
_, seen["time_moves"] = wait_for("time-pos", lambda value: value is not None and value > 0.3)

# Pause, heard as a property-change event.
pause_changes = []
paused = threading.Event()


def on_pause(_, value):
    pause_changes.append(value)
    if value is True:
        paused.set()


mpv.bind_property_observer("pause", on_pause)
mpv.pause = True
seen["pause_read_back"] = mpv.pause  # answered once done, as mpv's set_property is
seen["pause_event"] = paused.wait(WAIT)
seen["pause_changes"] = pause_changes
seen["pause"] = mpv.pause

# An absolute seek while paused: time-pos lands there and stays (paused).
restarted = threading.Event()
mpv.bind_event("playback-restart", lambda _: restarted.set())
mpv.seek(2.5, "absolute")
seen["playback_restart"] = restarted.wait(WAIT)
seen["time_pos_after_seek"], _ = wait_for("time-pos", lambda value: value is not None and abs(value - 2.5) < 0.05)

# Properties set through the library: volume and mute.
mpv.volume = 40
mpv.mute = True
seen["volume_set"], _ = wait_for("volume", lambda value: value is not None and abs(value - 40) < 0.01)
seen["mute_set"], _ = wait_for("mute", lambda value: value is True)

# An unknown command and a bad value get mpv's error replies; the connection stays.
for name, call in [("unknown_command", lambda: mpv.command("no-such-command")),
                   ("unknown_property", lambda: mpv.command("get_property", "no-such-property")),
                   ("bad_value", lambda: mpv.command("set_property", "volume", "loud"))]:
    try:
        call()
        seen[name] = "no error"
    except MPVError as error:
        seen[name] = str(error)
seen["still_answers"] = mpv.pause

# loadfile replaces the source: file-loaded, then the new path.
loaded = threading.Event()
mpv.bind_event("file-loaded", lambda _: loaded.set())
mpv.loadfile(second_source)
seen["file_loaded"] = loaded.wait(WAIT)
seen["path_after_load"], _ = wait_for("path", lambda value: value == second_source)

# quit: the player ends; the library hears the socket close.
closed = threading.Event()
mpv.quit_callback = closed.set
try:
    mpv.command("quit")
except (BrokenPipeError, MPVError):
    pass  # the reply may lose the race with the close
seen["closed_after_quit"] = closed.wait(WAIT)
print(json.dumps(seen), flush=True)
