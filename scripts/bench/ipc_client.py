"""A busy remote control for the IPC benchmark: connects to loopplay's socket as soon as it is
there, observes time-pos and pause, and asks for time-pos every 100 ms, for SECONDS.
Prints how many replies and property-change events it got.

usage: ipc_client.py SOCKET SECONDS
"""
import json
import socket
import sys
import time

path, seconds = sys.argv[1], float(sys.argv[2])
end = time.monotonic() + seconds
client = None
while client is None and time.monotonic() < end:
    try:
        client = socket.socket(socket.AF_UNIX)
        client.connect(path)
    except OSError:
        client = None
        time.sleep(0.05)
if client is None:
    sys.exit("ipc_client: no socket at " + path)
client.sendall(b'{"command": ["observe_property", 1, "time-pos"]}\n{"command": ["observe_property", 2, "pause"]}\n')
client.settimeout(0.1)
replies = changes = 0
pending = b""
next_ask = time.monotonic()
while time.monotonic() < end:
    try:
        if time.monotonic() >= next_ask:
            client.sendall(b'{"command": ["get_property", "time-pos"], "request_id": 1}\n')
            next_ask += 0.1
        data = client.recv(65536)
    except socket.timeout:
        continue
    except OSError:
        break  # the player's run ended first
    if not data:
        break
    pending += data
    *lines, pending = pending.split(b"\n")
    for line in lines:
        message = json.loads(line)
        if message.get("event") == "property-change":
            changes += 1
        elif "error" in message:
            replies += 1
print(f"ipc client: {replies} replies, {changes} property changes in {seconds:.0f} s")
