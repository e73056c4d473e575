#!/usr/bin/env python3
"""A static HTTP server for tests, with faults injected at run time.

    fault_server.py --root DIR --control FILE --log FILE [--port N] [--bind ADDR]
                    [--tls-cert PEM --tls-key PEM]

With a certificate it speaks https (TLS on every connection; the handshake runs in the
connection's own thread, so a client that never finishes it holds up nobody).

Prints "port N" on stdout once it listens (N is the ephemeral port when --port is 0).

Faults come from the control file (JSON), read again on every request, so a test changes them
while the server runs and they survive a restart on the same port:

    {"acceptRanges": true,
     "rules": [{"pattern": "^/hls/720/", "throttle": 50000},
               {"pattern": "seg003\\.ts$", "status": 404, "times": 1}]}

The first rule whose `pattern` (a regular expression searched in the path; none matches every
path) matches a request applies; `times` limits how many requests it applies to. A rule holds:
  status N       answer N with a short text body (404, 403, 500, ...)
  redirect URL   answer 302 with Location: URL (any URL, file:///... included)
  stall true     read the request, never answer (until the client leaves or the server stops)
  stallAfter N   send the headers and N body bytes, then hold the connection open silently
  truncateAfter N  send the headers (full Content-Length) and N body bytes, then close cleanly
  dropAfter N    send the headers and N body bytes, then reset the connection (RST)
  throttle N     send the body at N bytes/s
  delay S        wait S seconds before answering

Every request is logged as two JSON lines in the log file: {"event": "begin", "id", "method",
"path", "range", "time"} when it arrives and {"event": "end", "id", "status", "bytes", "outcome",
"time"} when it ends (outcome: ok, truncated, dropped, stalled, clientGone). Times are Unix time.
Python 3 standard library only.
"""
import argparse
import email.utils
import http.server
import itertools
import json
import os
import re
import select
import ssl
import socket
import struct
import sys
import threading
import time
import urllib.parse

CONTENT_TYPES = {".m3u8": "application/vnd.apple.mpegurl", ".ts": "video/mp2t", ".mp4": "video/mp4",
                 ".m4s": "video/iso.segment", ".txt": "text/plain", ".json": "application/json"}
CHUNK = 16384
STALL_LIMIT = 600.0  # seconds: a stalled request never outlives this (tests are bounded anyway)


class Faults:
    """The control file's contents, with per-rule use counts kept across re-reads."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.used = {}
        self.generation = None

    def pick(self, request_path):
        try:
            with open(self.path, "rb") as f:
                config = json.loads(f.read() or b"{}")
        except (OSError, ValueError):
            config = {}
        accept_ranges = config.get("acceptRanges", True)
        with self.lock:
            # Each write of the control file starts the rules' counts again.
            if config.get("generation") != self.generation:
                self.generation = config.get("generation")
                self.used = {}
        for index, rule in enumerate(config.get("rules", [])):
            pattern = rule.get("pattern")
            if pattern is not None and not re.search(pattern, request_path):
                continue
            times = rule.get("times")
            key = (index, json.dumps(rule, sort_keys=True))
            with self.lock:
                if times is not None and self.used.get(key, 0) >= times:
                    continue
                self.used[key] = self.used.get(key, 0) + 1
            return rule, accept_ranges
        return {}, accept_ranges


class Log:
    def __init__(self, path):
        self.file = open(path, "a", buffering=1)
        self.lock = threading.Lock()
        self.ids = itertools.count(1)

    def write(self, entry):
        with self.lock:
            self.file.write(json.dumps(entry) + "\n")
            self.file.flush()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FaultServer/1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.respond(head=False)

    def do_HEAD(self):
        self.respond(head=True)

    # --- one request -------------------------------------------------------------------------

    def respond(self, head):
        server = self.server
        request_id = "%d-%d" % (os.getpid(), next(server.log.ids))
        path = urllib.parse.urlsplit(self.path).path
        server.log.write({"event": "begin", "id": request_id, "method": self.command, "path": path,
                          "range": self.headers.get("Range"), "time": time.time()})
        self.sent = 0
        self.status = 0
        outcome = "ok"
        try:
            outcome = self.serve(path, head)
        except (BrokenPipeError, ConnectionResetError):
            outcome = "clientGone"
        finally:
            server.log.write({"event": "end", "id": request_id, "status": self.status, "bytes": self.sent,
                              "outcome": outcome, "time": time.time()})

    def serve(self, path, head):
        rule, accept_ranges = self.server.faults.pick(path)
        if rule.get("delay"):
            time.sleep(float(rule["delay"]))
        if rule.get("stall"):
            self.close_connection = True
            return self.hold()
        if "status" in rule:
            return self.answer_text(int(rule["status"]), head)
        if "redirect" in rule:
            self.status = 302
            self.send_response(302)
            self.send_header("Location", rule["redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return "ok"
        file_path = self.local_path(path)
        if file_path is None or not os.path.isfile(file_path):
            return self.answer_text(404, head)
        size = os.path.getsize(file_path)
        start, end, status = 0, size, 200
        requested = self.headers.get("Range") if accept_ranges else None
        if requested:
            parsed = parse_range(requested, size)
            if parsed is None:
                self.status = 416
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return "ok"
            start, end, status = parsed[0], parsed[1], 206
        self.status = status
        self.send_response(status)
        self.send_header("Content-Type", CONTENT_TYPES.get(os.path.splitext(file_path)[1], "application/octet-stream"))
        self.send_header("Content-Length", str(end - start))
        self.send_header("Last-Modified", email.utils.formatdate(os.path.getmtime(file_path), usegmt=True))
        if accept_ranges:
            self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end - 1, size))
        self.end_headers()
        if head:
            return "ok"
        return self.send_body(file_path, start, end, rule)

    def send_body(self, file_path, start, end, rule):
        limit = None
        for key in ("stallAfter", "truncateAfter", "dropAfter"):
            if key in rule:
                limit = int(rule[key])
        rate = rule.get("throttle")
        began = time.monotonic()
        with open(file_path, "rb") as f:
            f.seek(start)
            remaining = end - start if limit is None else min(limit, end - start)
            while remaining > 0:
                piece = min(CHUNK, remaining)
                if rate:
                    piece = min(piece, max(1, int(rate) // 20))
                data = f.read(piece)
                if not data:
                    break
                self.wfile.write(data)
                self.wfile.flush()
                self.sent += len(data)
                remaining -= len(data)
                if rate:
                    # Keep the bytes sent so far on the line `rate · elapsed`.
                    due = began + self.sent / float(rate)
                    pause = due - time.monotonic()
                    if pause > 0:
                        time.sleep(pause)
        if "stallAfter" in rule:
            self.close_connection = True
            self.hold()
            return "stalled"
        if "truncateAfter" in rule:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_WR)
            return "truncated"
        if "dropAfter" in rule:
            self.close_connection = True
            # SO_LINGER with a zero timeout turns close() into a reset.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return "dropped"
        return "ok"

    def answer_text(self, status, head):
        body = ("%d %s\n" % (status, self.responses.get(status, ("",))[0])).encode()
        self.status = status
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)
            self.sent += len(body)
        return "ok"

    def hold(self):
        """Says nothing until the client closes, the server stops or STALL_LIMIT passes."""
        self.wfile.flush()
        deadline = time.monotonic() + STALL_LIMIT
        while time.monotonic() < deadline and not self.server.stopping.is_set():
            readable, _, _ = select.select([self.connection], [], [], 0.2)
            if readable:
                try:
                    if not self.connection.recv(4096):
                        break
                except OSError:
                    break
        return "stalled"

    def local_path(self, path):
        """The file under the root for a URL path; None for paths that climb out of it."""
        parts = [p for p in urllib.parse.unquote(path).split("/") if p not in ("", ".")]
        if any(p == ".." or "\0" in p for p in parts):
            return None
        return os.path.join(self.server.root, *parts)


def parse_range(header, size):
    """(start, end exclusive) for one 'bytes=' range, or None when it cannot be satisfied."""
    match = re.fullmatch(r"\s*bytes=(\d*)-(\d*)\s*", header)
    if not match or (match.group(1) == "" and match.group(2) == ""):
        return None
    if match.group(1) == "":
        length = int(match.group(2))
        if length == 0:
            return None
        return max(0, size - length), size
    start = int(match.group(1))
    end = size if match.group(2) == "" else min(size, int(match.group(2)) + 1)
    if start >= size or end <= start:
        return None
    return start, end


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's default backlog of 5 drops connections when a test opens many at once; a
    # dropped SYN is retried only a second later, or not before a virtual clock moves.
    request_queue_size = 128
    tls = None

    def finish_request(self, request, client_address):
        if self.tls is not None:
            try:
                request.settimeout(10)
                request = self.tls.wrap_socket(request, server_side=True)
                request.settimeout(None)
            except (ssl.SSLError, OSError):
                return
        super().finish_request(request, client_address)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--control", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    args = parser.parse_args()
    server = Server((args.bind, args.port), Handler)
    if args.tls_cert:
        server.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.tls.load_cert_chain(args.tls_cert, args.tls_key)
    server.root = os.path.abspath(args.root)
    server.faults = Faults(args.control)
    server.log = Log(args.log)
    server.stopping = threading.Event()
    print("port", server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping.set()


if __name__ == "__main__":
    main()
