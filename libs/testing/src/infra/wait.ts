/** Polls a condition until it holds, or fails the test naming what it waited for. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'the condition', pollMs = 20): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
