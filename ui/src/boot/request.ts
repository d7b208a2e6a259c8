// The logs view's first page as a request, built from the location hash alone. This runs in the
// boot script, before the app's script has arrived, so it imports nothing of the app's (a module
// shared with it would make the boot chunk import it, and the build refuses that); lib/early.ts
// compares the body with the one the view would send and sends its own when they differ, and a
// unit test keeps the two the same.

export const BOOT_FIRST_PAGE = 100;
const TOKEN_KEY = 'mira.token';

export interface EarlyRequest { body: string; headers: Record<string, string> }

/** The request for the first logs page the hash opens, or null when it opens another view. */
export function earlyRequest(hash: string, token: string | null): EarlyRequest | null {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const at = h.indexOf('?');
  const path = (at < 0 ? h : h.slice(0, at)).replace(/^\/+/, '');
  if (path !== 'logs' && path !== '') {
    // Another tab by name, or a name the app does not know: then the app shows logs too, but the
    // case is rare enough to leave to it.
    return null;
  }
  const p = new URLSearchParams(at < 0 ? '' : h.slice(at + 1));
  const doc: Record<string, unknown> = { signal: 'logs', from: p.get('from') ?? '-1h', to: p.get('to') ?? 'now', limit: BOOT_FIRST_PAGE };
  const q = p.get('q') ?? '';
  if (q.trim() !== '') doc.q = q;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['Authorization'] = 'Bearer ' + token;
  return { body: JSON.stringify(doc), headers };
}

export function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** A response read whole: the boot script reads the body as it arrives, before the app is ready. */
export interface Answered { status: number; statusText: string; text: string }

/** What the boot script leaves for the app: the body it sent and the answer, once read. */
export interface Early { body: string; answer: Promise<Answered> }
