#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (Debian etcd-server and haproxy, the npm packages), builds, tests.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
npm ci --no-audit --no-fund
npm test
