/** Set differences between what the database holds and what an index holds (pure). */

export interface IdDiff {
  /** In the database, not in the index. */
  missing: number[];
  /** In the index, not in the database. */
  stale: number[];
}

export function diffIds(dbIds: Iterable<number>, indexIds: Iterable<number>): IdDiff {
  const inIndex = new Set(indexIds);
  const inDb = new Set(dbIds);
  const missing: number[] = [];
  for (const id of inDb) if (!inIndex.has(id)) missing.push(id);
  const stale: number[] = [];
  for (const id of inIndex) if (!inDb.has(id)) stale.push(id);
  return { missing: missing.sort((a, b) => a - b), stale: stale.sort((a, b) => a - b) };
}

/** Values that occur more than once. */
export function duplicates(values: Iterable<number>): number[] {
  const seen = new Set<number>();
  const dup = new Set<number>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup].sort((a, b) => a - b);
}

/** "3 (e.g. 4, 9, 12)" — a count and the first few ids, for messages. */
export function sampleIds(ids: readonly number[], n = 5): string {
  return `${ids.length}${ids.length ? ` (e.g. ${ids.slice(0, n).join(', ')}${ids.length > n ? ', …' : ''})` : ''}`;
}

/** Messages for ids missing from, stale in, or doubled in an index (empty when it matches). */
export function idProblems(label: string, dbIds: readonly number[], indexIds: readonly number[]): string[] {
  const { missing, stale } = diffIds(dbIds, indexIds);
  const dup = duplicates(indexIds);
  const out: string[] = [];
  if (missing.length) out.push(`${label}: ${sampleIds(missing)} snippets missing`);
  if (stale.length) out.push(`${label}: ${sampleIds(stale)} entries for snippets that no longer exist`);
  if (dup.length) out.push(`${label}: ${sampleIds(dup)} snippets indexed more than once`);
  return out;
}
