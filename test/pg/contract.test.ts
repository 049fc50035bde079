// The store contract (test/store/contract.ts) against a real PostgreSQL server: a database per test, two stores
// on it standing for two replicas.
import { describe, it } from 'node:test';
import { openPostgresStore } from '../../src/store/postgres-store.ts';
import { storeContract } from '../store/contract.ts';
import { destroyClusterAfterAll, freshDatabase, pgSkipReason, sharedCluster } from './support/shared.ts';

const skip = pgSkipReason();
if (skip) {
  describe('store contract: postgres', () => it('needs a PostgreSQL server', { skip }, () => {}));
} else {
  destroyClusterAfterAll();
  storeContract('postgres', async () => {
    const url = await freshDatabase('contract');
    return {
      connect: () => openPostgresStore(url, { listen: true, max: 4 }),
      dispose: async () => {
        const name = new URL(url).pathname.slice(1);
        (await sharedCluster()).psql(`DROP DATABASE "${name}" WITH (FORCE)`);
      },
    };
  });
}
