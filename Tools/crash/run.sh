#!/usr/bin/env bash
# Crash safety, shown (docs/operations.md#crash-safety): a release server under a logging load is killed with
# SIGKILL twice and restarted; then every acknowledged logSet must be there and every outbox event must have
# reached each of its handlers exactly once. On SQLite in a temporary directory, and also on PostgreSQL when
# POVVER_CRASH_POSTGRES_URL names an empty database (CI creates one). Uses the release build in .build-release
# (built when missing); leaves nothing running.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=.build-release/release/povver-server
[ -x "$binary" ] || swift build -c release --product povver-server --scratch-path .build-release >/dev/null
work=$(mktemp -d /tmp/povver-crash.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== SQLite"
python3 Tools/crash/crash_load.py "$binary" "sqlite://$work/crash.sqlite" "$work" "$@"
if [ -n "${POVVER_CRASH_POSTGRES_URL:-}" ]; then
  echo "== PostgreSQL"
  python3 Tools/crash/crash_load.py "$binary" "$POVVER_CRASH_POSTGRES_URL" "$work" "$@"
fi
