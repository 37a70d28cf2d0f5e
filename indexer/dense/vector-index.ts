/**
 * The dense layouts behind one surface: FAISS (Flat, IVF…, any factory string) and USearch HNSW
 * (`usearch:HNSW<M>,<scalar>`). sync.ts, dense-index.ts and verify.ts see only this.
 */
import { GuardedIndex } from './faiss-native';
import { isUsearchFactory, UsearchIndex } from './usearch-native';

export type VectorIndex = GuardedIndex | UsearchIndex;

export function createVectorIndex(dim: number, factory: string): VectorIndex {
  return isUsearchFactory(factory) ? UsearchIndex.create(dim, factory) : GuardedIndex.create(dim, factory);
}

/** `writable`: the index will be extended (a USearch index is then loaded whole, else memory-mapped). */
export function readVectorIndex(file: string, dim: number, factory: string, writable = false): VectorIndex {
  return isUsearchFactory(factory) ? UsearchIndex.read(file, dim, factory, writable) : GuardedIndex.read(file, dim, factory);
}

/** Whether the layout stores vectors as lossy codes (their cosine with themselves falls below 1). */
export function isLossyLayout(factory: string): boolean {
  return isUsearchFactory(factory) ? !/,f32$/.test(factory) : /PQ|SQ|LSH|RaBitQ/i.test(factory);
}

/** The file suffix of a layout's checkpoints. */
export function layoutSuffix(factory: string): string {
  return isUsearchFactory(factory) ? 'usearch' : 'faiss';
}
