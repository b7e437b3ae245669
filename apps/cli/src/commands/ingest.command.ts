/**
 * `wayfinder ingest otlp FILE…`: OpenTelemetry traces of agents (GenAI conventions, OpenInference, the
 * Vercel AI SDK), exported as OTLP JSON or protobuf, mapped to StepEvents offline by the same mapping and
 * normalizer as the OTLP receiver, flushed at the end, printed as JSON lines (pipe into `wayfinder replay`).
 * A malformed file, line or span is reported on stderr as FILE:LINE with the reason and skipped.
 */
import { promises as fs } from 'node:fs';
import { OtlpNormalizer, readTraceRequest } from '@wayfinder/ingest';
import type { Command, CommandIo } from '../command';
import { UsageError } from '../command';
import { parseCommandArgs } from '../args';
import { InvalidLineReporter } from './invalid-line-reporter';
import { LineWriter } from './jsonl-writer';
import { readOtlpFile } from './otlp-files';
import { ingestHelp } from './ingest.help';

export const ingestCommand: Command = {
  ...ingestHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, { tenant: { type: 'string' } });
    const [source, ...files] = positionals;
    if (!source) throw new UsageError("a source is required: 'wayfinder ingest otlp FILE…'");
    if (source !== 'otlp') throw new UsageError(`unknown source '${source}' (only 'otlp')`);
    if (files.length === 0) throw new UsageError('otlp needs at least one FILE');
    const tenantId = values.tenant ?? 'local';
    if (tenantId.length === 0 || tenantId.length > 128) throw new UsageError('--tenant must be 1 to 128 characters');
    for (const file of files) {
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat) throw new UsageError(`no such file: ${file}`);
      if (stat.isDirectory()) throw new UsageError(`${file} is a folder; give the trace files`);
    }
    const out = new LineWriter(io.stdout);
    const invalid = new InvalidLineReporter(io.stderr, 'wayfinder ingest');
    // Offline, time does not pass: traces flush at the end (or past the memory bounds), not on idleness.
    const normalizer = new OtlpNormalizer({ now: () => 0 });
    let steps = 0;
    const write = async (batch: unknown[]) => {
      for (const step of batch) {
        steps++;
        const pending = out.json(step);
        if (pending) await pending;
      }
    };
    try {
      for (const file of files) {
        let items;
        try {
          items = await readOtlpFile(file);
        } catch (error) {
          invalid.report(file, 1, `cannot read: ${(error as Error).message}`);
          continue;
        }
        for (const item of items) {
          if ('error' in item) {
            invalid.report(file, item.line, item.error);
            continue;
          }
          const read = readTraceRequest(item.request);
          if (!read.ok) {
            invalid.report(file, item.line, `${read.field ? `${read.field}: ` : ''}${read.error}`);
            continue;
          }
          for (const r of read.rejected) invalid.report(file, item.line, `span rejected, ${r.field}: ${r.reason}`);
          await write(normalizer.ingest(tenantId, read.spans));
        }
        invalid.endFile(file);
      }
      await write(normalizer.flushAll());
      await out.flush();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
      throw error;
    }
    if (invalid.total > 0) io.stderr.write(`wayfinder ingest: skipped ${invalid.total} malformed request(s) or span(s); wrote ${steps} step(s) from ${files.length} file(s)\n`);
    return 0;
  },
};
