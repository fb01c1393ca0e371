#!/usr/bin/env bash
# The OpenAPI document is the whole contract: schemathesis (PyPI) generates requests from /openapi.json and runs
# every check against a release server on a temporary SQLite file, in all four phases (examples, coverage,
# fuzzing, stateful through the document's links); any finding fails. Settings: Tools/openapi/schemathesis.toml,
# the fuzzer's user: Tools/openapi/povver_hooks.py. Usage: Tools/openapi/fuzz.sh [BUILD_DIR] (default
# .build-release/release, built when missing). Leaves nothing running.
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=${1:-.build-release/release}
if [ ! -x "$bin/povver-server" ] || [ ! -x "$bin/povver-subscription" ]; then
  swift build -c release --product povver-server --scratch-path .build-release >/dev/null
  swift build -c release --product povver-subscription --scratch-path .build-release >/dev/null
fi
if ! command -v st >/dev/null 2>&1 && ! python3 -c 'import schemathesis' >/dev/null 2>&1; then
  python3 -m pip install -q schemathesis 2>/dev/null || python3 -m pip install -q --break-system-packages schemathesis
fi

work=$(mktemp -d /tmp/povver-fuzz.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export POVVER_DATABASE_URL="sqlite://$work/fuzz.sqlite" POVVER_SIGNING_KEY_FILE="$work/key.pem" POVVER_RATE_LIMITS=off
export POVVER_FUZZ_BASE_URL="http://127.0.0.1:$port" POVVER_FUZZ_SUBSCRIPTION_TOOL="$PWD/$bin/povver-subscription"
POVVER_PORT=$port LOG_LEVEL=warning "$bin/povver-server" >"$work/server.log" 2>&1 &
server=$!
finish() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap finish EXIT
for _ in $(seq 1 100); do curl -sf "$POVVER_FUZZ_BASE_URL/ready" >/dev/null && break; sleep 0.1; done

status=0
PYTHONPATH="$PWD/Tools/openapi" SCHEMATHESIS_HOOKS=povver_hooks python3 -m schemathesis.cli \
  --config-file Tools/openapi/schemathesis.toml run --no-color "$POVVER_FUZZ_BASE_URL/openapi.json" || status=$?
if [ "$status" -ne 0 ]; then
  echo "the server's log (last 40 lines):" >&2
  tail -n 40 "$work/server.log" >&2
fi
exit "$status"
