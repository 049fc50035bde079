// The process entry of the toolgate command: bin/toolgate.js loads its build (dist/cli/run.js) for every command
// but `hook` (hook-entry.ts); `npm run dev -- …` runs this source through tsx.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
