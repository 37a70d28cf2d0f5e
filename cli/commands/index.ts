/**
 * `quin index`: brings the BM25 and dense indexes in step with the snippets (only what changed since
 * the last checkpoint). `--verify` checks that they hold exactly the database's snippets and exits
 * non-zero when anything differs; `--status` shows counts and sizes; `--rebuild` starts from scratch.
 * Ctrl-C stops after a checkpoint of what is done.
 */
import type { Command } from 'commander';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import {
  closeSearchIndexes,
  describeEsCluster,
  indexStatus,
  runIndex,
  verifyIndexes,
  type IndexRunStats,
  type VerifyReport,
} from '../../indexer';
import { printJson } from '../output';

function mb(bytes: number | null): string {
  return bytes === null ? '?' : `${(bytes / 1e6).toFixed(1)} MB`;
}

function printVerify(report: VerifyReport): void {
  const lines = [`${report.snippets} snippets in the database`];
  for (const c of report.checks) {
    const facts = Object.entries(c.facts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    lines.push(`${c.ok ? 'OK  ' : 'DIFF'} ${c.index}: ${facts}`);
    for (const p of c.problems) lines.push(`     - ${p}`);
  }
  lines.push(report.ok ? 'indexes match the database' : 'indexes differ from the database: run `quin index` (or `quin index --rebuild`)');
  process.stdout.write(lines.join('\n') + '\n');
}

function printRun(s: IndexRunStats): void {
  const d = 'added' in s.dense ? s.dense : null;
  const lines = [
    `bm25 (${s.bm25.backend}): +${s.bm25.added} −${s.bm25.removed} in ${s.bm25.seconds.toFixed(1)}s`,
    d
      ? `dense (${d.factory}): +${d.added}${d.rebuilt ? ` (rebuilt: ${d.rebuilt})` : ''}, ${d.live} live / ${d.ntotal} vectors, ${d.checkpoints} checkpoint(s), ` +
        `${d.sentencesEmbedded} sentences embedded (${s.sentencesPerSecond.toFixed(1)}/s), ${d.sentencesCached} cached, ${d.seconds.toFixed(1)}s`
      : `dense: skipped (${(s.dense as { skipped: string }).skipped})`,
    `${s.snippets} snippets, ${s.snippetsPerSecond.toFixed(1)} snippets/s, ${s.seconds.toFixed(1)}s${s.aborted ? ' (stopped early: run again to finish)' : ''}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

export function register(program: Command): void {
  program
    .command('index')
    .description('update the BM25 and dense indexes with the snippets added, changed or deleted since the last run')
    .option('--verify', 'check that the indexes hold exactly the snippets of the database (exit 1 when not)')
    .option('--status', 'show what is indexed and pending, sizes and backends')
    .option('--rebuild', 'rebuild every index from scratch (cached sentence vectors are reused)')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { verify?: boolean; status?: boolean; rebuild?: boolean; json?: boolean }) => {
      const config = getConfig();
      const db = await getDb(config);
      try {
        if (opts.status) {
          const st = await indexStatus(db, config);
          if (opts.json) return printJson(st);
          process.stdout.write(
            `snippets: ${st.snippets}\n` +
              `bm25 (${st.bm25.backend}): ${st.bm25.indexed ?? '?'} indexed, ${st.bm25.pending ?? '?'} pending, ${mb(st.bm25.bytes)}${st.bm25.error ? ` (error: ${st.bm25.error})` : ''}\n` +
              `dense (${st.dense.factory ?? 'not built'}, ${st.dense.encoder ?? st.dense.configuredEncoder}, ${st.dense.pooling ?? '-'}): ${st.dense.indexed} indexed, ${st.dense.pending} pending, ${st.dense.tombstones} tombstones, ${mb(st.dense.bytes)}${st.dense.available ? '' : ' (FAISS binding not built)'}\n` +
              `sentence cache: ${st.cache.dir} ${mb(st.cache.bytes)}\n` +
              (st.bm25.cluster ? `elasticsearch: ${describeEsCluster(st.bm25.cluster)}\n` : ''),
          );
          return;
        }
        if (opts.verify) {
          const report = await verifyIndexes(db, config);
          if (opts.json) printJson(report);
          else printVerify(report);
          process.exitCode = report.ok ? 0 : 1;
          return;
        }
        const controller = new AbortController();
        const onSignal = () => {
          if (controller.signal.aborted) process.exit(130);
          process.stderr.write('\nstopping after the current step (Ctrl-C again to quit at once)…\n');
          controller.abort();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        try {
          const stats = await runIndex(db, config, { signal: controller.signal, rebuild: opts.rebuild });
          if (opts.json) printJson(stats);
          else printRun(stats);
          if (stats.aborted) process.exitCode = 130;
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      } finally {
        await closeSearchIndexes();
      }
    });
}
