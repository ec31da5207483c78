// One window open, timed: from the page load to the first diagnostic in the Problems
// count (status bar), with the Skilldeck output's own timestamps in between (activation,
// interpreter found, server started). Used by benchmarks/editor/reopen.sh.
//   node open-timing.mjs URL USER_DIR LABEL [FILE_TO_OPEN]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [url, userDir, label, fileToOpen] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.SKILLDECK_E2E_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
const t0 = Date.now();
await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60000 });
const tWorkbench = Date.now();
// The Problems item of the status bar: "N errors, M warnings" in its aria-label.
const problems = page.locator('#status\\.problems');
let tDiag;
for (const deadline = Date.now() + 120000; Date.now() < deadline; ) {
  const text = (await problems.getAttribute('aria-label').catch(() => null)) ?? '';
  const counts = [...text.matchAll(/(\d+)/g)].map((m) => Number(m[1]));
  if (counts.some((n) => n > 0)) {
    tDiag = Date.now();
    break;
  }
  await page.waitForTimeout(50);
}
if (fileToOpen) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(fileToOpen);
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible' });
  await input.press('Enter');
  await page.locator('.tab.active').first().waitFor({ state: 'visible' });
  await page.waitForTimeout(2000); // let the workbench store its editor state
}
await page.close({ runBeforeUnload: true });
await browser.close();

// The newest Skilldeck output log: this window's extension host.
function logs(dir) {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => /Skilldeck\.log$/.test(f)).map((f) => join(dir, f));
}
const newest = logs(join(userDir, 'logs')).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const lines = newest ? readFileSync(newest, 'utf8').split('\n') : [];
// remoteexthost.log of the same extension host (two folders up from skilldeck.skilldeck/Skilldeck.log).
const hostLog = newest ? join(newest, '..', '..', 'remoteexthost.log') : undefined;
const hostLines = hostLog ? readFileSync(hostLog, 'utf8').split('\n') : [];
const stamp = (pattern, from = lines) => {
  const line = from.find((l) => pattern.test(l));
  const m = line && /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
  return m ? Date.parse(`${m[1]}T${m[2]}Z`) - t0 : null;
};
const result = {
  label,
  workbench: tWorkbench - t0,
  activated: stamp(/ExtensionService#_doActivateExtension skilldeck\.skilldeck/, hostLines),
  searching: stamp(/looking for a Python/),
  python: stamp(/Using Python/),
  started: stamp(/language server started/),
  firstDiagnostic: tDiag === undefined ? null : tDiag - t0,
};
console.log(JSON.stringify(result));
