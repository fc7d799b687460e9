#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (Debian etcd-server and haproxy, Debian python3-kubernetes for the Python client test,
# the npm packages), builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# etcd-server and haproxy (the etcd backend, the replicated mode): scripts/install-deps.sh.
scripts/install-deps.sh
MISSING=()
# The Python client test runs Debian's interpreter, where Debian's package installs.
if ! /usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1; then MISSING+=(python3-kubernetes); fi
if [ ${#MISSING[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${MISSING[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
npm test
