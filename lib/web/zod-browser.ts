/**
 * zod in the browser without eval: zod 4 probes `Function("")` once to decide whether it may compile
 * its object parsers, and under the app's Content-Security-Policy (no 'unsafe-eval') that probe is a
 * reported violation on every page that parses a search URL. The jitless mode skips the probe (and
 * the compiled parsers, which these small schemas do not need). The server keeps the default.
 * Import this module before any schema runs in client code.
 */
import { config } from 'zod';

if (typeof window !== 'undefined') config({ jitless: true });
