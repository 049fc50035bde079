// One build's service in this process, as the server runs it (createToolgate on a real database file, the bench's
// rules), answering decide bodies the way the fast path does: the text parsed and validated, decided (audit commit
// included), the answer serialised. decide-cpu.ts and decide-per-call.ts measure it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_RULES } from './mix.ts';
import { removeDir, ROOT } from './processes.ts';

/** A loaded build: `decide(text)` answers one decide body's JSON text. */
export interface InProcessService {
  decide(text: string): Promise<string>;
  close(): Promise<void>;
}

/** Loads the build in `dir` (a copy of dist/, relative to the repository) with a fresh data directory. */
export async function loadService(dir: string): Promise<InProcessService> {
  const build = pathToFileURL(resolve(ROOT, dir) + '/').href;
  const { loadConfig } = await import(`${build}config.js`);
  const { createToolgate } = await import(`${build}service/toolgate.js`);
  const { answerDecide } = await import(`${build}http/routes/decide.js`);
  const { parseJsonText } = await import(`${build}http/body.js`);
  const { DecideRequestSchema } = await import(`${build}http/schemas.js`);
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-in-process-'));
  const toolgate = await createToolgate(loadConfig({ 'data-dir': dataDir }, {}));
  for (const rule of BENCH_RULES)
    await toolgate.store.addRule({ effect: rule.effect, pattern: rule.pattern, risk: rule.risk ?? null });
  const noSignal = () => {
    throw new Error('no wait in this bench');
  };
  return {
    decide: (text) =>
      answerDecide({ toolgate }, parseJsonText(text, DecideRequestSchema), false, noSignal).then((answer: unknown) =>
        JSON.stringify(answer),
      ),
    close: async () => {
      await toolgate.close();
      removeDir(dataDir);
    },
  };
}
