'use client';
import { ErrorView } from './_components/error-view';

export default function RootError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorView title="This page could not be shown" error={error} reset={reset} />;
}
