#!/usr/bin/env python3
"""Creates users with an in-progress workout on a running server and writes a wrk Lua script that logs
their sets, each request with its own idempotency key. Usage: setup_workouts.py BASE_URL USERS OUT.lua"""
import json
import sys
import urllib.request


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
    lines = ["local targets = {"]
    for token, workout, instance, set_id in targets:
        lines.append(f'  {{"{token}", "{workout}", "{instance}", "{set_id}"}},')
    lines.append("}")
    lines.append("""
local counter = 0
local threads = 0
thread_id = 0  -- a global: wrk's thread:set writes the thread's globals
-- Keys are unique across runs too (a reused key would be answered from the idempotency table).
local run = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000000))
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end
function request()
  counter = counter + 1
  local target = targets[(counter * 7919 + thread_id * 104729) % #targets + 1]
  local body = string.format('{"workout_id":"%s","exercise_instance_id":"%s","set_id":"%s","weight_kg":%d,"reps":8,"rir":2,"idempotency_key":"%s-t%d-%d"}',
    target[2], target[3], target[4], 40 + counter % 60, run, thread_id, counter)
  return wrk.format("POST", "/logSet", {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. target[1]}, body)
end
""")
    with open(out, "w") as handle:
        handle.write("\n".join(lines))


if __name__ == "__main__":
    main()
