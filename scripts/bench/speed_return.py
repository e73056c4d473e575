#!/usr/bin/env python3
# Back to speed 1 after a very slow speed: how much media plays in the 2 s after the switch.
#   python3 scripts/bench/speed_return.py path/to/loopplay
# Makes a 10 s clip with sound (ffmpeg), plays it headless with SDL's disk driver, sets speed 0.01
# for 2 s over the IPC, then 1, and prints the media seconds played in the next 2 s (about 2 once
# the new speed is heard at once; 0.63 with the build before the fix).
import socket, json, time, subprocess, sys, os
clip = "/tmp/lp-speed-return.mp4"
if not os.path.exists(clip):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=f=300:r=48000", "-t", "10", "-c:v", "libx264", "-c:a", "aac", "-ac", "2", clip], check=True)
L=sys.argv[1]; sock="/tmp/lp-speed-return.sock"
if os.path.exists(sock): os.remove(sock)
p=subprocess.Popen([L,"--headless","--loop","--audio-driver","disk","--audio-device","/tmp/lp-speed-return.raw","--input-ipc-server",sock,clip],stderr=subprocess.DEVNULL)
for _ in range(100):
    if os.path.exists(sock): break
    time.sleep(0.1)
time.sleep(1.5)
s=socket.socket(socket.AF_UNIX); s.connect(sock); f=s.makefile("rw")
def req(*cmd):
    f.write(json.dumps({"command":list(cmd),"request_id":1})+"\n"); f.flush()
    while True:
        o=json.loads(f.readline())
        if "error" in o: return o
req("set_property","speed",0.01); time.sleep(2); req("set_property","speed",1)
t0=time.time(); a=req("get_property","time-pos")["data"]; time.sleep(2); b=req("get_property","time-pos")["data"]
print("after speed 1: %.2f s of media in %.2f s" % (b-a, time.time()-t0))
req("quit"); p.wait()
