#!/usr/bin/env -S node --no-memory-reducer
// The `jql-console` command. The server is TypeScript run directly by Node 22's type stripping, so the
// checkout needs no build step before `npx jql-console serve`.
// --no-memory-reducer: a server idle for a few seconds otherwise has V8 shrink its young generation,
// which grows back only over minutes, and the next burst of reads is answered about 20% slower (issue
// 14.2, docs/benchmarks.md). The heap is kept at the size the last burst needed instead. A flag set
// from inside the process comes too late, so it is here; `npm run serve` passes the same.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`jql-console needs Node 22.12 or newer (this is ${process.version}); run it with npx or npm run so the project's Node is used.`);
  process.exit(1);
}
const { main } = await import('../src/server/cli.ts');
const code = await main(process.argv.slice(2));
if (code !== 0) process.exit(code);
