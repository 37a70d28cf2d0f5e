import type { Metadata } from 'next';
import { CheckTool } from '../_components/check/check-tool';
import '../_components/check/check.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Check an article' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/** /check: paste a link or a text, get each of its claims checked against the coverage (a link to it reruns the check). */
export default async function CheckPage({ searchParams }: Props) {
  const p = await searchParams;
  const url = one(p.url);
  return (
    <>
      <h1 className="page-title">Check an article</h1>
      <p className="lede">
        Paste a link or a text: its check-worthy claims are picked, compound ones split into their parts, and each is checked against the
        coverage, with the sentence that settles it and its source. Opinions, questions and quotes of feelings are left out and listed.
      </p>
      <CheckTool
        initial={{
          mode: 'url',
          url,
          text: '',
          title: '',
          publishedAt: '',
          includeLater: one(p.includeLater) === 'true',
          asOf: one(p.asOf),
        }}
      />
    </>
  );
}
