'use client';
/**
 * The search form: a plain GET form to /search (works without JavaScript) that, with JavaScript,
 * navigates to the canonical URL (no empty fields), applies filters as soon as they change, and shows
 * pending and slow states. (The "/" key is the layout's inline script: app/_lib/slash-key.ts.)
 */
import { useRouter } from 'next/navigation';
import { createContext, useContext, useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from 'react';
import { canonicalParams, type RawParams } from '../_lib/search-url';

const Pending = createContext<{ pending: boolean; slow: boolean }>({ pending: false, slow: false });
const SLOW_AFTER_MS = 3000;

function formRaw(form: HTMLFormElement): RawParams {
  const raw: RawParams = {};
  for (const [key, value] of new FormData(form).entries()) {
    if (typeof value !== 'string') continue;
    const prev = raw[key];
    raw[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return raw;
}

/** `action`: the page the form shows its results on (/search, or /stories for the same search grouped into stories). */
export function SearchForm({ children, className, action = '/search' }: { children: ReactNode; className?: string; action?: string }) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, startTransition] = useTransition();
  const [slow, setSlow] = useState(false);

  useEffect(() => {
    if (!pending) return setSlow(false);
    const t = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(t);
  }, [pending]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const params = canonicalParams(formRaw(e.currentTarget));
    if (!params.get('q')) {
      e.currentTarget.querySelector<HTMLInputElement>('input[name="q"]')?.focus();
      return;
    }
    startTransition(() => router.push(`${action}?${params.toString()}`));
  }

  /** Filters apply as soon as they change; "Custom" waits for its number of days. */
  function onChange(e: FormEvent<HTMLFormElement>) {
    const form = e.currentTarget;
    const t = e.target as HTMLInputElement;
    if (!t.closest('[data-autosubmit]')) return;
    const customDays = form.querySelector<HTMLInputElement>('input[name="halfLifeCustom"]');
    const customRadio = form.querySelector<HTMLInputElement>('input[name="halfLifeDays"][value="custom"]');
    if (t === customRadio) return customDays?.focus();
    if (t === customDays) {
      if (!t.value) return;
      if (customRadio) customRadio.checked = true;
    }
    form.requestSubmit();
  }

  return (
    <Pending.Provider value={{ pending, slow }}>
      <form
        ref={formRef}
        role="search"
        action={action}
        method="get"
        onSubmit={onSubmit}
        onChange={onChange}
        className={className}
        aria-busy={pending}
      >
        {children}
      </form>
    </Pending.Provider>
  );
}

export function SubmitButton({ children }: { children: ReactNode }) {
  const { pending } = useContext(Pending);
  return (
    <button type="submit" className="button" aria-disabled={pending}>
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {pending ? 'Searching…' : children}
    </button>
  );
}

/** Announces pending and slow searches; dims the current results while the next ones load. */
export function SearchStatus() {
  const { pending, slow } = useContext(Pending);
  return (
    <div role="status" aria-live="polite" className={pending ? 'notice notice--info' : 'visually-hidden'} data-testid="search-status">
      {pending ? (slow ? 'Still searching… long claims and verdicts can take a few seconds.' : 'Searching…') : ''}
    </div>
  );
}

/** Open on wide screens, collapsed on phones (server-rendered open, so it works without JavaScript). */
export function FiltersDisclosure({ children, summary }: { children: ReactNode; summary: string }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const mq = window.matchMedia('(max-width: 900px)');
    if (ref.current) ref.current.open = !mq.matches;
  }, []);
  return (
    <details ref={ref} open>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
