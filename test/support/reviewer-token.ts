// The reviewer token of a data directory, for tests that run the reviewer's commands (`toolgate rules add`, …), which
// take the token from the reviewer's environment and never read it themselves: tokens.json is written if missing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The reviewer token in `<dataDir>/tokens.json`, creating the file (and the directory) when there is none. */
export function reviewerTokenIn(dataDir: string): string {
  const file = join(dataDir, 'tokens.json');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(
      file,
      JSON.stringify({ agent: 'tgta_test-agent-token-0000', reviewer: 'tgtr_test-reviewer-token-0000' }),
      { mode: 0o600 },
    );
  }
  return (JSON.parse(readFileSync(file, 'utf8')) as { reviewer: string }).reviewer;
}
