#!/usr/bin/env bash
# The web app's journeys in a real browser: installs headless Chromium and its driver (Debian's packages) and
# Selenium (PyPI) when missing, starts the server from BUILD_DIR (default .build/debug, built by `swift test`) on a
# temporary SQLite file, runs Tools/web/test_journeys.py against it and stops it. Screenshots (390×844, light and
# dark) go to POVVER_WEB_SCREENSHOTS (default .build/web-screenshots); the measured benchmarks to
# .build/web-benchmarks.json. Usage: Tools/web/run.sh [BUILD_DIR]. Leaves nothing running.
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=${1:-.build/debug}
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! python3 -c 'import selenium' >/dev/null 2>&1; then
  python3 -m pip install -q selenium 2>/dev/null || python3 -m pip install -q --break-system-packages selenium
fi

work=$(mktemp -d /tmp/povver-web.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export POVVER_DATABASE_URL="sqlite://$work/web.sqlite" POVVER_SIGNING_KEY_FILE="$work/key.pem" POVVER_BCRYPT_COST=4
POVVER_PORT=$port LOG_LEVEL=warning "$bin/povver-server" >"$work/server.log" 2>&1 &
server=$!
finish() {
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap finish EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break; sleep 0.1; done

export POVVER_WEB_BASE_URL="http://127.0.0.1:$port" POVVER_WEB_SUBSCRIPTION_TOOL="$PWD/$bin/povver-subscription"
export POVVER_WEB_SCREENSHOTS=${POVVER_WEB_SCREENSHOTS:-$PWD/.build/web-screenshots}
export POVVER_WEB_BENCHMARKS=${POVVER_WEB_BENCHMARKS:-$PWD/.build/web-benchmarks.json}
status=0
(cd Tools/web && python3 -m unittest -v test_journeys) || status=$?
if [ "$status" -ne 0 ]; then
  echo "the server's log (last 40 lines):" >&2
  tail -n 40 "$work/server.log" >&2
else
  echo "benchmarks: $(cat "$POVVER_WEB_BENCHMARKS")"
fi
exit "$status"
