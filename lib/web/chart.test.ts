import { describe, expect, it } from 'vitest';
import { coverageSeries, fillDays, layoutBars, niceMax } from './chart';

describe('chart geometry', () => {
  it('rounds the axis to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 12, 180, 999].map(niceMax)).toEqual([1, 1, 5, 10, 20, 200, 1000]);
  });

  it('lays bars out inside the plot, tallest at the top', () => {
    const l = layoutBars(
      [
        { key: 'a', value: 5 },
        { key: 'b', value: 10 },
        { key: 'c', value: 0 },
      ],
      300,
      100,
      { gap: 0 },
    );
    expect(l.max).toBe(10);
    expect(l.bars.map((b) => [b.x, b.width, b.height])).toEqual([
      [0, 100, 50],
      [100, 100, 100],
      [200, 100, 0],
    ]);
    expect(l.bars[1]!.y).toBe(0);
    expect(l.labelled).toEqual([0, 1, 2]);
  });

  it('never puts an x-axis label so close to the last one that they overlap', () => {
    for (const n of [7, 13, 38, 40, 41, 118, 120, 156]) {
      const data = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: i }));
      const { labelled, bars } = layoutBars(data, 720, 100);
      expect(labelled.at(-1), `n=${n}`).toBe(n - 1);
      expect(labelled[0]).toBe(0);
      // At most 6 labels, at least a sixth of the width apart (a 10-character date is ~65 px wide).
      expect(labelled.length).toBeLessThanOrEqual(6);
      for (let i = 1; i < labelled.length; i++)
        expect(bars[labelled[i]!]!.x - bars[labelled[i - 1]!]!.x, `n=${n}`).toBeGreaterThanOrEqual(720 / 6 - 1);
    }
  });

  it('fills missing days with zeros', () => {
    expect(
      fillDays(
        [
          { key: '2024-01-01', value: 2 },
          { key: '2024-01-04', value: 1 },
        ],
        1,
      ).map((d) => d.value),
    ).toEqual([2, 0, 0, 1]);
  });

  it('groups coverage by week, or by month or year when the span is long', () => {
    expect(
      coverageSeries([
        { week: '2024-01-01', articles: 2 },
        { week: '2024-01-15', articles: 1 },
      ]),
    ).toEqual({
      unit: 'week',
      data: [
        { key: '2024-01-01', value: 2 },
        { key: '2024-01-08', value: 0 },
        { key: '2024-01-15', value: 1 },
      ],
    });
    const long = coverageSeries([
      { week: '1987-03-02', articles: 4 },
      { week: '1987-03-09', articles: 1 },
      { week: '2024-05-06', articles: 3 },
    ]);
    expect(long.unit).toBe('year');
    expect(long.data[0]).toEqual({ key: '1987', value: 5 });
    expect(long.data.at(-1)).toEqual({ key: '2024', value: 3 });
    expect(long.data).toHaveLength(2024 - 1987 + 1);
    expect(
      coverageSeries([
        { week: '2020-01-06', articles: 1 },
        { week: '2024-05-06', articles: 3 },
      ]).unit,
    ).toBe('month');
  });
});
