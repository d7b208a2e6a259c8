// One colour per service, stable across views and reloads: the hue comes from the name's hash.

export function serviceColour(service: string): string {
  let h = 2166136261;
  for (let i = 0; i < service.length; i++) {
    h ^= service.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  const hue = (h >>> 0) % 360;
  return `hsl(${hue} 55% 55%)`;
}

/** Green (0 errors) through amber to red (every span an error). */
export function errorColour(rate: number): string {
  const r = Math.max(0, Math.min(1, rate));
  const hue = 130 - 130 * Math.sqrt(r);
  return `hsl(${hue.toFixed(0)} 60% 48%)`;
}
