#!/usr/bin/env bash
# `npm test`: every suite, in two lanes where the machine has room for them.
#
# 1. Lint and types (scripts/checks.sh), then the shared, emulator and server suites (the server's on PGlite), one
#    after another: each of them keeps every core busy.
# 2. The build the end-to-end suite runs against, then two lanes side by side:
#    - the end-to-end suite (Playwright, one test at a time), which keeps about one core busy: its server and its
#      browser mostly take turns;
#    - on the other core, one test file at a time: the server suite on PostgreSQL (when TEST_DATABASE_URL is set),
#      the web suite, then the production-install check (scripts/check-production.sh).
#    The end-to-end suite must pass with the other core busy anyway (docs/development.md); the second lane's output
#    is printed whole when it ends, so the two never interleave.
# Stops at the first step of part 1 that fails; in part 2 every suite runs, and the run fails if any did.
set -uo pipefail
cd "$(dirname "$0")/.."

step() { echo; echo "== $*"; }

step "lint and types"
npm run --silent checks || exit 1
step "shared"
npm test -w packages/shared || exit 1
step "emulator"
npm test -w packages/slack-emulator || exit 1
step "server (PGlite)"
(cd apps/server && npx vitest run --project pglite) || exit 1

step "build (for the end-to-end suite and the production check)"
NODE_ENV=development npm run build || exit 1

other_log=$(mktemp)
trap 'rm -f "$other_log"' EXIT
(
  status=0
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    step "server (PostgreSQL), one file at a time"
    (cd apps/server && npx vitest run --project postgres --maxWorkers 1) || status=1
  fi
  step "web, one file at a time"
  (cd apps/web && npx vitest run --maxWorkers 1) || status=1
  step "production install"
  npm run --silent test:production || status=1
  exit $status
) >"$other_log" 2>&1 &
other=$!

step "end to end (beside the second lane)"
npm run e2e -w e2e
e2e_status=$?

wait "$other"
other_status=$?
cat "$other_log"
echo
echo "== end to end: exit $e2e_status; second lane (server on PostgreSQL, web, production install): exit $other_status"
[ "$e2e_status" -eq 0 ] && [ "$other_status" -eq 0 ]
