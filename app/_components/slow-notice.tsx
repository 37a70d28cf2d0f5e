'use client';
import { useEffect, useState } from 'react';

/** Says so when loading takes longer than usual (first search after start loads the models). */
export function SlowNotice({ afterMs = 3000, children }: { afterMs?: number; children: React.ReactNode }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSlow(true), afterMs);
    return () => clearTimeout(t);
  }, [afterMs]);
  return slow ? (
    <p className="notice notice--info" role="status" data-testid="slow-notice">
      {children}
    </p>
  ) : null;
}
