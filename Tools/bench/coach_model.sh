#!/usr/bin/env bash
# Benchmarks the coach's slow lane on a language model (release povver-server, SQLite, temporary file) against a
# local fake chat-completions server that answers at once: the agent loop's overhead per turn with 0, 1 and 3 tool
# calls, and /health's p99 with 64 streams held open by the model. Loopback only; both servers stop on exit.
# Usage: Tools/bench/coach_model.sh [turns]
set -euo pipefail
cd "$(dirname "$0")/../.."
turns=${1:-200}

. Tools/bench/common.sh
build_release
work=$(mktemp -d /tmp/povver-model-bench.XXXXXX)
python3 Tools/bench/fake_chat_server.py >"$work/model.out" &
model=$!
trap 'stop_server; kill "$model" 2>/dev/null || true; wait "$model" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do grep -q READY "$work/model.out" && break; sleep 0.1; done
model_base="http://127.0.0.1:$(awk '/READY/ {print $2}' "$work/model.out")"
# 64 streams are held open by the model at once: as many connections, so none is told the coach is busy.
start_server "$binary" "$work" POVVER_LLM_BASE_URL="$model_base/v1" POVVER_LLM_MODEL=bench POVVER_LLM_MAX_CONNECTIONS=64
python3 Tools/bench/coach_model_load.py "$base" "$model_base" "$work" "$turns" \
  "env POVVER_DATABASE_URL=sqlite://$work/bench.sqlite POVVER_SIGNING_KEY_FILE=$work/key.pem .build-release/release/povver-subscription"
