// Next.js (app router) configuration for the web service. See README "Web service".
//
// Native modules and packages that load files at run time are not bundled: Next requires them from
// node_modules as they are (serverExternalPackages). The app imports the project's own TypeScript
// (crawler/, indexer/, ranking/, lib/) directly; Next compiles it.

/** @type {import('next').NextConfig} */
const nextConfig = {
  serverExternalPackages: [
    'better-sqlite3',
    'faiss-node',
    'usearch',
    'onnxruntime-node',
    '@prisma/client',
    '@prisma/adapter-better-sqlite3',
    '@prisma/adapter-pg',
    'pg',
    'jsdom',
    '@mozilla/readability',
    // One copy per process, not per route bundle: the article check's warm-up at start loads its lexicon once.
    'compromise',
    'rss-parser',
    'sax',
    'undici',
    'prom-client',
    'pino',
    'iconv-lite',
    '@huggingface/tokenizers',
  ],
  // The whole tree is type-checked by `npm test` (tsc --noEmit); doing it again here would only make
  // `npm start` slower on a fresh clone.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  experimental: { authInterrupts: true },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
        ],
      },
    ];
  },
};

export default nextConfig;
