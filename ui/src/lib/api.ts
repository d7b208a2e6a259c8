// The JSON API (docs/api.md) as the UI calls it: one function per route, each returning the parsed
// answer or throwing an ApiError that carries the server's message verbatim.

export type Attrs = Record<string, unknown>;

export interface Resource { attributes: Attrs; entity: string | null; dropped_attributes_count: number }
export interface Scope { name: string; version: string; attributes: Attrs }

export interface LogRow {
  time_unix_nano: string; observed_time_unix_nano: string; severity_number: number; severity_text: string;
  event_name: string; body: unknown; trace_id: string; span_id: string; flags: number;
  attributes: Attrs; resource: Resource; scope: Scope;
}

export interface SpanEvent { time_unix_nano: string; name: string; attributes: Attrs }
export interface SpanLink { trace_id: string; span_id: string; trace_state: string; attributes: Attrs }

export interface SpanRow {
  trace_id: string; span_id: string; parent_span_id: string; trace_state: string; flags: number; name: string; kind: number;
  start_time_unix_nano: string; end_time_unix_nano: string; duration_nano: string;
  status: { code: number; message: string }; attributes: Attrs; dropped_attributes_count: number;
  events: SpanEvent[]; dropped_events_count: number; links: SpanLink[]; dropped_links_count: number;
  resource: Resource; scope: Scope;
}

/** What a partial (cluster) answer may say about nodes that did not answer; absent today. */
export interface Partial { partial?: unknown; missing?: unknown; sources?: unknown }

export interface Page<R> extends Partial { rows: R[]; next?: string; stats?: Record<string, unknown>; refused?: unknown[] }

export interface Metric { name: string; type: string; unit: string; description: string }
export interface Point { time_unix_nano: string; value: number | string | null }
export interface Exemplar { time_unix_nano: string; value: number; trace_id: string; span_id: string }
export interface Series {
  name: string; type: string; unit: string; resource: { attributes: Attrs; entity: string | null };
  attributes: Attrs; points: Point[]; exemplars?: Exemplar[];
}

export interface MapNode { service: string; entities: number; spans: string; errors: string; p50_ms: number; p99_ms: number; virtual: boolean }
export interface MapEdge { from: string; to: string; calls: string; errors: string; p50_ms: number; p99_ms: number; kind: string }

export interface Frame {
  from: string; to: string; traces: string[];
  entities: { entity: string; 'service.name'?: string | null; identity?: Attrs }[];
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly column: number | null) {
    super(message);
  }
}

type Listener = (pending: number) => void;
let pending = 0;
const listeners = new Set<Listener>();

/** Calls `l` with the number of requests in flight whenever it changes. */
export function onPending(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

function bump(d: number): void {
  pending += d;
  for (const l of listeners) l(pending);
}

// A read token (docs/security.md), asked for when the API answers 401. It lives in sessionStorage:
// gone when the tab closes, never in the URL, so a copied link or an alert's link carries no secret.
const TOKEN_KEY = 'mira.token';

/** Why the UI asks for a token: none was sent, or the one sent was refused. */
export type TokenAsk = { refused: boolean };
type TokenListener = (ask: TokenAsk | null) => void;
const tokenListeners = new Set<TokenListener>();
let waiting: { promise: Promise<void>; resolve: () => void } | null = null;

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null; // storage disabled: every request goes without, and the prompt comes back
  }
}

/** Calls `l` with the open question (or null once answered) whenever the UI needs a token. */
export function onTokenNeeded(l: TokenListener): () => void {
  tokenListeners.add(l);
  return () => tokenListeners.delete(l);
}

/** Keeps `token` for this tab and retries every request that was waiting for one. */
export function provideToken(token: string): void {
  try {
    sessionStorage.setItem(TOKEN_KEY, token.trim());
  } catch {
    // Storage disabled: the token cannot be kept; the next 401 asks again.
  }
  const w = waiting;
  waiting = null;
  for (const l of tokenListeners) l(null);
  w?.resolve();
}

/** One shared wait, however many requests were refused at once. */
function needToken(refused: boolean): Promise<void> {
  if (!waiting) {
    let resolve = () => {};
    const promise = new Promise<void>((r) => { resolve = r; });
    waiting = { promise, resolve };
    for (const l of tokenListeners) l({ refused });
  }
  return waiting.promise;
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  bump(1);
  try {
    let res: Response;
    for (;;) {
      const token = storedToken();
      const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
      if (token) headers['Authorization'] = 'Bearer ' + token;
      res = await fetch(path, {
        method,
        signal,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 401 || tokenListeners.size === 0) break;
      // Not counted as in flight while the user types: the progress line is for the server's time.
      bump(-1);
      try {
        await needToken(token !== null);
      } finally {
        bump(1);
      }
      if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    }
    return await answer<T>(res);
  } finally {
    bump(-1);
  }
}

/** The parsed answer of a response, or the ApiError it carries. */
export async function answer<T>(res: Response): Promise<T> {
  if (res.ok) {
    // Parsed from the bytes, without a string of the whole body first (a 2,000-span trace is 1.4 MB).
    try {
      return (await res.json()) as T;
    } catch (e) {
      if (e instanceof SyntaxError) return null as T; // empty, or not JSON: as answerOf has it
      throw e;
    }
  }
  return answerOf<T>(res.status, res.statusText, await res.text());
}

/** The parsed answer of a response already read (`ok` is a 2xx status), or the ApiError it carries. */
export function answerOf<T>(status: number, statusText: string, text: string): T {
  let json: unknown = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page or a plain-text refusal. Shown as it came.
  }
  if (status < 200 || status > 299) {
    const o = (json ?? {}) as { error?: unknown; column?: unknown };
    const message = typeof o.error === 'string' ? o.error : text || status + ' ' + statusText;
    throw new ApiError(status, message, typeof o.column === 'number' ? o.column : null);
  }
  return json as T;
}

/** Counts `p` as a request in flight (the progress line) until it settles. */
export async function tracked<T>(p: Promise<T>): Promise<T> {
  bump(1);
  try {
    return await p;
  } finally {
    bump(-1);
  }
}

export interface Window { from: string; to: string }

/** The query document for a list: a signal's rows in a window, passing `q`, after a cursor. */
export function queryDoc(signal: 'logs' | 'traces', w: Window, q: string, limit: number, after?: string): Record<string, unknown> {
  const doc: Record<string, unknown> = { signal, from: w.from, to: w.to, limit };
  if (q.trim() !== '') doc.q = q;
  if (after) doc.after = after;
  return doc;
}

export function query<R>(signal: 'logs' | 'traces', w: Window, q: string, limit: number, after?: string,
  abort?: AbortSignal): Promise<Page<R>> {
  return call('POST', '/api/v1/query', queryDoc(signal, w, q, limit, after), abort);
}

/** A span of the trace route's compact shape (docs/api.md): a span row less its defaults, with indexes. */
export type CompactSpan = { [K in Exclude<keyof SpanRow, 'resource' | 'scope'>]?: SpanRow[K] } & { resource: number; scope: number };

export interface CompactTrace extends Page<CompactSpan> { trace_id: string; shape: 'compact'; resources: Resource[]; scopes: Scope[] }

/**
 * The spans of a compact trace as the full shape's span rows: the defaults put back and the
 * resource and scope objects shared by every span that names them (nothing is copied per span).
 */
export function expandTrace(t: CompactTrace): Page<SpanRow> & { trace_id: string } {
  const rows: SpanRow[] = new Array(t.rows.length);
  const noStatus = { code: 0, message: '' };
  for (let i = 0; i < t.rows.length; i++) {
    const c = t.rows[i];
    // Every key of the full shape, in its order, so a row is the one the full shape gives.
    rows[i] = {
      trace_id: t.trace_id, span_id: '', parent_span_id: '', trace_state: '', flags: 0, name: '', kind: 0,
      start_time_unix_nano: '0', end_time_unix_nano: '0', duration_nano: '0', status: noStatus, attributes: {},
      dropped_attributes_count: 0, events: [], dropped_events_count: 0, links: [], dropped_links_count: 0,
      ...(c as Omit<CompactSpan, 'resource' | 'scope'>),
      resource: t.resources[c.resource], scope: t.scopes[c.scope],
    } as SpanRow;
  }
  return { ...withoutTables(t), rows };
}

function withoutTables(t: CompactTrace): Omit<CompactTrace, 'resources' | 'scopes' | 'shape' | 'rows'> {
  const rest: { [K in keyof CompactTrace]?: CompactTrace[K] } = { ...t };
  delete rest.resources;
  delete rest.scopes;
  delete rest.shape;
  delete rest.rows;
  return rest as Omit<CompactTrace, 'resources' | 'scopes' | 'shape' | 'rows'>;
}

/** One trace, asked for in the compact shape (a 2,000-span trace: 1.4 MB in full) and expanded. */
export async function trace(id: string, abort?: AbortSignal): Promise<Page<SpanRow> & { trace_id: string }> {
  const t = await call<CompactTrace>('GET', '/api/v1/traces/' + encodeURIComponent(id) + '?shape=compact', undefined, abort);
  return expandTrace(t);
}

export function metrics(w: Window, abort?: AbortSignal): Promise<{ metrics: Metric[] } & Partial> {
  return call('GET', '/api/v1/metrics?from=' + encodeURIComponent(w.from) + '&to=' + encodeURIComponent(w.to), undefined, abort);
}

export function series(doc: Record<string, unknown>, abort?: AbortSignal): Promise<{ series: Series[]; stats?: Record<string, unknown> } & Partial> {
  return call('POST', '/api/v1/series', doc, abort);
}

export function correlate(doc: Record<string, unknown>, abort?: AbortSignal): Promise<{
  frame: Frame; truncated: { traces: boolean; entities: boolean }; anchor_rows: number;
  queries: Record<string, Record<string, unknown>>;
} & Partial> {
  return call('POST', '/api/v1/correlate', doc, abort);
}

export function serviceMap(doc: Record<string, unknown>, abort?: AbortSignal): Promise<{ nodes: MapNode[]; edges: MapEdge[]; truncated: boolean } & Partial> {
  return call('POST', '/api/v1/map', doc, abort);
}

export interface Alert {
  name: string; kind: string; signal: string; state: string; since: string | null; value: unknown;
  threshold: Record<string, unknown>; filter: string; link: string | null; error: string | null;
  window?: { from: string; to: string }; evaluated_at?: string | null;
}

export function alerts(abort?: AbortSignal): Promise<{ enabled: boolean; alerts: Alert[]; reload_error: string | null } & Partial> {
  return call('GET', '/api/v1/alerts', undefined, abort);
}

/** The nodes a partial answer says are missing, or null for a whole answer. */
export function missingNodes(answer: Partial | null | undefined): string[] | null {
  if (!answer) return null;
  const m = answer.missing ?? (typeof answer.partial === 'object' ? (answer.partial as { missing?: unknown })?.missing : undefined);
  if (Array.isArray(m) && m.length > 0) return m.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  if (answer.partial === true) return ['(unnamed)'];
  return null;
}
