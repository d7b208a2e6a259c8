// The UI's two timing goals measured away from UiBrowserTest, many times, by the page's own clock:
// the logs view's first rows for a new visitor, and the 2,000-span waterfall. A bench, not a test:
// it checks nothing but that the rows and bars appeared, and prints one JSON document.
//
// usage: node test/timing.mjs BASE_URL CHROMIUM RUNS [seed]
//   seed: first send the data (OTLP/JSON over HTTP) the way UiSeed shapes it: a 2,000-span trace of
//   the service "bulk" (span i a child of span (i - 1) / 3) and 2,000 log lines.
// Every run of the first rows is a new browser context (nothing cached) that has visited /health
// first, as UiBrowserTest's "warm" figure; every waterfall run opens the trace by a hash change in
// an app already on screen, as UiBrowserTest does, after a hash change back to the logs.
import { chromium } from 'playwright-core';
import { randomBytes } from 'node:crypto';

const [base, executablePath, runsArg, seedArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 10);
const SPANS = 2000;
const LOGS = 2000;

const hex = (n) => randomBytes(n).toString('hex');
const attr = (key, v) => ({ key, value: { stringValue: v } });
const resource = { attributes: [attr('service.name', 'bulk'), attr('service.instance.id', 'bulk-1'), attr('deployment.environment.name', 'test')] };
const scope = { name: 'mira-ui-test' };

async function post(path, doc) {
  const res = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(doc) });
  if (res.status !== 200) throw new Error(path + ': ' + res.status + ' ' + (await res.text()));
}

async function seed() {
  const traceId = hex(16);
  const now = BigInt(Date.now()) * 1000000n;
  const ids = Array.from({ length: SPANS }, () => hex(8));
  const spans = ids.map((id, i) => ({
    traceId, spanId: id, parentSpanId: i === 0 ? '' : ids[Math.floor((i - 1) / 3)], name: i === 0 ? 'bulk import' : 'step ' + i,
    kind: i === 0 ? 2 : 1, startTimeUnixNano: String(now + BigInt(i) * 1000n), endTimeUnixNano: String(now + 5000000n - BigInt(i) * 1000n),
    status: {},
  }));
  await post('/v1/traces', { resourceSpans: [{ resource, scopeSpans: [{ scope, spans }] }] });
  const logRecords = Array.from({ length: LOGS }, (_, i) => ({
    timeUnixNano: String(now + BigInt(i) * 1000n), severityNumber: i % 97 === 0 ? 17 : 9, severityText: i % 97 === 0 ? 'ERROR' : 'INFO',
    body: { stringValue: 'bulk line ' + i }, attributes: [{ key: 'line', value: { intValue: String(i) } }],
  }));
  await post('/v1/logs', { resourceLogs: [{ resource, scopeLogs: [{ scope, logRecords }] }] });
  return traceId;
}

async function bigTrace() {
  const res = await fetch(base + '/api/v1/query', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ signal: 'traces', from: '-7d', to: 'now', limit: 1, q: 'name="bulk import"' }),
  });
  const doc = await res.json();
  return doc.rows[0]?.trace_id;
}

function watchRows(spans) {
  const seen = (window.__miraSeen = {});
  const wanted = { logsRow: 'section[aria-label=logs] .row', bigTraceBars: `.bars[data-spans="${spans}"] .span` };
  new MutationObserver(() => {
    for (const [k, sel] of Object.entries(wanted)) if (!(k in seen) && document.querySelector(sel)) seen[k] = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: s[Math.floor(s.length / 2)], min: s[0], max: s.at(-1), all: xs };
}

if (seedArg === 'seed') await seed();
// Until the node has sealed and indexed the seed, the trace may not be found yet.
let id = null;
for (let i = 0; i < 100 && !id; i++) {
  id = await bigTrace();
  if (!id) await new Promise((r) => setTimeout(r, 200));
}
if (!id) throw new Error('no "bulk import" trace on ' + base);

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
const out = { firstRows: [], firstRowsParts: [], waterfall: [], waterfallParts: [] };
try {
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 }, colorScheme: 'light' });
    await ctx.addInitScript(watchRows, SPANS);
    const page = await ctx.newPage();
    await page.goto(base + '/health');
    await page.goto(base + '/#/logs');
    await page.waitForSelector('section[aria-label=logs] .row');
    const parts = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource');
      const at = (re) => res.find((r) => re.test(r.name));
      const js = at(/index-[^/]*\.js$/), q = at(/\/api\/v1\/query/);
      const r = (x) => (x === undefined ? null : Math.round(x));
      const mark = (n) => r(performance.getEntriesByName(n)[0]?.startTime);
      return { html: r(nav?.responseEnd), scriptStart: r(js?.startTime), scriptFirstByte: r(js?.responseStart), script: r(js?.responseEnd),
        domInteractive: r(nav?.domInteractive), queryStart: r(q?.startTime), queryFirstByte: r(q?.responseStart), queryEnd: r(q?.responseEnd),
        mounted: mark('mira:mounted'), parsed: mark('mira:logs-first-page'), rows: r(window.__miraSeen.logsRow) };
    });
    out.firstRows.push(parts.rows);
    out.firstRowsParts.push(parts);
    await ctx.close();
  }

  const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 }, colorScheme: 'light' });
  const page = await ctx.newPage();
  await page.goto(base + '/#/logs');
  await page.waitForSelector('section[aria-label=logs] .row');
  for (let i = 0; i < runs; i++) {
    await page.evaluate(() => {
      window.__miraSeen = {};
      const sel = (s) => document.querySelector(s);
      new MutationObserver((_, obs) => {
        if (!('bigTraceBars' in window.__miraSeen) && sel('.bars[data-spans="2000"] .span')) {
          window.__miraSeen.bigTraceBars = performance.now();
          obs.disconnect();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true });
      performance.mark('bench:open');
    });
    await page.goto(base + '/#/traces?trace=' + id);
    await page.waitForFunction(() => 'bigTraceBars' in window.__miraSeen, null, { timeout: 60000 });
    const parts = await page.evaluate((tid) => {
      const t0 = performance.getEntriesByName('bench:open').at(-1).startTime;
      const last = (name) => performance.getEntriesByName(name).at(-1);
      const res = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/v1/traces/' + tid)).at(-1);
      const r = (x) => (x === undefined ? null : Math.round(x - t0));
      return { answerStart: r(res?.startTime), answerFirstByte: r(res?.responseStart), answerEnd: r(res?.responseEnd),
        answerBytes: res?.encodedBodySize ?? null, bodyBytes: res?.decodedBodySize ?? null, parsed: r(last('mira:trace-answer')?.startTime),
        laidOut: r(last('mira:trace-layout')?.startTime), rendered: r(window.__miraSeen.bigTraceBars) };
    }, id);
    out.waterfall.push(parts.rendered);
    out.waterfallParts.push(parts);
    await page.goto(base + '/#/logs');
    await page.waitForSelector('section[aria-label=logs] .row');
    await page.waitForTimeout(200);
  }
  await ctx.close();
} finally {
  await browser.close();
}
console.log(JSON.stringify({ firstRows: stats(out.firstRows), waterfall: stats(out.waterfall), firstRowsParts: out.firstRowsParts, waterfallParts: out.waterfallParts }));
