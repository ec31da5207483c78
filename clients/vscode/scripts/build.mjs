// Bundle src/extension.ts into dist/extension.js (CommonJS, node, `vscode` external).
// `--production` minifies and drops source maps (used by `npm run package`).
import { build } from 'esbuild';

const production = process.argv.includes('--production');

await build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'info',
});
