// The language server's CPU while VS Code (code-server) sits idle on a large deck.
// Driven by benchmarks/editor/idle.sh (it lives here to share the e2e driver's playwright-core).
import { readFileSync, readdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const url = process.env.SKILLDECK_IDLE_URL;
const windowSeconds = Number(process.env.SKILLDECK_IDLE_WINDOW ?? 20);
const browser = await chromium.launch({
  executablePath: process.env.SKILLDECK_IDLE_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
page.setDefaultTimeout(180000);
const t0 = Date.now();
await page.goto(url);
await page.locator('.statusbar-item', { hasText: /\d[\d,]* skills/ }).first().waitFor();
console.log(`status bar shows the skill count ${((Date.now() - t0) / 1000).toFixed(1)} s after opening`);

function serverPid() {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes('-m skilldeck serve')) {
        return pid;
      }
    } catch {
      // the process ended meanwhile
    }
  }
  throw new Error('no skilldeck server process found');
}

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime in 10 ms ticks
}

await new Promise((resolve) => setTimeout(resolve, 15000)); // first pulls and publishing settle
const pid = serverPid();
const before = cpuSeconds(pid);
await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000));
const used = cpuSeconds(pid) - before;
console.log(`server CPU while idle: ${used.toFixed(2)} s over ${windowSeconds} s = ${((100 * used) / windowSeconds).toFixed(1)}%`);
await browser.close();
