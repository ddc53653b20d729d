/**
 * Keeps one failing part of the window from taking the rest with it: a view or a panel of the
 * response viewer that throws while drawing shows what failed, the raw answer it was drawing (when
 * there is one), and a report to copy; everything around it keeps working. `resetKey` draws the
 * part again when what it shows changes (the next run, another tab).
 */
import { Component, useEffect, useState, type ErrorInfo, type JSX, type ReactNode } from 'react';
import { formatBytes } from './format.ts';

/** How much of the raw answer the failure shows (the rest is one Save… away). */
const RAW_SHOWN_BYTES = 16 * 1024;

export interface ErrorBoundaryProps {
  /** What this part is, for the sentence: "The Table view", "The Streams view". */
  what: string;
  /** The answer the part was drawing, shown under the failure. */
  raw?: Blob | null;
  resetKey?: unknown;
  children: ReactNode;
}

interface State {
  error: Error | null;
  componentStack: string | null;
  resetKey: unknown;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, componentStack: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: State): Partial<State> | null {
    // Something else to show: try drawing it again.
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, error: null, componentStack: null };
    return null;
  }

  override componentDidCatch(_error: unknown, info: ErrorInfo): void {
    this.setState({ componentStack: info.componentStack ?? null });
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return <Failure what={this.props.what} error={this.state.error} componentStack={this.state.componentStack} raw={this.props.raw ?? null} onRetry={() => this.setState({ error: null, componentStack: null })} />;
  }
}

/** The report a person can paste into an issue: what failed, where, and the start of the answer. */
export function failureReport(what: string, error: Error, componentStack: string | null, rawHead: string | null): string {
  return [
    `${what} failed: ${error.message}`,
    `at ${new Date().toISOString()} in ${typeof navigator === 'undefined' ? 'an unknown browser' : navigator.userAgent}`,
    '',
    error.stack ?? '(no stack)',
    ...(componentStack ? ['', 'Components:', componentStack.trim()] : []),
    ...(rawHead !== null ? ['', 'The answer (start):', rawHead] : []),
  ].join('\n');
}

function Failure(props: { what: string; error: Error; componentStack: string | null; raw: Blob | null; onRetry: () => void }): JSX.Element {
  const [rawHead, setRawHead] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    void props.raw
      ?.slice(0, RAW_SHOWN_BYTES)
      .text()
      .then((t) => live && setRawHead(t));
    return () => {
      live = false;
    };
  }, [props.raw]);
  const report = failureReport(props.what, props.error, props.componentStack, rawHead);
  const copy = () => {
    void navigator.clipboard?.writeText(report).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="failure" role="alert" data-testid="part-failed">
      <p className="text-error">
        {props.what} failed: {props.error.message}
      </p>
      <p className="muted small">The rest of the console keeps working.</p>
      <div className="failure-actions">
        <button type="button" className="btn btn-small" onClick={props.onRetry}>
          Try again
        </button>
        <button type="button" className="btn btn-small" onClick={copy}>
          {copied ? 'Report copied' : 'Copy report'}
        </button>
      </div>
      {props.raw && (
        <details open>
          <summary className="muted small">
            The raw answer{props.raw.size > RAW_SHOWN_BYTES ? ` (the first ${formatBytes(RAW_SHOWN_BYTES)} of ${formatBytes(props.raw.size)})` : ''}
          </summary>
          <pre className="raw-text" data-testid="failure-raw">
            {rawHead ?? ''}
          </pre>
        </details>
      )}
      <details>
        <summary className="muted small">Report</summary>
        <textarea className="failure-report" readOnly value={report} aria-label="Report" />
      </details>
    </div>
  );
}
