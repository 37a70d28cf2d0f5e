/**
 * Whole news articles held out from every training set, so that dev claims written from them measure
 * the verdict on text no model has read: a fixed fifth of the BBC and HuffPost articles, chosen by a
 * hash of the article's id (the importer's external id: "business/057" for BBC, the link for HuffPost),
 * so adding articles never moves one across. Reuters-21578 is all training material (the claims of
 * eval/news that name a Reuters story are read through the search, not trained on as articles).
 */
import crypto from 'node:crypto';
import type { NewsCorpus } from './claims';

export const HELD_OUT_FRACTION = 0.2;

/** Is this article held out (never a source of training pairs)? `doc` as in claims files: "business/057.txt" or the importer's id. */
export function heldOutArticle(corpus: NewsCorpus, doc: string): boolean {
  if (corpus === 'reuters') return false;
  const id = corpus === 'bbc' ? doc.replace(/\.txt$/i, '') : doc;
  const h = crypto.createHash('sha256').update(`heldout:${corpus}:${id}`).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < HELD_OUT_FRACTION;
}

/** The corpus an imported article id belongs to: a link is HuffPost, a bare number a Reuters NEWID, "topic/NNN" BBC. */
export function corpusOfId(id: string): NewsCorpus {
  if (/^https?:/.test(id)) return 'huffpost';
  return /^\d+$/.test(id) ? 'reuters' : 'bbc';
}
