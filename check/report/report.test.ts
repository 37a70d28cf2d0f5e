import { describe, expect, it } from 'vitest';
import type { StanceEvidence } from '../../ranking/types';
import type { CheckEvent, ClaimResult } from '../schema';
import { reportCsv } from './csv';
import { buildReport, rerunHref } from './report';

const evidence: StanceEvidence = {
  snippetId: 1,
  sentence: '=HYPERLINK("http://evil.example") The port handled 4.1 million containers.',
  title: 'Port year',
  url: 'https://coverage.example/port',
  source: 'Coverage Wire',
  publishedAt: '2024-03-01T09:00:00.000Z',
  stance: 'refutes',
  confidence: 0.91,
  weight: 1,
  reason: '4.1 million here, 4.2 million in the claim',
};
const claim: ClaimResult = {
  id: 0,
  sentence: 0,
  text: 'The port handled 4.2 million containers, and it employs 3,400 people.',
  standalone: 'The port handled 4.2 million containers, and it employs 3,400 people.',
  resolutions: [],
  parts: ['The port handled 4.2 million containers.', 'The port employs 3,400 people.'],
  details: [],
  label: 'REFUTED',
  outcome: 'refuted',
  decidedBy: evidence,
  ms: 900,
  results: [
    {
      text: 'The port handled 4.2 million containers.',
      label: 'REFUTED',
      status: 'ok',
      confidence: 0.91,
      reason: null,
      decidedBy: evidence,
      evidence: { supports: [], refutes: [evidence] },
      sources: [],
      ms: 450,
    },
    {
      text: 'The port employs 3,400 people.',
      label: 'NOT_ENOUGH_EVIDENCE',
      status: 'no_match',
      confidence: 0,
      reason: 'nothing in the coverage matches it',
      decidedBy: null,
      evidence: { supports: [], refutes: [] },
      sources: [],
      ms: 450,
    },
  ],
};
const events: CheckEvent[] = [
  {
    type: 'article',
    article: {
      url: 'https://news.example/a',
      finalUrl: 'https://news.example/a',
      canonicalUrl: 'https://news.example/a',
      title: 'Port',
      siteName: null,
      publishedAt: null,
      publishedFrom: null,
      characters: 80,
      truncated: false,
    },
    asOf: null,
    excludedArticles: [],
    sentences: [{ index: 0, paragraph: 0, text: claim.text, claim: 0, skipped: null }],
    claims: [claim],
    warnings: [],
  },
  { type: 'claim', claim },
  {
    type: 'done',
    summary: {
      claims: 1,
      parts: 2,
      supported: 0,
      refuted: 1,
      notSettled: 0,
      sentences: 1,
      skipped: {},
      seconds: 1,
      firstVerdictSeconds: 0.9,
    },
  },
];

describe('the report', () => {
  it('folds the events into one document, only once the check is done', () => {
    const request = { url: 'https://news.example/a', includeLater: false, asOf: null };
    expect(buildReport(events.slice(0, 2), request, new Date())).toBeNull();
    const report = buildReport(events, request, new Date('2024-06-01T00:00:00Z'))!;
    expect(report).toMatchObject({ checkedAt: '2024-06-01T00:00:00.000Z', request, claims: [claim], summary: { refuted: 1 } });
    expect(report.sentences.length).toBe(1);
  });

  it('exports one CSV row per part, with the deciding sentence, its reason, source and date, formulas neutralised', () => {
    const csv = reportCsv(buildReport(events, { url: null, includeLater: false, asOf: null }, new Date())!);
    const lines = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'claim,sentence,claim_verdict,part,part_text,part_verdict,confidence,reason,deciding_sentence,deciding_reason,source,url,published_at',
    );
    expect(lines.length).toBe(3);
    expect(lines[1]).toContain(
      `REFUTED,1,The port handled 4.2 million containers.,REFUTED,0.91,,"'=HYPERLINK(""http://evil.example"") The port`,
    );
    expect(lines[1]).toContain(
      '"4.1 million here, 4.2 million in the claim",Coverage Wire,https://coverage.example/port,2024-03-01T09:00:00.000Z',
    );
    expect(lines[2]).toContain('NOT_ENOUGH_EVIDENCE,0,nothing in the coverage matches it');
  });

  it('links to the same check: a URL by its address, pasted text in the fragment (never sent to a server)', () => {
    expect(rerunHref({ url: 'https://news.example/a?b=1', includeLater: true, asOf: null })).toBe(
      '/check?url=https%3A%2F%2Fnews.example%2Fa%3Fb%3D1&includeLater=true',
    );
    expect(rerunHref({ url: null, includeLater: false, asOf: '2024-03-02' }, 'Text & more', 'A title')).toBe(
      '/check?asOf=2024-03-02#text=Text+%26+more&title=A+title',
    );
  });
});
