/**
 * Runs once when the web server starts (Next.js instrumentation hook): opens the search indexes and
 * loads the models in the background, so that they load once per server process and the first
 * search does not pay for it. /api/health reports "loading" until they are ready.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // The event loop's delay is measured from the start (/api/health, /metrics).
  (await import('./lib/event-loop')).watchEventLoop();
  // Refusals that need no search are answered by the web server before Next.js (lib/web/admission.ts).
  (await import('./lib/web/admission')).registerAdmission();
  const { warmUp } = await import('./app/_lib/warm-up');
  warmUp();
}
