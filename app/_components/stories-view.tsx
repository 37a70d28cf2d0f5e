import type { Story, StoryArticle } from '../../ranking';
import { formatDay } from '../../lib/web/time-format';
import { safeHref } from '../_lib/links';
import type { StoriesResult } from '../_lib/stories';
import { SourceChart } from './source-chart';

/** Stories shown as cards, most relevant first; the rest are listed compactly below. */
const SHOWN_STORIES = 10;

function When({ a }: { a: StoryArticle }) {
  return a.publishedAt ? (
    <time dateTime={a.publishedAt}>{formatDay(new Date(a.publishedAt))}</time>
  ) : (
    <span className="muted">undated</span>
  );
}

function ArticleLink({ a, children }: { a: StoryArticle; children?: React.ReactNode }) {
  const href = safeHref(a.url);
  const body = children ?? a.title;
  return href ? (
    <a href={href} rel="noopener noreferrer nofollow" target="_blank">
      {body}
    </a>
  ) : (
    <span>{body}</span>
  );
}

/** A small timeline: one bar per day (or week) from the first report to the latest. */
function Timeline({ story }: { story: Story }) {
  if (story.timeline.length < 2) return null;
  const max = Math.max(...story.timeline.map((p) => p.articles));
  const w = 100 / story.timeline.length;
  const summary = `Reports per ${story.timelineUnit}: ${story.timeline.map((p) => `${p.date} ${p.articles}`).join(', ')}`;
  return (
    <svg className="story-timeline" viewBox="0 0 100 24" preserveAspectRatio="none" role="img" aria-label={summary}>
      {story.timeline.map((p, i) => (
        <rect key={p.date} x={i * w + w * 0.1} y={24 - (p.articles / max) * 22} width={w * 0.8} height={(p.articles / max) * 22 || 0.5}>
          <title>{`${p.date}: ${p.articles}`}</title>
        </rect>
      ))}
    </svg>
  );
}

function StoryCard({ story }: { story: Story }) {
  const span = story.first.publishedAt && story.latest.publishedAt && story.first.articleId !== story.latest.articleId;
  return (
    <article className="story card" data-testid="story">
      <h3 className="story__headline">
        {story.articles.length === 1 ? <ArticleLink a={story.first}>{story.headline}</ArticleLink> : story.headline}
      </h3>
      <p className="story__meta">
        {story.articles.length === 1 ? '1 report' : `${story.articles.length} reports`} ·{' '}
        {story.sources.length === 1 ? '1 source' : `${story.sources.length} sources`}
        {story.first.publishedAt ? (
          <>
            {' '}
            · <When a={story.first} />
            {span ? (
              <>
                {' '}
                – <When a={story.latest} />
              </>
            ) : null}
          </>
        ) : null}
      </p>
      <p className="story__first" data-testid="first-reported">
        First reported by{' '}
        <ArticleLink a={story.first}>
          <strong>{story.first.source}</strong>
        </ArticleLink>
        {story.first.publishedAt ? (
          <>
            {' '}
            on <When a={story.first} />
          </>
        ) : null}
        {span ? (
          <span className="muted">
            {' '}
            · latest: {story.latest.source}, <When a={story.latest} />
          </span>
        ) : null}
      </p>
      <Timeline story={story} />
      <p className="story__sources">
        {story.sources.map((s) => (
          <span key={s.name} className="chip chip--static">
            {s.name}
            {s.articles > 1 ? ` ×${s.articles}` : ''}
          </span>
        ))}
      </p>
      {/* One report: nothing to unfold ("All 1 reports"); the headline already links to it. */}
      {story.articles.length === 1 ? null : (
        <details className="story__reports">
          <summary>All {story.articles.length} reports, oldest first</summary>
          <ol>
            {story.articles.map((a) => (
              <li key={a.articleId}>
                <When a={a} /> · <span className="muted">{a.source}</span> · <ArticleLink a={a} />
              </li>
            ))}
          </ol>
        </details>
      )}
    </article>
  );
}

export function StoriesView({ data }: { data: StoriesResult }) {
  if (!data.stories.length) {
    return (
      <div className="card empty" data-testid="empty">
        <h2>Nothing found for “{data.query}”</h2>
      </div>
    );
  }
  return (
    <>
      <div className="results-head">
        <h2 id="results-h" data-testid="stories-count">
          {data.stories.length === 1 ? '1 story' : `${data.stories.length} stories`} in the {data.articles} most relevant articles
        </h2>
        <span className="muted">{data.total.toLocaleString('en')} matching passages in all</span>
      </div>
      <section className="card coverage" aria-labelledby="by-source-h">
        <h2 id="by-source-h">Coverage by source</h2>
        <p className="small muted" style={{ margin: '0 0 6px' }}>
          These articles per {data.coverage.unit}, by source
        </p>
        <SourceChart coverage={data.coverage} />
      </section>
      <ol className="stories" aria-label="Stories">
        {data.stories.slice(0, SHOWN_STORIES).map((s) => (
          <li key={s.id}>
            <StoryCard story={s} />
          </li>
        ))}
      </ol>
      {data.stories.length > SHOWN_STORIES ? (
        <details className="card more-stories" data-testid="more-stories">
          <summary>{data.stories.length - SHOWN_STORIES} less relevant stories</summary>
          <ol start={SHOWN_STORIES + 1}>
            {data.stories.slice(SHOWN_STORIES).map((s) => (
              <li key={s.id}>
                <ArticleLink a={s.first}>{s.headline}</ArticleLink>{' '}
                <span className="muted small">
                  · {s.articles.length === 1 ? s.first.source : `${s.articles.length} reports, first by ${s.first.source}`} ·{' '}
                  <When a={s.first} />
                </span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </>
  );
}
