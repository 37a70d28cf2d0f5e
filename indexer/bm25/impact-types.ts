/** The accelerator's postings as typed arrays, and its hits (shared by its build, blocks and searches). */
export interface ImpactArrays {
  /** Distinct tokens in FTS5's order (its own tokens: stemmed, folded). */
  terms: string[];
  /** Postings of term t: [termStart[t], termStart[t + 1]). */
  termStart: Uint32Array;
  /** Document index (into docIds) per posting, ascending within a term. */
  postDoc: Uint32Array;
  /** Occurrences in column 0 (title) and column 1 (text) per posting. */
  postTf0: Uint16Array;
  postTf1: Uint16Array;
  /** Rowids in ascending order, and each row's size in tokens over all columns. */
  docIds: Int32Array;
  docLen: Uint32Array;
}

export interface ImpactHit {
  snippetId: number;
  score: number;
}
