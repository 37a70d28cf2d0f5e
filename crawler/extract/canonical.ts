/**
 * Canonical article URLs, the de-duplication key: lower-case scheme and host, no default port, no
 * fragment, no tracking parameters. A page's rel=canonical is trusted only when it stays on the same
 * site, so that a hostile page cannot claim (and overwrite) another site's article. Pure.
 */

const TRACKING_PARAMS = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'ocid',
  'ncid',
  'cmpid',
  'sr_share',
  'ref_src',
  'ref_url',
  'smid',
  'smtyp',
  'xtor',
  'wt_mc',
  'wt_zmc',
  'at_medium',
  'at_campaign',
  'at_custom1',
  'at_custom2',
  'at_custom3',
  'at_custom4',
  'guccounter',
  'guce_referrer',
  'guce_referrer_sig',
  'spm',
  'icid',
  'cmp',
  'rss',
]);

export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || n.startsWith('pk_') || n.startsWith('hmb_') || TRACKING_PARAMS.has(n);
}

/** The canonical form of an http(s) URL, or null when it is not one. */
export function canonicalUrl(raw: string, base?: string): string | null {
  let u: URL;
  try {
    u = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.hash = '';
  u.username = '';
  u.password = '';
  for (const name of [...u.searchParams.keys()]) if (isTrackingParam(name)) u.searchParams.delete(name);
  if (u.search === '?') u.search = '';
  return u.href;
}

function siteOf(host: string): string {
  const labels = host
    .toLowerCase()
    .replace(/^(?:www\d?|m|amp|mobile)\./, '')
    .split('.');
  // Keep three labels under two-letter second-level domains such as co.uk or com.br.
  const keep = labels.length > 2 && labels[labels.length - 2]!.length <= 3 && labels[labels.length - 1]!.length === 2 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** True when two URLs belong to the same site (same registrable domain, roughly). */
export function sameSite(a: string, b: string): boolean {
  try {
    return siteOf(new URL(a).hostname) === siteOf(new URL(b).hostname);
  } catch {
    return false;
  }
}

/** The page's claimed canonical URL when it is usable and on the same site, else the fetched URL. */
export function chooseCanonical(pageUrl: string, claimed: string | null): string {
  const own = canonicalUrl(pageUrl) ?? pageUrl;
  if (!claimed) return own;
  const c = canonicalUrl(claimed, pageUrl);
  return c && sameSite(c, pageUrl) ? c : own;
}
