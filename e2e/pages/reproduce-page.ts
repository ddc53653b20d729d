/** "Reproduce locally": the toolbar button and its dialog. */
import type { Locator, Page } from '@playwright/test';

export class ReproducePage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  get button(): Locator {
    return this.page.getByRole('button', { name: 'Reproduce locally' });
  }
  get dialog(): Locator {
    return this.page.getByTestId('reproduce-dialog');
  }
  get depth(): Locator {
    return this.dialog.getByLabel('Relation depth');
  }
  get redact(): Locator {
    return this.dialog.getByLabel('Redact fields');
  }
  get startButton(): Locator {
    return this.dialog.getByRole('button', { name: 'Reproduce' });
  }
  get error(): Locator {
    return this.dialog.getByRole('alert');
  }
}
