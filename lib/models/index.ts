/**
 * lib/models: the one ONNX model runtime (onnxruntime-node + Hugging Face tokenizers.js) behind every
 * model role: sentence encoder, cross-encoder reranker, NLI classifier. See docs/models.md.
 */
export { readModelFolder, labelsFrom, poolingFrom, type ModelFolder, type Pooling } from './folder';
export { TextTokenizer, truncateLongestFirst, type EncodedBatch } from './tokenizer';
export { sessionOptions, openSession, type RuntimeOptions } from './ort-session';
export { TextModel, type TextModelOptions, type TextInput } from './text-model';
export { SentenceEncoder } from './encoder';
export { CrossEncoder } from './cross-encoder';
export { NliClassifier, nliLabelIndex, type NliLabel, type NliProbs } from './nli';
export { DEFAULT_MODELS, resolveModelDir, loadRoleModel, closeLoadedModels, runtimeOptions, folderNameOf, MODEL_BATCH_SIZE, type ModelRole } from './registry';
export { softmax, normalize } from './pooling';
