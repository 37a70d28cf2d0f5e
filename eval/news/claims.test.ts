import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORT_FORMATS } from '../../crawler';
import { sharedDataDir } from '../../lib/paths';
import { externalIdOf, loadNewsClaims, NEWS_CORPORA, newsCorpusSource, squash, type NewsClaim } from './claims';
import { heldOutArticle } from './heldout';

const FILE = path.join(__dirname, 'claims.jsonl');
const claims = loadNewsClaims(FILE);
const labelled = claims.filter((c) => c.label !== null);

/** The development set (eval/news/dev-claims.jsonl): written only from articles held out of training. */
const DEV_FILE = path.join(__dirname, 'dev-claims.jsonl');
const dev = loadNewsClaims(DEV_FILE);
/** Dev claims that name an article (all but the off-topic ones). */
const devSourced = dev.filter((c) => c.kind !== 'offtopic');

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

describe('the dev claim file', () => {
  it('parses strictly, with unique ids in the dev- series and no claim shared with the test set', () => {
    expect(dev.length).toBeGreaterThanOrEqual(140);
    expect(new Set(dev.map((c) => c.id)).size).toBe(dev.length);
    for (const c of dev) expect(c.id).toMatch(/^dev-\d{3}$/);
    const test = new Set(claims.map((c) => squash(c.claim).toLowerCase()));
    expect(dev.filter((c) => test.has(squash(c.claim).toLowerCase())).map((c) => c.id)).toEqual([]);
  });

  it('names only held-out BBC and HuffPost articles, at most two claims each', () => {
    expect(dev.every((c) => c.label !== null)).toBe(true);
    expect(devSourced.filter((c) => c.corpus === 'reuters').map((c) => c.id)).toEqual([]);
    expect(devSourced.filter((c) => !heldOutArticle(c.corpus, c.doc!)).map((c) => `${c.id}: ${c.corpus} ${c.doc}`)).toEqual([]);
    const perDoc = new Map<string, number>();
    for (const c of devSourced) perDoc.set(`${c.corpus} ${c.doc}`, (perDoc.get(`${c.corpus} ${c.doc}`) ?? 0) + 1);
    expect([...perDoc].filter(([, n]) => n > 2)).toEqual([]);
    // Every BBC topic is used.
    const topics = new Set(devSourced.filter((c) => c.corpus === 'bbc').map((c) => c.doc!.split('/')[0]));
    expect([...topics].sort()).toEqual(['business', 'entertainment', 'politics', 'sport', 'tech']);
  });

  it('keeps the label, corpus and kind mix the README states', () => {
    const share = (f: (c: NewsClaim) => boolean) => dev.filter(f).length / dev.length;
    expect(share((c) => c.label === 'SUPPORTED')).toBeGreaterThanOrEqual(0.35);
    expect(share((c) => c.label === 'SUPPORTED')).toBeLessThanOrEqual(0.45);
    expect(share((c) => c.label === 'REFUTED')).toBeGreaterThanOrEqual(0.3);
    expect(share((c) => c.label === 'REFUTED')).toBeLessThanOrEqual(0.4);
    expect(share((c) => c.kind === 'nei')).toBeGreaterThanOrEqual(0.1);
    expect(share((c) => c.kind === 'nei')).toBeLessThanOrEqual(0.2);
    expect(share((c) => c.kind === 'offtopic')).toBeGreaterThanOrEqual(0.07);
    expect(share((c) => c.kind === 'offtopic')).toBeLessThanOrEqual(0.13);
    expect(share((c) => c.corpus === 'bbc' && c.kind !== 'offtopic')).toBeGreaterThanOrEqual(0.5);
    expect(share((c) => c.corpus === 'huffpost')).toBeGreaterThanOrEqual(0.25);
    // False claims spread over the ways a claim goes wrong in the wild.
    for (const kind of ['entity', 'number', 'ordinal', 'place', 'date', 'direction', 'negation', 'roles']) {
      expect(dev.filter((c) => c.label === 'REFUTED' && c.kind === kind).length, kind).toBeGreaterThanOrEqual(3);
    }
    const refutedKinds = new Set(['entity', 'number', 'ordinal', 'place', 'date', 'direction', 'negation', 'roles']);
    expect(dev.filter((c) => c.label === 'REFUTED' && !refutedKinds.has(c.kind)).map((c) => c.id)).toEqual([]);
    // NEI claims are kind "nei" or "offtopic" and the other way round; off-topic claims are BBC-filed with no article.
    expect(dev.filter((c) => (c.kind === 'nei' || c.kind === 'offtopic') !== (c.label === 'NOT_ENOUGH_EVIDENCE')).map((c) => c.id)).toEqual(
      [],
    );
    expect(dev.filter((c) => c.kind === 'offtopic' && (c.corpus !== 'bbc' || c.doc !== null)).map((c) => c.id)).toEqual([]);
    // Every claim says why (what was changed, why it does not decide).
    expect(dev.filter((c) => c.note.trim() === '').map((c) => c.id)).toEqual([]);
  });
});

const shared = sharedDataDir();
const haveShared = NEWS_CORPORA.every((c) => fs.existsSync(newsCorpusSource(c, shared).path));
if (!haveShared) console.warn(`[skip] deciding sentences not checked: the shared news corpora are not under ${path.join(shared, 'news')}`);

/** Each claim's deciding sentence, looked up in its article as the crawler's importer reads it; returns what is missing. */
async function missingSentences(sourced: NewsClaim[]): Promise<string[]> {
  const missing: string[] = [];
  for (const corpus of NEWS_CORPORA) {
    const want = new Map<string, NewsClaim[]>();
    for (const c of sourced.filter((x) => x.corpus === corpus)) {
      const id = externalIdOf(corpus, c.doc!);
      want.set(id, [...(want.get(id) ?? []), c]);
    }
    if (want.size === 0) continue;
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
  return missing;
}

describe.skipIf(!haveShared)('the deciding sentences', () => {
  it('occur verbatim in the named article, as the importer reads it', async () => {
    expect(await missingSentences(labelled)).toEqual([]);
  }, 180_000);

  it('of the dev claims occur verbatim in their held-out articles', async () => {
    expect(await missingSentences(devSourced)).toEqual([]);
  }, 180_000);
});
