/**
 * The outermost boundary: if the app cannot draw at all with what was stored, `onFail` starts it
 * again without the stored documents (safe-start.ts). In that second start there is nothing to
 * fall back to, so a failure is shown with its message instead of an empty window.
 */
import { Component, type ReactNode } from 'react';

export class StartupGuard extends Component<{ onFail?: (error: Error) => void; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onFail?.(error instanceof Error ? error : new Error(String(error)));
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="empty" role="alert" data-testid="start-failed">
        <p className="text-error">The console could not start: {this.state.error.message}</p>
        <p className="muted small">Reload the window to try again.</p>
      </div>
    );
  }
}
