#!/usr/bin/env python3
"""Creates users with an in-progress workout on a running server and writes a wrk Lua script that logs
their sets, each request with its own idempotency key. Usage: setup_workouts.py BASE_URL USERS OUT.lua"""
import json
import sys
import urllib.request


def lua_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r").replace("\n", "\\n") + '"'


def call(base, name, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + "/" + name, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.load(response)["data"]


def main():
    base, users, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    targets = []
    for index in range(users):
        token = call(base, "signUp", {"email": f"bench{index}@example.com", "password": "bench-password"})["tokens"]["access_token"]
        sets = [{"target_reps": 8} for _ in range(30)]
        template = call(base, "createTemplate", {"name": "Bench", "exercises": [
            {"exercise_id": "Barbell_Squat", "sets": sets}, {"exercise_id": "Barbell_Bench_Press_-_Medium_Grip", "sets": sets}]}, token)
        workout = call(base, "startActiveWorkout", {"template_id": template["id"]}, token)
        for exercise in workout["exercises"]:
            for s in exercise["sets"]:
                targets.append((token, workout["id"], exercise["instance_id"], s["id"]))
    # Each request is built from two precomputed halves around its key: the key has a fixed width, so the
    # Content-Length of every target's request is known in advance and wrk's Lua does one concatenation per
    # request instead of formatting headers and body (which cost wrk more CPU than the server's parsing).
    key_width = 10 + len("-t1-") + 10  # start second, thread, counter
    lines = ["local requests = {"]
    for token, workout, instance, set_id in targets:
        before = ('{"workout_id":"%s","exercise_instance_id":"%s","set_id":"%s","weight_kg":%d,"reps":8,"rir":2,"idempotency_key":"'
                  % (workout, instance, set_id, 40 + len(lines) % 60))
        after = '"}'
        length = len(before) + key_width + len(after)
        head = (f"POST /logSet HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nAuthorization: Bearer {token}\r\n"
                f"Content-Length: {length}\r\n\r\n")
        lines.append("  {%s, %s}," % (lua_string(head + before), lua_string(after)))
    lines.append("}")
    lines.append("""
-- The counter starts at 10^9 so that it prints in ten digits as it is (no string.format per request), and
-- each thread's part of the key is joined once.
local counter = 1000000000
local threads = 0
-- Keys are unique per thread and across runs (a reused key would be answered from the idempotency table):
-- each run starts in a second of its own.
local run = string.format("%010d", os.time())
local prefix = nil
thread_id = 0  -- a global: wrk's thread:set writes the thread's globals
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end
function request()
  if prefix == nil then prefix = run .. "-t" .. thread_id .. "-" end
  counter = counter + 1
  local target = requests[(counter * 7919 + thread_id * 104729) % #requests + 1]
  return target[1] .. prefix .. counter .. target[2]
end
""")
    with open(out, "w") as handle:
        handle.write("\n".join(lines))


if __name__ == "__main__":
    main()
