/** HTML form posts (the dashboard works without JavaScript): body parsing and signed notices for the redirect. */
import { signFlash, type Flash } from '../../lib/web/flash';
import { auth } from './services';

export function isFormPost(req: Request): boolean {
  const type = req.headers.get('content-type') ?? '';
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

export async function formFields(req: Request): Promise<Record<string, string>> {
  const form = await req.formData();
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === 'string') out[k] = v;
  return out;
}

/** `path` with a signed notice appended, for a 303 after a form post. */
export async function withFlash(path: string, flash: Flash): Promise<string> {
  const url = new URL(path, 'http://local');
  url.searchParams.set('flash', signFlash((await auth()).secret, flash));
  return url.pathname + url.search;
}
