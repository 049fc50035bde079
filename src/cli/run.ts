// The process entry of the toolgate command: bin/toolgate.js loads its build (dist/cli/run.js); `npm run dev -- …`
// runs this source through tsx. Only main.ts, so `toolgate hook` loads just its own modules (see hook.ts).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
