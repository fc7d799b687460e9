// What a container runtime (containerd) would report for a simulated container: the image's
// full reference, an image ID with a digest, a container ID; and the node's own address.

import { createHash, randomBytes } from 'node:crypto';

/** The normalized reference containerd reports: docker.io/library/nginx:latest for "nginx". */
export function normalizeImage(image: string): string {
  let name = image;
  let digest = '';
  const at = name.indexOf('@');
  if (at >= 0) {
    digest = name.slice(at);
    name = name.slice(0, at);
  }
  const slash = name.indexOf('/');
  const first = slash >= 0 ? name.slice(0, slash) : '';
  const hasDomain = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasDomain) name = `docker.io/${slash >= 0 ? name : `library/${name}`}`;
  const lastSlash = name.lastIndexOf('/');
  const hasTag = name.slice(lastSlash + 1).includes(':');
  if (!hasTag && !digest) name += ':latest';
  return name + digest;
}

/** `<repository>@sha256:<digest>`: the pinned digest, or one made up from the reference. */
export function imageID(image: string): string {
  const ref = normalizeImage(image);
  const at = ref.indexOf('@');
  const named = at >= 0 ? ref.slice(0, at) : ref;
  const lastSlash = named.lastIndexOf('/');
  const colon = named.indexOf(':', lastSlash + 1);
  const repo = colon >= 0 ? named.slice(0, colon) : named;
  return at >= 0 ? repo + ref.slice(at) : `${repo}@sha256:${createHash('sha256').update(ref).digest('hex')}`;
}

export const newContainerID = (): string => `containerd://${randomBytes(32).toString('hex')}`;

/** A stable address for a node, from its name (kind's nodes live in 172.18.0.0/16). */
export function nodeAddress(name: string): string {
  const h = createHash('sha256').update(name).digest();
  const n = (h.readUInt16BE(0) % 65_000) + 2;
  return `172.18.${n >> 8}.${n & 0xff}`;
}
