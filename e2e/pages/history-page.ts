/** The History view: search, filters and the list of runs with their actions. */
import type { Locator, Page } from '@playwright/test';

export class HistoryPage {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByRole('tabpanel', { name: 'History' });
  }

  get search(): Locator {
    return this.root.getByLabel('Search history');
  }
  get runs(): Locator {
    return this.root.getByRole('listitem');
  }
  run(index: number): Locator {
    return this.runs.nth(index);
  }
  rerun(run: Locator): Locator {
    return run.getByRole('button', { name: 'Re-run' });
  }
}
