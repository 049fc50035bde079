// Liveness and the contract itself.
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import type { AppEnv } from '../auth.ts';

const contract = readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8');

export function registerHealth(app: Hono<AppEnv>): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' as const }));
  app.get('/openapi.yaml', (c) => c.body(contract, 200, { 'content-type': 'application/yaml; charset=utf-8' }));
}
