#!/usr/bin/env python3
"""Crash safety, shown: a logging load against a release server that is killed with SIGKILL mid-load and
restarted, then a check that nothing answered was lost and that every outbox event reached each of its
handlers exactly once.

Usage: crash_load.py BINARY DATABASE_URL WORK_DIR [--crashes N] [--users N] [--seconds S]

DATABASE_URL is `sqlite:///path` (a file of its own) or a `postgres://` URL of an empty database (read with
`psql`, found on PATH or under /usr/lib/postgresql). Standard library only. Exits non-zero with the findings.

The clients behave as the app does: each logs the sets of short workouts one request at a time, each write
with its own idempotency key, and a write whose answer was lost (the connection died with the server) is sent
again with the same key once the server is back. A write counts as acknowledged when a 200 answer arrived.
"""
import argparse
import glob
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

EXERCISES = ["Barbell_Squat", "Barbell_Bench_Press_-_Medium_Grip"]
SETS_PER_EXERCISE = 4
# The longest a delivery leased by a killed process waits: its lease (60 s) plus one watchdog interval (30 s).
SETTLE_SECONDS = 240


class ServerGone(Exception):
    """The request got no answer: the server is down (killed, or not back yet)."""


class Server:
    def __init__(self, binary, database_url, work_dir):
        self.binary, self.database_url, self.work_dir = binary, database_url, work_dir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.starts = 0

    def start(self):
        self.starts += 1
        env = dict(os.environ)
        env.update({
            "POVVER_PORT": str(self.port),
            "POVVER_DATABASE_URL": self.database_url,
            "POVVER_SIGNING_KEY_FILE": os.path.join(self.work_dir, "key.pem"),
            "POVVER_RATE_LIMITS": "off",
            "POVVER_LOG_FORMAT": "json",
            "LOG_LEVEL": "warning",
        })
        log = open(os.path.join(self.work_dir, f"server-{self.starts}.log"), "w")
        self.process = subprocess.Popen([self.binary], env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server exited at start ({self.process.returncode}); see {log.name}")
            try:
                with urllib.request.urlopen(self.base + "/ready", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        raise SystemExit(f"the server did not become ready; see {log.name}")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call(base, name, body, token=None, timeout=30):
    """The envelope's `data`, or raises ServerGone (no answer) / RuntimeError (an error envelope)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + "/" + name, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.load(answer)["data"]
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        if error.code == 503:
            raise ServerGone(text)
        raise RuntimeError(f"{name}: HTTP {error.code}: {text}")
    except (urllib.error.URLError, ConnectionError, socket.timeout, OSError, json.JSONDecodeError) as error:
        raise ServerGone(str(error))


class Client(threading.Thread):
    """One lifter: short workouts from a template, set by set, until told to stop."""

    def __init__(self, index, server, stop, up, findings):
        super().__init__(daemon=True)
        self.index, self.server, self.stop, self.up, self.findings = index, server, stop, up, findings
        self.token = None
        self.counter = 0
        self.logged = {}  # (workout id, set id) -> (weight, reps), acknowledged
        self.completed = []  # workout ids whose completion was acknowledged
        self.attempts = 0  # writes sent, retries included

    def send(self, name, body):
        """Sends until answered, again with the same body (and so the same key) while the server is down."""
        while True:
            self.attempts += 1
            try:
                return call(self.server.base, name, body, self.token)
            except ServerGone:
                self.up.wait()
                time.sleep(0.01)

    def key(self, label):
        self.counter += 1
        return f"{label}-{self.index}-{self.counter}"

    def run(self):
        try:
            credentials = {"email": f"crash{self.index}@example.com", "password": "crash-test-password"}
            try:
                answer = self.send("signUp", credentials)
            except RuntimeError as error:  # signed up, and the answer lost with the server
                if "EMAIL_ALREADY_IN_USE" not in str(error):
                    raise
                answer = self.send("signIn", credentials)
            self.token = answer["tokens"]["access_token"]
            sets = [{"target_reps": 8} for _ in range(SETS_PER_EXERCISE)]
            template = self.send("createTemplate", {
                "name": "Crash", "exercises": [{"exercise_id": e, "sets": sets} for e in EXERCISES],
                "idempotency_key": self.key("template")})
            while not self.stop.is_set():
                workout = self.send("startActiveWorkout", {"template_id": template["id"], "idempotency_key": self.key("start")})
                for exercise in workout["exercises"]:
                    for position, planned in enumerate(exercise["sets"]):
                        weight = 40 + 2.5 * ((self.counter + position) % 20)
                        self.send("logSet", {
                            "workout_id": workout["id"], "exercise_instance_id": exercise["instance_id"], "set_id": planned["id"],
                            "weight_kg": weight, "reps": 8, "idempotency_key": self.key("set")})
                        self.logged[(workout["id"], planned["id"])] = (weight, 8)
                self.send("completeActiveWorkout", {"workout_id": workout["id"], "idempotency_key": self.key("complete")})
                self.completed.append(workout["id"])
        except Exception as error:  # noqa: BLE001 - any failure is a finding, reported with the client
            self.findings.append(f"client {self.index}: {error}")


def psql_binary():
    found = shutil.which("psql")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))
    if not candidates:
        raise SystemExit("psql not found")
    return candidates[-1]


def query(database_url, sql):
    """Rows of `sql` as tuples of strings (SQLite or PostgreSQL)."""
    if database_url.startswith("sqlite://"):
        connection = sqlite3.connect(database_url[len("sqlite://"):])
        try:
            return [tuple("" if v is None else str(v) for v in row) for row in connection.execute(sql).fetchall()]
        finally:
            connection.close()
    url = database_url.split("?")[0]
    output = subprocess.run([psql_binary(), url, "-At", "-F", "\t", "-c", sql], check=True, capture_output=True, text=True).stdout
    return [tuple(line.split("\t")) for line in output.splitlines() if line]


def settle(server, database_url):
    """Waits until every event is fanned out and every delivery has finished (done or failed)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        pending = query(database_url, "SELECT COUNT(*) FROM platform_outbox WHERE dispatched_at IS NULL")[0][0]
        running = query(database_url, "SELECT COUNT(*) FROM platform_jobs WHERE kind LIKE 'platform.event%' AND status IN ('queued', 'leased')")[0][0]
        if pending == "0" and running == "0":
            return True
        time.sleep(0.5)
    return False


def check_acknowledged(server, clients, findings):
    """Every acknowledged set is in the active workout or in history, as logged; every acknowledged completion is in history."""
    for client in clients:
        if client.token is None:
            continue
        active = call(server.base, "getActiveWorkout", {}, client.token)
        documents = {}
        if active:
            documents[active["id"]] = active
        wanted = {workout for workout, _ in client.logged} | set(client.completed)
        for workout in sorted(wanted - set(documents)):
            try:
                documents[workout] = call(server.base, "getWorkout", {"workout_id": workout}, client.token)
            except RuntimeError as error:
                findings.append(f"client {client.index}: workout {workout} lost: {error}")
        for workout in client.completed:
            if workout in documents and documents[workout].get("end_time") is None:
                findings.append(f"client {client.index}: acknowledged completion of {workout} not in history")
        for (workout, set_id), (weight, reps) in client.logged.items():
            document = documents.get(workout)
            found = None
            for exercise in (document or {}).get("exercises", []):
                for logged in exercise["sets"]:
                    if logged["id"] == set_id:
                        found = logged
            if found is None or found.get("weight_kg") != weight or found.get("reps") != reps or found.get("completed_at") is None:
                findings.append(f"client {client.index}: acknowledged set {set_id} of {workout} lost (found {found})")


def check_exactly_once(database_url, findings):
    """Each event was fanned out to each handler of its type by one delivery that finished, and the handlers'
    effects count each completed workout once."""
    handlers = query(database_url, "SELECT name, event_type FROM platform_event_handlers ORDER BY name")
    events = query(database_url, "SELECT id, type FROM platform_outbox")
    deliveries = {}
    for job_id, status in query(database_url, "SELECT id, status FROM platform_jobs WHERE kind LIKE 'platform.event%'"):
        deliveries[job_id] = status
    expected = 0
    for event_id, event_type in events:
        for name, handled in handlers:
            if handled != event_type:
                continue
            expected += 1
            status = deliveries.get(f"event:{event_id}:{name}")
            if status != "done":
                findings.append(f"event {event_id} ({event_type}) to {name}: delivery {status or 'missing'}")
    if expected != len(deliveries):
        findings.append(f"{len(deliveries)} deliveries for {expected} (event, handler) pairs")
    history = dict(query(database_url, "SELECT user_id, COUNT(*) FROM workouts_history GROUP BY user_id"))
    counted = dict(query(database_url, "SELECT user_id, SUM(workouts) FROM analytics_weekly_stats GROUP BY user_id"))
    completed_events = dict(query(database_url, "SELECT user_id, COUNT(*) FROM analytics_product_events WHERE name = 'workout_completed' GROUP BY user_id"))
    fact_workouts = dict(query(database_url, "SELECT user_id, COUNT(DISTINCT workout_id) FROM analytics_workouts GROUP BY user_id"))
    sets_counted = dict(query(database_url, "SELECT user_id, SUM(sets) FROM analytics_weekly_stats GROUP BY user_id"))
    facts = dict(query(database_url, "SELECT user_id, COUNT(*) FROM analytics_set_facts GROUP BY user_id"))
    logged_sets = {}
    for user, document in query(database_url, "SELECT user_id, document FROM workouts_history"):
        sets = sum(1 for exercise in json.loads(document)["exercises"] for s in exercise["sets"] if s.get("completed_at"))
        logged_sets[user] = logged_sets.get(user, 0) + sets
    for user, workouts in sorted(history.items()):
        for label, table in (("weekly stats count", counted), ("workout_completed product events", completed_events),
                             ("analytics workouts", fact_workouts)):
            if table.get(user) != workouts:
                findings.append(f"user {user}: {workouts} workouts in history, {table.get(user)} {label}")
        for label, table in (("weekly stats sets", sets_counted), ("set facts", facts)):
            if table.get(user) != str(logged_sets.get(user, 0)):
                findings.append(f"user {user}: {logged_sets.get(user, 0)} sets in history, {table.get(user)} {label}")
    return len(events), expected


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("database_url")
    parser.add_argument("work_dir")
    parser.add_argument("--crashes", type=int, default=2)
    parser.add_argument("--users", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=3.0, help="load before each crash, and after the last restart")
    options = parser.parse_args()

    server = Server(options.binary, options.database_url, options.work_dir)
    findings = []
    stop, up = threading.Event(), threading.Event()
    server.start()
    up.set()
    clients = [Client(index, server, stop, up, findings) for index in range(options.users)]
    try:
        for client in clients:
            client.start()
        for crash in range(options.crashes):
            time.sleep(options.seconds)
            before = sum(len(c.logged) for c in clients)
            up.clear()
            server.kill()
            print(f"crash {crash + 1}: SIGKILL after {before} acknowledged sets", flush=True)
            server.start()
            up.set()
        time.sleep(options.seconds)
        stop.set()
        for client in clients:
            client.join(timeout=120)
            if client.is_alive():
                findings.append(f"client {client.index} did not finish")
        if not settle(server, options.database_url):
            findings.append(f"deliveries still pending after {SETTLE_SECONDS} s")
        check_acknowledged(server, clients, findings)
    finally:
        stop.set()
        up.set()
        server.stop()
    events, pairs = check_exactly_once(options.database_url, findings)
    sets = sum(len(c.logged) for c in clients)
    workouts = sum(len(c.completed) for c in clients)
    print(f"{options.crashes} crashes: {sets} acknowledged sets and {workouts} acknowledged completions checked; "
          f"{events} events, {pairs} deliveries checked")
    if findings:
        print(f"{len(findings)} findings:", file=sys.stderr)
        for finding in findings[:50]:
            print("  " + finding, file=sys.stderr)
        return 1
    print("nothing acknowledged was lost; every event reached each handler exactly once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
