/**
 * Where the browser tests write their screenshots: a fresh temporary folder, so a test run never
 * changes the repository; with WAYFINDER_UPDATE_SCREENSHOTS=1, docs/ (the README's pictures).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DOCS = join(__dirname, '..', '..', '..', '..', 'docs');
let folder: string | undefined;

export function screenshotPath(file: string): string {
  if (process.env['WAYFINDER_UPDATE_SCREENSHOTS'] === '1') return join(DOCS, file);
  folder ??= mkdtempSync(join(tmpdir(), 'wf-screenshots-'));
  return join(folder, file);
}
