import { describe, expect, it } from 'vitest';
import { clusterStories, groupStories, storyTimeline, type StoryInput } from './stories';

let nextId = 1;
const art = (title: string, text: string, source: string, date: string | null, score = 1): StoryInput => ({
  articleId: nextId++,
  title,
  url: `https://news.example/${nextId}`,
  source,
  publishedAt: date ? new Date(date) : null,
  text,
  score,
});

const closure = [
  art(
    'Harbour bridge to close for repairs, council confirms',
    'The harbour bridge will close for repairs next month after engineers found corrosion in the deck.',
    'Metro Herald',
    '2019-03-01T09:00:00Z',
    0.9,
  ),
  art(
    'Corrosion forces harbour bridge closure',
    'Engineers found corrosion in the harbour bridge deck; the bridge closes for six weeks of repairs.',
    'Coastal Gazette',
    '2019-03-02T10:00:00Z',
    0.8,
  ),
  art(
    'Drivers face diversions as harbour bridge shuts for repairs',
    'Drivers will be diverted along the coast road while the harbour bridge is closed for repairs to its corroded deck.',
    'City Radio',
    '2019-03-04T07:30:00Z',
    0.7,
  ),
];
const reopening = [
  art(
    'Harbour bridge reopens after repairs',
    'The harbour bridge reopened to traffic on Monday after repairs to the corroded deck were finished.',
    'Metro Herald',
    '2021-06-07T08:00:00Z',
    0.6,
  ),
  art(
    'Harbour bridge back open to drivers',
    'Drivers can use the harbour bridge again: repairs to its deck are complete and the bridge reopened.',
    'City Radio',
    '2021-06-08T12:00:00Z',
    0.5,
  ),
];
const ferry = [
  art(
    'Island ferry adds winter sailings',
    'The island ferry operator will add two winter sailings a day after complaints about cancelled crossings.',
    'Coastal Gazette',
    '2019-03-03T09:00:00Z',
    0.4,
  ),
];

describe('stories', () => {
  const stories = groupStories([...closure, ...reopening, ...ferry]);

  it('groups articles about the same event, keeps the same words at another time apart, and other events apart', () => {
    const sets = stories.map((s) => s.articles.map((a) => a.title).sort());
    expect(sets).toEqual([closure.map((a) => a.title).sort(), reopening.map((a) => a.title).sort(), ferry.map((a) => a.title)]);
  });

  it('says who reported first and last, which sources carried it, and when (a daily timeline with empty days)', () => {
    const s = stories[0]!;
    expect(s.first).toMatchObject({ source: 'Metro Herald', publishedAt: '2019-03-01T09:00:00.000Z' });
    expect(s.latest).toMatchObject({ source: 'City Radio', publishedAt: '2019-03-04T07:30:00.000Z' });
    expect(s.sources).toEqual([
      { name: 'City Radio', articles: 1 },
      { name: 'Coastal Gazette', articles: 1 },
      { name: 'Metro Herald', articles: 1 },
    ]);
    expect(s.timelineUnit).toBe('day');
    expect(s.timeline).toEqual([
      { date: '2019-03-01', articles: 1 },
      { date: '2019-03-02', articles: 1 },
      { date: '2019-03-03', articles: 0 },
      { date: '2019-03-04', articles: 1 },
    ]);
    expect(s.articles.map((a) => a.source)).toEqual(['Metro Herald', 'Coastal Gazette', 'City Radio']);
    expect(s.score).toBe(0.9);
    expect(s.headline).toMatch(/harbour bridge/i);
  });

  it('a story reported for weeks stays one story while the gaps are short; a long silence splits it', () => {
    const week = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 7 * 86_400_000).toISOString();
    const running = [0, 1, 2, 3].map((n) =>
      art(
        `Strike at the port enters week ${n + 1}`,
        'Dock workers at the port continue their strike over pay; ships wait offshore.',
        `Paper ${n}`,
        week(n),
      ),
    );
    expect(clusterStories(running)).toHaveLength(1);
    const later = [
      ...running,
      art(
        'Dock workers at the port strike over pay again',
        'Dock workers at the port strike over pay; ships wait offshore.',
        'Paper 9',
        week(30),
      ),
    ];
    expect(clusterStories(later)).toHaveLength(2);
  });

  it('undated articles join by their words alone; first report falls back to the most relevant one', () => {
    const undated = [
      art('Harbour bridge closure ends', 'The harbour bridge closure ends as the bridge reopens after repairs.', 'Wire', null, 0.3),
    ];
    const only = groupStories(undated);
    expect(only).toHaveLength(1);
    expect(only[0]!.first.source).toBe('Wire');
    expect(only[0]!.timeline).toEqual([]);
  });

  it('articles that share only the query words, in the same week, are different stories', () => {
    const festival = art(
      'Harbour bridge lit up for the lantern festival',
      'Thousands watched lanterns float under the harbour bridge as the festival opened with music and fireworks.',
      'City Radio',
      '2019-03-02T20:00:00Z',
    );
    const groups = clusterStories([...closure, festival]);
    expect(groups).toHaveLength(2);
    expect(groups.find((g) => g.includes(3))).toEqual([3]);
  });

  it('is deterministic and handles the empty set', () => {
    expect(groupStories([])).toEqual([]);
    expect(groupStories([...ferry, ...closure])).toEqual(groupStories([...ferry, ...closure]));
  });

  it('switches to weekly points for long stories', () => {
    const t = storyTimeline([new Date('2024-01-01T00:00:00Z'), new Date('2024-04-01T00:00:00Z')]);
    expect(t.unit).toBe('week');
    expect(t.points[0]).toEqual({ date: '2024-01-01', articles: 1 });
    expect(t.points.at(-1)).toEqual({ date: '2024-04-01', articles: 1 });
    expect(t.points).toHaveLength(14);
  });
});
