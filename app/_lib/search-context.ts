/**
 * Opens what the search pipeline needs, once per process: the BM25 and dense indexes with their
 * encoder, and the reranker and verdict stages that the configuration names.
 */
export { openSearchContext } from '../../ranking';
