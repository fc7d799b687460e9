// Client certificates (kube's x509 authenticator with CommonNameUserConversion): the TLS
// handshake asks for a certificate and verifies it against the client CA bundle without
// refusing the connection (kube's RequestClientCert), and this authenticator reads the
// outcome. A verified certificate names the user in its CN and the groups in its O entries;
// one that failed verification (another CA, expired, not for client auth) is an invalid
// credential; a verified one without a CN is no credential (kube answers "not ok" for it).

import type { DetailedPeerCertificate, PeerCertificate } from 'node:tls';
import { invalid, NO_CREDENTIAL, type Authenticator, type AuthnRequest, type AuthnResult } from './authenticator.js';
import { CREDENTIAL_ID_KEY, type UserInfo } from './user.js';

/** What this authenticator needs of a TLS socket (tls.TLSSocket, or HTTP/2's proxy of one). */
interface PeerSocket {
  authorized?: boolean;
  authorizationError?: Error | string | null;
  getPeerCertificate?(detailed?: boolean): PeerCertificate | DetailedPeerCertificate;
}

/** A connection's verdict, worked out once: the certificate is the same for every request on it. */
interface Verdict {
  result: AuthnResult;
  /** The certificate's validity, checked again on each request as kube checks at request time. */
  notBefore: number;
  notAfter: number;
  id: string;
}

const verdicts = new WeakMap<object, Verdict>();

function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** kube's certificateIdentifier, for the log line of a refused certificate. */
function identify(cert: PeerCertificate): string {
  const sn = cert.serialNumber ? BigInt(`0x${cert.serialNumber}`).toString() : '';
  return `SN=${sn}`;
}

function judge(sock: PeerSocket): Verdict | undefined {
  const cert = sock.getPeerCertificate?.(false);
  // Node answers an empty object when the peer sent no certificate.
  if (!cert || !cert.raw) return undefined;
  const notBefore = Date.parse(cert.valid_from);
  const notAfter = Date.parse(cert.valid_to);
  const id = identify(cert);
  if (!sock.authorized) {
    const why = sock.authorizationError instanceof Error ? sock.authorizationError.message : String(sock.authorizationError ?? 'unverified');
    return { result: invalid(`verifying certificate ${id} failed: ${why}`), notBefore, notAfter, id };
  }
  const cn = list(cert.subject?.CN)[0] ?? '';
  if (cn === '') return { result: NO_CREDENTIAL, notBefore, notAfter, id };
  const fingerprint = (cert.fingerprint256 ?? '').replaceAll(':', '').toLowerCase();
  const user: UserInfo = {
    name: cn,
    uid: '',
    groups: list(cert.subject?.O),
    extra: fingerprint ? { [CREDENTIAL_ID_KEY]: [`X509SHA256=${fingerprint}`] } : {},
  };
  return { result: { kind: 'user', user, by: 'x509' }, notBefore, notAfter, id };
}

export function x509Authenticator(): Authenticator {
  return {
    name: 'x509',
    authenticate(req: AuthnRequest): AuthnResult {
      const sock = req.socket as PeerSocket | null | undefined;
      if (!sock || typeof sock.getPeerCertificate !== 'function') return NO_CREDENTIAL;
      let v = verdicts.get(sock);
      if (!v) {
        const judged = judge(sock);
        if (!judged) return NO_CREDENTIAL;
        verdicts.set(sock, (v = judged));
      }
      const now = Date.now();
      if (v.result.kind === 'user' && (now < v.notBefore || now > v.notAfter)) {
        return invalid(`verifying certificate ${v.id} failed: x509: certificate has expired or is not yet valid`);
      }
      return v.result;
    },
  };
}
