// Put the language server inside the extension: skilldeck (from this repository) and its
// runtime dependencies as pure-Python packages in bundled/libs, which
// bundled/tool/launch.py puts first on sys.path (skilldeck.importStrategy = useBundled).
//
//   node scripts/bundle-server.mjs      (run by `npm run package`; bundled/libs is not committed)
//
// The dependencies come from bundled/requirements.txt: pure-Python wheels only, pinned with
// hashes, for Python 3.10+ (pip --target --implementation py --only-binary=:all:). The
// interpreter that runs pip: $SKILLDECK_BUNDLE_PYTHON, else the repository's .venv, else
// python3. The result is checked with `python -S` (no site-packages): the bundle alone
// must run `skilldeck check` on the example workspace.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ext = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(ext, '..', '..');
const libs = join(ext, 'bundled', 'libs');
const venvPython = join(repo, '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
const python = process.env.SKILLDECK_BUNDLE_PYTHON || (existsSync(venvPython) ? venvPython : 'python3');

function run(args, options = {}) {
  execFileSync(python, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

rmSync(libs, { recursive: true, force: true });
mkdirSync(libs, { recursive: true });

run([
  '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input',
  '--target', libs, '--no-deps', '--require-hashes',
  '--only-binary=:all:', '--implementation', 'py', '--python-version', '3.10', '--abi', 'none', '--platform', 'any',
  '-r', join(ext, 'bundled', 'requirements.txt'),
]);

// skilldeck itself: the package folder as the wheel would hold it (every file of
// server/skilldeck: the modules, py.typed, the bundled skill, the JSON schemas), no caches.
cpSync(join(repo, 'server', 'skilldeck'), join(libs, 'skilldeck'), {
  recursive: true,
  filter: (source) => !/__pycache__|\.pyc$/.test(source),
});

// pip's console scripts and caches are of no use inside the extension.
rmSync(join(libs, 'bin'), { recursive: true, force: true });
for (const entry of readdirSync(libs, { recursive: true, withFileTypes: true })) {
  if (entry.isDirectory() && entry.name === '__pycache__') {
    rmSync(join(entry.parentPath ?? entry.path, entry.name), { recursive: true, force: true });
  }
}

// The bundle alone (python -S: no site-packages, so no compiled speed-up) must work.
const launcher = join(ext, 'bundled', 'tool', 'launch.py');
run(['-S', launcher, '--version'], { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
const check = spawnSync(python, ['-S', launcher, 'check', '--no-cache', '--format', 'json', join(repo, 'examples', 'workspace')], {
  env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
// `check` exits 1 when it reports errors (the example has one on purpose), 2 on failure.
if (check.status !== 0 && check.status !== 1) {
  throw new Error(`the bundled server failed: ${python} -S ${launcher} check exited ${check.status}`);
}
console.log(`bundled the skilldeck server into ${libs}`);
