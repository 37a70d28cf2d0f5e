import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORT_FORMATS } from '../../crawler';
import { sharedDataDir } from '../../lib/paths';
import { externalIdOf, loadNewsClaims, NEWS_CORPORA, newsCorpusSource, squash, type NewsClaim } from './claims';

const FILE = path.join(__dirname, 'claims.jsonl');
const claims = loadNewsClaims(FILE);
const labelled = claims.filter((c) => c.label !== null);

function tmpFile(lines: unknown[]): string {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quin-news-')), 'claims.jsonl');
  fs.writeFileSync(f, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return f;
}

const good = {
  id: 'x-1',
  claim: 'A rose',
  label: 'SUPPORTED',
  kind: 'direction',
  corpus: 'bbc',
  doc: 'business/001.txt',
  sentence: 'A rose.',
  note: '',
};

describe('the news claim file', () => {
  it('parses strictly: unique ids, a doc and deciding sentence for every labelled claim', () => {
    expect(claims.length).toBeGreaterThanOrEqual(151);
    expect(new Set(claims.map((c) => c.id)).size).toBe(claims.length);
    for (const c of labelled) expect(c.doc && c.sentence).toBeTruthy();
  });

  it('rejects bad lines by file and line', () => {
    expect(() => loadNewsClaims(tmpFile([good, { ...good, label: 'TRUE' }]))).toThrow(/claims\.jsonl:2: not a news claim \(label/);
    expect(() => loadNewsClaims(tmpFile([good, good]))).toThrow(/:2: id x-1 already used on line 1/);
    expect(() => loadNewsClaims(tmpFile([{ ...good, label: null }]))).toThrow(/only kind "keywords" may have a null label/);
    expect(() => loadNewsClaims(tmpFile([{ ...good, sentence: null }]))).toThrow(/needs its doc and deciding sentence/);
    expect(() => loadNewsClaims(tmpFile([{ ...good, extra: 1 }]))).toThrow(/Unrecognized key/);
    expect(() => loadNewsClaims(tmpFile(['{"id": ']))).toThrow(/:1: not valid JSON/);
    expect(loadNewsClaims(tmpFile([{ ...good, label: null, kind: 'keywords', doc: null, sentence: null }]))[0]!.label).toBeNull();
  });

  it('keeps the label, corpus and kind balance the README states', () => {
    const share = (f: (c: NewsClaim) => boolean) => labelled.filter(f).length / labelled.length;
    expect(labelled.length).toBeGreaterThanOrEqual(150);
    expect(share((c) => c.label === 'SUPPORTED')).toBeGreaterThanOrEqual(0.4);
    expect(share((c) => c.label === 'SUPPORTED')).toBeLessThanOrEqual(0.5);
    expect(share((c) => c.label === 'REFUTED')).toBeGreaterThanOrEqual(0.3);
    expect(share((c) => c.label === 'REFUTED')).toBeLessThanOrEqual(0.4);
    expect(share((c) => c.label === 'NOT_ENOUGH_EVIDENCE')).toBeGreaterThanOrEqual(0.15);
    expect(share((c) => c.label === 'NOT_ENOUGH_EVIDENCE')).toBeLessThanOrEqual(0.25);
    expect(share((c) => c.corpus === 'bbc')).toBeGreaterThanOrEqual(0.45);
    expect(share((c) => c.corpus === 'huffpost')).toBeGreaterThanOrEqual(0.25);
    expect(share((c) => c.corpus === 'reuters')).toBeGreaterThanOrEqual(0.15);
    for (const kind of ['paraphrase', 'number', 'direction', 'negation', 'entity', 'roles', 'hedge', 'nei']) {
      expect(labelled.filter((c) => c.kind === kind).length, kind).toBeGreaterThanOrEqual(5);
    }
    // NEI claims are kind "nei" and the other way round.
    expect(labelled.filter((c) => (c.kind === 'nei') !== (c.label === 'NOT_ENOUGH_EVIDENCE'))).toEqual([]);
  });

  it('holds the four example claims the product was specified with, with their labels, and its keyword query without one', () => {
    const byText = new Map(claims.map((c) => [c.claim, c.label]));
    expect(byText.get('UK economy grew in the third quarter')).toBe('SUPPORTED');
    expect(byText.get('Google made a profit in its first earnings report since floating')).toBe('SUPPORTED');
    expect(byText.get('Justin Gatlin won the Olympic 100m final')).toBe('SUPPORTED');
    expect(byText.get('The central bank raised interest rates')).toBe('SUPPORTED');
    expect(byText.get('Xbox price')).toBeNull();
  });
});

const shared = sharedDataDir();
const haveShared = NEWS_CORPORA.every((c) => fs.existsSync(newsCorpusSource(c, shared).path));
if (!haveShared) console.warn(`[skip] deciding sentences not checked: the shared news corpora are not under ${path.join(shared, 'news')}`);

describe.skipIf(!haveShared)('the deciding sentences', () => {
  it('occur verbatim in the named article, as the importer reads it', async () => {
    const missing: string[] = [];
    for (const corpus of NEWS_CORPORA) {
      const want = new Map<string, NewsClaim[]>();
      for (const c of labelled.filter((x) => x.corpus === corpus)) {
        const id = externalIdOf(corpus, c.doc!);
        want.set(id, [...(want.get(id) ?? []), c]);
      }
      const src = newsCorpusSource(corpus, shared);
      const found = new Set<string>();
      for await (const a of IMPORT_FORMATS[src.format]!(src.path)) {
        const group = want.get(a.externalId ?? '');
        if (!group) continue;
        found.add(a.externalId!);
        const text = squash(`${a.title}\n${a.text}`);
        for (const c of group)
          if (!text.includes(squash(c.sentence!))) missing.push(`${c.id}: not in ${corpus} ${c.doc}: ${c.sentence!.slice(0, 60)}`);
      }
      for (const doc of want.keys()) if (!found.has(doc)) missing.push(`${corpus} has no article ${doc}`);
    }
    expect(missing).toEqual([]);
  }, 180_000);
});
