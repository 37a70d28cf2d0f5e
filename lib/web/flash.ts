/**
 * One-shot notices after a form post ("Feed added", "Could not add the feed: ..."), carried in the
 * redirect URL and signed, so that a crafted link cannot make the dashboard display text of its choosing.
 */
import crypto from 'node:crypto';

export interface Flash {
  kind: 'ok' | 'error';
  text: string;
}

const mac = (secret: string, body: string) => crypto.createHmac('sha256', secret).update(`flash:${body}`).digest('base64url').slice(0, 22);

export function signFlash(secret: string, flash: Flash, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ k: flash.kind, t: flash.text.slice(0, 400), at: now })).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The notice, or null when the token is absent, forged or older than ten minutes. */
export function readFlash(secret: string, token: string | undefined | null, now = Date.now()): Flash | null {
  if (!token || token.length > 2000) return null;
  const [body, sig] = token.split('.');
  if (!body || !sig) return null;
  const want = mac(secret, body);
  if (sig.length !== want.length || !crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(want))) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { k: string; t: string; at: number };
    if (now - p.at > 600_000 || (p.k !== 'ok' && p.k !== 'error') || typeof p.t !== 'string') return null;
    return { kind: p.k, text: p.t };
  } catch {
    return null;
  }
}
