# Shared by Tools/bench/run.sh and Tools/bench/ceiling.sh (sourced, not run): starting a release server on a
# temporary SQLite file, and the back-to-back /health and logSet pairs. Loopback only; every load is bounded by
# its duration.

server=""  # the pid of the server started last (stop_server is safe before any start)

# build_release: builds the release povver-server and povver-subscription (the operator's override grants premium)
# in .build-release and sets `binary` to the server.
build_release() {
  swift build -c release --product povver-server --scratch-path .build-release >/dev/null
  swift build -c release --product povver-subscription --scratch-path .build-release >/dev/null
  binary=.build-release/release/povver-server
}

# start_server BINARY WORK_DIR [ENV…]: starts BINARY on WORK_DIR/bench.sqlite with rate limits off, extra
# environment entries (NAME=value) after the directory, waits until /health answers, and sets `server` (its pid)
# and `base` (its URL). Its log is WORK_DIR/server.log.
start_server() {
  local binary=$1 dir=$2
  shift 2
  local port=$((30000 + RANDOM % 20000))
  base="http://127.0.0.1:$port"
  env POVVER_PORT=$port POVVER_DATABASE_URL="sqlite://$dir/bench.sqlite" POVVER_SIGNING_KEY_FILE="$dir/key.pem" \
    POVVER_LOG_FORMAT=json LOG_LEVEL=warning POVVER_RATE_LIMITS=off "$@" "$binary" >"$dir/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -sf "$base/health" >/dev/null && return 0; sleep 0.1; done
  echo "the server did not answer /health; its log:" >&2
  cat "$dir/server.log" >&2
  return 1
}

# stop_server: stops the server started last and waits for it.
stop_server() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
}

# pairs COUNT CONNECTIONS LUA LABEL: COUNT pairs of 5-second runs back to back, /health then logSet (driven by
# the LUA script setup_workouts.py wrote), and the median ratio. The machine's speed drifts between runs a minute
# apart (shared cores), so the ratio is taken from runs seconds apart. Sets `median`.
pairs() {
  local count=$1 connections=$2 lua=$3 label=$4
  local out ratios="" h l p99
  out=$(mktemp -d /tmp/povver-pairs.XXXXXX)
  for pair in $(seq 1 "$count"); do
    wrk -t2 -c"$connections" -d5s "$base/health" >"$out/h.txt" 2>&1
    wrk -t2 -c"$connections" -d5s --latency -s "$lua" "$base/logSet" >"$out/l.txt" 2>&1
    h=$(awk '/Requests\/sec/ {print $2}' "$out/h.txt")
    l=$(awk '/Requests\/sec/ {print $2}' "$out/l.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$out/l.txt")
    grep -q "Non-2xx" "$out/l.txt" && echo "warning: logSet answered $(grep "Non-2xx" "$out/l.txt" | sed "s/^ *//")"
    ratios+="$(python3 -c "print(f'{$l / $h * 100:.1f}')") "
    echo "pair $pair (${label}c=$connections): /health $h req/s, logSet $l req/s (p99 $p99)"
  done
  rm -rf "$out"
  median=$(python3 -c "import statistics,sys; print(statistics.median(map(float, sys.argv[1:])))" $ratios)
  echo "logSet / health, back-to-back pairs (${label}c=$connections): $ratios(median $median%)"
}
