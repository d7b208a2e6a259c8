// The whole view as one record, kept in the location hash: `#/<tab>?q=...&from=...&to=...`.
// Alert links (docs/alerting.md, "Links") are written in this form, so a link opens the view it names.

export type Tab = 'logs' | 'traces' | 'metrics' | 'map' | 'alerts';
export const TABS: readonly Tab[] = ['logs', 'traces', 'metrics', 'map', 'alerts'];

export interface View {
  tab: Tab;
  /** Filter text, sent unchanged as the documents' `q`. */
  q: string;
  /** Window ends as the API takes them: `-1h`, `now`, RFC 3339 or nanoseconds. */
  from: string;
  to: string;
  /** The trace open in the waterfall (32 hex digits), or ''. */
  trace: string;
  /** The span selected in the waterfall, or ''. */
  span: string;
  /** The selected row of the list: its time in nanoseconds and, for spans, its span id. */
  row: string;
  /** Frame expanders, comma-separated (`traces,peers,around:5s`); '' when the Frame panel is closed. */
  frame: string;
  /** Metrics: the metric and the series functions. */
  name: string;
  fn: string;
  quantile: string;
  groupBy: string;
  step: string;
  /** Refetch every 3 s while the list is at its top. */
  live: boolean;
}

export const DEFAULT_FROM = '-1h';
export const DEFAULT_TO = 'now';

export function defaultView(): View {
  return {
    tab: 'logs', q: '', from: DEFAULT_FROM, to: DEFAULT_TO, trace: '', span: '', row: '', frame: '',
    name: '', fn: '', quantile: '', groupBy: '', step: '', live: false,
  };
}

// Keys in the order they are written; a key at its default value is left out so links stay short.
const KEYS: readonly [keyof View, string][] = [
  ['q', 'q'], ['from', 'from'], ['to', 'to'], ['trace', 'trace'], ['span', 'span'], ['row', 'row'],
  ['frame', 'frame'], ['name', 'name'], ['fn', 'fn'], ['quantile', 'quantile'], ['groupBy', 'group_by'],
  ['step', 'step'], ['live', 'live'],
];

/** The view a hash names; anything it does not name keeps its default. */
export function parseHash(hash: string): View {
  const v = defaultView();
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  const at = h.indexOf('?');
  const path = (at < 0 ? h : h.slice(0, at)).replace(/^\/+/, '');
  if ((TABS as readonly string[]).includes(path)) {
    v.tab = path as Tab;
  }
  if (at < 0) {
    return v;
  }
  const params = new URLSearchParams(h.slice(at + 1));
  for (const [field, key] of KEYS) {
    const value = params.get(key);
    if (value === null) {
      continue;
    }
    if (field === 'live') {
      v.live = value === '1' || value === 'true';
    } else {
      (v as unknown as Record<string, string>)[field] = value;
    }
  }
  return v;
}

/** The hash of a view; `parseHash(formatHash(v))` equals `v`. */
export function formatHash(v: View): string {
  const d = defaultView();
  const parts: string[] = [];
  for (const [field, key] of KEYS) {
    const value = v[field];
    if (value === d[field]) {
      continue;
    }
    const text = field === 'live' ? '1' : String(value);
    parts.push(key + '=' + encodeURIComponent(text));
  }
  return '#/' + v.tab + (parts.length ? '?' + parts.join('&') : '');
}

/** A trace id alone in the filter box opens that trace instead of filtering. */
export function pastedTraceId(q: string): string | null {
  const m = /^\s*(?:trace_id=)?([0-9a-fA-F]{32})\s*$/.exec(q);
  return m ? m[1].toLowerCase() : null;
}

// Characters the filter grammar reserves (docs/api.md, "Filter text").
const RESERVED = /[\s"=!<>~?[\],]/;

/** A key or value written so the filter grammar reads it back as the same string. */
export function quote(text: string): string {
  if (text !== '' && !RESERVED.test(text) && !text.startsWith('-')) {
    return text;
  }
  let out = '"';
  for (const ch of text) {
    switch (ch) {
      case '"': out += '\\"'; break;
      case '\\': out += '\\\\'; break;
      case '\n': out += '\\n'; break;
      case '\t': out += '\\t'; break;
      case '\r': out += '\\r'; break;
      default: {
        const c = ch.codePointAt(0) ?? 0;
        out += c < 0x20 ? '\\u' + c.toString(16).padStart(4, '0') : ch;
      }
    }
  }
  return out + '"';
}

const FIELDS: Record<'logs' | 'traces', readonly string[]> = {
  logs: ['severity_number', 'severity_text', 'body', 'event_name', 'trace_id', 'span_id', 'flags'],
  traces: ['name', 'kind', 'status_code', 'duration_nano', 'trace_id', 'span_id', 'parent_span_id'],
};

/**
 * The term `key=value` for an attribute. A value that is a string in the data is quoted when it
 * would otherwise read as a number or boolean; a key that names a root field of the signal is quoted
 * so it stays an attribute.
 */
export function attrTerm(key: string, value: unknown, signal: 'logs' | 'traces'): string {
  const k = FIELDS[signal].includes(key) || /^entity$/.test(key) ? '"' + key + '"' : quote(key);
  return k + '=' + valueText(value);
}

/** A field (root column) term: `severity_number=17`, `trace_id=...`. */
export function fieldTerm(field: string, value: unknown): string {
  return field + '=' + valueText(value);
}

function valueText(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  // An int64 arrives as a decimal string; written bare it compares as a number, which is what it is.
  if (/^-?(0|[1-9][0-9]*)$/.test(s) || s === 'true' || s === 'false') {
    return s.startsWith('-') ? quote(s) : s;
  }
  if (/^-?[0-9]/.test(s) || s === 'null') {
    return '"' + s + '"';
  }
  return quote(s);
}

/** `q` with one more term, unless it already holds exactly that term. */
export function addTerm(q: string, term: string): string {
  const t = q.trim();
  if (t.split(/\s+/).includes(term)) {
    return t;
  }
  return t === '' ? term : t + ' ' + term;
}
