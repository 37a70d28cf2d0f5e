import { describe, expect, it } from 'vitest';
import { EXAMPLE_POOL, pickExamples } from './examples';

describe('home page examples', () => {
  it('offers two claims and one question, only among those the archive answers, in the pool order', () => {
    const answered = new Set([
      'Justin Gatlin won the Olympic 100m final',
      'OPEC agreed to cut oil production',
      'Trump imposed tariffs on steel imports',
      'How did the housing market change?',
    ]);
    expect(pickExamples(EXAMPLE_POOL, (e) => answered.has(e.q)).map((e) => e.q)).toEqual([
      'Justin Gatlin won the Olympic 100m final',
      'Trump imposed tariffs on steel imports',
      'How did the housing market change?',
    ]);
    expect(pickExamples(EXAMPLE_POOL, () => false)).toEqual([]);
  });
});
