#!/usr/bin/env node
// The `jql-console` command. The server is TypeScript run directly by Node 22's type stripping, so the
// checkout needs no build step before `npx jql-console serve`.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`jql-console needs Node 22.12 or newer (this is ${process.version}); run it with npx or npm run so the project's Node is used.`);
  process.exit(1);
}
const { main } = await import('../src/server/cli.ts');
const code = await main(process.argv.slice(2));
if (code !== 0) process.exit(code);
