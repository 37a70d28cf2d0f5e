/**
 * The news claim set (eval/news/claims.jsonl): one labelled claim a line, each with the article that
 * decides it and the deciding sentence. Parsing is strict: a malformed line names its file and line.
 * Keyword queries (kind "keywords", label null) are kept apart: they expect evidence and no verdict.
 */
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../../lib/errors';
import { readJsonl } from '../datasets';

export const NEWS_LABELS = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE'] as const;
export type NewsLabel = (typeof NEWS_LABELS)[number];

export const NEWS_CORPORA = ['bbc', 'huffpost', 'reuters'] as const;
export type NewsCorpus = (typeof NEWS_CORPORA)[number];

const Claim = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, dash or underscore'),
    claim: z.string().trim().min(1),
    label: z.enum(NEWS_LABELS).nullable(),
    kind: z.string().regex(/^[a-z-]+$/, 'a lower-case word'),
    corpus: z.enum(NEWS_CORPORA),
    /** BBC: topic/NNN.txt; HuffPost: the record's link; Reuters: the NEWID. Null for keyword queries and off-topic claims. */
    doc: z.string().min(1).nullable(),
    /** The deciding sentence, verbatim (for NEI: the closest on-topic sentence); null for keyword and off-topic claims. */
    sentence: z.string().min(1).nullable(),
    note: z.string().default(''),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.label === null && c.kind !== 'keywords')
      ctx.addIssue({ code: 'custom', path: ['label'], message: 'only kind "keywords" may have a null label' });
    // An off-topic claim (kind "offtopic": the corpus does not cover it at all) has no deciding article.
    if (c.kind === 'offtopic' && (c.label !== 'NOT_ENOUGH_EVIDENCE' || c.doc !== null || c.sentence !== null))
      ctx.addIssue({ code: 'custom', path: ['kind'], message: 'an offtopic claim is NOT_ENOUGH_EVIDENCE with no doc and no sentence' });
    if (c.label !== null && c.kind !== 'offtopic' && (c.doc === null || c.sentence === null))
      ctx.addIssue({ code: 'custom', path: ['doc'], message: 'a labelled claim needs its doc and deciding sentence' });
  });
export type NewsClaim = z.infer<typeof Claim>;

export function loadNewsClaims(file: string): NewsClaim[] {
  const seen = new Map<string, number>();
  return readJsonl(file).map(({ line, value }) => {
    const r = Claim.safeParse(value);
    if (!r.success)
      throw createError(
        'INVALID_INPUT',
        `${file}:${line}: not a news claim (${r.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')})`,
      );
    const first = seen.get(r.data.id);
    if (first !== undefined) throw createError('INVALID_INPUT', `${file}:${line}: id ${r.data.id} already used on line ${first}`);
    seen.set(r.data.id, line);
    return r.data;
  });
}

/** Where each corpus lives under the shared data folder, and its import format (crawler/import). */
export function newsCorpusSource(corpus: NewsCorpus, sharedData: string): { format: NewsCorpus; path: string } {
  const news = path.join(sharedData, 'news');
  if (corpus === 'bbc') return { format: 'bbc', path: path.join(news, 'bbc') };
  if (corpus === 'huffpost') return { format: 'huffpost', path: path.join(news, 'huffpost', 'news_category_subset.json') };
  return { format: 'reuters', path: path.join(news, 'reuters21578') };
}

/**
 * The importer's external id of a claim's article (crawler/import): BBC files are named
 * topic/NNN.txt in the claims and imported as topic/NNN; HuffPost links and Reuters NEWIDs are kept.
 */
export function externalIdOf(corpus: NewsCorpus, doc: string): string {
  return corpus === 'bbc' ? doc.replace(/\.txt$/i, '') : doc;
}

/** Whitespace collapsed: sentences are compared with the imported text this way. */
export function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
