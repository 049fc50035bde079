// The store contract against SQLite: a database file per test, two stores on it standing for two processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { storeContract } from './contract.ts';

storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-contract-'));
  const path = join(dir, 'toolgate.db');
  return {
    connect: async () => openSqliteStore(path),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
