import type { Command } from 'commander';
import { closeSearchIndexes } from '../../indexer';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { openSearchContext, search, type SearchRequest } from '../../ranking';
import { printJson } from '../output';
import { formatSearch } from './search-format';

interface SearchFlags {
  k: string;
  page: string;
  halfLifeDays?: string;
  asOf?: string;
  from?: string;
  to?: string;
  maxAgeDays?: string;
  source?: string[];
  sort?: string;
  perArticle?: string;
  mode?: string;
  rerank: boolean;
  verdict: boolean;
  coverage?: boolean;
  explain?: boolean;
  json?: boolean;
}

/**
 * The flags as the search contract's request, left as text: the pipeline validates them with the one
 * request schema (ranking/schema.ts), with the API's limits, and says which flag is wrong and why.
 */
export function requestFromFlags(text: string, f: SearchFlags): SearchRequest {
  return {
    q: text,
    k: f.k,
    page: f.page,
    halfLifeDays: f.halfLifeDays,
    asOf: f.asOf,
    from: f.from,
    to: f.to,
    maxAgeDays: f.maxAgeDays,
    sources: f.source,
    sort: f.sort as SearchRequest['sort'],
    perArticle: f.perArticle,
    mode: f.mode as SearchRequest['mode'],
    rerank: f.rerank,
    verdict: f.verdict,
    coverage: f.coverage,
  };
}

export function register(program: Command): void {
  program
    .command('search')
    .description(
      'search the indexed news for a claim or a question (evidence sentences highlighted; a verdict for claims when an NLI model is configured)',
    )
    .argument('<text>', 'the claim or question')
    .option('--k <n>', 'results per page', '10')
    .option('--page <n>', 'page number (1-based)', '1')
    .option('--half-life-days <days>', 'time decay half-life in days, or "off" (default QUIN_HALF_LIFE_DAYS)')
    .option('--as-of <date>', 'rank as if today were this date (reproducible results); nothing published after it is searched')
    .option('--from <date>', 'only snippets published on or after this date')
    .option('--to <date>', 'only snippets published on or before this date')
    .option('--max-age-days <days>', 'only snippets at most this many days older than --as-of (or now)')
    .option('--source <name...>', 'only these sources (exact names, as `quin stats` lists them)')
    .option('--sort <order>', 'relevance (time-aware, default) or newest')
    .option('--per-article <n>', 'results per article (0 = no de-duplication; default 1)')
    .option('--mode <mode>', 'hybrid (default), bm25 or dense')
    .option('--no-rerank', 'skip the reranker')
    .option('--no-verdict', 'skip the verdict')
    .option('--coverage', 'add the per-week coverage of matching articles (JSON output)')
    .option('--explain', 'show the score breakdown of every result')
    .option('--json', 'print the whole response as JSON')
    .action(async (text: string, flags: SearchFlags) => {
      const config = getConfig();
      const request = requestFromFlags(text, flags);
      const db = await getDb(config);
      try {
        const ctx = await openSearchContext(config, db, { rerank: flags.rerank, verdict: flags.verdict });
        const res = await search(request, ctx);
        if (flags.json) return printJson(res);
        process.stdout.write(
          formatSearch(res, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, explain: Boolean(flags.explain) }),
        );
      } finally {
        await closeSearchIndexes();
      }
    });
}
