"""A chat-completions server for the coach model benchmark (Tools/bench/coach_model.sh): answers at once, streamed
as OpenAI's protocol streams. The user's message scripts it: "tools N" makes the model call get_user_profile N
times (one call per completion) before answering; "hold S" streams a chunk every 100 ms for S seconds. GET /stats
answers the seconds spent handling completions so far, so the load can subtract the model's own time. Standard
library only. Prints "READY <port>" once listening."""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

busy = 0.0
lock = threading.Lock()


def chunk(delta, finish=None):
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Whole answers in one write, and no Nagle wait on the small ones: the model answers at once, as promised.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            body = json.dumps({"busy_seconds": busy}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def write_chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def event(self, payload):
        self.write_chunk(b"data: " + json.dumps(payload).encode() + b"\n\n")

    def do_POST(self):
        global busy
        started = time.perf_counter()
        request = json.loads(self.rfile.read(int(self.headers["content-length"])))
        messages = request["messages"]
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        words = messages[last_user]["content"].split()
        calls_made = sum(1 for m in messages[last_user:] if m["role"] == "tool")
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        held = 0.0
        if words[0] == "tools" and calls_made < int(words[1]):
            call = {"index": 0, "id": f"call_{calls_made}", "type": "function",
                    "function": {"name": "get_user_profile", "arguments": "{}"}}
            self.event(chunk({"tool_calls": [call]}))
            self.event(chunk({}, "tool_calls"))
        elif words[0] == "hold":
            until = time.perf_counter() + float(words[1])
            while time.perf_counter() < until:
                self.event(chunk({"content": "."}))
                self.wfile.flush()
                time.sleep(0.1)
            held = float(words[1])
            self.event(chunk({}, "stop"))
        else:
            self.event(chunk({"content": "Done."}))
            self.event(chunk({}, "stop"))
        self.event({"choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": 5}})
        self.write_chunk(b"data: [DONE]\n\n")
        self.write_chunk(b"")
        self.wfile.flush()
        with lock:
            busy += time.perf_counter() - started - held


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"READY {server.server_address[1]}", flush=True)
server.serve_forever()
