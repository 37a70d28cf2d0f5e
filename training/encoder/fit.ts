/**
 * The numerical part of the distillation (pure, on typed arrays; row-major matrices):
 * - PCA of the teacher's sentence vectors (uncentred, so that inner products are kept as well as
 *   `dim` dimensions can keep them) — model2vec's reduction;
 * - SIF weights a / (a + p(token)) folded into the token vectors — model2vec's weighting;
 * - tokenlearn's fit: token vectors E such that each training sentence's mean token vector matches
 *   the teacher's (projected) sentence vector, in least squares, pulled towards the weighted
 *   model2vec vectors E0 (so that tokens rare in the training sentences keep their teacher meaning):
 *     minimise (1/N) Σ_s ‖mean_{t∈s} E_t − y_s‖² + (λ/V) Σ_t ‖E_t − c·E0_t‖²,
 *   solved exactly by conjugate gradients on the normal equations, one system per output dimension.
 */
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/** Token ids of each training sentence: ids[start[s] .. start[s+1]). */
export interface Design {
  start: Uint32Array;
  ids: Int32Array;
}

export function design(encoded: readonly number[][]): Design {
  const start = new Uint32Array(encoded.length + 1);
  let n = 0;
  encoded.forEach((e, i) => {
    start[i] = n;
    n += e.length;
  });
  start[encoded.length] = n;
  const ids = new Int32Array(n);
  encoded.forEach((e, i) => ids.set(e, start[i]!));
  return { start, ids };
}

/** The top `dim` eigenvectors of XᵀX / n (columns of the returned in × dim matrix) and their share of the energy. */
export function pca(x: Float32Array, inDim: number, dim: number): { proj: Float64Array; kept: number } {
  const n = x.length / inDim;
  const m = new Float64Array(inDim * inDim);
  const row = new Float64Array(inDim);
  for (let r = 0; r < n; r++) {
    for (let j = 0; j < inDim; j++) row[j] = x[r * inDim + j]!;
    for (let a = 0; a < inDim; a++) {
      const va = row[a]!;
      if (va === 0) continue;
      const off = a * inDim;
      for (let b = a; b < inDim; b++) m[off + b]! += va * row[b]!;
    }
  }
  const rows: number[][] = [];
  for (let a = 0; a < inDim; a++) rows.push(Array.from({ length: inDim }, (_, b) => (a <= b ? m[a * inDim + b]! : m[b * inDim + a]!) / n));
  const evd = new EigenvalueDecomposition(new Matrix(rows), { assumeSymmetric: true });
  const values = evd.realEigenvalues;
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const vectors = evd.eigenvectorMatrix;
  const proj = new Float64Array(inDim * dim);
  for (let k = 0; k < dim; k++) {
    const col = order[k]![1];
    // A fixed sign per component (largest entry positive), so that the output does not depend on the solver.
    let big = 0;
    for (let a = 0; a < inDim; a++) if (Math.abs(vectors.get(a, col)) > Math.abs(big)) big = vectors.get(a, col);
    const sign = big < 0 ? -1 : 1;
    for (let a = 0; a < inDim; a++) proj[a * dim + k] = sign * vectors.get(a, col);
  }
  const total = values.reduce((s, v) => s + Math.max(0, v), 0);
  const kept = order.slice(0, dim).reduce((s, [v]) => s + Math.max(0, v), 0) / total;
  return { proj, kept };
}

/** X (n × inDim) · P (inDim × dim). */
export function project(x: Float32Array, inDim: number, proj: Float64Array, dim: number): Float64Array {
  const n = x.length / inDim;
  const out = new Float64Array(n * dim);
  for (let r = 0; r < n; r++) {
    const o = r * dim;
    for (let a = 0; a < inDim; a++) {
      const v = x[r * inDim + a]!;
      if (v === 0) continue;
      const p = a * dim;
      for (let k = 0; k < dim; k++) out[o + k]! += v * proj[p + k]!;
    }
  }
  return out;
}

/** SIF weights a / (a + p) from token counts. */
export function sifWeights(counts: Float64Array, a = 1e-3): Float64Array {
  const total = counts.reduce((s, c) => s + c, 0) || 1;
  return counts.map((c) => a / (a + c / total));
}

/** Y = A·E: each sentence's mean token vector. */
function meanRows(d: Design, e: Float64Array, dim: number, out: Float64Array): void {
  const n = d.start.length - 1;
  out.fill(0);
  for (let s = 0; s < n; s++) {
    const a = d.start[s]!;
    const b = d.start[s + 1]!;
    if (a === b) continue;
    const inv = 1 / (b - a);
    const o = s * dim;
    for (let t = a; t < b; t++) {
      const off = d.ids[t]! * dim;
      for (let k = 0; k < dim; k++) out[o + k]! += inv * e[off + k]!;
    }
  }
}

/** out += scale · Aᵀ·Y. */
function addTransposed(d: Design, y: Float64Array, dim: number, scale: number, out: Float64Array): void {
  const n = d.start.length - 1;
  for (let s = 0; s < n; s++) {
    const a = d.start[s]!;
    const b = d.start[s + 1]!;
    if (a === b) continue;
    const f = scale / (b - a);
    const o = s * dim;
    for (let t = a; t < b; t++) {
      const off = d.ids[t]! * dim;
      for (let k = 0; k < dim; k++) out[off + k]! += f * y[o + k]!;
    }
  }
}

export interface FitOptions {
  lambda: number;
  iterations: number;
  log?: (line: string) => void;
}

/** The best global scale c for c·E0 alone (least squares over the sentences). */
export function anchorScale(d: Design, e0: Float64Array, y: Float64Array, dim: number): number {
  const pred = new Float64Array(y.length);
  meanRows(d, e0, dim, pred);
  let num = 0;
  let den = 0;
  for (let i = 0; i < y.length; i++) {
    num += pred[i]! * y[i]!;
    den += pred[i]! * pred[i]!;
  }
  return den > 0 ? num / den : 1;
}

/**
 * Solves (AᵀA/N + λ/V·I) E = AᵀY/N + λ/V·anchor by conjugate gradients, each output dimension its own
 * system (own step sizes), starting from the anchor.
 */
export function fitTokens(d: Design, y: Float64Array, anchor: Float64Array, vocab: number, dim: number, opts: FitOptions): Float64Array {
  const nSent = d.start.length - 1;
  const reg = opts.lambda / vocab;
  const applyM = (p: Float64Array, out: Float64Array, tmp: Float64Array) => {
    meanRows(d, p, dim, tmp);
    for (let i = 0; i < out.length; i++) out[i] = reg * p[i]!;
    addTransposed(d, tmp, dim, 1 / nSent, out);
  };
  const e = Float64Array.from(anchor);
  const tmp = new Float64Array(nSent * dim);
  const r = new Float64Array(vocab * dim);
  // r = b − M·e, with b = AᵀY/N + reg·anchor
  applyM(e, r, tmp);
  for (let i = 0; i < r.length; i++) r[i] = reg * anchor[i]! - r[i]!;
  addTransposed(d, y, dim, 1 / nSent, r);
  const p = Float64Array.from(r);
  const mp = new Float64Array(vocab * dim);
  const rr = colDots(r, r, dim);
  const rr0 = rr.reduce((s, v) => s + v, 0);
  for (let it = 0; it < opts.iterations; it++) {
    applyM(p, mp, tmp);
    const pmp = colDots(p, mp, dim);
    const alpha = rr.map((v, k) => (pmp[k]! > 0 ? v / pmp[k]! : 0));
    for (let o = 0; o < e.length; o += dim) {
      for (let k = 0; k < dim; k++) {
        e[o + k]! += alpha[k]! * p[o + k]!;
        r[o + k]! -= alpha[k]! * mp[o + k]!;
      }
    }
    const rrNew = colDots(r, r, dim);
    const beta = rrNew.map((v, k) => (rr[k]! > 0 ? v / rr[k]! : 0));
    for (let o = 0; o < p.length; o += dim) for (let k = 0; k < dim; k++) p[o + k] = r[o + k]! + beta[k]! * p[o + k]!;
    rr.set(rrNew);
    if ((it + 1) % 10 === 0)
      opts.log?.(`cg ${it + 1}/${opts.iterations}: residual ${(rr.reduce((s, v) => s + v, 0) / rr0).toExponential(2)}`);
  }
  return e;
}

function colDots(a: Float64Array, b: Float64Array, dim: number): Float64Array {
  const out = new Float64Array(dim);
  for (let o = 0; o < a.length; o += dim) for (let k = 0; k < dim; k++) out[k]! += a[o + k]! * b[o + k]!;
  return out;
}

/** Mean cosine between each sentence's (normalised) mean token vector and its target. */
export function meanCosine(d: Design, e: Float64Array, y: Float64Array, dim: number): number {
  const n = d.start.length - 1;
  const pred = new Float64Array(n * dim);
  meanRows(d, e, dim, pred);
  let sum = 0;
  for (let s = 0; s < n; s++) {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let k = 0; k < dim; k++) {
      const a = pred[s * dim + k]!;
      const b = y[s * dim + k]!;
      dot += a * b;
      na += a * a;
      nb += b * b;
    }
    sum += na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
  }
  return sum / n;
}
