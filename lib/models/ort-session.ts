/**
 * The one place that opens onnxruntime sessions: execution provider and threads come from the
 * configuration (QUIN_ORT_PROVIDER, QUIN_ORT_THREADS), inputs are fed by the names the model declares
 * (BERT exports take token_type_ids, DeBERTa and our own models may not). Each session runs in a
 * worker thread of its own (ort-thread.ts), off the process's event loop.
 */
import fs from 'node:fs';
import type * as ort from 'onnxruntime-node';
import { createError } from '../errors';
import { ThreadSession, type PlainOutputs, type PlainTensor } from './ort-thread';
import type { EncodedBatch } from './tokenizer';

export { ThreadSession, type PlainOutputs, type PlainTensor } from './ort-thread';

export interface RuntimeOptions {
  /** Intra-op threads; 0 = onnxruntime's default. */
  threads: number;
  provider: 'cpu' | 'cuda';
}

/**
 * Whether a CPU whose /proc/cpuinfo reads `cpuinfo` computes onnxruntime's fast int8 product exactly:
 * VNNI (`avx512_vnni`, or `avx_vnni` on CPUs without AVX-512) adds u8 × s8 products in 32 bits.
 */
export function hasVnni(cpuinfo: string): boolean {
  const flags = new Set(/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1]?.trim().split(/\s+/) ?? []);
  return flags.has('avx512_vnni') || flags.has('avx_vnni');
}

let exactInt8: boolean | undefined;

/**
 * Whether sessions must ask for the exact int8 product (x64quantprecision). On x86 CPUs without VNNI
 * (AVX2 only: AMD Zen 3, Xeons before Cascade Lake) onnxruntime's fast u8 × s8 product adds pairs of
 * products in 16 bits and saturates, so our int8 models scored differently there than where they were
 * exported and evaluated (a reranker logit off by 0.10, the verdict pins' refutes precision 0.8615 →
 * 0.8507 on an AMD EPYC Zen 3). With VNNI the fast product is already exact, and asking for the u8 × u8
 * one there made the reranker and the NLI model 2–3 times slower for the same outputs (a Xeon with
 * VNNI and AMX, 2026-12-01). Where the CPU cannot be read (not Linux), the exact product is asked for.
 */
export function exactInt8Needed(): boolean {
  if (exactInt8 === undefined) {
    let cpuinfo = '';
    try {
      cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      // not Linux: keep the exact product
    }
    exactInt8 = !hasVnni(cpuinfo);
  }
  return exactInt8;
}

export function sessionOptions(opts: RuntimeOptions): ort.InferenceSession.SessionOptions {
  const providers: ort.InferenceSession.ExecutionProviderConfig[] = opts.provider === 'cuda' ? [{ name: 'cuda', deviceId: 0 }, 'cpu'] : ['cpu'];
  return {
    executionProviders: providers,
    graphOptimizationLevel: 'all',
    ...(opts.threads > 0 ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {}),
    // onnxruntime's pool threads spin after each run waiting for the next (35 ms of CPU in the 100 ms
    // after a reranker batch here): on two cores that took the search's own BM25 and dense threads'
    // time. Not spinning costs the model nothing measurable (797 vs 787 ms a batch of 30 × 256).
    extra: {
      session: {
        intra_op: { allow_spinning: '0' },
        inter_op: { allow_spinning: '0' },
        ...(exactInt8Needed() ? { x64quantprecision: '1' } : {}),
      },
    },
  };
}

/** onnxruntime's reason without its wrapping ("Load model from <path> failed:") and source location. */
function ortReason(message: string): string {
  return message
    .replace(/^Load model from .*? failed:\s*/s, '')
    .replace(/\/onnxruntime_src\/\S+:\d+\s+(?:[\w:~<>]+\([^()]*\)\s*)?/g, '')
    .trim();
}

/** What a file onnxruntime cannot parse is: cut short or damaged (a download or copy that did not finish). */
const NOT_A_MODEL = /protobuf parsing failed|does not have a graph|invalid (?:protobuf|model)|no graph|failed to load model/i;

export async function openSession(onnxPath: string, opts: RuntimeOptions): Promise<ThreadSession> {
  try {
    return await ThreadSession.open(onnxPath, sessionOptions(opts) as Record<string, unknown>);
  } catch (e) {
    const reason = ortReason((e as Error).message);
    const size = fs.statSync(onnxPath, { throwIfNoEntry: false })?.size;
    const what = NOT_A_MODEL.test(reason)
      ? `it is not a whole ONNX model (${reason.replace(/\.$/, '')}; ${size ?? '?'} bytes): the file was cut short or damaged, copy or download it again`
      : reason;
    const hint =
      opts.provider === 'cuda'
        ? ' (the CUDA provider needs a GPU, CUDA 12 + cuDNN 9 and onnxruntime-node installed with its CUDA binaries: reinstall it without ONNXRUNTIME_NODE_INSTALL=skip; or set QUIN_ORT_PROVIDER=cpu)'
        : '';
    throw createError('MODEL_UNAVAILABLE', `onnxruntime (${opts.provider}) cannot open ${onnxPath}${hint}: ${what}`, undefined, e);
  }
}

/** Feeds for a tokenized batch, limited to the inputs the model declares. */
export function feedsFor(session: Pick<ThreadSession, 'inputNames'>, enc: EncodedBatch): Record<string, PlainTensor> {
  const dims = [enc.batch, enc.seqLen];
  const available: Record<string, BigInt64Array> = {
    input_ids: enc.inputIds,
    attention_mask: enc.attentionMask,
    token_type_ids: enc.tokenTypeIds,
  };
  const feeds: Record<string, PlainTensor> = {};
  for (const name of session.inputNames) {
    const data = available[name];
    if (!data) throw createError('MODEL_INVALID', `model input "${name}" is not one of ${Object.keys(available).join(', ')}`);
    feeds[name] = { type: 'int64', data, dims };
  }
  return feeds;
}

/** A float output as a plain Float32Array with its dims. */
export function floatOutput(out: PlainOutputs, name: string): { data: Float32Array; dims: readonly number[] } {
  const t = out[name];
  if (!t) throw createError('MODEL_INVALID', `model has no output "${name}" (outputs: ${Object.keys(out).join(', ')})`);
  if (t.type !== 'float32') throw createError('MODEL_INVALID', `model output "${name}" is ${t.type}, expected float32`);
  return { data: t.data as Float32Array, dims: t.dims };
}
