/** `wayfinder bench`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const benchHelp: CommandHelp = {
  name: 'bench',
  summary: 'benchmark the detectors, the Kafka floor and pipeline, the gateway, the LLM proxy (bench detectors|floor|pipeline|gateway|proxy)',
  usage: `usage: wayfinder bench detectors [--agents N] [--events N] [--state-agents N]
       wayfinder bench floor [--kafka BROKERS] [--agents N] [--messages N] [--partitions N] [--client kafkajs|platformatic|both] [--rounds N]
       wayfinder bench pipeline [--kafka BROKERS] [--agents N] [--rate N] [--duration SECONDS] [--looping-share R] [--partitions N] [--telemetry] [--pipeline one-pass|separate] [--separate] [--messages N] [--backlog N] [--decompose]
       wayfinder bench gateway [--kafka BROKERS] [--events N] [--agents N] [--concurrency N]
       wayfinder bench gateway --streams N [--kafka BROKERS] [--requests N]
       wayfinder bench proxy [--kafka BROKERS] [--requests N] [--agents N] [--turns N]

detectors: the detectors in process: events per second with only the tool-loop detectors and with all
of them as the detector worker runs them (drift included, each task on a map; the same without drift
beside it), and the bytes of detector state per agent on the worker's engine (and without drift).
  --agents N         simulated agents the events are spread over (default 1000)
  --events N         events to run per measurement (default 200000)
  --state-agents N   agents whose state is measured for bytes per agent (default 100000)

floor: a bare kafkajs pass-through on the pipeline's topic layout, in a process of its own: it reads
the steps in batches, parses each and produces each to a second topic (one hop, idempotent producer):
messages/s and CPU µs per message, the baseline of the pipeline's CPU per step.
  --agents N         agents the steps are spread over (default 1000)
  --messages N       steps through the floor (default 100000)
  --partitions N     partitions of the per-agent topics (default 12)
  --client C         the pass-through's Kafka client: kafkajs (default), platformatic (@platformatic/kafka,
                     the same work), or both: kafkajs then platformatic on the same steps, --rounds
                     times, with platformatic's CPU per message over kafkajs' pair by pair
  --rounds N         rounds of --client both (default 3)

pipeline: the distributed services on Kafka, fed by a synthetic fleet: sustained throughput,
step → correction latency and consumer lag. The floor runs first (--messages steps), and the
pipeline's CPU per step is also given as a ratio to the floor's CPU per message of the same run.
  --kafka BROKERS    bootstrap brokers (env WAYFINDER_KAFKA_BROKERS, default 127.0.0.1:9092)
  --agents N         simulated agents (default 1000)
  --rate N           step events per second, 0 = as fast as accepted (default 0)
  --duration S       seconds of load (default 30)
  --looping-share R  share of agents stuck in a loop, 0..1 (default 0.1)
  --partitions N     partitions of the per-agent topics (default 12)
  --telemetry        traces and metrics on in the pipeline, exported over OTLP to a local sink
                     (off: OTEL_SDK_DISABLED); compare pipelineCpuMicrosPerStep with and without
  --pipeline NAME    one-pass (default: the navigator service) or separate (WAYFINDER_PIPELINE)
  --separate         each stage its own consumer over Kafka (localized steps and deviations as the
                     transport between stages) instead of the one-pass navigator
  --messages N       steps through the floor before the pipeline (default 100000; 0 skips it)
  --backlog N        then also N steps published before a fresh pipeline starts, drained at full
                     speed like the floor: steps/s and CPU per step whatever the load generator manages
  --decompose        where step → correction latency goes: kafkajs in the bench and the pipeline
                     process probed (latency-probe.js), stages in the result's "decomposition"

gateway: the gateway over HTTP with every service behind it (embedded; on Kafka and Redis with --kafka):
ingest events/s in batches of 100 against the same events published on the bus (baseline), and step →
correction latency over SSE for looping agents, with what the gateway adds after the corrections topic.
  --events N         events to ingest per measurement (default 20000)
  --agents N         looping agents for the latency (default 20)
  --concurrency N    requests in flight (default 4)
With --streams, fairness instead: tenant noisy opens N correction streams (SSE) at once while tenant quiet
posts a 10-step batch and reads an agent's timeline, one request at a time, before and while they are open
(p50, p99); the streams past the per-tenant cap (WAYFINDER_MAX_STREAMS_PER_TENANT) answer 429.
  --streams N        streams the noisy tenant opens (e.g. 1000)
  --requests N       quiet tenant's requests timed before and during (default 300)

proxy: the LLM proxy (POST /v1/chat/completions) against a local upstream: the latency it adds per
request (p50, p99), each proxied request paired with the same request sent straight to the upstream
(the baseline), non-streamed and streamed; agents' conversations grow a tool call per request.
  --requests N       request pairs per measurement (default 2000)
  --agents N         agents the conversations belong to (default 20)
  --turns N          turns a conversation grows to before a new one starts (default 20)

Each prints one JSON object, with the node version and the CPU. Benchmarks that are not product
commands (worker memory, failover, embedders, ...) are scripts in tools/bench (BENCHMARKS.md).`,
};
