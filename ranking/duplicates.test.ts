import { describe, expect, it } from 'vitest';
import { jaccard, sameStory, shingled, shingledText, shingles, wordHashes, type Shingled } from './duplicates';

const PS2 =
  "Sony PlayStation 2's slimmer shape has proved popular with UK gamers, with 50,000 sold in its first week on sale. Sales have tripled since launch, outstripping Microsoft's Xbox, said market analysts Chart-Track. The numbers were also boosted by the release of the PS2-only game Grand Theft Auto: San Andreas.";
const SINGAPORE =
  "Singapore's economy grew by 8.1% in 2004, its best performance in four years, the government has said. The figure was slightly lower than the 8.5% forecast by the trade ministry. Growth in the final quarter was boosted by the service industries.";
const OTHER =
  'The central bank kept interest rates unchanged on Thursday, saying inflation had slowed to 2.4 percent in May as energy prices fell.';

describe('one story, once', () => {
  it('finds the same text under two URLs, and a re-published copy with an edit', () => {
    const edited = PS2.replace('50,000 sold', '50,000 consoles sold').replace('said market analysts', 'according to analysts');
    const leaders = sameStory([PS2, OTHER, PS2, SINGAPORE, edited, SINGAPORE].map(wordHashes));
    expect(leaders).toEqual([-1, -1, 0, -1, 0, 3]);
  });

  it('leaves different stories on the same subject apart', () => {
    const a = 'Sony cut the price of the PlayStation 2 in Europe to 149 euros, hoping to win buyers before Christmas.';
    const b = 'Microsoft said Xbox sales in Europe rose after it cut the console price to 149 euros last month.';
    expect(sameStory([a, b].map(wordHashes))).toEqual([-1, -1]);
    expect(jaccard(shingles(wordHashes(a)), shingles(wordHashes(b)))).toBeLessThan(0.2);
  });

  it('handles short and empty texts', () => {
    expect(sameStory(['', 'a', 'A', 'b c'].map(wordHashes))).toEqual([-1, -1, 1, -1]);
    expect(wordHashes('Hello  World\n')).toEqual(wordHashes('hello world'));
  });

  it('reads words case-folded and split at spaces, tabs, line breaks and no-break spaces only', () => {
    expect(wordHashes('ÉCOLE Über')).toEqual(wordHashes('école über'));
    expect(wordHashes('a b\tc\nd\re\u00a0f')).toHaveLength(6);
    // Punctuation and other separators stay in the word, as they always did.
    expect(wordHashes('a,b a\u2028b a-b')).toHaveLength(3);
    expect(wordHashes('a,b')).not.toEqual(wordHashes('a b'));
  });

  it('shingles a text in one pass as word hashes then shingles do', () => {
    const texts = [
      PS2,
      SINGAPORE + ' ' + SINGAPORE,
      '',
      '   ',
      'one',
      'two words',
      'Exactly three words',
      '\tTabs,\u00a0no-break spaces\r\nand  doubled   spaces ',
      'ÄRGER über İstanbul, ÉTÉ à Paris — “quoted” ß ǅ',
      'la la la la la la la',
      Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' '),
    ];
    // What sameStoryOf reads: the sorted set and the band keys (the raw hashes behind them differ in order).
    const seen = (x: Shingled) => ({ set: x.set, keys: x.keys });
    for (const t of texts) expect(seen(shingledText(t)), JSON.stringify(t.slice(0, 30))).toEqual(seen(shingled(wordHashes(t))));
  });

  it('keys made from the raw hashes, repeats and all, are those of the sorted set', () => {
    const t = `${SINGAPORE} ${SINGAPORE} la la la la ${PS2}`;
    const x = shingledText(t);
    expect(x.keys).toEqual(shingled(wordHashes(t)).keys);
    expect([...x.set]).toEqual([...new Set(x.set)].sort((a, b) => a - b));
    expect(x.set.length).toBeLessThan(wordHashes(t).length - 2);
  });
});
