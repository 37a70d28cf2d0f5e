/**
 * Text shown to anyone who asks (the unauthenticated /api/health, a search response's warnings)
 * says what is wrong without the server's file system: an absolute path becomes its last two parts
 * (`quin-nli/model.onnx` says which model and which file), and the source locations onnxruntime puts
 * in its messages (`/onnxruntime_src/…/model.cc:187 onnxruntime::Model::Model(…)`) are dropped.
 * URLs are left as they are (`http://host:9200/` names a cluster, not a file).
 */

/** onnxruntime's "file:line Namespace::Function(signature)" prefix before the reason itself. */
const ORT_SOURCE = /\/onnxruntime_src\/\S+:\d+\s+(?:[\w:~<>]+\([^()]*\)\s*)?/g;

/** An absolute path: a slash not preceded by a word character, ':' or '/' (a URL), then two or more parts. */
const ABSOLUTE_PATH = /(?<![\w:/.-])\/(?:[\w.@+~-]+\/)+[\w.@+~-]*/g;

function shortPath(p: string): string {
  const parts = p.split('/').filter(Boolean);
  return parts.slice(-2).join('/');
}

export function withoutServerPaths(text: string): string {
  return text.replace(ORT_SOURCE, '').replace(ABSOLUTE_PATH, shortPath);
}
