"""Drives the coach's slow lane on a model (Tools/bench/coach_model.sh) against the instant fake chat server: the
agent loop's overhead per turn (turn time minus the time the model server spent) with 0, 1 and 3 tool calls, then
64 streams held open by the model while /health is measured. Standard library only."""
import http.client
import json
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, __file__.rsplit("/", 1)[0])
base, model_base, work, turns, subscription_cli = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
sys.argv = [sys.argv[0], base, work, "1", subscription_cli]
from coach_load import call, percentiles, health_p99, stream_until, turn  # noqa: E402  (shares the coach bench's helpers)
import subprocess  # noqa: E402

url = urllib.parse.urlparse(base)
model_url = urllib.parse.urlparse(model_base)


def model_busy():
    connection = http.client.HTTPConnection(model_url.hostname, model_url.port, timeout=10)
    connection.request("GET", "/stats")
    busy = json.loads(connection.getresponse().read())["busy_seconds"]
    connection.close()
    return busy


def premium(index):
    data = call("signUp", {"email": f"model-{index}@example.com", "password": "bench-password-1"})
    subprocess.run(subscription_cli.split() + ["override", "set", "--user", data["user"]["id"]], check=True,
                   stdout=subprocess.DEVNULL)
    return data["tokens"]["access_token"]


tokens = [premium(index) for index in range(64)]
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
for calls in (0, 1, 3):
    overheads, totals = [], []
    for _ in range(turns):
        before = model_busy()
        _, total, _ = turn(connection, tokens[0], {"message": f"tools {calls}"})
        overheads.append(total - (model_busy() - before))
        totals.append(total)
    print(f"slow lane on a model, {calls} tool call(s): turn p50 %6.2f ms p99 %6.2f ms; "
          f"overhead (minus the model server's time) p50 %6.2f ms p99 %6.2f ms"
          % (percentiles(totals) + percentiles(overheads)))

stop = threading.Event()
threads = [threading.Thread(target=stream_until, args=(stop, tokens[i], "hold 3"), daemon=True) for i in range(64)]
for thread in threads:
    thread.start()
time.sleep(2)
print(f"64 slow-lane streams held open by the model: /health p99 {health_p99():7.2f} ms")
stop.set()
for thread in threads:
    thread.join()
