import { describe, expect, it, vi } from 'vitest';
import { createError, describeError, fromWire, isQuinError, QuinError, toWire } from './errors';
import { errorBody, errorResponse } from './web/http';

/**
 * A second copy of lib/errors (and of the gate that makes busy refusals), as Next.js compiles one
 * into each of its bundles: the proxy's, the pages' and the route handlers'.
 */
async function otherCopy() {
  vi.resetModules();
  const errors = await import('./errors');
  const shed = await import('./web/load-shed');
  vi.resetModules();
  return { errors, shed };
}

describe('errors are recognised by their mark and code, not by class identity', () => {
  it('an error made by another copy of the module is a QuinError here, with its code and status', async () => {
    const { errors } = await otherCopy();
    expect(errors.QuinError).not.toBe(QuinError);
    const e = errors.createError('OVERLOADED', 'the service is busy', { retryAfterSeconds: 3 });
    expect(isQuinError(e)).toBe(true);
    expect(isQuinError(e, 'OVERLOADED')).toBe(true);
    expect(isQuinError(e, 'INTERNAL')).toBe(false);
    expect(e instanceof QuinError).toBe(true);
    expect(describeError(e)).toBe('OVERLOADED: the service is busy');
    // And the other way round.
    expect(errors.isQuinError(createError('RATE_LIMITED'), 'RATE_LIMITED')).toBe(true);
  });

  it('a busy refusal from another copy of the gate answers 503 with its code (it answered 500 INTERNAL)', async () => {
    const { shed } = await otherCopy();
    const gate = new shed.Gate(1, 0, 1000);
    let release = () => {};
    const running = gate.run(() => new Promise<void>((r) => (release = r)));
    const refused = await gate.run(async () => 'ran').catch((e: unknown) => e);
    release();
    await running;
    expect(errorBody(refused)).toMatchObject({ status: 503, body: { error: { code: 'OVERLOADED' } } });
    const res = errorResponse(refused);
    expect(res.status).toBe(503);
  });

  it('look-alikes are not QuinErrors: a plain object or Error with a code, an unknown code', () => {
    expect(isQuinError({ code: 'OVERLOADED', message: 'x' })).toBe(false);
    expect(isQuinError(Object.assign(new Error('x'), { code: 'OVERLOADED' }))).toBe(false);
    const forged = createError('INTERNAL');
    (forged as unknown as { code: string }).code = 'NO_SUCH_CODE';
    expect(isQuinError(forged)).toBe(false);
    expect(isQuinError(null)).toBe(false);
    expect(isQuinError('OVERLOADED')).toBe(false);
  });

  it('crosses a process as plain data and keeps its code, message and details', () => {
    const wire = JSON.parse(JSON.stringify(toWire(createError('CONFLICT', 'the dense index changed', { version: 3 }))));
    const back = fromWire(wire);
    expect(isQuinError(back, 'CONFLICT')).toBe(true);
    expect(back.message).toBe('the dense index changed');
    expect((back as QuinError).details).toEqual({ version: 3 });
    const plain = fromWire(toWire(new TypeError('boom')));
    expect(isQuinError(plain)).toBe(false);
    expect(plain.message).toBe('boom');
    // A code this version does not know arrives as a plain error, not as a QuinError with a bad code.
    expect(isQuinError(fromWire({ code: 'NOPE' as never, message: 'm' }))).toBe(false);
  });
});
