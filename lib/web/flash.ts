/**
 * One-shot notices after a form post ("Feed added", "Could not add the feed: ..."), carried in the
 * redirect URL and signed, so that a crafted link cannot make the dashboard display text of its
 * choosing. A notice about a failed "add" also carries the URL the admin typed (the form shows it
 * again) and the feeds the page links to (offered as one-click additions).
 */
import crypto from 'node:crypto';

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
  /** The URL the admin typed, kept for the form after an error. */
  url?: string;
  /** Feeds the typed page links to (http(s) URLs), offered for adding in one click. */
  found?: string[];
  /** A place on the dashboard the notice is about (a feed's row: "#feed-13"), linked after the text. */
  link?: { href: string; text: string };
}

/** Only links within the dashboard: a fragment, or an /admin path. */
const LOCAL_LINK = /^(#[\w-]+|\/admin(?:[/?#][^\s]*)?)$/;

const mac = (secret: string, body: string) => crypto.createHmac('sha256', secret).update(`flash:${body}`).digest('base64url').slice(0, 22);
const MAX_TOKEN = 6000;

export function signFlash(secret: string, flash: Flash, now = Date.now()): string {
  const payload: Record<string, unknown> = { k: flash.kind, t: flash.text.slice(0, 400), at: now };
  if (flash.url) payload.u = flash.url.slice(0, 1000);
  if (flash.found?.length) payload.f = flash.found.slice(0, 5).map((u) => u.slice(0, 500));
  if (flash.link && LOCAL_LINK.test(flash.link.href)) payload.l = [flash.link.href.slice(0, 200), flash.link.text.slice(0, 100)];
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The notice, or null when the token is absent, forged or older than ten minutes. */
export function readFlash(secret: string, token: string | undefined | null, now = Date.now()): Flash | null {
  if (!token || token.length > MAX_TOKEN) return null;
  const [body, sig] = token.split('.');
  if (!body || !sig) return null;
  const want = mac(secret, body);
  if (sig.length !== want.length || !crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(want))) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      k: string;
      t: string;
      at: number;
      u?: unknown;
      f?: unknown;
      l?: unknown;
    };
    if (now - p.at > 600_000 || (p.k !== 'ok' && p.k !== 'error') || typeof p.t !== 'string') return null;
    const flash: Flash = { kind: p.k, text: p.t };
    if (typeof p.u === 'string') flash.url = p.u;
    if (Array.isArray(p.f)) flash.found = p.f.filter((u): u is string => typeof u === 'string' && /^https?:\/\//i.test(u));
    if (Array.isArray(p.l) && typeof p.l[0] === 'string' && typeof p.l[1] === 'string' && LOCAL_LINK.test(p.l[0]))
      flash.link = { href: p.l[0], text: p.l[1] };
    return flash;
  } catch {
    return null;
  }
}
