/**
 * Which texts the teacher embeds (a fixed, seeded choice, so that training is deterministic):
 * every SciFact sentence and title (already in the shared cache from `quin eval scifact`), every
 * Climate-FEVER evidence sentence, and a sample of the news corpora by a hash of the text.
 */
import crypto from 'node:crypto';
import type { CorpusPart } from './corpus';

/** Texts per news corpus (the rest of the corpora still counts for the vocabulary). */
export const NEWS_SAMPLE: Record<string, number> = { bbc: 6000, huffpost: 3000, reuters: 6000 };

const rank = (t: string) => crypto.createHash('sha256').update(`quin-static:${t}`).digest('hex');

export function teacherTexts(parts: readonly CorpusPart[]): { name: string; texts: string[] }[] {
  return parts.map((p) => {
    const n = NEWS_SAMPLE[p.name];
    if (n === undefined) return { name: p.name, texts: p.texts };
    const ranked = p.texts.map((t) => [rank(t), t] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    return { name: p.name, texts: ranked.slice(0, n).map(([, t]) => t) };
  });
}
