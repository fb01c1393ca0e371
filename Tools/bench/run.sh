#!/usr/bin/env bash
# Benchmarks a release povver-server on a temporary SQLite file with wrk (Debian package `wrk`).
# Usage: Tools/bench/run.sh [seconds-per-run] [connections]
# Ends with the App Store notification verifier's single-core throughput (Tools/subscription-bench).
# Rate limits are off (the load comes from one address and one account). Prints req/s, p50, p99 per endpoint and the server's RSS idle and under load. Loopback only; every run is
# bounded by its duration, and the server is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-10}
connections=${2:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }

swift build -c release --product povver-server --scratch-path .build-release >/dev/null
binary=.build-release/release/povver-server

work=$(mktemp -d /tmp/povver-bench.XXXXXX)
. Tools/bench/common.sh
trap 'stop_server; rm -rf "$work"' EXIT
start_server "$binary" "$work"

rss() { awk '/VmRSS/ {print $2 " kB"}' "/proc/$server/status"; }
curl -sf -XPOST "$base/signUp" -H 'content-type: application/json' \
  -d '{"email":"bench@example.com","password":"bench-password"}' >"$work/signup.json"
token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"]["tokens"]["access_token"])' "$work/signup.json")

cat >"$work/signin.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"bench@example.com","password":"bench-password"}'
LUA

idle_rss=$(rss)
report() {  # name, wrk output file
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' "$2")
  p50=$(awk '$1 == "50%" {print $2}' "$2")
  p99=$(awk '$1 == "99%" {print $2}' "$2")
  printf '%-34s %12s %10s %10s\n' "$1" "$rps" "$p50" "$p99"
}
run() {  # name, wrk args...
  local name=$1; shift
  local out="$work/$(printf "%s" "$name" | tr -c 'a-zA-Z0-9' '_').txt"
  wrk -t2 -c"$connections" -d"${duration}s" --latency "$@" >"$out" 2>&1 &
  local load=$!
  sleep $((duration / 2))
  echo "$(rss)" >"$out.rss"
  wait $load
  report "$name" "$out"
}

printf '%-34s %12s %10s %10s\n' "endpoint (c=$connections, ${duration}s)" "req/s" "p50" "p99"
run "GET /health" "$base/health"
run "GET /getUser (Bearer)" -H "Authorization: Bearer $token" "$base/getUser"
health_rps=$(awk '/Requests\/sec/ {print $2}' "$work/GET__health.txt")
user_rps=$(awk '/Requests\/sec/ {print $2}' "$work/GET__getUser__Bearer_.txt")
python3 Tools/bench/setup_workouts.py "$base" 32 "$work/logset.lua"
cat >"$work/search.lua" <<'LUA'
local queries = {"bench pres", "dumbel curl", "squat", "barbel row", "pull", "lunge", "deadlift", "press"}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/searchExercises?limit=20&query=" .. queries[i % #queries + 1]:gsub(" ", "%%20"))
end
LUA
run "POST /logSet (32 users, unique keys)" -s "$work/logset.lua" "$base/logSet"
logset_rps=$(awk '/Requests\/sec/ {print $2}' "$work/POST__logSet__32_users__unique_keys_.txt")
run "GET /searchExercises" -H "Authorization: Bearer $token" -s "$work/search.lua" "$base/searchExercises"
run "GET /getSubscriptionStatus" -H "Authorization: Bearer $token" "$base/getSubscriptionStatus"
run "POST /signIn (bcrypt cost 12)" -s "$work/signin.lua" "$base/signIn"
# refreshToken rotates: every token is used exactly once. Each wrk thread keeps a queue of live tokens (one
# session per connection, from signIn), takes one per request and puts back the one each answer carries.
# One extra token for thread 0: wrk calls request() once on thread 0 to inspect it before the run.
refresh_tokens=""
for _ in $(seq 0 "$connections"); do
  refresh_tokens+=$(curl -sf -XPOST "$base/signIn" -H 'content-type: application/json' \
    -d '{"email":"bench@example.com","password":"bench-password"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["tokens"]["refresh_token"])'),
done
cat >"$work/refresh.lua" <<LUA
local all = "$refresh_tokens"
init = function(args)
  queue = {}
  local index = 0
  for token in string.gmatch(all, "([^,]+)") do
    if index % 2 == (id or 0) then table.insert(queue, token) end
    index = index + 1
  end
end
LUA
cat >>"$work/refresh.lua" <<'LUA'
-- wrk runs two threads (-t2): thread 0 takes the even tokens, thread 1 the odd ones.
local counter = 0
setup = function(thread)
  thread:set("id", counter)
  counter = counter + 1
end
request = function()
  local token = table.remove(queue, 1) or "rt_exhausted"
  return wrk.format("POST", "/refreshToken", {["Content-Type"] = "application/json"}, '{"refresh_token":"' .. token .. '"}')
end
response = function(status, headers, body)
  local token = string.match(body, '"refresh_token":"([^"]+)"')
  if token then table.insert(queue, token) end
end
LUA
run "POST /refreshToken (rotating)" -s "$work/refresh.lua" "$base/refreshToken"
connections=2
run "POST /logSet (c=2: service latency)" -s "$work/logset.lua" "$base/logSet"
run "GET /searchExercises (c=2)" -H "Authorization: Bearer $token" -s "$work/search.lua" "$base/searchExercises"
run "GET /getSubscriptionStatus (c=2)" -H "Authorization: Bearer $token" "$base/getSubscriptionStatus"
echo
echo "getUser / health: $(python3 -c "print(f'{$user_rps / $health_rps * 100:.1f}%')")"
echo "logSet / health: $(python3 -c "print(f'{$logset_rps / $health_rps * 100:.1f}%')")"
# The ratio is also taken from back-to-back pairs (common.sh), at 32 connections (the p99 target's) and at 64:
# a commit and its fdatasync are shared by the writes waiting for them, so logSet's cost per request falls as
# more of them are in flight.
for pair_connections in 32 64; do
  pairs 5 "$pair_connections" "$work/logset.lua" ""
done
for f in "$work"/*.txt; do grep -q "Non-2xx" "$f" && echo "warning: $(basename "$f" .txt): $(grep "Non-2xx" "$f" | sed "s/^ *//")"; done || true
echo "RSS idle: $idle_rss; under getUser load: $(cat "$work/GET__getUser__Bearer_.txt.rss"); under signIn load: $(cat "$work/POST__signIn__bcrypt_cost_12_.txt.rss")"
echo "server errors logged: $(grep -c '"level":"error"' "$work/server.log" || true)"

# App Store notification verification on one core (test PKI shaped like Apple's; three JWS per notification).
echo
POVVER_BENCHMARKS=1 swift build -c release --product subscription-bench --scratch-path .build-release >/dev/null
taskset -c 0 .build-release/release/subscription-bench 2000
