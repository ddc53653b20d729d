/**
 * Reports of a collection run for CI: JUnit XML (one testcase per request, one failure per failed
 * assertion or request error, skipped requests marked skipped) and a JSON report with the same
 * content. Neither holds a variable's value: secrets given on the command line stay out of files.
 */
import { stringifyKeepingNumbers } from '../../shared/big-number.ts';
import { describeTarget } from '../../shared/collections/assertions.ts';
import type { RequestResult, RunnableRequest, RunReport } from '../../shared/collections/run.ts';
import { describeChanges } from '../../shared/collections/snapshot.ts';

export interface ReportInput {
  collection: string;
  environment: string | null;
  server: string;
  startedAt: Date;
  requests: readonly RunnableRequest[];
  report: RunReport;
}

// XML 1.0 forbids most control characters even escaped; they are dropped.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xml(text: string): string {
  return text.replace(INVALID_XML, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function failures(result: RunReport['results'][number]): Array<{ type: string; message: string }> {
  const out: Array<{ type: string; message: string }> = [];
  if (result.error !== undefined) out.push({ type: 'request', message: result.error });
  for (const assertion of result.assertions) {
    if (!assertion.passed) out.push({ type: 'assertion', message: assertion.message ?? `${describeTarget(assertion.assertion)} failed` });
  }
  const snapshot = snapshotFailure(result);
  if (snapshot) out.push({ type: 'snapshot', message: snapshot });
  return out;
}

/** Why a request's snapshot failed, with its differences line by line; null when it did not. */
export function snapshotFailure(result: RequestResult): string | null {
  const snapshot = result.snapshot;
  if (!snapshot || snapshot.state === 'matched' || snapshot.state === 'updated') return null;
  if (snapshot.state === 'missing') return 'No approved snapshot yet: approve the answer in the console, or run with --update-snapshots';
  return `The answer differs from the approved snapshot:\n${describeChanges(snapshot.changes)}`;
}

export function junitReport(input: ReportInput): string {
  const { report } = input;
  const ran = new Set(report.results.map((r) => r.path));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(input.collection)}" tests="${input.requests.length}" failures="${report.failed}" skipped="${report.skipped}" time="${seconds(report.totalMs)}">`,
    `  <testsuite name="${xml(input.collection)}" tests="${input.requests.length}" failures="${report.failed}" skipped="${report.skipped}" time="${seconds(report.totalMs)}" timestamp="${input.startedAt.toISOString()}">`,
  ];
  for (const result of report.results) {
    const classname = result.path.includes('/') ? result.path.slice(0, result.path.lastIndexOf('/')) : input.collection;
    const failed = failures(result);
    const open = `    <testcase classname="${xml(classname)}" name="${xml(result.name)}" time="${seconds(result.roundTripMs)}"`;
    if (failed.length === 0) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    for (const failure of failed) lines.push(`      <failure type="${failure.type}" message="${xml(failure.message)}">${xml(failure.message)}</failure>`);
    lines.push('    </testcase>');
  }
  for (const request of input.requests) {
    if (ran.has(request.path)) continue;
    const classname = request.path.includes('/') ? request.path.slice(0, request.path.lastIndexOf('/')) : input.collection;
    lines.push(`    <testcase classname="${xml(classname)}" name="${xml(request.name)}" time="0.000"><skipped/></testcase>`);
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

export function jsonReport(input: ReportInput): string {
  const { report } = input;
  return `${stringifyKeepingNumbers(
    {
      collection: input.collection,
      environment: input.environment,
      server: input.server,
      startedAt: input.startedAt.toISOString(),
      totalMs: report.totalMs,
      passed: report.passed,
      failed: report.failed,
      skipped: report.skipped,
      requests: report.results.map((result) => ({
        path: result.path,
        name: result.name,
        passed: result.passed,
        status: result.status,
        roundTripMs: result.roundTripMs,
        ...(result.error !== undefined ? { error: result.error } : {}),
        ...(result.snapshot ? { snapshot: { state: result.snapshot.state, changes: result.snapshot.changes } } : {}),
        assertions: result.assertions.map((a) => ({
          description: describeTarget(a.assertion),
          assertion: a.assertion,
          passed: a.passed,
          actual: a.actual ?? null,
          ...(a.message ? { message: a.message } : {}),
        })),
      })),
    },
    2,
  )}\n`;
}
