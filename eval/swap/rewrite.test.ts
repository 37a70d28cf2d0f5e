import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../../lib/random';
import {
  addNegation,
  changeAmount,
  contradictRewrite,
  coreStatement,
  dropTrailingClause,
  removeNegation,
  reverseDirection,
  supportRewrite,
  swapName,
  swapRoles,
} from './rewrite';
import { quantities, sameAmount } from '../../ranking/verdict/details/quantities';

const S = 'Profits at the firm rose 12% to $52m in the three months to September, the company said on Tuesday.';

describe('support rewrites keep the meaning', () => {
  it('drops who said it, quotes and parentheses', () => {
    expect(coreStatement('"Sales rose 5% (a record)," the chief executive said.')).toBe('Sales rose 5%');
    expect(coreStatement('According to the ONS, the economy grew by 0.4%.')).toBe('the economy grew by 0.4%');
    expect(coreStatement(S)).toBe('Profits at the firm rose 12% to $52m in the three months to September');
  });
  it('cuts a trailing clause only when a claim is left', () => {
    expect(dropTrailingClause('The bank raised rates to 4.75%, which surprised analysts')).toBe('The bank raised rates to 4.75%');
    expect(dropTrailingClause('Rates rose, which surprised')).toBeNull();
  });
  it('is deterministic for a seed and never repeats the sentence word for word', () => {
    const a = supportRewrite(S, rng(1));
    expect(a).toEqual(supportRewrite(S, rng(1)));
    expect(a!.text).not.toBe(S);
    // Every amount of the rewrite is an amount the sentence states.
    for (let seed = 0; seed < 40; seed++) {
      const r = supportRewrite(S, rng(seed));
      if (!r) continue;
      for (const q of quantities(r.text))
        expect(
          quantities(S).some((e) => sameAmount(q, e)),
          `${r.text} (${r.rule})`,
        ).toBe(true);
    }
  });
});

describe('contradict rewrites change one fact', () => {
  it('reverses a direction, keeping case and punctuation', () => {
    expect(reverseDirection('Profits rose sharply.', rng(1))).toBe('Profits fell sharply.');
    expect(reverseDirection('The gap widened,', rng(1))).toBe('The gap narrowed,');
  });
  it('adds and removes negations', () => {
    expect(addNegation('The bank has raised rates')).toBe('The bank has not raised rates');
    expect(addNegation('Chelsea won the cup')).toBe('Chelsea did not win the cup');
    expect(removeNegation('Chelsea did not win the cup')).toBe('Chelsea won the cup');
    expect(removeNegation('The plan is not working')).toBe('The plan is working');
  });
  it('changes an amount to a different one of the same kind', () => {
    const q = quantities('up 12% to $52m')[1]!;
    for (let seed = 0; seed < 20; seed++) {
      const changed = quantities(changeAmount(q, rng(seed)))[0]!;
      expect(changed.kind).toBe('money');
      expect(sameAmount(changed, q)).toBe(false);
    }
  });
  it('swaps names and roles', () => {
    expect(swapName('The title went to Dementieva in Moscow', ['Myskina', 'Moscow'], rng(2))).toMatch(/Myskina/);
    expect(swapRoles('Chelsea beat Arsenal 2-1 on Sunday')).toBe('Arsenal beat Chelsea 2-1 on Sunday');
  });
  it('produces a claim that differs from the sentence', () => {
    for (let seed = 0; seed < 20; seed++) {
      const r = contradictRewrite(S, ['Tesco'], rng(seed));
      expect(r).not.toBeNull();
      expect(coreStatement(r!.text)).not.toBe(coreStatement(S));
    }
  });
});

describe('roles', () => {
  it('swaps buyer and seller, and the ends of a change', () => {
    expect(swapRoles('Carlton bought a 20 pct stake in Central from Ladbroke on Monday')).toBe(
      'Ladbroke bought a 20 pct stake in Central from Carlton on Monday',
    );
    expect(swapRoles('Jobs gains were revised down from 157,000 to 133,000')).toBe('Jobs gains were revised down from 133,000 to 157,000');
  });
});
