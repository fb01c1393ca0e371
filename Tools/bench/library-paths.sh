#!/usr/bin/env bash
# What each hand-written performance piece earns on the endpoint it serves (logSet), against the library path it
# replaced (`LibraryPaths`, POVVER_BENCH_LIBRARY_PATHS): two release servers on temporary SQLite files, one as
# built and one with a piece switched back, set up alike (Tools/bench/setup_workouts.py: 32 users with a 60-set
# workout each), measured in alternating 5-second wrk runs (the shared cores drift between runs a minute apart),
# and the median of the per-pair ratios reported. Also the driver alone: SQLiteNIO against the direct driver with
# group commit off, since the SQLiteNIO path has none.
# Usage: Tools/bench/library-paths.sh [pairs] [connections]. Results: docs/performance.md. Loopback only; stops
# its servers on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=${1:-5}
connections=${2:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
. Tools/bench/common.sh
build_release

work=$(mktemp -d /tmp/povver-library-paths.XXXXXX)
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# serve NAME SWITCHES: a server with POVVER_BENCH_LIBRARY_PATHS=SWITCHES in $work/NAME, set up for logSet; sets
# `served_base` and writes $work/NAME/logset.lua.
serve() {
  mkdir -p "$work/$1"
  start_server "$binary" "$work/$1" POVVER_BENCH_LIBRARY_PATHS="$2"
  servers+=("$server")
  served_base=$base
  python3 Tools/bench/setup_workouts.py "$base" 32 "$work/$1/logset.lua" >/dev/null
}

# measure BASE LUA FILE: one 5-second logSet run; prints "req/s p99".
measure() {
  wrk -t2 -c"$connections" -d5s --latency -s "$2" "$1/logSet" >"$3" 2>&1
  grep -q "Non-2xx" "$3" && echo "warning: logSet answered $(grep "Non-2xx" "$3" | sed "s/^ *//")" >&2
  echo "$(awk '/Requests\/sec/ {print $2}' "$3") $(awk '$1 == "99%" {print $2}' "$3")"
}

# compare LABEL REFERENCE_SWITCHES SWITCHES: median over $pairs pairs of (library path / reference) logSet req/s.
compare() {
  local label=$1 reference=$2 switches=$3 ratios="" a b
  serve reference "$reference"
  local reference_base=$served_base
  serve variant "$switches"
  local variant_base=$served_base
  for pair in $(seq 1 "$pairs"); do
    read -r a a99 < <(measure "$reference_base" "$work/reference/logset.lua" "$work/a.txt")
    read -r b b99 < <(measure "$variant_base" "$work/variant/logset.lua" "$work/b.txt")
    ratios+="$(python3 -c "print(f'{$b / $a * 100:.1f}')") "
    echo "  pair $pair: ${reference:-as built} $a req/s (p99 $a99), $switches $b req/s (p99 $b99)"
  done
  local median
  median=$(python3 -c "import statistics,sys; print(statistics.median(map(float, sys.argv[1:])))" $ratios)
  echo "$label: the library path runs logSet at $median% of the reference's rate (pairs: $ratios)"
  for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
  servers=()
  rm -rf "$work/reference" "$work/variant"
}

echo "logSet at c=$connections, $pairs alternating pairs of 5-second runs per piece"
compare "group commit" "" no-group-commit
compare "JSONWriter (answer and fingerprint encoding)" "" foundation-encoder
compare "direct driver + group commit" "" sqlite-nio
compare "direct driver alone" "no-group-commit" sqlite-nio
