/**
 * Waits for every promise, then rejects with the first failure (in the given order). For publishes and
 * readers that run at once: a batch retried after a failure must never overlap one still running.
 */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
