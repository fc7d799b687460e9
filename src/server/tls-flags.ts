// kube-apiserver's TLS flags in Go's vocabulary, turned into Node's (OpenSSL's).
//
// --tls-min-version takes Go's names (VersionTLS12...). --tls-cipher-suites takes the IANA
// names Go's crypto/tls knows (component-base's ciphersuites_flag), secure and insecure
// alike. Go does not let TLS 1.3 suites be chosen, so naming one changes nothing: the TLS 1.3
// suites stay OpenSSL's defaults, and the list only restricts TLS 1.2 and below.

import type { SecureVersion } from 'node:tls';

const VERSIONS: Record<string, SecureVersion> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

/** Go's cipher suite names -> OpenSSL's. */
const CIPHERS: Record<string, string> = {
  // Secure (tls.CipherSuites()).
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  // Go's older spellings of the same two.
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  // Insecure (tls.InsecureCipherSuites()), accepted by kube with a warning.
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
};

const INSECURE = new Set(Object.keys(CIPHERS).slice(Object.keys(CIPHERS).indexOf('TLS_RSA_WITH_RC4_128_SHA')));

const TLS13 = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

/** --tls-min-version; empty is kube's default, TLS 1.2. Throws kube's message for an unknown name. */
export function parseMinVersion(s: string): SecureVersion {
  if (s === '') return 'TLSv1.2';
  const v = VERSIONS[s];
  if (!v) throw new Error(`unknown tls version "${s}"`);
  return v;
}

export interface CipherChoice {
  /** OpenSSL's cipher list for TLS 1.2 and below; undefined keeps OpenSSL's defaults. */
  ciphers?: string;
  /** Only TLS 1.3 suites were named: Go then has no suite for TLS 1.2, so only 1.3 is served. */
  tls13Only: boolean;
}

/** --tls-cipher-suites. Throws kube's message for an unknown name. */
export function parseCipherSuites(list: string[]): CipherChoice {
  if (list.length === 0) return { tls13Only: false };
  const out: string[] = [];
  let insecure = false;
  for (const name of list) {
    if (TLS13.has(name)) continue;
    const c = CIPHERS[name];
    if (!c) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
    if (INSECURE.has(name)) insecure = true;
    out.push(c);
  }
  if (out.length === 0) return { tls13Only: true };
  // OpenSSL 3 keeps RC4, 3DES and SHA-256 CBC suites behind security level 0; a suite the user
  // named is one they want.
  return { ciphers: insecure ? `${out.join(':')}:@SECLEVEL=0` : out.join(':'), tls13Only: false };
}
