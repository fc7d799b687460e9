// Static tokens from --token-auth-file (kube's tokenfile authenticator): a CSV file read once at
// start, one `token,user,uid[,"group1,group2"]` record a line, read as Go's encoding/csv reads
// it (quoted fields, `""` inside quotes, records of any length). Fewer than three columns fails
// the start with kube's message; an empty token is skipped; a repeated token's last record wins.

import { readFile } from 'node:fs/promises';
import { NO_CREDENTIAL, type AuthnResult } from './authenticator.js';
import type { TokenAuthenticator } from './bearer-token.js';
import type { UserInfo } from './user.js';

/** Go's csv.Reader with FieldsPerRecord = -1: records of strings; throws Go's parse errors. */
export function parseGoCSV(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    // Empty lines are skipped, as Go's reader does.
    if (text[i] === '\n') {
      i++;
      line++;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    const record: string[] = [];
    const recordLine = line;
    for (;;) {
      let field = '';
      const col = i;
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new Error(`record on line ${recordLine}; parse error on line ${line}, column ${i - col}: extraneous or missing " in quoted-field`);
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          throw new Error(`parse error on line ${line}, column ${i - col + 1}: extraneous or missing " in quoted-field`);
        }
      } else {
        while (i < n && text[i] !== ',' && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) {
          if (text[i] === '"') throw new Error(`parse error on line ${line}, column ${i - col + 1}: bare " in non-quoted-field`);
          field += text[i];
          i++;
        }
      }
      record.push(field);
      if (i < n && text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') {
      i++;
      line++;
    }
    records.push(record);
  }
  return records;
}

export function tokensFromCSV(text: string, path: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseGoCSV(text)) {
    if (record.length < 3) {
      throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    if (record[0] === '') continue;
    tokens.set(record[0], {
      name: record[1],
      uid: record[2],
      groups: record.length >= 4 ? record[3].split(',') : [],
      extra: {},
    });
  }
  return tokens;
}

export function tokenFileAuthenticator(tokens: Map<string, UserInfo>): TokenAuthenticator {
  // One answer per token, made once: the union widens it once (system:authenticated) and keeps it.
  const answers = new Map<string, AuthnResult>([...tokens].map(([t, user]) => [t, { kind: 'user', user, by: 'token-file' }]));
  return {
    name: 'token-file',
    authenticateToken: (token: string): AuthnResult => answers.get(token) ?? NO_CREDENTIAL,
  };
}

export async function loadTokenFile(path: string): Promise<TokenAuthenticator> {
  return tokenFileAuthenticator(tokensFromCSV(await readFile(path, 'utf8'), path));
}
