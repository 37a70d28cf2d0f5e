import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit';

describe('token-bucket rate limiter', () => {
  it('allows `limit` requests per window per client, then says when to retry', () => {
    let now = 0;
    const rl = new RateLimiter(3, 60_000, () => now);
    expect([1, 2, 3].map(() => rl.take('a').allowed)).toEqual([true, true, true]);
    const refused = rl.take('a');
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 20 });
    expect(rl.take('b').allowed).toBe(true); // other clients are not affected
    now = 20_000;
    expect(rl.take('a').allowed).toBe(true);
    expect(rl.take('a').allowed).toBe(false);
  });

  it('refills to the limit, not beyond, and forgets on reset', () => {
    let now = 0;
    const rl = new RateLimiter(2, 1000, () => now);
    rl.take('a');
    now = 1e9;
    expect(rl.take('a').remaining).toBe(1);
    rl.take('a');
    expect(rl.take('a').allowed).toBe(false);
    rl.reset('a');
    expect(rl.take('a').allowed).toBe(true);
  });

  it('keeps memory bounded by evicting the least recently seen clients', () => {
    const rl = new RateLimiter(1, 60_000, () => 0, 2);
    rl.take('a');
    rl.take('b');
    rl.take('c');
    expect(rl.take('a').allowed).toBe(true); // evicted, so it starts full again
  });
});
