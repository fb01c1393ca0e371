"""Drives the coach's SSE streams (Tools/bench/coach.sh): premium users with a long workout in progress each send
fast-lane set commands; first byte and message_end latencies per turn; then a rising number of streaming clients
against /health's p99. Standard library only (threads and http.client)."""
import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

base, work, turns, subscription_cli = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
url = urllib.parse.urlparse(base)


def call(name, body, token=None):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = "Bearer " + token
    connection.request("POST", "/" + name, json.dumps(body), headers)
    reply = json.loads(connection.getresponse().read() or b"{}")
    connection.close()
    if not reply.get("success"):
        raise RuntimeError(f"{name}: {reply}")
    return reply["data"]


def premium_user(index):
    """A premium user with a workout of 10 exercises × 20 sets in progress; answers the token and workout id."""
    data = call("signUp", {"email": f"coach-{index}@example.com", "password": "bench-password-1"})
    token, user_id = data["tokens"]["access_token"], data["user"]["id"]
    subprocess.run(subscription_cli.split() + ["override", "set", "--user", user_id], check=True, stdout=subprocess.DEVNULL)
    workout = call("startActiveWorkout", {"name": "Bench", "idempotency_key": f"start-{index}"}, token)["id"]
    for exercise in range(10):
        call("addExercise", {"workout_id": workout, "exercise_id": "Barbell_Bench_Press_-_Medium_Grip", "sets": 20,
                             "idempotency_key": f"add-{index}-{exercise}"}, token)
    return token, workout


def turn(connection, token, body):
    """One streamed turn: seconds to the first body byte and to message_end, and the conversation's id."""
    started = time.perf_counter()
    connection.request("POST", "/streamAgentNormalized", json.dumps(body),
                       {"content-type": "application/json", "authorization": "Bearer " + token, "accept": "text/event-stream"})
    response = connection.getresponse()
    first = None
    ended = False
    conversation = None
    while True:
        line = response.readline()
        if not line:
            break
        if first is None:
            first = time.perf_counter() - started
        if line.startswith(b"data: "):
            event = json.loads(line[6:])
            conversation = event.get("conversation_id", conversation)
            if event["type"] in ("message_end", "error"):
                if event["type"] == "error":
                    raise RuntimeError(f"error event: {event}")
                ended = True
    if not ended:
        raise RuntimeError("the stream ended without message_end")
    return first, time.perf_counter() - started, conversation


def stream_until(stop, token, message):
    """Sends `message` turn after turn on one connection until `stop` is set."""
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    while not stop.is_set():
        turn(connection, token, {"message": message})
    connection.close()


def percentiles(samples):
    samples = sorted(samples)
    return samples[len(samples) // 2] * 1000, samples[min(len(samples) - 1, len(samples) * 99 // 100)] * 1000


def fast_lane(users, clients):
    firsts, ends = [], []
    lock = threading.Lock()

    def client(token, workout):
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        conversation = None
        mine_first, mine_end = [], []
        for _ in range(turns):
            body = {"message": "8 @ 100", "workout_id": workout}
            if conversation:
                body["conversation_id"] = conversation
            first, end, conversation = turn(connection, token, body)
            mine_first.append(first)
            mine_end.append(end)
        connection.close()
        with lock:
            firsts.extend(mine_first)
            ends.extend(mine_end)

    threads = [threading.Thread(target=client, args=users[i]) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return percentiles(firsts), percentiles(ends)


def health_p99(samples=200):
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        connection.request("GET", "/health")
        connection.getresponse().read()
        times.append(time.perf_counter() - started)
        time.sleep(0.005)
    connection.close()
    return percentiles(times)[1]


def main():
    users = [premium_user(index) for index in range(33)]
    (f50, f99), (e50, e99) = fast_lane(users[:1], 1)
    print(f"fast lane, 1 stream:    first byte p50 {f50:6.2f} ms  p99 {f99:6.2f} ms   message_end p50 {e50:6.2f} ms  p99 {e99:6.2f} ms")
    # Each user has 200 sets: the single client used `turns` of user 0's, so 32 clients take users 1…32.
    (f50, f99), (e50, e99) = fast_lane(users[1:], 32)
    print(f"fast lane, 32 streams:  first byte p50 {f50:6.2f} ms  p99 {f99:6.2f} ms   message_end p50 {e50:6.2f} ms  p99 {e99:6.2f} ms")

    # The rule-based slow lane: a 4-day plan (the planner, the critic, a routine_summary stored), and a progress
    # question (analytics and catalog through tools).
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    plans = [turn(connection, users[0][0], {"message": "build me a 4-day upper/lower plan, full gym"})[1] for _ in range(100)]
    print("slow lane (rule-based, 4-day plan), 1 stream:        p50 %6.2f ms  p99 %6.2f ms" % percentiles(plans))
    slow = [turn(connection, users[0][0], {"message": "how is my bench going?"})[1] for _ in range(100)]
    print("slow lane (rule-based, progress question), 1 stream: p50 %6.2f ms  p99 %6.2f ms" % percentiles(slow))

    # Streaming clients in a loop (slow-lane help answers, no writes but the turn) against /health's p99.
    stop = threading.Event()
    running = []
    for level in (32, 64, 128, 256, 512):
        while len(running) < level:
            thread = threading.Thread(
                target=stream_until, args=(stop, users[len(running) % len(users)][0], "hello"), daemon=True)
            thread.start()
            running.append(thread)
        time.sleep(1)
        p99 = health_p99()
        print(f"{level:4d} streaming clients: /health p99 {p99:7.2f} ms")
        if p99 > 50:
            break
    stop.set()


if __name__ == "__main__":
    main()
