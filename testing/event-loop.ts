/**
 * How long the event loop was held while some work ran: a timer ticks every `everyMs`, and the longest
 * gap between its ticks is the longest the loop could not answer anything else. One more tick is
 * waited for after the work, so that a loop held until the very end is measured too.
 */
export async function loopGaps<T>(work: () => Promise<T>, everyMs = 2): Promise<{ result: T; ranMs: number; longestGapMs: number }> {
  let longestGapMs = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, everyMs);
  const t0 = performance.now();
  try {
    const result = await work();
    const ranMs = performance.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, everyMs * 5));
    return { result, ranMs, longestGapMs };
  } finally {
    clearInterval(tick);
  }
}
