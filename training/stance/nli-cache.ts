/** The NLI model's judgements of (claim, evidence) pairs, cached on disk by pair (feature dumps re-run in seconds). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { NliClassifier } from '../../lib/models';

const FILE = path.resolve('.cache/training/stance/nli-cache.json');

export async function nliProbs(
  nli: Pick<NliClassifier, 'id' | 'classify'> | null,
  pairs: readonly { claim: string; evidence: string }[],
): Promise<([number, number, number] | null)[]> {
  if (!nli) return pairs.map(() => null);
  const cache: Record<string, [number, number, number]> = fs.existsSync(FILE) ? JSON.parse(fs.readFileSync(FILE, 'utf8')) : {};
  const key = (p: { claim: string; evidence: string }) =>
    crypto.createHash('sha256').update(`${nli.id}\n${p.claim}\n${p.evidence}`).digest('hex').slice(0, 24);
  const todo = pairs.filter((p) => !cache[key(p)]);
  if (todo.length) {
    const got = await nli.classify(todo.map((p) => [p.evidence, p.claim]));
    todo.forEach((p, i) => (cache[key(p)] = [got[i]!.entailment, got[i]!.contradiction, got[i]!.neutral]));
    fs.mkdirSync(path.dirname(FILE), { recursive: true });
    fs.writeFileSync(FILE, JSON.stringify(cache));
  }
  return pairs.map((p) => cache[key(p)]!);
}
