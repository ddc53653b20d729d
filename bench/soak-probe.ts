/**
 * Loaded into the soaked server with `node --import`: prints the process's heap figures on a line of
 * their own (`SOAK-MEM {...}`) every SOAK_PROBE_INTERVAL_MS, for `bench/soak.ts` to read. RSS is read
 * from /proc by the soak itself; the heap can only be read from inside.
 */
const interval = Number(process.env.SOAK_PROBE_INTERVAL_MS ?? 30_000);
const timer = setInterval(() => {
  const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(`SOAK-MEM ${JSON.stringify({ heapUsed, heapTotal, external, arrayBuffers })}\n`);
}, Math.max(1000, interval / 3));
// The probe must never keep the server alive on its own.
timer.unref();
