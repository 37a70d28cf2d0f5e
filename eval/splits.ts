/**
 * Our own split of the shared training claims into train and development parts. Everything tuned
 * (fusion weights, reranker/NLI training, thresholds) uses only `train` to fit and `dev` to choose;
 * the project is judged on claims we do not have. Deterministic: a claim's part depends only on its
 * id, so adding or reordering claims never moves one across.
 */
import crypto from 'node:crypto';

export type Split = 'train' | 'dev';

/** About 30% of claims go to dev. */
export const DEV_FRACTION = 0.3;

export function splitOf(dataset: 'scifact' | 'climate-fever', claimId: string | number): Split {
  const h = crypto.createHash('sha256').update(`${dataset}:${claimId}`).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < DEV_FRACTION ? 'dev' : 'train';
}

/**
 * A fixed part of the `train` claims held out from training the encoder, so that what is fitted on
 * top of the encoder (the fusion weight, by k-fold cross-validation) sees claims the encoder never
 * saw: fitted on claims it was trained on, the dense run looks perfect and takes all the weight.
 * About a third of train; deterministic like splitOf (its own hash).
 */
export const HOLDOUT_FRACTION = 1 / 3;

export function trainPart(dataset: 'scifact' | 'climate-fever', claimId: string | number): 'fit' | 'holdout' {
  const h = crypto.createHash('sha256').update(`${dataset}:holdout:${claimId}`).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < HOLDOUT_FRACTION ? 'holdout' : 'fit';
}
