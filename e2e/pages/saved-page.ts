/** The Saved view: collections, saving the current query, the environment, import and export. */
import type { Locator, Page } from '@playwright/test';

export class SavedPage {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByRole('tabpanel', { name: 'Saved' });
  }

  get newCollectionName(): Locator {
    return this.root.getByLabel('New collection name');
  }
  get createButton(): Locator {
    return this.root.getByRole('button', { name: 'Create', exact: true });
  }
  get saveName(): Locator {
    return this.root.getByLabel('Saved query name');
  }
  get saveButton(): Locator {
    return this.root.getByRole('button', { name: 'Save', exact: true });
  }
  get notice(): Locator {
    return this.root.getByRole('status');
  }
  collection(name: string): Locator {
    return this.root.locator(`[data-collection="${name}"]`);
  }
  query(collection: string, name: string): Locator {
    return this.collection(collection).locator(`[data-query="${name}"]`);
  }
  get importInput(): Locator {
    return this.root.getByLabel('Import collections');
  }
  get environment(): Locator {
    return this.root.getByRole('form', { name: 'Environment' });
  }
  variableName(n: number): Locator {
    return this.environment.getByLabel(`Variable ${n} name`);
  }
  variableValue(n: number): Locator {
    return this.environment.getByLabel(`Variable ${n} value`);
  }
}
