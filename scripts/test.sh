#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (Debian etcd-server for the etcd backend tests, the npm packages), builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v etcd >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq etcd-server >/dev/null
fi

npm ci --no-audit --no-fund
npm test
