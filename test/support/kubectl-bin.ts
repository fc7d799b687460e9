// Which kubectl binaries the tests drive: $KUBECTL, else kubectl 1.33 in the folder that the
// kubectl on PATH links into (where kubectl.1.27 .. kubectl.1.33 live). A missing binary is an
// error, never a reason to skip: the suites exist to prove real clients work.

import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

let folder: string | undefined;

/** The folder of the real kubectl binary behind the `kubectl` on PATH. */
function kubectlFolder(): string {
  if (folder) return folder;
  let onPath: string;
  try {
    onPath = execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no kubectl on PATH; set $KUBECTL to the kubectl binary to test with');
  }
  folder = dirname(realpathSync(onPath));
  return folder;
}

/** The kubectl binary of a minor version (1.27 .. 1.33). */
export function kubectlVersion(minor: number): string {
  const p = join(kubectlFolder(), `kubectl.1.${minor}`);
  if (!existsSync(p)) throw new Error(`kubectl 1.${minor} not found at ${p}`);
  return p;
}

/** The kubectl to drive by default: $KUBECTL, else kubectl 1.33. */
export function kubectlPath(): string {
  return process.env.KUBECTL || kubectlVersion(33);
}
