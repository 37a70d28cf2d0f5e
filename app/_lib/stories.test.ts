import { describe, expect, it } from 'vitest';
import { discoveredFeeds } from './feed-admin';
import { coverageBySource } from './stories';

describe('coverage by source', () => {
  it('counts articles per week and source, the top sources by name and the rest as Other, empty weeks kept', () => {
    const at = (s: string, d: string) => ({ source: s, publishedAt: new Date(d) });
    const c = coverageBySource([
      at('A', '2024-06-03'),
      at('A', '2024-06-04'),
      at('B', '2024-06-05'),
      at('A', '2024-06-19'),
      { source: 'C', publishedAt: null },
    ]);
    expect(c).toEqual({
      unit: 'week',
      sources: ['A', 'B'],
      points: [
        { date: '2024-06-03', counts: [2, 1, 0] },
        { date: '2024-06-10', counts: [0, 0, 0] },
        { date: '2024-06-17', counts: [1, 0, 0] },
      ],
    });
    const many = coverageBySource(['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((s) => at(s, '2024-06-03')));
    expect(many.sources).toHaveLength(5);
    expect(many.points[0]!.counts).toEqual([1, 1, 1, 1, 1, 2]);
    expect(coverageBySource([at('A', '1987-02-26'), at('A', '2024-05-30')]).unit).toBe('month');
  });
});

describe('feeds an HTML page links to', () => {
  it('absolute http(s) URLs, entities decoded, duplicates and other schemes dropped', () => {
    expect(
      discoveredFeeds('https://news.example/world/', [
        '/rss.xml',
        'atom.xml?a=1&amp;b=2',
        'https://news.example/rss.xml',
        'javascript:alert(1)',
        42,
      ]),
    ).toEqual(['https://news.example/rss.xml', 'https://news.example/world/atom.xml?a=1&b=2']);
    expect(discoveredFeeds('https://news.example/', undefined)).toEqual([]);
  });
});
