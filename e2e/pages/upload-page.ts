/** The Upload view: the generated form, the parts preview, progress, the answer and the stored files. */
import type { Locator, Page } from '@playwright/test';

export class UploadPage {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByRole('tabpanel', { name: 'Upload' });
  }

  get target(): Locator {
    return this.root.getByLabel('Target');
  }
  /** A generated input, by model field name. */
  field(name: string): Locator {
    return this.root.locator(`[data-field="${name}"]`);
  }
  /** The file input of a file field (or controller part). */
  fileInput(part: string): Locator {
    return this.root.locator(`[data-part="${part}"] input[type="file"]`);
  }
  get partsPreview(): Locator {
    return this.root.getByRole('table', { name: 'Multipart parts' });
  }
  previewRow(part: string): Locator {
    return this.partsPreview.locator(`tr[data-part="${part}"]`);
  }
  get uploadButton(): Locator {
    return this.root.getByRole('button', { name: 'Upload', exact: true });
  }
  get progress(): Locator {
    return this.root.getByRole('progressbar', { name: 'Upload progress' });
  }
  /** The line around the progress bar: bytes sent of the total, and the percentage. */
  get progressText(): Locator {
    return this.progress.locator('xpath=..');
  }
  get outcome(): Locator {
    return this.root.getByTestId('upload-outcome');
  }
  get storedFiles(): Locator {
    return this.root.getByRole('list', { name: 'Stored files' });
  }
  get responseStatus(): Locator {
    return this.root.getByTestId('response-status');
  }
  get responseTable(): Locator {
    return this.root.getByTestId('payload-table');
  }
  get jsonTree(): Locator {
    return this.root.getByTestId('json-tree');
  }
}
