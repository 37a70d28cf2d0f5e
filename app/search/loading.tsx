import { ResultSkeletons } from '../_components/skeleton';
import { SlowNotice } from '../_components/slow-notice';

export default function Loading() {
  return (
    <div aria-busy="true">
      <p role="status" className="visually-hidden">
        Searching…
      </p>
      <div className="searchbar" aria-hidden="true" style={{ height: 64 }} />
      <div className="search-layout">
        <div className="card skeleton" style={{ height: 420 }} aria-hidden="true" />
        <div>
          <SlowNotice>
            Still searching… the first search after a start loads the language models, and long claims take a few seconds.
          </SlowNotice>
          <ResultSkeletons />
        </div>
      </div>
    </div>
  );
}
