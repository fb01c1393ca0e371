#!/usr/bin/env python3
"""How long another user's write waits behind a large import (issue: "an import that stalls everyone").

Starts the server (BIN, a release build by default) on a temporary SQLite file, signs up two users, and measures
user B's writes (`updateUser`, one write transaction each, back to back) first alone and then
while user A imports a Strong export of WORKOUTS workouts (6 exercises x 4 sets each). Prints each phase's write
latency (median, p99, max) and how long the import took. The import is written 50 workouts to a transaction, so
B's writes should wait at most about one batch.

Usage: Tools/bench/import_stall.py [--bin .build-release/release/povver-server] [--workouts 5000]
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def post(base, name, body, token=None, timeout=600):
    request = urllib.request.Request(base + "/" + name, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.loads(answer.read())


def strong_export(workouts):
    lines = ["Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"]
    exercises = ["Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Lat Pulldown (Cable)",
                 "Overhead Press (Barbell)", "Bicep Curl (Dumbbell)"]
    start = 1_500_000_000
    for day in range(workouts):
        date = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(start + day * 86400))
        for exercise in exercises:
            for order in range(1, 5):
                lines.append(f"{date},Day {day % 3},1h,{exercise},{order},{60 + order * 5},8,0,0,,,8")
    return "\n".join(lines)


def writes(base, token, stop, latencies):
    flag = False
    while not stop.is_set():
        flag = not flag
        began = time.perf_counter()
        post(base, "updateUser", {"name": "B" if flag else "Bee"}, token)
        latencies.append((time.perf_counter() - began) * 1000)


def summary(label, latencies):
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{label}: {len(ordered)} writes, median {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build-release/release/povver-server")
    parser.add_argument("--workouts", type=int, default=5000)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="povver-import-stall.")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, POVVER_PORT=str(port), POVVER_DATABASE_URL=f"sqlite://{work}/bench.sqlite",
               POVVER_SIGNING_KEY_FILE=f"{work}/key.pem", POVVER_RATE_LIMITS="off", LOG_LEVEL="warning")
    server = subprocess.Popen([args.bin], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/ready", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        a = post(base, "signUp", {"email": "a@example.com", "password": "secret-password"})["data"]["tokens"]["access_token"]
        b = post(base, "signUp", {"email": "b@example.com", "password": "secret-password"})["data"]["tokens"]["access_token"]
        content = strong_export(args.workouts)
        print(f"export: {args.workouts} workouts, {content.count(chr(10))} rows, {len(content) / 1e6:.1f} MB")

        alone, during = [], []
        stop = threading.Event()
        writer = threading.Thread(target=writes, args=(base, b, stop, alone))
        writer.start()
        time.sleep(3)
        stop.set()
        writer.join()

        stop = threading.Event()
        writer = threading.Thread(target=writes, args=(base, b, stop, during))
        writer.start()
        began = time.perf_counter()
        result = post(base, "importWorkouts", {"format": "strong_csv", "content": content}, a)["data"]
        took = time.perf_counter() - began
        stop.set()
        writer.join()
        print(f"import: {result['imported']} workouts, {result['sets']} sets in {took:.1f} s")
        summary("B's writes alone", alone)
        summary("B's writes during the import", during)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
