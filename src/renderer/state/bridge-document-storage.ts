/** The console's documents in the desktop app: SQLite in main (src/main/documents), over the bridge. */
import type { JqlBridge } from '../../shared/bridge.ts';
import type { DocumentChange, DocumentStorage } from './document-storage.ts';

export class BridgeDocumentStorage implements DocumentStorage {
  readonly place = "the app's database";
  private readonly bridge: Pick<JqlBridge, 'documentsGet' | 'documentsWrite'>;

  constructor(bridge: Pick<JqlBridge, 'documentsGet' | 'documentsWrite'>) {
    this.bridge = bridge;
  }

  get(key: string): Promise<string | null> {
    return this.bridge.documentsGet(key);
  }

  write(changes: readonly DocumentChange[]): Promise<void> {
    return this.bridge.documentsWrite([...changes]);
  }
}
