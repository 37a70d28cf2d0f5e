import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../lib/random';
import type { SwapKind } from '../swap/swap';
import { tamperArticle } from './tamper';

// Our own fixture article (check/testdata), not the shared corpora.
const raw = fs.readFileSync(path.join(__dirname, '../../check/testdata/harbour-article.txt'), 'utf8');
const [title, ...body] = raw.split('\n');
const article = { doc: 'harbour', title: title!, text: body.join('\n') };

describe('tamperArticle', () => {
  it('changes one detail in about a third of the check-worthy sentences, in place, and is the same for the same seed', () => {
    const t = tamperArticle(article, mulberry32(7), new Map<SwapKind, number>())!;
    expect(t.changes.length).toBeGreaterThanOrEqual(2);
    for (const c of t.changes) {
      expect(c.changed).not.toBe(c.original);
      expect(t.tampered).toContain(c.changed);
      expect(t.tampered).not.toContain(c.original);
    }
    // Everything else as written, paragraphs kept.
    expect(t.tampered.split('\n').length).toBe(article.text.split('\n').length);
    for (const s of t.unchanged) expect(t.tampered).toContain(s);
    expect(tamperArticle(article, mulberry32(7), new Map<SwapKind, number>())).toEqual(t);
  });
});
