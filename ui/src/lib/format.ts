// Numbers and times as the UI shows them. Times are UTC everywhere, so a screenshot or a pasted
// line means the same thing to everyone who reads it.

/** Nanoseconds since the epoch (a JSON string, 64-bit) as milliseconds, to the nearest one. */
export function nsToMs(ns: string): number {
  if (!/^-?[0-9]+$/.test(ns)) {
    return NaN;
  }
  return Number(BigInt(ns) / 1_000_000n);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `2026-12-03 12:00:01.123` (UTC) from nanoseconds since the epoch. */
export function formatTime(ns: string): string {
  if (!/^[0-9]+$/.test(ns)) {
    return ns;
  }
  const big = BigInt(ns);
  const d = new Date(Number(big / 1_000_000n));
  const ms = Number((big / 1_000_000n) % 1000n);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} `
    + `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(ms, 3)}`;
}

/** `12:00:01.123456789`: the time of day to the nanosecond, for spans and events. */
export function formatClock(ns: string): string {
  if (!/^[0-9]+$/.test(ns)) {
    return ns;
  }
  const big = BigInt(ns);
  const d = new Date(Number(big / 1_000_000n));
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(Number(big % 1_000_000_000n), 9)}`;
}

/** RFC 3339 (UTC, milliseconds) from milliseconds since the epoch, as the API takes it. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

/** A duration in nanoseconds, with three significant digits: `850 ns`, `1.25 ms`, `2.00 s`, `3m 04s`. */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) {
    return '–';
  }
  const sign = ns < 0 ? '-' : '';
  const a = Math.abs(ns);
  if (a < 1_000) return sign + Math.round(a) + ' ns';
  if (a < 1_000_000) return sign + sig3(a / 1_000) + ' µs';
  if (a < 1_000_000_000) return sign + sig3(a / 1_000_000) + ' ms';
  if (a < 60_000_000_000) return sign + sig3(a / 1_000_000_000) + ' s';
  const s = Math.round(a / 1_000_000_000);
  if (s < 3600) return sign + Math.floor(s / 60) + 'm ' + pad(s % 60) + 's';
  return sign + Math.floor(s / 3600) + 'h ' + pad(Math.floor(s / 60) % 60) + 'm';
}

function sig3(x: number): string {
  if (x >= 99.95) return x.toFixed(0);
  if (x >= 9.995) return x.toFixed(1);
  return x.toFixed(2);
}

/** A count with thousands separators: `12,345`. Accepts the API's 64-bit strings. */
export function formatCount(n: number | string): string {
  const s = typeof n === 'string' ? n : Number.isInteger(n) ? String(n) : n.toFixed(2);
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(s)) {
    return s;
  }
  const [int, frac] = s.split('.');
  const neg = int.startsWith('-');
  const digits = neg ? int.slice(1) : int;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (neg ? '-' : '') + grouped + (frac ? '.' + frac : '');
}

/** A chart value, short: `0.25`, `1.2k`, `3.4M`, `5.0G`, `1.2e-5`. */
export function formatValue(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  if (a === 0) return '0';
  if (a >= 1e12) return x.toExponential(1);
  if (a >= 1e9) return (x / 1e9).toFixed(1) + 'G';
  if (a >= 1e6) return (x / 1e6).toFixed(1) + 'M';
  if (a >= 1e4) return (x / 1e3).toFixed(1) + 'k';
  if (a >= 100) return x.toFixed(0);
  if (a >= 1) return String(Number(x.toFixed(2)));
  if (a >= 1e-3) return String(Number(x.toPrecision(3)));
  return x.toExponential(1);
}

/** Severity number to its band (OTLP: 1–4 TRACE … 21–24 FATAL). */
export function severityBand(n: number): 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'unset' {
  if (n >= 21) return 'fatal';
  if (n >= 17) return 'error';
  if (n >= 13) return 'warn';
  if (n >= 9) return 'info';
  if (n >= 5) return 'debug';
  if (n >= 1) return 'trace';
  return 'unset';
}

/** A value of an attribute map or a body, as one line of text. */
export function valueString(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}
