import { describe, expect, it } from 'vitest';
import { applyFloor, collapseStories, prepareTexts, type Candidate, type PassageText } from './candidates';
import type { SearchContext } from './context';
import { analyzeQuery } from './query';

const SENTENCES = [
  'The lighthouse keeper cottage on Gull Point has been restored by volunteers.',
  'Volunteers replaced the slate roof and rebuilt the chimney with quarry stone.',
  'The harbour bridge repairs will cost the council more than planned this year.',
  'Fishing boats returned early as the storm reached the northern coast overnight.',
];

const ctx = { options: { relevanceFloor: false, oneStoryOnce: true } } as unknown as SearchContext;
const query = analyzeQuery('Volunteers restored the lighthouse cottage on Gull Point', { maxChars: 1000 });

/** 200 passages: each a rotation of the sentences (many near-duplicates among them) with its own number. */
function passages(): { cands: Candidate[]; texts: Map<number, PassageText> } {
  const cands: Candidate[] = [];
  const texts = new Map<number, PassageText>();
  for (let i = 0; i < 200; i++) {
    const text = [...SENTENCES.slice(i % 4), ...SENTENCES.slice(0, i % 4), `Report ${i % 7}.`].join(' ');
    cands.push({ snippetId: i + 1, articleId: 1 + (i % 50), final: 1 - i / 1000, duplicates: [], coverage: 0 } as unknown as Candidate);
    texts.set(i + 1, { id: i + 1, title: i % 3 ? '' : 'Gull Point', text });
  }
  return { cands, texts };
}

const outcome = (cands: Candidate[], texts: Map<number, PassageText>) => {
  const { matches } = applyFloor(cands, texts, query, true, ctx);
  const stories = collapseStories(matches, texts);
  return { coverage: matches.map((c) => c.coverage), stories: stories.map((c) => [c.snippetId, c.duplicates.map((d) => d.snippetId)]) };
};

describe('prepareTexts (the floor and the de-duplication read ahead, while the dense search runs)', () => {
  it('gives the floor and the de-duplication exactly what they compute themselves', async () => {
    const cold = passages();
    const warm = passages();
    await prepareTexts(warm.texts, query, ctx, () => false);
    expect([...warm.texts.values()].every((t) => t.coverage !== undefined && t.shingled !== undefined)).toBe(true);
    const expected = outcome(cold.cands, cold.texts);
    expect(expected.stories.length).toBeLessThan(50); // near-duplicates were collapsed: the check is not vacuous
    expect(outcome(warm.cands, warm.texts)).toEqual(expected);
  });

  it('stops at the next slice once told to, leaving the rest to the stages', async () => {
    const { cands, texts } = passages();
    const cold = passages();
    let looks = 0;
    await prepareTexts(texts, query, ctx, () => looks++ > 0);
    const prepared = [...texts.values()].filter((t) => t.coverage !== undefined).length;
    expect(prepared).toBeGreaterThan(0);
    expect(prepared).toBeLessThan(texts.size);
    expect(outcome(cands, texts)).toEqual(outcome(cold.cands, cold.texts));
  });

  it('reads nothing ahead when neither stage reads texts', async () => {
    const { texts } = passages();
    await prepareTexts(texts, query, { options: { relevanceFloor: false, oneStoryOnce: false } } as unknown as SearchContext, () => false);
    expect([...texts.values()].some((t) => t.coverage !== undefined || t.shingled !== undefined)).toBe(false);
  });
});
