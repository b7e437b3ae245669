/**
 * Latency probe of `bench pipeline --decompose` (issue #17): preloaded (`--require`) into the pipeline
 * process, and required by the bench itself, when WAYFINDER_LATENCY_PROBE names a file. It wraps kafkajs'
 * Client so that every consumer and producer the process makes reports, as JSON lines appended to that
 * file: each fetch (when it returned, how long it took, how many partition batches), each `eachBatch`
 * (group, topic, partition, records, the first and last record's Kafka timestamp — the producer's
 * request time — and when the handler started and ended), each commit, and each produce request
 * (messages per topic, start, end). For the corrections topic it also records each record's payload
 * `ts` (when the correction engine decided), and every 500 ms the event loop's utilization. Nothing in the product reads it; without the variable (or
 * a call of install()) it does nothing.
 */
'use strict';
const fs = require('node:fs');

/** Wraps kafkajs' Client once per process; its lines go to `file`, each labelled `who`. */
function install(file, who) {
  if (global.__wayfinderLatencyProbe) return;
  global.__wayfinderLatencyProbe = true;
  const Client = require('kafkajs').Kafka;
  const lines = [];
  const write = (record) => lines.push(JSON.stringify({ p: who, ...record }));
  const flush = () => {
    if (lines.length === 0) return;
    fs.appendFileSync(file, lines.join('\n') + '\n');
    lines.length = 0;
  };
  // Event-loop utilization every 500 ms: near 1, the process is CPU-bound (work queues behind work); low,
  // its batches wait on round trips.
  const { performance, monitorEventLoopDelay } = require('node:perf_hooks');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let elu = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    write({ k: 'elu', at: Date.now(), u: performance.eventLoopUtilization(now, elu).utilization, delayP99: delay.percentile(99) / 1e6 });
    elu = now;
    delay.reset();
    flush();
  }, 500).unref();
  process.on('exit', flush);

  const consumer = Client.prototype.consumer;
  Client.prototype.consumer = function probedConsumer(config) {
    const c = consumer.call(this, config);
    const group = config.groupId;
    c.on(c.events.FETCH, (e) => write({ k: 'fetch', g: group, at: e.timestamp, ms: e.payload.duration, batches: e.payload.numberOfBatches }));
    c.on(c.events.COMMIT_OFFSETS, (e) => write({ k: 'commit', g: group, at: e.timestamp }));
    const run = c.run.bind(c);
    c.run = (options) => {
      if (!options || !options.eachBatch) return run(options);
      const eachBatch = options.eachBatch;
      return run({
        ...options,
        eachBatch: async (payload) => {
          const start = Date.now();
          const { topic, partition, messages } = payload.batch;
          try {
            await eachBatch(payload);
          } finally {
            const end = Date.now();
            if (messages.length > 0) {
              write({ k: 'batch', g: group, topic, partition, n: messages.length, firstTs: Number(messages[0].timestamp), lastTs: Number(messages[messages.length - 1].timestamp), start, end });
              if (topic.endsWith('wayfinder.corrections.v1')) {
                for (const m of messages) {
                  let ts = null;
                  try {
                    ts = Date.parse(JSON.parse(m.value.toString('utf8')).ts);
                  } catch {
                    ts = null;
                  }
                  write({ k: 'correction', g: group, recTs: Number(m.timestamp), ts, arrived: start });
                }
              }
            }
          }
        },
      });
    };
    return c;
  };

  const producer = Client.prototype.producer;
  Client.prototype.producer = function probedProducer(config) {
    const p = producer.call(this, config);
    const sendBatch = p.sendBatch.bind(p);
    p.sendBatch = async (request) => {
      const start = Date.now();
      const counts = {};
      for (const { topic, messages } of request.topicMessages) counts[topic.slice(topic.lastIndexOf('wayfinder.'))] = messages.length;
      try {
        return await sendBatch(request);
      } finally {
        write({ k: 'send', start, end: Date.now(), counts });
      }
    };
    return p;
  };
}

if (process.env.WAYFINDER_LATENCY_PROBE) install(process.env.WAYFINDER_LATENCY_PROBE, process.env.WAYFINDER_LATENCY_PROBE_LABEL || String(process.pid));

module.exports = { install };
