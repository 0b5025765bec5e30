#!/usr/bin/env python3
"""A local HTTP server with misbehaving routes, for the remote-subtitle tests.

    http_test_server.py ROOT PORTFILE

Serves ROOT on 127.0.0.1 at an ephemeral port, written to PORTFILE once listening. Routes:
  /files/P            the file P under ROOT
  /missing/...        404
  /slow/S/P           waits S seconds, then /files/P
  /redirect/P         302 to /files/P
  /flaky/K/P          503 the first time key K is asked for, then /files/P
  /track/P            /files/P after 0.3 s, counting requests in flight
  /stats              {"max_in_flight": n, "requests": n}
  /requests           [[path, status], ...]: every /files/ request so far (what a player fetched)
  /endless            200 with no Content-Length, then bytes without end
  /gzipbomb/MIB       200, Content-Encoding: gzip, no Content-Length: MIB MiB of zeros compressed (~1000:1)
  /announce/N         200 announcing Content-Length N (sends only a little)
  /trickle/P          /files/P one byte every 0.2 s (never idle, never done in time)
  POST /result        writes the request body to ROOT/result.json (the browser page's report)
"""
import json, mimetypes, os, sys, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT, PORTFILE = sys.argv[1], sys.argv[2]
# What a static web server sends (Apple HLS Authoring Spec 10.4: .vtt as text/vtt); module
# scripts need a JavaScript type.
TYPES = {".html": "text/html; charset=utf-8", ".mjs": "text/javascript", ".js": "text/javascript",
         ".m3u8": "application/vnd.apple.mpegurl", ".vtt": "text/vtt; charset=utf-8", ".ts": "video/mp2t",
         ".m4s": "video/iso.segment", ".mp4": "video/mp4", ".srt": "text/plain; charset=utf-8", ".json": "application/json"}
lock = threading.Lock()
state = {"in_flight": 0, "max_in_flight": 0, "requests": 0, "flaky": set(), "log": []}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_file(self, path):
        full = os.path.join(ROOT, path)
        with lock:
            state["log"].append([path, 200 if os.path.isfile(full) else 404])
        if not os.path.isfile(full):
            return self.send_error(404)
        with open(full, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(full)[1], "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path.split("?")[0] != "/result":
            return self.send_error(404)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(os.path.join(ROOT, "result.json.tmp"), "wb") as f:
            f.write(body)
        os.rename(os.path.join(ROOT, "result.json.tmp"), os.path.join(ROOT, "result.json"))
        self.send_response(204)
        self.end_headers()

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        route, rest = parts[0], parts[1:]
        if route == "files":
            return self.send_file("/".join(rest))
        if route == "missing":
            return self.send_error(404, "Not Found")
        if route == "slow":
            time.sleep(float(rest[0]))
            return self.send_file("/".join(rest[1:]))
        if route == "redirect":
            self.send_response(302)
            self.send_header("Location", "/files/" + "/".join(rest))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if route == "flaky":
            with lock:
                first = rest[0] not in state["flaky"]
                state["flaky"].add(rest[0])
            if first:
                return self.send_error(503, "Service Unavailable")
            return self.send_file("/".join(rest[1:]))
        if route == "track":
            with lock:
                state["in_flight"] += 1
                state["requests"] += 1
                state["max_in_flight"] = max(state["max_in_flight"], state["in_flight"])
            time.sleep(0.3)
            with lock:
                state["in_flight"] -= 1
            return self.send_file("/".join(rest))
        if route == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"x" * 65536)
            except (BrokenPipeError, ConnectionResetError):
                return
        if route == "gzipbomb":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Encoding", "gzip")
            self.end_headers()
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
            zeros = b"0" * (1 << 20)
            try:
                for _ in range(int(rest[0])):
                    self.wfile.write(compressor.compress(zeros))
                self.wfile.write(compressor.flush())
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if route == "announce":
            self.send_response(200)
            self.send_header("Content-Length", rest[0])
            self.end_headers()
            try:
                self.wfile.write(b"x" * 1024)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if route == "trickle":
            full = os.path.join(ROOT, "/".join(rest))
            body = open(full, "rb").read() if os.path.isfile(full) else b""
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for i in range(len(body)):
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                    time.sleep(0.2)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if route == "requests":
            with lock:
                body = json.dumps(state["log"]).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if route == "stats":
            body = json.dumps({k: state[k] for k in ("max_in_flight", "requests")}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_error(404)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
