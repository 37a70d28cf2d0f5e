/**
 * FOR TESTS: a small English corpus written straight into the database (indexer/ may not import the
 * crawler), with snippets shaped like the crawler's: windows of sentences with their spans.
 */
import type { Db } from '../lib/db/client';

export interface TestArticle {
  key: string;
  title: string;
  sentences: string[];
  source?: string;
  publishedAt?: Date | null;
}

export const TOPICS: TestArticle[] = [
  {
    key: 'rates',
    title: 'Central bank raises interest rates again',
    sentences: [
      'The central bank raised its benchmark interest rate by half a point on Tuesday.',
      'Policy makers said inflation remained well above their target.',
      'Mortgage costs are expected to climb for millions of households.',
      'Economists warned that higher borrowing costs could slow hiring.',
      'The bank signalled that further increases were possible this year.',
    ],
    source: 'wire',
    publishedAt: new Date('2024-05-02T09:00:00Z'),
  },
  {
    key: 'vitamin',
    title: 'Vitamin D supplements and bone fractures',
    sentences: [
      'A large trial tested whether vitamin D supplements prevent bone fractures in older adults.',
      'Participants took a daily dose or a placebo for five years.',
      'Fracture rates did not differ between the two groups.',
      'The authors said routine supplementation is not justified for healthy people.',
    ],
    source: 'journal',
    publishedAt: new Date('2023-11-20T00:00:00Z'),
  },
  {
    key: 'solar',
    title: 'Solar panels bring power to remote villages',
    sentences: [
      'Cheap solar panels and batteries are bringing electricity to villages far from the grid.',
      'Children can now study after dark under electric lights.',
      'Small shops use the power to run refrigerators and charge phones.',
      'Installers say prices have fallen sharply over the past decade.',
      'Governments are offering grants to speed up the rollout.',
      'Maintenance remains a challenge in the most isolated places.',
    ],
    source: 'wire',
    publishedAt: new Date('2022-07-15T00:00:00Z'),
  },
  {
    key: 'football',
    title: 'Late goal wins the cup final',
    sentences: [
      'A header in the final minute won the cup for the home side.',
      'The stadium erupted as the ball hit the net.',
      'The coach praised his players for never giving up.',
    ],
    source: 'sport',
    publishedAt: null,
  },
];

/** Inserts an article and its snippets (windows of 3 sentences, stride 2); returns the snippet ids. */
export async function addArticle(db: Db, a: TestArticle, version = 1): Promise<{ articleId: number; snippetIds: number[] }> {
  const text = a.sentences.join(' ');
  const article = await db.article.create({
    data: {
      canonicalUrl: `test://${a.key}`,
      originalUrl: `test://${a.key}`,
      title: a.title,
      source: a.source ?? 'test',
      publishedAt: a.publishedAt ?? null,
      publishedAtSource: a.publishedAt ? 'item' : 'unknown',
      fetchedAt: new Date(),
      contentHash: `${a.key}-${version}`,
      textSource: 'import',
      extractionStatus: 'ok',
      text,
      sentenceCount: a.sentences.length,
    },
  });
  await writeSnippets(db, article.id, a);
  const snippets = await db.snippet.findMany({ where: { articleId: article.id }, select: { id: true }, orderBy: { id: 'asc' } });
  return { articleId: article.id, snippetIds: snippets.map((s) => s.id) };
}

async function writeSnippets(db: Db, articleId: number, a: TestArticle): Promise<void> {
  const rows = [];
  for (let start = 0, position = 0; start < a.sentences.length; start += 2, position++) {
    const window = a.sentences.slice(start, start + 3);
    let text = '';
    const spans: [number, number][] = [];
    for (const s of window) {
      if (text) text += ' ';
      spans.push([text.length, text.length + s.length]);
      text += s;
    }
    rows.push({
      articleId,
      position,
      sentenceStart: start,
      sentenceEnd: start + window.length,
      text,
      sentenceSpans: JSON.stringify(spans),
      title: a.title,
      source: a.source ?? 'test',
      publishedAt: a.publishedAt ?? null,
    });
  }
  await db.snippet.createMany({ data: rows });
}

/** Replaces an article's text the way the crawler's store does: its snippets get new ids. */
export async function changeArticle(db: Db, articleId: number, a: TestArticle): Promise<number[]> {
  await db.$transaction(async (tx) => {
    await tx.snippet.deleteMany({ where: { articleId } });
    await writeSnippets(tx as unknown as Db, articleId, a);
  });
  return (await db.snippet.findMany({ where: { articleId }, select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);
}
