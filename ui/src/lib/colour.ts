// One colour per service, stable across views and reloads: picked by the name's hash.

export function serviceColour(service: string): string {
  let h = 2166136261;
  for (let i = 0; i < service.length; i++) {
    h ^= service.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return PALETTE[(h >>> 0) % PALETTE.length];
}

// Ten hues far enough apart to tell two services apart at a glance, readable on light and dark.
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#ff9da7', '#9c755f', '#e15759', '#8cd17d'];

/** Green (0 errors) through amber to red (every span an error). */
export function errorColour(rate: number): string {
  const r = Math.max(0, Math.min(1, rate));
  const hue = 130 - 130 * Math.sqrt(r);
  return `hsl(${hue.toFixed(0)} 60% 48%)`;
}
