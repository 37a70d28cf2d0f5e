/**
 * Published fact-checks: schema.org ClaimReview objects in a page's JSON-LD, as fact-checkers publish
 * their ratings (the markup Google's Fact Check Explorer reads). Real pages put them at the top
 * level, in an array, in an @graph with @id references, or inside another object (an Article's
 * `review`, a WebPage's `mainEntity`); the rating's words are in reviewRating.alternateName; the claim
 * is claimReviewed, with itemReviewed (a Claim) naming who made it and where it appeared. Pure: JSON-LD
 * text in, values out; anything malformed is skipped.
 */
import crypto from 'node:crypto';
import { isPlausibleDate, parseDate } from '../text/dates';

export interface ClaimReviewData {
  /** The review's url, else the page's. */
  reviewUrl: string;
  claim: string;
  /** sha256 of the normalised claim text. */
  claimHash: string;
  /** The verdict in words (reviewRating.alternateName, else its name). */
  rating: string | null;
  ratingValue: number | null;
  bestRating: number | null;
  worstRating: number | null;
  reviewer: string | null;
  reviewerUrl: string | null;
  claimant: string | null;
  appearanceUrl: string | null;
  claimDate: Date | null;
  reviewedAt: Date | null;
  language: string | null;
}

type Node = Record<string, unknown>;

const MAX_NODES = 2000;
const MAX_DEPTH = 10;
const TYPE = /^(?:https?:\/\/schema\.org\/|schema:)?ClaimReview$/i;

function types(n: Node): string[] {
  const t = n['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
}

/** Every object in the blocks (breadth-limited), and a map of the ones that have an @id. */
function walk(blocks: string[]): { nodes: Node[]; byId: Map<string, Node> } {
  const nodes: Node[] = [];
  const byId = new Map<string, Node>();
  const visit = (v: unknown, depth: number) => {
    if (nodes.length >= MAX_NODES || depth > MAX_DEPTH || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, depth + 1));
    const n = v as Node;
    nodes.push(n);
    if (typeof n['@id'] === 'string' && Object.keys(n).length > 1) byId.set(n['@id'], n);
    for (const [k, child] of Object.entries(n)) if (k !== '@context') visit(child, depth + 1);
  };
  for (const b of blocks) {
    try {
      visit(
        JSON.parse(
          b
            .trim()
            .replace(/^<!--|-->$/g, '')
            .replace(/^\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>$/g, ''),
        ),
        0,
      );
    } catch {
      // a broken JSON-LD block is common and harmless
    }
  }
  return { nodes, byId };
}

const text = (v: unknown, max = 2000): string | null =>
  typeof v === 'string' && v.trim() ? v.replace(/\s+/g, ' ').trim().slice(0, max) : null;

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function httpUrl(v: unknown, base: string): string | null {
  if (typeof v !== 'string' || !v.trim()) return null;
  try {
    const u = new URL(v.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

export function claimHash(claim: string): string {
  return crypto.createHash('sha256').update(claim.toLowerCase().replace(/\s+/g, ' ').trim()).digest('hex');
}

export function extractClaimReviews(blocks: string[], pageUrl: string, now = new Date()): ClaimReviewData[] {
  const { nodes, byId } = walk(blocks);
  /** A value, with an {"@id"} reference replaced by the node it names; the first of an array. */
  const deref = (v: unknown): Node | string | null => {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') return first;
    if (!first || typeof first !== 'object') return null;
    const n = first as Node;
    return typeof n['@id'] === 'string' && Object.keys(n).length === 1 ? (byId.get(n['@id']) ?? n) : n;
  };
  const nameOf = (v: unknown): string | null => {
    const d = deref(v);
    return typeof d === 'string' ? text(d, 300) : d ? (text(d.name, 300) ?? text(d.alternateName, 300)) : null;
  };
  const urlOf = (v: unknown): string | null => {
    const d = deref(v);
    return typeof d === 'string'
      ? httpUrl(d, pageUrl)
      : d
        ? (httpUrl(d.url, pageUrl) ?? httpUrl(d.sameAs, pageUrl) ?? httpUrl(d['@id'], pageUrl))
        : null;
  };
  const dateOf = (v: unknown): Date | null => {
    if (typeof v !== 'string') return null;
    const d = parseDate(v);
    return d && isPlausibleDate(d, now) ? d : null;
  };

  const out = new Map<string, ClaimReviewData>();
  for (const n of nodes) {
    if (!types(n).some((t) => TYPE.test(t))) continue;
    const itemD = deref(n.itemReviewed);
    const item = itemD && typeof itemD === 'object' ? itemD : null;
    const claim = text(n.claimReviewed) ?? (item ? (text(item.text) ?? text(item.name)) : null);
    if (!claim) continue;
    const ratingD = deref(n.reviewRating);
    const rating = ratingD && typeof ratingD === 'object' ? ratingD : null;
    const langD = deref(n.inLanguage);
    const reviewUrl = httpUrl(n.url, pageUrl) ?? pageUrl;
    const data: ClaimReviewData = {
      reviewUrl,
      claim,
      claimHash: claimHash(claim),
      rating: rating
        ? (text(rating.alternateName, 300) ?? text(rating.name, 300) ?? (rating.ratingValue != null ? String(rating.ratingValue) : null))
        : null,
      ratingValue: rating ? num(rating.ratingValue) : null,
      bestRating: rating ? num(rating.bestRating) : null,
      worstRating: rating ? num(rating.worstRating) : null,
      reviewer: nameOf(n.author),
      reviewerUrl: urlOf(n.author),
      claimant: item ? nameOf(item.author) : null,
      appearanceUrl: item ? (urlOf(item.firstAppearance) ?? urlOf(item.appearance) ?? httpUrl(item.url, pageUrl)) : null,
      claimDate: item ? dateOf(item.datePublished) : null,
      reviewedAt: dateOf(n.datePublished) ?? dateOf(n.dateCreated),
      language: typeof langD === 'string' ? text(langD, 20) : langD ? text(langD.alternateName, 20) : null,
    };
    out.set(`${reviewUrl}\n${data.claimHash}`, data);
  }
  return [...out.values()];
}
