// `node scripts/run-together.mjs A B ...` runs the npm scripts A, B, ... at the same time and exits 1
// when any of them fails (after all have ended, so every failure is reported). `npm test` starts with
// the two typechecks and the lint this way: each is one single-threaded process, so run one after
// the other they leave a core idle for their whole length (measured in docs/benchmarks.md, "The test
// run"). Each script's output is printed whole when it ends, in the order given, never interleaved.
import { spawn } from 'node:child_process';

/** Runs `npm run <name>`, its output gathered; resolves with its exit code and output. */
function runScript(name) {
  return new Promise((resolve) => {
    // shell: `npm` is npm.cmd on Windows. Names come from this project's package.json, not from input.
    const child = spawn(`npm run --silent ${name}`, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString() }));
  });
}

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('Usage: node scripts/run-together.mjs SCRIPT [SCRIPT...] (npm script names)');
  process.exit(2);
}

const started = Date.now();
const results = await Promise.all(names.map(runScript));
let failed = 0;
for (const { name, code, output } of results) {
  process.stdout.write(`\n> npm run ${name}${code === 0 ? '' : ` (exit code ${code})`}\n${output}`);
  if (code !== 0) failed++;
}
console.log(`\n${names.join(', ')}: ${failed === 0 ? 'passed' : `${failed} of ${names.length} failed`} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed === 0 ? 0 : 1);
