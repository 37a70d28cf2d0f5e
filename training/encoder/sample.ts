/**
 * Which texts the teacher embeds (a fixed choice, so that training is deterministic): the sentences
 * and titles of the first 2,500 SciFact abstracts (in the shared cache from `quin eval scifact`),
 * every Climate-FEVER evidence sentence, and a sample of the news corpora by a hash of the text.
 * About 42,000 sentences: USE-lite embeds 15–25 a second here, so this is the budget of a cold run.
 */
import crypto from 'node:crypto';
import type { CorpusPart } from './corpus';

/** Texts per news corpus (the rest of the corpora still counts for the vocabulary). */
export const NEWS_SAMPLE: Record<string, number> = { bbc: 6000, huffpost: 3000, reuters: 6000 };
export const SCIFACT_DOCS = 2500;

const rank = (t: string) => crypto.createHash('sha256').update(`quin-static:${t}`).digest('hex');

export function teacherTexts(parts: readonly CorpusPart[]): { name: string; texts: string[] }[] {
  return parts.map((p) => {
    if (p.name === 'scifact') return { name: p.name, texts: p.texts.slice(0, p.docEnds[SCIFACT_DOCS - 1] ?? p.texts.length) };
    const n = NEWS_SAMPLE[p.name];
    if (n === undefined) return { name: p.name, texts: p.texts };
    const ranked = p.texts.map((t) => [rank(t), t] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    return { name: p.name, texts: ranked.slice(0, n).map(([, t]) => t) };
  });
}
