#!/usr/bin/env bash
# CI's check that the built product runs as a production install, as the container image runs it: packs a built
# checkout with scripts/pack-production.sh (the Dockerfile's build step) into a temporary directory, which gets
# production dependencies only, applies the migrations with ROLE=migrate (compose.yml's one-shot service), then
# starts the Dockerfile's CMD with plain node and NODE_ENV=production on an empty embedded database in demo mode: it
# must be live and ready, serve the web app, and let the demo administrator sign in and see the demo workspace.
# Run after `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${CHECK_PRODUCTION_PORT:-3700}
emulator_port=${CHECK_PRODUCTION_EMULATOR_PORT:-3799}
dest=$(mktemp -d /tmp/flywheel-production.XXXXXX)
data=$(mktemp -d /tmp/flywheel-production-data.XXXXXX)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$dest" "$data"
}
trap cleanup EXIT
fail() {
  echo "check-production: $*" >&2
  [ -f "$data/server.log" ] && tail -40 "$data/server.log" >&2
  exit 1
}

grep -q "scripts/pack-production.sh" Dockerfile || fail "the Dockerfile does not build with scripts/pack-production.sh"
bash scripts/pack-production.sh "$dest" >/dev/null
for dev_only in tsx typescript vite vitest esbuild drizzle-kit @playwright/test react; do
  [ ! -e "$dest/node_modules/$dev_only" ] || fail "the production install holds a development dependency: $dev_only"
done

# What the container runs (the Dockerfile's CMD), after what compose.yml runs once first (ROLE=migrate).
cmd=$(sed -nE 's/^CMD \[(.*)\]$/\1/p' Dockerfile | tr -d '",')
[ -n "$cmd" ] || fail "no CMD in the Dockerfile"
export NODE_ENV=production PORT=$port HOST=127.0.0.1 PUBLIC_URL="http://127.0.0.1:$port" DATA_DIR="$data" \
  DEMO_EMULATOR_PORT=$emulator_port DEMO_MEMBERS=40 DEMO_CHANNELS=4 DEMO_DAYS=5 DEMO_LIVE_INTERVAL_MS=0
(cd "$dest" && ROLE=migrate $cmd) >"$data/migrate.log" 2>&1 || { cat "$data/migrate.log" >&2; fail "ROLE=migrate failed"; }
(cd "$dest" && exec $cmd) >"$data/server.log" 2>&1 &
server=$!

base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -sf "$base/api/health" >/dev/null && break
  kill -0 "$server" 2>/dev/null || fail "the server exited"
  sleep 1
done
curl -sf "$base/api/health/ready" | grep -q '"migrations":{"status":"ok"' || fail "not ready: $(curl -s "$base/api/health/ready")"
curl -sf "$base/api/health/live" | grep -q '"status":"ok"' || fail "not live"
curl -sf "$base/auth/login" | grep -q '<div id="root">' || fail "the web app is not served"
# The demo connects its first workspace through the install path just after start-up: the login lists it then.
login=
for _ in $(seq 1 60); do
  login=$(curl -sf -X POST "$base/api/v0/auth/login" -H 'content-type: application/json' \
    -d '{"email":"demo@flywheel.local","password":"flywheel-demo"}' || true)
  echo "$login" | grep -q '"workspace_name":"[^"]*Community' && break
  sleep 1
done
echo "$login" | grep -q '"token":"' || fail "the demo administrator could not sign in: $login"
echo "$login" | grep -q '"workspace_name":"[^"]*Community' || fail "the demo workspace is not connected: $login"
echo "check-production: the production install (production dependencies only, plain node) serves the demo"
