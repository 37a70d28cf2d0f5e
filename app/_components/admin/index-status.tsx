import type { DashboardData } from '../../_lib/dashboard';
import { describeCluster } from '../../_lib/index-info';
import { describeServing } from '../../_lib/serving';
import { formatBytes, formatDuration } from '../../../lib/web/time-format';

export function IndexStatus({ index, models, workers }: Pick<DashboardData, 'index' | 'models' | 'workers'>) {
  const indexed = index.snippets - index.pending;
  const worker = workers[0];
  return (
    <dl className="facts" data-testid="index-status">
      <dt>Snippets</dt>
      <dd>
        {index.snippets.toLocaleString('en')} · <strong data-testid="indexed-count">{indexed.toLocaleString('en')} indexed</strong> ·{' '}
        <span data-testid="pending-count">{index.pending.toLocaleString('en')} pending</span>
      </dd>
      {index.indexes.map((i) => (
        <div key={i.name} style={{ display: 'contents' }}>
          <dt>{i.name}</dt>
          <dd>
            {i.entries.toLocaleString('en')} entries ({i.backend}){i.bytes !== null ? ` · ${formatBytes(i.bytes)}` : ''}
          </dd>
        </div>
      ))}
      {index.cluster ? (
        <>
          <dt>Elasticsearch</dt>
          <dd data-testid="es-cluster">
            {'error' in index.cluster ? (
              <span className="badge badge--error">unreachable</span>
            ) : (
              <span
                className={`badge badge--${index.cluster.status === 'green' ? 'ok' : index.cluster.status === 'yellow' ? 'paused' : 'error'}`}
              >
                {index.cluster.status}
              </span>
            )}{' '}
            {describeCluster(index.cluster)}
          </dd>
        </>
      ) : null}
      <dt>Encoder</dt>
      <dd>{models.encoder ?? index.encoder ?? <span className="muted">not loaded</span>}</dd>
      <dt>Reranker</dt>
      <dd>{models.reranker ?? <span className="muted">none</span>}</dd>
      <dt>Verdict (NLI)</dt>
      <dd>{models.nli ?? <span className="muted">none configured</span>}</dd>
      <dt>Search</dt>
      <dd>
        <span className={`badge badge--${models.state === 'ready' ? 'ok' : models.state === 'failed' ? 'error' : 'paused'}`}>
          {models.state.replace('_', ' ')}
        </span>
        {models.serving ? (
          <span className="muted" data-testid="search-serving">
            {' '}
            · this server searches {describeServing(models.serving)}
          </span>
        ) : null}
      </dd>
      <dt>Worker</dt>
      <dd data-testid="worker-status">
        {worker ? (
          <>
            <span className={`badge badge--${worker.up ? 'up' : 'down'}`}>{worker.up ? 'up' : 'down'}</span> {worker.state} · last beat{' '}
            {formatDuration(worker.ageSeconds)} ago · pid {worker.pid}
          </>
        ) : (
          <span className="muted">not started</span>
        )}
      </dd>
    </dl>
  );
}
