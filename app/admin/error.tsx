'use client';
import { ErrorView } from '../_components/error-view';

export default function AdminError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorView title="The dashboard could not be loaded" error={error} reset={reset} />;
}
