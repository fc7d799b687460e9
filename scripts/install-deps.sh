#!/usr/bin/env bash
# Installs the Debian packages kapi runs with, where missing: etcd-server (the etcd backend,
# its tests, and the replicated mode) and haproxy (the replicated mode's balancer). Used by
# scripts/test.sh and `npm run cluster`. haproxy lives in /usr/sbin, which a user's PATH may lack.
# With `go`, also a Go toolchain (Debian's golang-go, where no go is found): `npm run chaos`
# builds its porcupine checker with it.
set -euo pipefail
missing=()
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ "${1:-}" = go ]; then
  command -v go >/dev/null 2>&1 || [ -x /usr/local/go/bin/go ] || missing+=(golang-go)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
