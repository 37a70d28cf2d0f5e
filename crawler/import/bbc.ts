/**
 * BBC News (Greene & Cunningham 2006): plain-text files in topic folders (business/001.txt, …); the
 * first line is the title, the rest the story. The corpus carries no dates, so none are invented.
 * Accepts the corpus folder, one topic folder or one file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createError } from '../../lib/errors';
import { decodeBody } from '../text/charset';
import type { ArticleInput } from '../store/articles';

export const BBC_SOURCE = 'BBC News';

function textFiles(p: string): string[] {
  if (!fs.existsSync(p)) throw createError('NOT_FOUND', `no such file or folder: ${p}`);
  if (fs.statSync(p).isFile()) return [p];
  return fs
    .readdirSync(p, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      if (e.isDirectory()) return textFiles(path.join(p, e.name));
      // The corpus ships a README.TXT beside the topic folders: not a story.
      return /\.txt$/i.test(e.name) && !/^readme/i.test(e.name) ? [path.join(p, e.name)] : [];
    });
}

/** Title (first non-empty line) and text (the rest, one paragraph a line). Pure. */
export function parseBbcText(content: string): { title: string; text: string } {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return { title: '', text: '' };
  const text = lines
    .slice(first + 1)
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');
  return { title: lines[first]!.trim(), text };
}

export async function* readBbc(p: string, now = new Date()): AsyncGenerator<ArticleInput> {
  const files = textFiles(p);
  if (!files.length) throw createError('INVALID_INPUT', `${p} holds no .txt files (expected the BBC News topic folders)`);
  for (const file of files) {
    const { title, text } = parseBbcText(decodeBody(fs.readFileSync(file), null).text);
    const topic = path.basename(path.dirname(file));
    const id = `${topic}/${path.basename(file, path.extname(file))}`;
    const url = `corpus://bbc/${id}`;
    yield {
      canonicalUrl: url,
      originalUrl: url,
      externalId: id,
      title: title || id,
      source: BBC_SOURCE,
      language: 'en',
      publishedAt: null,
      publishedAtSource: 'unknown',
      fetchedAt: now,
      textSource: 'import',
      extractionStatus: 'ok',
      text,
    };
  }
}
