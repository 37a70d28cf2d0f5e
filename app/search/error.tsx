'use client';
import { ErrorView } from '../_components/error-view';

export default function SearchError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorView title="The search failed" error={error} reset={reset} />;
}
