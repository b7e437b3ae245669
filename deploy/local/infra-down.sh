#!/usr/bin/env bash
# Stops what deploy/local/infra-up.sh started (recorded in .wayfinder/started-by-up): the Kafka broker
# by its pid file, Redis only if infra-up started it. A Kafka or Redis that was already running before
# infra-up is left alone. Data stays in .wayfinder/ (delete the folder for a clean slate).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${WAYFINDER_STATE_DIR:-$ROOT/.wayfinder}"
REDIS_PORT="${WAYFINDER_REDIS_PORT:-6379}"
PID_FILE="$STATE/kafka/kafka.pid"
MARKER="$STATE/started-by-up"

say() { echo "infra-down: $*"; }
started() { [[ -f "$MARKER" ]] && grep -qx "$1" "$MARKER"; }
unmark() { [[ -f "$MARKER" ]] && { grep -vx "$1" "$MARKER" >"$MARKER.tmp" || true; mv "$MARKER.tmp" "$MARKER"; }; }

# Sends TERM (the broker then shuts down cleanly: closes logs, leaves no recovery work), waits, then KILL.
stop_pid() {
  local name="$1" pid="$2" timeout="$3" i
  kill -0 "$pid" 2>/dev/null || return 0
  say "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < timeout * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || { say "$name stopped"; return 0; }
    sleep 0.1
  done
  say "$name did not stop within ${timeout}s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

if started kafka; then
  if [[ -f "$PID_FILE" ]]; then
    stop_pid Kafka "$(cat "$PID_FILE")" 60
    rm -f "$PID_FILE"
  fi
  unmark kafka
else
  say "Kafka was not started by infra-up; leaving it alone"
fi

if started redis; then
  if [[ -f "$STATE/redis.pid" ]]; then
    stop_pid Redis "$(cat "$STATE/redis.pid")" 10
    rm -f "$STATE/redis.pid"
  else
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
  fi
  unmark redis
else
  say "Redis was not started by infra-up; leaving it alone"
fi

[[ -f "$MARKER" && ! -s "$MARKER" ]] && rm -f "$MARKER"
exit 0
