#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (Debian etcd-server and haproxy, the npm packages), builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's etcd-server for the etcd backend tests, haproxy for the replicated-mode tests
# (test/cluster/, `npm run cluster`). haproxy lives in /usr/sbin, which a user's PATH may lack.
missing=()
command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
npm test
