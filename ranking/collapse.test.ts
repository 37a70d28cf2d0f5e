import { describe, expect, it } from 'vitest';
import { collapseStories, type Candidate } from './candidates';
import { limitPerArticle } from './select';
import type { SnippetText } from './snippets';

const S = [
  'The lighthouse keeper cottage on Gull Point has been restored by volunteers after ten years.',
  'The volunteers replaced the slate roof and rebuilt the chimney with stone from the quarry.',
  'The cottage will open to visitors in the spring as a small museum of the lighthouse service.',
  'The trust that owns the lighthouse said the restoration cost about ninety thousand pounds.',
  'Local schools will use the cottage for lessons on the history of the coast.',
];

let id = 1;
function cand(articleId: number, text: string, final: number): [Candidate, SnippetText] {
  const snippetId = id++;
  const c = { snippetId, articleId, final, duplicates: [] } as unknown as Candidate;
  return [c, { id: snippetId, title: '', text }];
}

describe('collapseStories', () => {
  // Two copies of one five-sentence text; each copy's best passage is another window of it.
  const pairs = [
    cand(1, S.slice(3).join(' '), 0.9), // copy A, its tail window
    cand(2, S.join(' '), 0.8), // copy B, the whole text
    cand(1, S.join(' '), 0.7), // copy A, the whole text
    cand(2, S.slice(3).join(' '), 0.6), // copy B, its tail
    cand(3, 'An unrelated report about harbour bridge repairs and the council budget for the coming year.', 0.5),
  ];
  const all = pairs.map(([c]) => c);
  const texts = new Map(pairs.map(([c, t]) => [c.snippetId, t]));

  it('joins two copies whose shown passages differ, through their other matching passages', () => {
    const shown = limitPerArticle(all, 1);
    expect(shown.map((c) => c.articleId)).toEqual([1, 2, 3]);
    const stories = collapseStories(shown, texts, all);
    expect(stories.map((c) => c.articleId)).toEqual([1, 3]);
    expect(stories[0]!.duplicates.map((c) => c.articleId)).toEqual([2]);
  });

  it('without the other passages the shown ones alone look like two stories', () => {
    const shown = limitPerArticle(all, 1).map((c) => ({ ...c, duplicates: [] }));
    expect(collapseStories(shown, texts).map((c) => c.articleId)).toEqual([1, 2, 3]);
  });

  it('keeps two different passages of one article that are both shown', () => {
    const [a, b] = [cand(7, S.slice(0, 2).join(' '), 0.9), cand(7, S.slice(3).join(' '), 0.8)];
    const t = new Map([a, b].map(([c, x]) => [c.snippetId, x]));
    expect(collapseStories([a[0], b[0]], t).map((c) => c.snippetId)).toEqual([a[0].snippetId, b[0].snippetId]);
  });

  it('collapses two shown passages of one article that are near-duplicates of each other', () => {
    const [a, b] = [cand(8, S.join(' '), 0.9), cand(8, S.slice(0, 4).join(' '), 0.8)];
    const t = new Map([a, b].map(([c, x]) => [c.snippetId, x]));
    const stories = collapseStories([a[0], b[0]], t);
    expect(stories.map((c) => c.snippetId)).toEqual([a[0].snippetId]);
    expect(stories[0]!.duplicates.map((c) => c.snippetId)).toEqual([b[0].snippetId]);
  });
});
