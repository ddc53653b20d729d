/** The Streams view: connection bar, subscription builder and list, the event log and its detail. */
import type { Locator, Page } from '@playwright/test';

export class StreamsPage {
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.getByRole('tabpanel', { name: 'Streams' });
  }

  get connectionPicker(): Locator {
    return this.root.getByLabel('Stream connection');
  }
  /** "Embedded server: open", "…: waiting (…)". */
  get connectionState(): Locator {
    return this.root.getByRole('status').first();
  }
  get builder(): Locator {
    return this.root.getByRole('form', { name: 'New subscription' });
  }
  get namespace(): Locator {
    return this.builder.getByLabel('Namespace');
  }
  event(kind: 'created' | 'updated' | 'deleted'): Locator {
    return this.builder.getByRole('group', { name: 'Events' }).getByLabel(kind);
  }
  /** The filter box: a Monaco editor with the query editor's completion. */
  get filterEditor(): Locator {
    return this.builder.getByTestId('filter-editor');
  }
  suggestion(label: string): Locator {
    return this.filterEditor.locator('.suggest-widget.visible .monaco-list-row').filter({ hasText: new RegExp(`^\\s*${label}`) }).first();
  }
  get subscribeButton(): Locator {
    return this.builder.getByRole('button', { name: 'Subscribe' });
  }
  subscription(id: string): Locator {
    return this.root.locator(`[data-subscription="${id}"]`);
  }
  get log(): Locator {
    return this.root.getByRole('table', { name: 'Event log' });
  }
  logColumn(name: string): Locator {
    return this.log.getByRole('columnheader', { name, exact: true });
  }
  /** The record id cell of an event row (the fifth column). */
  recordIdCell(row: Locator): Locator {
    return row.locator(':scope > span').nth(4);
  }
  /** A marker row's text (the cell after its time). */
  markerText(row: Locator): Locator {
    return row.locator(':scope > span').nth(1);
  }
  /** Event rows (not markers) of the log. */
  get events(): Locator {
    return this.log.locator('[role="row"][data-seq]');
  }
  eventRow(kind: string, recordId: string | number): Locator {
    return this.log.locator(`[role="row"][data-event="${kind}"][data-record="${recordId}"]`);
  }
  get markers(): Locator {
    return this.log.locator('[role="row"][data-marker]');
  }
  get search(): Locator {
    return this.root.getByLabel('Search the log');
  }
  get detail(): Locator {
    return this.root.getByLabel('Event detail');
  }
}
