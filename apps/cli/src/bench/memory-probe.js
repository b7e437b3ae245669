// Preloaded into a benchmark's child process (`node --expose-gc --require …/memory-probe.js`): on SIGUSR2 it
// collects garbage fully and writes `memory-probe {…process.memoryUsage()}` as one line to stderr, so the
// benchmark reads what the process retains rather than what the collector has not yet returned. With
// WAYFINDER_PROBE_SNAPSHOT_DIR set it also writes a heap snapshot there (to see what the memory is).
'use strict';
process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') {
    global.gc();
    global.gc();
  }
  const dir = process.env.WAYFINDER_PROBE_SNAPSHOT_DIR;
  if (dir) require('node:v8').writeHeapSnapshot(require('node:path').join(dir, `probe-${process.pid}-${Date.now()}.heapsnapshot`));
  process.stderr.write(`memory-probe ${JSON.stringify(process.memoryUsage())}\n`);
});
