#!/usr/bin/env bash
# `npm test`: every suite, with both cores kept busy.
#
# 1. Lint and types (scripts/checks.sh), then the server suite on PGlite with the web suite (one file at a time)
#    beside it: the server suite leaves part of a core idle, waiting on timers and child processes.
# 2. The build the end-to-end suite runs against, then two lanes side by side:
#    - the end-to-end suite (Playwright, one test at a time), which keeps about 1.4 cores busy: its server and its
#      browser mostly take turns. It is the longest part and has the CPU first;
#    - one task at a time from a shared list, at a lower priority (nice 10): it takes what the end-to-end suite
#      leaves idle. The server suite on PostgreSQL (when TEST_DATABASE_URL is set), two files at a time (its files
#      mostly wait on the database, the emulator and timers: 2.2 CPU-minutes in 3.7 minutes alone), the
#      production-install check (scripts/check-production.sh), and the emulator and shared suites (they waited
#      half their time, alone, at the start of the run). When the end-to-end suite ends, its lane takes tasks from
#      the same list at the normal priority, so the second core is not left idle while one lane finishes alone.
#    The end-to-end suite must pass with the other core busy anyway (docs/development.md). Each task's output is
#    printed whole when the lanes are done, so nothing interleaves.
# (Tried 2026-11-28 and dropped: the end-to-end and PGlite suites first, side by side, then the rest from one list.
# The run was CPU-bound throughout and took longer: 1,546 s against ~1,430 on a slow 2-core VM, and the web
# suite's two workers, beside both, ran its longest tests past their 30 s timeout.)
# Stops at the first step of part 1 that fails; in part 2 every suite runs, and the run fails if any did.
set -uo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
# Each step's heading says when it began (seconds into the run), so a slow run's log shows where the time went.
step() { echo; echo "== $* (at $(( $(date +%s) - started )) s)"; }

step "lint and types"
npm run --silent checks || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The web suite (one file at a time) beside the server's: the server suite leaves part of the second core idle
# (its tests wait on timers, the emulator and child processes), which the web suite takes. Its output follows.
step "server (PGlite), with the web suite beside it"
(cd apps/web && npx vitest run --maxWorkers 1) >"$work/web.log" 2>&1 &
web=$!
(cd apps/server && npx vitest run --project pglite)
server_status=$?
echo "== server (PGlite): done (at $(( $(date +%s) - started )) s)"
wait "$web"
web_status=$?
echo "== web: done (at $(( $(date +%s) - started )) s)"
step "web, one file at a time (beside the server suite)"
cat "$work/web.log"
[ "$server_status" -eq 0 ] && [ "$web_status" -eq 0 ] || exit 1

step "build (for the end-to-end suite and the production check)"
NODE_ENV=development npm run build || exit 1
# The shared list: one task a line, taken in order by whichever lane is free (under a lock).
tasks=()
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  tasks+=("server (PostgreSQL), two files at a time|cd apps/server && npx vitest run --project postgres --maxWorkers 2")
fi
tasks+=("production install|npm run --silent test:production")
tasks+=("emulator|npm test -w packages/slack-emulator")
tasks+=("shared|npm test -w packages/shared")
echo 0 >"$work/next"
: >"$work/failed"
# Takes tasks until none is left; each task's output goes to its own log, its failure to the list of failures.
lane() {
  while true; do
    local i
    i=$(
      flock "$work/next" bash -c 'i=$(cat "$1"); echo $((i + 1)) >"$1"; echo "$i"' _ "$work/next"
    )
    [ "$i" -ge "${#tasks[@]}" ] && return 0
    local name=${tasks[$i]%%|*} command=${tasks[$i]#*|}
    { echo; echo "== $name (at $(( $(date +%s) - started )) s)"; } >"$work/task-$i.log"
    (
      [ -n "$lower_priority" ] && renice -n 10 -p "$BASHPID" >/dev/null
      eval "$command"
    ) >>"$work/task-$i.log" 2>&1 || echo "$name" >>"$work/failed"
    echo "== $name: done (at $(( $(date +%s) - started )) s)" >>"$work/task-$i.log"
  done
}
lower_priority=1 lane &
other=$!

step "end to end (beside the task lane)"
npm run e2e -w e2e
e2e_status=$?
echo "== end to end: done (at $(( $(date +%s) - started )) s)"
lower_priority="" lane
wait "$other"
for i in "${!tasks[@]}"; do cat "$work/task-$i.log"; done
echo
if [ -s "$work/failed" ]; then
  sed 's/^/== failed: /' "$work/failed"
fi
echo "== end to end: exit $e2e_status; other tasks: $([ -s "$work/failed" ] && echo failed || echo passed)"
[ "$e2e_status" -eq 0 ] && [ ! -s "$work/failed" ]
