/** The collection folders section of the Saved view. */
import type { Locator, Page } from '@playwright/test';

export class FoldersPage {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByRole('region', { name: 'Collection folders' });
  }

  request(path: string): Locator {
    return this.root.locator(`[data-request="${path}"]`);
  }
  open(path: string): Promise<void> {
    return this.request(path).getByRole('button').first().click();
  }
  detail(name: string): Locator {
    return this.root.getByRole('group', { name: `Request ${name}` });
  }
  openInTab(name: string): Promise<void> {
    return this.detail(name).getByRole('button', { name: 'Open in tab' }).click();
  }
  assertionValue(n: number): Locator {
    return this.root.getByLabel(`Assertion ${n} value`);
  }
  assertionResult(n: number): Locator {
    return this.root.getByTestId(`assertion-${n}-result`);
  }
  get runAll(): Locator {
    return this.root.getByRole('button', { name: 'Run all' });
  }
  get saveAssertions(): Locator {
    return this.root.getByRole('button', { name: 'Save assertions' });
  }
  outcome(path: string): Locator {
    return this.request(path).getByTestId('request-outcome');
  }
  get summary(): Locator {
    return this.root.getByRole('status').filter({ hasText: /passed/ });
  }
}
