#!/usr/bin/env bash
# How much of logSet's cost is the disk: the same release server measured in alternating rounds, as it runs
# (SQLite on the disk, every answered write fdatasync'ed) and with durability taken away (its database on
# /dev/shm, fsync and fdatasync preloaded as no-ops by nosync.c). The second is a measurement, never a
# configuration: it loses answered writes on a crash. Prints the logSet / health pairs of each (common.sh).
# Usage: Tools/bench/ceiling.sh [rounds] [pairs-per-round] [connections]   (defaults 2, 3, 32)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-2}
pairs_per_round=${2:-3}
connections=${3:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v cc >/dev/null || { apt-get update -qq && apt-get install -y -qq gcc >/dev/null; }

swift build -c release --product povver-server --scratch-path .build-release >/dev/null
binary=.build-release/release/povver-server
. Tools/bench/common.sh

shim=$(mktemp -d /tmp/povver-ceiling.XXXXXX)
work=""
trap 'stop_server; rm -rf "$shim" "$work"' EXIT
cc -shared -fPIC -O2 -o "$shim/nosync.so" Tools/bench/nosync.c

durable=""
volatile=""
for round in $(seq 1 "$rounds"); do
  for mode in durable volatile; do
    if [ "$mode" = durable ]; then
      work=$(mktemp -d /tmp/povver-bench.XXXXXX)
      start_server "$binary" "$work"
    else
      work=$(mktemp -d /dev/shm/povver-bench.XXXXXX)
      start_server "$binary" "$work" LD_PRELOAD="$shim/nosync.so"
    fi
    python3 Tools/bench/setup_workouts.py "$base" 32 "$work/logset.lua"
    wrk -t2 -c"$connections" -d3s -s "$work/logset.lua" "$base/logSet" >/dev/null 2>&1  # warm-up
    pairs "$pairs_per_round" "$connections" "$work/logset.lua" "$mode, round $round, "
    if [ "$mode" = durable ]; then durable+="$median "; else volatile+="$median "; fi
    stop_server
    rm -rf "$work"
    work=""
  done
done
echo
echo "median logSet / health per round, durable (disk, fdatasync): $durable"
echo "median logSet / health per round, no durability (memory, no sync): $volatile"
