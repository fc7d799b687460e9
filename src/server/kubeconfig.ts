// The admin kubeconfig written at start, so kubectl works with no other set-up.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function writeAdminKubeconfig(dataDir: string, serverUrl: string): Promise<string> {
  const path = join(dataDir, 'admin.kubeconfig');
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    `    server: ${serverUrl}`,
    '  name: kapi',
    'contexts:',
    '- context:',
    '    cluster: kapi',
    '    user: admin',
    '    namespace: default',
    '  name: kapi',
    'current-context: kapi',
    'preferences: {}',
    'users:',
    '- name: admin',
    '  user: {}',
    '',
  ].join('\n');
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, text, { mode: 0o600 });
  return path;
}
