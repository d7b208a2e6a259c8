// Drives Chromium (playwright-core, the system's browser) against a running Mira whose reads need a
// token (auth.read_tokens), started by modules/server's UiTokenPromptTest with a few logs stored.
// usage: node test/token.mjs BASE_URL TOKEN SCREENSHOT_DIR CHROMIUM
// Prints one JSON document: {passed, failures, consoleErrors, screenshots, hashes}; exits 1 on a failure.
import { chromium } from 'playwright-core';
import { join } from 'node:path';

const [base, token, shots, executablePath] = process.argv.slice(2);
const wrong = 'wrong-token-0123456789abcdef';
const passed = [];
const failures = [];
const consoleErrors = [];
const screenshots = [];
const hashes = [];

function check(name, ok, detail) {
  if (ok) passed.push(name);
  else failures.push({ name, detail: detail === undefined ? null : JSON.stringify(detail).slice(0, 2000) });
}

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: 'light' });
  const page = await context.newPage();
  page.on('console', (m) => {
    // Every 401 the UI is answered before it has the right token is reported by the browser.
    if (m.type() === 'error' && !/status of 401/.test(m.text())) consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  // Every URL the page is at, to show that no token ever reaches the address bar.
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) hashes.push(f.url()); });
  const requests = [];
  page.on('request', (r) => requests.push({ url: r.url(), auth: r.headers()['authorization'] ?? null }));

  await page.goto(base + '/#/logs');
  const prompt = page.locator('form[aria-label="Read token"]');
  await prompt.waitFor({ state: 'visible', timeout: 15000 });
  check('prompt: shown when the API answers 401', await prompt.isVisible());
  check('prompt: asks for a read token', (await prompt.locator('h2').innerText()).includes('read token'));
  check('prompt: no rows before a token', (await page.locator('section[aria-label=logs] .row').count()) === 0);
  check('prompt: the input is focused', await prompt.locator('input[name=token]').evaluate((e) => e === document.activeElement));
  await page.screenshot({ path: join(shots, 'token-prompt.png') });
  screenshots.push('token-prompt.png');

  // A wrong token: the API refuses it, and the prompt comes back saying so.
  await prompt.locator('input[name=token]').fill(wrong);
  await prompt.locator('button[type=submit]').click();
  const refused = prompt.locator('.refused[role=alert]');
  await refused.waitFor({ state: 'visible', timeout: 15000 });
  check('wrong token: the prompt says it was not accepted', (await refused.innerText()).includes('not accepted'),
    await refused.innerText());
  check('wrong token: it was sent as a bearer token', requests.some((r) => r.auth === 'Bearer ' + wrong));
  const api = await page.evaluate(async (t) => {
    const res = await fetch('/api/v1/stats', { headers: { Authorization: 'Bearer ' + t } });
    return { status: res.status, text: await res.text(), challenge: res.headers.get('www-authenticate') };
  }, wrong);
  check('wrong token: the API answers 401 with its message', api.status === 401
    && api.text.includes('this route needs a read token') && /invalid_token/.test(api.challenge ?? ''), api);
  check('wrong token: the input is emptied for another try', (await prompt.locator('input[name=token]').inputValue()) === '');
  await page.screenshot({ path: join(shots, 'token-refused.png') });
  screenshots.push('token-refused.png');

  // The right token: the prompt goes and the rows come.
  await prompt.locator('input[name=token]').fill(token);
  await prompt.locator('input[name=token]').press('Enter');
  await page.waitForSelector('section[aria-label=logs] .row', { timeout: 15000 });
  check('right token: the prompt is gone', (await prompt.count()) === 0);
  const bodies = await page.locator('section[aria-label=logs] .row .b').allInnerTexts();
  check('right token: the stored logs are shown', bodies.some((b) => b.includes('token prompt record')), bodies.slice(0, 5));
  check('right token: kept in sessionStorage', (await page.evaluate(() => sessionStorage.getItem('mira.token'))) === token);
  check('right token: not in localStorage', (await page.evaluate(() => JSON.stringify({ ...localStorage }))).includes(token) === false);
  check('right token: not in the URL', !page.url().includes(token) && !page.url().includes(wrong), page.url());
  check('right token: not in the hash', !(await page.evaluate(() => location.hash)).includes(token));
  check('right token: not in a cookie', !(await context.cookies()).some((c) => c.value.includes(token)));
  check('right token: not in any request URL', requests.every((r) => !r.url.includes(token) && !r.url.includes(wrong)));
  await page.screenshot({ path: join(shots, 'token-rows.png') });
  screenshots.push('token-rows.png');

  // Another view, then a reload: the tab's token is used again, without a prompt.
  await page.goto(base + '/#/traces');
  await page.waitForLoadState('networkidle');
  await page.reload();
  await page.waitForLoadState('networkidle');
  await page.goto(base + '/#/logs');
  await page.waitForSelector('section[aria-label=logs] .row', { timeout: 15000 });
  await page.waitForLoadState('networkidle');
  check('reload: no prompt', (await prompt.count()) === 0);
  check('reload: the rows are shown', (await page.locator('section[aria-label=logs] .row .b').allInnerTexts())
    .some((b) => b.includes('token prompt record')));
  check('reload: requests after it carry the token', requests.filter((r) => r.url.includes('/api/')).slice(-3)
    .every((r) => r.auth === 'Bearer ' + token));
  check('every URL the tab was at is free of tokens', hashes.length > 0
    && hashes.every((u) => !u.includes(token) && !u.includes(wrong)), hashes);

  // A new tab of the same browser has its own session storage: it asks again.
  const other = await context.newPage();
  await other.goto(base + '/#/logs');
  await other.locator('form[aria-label="Read token"]').waitFor({ state: 'visible', timeout: 15000 });
  check('a new tab asks again (the token is per tab)', await other.locator('form[aria-label="Read token"]').isVisible());
} catch (e) {
  failures.push({ name: 'the script ran to its end', detail: String(e && e.stack || e).slice(0, 2000) });
} finally {
  await browser.close();
}

process.stdout.write(JSON.stringify({ passed, failures, consoleErrors, screenshots, hashes }, null, 1) + '\n');
process.exit(failures.length === 0 ? 0 : 1);
