/**
 * Work on a list a few items at a time, results handed out in the list's order as soon as each one
 * and those before it are done: a reader sees the first claim's verdict first, while the next claims
 * are already being checked. A cancelled signal stops the items not yet started.
 */
import { createError } from '../lib/errors';

export async function* inOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
  signal?: AbortSignal,
): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let next = 0;
  const start = () => {
    if (signal?.aborted) throw createError('CANCELLED', 'the check was cancelled');
    const p = fn(items[next++]!);
    // Settled out of order, awaited in order: a rejection is not unhandled meanwhile.
    p.catch(() => undefined);
    pending.push(p);
  };
  while (next < items.length && pending.length < Math.max(1, concurrency)) start();
  while (pending.length) {
    const result = await pending.shift()!;
    if (next < items.length) start();
    yield result;
  }
}
