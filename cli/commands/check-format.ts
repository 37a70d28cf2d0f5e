/**
 * `quin check` output for people, one block per event as it arrives: the article and what was left
 * out, then each claim with its verdict, its parts and the sentence that decides it (source, date,
 * reason), then the summary. Pure: events in, text out.
 */
import { SKIP_REASON_TEXT, VERDICT_TEXT } from '../../check';
import type { CheckStart, CheckSummary, ClaimResult, PartResult, StanceEvidence } from '../../check';

const ANSI = { bold: '\x1b[1m', dim: '\x1b[2m', green: '\x1b[32m', red: '\x1b[31m', yellow: '\x1b[33m', reset: '\x1b[0m' };
const paint = (on: boolean, code: string, s: string) => (on ? `${code}${s}${ANSI.reset}` : s);

function labelText(label: ClaimResult['label'], color: boolean): string {
  const text = `[${VERDICT_TEXT[label]}]`;
  const code = label === 'SUPPORTED' ? ANSI.green : label === 'REFUTED' ? ANSI.red : ANSI.yellow;
  return paint(color, ANSI.bold + code, text);
}

/** The details the sentence contradicts ("number: 5% in the claim, 2% here"): what decides a refutation. */
function differences(e: StanceEvidence): string {
  const differ = (e.details ?? []).filter((d) => d.status === 'contradicted');
  return differ.map((d) => `${d.kind}: ${d.claim || 'the claim'}${d.evidence ? ` in the claim, ${d.evidence} here` : ''}`).join('; ');
}

function evidenceLine(e: StanceEvidence, color: boolean): string {
  const when = e.publishedAt ? e.publishedAt.slice(0, 10) : 'undated';
  const why = e.reason ? ` — ${e.reason}` : '';
  const differ = differences(e);
  const lines = [`      “${e.sentence}”${why}`];
  if (differ) lines.push(`      ${paint(color, ANSI.red, `differs: ${differ}`)}`);
  lines.push(`      ${paint(color, ANSI.dim, `${e.source}, ${when} · ${e.url}`)}`);
  return lines.join('\n');
}

function partLines(p: PartResult, color: boolean): string[] {
  const lines = [`    ${labelText(p.label, color)} ${p.text}`];
  if (p.decidedBy) lines.push(evidenceLine(p.decidedBy, color));
  else if (p.reason) lines.push(`      ${paint(color, ANSI.dim, p.reason)}`);
  return lines;
}

export function formatStart(s: CheckStart, color: boolean): string {
  const a = s.article;
  const lines = [paint(color, ANSI.bold, a.title ?? '(untitled text)')];
  const where = [a.siteName, a.finalUrl ?? a.url, a.publishedAt ? `published ${a.publishedAt.slice(0, 10)}` : null].filter(Boolean);
  if (where.length) lines.push(where.join(' · '));
  lines.push(
    `${s.sentences.length} sentences, ${s.claims.length} check-worthy; ${s.asOf ? `coverage as of ${s.asOf.slice(0, 10)}` : 'all coverage'}${s.excludedArticles.length ? `; its own stored copy left out` : ''}`,
  );
  for (const w of s.warnings) lines.push(paint(color, ANSI.yellow, `note: ${w}`));
  const left = s.sentences.filter((x) => x.skipped);
  if (left.length) {
    lines.push(paint(color, ANSI.dim, 'left out:'));
    for (const x of left) lines.push(paint(color, ANSI.dim, `  - ${x.text} (${SKIP_REASON_TEXT[x.skipped!] ?? x.skipped})`));
  }
  return lines.join('\n') + '\n\n';
}

export function formatClaim(c: ClaimResult, color: boolean): string {
  const lines = [`${c.id + 1}. ${labelText(c.label, color)} ${c.text}`];
  if (c.standalone !== c.text) lines.push(paint(color, ANSI.dim, `   read as: ${c.standalone}`));
  if (c.results.length > 1) for (const p of c.results) lines.push(...partLines(p, color));
  else if (c.results[0])
    lines.push(
      ...partLines(c.results[0], color)
        .slice(1)
        .map((l) => l.replace(/^ {6}/, '   ')),
    );
  return lines.join('\n') + '\n';
}

export function formatSummary(s: CheckSummary, color: boolean): string {
  const first = s.firstVerdictSeconds === null ? '' : `, first verdict after ${s.firstVerdictSeconds} s`;
  const n = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  return `\n${paint(color, ANSI.bold, `${n(s.claims, 'claim')}: ${s.supported} supported, ${s.refuted} refuted, ${s.notSettled} not settled`)} (${n(s.parts, 'part')} checked in ${s.seconds} s${first})\n`;
}
