'use client';
import { useState, type FormEvent } from 'react';
import { MAX_TEXT_CHARS } from '../../../check/limits';

export interface CheckInput {
  mode: 'url' | 'text';
  url: string;
  text: string;
  title: string;
  publishedAt: string;
  includeLater: boolean;
  /** The coverage as of this day (from a rerun link); empty: the article's own day. */
  asOf: string;
}

/** What to check: a link or a pasted text, and whether coverage after the article counts. */
export function CheckForm({ initial, busy, onCheck }: { initial: CheckInput; busy: boolean; onCheck: (input: CheckInput) => void }) {
  const [input, setInput] = useState(initial);
  const set = (patch: Partial<CheckInput>) => setInput((prev) => ({ ...prev, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onCheck(input);
  };
  return (
    <form className="check-form card" onSubmit={submit} aria-label="Article to check">
      <fieldset className="check-mode">
        <legend className="field__label">Check</legend>
        <label className="choice">
          <input type="radio" name="mode" value="url" checked={input.mode === 'url'} onChange={() => set({ mode: 'url' })} /> a link
        </label>
        <label className="choice">
          <input type="radio" name="mode" value="text" checked={input.mode === 'text'} onChange={() => set({ mode: 'text' })} /> a text
        </label>
      </fieldset>
      {input.mode === 'url' ? (
        <div className="field">
          <label htmlFor="check-url">Article link</label>
          <input
            id="check-url"
            name="url"
            type="url"
            required
            placeholder="https://…"
            value={input.url}
            onChange={(e) => set({ url: e.target.value })}
          />
        </div>
      ) : (
        <>
          <div className="field">
            <label htmlFor="check-text">Article text</label>
            <textarea
              id="check-text"
              name="text"
              required
              rows={10}
              maxLength={MAX_TEXT_CHARS}
              value={input.text}
              onChange={(e) => set({ text: e.target.value })}
              aria-describedby="check-text-hint"
            />
            <span id="check-text-hint" className="hint">
              {input.text.length.toLocaleString('en')} / {MAX_TEXT_CHARS.toLocaleString('en')} characters
            </span>
          </div>
          <div className="check-form__row">
            <div className="field">
              <label htmlFor="check-title">Title (optional)</label>
              <input id="check-title" name="title" type="text" value={input.title} onChange={(e) => set({ title: e.target.value })} />
            </div>
            <div className="field">
              <label htmlFor="check-date">Published (optional)</label>
              <input
                id="check-date"
                name="publishedAt"
                type="date"
                value={input.publishedAt}
                onChange={(e) => set({ publishedAt: e.target.value })}
              />
            </div>
          </div>
        </>
      )}
      <label className="choice">
        <input type="checkbox" name="includeLater" checked={input.includeLater} onChange={(e) => set({ includeLater: e.target.checked })} />{' '}
        Also use coverage published after the article
      </label>
      <button className="button check-form__submit" type="submit" disabled={busy}>
        {busy ? 'Checking…' : 'Check the claims'}
      </button>
    </form>
  );
}
