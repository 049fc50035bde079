// Runs a program with text on its standard input and collects what it prints (asynchronously, so a sidecar in the
// test's own process keeps answering): the way agent runtimes run a command hook.
import { spawn } from 'node:child_process';

/** What a run printed, its exit code, and its standard output parsed as JSON (undefined when it is not JSON). */
export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export function runProcess(file: string, args: string[], env: NodeJS.ProcessEnv, stdin: string): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(stdin);
  });
}
