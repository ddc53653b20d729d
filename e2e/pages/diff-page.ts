/** The Diff view: the two connection pickers, the run button and the comparison. */
import type { Locator, Page } from '@playwright/test';

export class DiffPage {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByRole('tabpanel', { name: 'Diff' });
  }

  get left(): Locator {
    return this.root.getByLabel('Left connection');
  }
  get right(): Locator {
    return this.root.getByLabel('Right connection');
  }
  /** "Two connections" or "Same connection, two users". */
  mode(name: string): Locator {
    return this.root.getByRole('radiogroup', { name: 'Compare' }).getByRole('radio', { name });
  }
  get identities(): Locator {
    return this.root.getByRole('region', { name: 'Identities' });
  }
  get leftIdentity(): Locator {
    return this.root.getByLabel('Left identity');
  }
  get rightIdentity(): Locator {
    return this.root.getByLabel('Right identity');
  }
  get refusal(): Locator {
    return this.root.getByTestId('diff-refusal');
  }
  get runButton(): Locator {
    return this.root.getByRole('button', { name: 'Run on both' });
  }
  get summary(): Locator {
    return this.root.getByRole('status');
  }
  get panel(): Locator {
    return this.root.getByRole('region', { name: 'Diff' });
  }
  get timing(): Locator {
    return this.root.getByRole('table', { name: 'Timing' });
  }
  get extras(): Locator {
    return this.root.getByRole('table', { name: '__extras__' });
  }
  get changes(): Locator {
    return this.root.getByRole('table', { name: 'Record changes' });
  }
  changeRows(kind: 'added' | 'removed' | 'changed'): Locator {
    return this.changes.locator(`tr[data-change="${kind}"]`);
  }
}
