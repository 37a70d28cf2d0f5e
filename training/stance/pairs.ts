/**
 * Our own labelled news claims (eval/news/claims.jsonl: each with its deciding sentence) and where the
 * generated news pairs are cached (generate.ts), for the stance data (build-pairs.ts) and the claims
 * dump (claims-dump.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { NewsCorpus } from '../../eval/news/claims';
import { heldOutArticle } from '../../eval/news/heldout';
import { hashSplit } from './nli-sets';

export const NEWS_CLAIMS = path.resolve('eval/news/claims.jsonl');
/** Claims written by a reader from held-out articles (eval/news/heldout.ts): the honest news dev set. */
export const NEWS_DEV_CLAIMS = path.resolve('eval/news/dev-claims.jsonl');
export const NEWS_PAIRS = path.resolve('.cache/training/stance/news-pairs.jsonl');

interface NewsClaim {
  id: string;
  claim: string;
  label: 'SUPPORTED' | 'REFUTED' | 'NOT_ENOUGH_EVIDENCE';
  sentence: string;
  corpus: NewsCorpus;
  doc: string | null;
}

/** A news claim's part: dev when its article is held out (eval/news/heldout.ts: never trained on), else 30 % dev by id. */
export function newsSplit(c: Pick<NewsClaim, 'id' | 'corpus' | 'doc'>): 'train' | 'dev' {
  if (c.doc && heldOutArticle(c.corpus, c.doc)) return 'dev';
  return hashSplit(`news:${c.id}`, 0.3) === 'dev' ? 'dev' : 'train';
}

export function newsClaims(file = NEWS_CLAIMS): NewsClaim[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as NewsClaim)
    .filter((c) => c.label && c.sentence);
}
