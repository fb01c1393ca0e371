#!/usr/bin/env bash
# Benchmarks the coach's streams on a release povver-server (SQLite, temporary file): the fast lane's first SSE
# byte and message_end at 1 and 32 concurrent streams, the rule-based slow lane, and how many concurrent streaming
# clients the server holds before /health's p99 passes 50 ms. Loopback only; the server is stopped on exit.
# Usage: Tools/bench/coach.sh [turns-per-client]
set -euo pipefail
cd "$(dirname "$0")/../.."
turns=${1:-100}

. Tools/bench/common.sh
build_release
work=$(mktemp -d /tmp/povver-coach-bench.XXXXXX)
trap 'stop_server; rm -rf "$work"' EXIT
# 512 streaming clients share 33 users: lift the per-user stream limit (2) the load would otherwise be refused by.
start_server "$binary" "$work" POVVER_COACH_MAX_STREAMS_PER_USER=100
python3 Tools/bench/coach_load.py "$base" "$work" "$turns" \
  "env POVVER_DATABASE_URL=sqlite://$work/bench.sqlite POVVER_SIGNING_KEY_FILE=$work/key.pem .build-release/release/povver-subscription"
