/**
 * The hostile server of the e2e tests as a child process of the benchmark, so that its flood (tens
 * of thousands of frames a second) does not share an event loop with the Playwright driver that
 * times the keys. Prints `listening <url>` when ready.
 */
import { startHostileServer } from '../../e2e/fixtures/hostile-server.ts';

const server = await startHostileServer();
console.log(`listening ${server.url}`);
const stop = () => void server.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
