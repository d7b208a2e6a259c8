// The waterfall's layout: span rows to bars on one time axis, nested under their parents. Pure, so
// the unit tests check nesting, clock skew and missing parents without a browser.

export interface SpanLike {
  span_id: string;
  parent_span_id: string;
  start_time_unix_nano: string;
  end_time_unix_nano: string;
  status: { code: number };
  resource: { attributes: Record<string, unknown> };
}

export interface Bar<S extends SpanLike> {
  span: S;
  depth: number;
  /** Start and end in nanoseconds from the trace's start, after any skew correction. */
  start: number;
  end: number;
  service: string;
  error: boolean;
  childCount: number;
  /** The parent id names a span that is not in the trace (not stored, or not yet). */
  orphan: boolean;
  /** Nanoseconds this span's subtree was shifted to sit inside its parent (another service's clock). */
  skew: number;
  critical: boolean;
}

export interface Layout<S extends SpanLike> {
  /** Every span, parents before children, siblings by start time. */
  bars: Bar<S>[];
  /** The trace's length in nanoseconds (at least 1). */
  duration: number;
  /** The absolute start of the axis, nanoseconds since the epoch. */
  origin: bigint;
}

export function serviceOf(s: SpanLike): string {
  const v = s.resource?.attributes?.['service.name'];
  return typeof v === 'string' ? v : 'unknown_service';
}

// A time is a decimal string of nanoseconds since the epoch (19 digits today): too many for a
// double, so a time is only ever used as an offset from the trace's origin. A BigInt per time was
// most of the layout of a 2,000-span trace (9-10 ms of it warm, 49 ms cold, on a loaded two-core
// machine); times that share all but their last 15 digits with the origin are subtracted as
// doubles instead, which is exact (10^15 < 2^53), and only the others take a BigInt.

/** Whether `s` is a set time: digits without a leading zero ("0" is OTLP's unset). */
function isTime(s: string): boolean {
  return /^[1-9][0-9]*$/.test(s);
}

/** Whether time `a` is before time `b` (both `isTime`): by length, then digit by digit. */
function before(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

const LOW = 15;

/** Nanoseconds from `origin` to `t`, both `isTime`. */
function since(t: string, origin: string): number {
  if (t.length === origin.length) {
    if (t.length <= LOW) return Number(t) - Number(origin);
    const cut = t.length - LOW;
    if (t.startsWith(origin.slice(0, cut))) return Number(t.slice(cut)) - Number(origin.slice(cut));
  }
  return Number(BigInt(t) - BigInt(origin));
}

export function layout<S extends SpanLike>(spans: readonly S[]): Layout<S> {
  let origin: string | null = null;
  for (const s of spans) {
    const t = isTime(s.start_time_unix_nano) ? s.start_time_unix_nano : isTime(s.end_time_unix_nano) ? s.end_time_unix_nano : null;
    if (t !== null && (origin === null || before(t, origin))) origin = t;
  }
  const base = origin === null ? 0n : BigInt(origin);
  const byId = new Map<string, S>();
  for (const s of spans) if (!byId.has(s.span_id)) byId.set(s.span_id, s);
  const children = new Map<string, S[]>();
  const roots: S[] = [];
  for (const s of spans) {
    const p = s.parent_span_id;
    if (p && p !== s.span_id && byId.has(p)) {
      const list = children.get(p) ?? [];
      list.push(s);
      children.set(p, list);
    } else {
      roots.push(s);
    }
  }
  // Each span's times are parsed once: the sort below compares them n·log n times.
  const times = new Map<S, [number, number]>();
  for (const s of spans) {
    const a = isTime(s.start_time_unix_nano) ? s.start_time_unix_nano : null;
    const b = isTime(s.end_time_unix_nano) ? s.end_time_unix_nano : null;
    // origin is set whenever some span has a time, and so whenever a or b is not null.
    const start = a === null ? (b === null ? 0 : since(b, origin!)) : since(a, origin!);
    const end = b === null ? start : Math.max(start, since(b, origin!));
    times.set(s, [start, end]);
  }
  const rel = (s: S): [number, number] => times.get(s)!;
  const byStart = (x: S, y: S) => {
    const d = rel(x)[0] - rel(y)[0];
    return d !== 0 ? d : x.span_id < y.span_id ? -1 : x.span_id > y.span_id ? 1 : 0;
  };
  roots.sort(byStart);
  for (const list of children.values()) list.sort(byStart);

  const bars: Bar<S>[] = [];
  const barOf = new Map<S, Bar<S>>();
  const seen = new Set<S>();
  // Iterative depth-first walk: a trace of thousands of nested spans must not overflow the stack,
  // and `seen` breaks a parent cycle, whose spans are then drawn as roots.
  const visit = (root: S) => {
    const stack: { s: S; depth: number; shift: number; parent: Bar<S> | null }[] = [
      { s: root, depth: 0, shift: 0, parent: null },
    ];
    while (stack.length) {
      const { s, depth, shift, parent } = stack.pop()!;
      if (seen.has(s)) continue;
      seen.add(s);
      let [start, end] = rel(s);
      start += shift;
      end += shift;
      const service = serviceOf(s);
      let skew = 0;
      if (parent && parent.service !== service) {
        // Two services' clocks disagree when a child pokes out of its parent. If it fits, centre it:
        // the network time on either side of the call is unknown, and half each is the best guess.
        const len = end - start;
        const plen = parent.end - parent.start;
        if ((start < parent.start || end > parent.end) && len <= plen) {
          skew = parent.start + (plen - len) / 2 - start;
          start += skew;
          end += skew;
        }
      }
      const kids = children.get(s.span_id) ?? [];
      const bar: Bar<S> = {
        span: s, depth, start, end, service, error: s.status?.code === 2, childCount: kids.length,
        orphan: parent === null && !!s.parent_span_id && !byId.has(s.parent_span_id), skew, critical: false,
      };
      bars.push(bar);
      barOf.set(s, bar);
      for (let i = kids.length - 1; i >= 0; i--) {
        stack.push({ s: kids[i], depth: depth + 1, shift: shift + skew, parent: bar });
      }
    }
  };
  for (const r of roots) visit(r);
  for (const s of spans) if (!seen.has(s)) visit(s);

  let duration = 1;
  for (const b of bars) duration = Math.max(duration, b.end);
  for (const r of roots) markCritical(r, barOf, children, Infinity);
  return { bars, duration, origin: base };
}

// The critical path: from a span's end walk back through the child that finished last before the
// cursor, then the one that finished last before that child started, and so on. What it marks is
// the work the span waited for; speeding up anything else would not end the trace sooner.
function markCritical<S extends SpanLike>(root: S, barOf: Map<S, Bar<S>>, children: Map<string, S[]>, limit: number): void {
  const work: { s: S; limit: number }[] = [{ s: root, limit }];
  const done = new Set<S>();
  while (work.length) {
    const { s, limit: until } = work.pop()!;
    const bar = barOf.get(s);
    if (!bar || done.has(s)) continue;
    done.add(s);
    bar.critical = true;
    let cursor = Math.min(bar.end, until);
    const kids = (children.get(s.span_id) ?? []).map((k) => barOf.get(k)!).filter((b) => b && b.depth === bar.depth + 1);
    kids.sort((a, b) => b.end - a.end);
    for (const k of kids) {
      if (k.start >= cursor) continue;
      work.push({ s: k.span, limit: cursor });
      cursor = k.start;
    }
  }
}

/** The bars shown when the subtrees under `collapsed` span ids are folded away. */
export function visible<S extends SpanLike>(bars: readonly Bar<S>[], collapsed: ReadonlySet<string>): Bar<S>[] {
  const out: Bar<S>[] = [];
  let hideBelow = -1;
  for (const b of bars) {
    if (hideBelow >= 0) {
      if (b.depth > hideBelow) continue;
      hideBelow = -1;
    }
    out.push(b);
    if (collapsed.has(b.span.span_id) && b.childCount > 0) hideBelow = b.depth;
  }
  return out;
}

/** The trace's log records by the span they name ('' for none of this trace's), oldest first. */
export function logsBySpan<L extends { span_id: string }>(spans: readonly SpanLike[], logs: readonly L[]): Map<string, L[]> {
  const m = new Map<string, L[]>();
  const ids = new Set(spans.map((s) => s.span_id));
  // The logs come newest first (the API's order); under a span they read in time order.
  for (let i = logs.length - 1; i >= 0; i--) {
    const l = logs[i];
    const k = ids.has(l.span_id) ? l.span_id : '';
    const list = m.get(k);
    if (list) list.push(l);
    else m.set(k, [l]);
  }
  return m;
}

/** One line of the waterfall: a span's bar, or a log record under the span it names. */
export type Line<S extends SpanLike, L> = { kind: 'span'; bar: Bar<S> } | { kind: 'log'; bar: Bar<S> | null; log: L };

/**
 * The waterfall's lines in order, every one the same height, so a virtual list can draw only those
 * in sight: the shown bars, each followed by its logs unless it is collapsed, then the logs that
 * name no span of the trace.
 */
export function lines<S extends SpanLike, L>(bars: readonly Bar<S>[], collapsed: ReadonlySet<string>,
  logs: ReadonlyMap<string, readonly L[]>): Line<S, L>[] {
  const out: Line<S, L>[] = [];
  for (const bar of visible(bars, collapsed)) {
    out.push({ kind: 'span', bar });
    if (collapsed.has(bar.span.span_id)) continue;
    for (const log of logs.get(bar.span.span_id) ?? []) out.push({ kind: 'log', bar, log });
  }
  for (const log of logs.get('') ?? []) out.push({ kind: 'log', bar: null, log });
  return out;
}

/** Ticks for an axis of `duration` nanoseconds: about `count` round steps (1, 2, 5 × 10^n). */
export function ticks(duration: number, count: number): number[] {
  if (duration <= 0) return [0];
  const raw = duration / Math.max(1, count);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = 0; t <= duration + step / 1e6; t += step) out.push(t);
  return out;
}
