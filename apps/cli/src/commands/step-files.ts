/**
 * Expands the PATH arguments of `replay` and `eval` into the list of StepEvent JSONL files to read:
 * a file is taken as given, a folder contributes every `*.jsonl` below it, recursively, in sorted order.
 * Only paths are held in memory, so a folder of thousands of traces costs a few hundred KB here.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../command';

export async function listStepFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    let stat;
    try {
      stat = await fs.stat(p);
    } catch {
      throw new UsageError(`no such file or folder: ${p}`);
    }
    if (stat.isDirectory()) {
      const found: string[] = [];
      await collectJsonl(p, found);
      found.sort(byCodePoint);
      files.push(...found);
    } else {
      files.push(p);
    }
  }
  return files;
}

async function collectJsonl(dir: string, out: string[]): Promise<void> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await collectJsonl(full, out);
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) out.push(full);
  }
}

/** Locale-independent, so the same folder replays in the same order on every machine. */
function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
