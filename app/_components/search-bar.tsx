import { SubmitButton } from './search-form';

/** `maxLength`: the server's query limit (QUIN_MAX_QUERY_CHARS). */
export function SearchBar({ q, autoFocus, maxLength = 1000 }: { q?: string; autoFocus?: boolean; maxLength?: number }) {
  return (
    <div>
      <div className="searchbar">
        <label htmlFor="q" className="visually-hidden">
          Claim or question
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="Type a claim or a question, e.g. “The ECB raised interest rates”"
          autoComplete="off"
          spellCheck
          maxLength={maxLength}
          autoFocus={autoFocus}
          aria-describedby="q-hint"
        />
        <SubmitButton>Check</SubmitButton>
      </div>
      <p id="q-hint" className="hint">
        A statement gets an automatic verdict with evidence; a question gets the best evidence.
        <span className="kbd-hint">
          {' '}
          Press <span className="kbd">/</span> to jump here.
        </span>
      </p>
    </div>
  );
}
