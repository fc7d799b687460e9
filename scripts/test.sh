#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs what the tests need
# (Debian etcd-server and haproxy, Go for the chaos checker, Debian python3-kubernetes for the
# Python client test, the npm packages), builds, tests, then runs the short chaos schedule.
set -euo pipefail
cd "$(dirname "$0")/.."

# etcd-server and haproxy (the etcd backend, the replicated mode): scripts/install-deps.sh.
scripts/install-deps.sh go
# Go's own install lives outside a minimal PATH.
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then export PATH="$PATH:/usr/local/go/bin"; fi
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

# The short chaos schedule: 6 runs of 20 s, one fault each (a node killed, the etcd leader
# paused, a rolling restart, a node paused, the etcd leader killed, a node restarted), every
# history checked. About 3 minutes on 2 cores; longer runs on demand (README, Chaos tests).
CHAOS_DIR="$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/kapi-chaos-XXXXXX")"
if CHAOS_RUNS="${CHAOS_RUNS:-6}" CHAOS_SECONDS="${CHAOS_SECONDS:-20}" npm run --silent chaos -- --data-dir "$CHAOS_DIR"; then
  rm -rf "$CHAOS_DIR"
else
  status=$?
  # The failing histories and their reports stay for a look; print the reports.
  cat "$CHAOS_DIR"/chaos/run-*/report.txt 2>/dev/null | head -400 || true
  echo "chaos: FAILED; histories kept in $CHAOS_DIR/chaos" >&2
  exit $status
fi
