/**
 * Lets timers and signal handlers run between indexing steps: with a warm cache and SQLite every await
 * in a step can resolve as a microtask, and Ctrl-C (or the worker's shutdown, or its heartbeat) would
 * wait for the whole run.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
