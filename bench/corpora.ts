/**
 * Benchmark corpora made from the shared corpora (../shared/data; never copied into the repository):
 * Reuters-21578 (SGML, dated 1987), BBC News (plain text, undated), HuffPost (headline + description,
 * dated 2018) and SciFact abstracts. Each reader yields documents in the generic JSON-lines import
 * format, so they go through the product's own import (sentences, snippet windows, store).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface BenchDoc {
  id: string;
  title: string;
  text: string;
  published?: string;
  source: string;
}

const MONTHS: Record<string, string> = { JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06', JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12' };

export function decodeSgml(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => (Number(n) < 32 ? ' ' : String.fromCharCode(Number(n))))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "26-FEB-1987 15:01:01.79" → ISO, or undefined. */
export function reutersDate(raw: string): string | undefined {
  const m = /^\s*(\d{1,2})-([A-Z]{3})-(\d{4}) (\d{2}):(\d{2}):(\d{2})/.exec(raw);
  if (!m || !MONTHS[m[2]!]) return undefined;
  return `${m[3]}-${MONTHS[m[2]!]}-${m[1]!.padStart(2, '0')}T${m[4]}:${m[5]}:${m[6]}Z`;
}

export function parseReuters(sgml: string): BenchDoc[] {
  const docs: BenchDoc[] = [];
  for (const m of sgml.matchAll(/<REUTERS[^>]*NEWID="(\d+)"[^>]*>([\s\S]*?)<\/REUTERS>/g)) {
    const body = /<BODY>([\s\S]*?)<\/BODY>/.exec(m[2]!);
    if (!body) continue;
    const title = /<TITLE>([\s\S]*?)<\/TITLE>/.exec(m[2]!);
    const date = /<DATE>([\s\S]*?)<\/DATE>/.exec(m[2]!);
    const text = decodeSgml(body[1]!.replace(/\breuter\s*$/i, ''));
    if (!text) continue;
    docs.push({ id: `reuters-${m[1]}`, title: title ? decodeSgml(title[1]!) : '', text, published: date ? reutersDate(date[1]!) : undefined, source: 'Reuters' });
  }
  return docs;
}

function* reuters(dir: string): Generator<BenchDoc> {
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.sgm')).sort()) yield* parseReuters(fs.readFileSync(path.join(dir, f), 'latin1'));
}

function* bbc(dir: string): Generator<BenchDoc> {
  for (const topic of fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isDirectory()).sort()) {
    for (const f of fs.readdirSync(path.join(dir, topic)).filter((n) => n.endsWith('.txt')).sort()) {
      const [title = '', ...rest] = fs.readFileSync(path.join(dir, topic, f), 'utf8').split('\n');
      const text = rest.join(' ').replace(/\s+/g, ' ').trim();
      if (text) yield { id: `bbc-${topic}-${f.replace(/\.txt$/, '')}`, title: title.trim(), text, source: 'BBC News' };
    }
  }
}

function* huffpost(dir: string): Generator<BenchDoc> {
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json') || n.endsWith('.jsonl')).sort()) {
    const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.trim()) continue;
      const r = JSON.parse(lines[i]!) as { headline?: string; short_description?: string; date?: string };
      const text = [r.headline, r.short_description].filter(Boolean).join('. ');
      if (text) yield { id: `huffpost-${i}`, title: r.headline ?? '', text, published: r.date, source: 'HuffPost' };
    }
  }
}

function* scifact(file: string): Generator<BenchDoc> {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as { doc_id: number; title: string; sentences: string[] };
    yield { id: `scifact-${d.doc_id}`, title: d.title, text: d.sentences.join(' '), source: 'SciFact' };
  }
}

export const BENCH_SOURCES = {
  reuters: { path: ['news', 'reuters21578'], read: reuters },
  bbc: { path: ['news', 'bbc'], read: bbc },
  huffpost: { path: ['news', 'huffpost'], read: huffpost },
  scifact: { path: ['scifact', 'corpus.jsonl'], read: scifact },
} as const;
