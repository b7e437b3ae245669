/** `wayfinder start`: name, summary and usage, loaded for `--help` without the command's implementation. */
import type { CommandHelp } from '../command';

export const startHelp: CommandHelp = {
  name: 'start',
  summary: 'run the services (embedded by default, or distributed on Kafka + Redis)',
  usage: `usage: wayfinder start [--mode embedded|distributed] [--services a,b,…] [--port N] [--host ADDR] [--tls-cert FILE --tls-key FILE] [--kafka BROKERS] [--redis URL] [--qdrant URL] [--health-port N]

Runs Wayfinder services until SIGINT/SIGTERM.
  --mode      embedded (default): every service in this process on the in-process bus and in-memory stores;
              distributed: the chosen services on Kafka and Redis, one consumer group per process
  --services  comma-separated subset of task-parser,navigator,memory-service,gateway,otlp-normalizer,history-recorder,
              escalation-notifier (default all of them; embedded, the gateway brings the otlp-normalizer with it);
              navigator is the one-pass pipeline (WAYFINDER_PIPELINE=one-pass, the default); with separate
              it is state-localizer,detector-worker,correction-engine, which may also be named one by one
  --kafka     Kafka bootstrap brokers, host:port[,host:port] (env WAYFINDER_KAFKA_BROKERS, default 127.0.0.1:9092)
  --redis     Redis URL (env WAYFINDER_REDIS_URL, default redis://127.0.0.1:6379)
  --qdrant    Qdrant URL for long-term memory (env WAYFINDER_QDRANT_URL)
  --port      the gateway's port, the agents' HTTP door (env WAYFINDER_GATEWAY_PORT, default 7070; 0 = any free port)
  --host      the address the gateway binds (env WAYFINDER_GATEWAY_HOST, default 127.0.0.1). With no API keys
              configured and a loopback address, embedded mode needs no key (tenant "local"); any other
              address, or any key configured (wayfinder keys, WAYFINDER_API_KEYS), requires a key on every request
  --tls-cert, --tls-key  PEM certificate (chain) and private key files: the gateway serves HTTPS and its
              dashboard session cookie is Secure (env WAYFINDER_GATEWAY_TLS_CERT, WAYFINDER_GATEWAY_TLS_KEY; both or neither)
  --health-port  /health/live and /health/ready (env WAYFINDER_HTTP_PORT; 0 = any free port; served in
              distributed mode, and in embedded mode when set)
  --simulate N  embedded, with N simulated agents feeding it; the gateway (with the dashboard at /) on
              127.0.0.1:PORT (--port or WAYFINDER_GATEWAY_PORT, default 7070)
  --fleet     like --simulate, with agents that keep arriving (one every 3 s, at most 12 at work) until
              stopped; prints the dashboard's address and a curl line to connect an agent (what npm start runs)
Telemetry: OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set (OpenTelemetry's standard variables).
Create the topics first on a new cluster: wayfinder topics create --kafka BROKERS`,
};
