'use client';
/**
 * "As of" in the filter panel: what the archive said on a given day. The search counts recency from
 * that day (asOf) and leaves out coverage published after it (the server bounds the publication date
 * by asOf). With JavaScript the "to" date is also set to that day unless an earlier one is chosen, so
 * the bound shows in "Published between". Part of the search form's auto-applied filters.
 */
import type { ChangeEvent } from 'react';

/** `max`: today (UTC), from the server: a later day would say nothing the present does not (the search drops it, saying so). */
export function AsOfField({ value, max }: { value?: string; max?: string }) {
  function onChange(e: ChangeEvent<HTMLInputElement>) {
    const day = e.currentTarget.value;
    const to = e.currentTarget.form?.querySelector<HTMLInputElement>('input[name="to"]');
    if (!to) return;
    if (day && (!to.value || to.value > day)) to.value = day;
    else if (!day && to.dataset.asOf === to.value) to.value = '';
    to.dataset.asOf = day;
  }
  return (
    <div className="field">
      <label htmlFor="asOf">As of</label>
      <input id="asOf" type="date" name="asOf" defaultValue={value?.slice(0, 10)} max={max} onChange={onChange} data-testid="as-of" />
      <span className="small muted">See what the archive said on that day: later coverage is left out and recency is counted from it.</span>
    </div>
  );
}
