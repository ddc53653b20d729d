/**
 * The banner a `serve --watch` connection shows when the last save of its workspace file was not
 * applied (docs/workspace.md "Changing a workspace while it runs"): its migration preview, change by
 * change, and the Apply and Cancel buttons.
 */
import type { Locator } from '@playwright/test';
import type { ConsolePage } from './console-page.ts';

export class WatchBannerPage {
  readonly banner: Locator;

  constructor(app: ConsolePage, connectionName: string) {
    this.banner = app.connection(connectionName).getByTestId('connection-watch');
  }

  change(target: string): Locator {
    return this.banner.getByTestId('connection-watch-change').filter({ hasText: target });
  }
  get apply(): Locator {
    return this.banner.getByRole('button', { name: /^Apply the saved workspace/ });
  }
  get cancel(): Locator {
    return this.banner.getByRole('button', { name: /^Cancel the saved workspace/ });
  }
}
