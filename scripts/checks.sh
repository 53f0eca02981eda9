#!/usr/bin/env bash
# `npm test`'s first step: lint (eslint + prettier) and the type check of every workspace, side by side (each is one
# process on one core). Each one's output is printed whole when it ends, so the two never interleave; the step fails
# if either does.
set -uo pipefail
cd "$(dirname "$0")/.."
lint_log=$(mktemp) types_log=$(mktemp)
trap 'rm -f "$lint_log" "$types_log"' EXIT
npm run --silent lint >"$lint_log" 2>&1 &
lint=$!
npm run --silent typecheck >"$types_log" 2>&1 &
types=$!
wait "$lint"; lint_status=$?
echo "== lint (eslint, prettier): exit $lint_status"; cat "$lint_log"
wait "$types"; types_status=$?
echo "== typecheck: exit $types_status"; cat "$types_log"
[ "$lint_status" -eq 0 ] && [ "$types_status" -eq 0 ]
