#!/usr/bin/env bash
# Starts a real Apache Kafka broker (KRaft, single node) and Redis on this machine without Docker, for
# `npm test` and local runs (`npm run infra:up`). Kafka comes from Maven Central jars fetched once into
# .wayfinder/kafka/libs. Idempotent: whatever already answers is left alone, and .wayfinder/started-by-up
# records what this script started so that infra-down.sh stops only that.
#
# Overrides: WAYFINDER_KAFKA_PORT (9092), WAYFINDER_KAFKA_CONTROLLER_PORT (9093), WAYFINDER_REDIS_PORT
# (6379), WAYFINDER_STATE_DIR (<repo>/.wayfinder), WAYFINDER_KAFKA_START_TIMEOUT (seconds, 120),
# WAYFINDER_KAFKA_HEAP (512m).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE="${WAYFINDER_STATE_DIR:-$ROOT/.wayfinder}"
KAFKA_PORT="${WAYFINDER_KAFKA_PORT:-9092}"
CONTROLLER_PORT="${WAYFINDER_KAFKA_CONTROLLER_PORT:-9093}"
REDIS_PORT="${WAYFINDER_REDIS_PORT:-6379}"
START_TIMEOUT="${WAYFINDER_KAFKA_START_TIMEOUT:-120}"
HEAP="${WAYFINDER_KAFKA_HEAP:-512m}"

KAFKA_HOME="$STATE/kafka"
LIBS="$KAFKA_HOME/libs"
DATA="$KAFKA_HOME/data"
PID_FILE="$KAFKA_HOME/kafka.pid"
LOG_FILE="$KAFKA_HOME/kafka.log"
MARKER="$STATE/started-by-up"

say() { echo "infra-up: $*"; }
fail() { echo "infra-up: $*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pid_alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
mark_started() { touch "$MARKER"; grep -qx "$1" "$MARKER" || echo "$1" >>"$MARKER"; }

mkdir -p "$STATE"

fetch_kafka() {
  [[ -f "$LIBS/.complete" ]] && return 0
  command -v mvn >/dev/null 2>&1 ||
    fail "Maven (mvn) is required once, to fetch the Kafka jars from Maven Central. Install it (e.g. 'apt-get install maven') and rerun."
  say "fetching Kafka 3.9.1 jars from Maven Central into $LIBS (once)…"
  rm -rf "$LIBS.tmp"
  if ! mvn -q -B -Dstyle.color=never -f "$ROOT/deploy/local/kafka/pom.xml" dependency:copy-dependencies \
    -DoutputDirectory="$LIBS.tmp" -DincludeScope=runtime >"$STATE/mvn.log" 2>&1; then
    tail -n 30 "$STATE/mvn.log" >&2
    fail "mvn could not fetch the Kafka jars (network? proxy? a Maven mirror in ~/.m2/settings.xml?); full output in $STATE/mvn.log"
  fi
  rm -rf "$LIBS"
  mv "$LIBS.tmp" "$LIBS"
  touch "$LIBS/.complete"
  say "fetched $(ls "$LIBS"/*.jar | wc -l) jars ($(du -sh "$LIBS" | cut -f1))"
}

write_config() {
  mkdir -p "$DATA"
  cat >"$KAFKA_HOME/server.properties" <<EOF
# Written by deploy/local/infra-up.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$DATA
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
group.initial.rebalance.delay.ms=0
log.retention.hours=24
log.segment.bytes=67108864
delete.topic.enable=true
EOF
  # Kafka logs through reload4j; WARN keeps the log small, the two INFO loggers say when it started.
  cat >"$KAFKA_HOME/log4j.properties" <<'EOF'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.server.BrokerServer=INFO
EOF
}

format_storage() {
  [[ -f "$DATA/meta.properties" ]] && return 0
  local cluster_id
  # A Kafka cluster id is 16 random bytes in URL-safe base64 without padding (what `random-uuid` prints).
  # Drawn again while it starts with '-': the storage tool would read such an id as an option.
  cluster_id="-"
  while [[ "$cluster_id" == -* ]]; do cluster_id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"; done
  say "formatting KRaft storage (cluster id $cluster_id)"
  java -cp "$LIBS/*" -Dlog4j.configuration="file:$KAFKA_HOME/log4j.properties" \
    kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_HOME/server.properties" --ignore-formatted >/dev/null ||
    fail "formatting the Kafka storage in $DATA failed"
}

log_tail() { [[ -f "$LOG_FILE" ]] && tail -n 40 "$LOG_FILE" >&2 || true; }

wait_for_kafka() {
  local deadline=$((SECONDS + START_TIMEOUT))
  until port_open "$KAFKA_PORT"; do
    if [[ -f "$PID_FILE" ]] && ! pid_alive "$PID_FILE"; then
      echo "infra-up: the Kafka broker exited during start-up; last lines of $LOG_FILE:" >&2
      log_tail
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      echo "infra-up: Kafka did not open 127.0.0.1:$KAFKA_PORT within ${START_TIMEOUT}s; last lines of $LOG_FILE:" >&2
      log_tail
      exit 1
    fi
    sleep 0.5
  done
  # An open port is not a ready broker: wait until it answers metadata and lists its own node.
  local left=$((deadline - SECONDS))
  ((left < 10)) && left=10
  if ! (cd "$ROOT" && node deploy/local/kafka-ready.mjs "127.0.0.1:$KAFKA_PORT" "$left"); then
    echo "infra-up: Kafka answers on port $KAFKA_PORT but is not ready; last lines of $LOG_FILE:" >&2
    log_tail
    exit 1
  fi
}

start_kafka() {
  if port_open "$KAFKA_PORT"; then
    say "Kafka already answers on 127.0.0.1:$KAFKA_PORT; leaving it as it is"
    wait_for_kafka
    return 0
  fi
  command -v java >/dev/null 2>&1 ||
    fail "Java (JDK/JRE 17+) is required to run the local Kafka broker. Install it (e.g. 'apt-get install openjdk-17-jre-headless') and rerun."
  if pid_alive "$PID_FILE"; then
    say "Kafka (pid $(cat "$PID_FILE")) is still starting; waiting"
  else
    fetch_kafka
    write_config
    format_storage
    say "starting Kafka on 127.0.0.1:$KAFKA_PORT (log: $LOG_FILE)"
    (
      cd "$KAFKA_HOME"
      nohup java -Xms256m "-Xmx$HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
        -Dlog4j.configuration="file:$KAFKA_HOME/log4j.properties" \
        -cp "$LIBS/*" kafka.Kafka "$KAFKA_HOME/server.properties" >"$LOG_FILE" 2>&1 </dev/null &
      echo $! >"$PID_FILE"
    )
    mark_started kafka
  fi
  wait_for_kafka
  say "Kafka is ready on 127.0.0.1:$KAFKA_PORT"
}

start_redis() {
  if command -v redis-cli >/dev/null 2>&1 && [[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == "PONG" ]]; then
    say "Redis already answers on 127.0.0.1:$REDIS_PORT; leaving it as it is"
    return 0
  fi
  command -v redis-server >/dev/null 2>&1 ||
    fail "redis-server is required (e.g. 'apt-get install redis-server'), or start Redis yourself on port $REDIS_PORT."
  say "starting Redis on 127.0.0.1:$REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" --appendonly no \
    --pidfile "$STATE/redis.pid" --logfile "$STATE/redis.log" ||
    fail "redis-server did not start; see $STATE/redis.log"
  mark_started redis
  local i
  for i in $(seq 1 50); do
    [[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == "PONG" ]] && { say "Redis is ready"; return 0; }
    sleep 0.1
  done
  fail "Redis did not answer PING on 127.0.0.1:$REDIS_PORT within 5s; see $STATE/redis.log"
}

start_redis
start_kafka
