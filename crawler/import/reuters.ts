/**
 * Reuters-21578 (SGML, 22 files of up to 1,000 <REUTERS> documents): title, body and the 1987 date
 * of each story. The parsing is pure (`parseReutersSgml`); the reader walks a folder or one file.
 * Bodies are hard-wrapped at ~70 columns with paragraphs marked by an indent (or by "&\t" in some
 * copies): lines are re-joined into paragraphs, the "Reuter" sign-off and control characters go.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../lib/errors';
import { parseDate } from '../text/dates';
import { decodeEntities } from '../text/html-text';
import type { ArticleInput } from '../store/articles';

export const REUTERS_SOURCE = 'Reuters';

export interface ReutersDoc {
  newId: string;
  date: Date | null;
  rawDate: string | null;
  title: string;
  text: string;
  topics: string[];
}

function element(block: string, tag: string): string | null {
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(block);
  return m ? m[1]! : null;
}

// C0 controls except tab and newline, and DEL: the wire's framing characters (&#2; &#3; &#5; …).
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

function clean(s: string): string {
  // Entities first (&lt; &amp; &#3;), then the control characters some of them encode.
  return decodeEntities(s).replace(CONTROL, '');
}

/** Hard-wrapped lines back into paragraphs, one per line. */
export function reflow(body: string): string {
  const paragraphs: string[] = [];
  for (const raw of body.replace(/&\\t/g, '\n\t').split('\n')) {
    const startsParagraph = /^\s/.test(raw) || paragraphs.length === 0;
    const line = raw.trim();
    if (!line) {
      paragraphs.push('');
      continue;
    }
    if (startsParagraph || paragraphs[paragraphs.length - 1] === '') paragraphs.push(line);
    else paragraphs[paragraphs.length - 1] += ` ${line}`;
  }
  const out = paragraphs.filter(Boolean);
  // The wire sign-off: a last line "Reuter" (or "REUTER").
  if (out.length && /^reuters?$/i.test(out[out.length - 1]!)) out.pop();
  else if (out.length) out[out.length - 1] = out[out.length - 1]!.replace(/\s+reuters?\s*$/i, '');
  return out.join('\n');
}

export function parseReutersSgml(sgml: string): ReutersDoc[] {
  const docs: ReutersDoc[] = [];
  for (const m of sgml.matchAll(/<REUTERS\b([^>]*)>([\s\S]*?)<\/REUTERS>/g)) {
    const attrs = m[1]!;
    const block = m[2]!;
    const newId = /NEWID="(\d+)"/.exec(attrs)?.[1];
    if (!newId) continue;
    const rawDate = element(block, 'DATE')?.trim() ?? null;
    // Some dates carry wire codes after them ("27-MAR-1987 00:02:59.13&#5;&#5;&#5;RM"): keep the date.
    const dateText = rawDate ? (/^\d{1,2}-[A-Za-z]{3}-\d{4}(?:\s+[\d:.]+)?/.exec(rawDate)?.[0] ?? rawDate) : null;
    const textBlock = element(block, 'TEXT') ?? '';
    let title = clean(element(textBlock, 'TITLE') ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    const bodyRaw = element(textBlock, 'BODY');
    // UNPROC documents have no TITLE/BODY: the text itself, whose first line serves as the title.
    let text = reflow(clean(bodyRaw ?? (title ? '' : textBlock.replace(/<[^>]+>[\s\S]*?<\/[^>]+>/g, ''))));
    if (!title) {
      const [first, ...rest] = text.split('\n');
      title = (first ?? '').trim();
      text = rest.join('\n');
    }
    const topics = [...(element(block, 'TOPICS') ?? '').matchAll(/<D>([^<]*)<\/D>/g)].map((d) => d[1]!);
    // One story's time is corrupt ("605:12:19.12"): its day is still good.
    const date = parseDate(dateText) ?? parseDate(dateText?.split(/\s+/)[0]);
    docs.push({ newId, date, rawDate, title, text, topics });
  }
  return docs;
}

function sgmlFiles(p: string): string[] {
  if (!fs.existsSync(p)) throw createError('NOT_FOUND', `no such file or folder: ${p}`);
  if (fs.statSync(p).isFile()) return [p];
  const files = fs
    .readdirSync(p)
    .filter((f) => /\.sgm$/i.test(f))
    .sort()
    .map((f) => path.join(p, f));
  if (!files.length) throw createError('INVALID_INPUT', `${p} holds no .sgm files (expected the Reuters-21578 reut2-*.sgm files)`);
  return files;
}

export async function* readReuters(p: string, now = new Date()): AsyncGenerator<ArticleInput> {
  for (const file of sgmlFiles(p)) {
    const docs = parseReutersSgml(fs.readFileSync(file, 'latin1'));
    if (!docs.length) throw createError('INVALID_INPUT', `${file}: no <REUTERS> documents (is this Reuters-21578 SGML?)`);
    for (const d of docs) {
      const url = `corpus://reuters21578/${d.newId}`;
      yield {
        canonicalUrl: url,
        originalUrl: url,
        externalId: d.newId,
        title: d.title || `Reuters ${d.newId}`,
        source: REUTERS_SOURCE,
        language: 'en',
        publishedAt: d.date,
        publishedAtSource: d.date ? 'import' : 'unknown',
        fetchedAt: now,
        textSource: 'import',
        extractionStatus: 'ok',
        text: d.text,
      };
    }
  }
}
