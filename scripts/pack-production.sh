#!/usr/bin/env bash
# Lays out a production install of an already built checkout (`npm ci && npm run build`) in DEST: the built server
# (apps/server/dist), the built web app (apps/web/dist), the package manifests, and `npm ci --omit=dev`'s
# node_modules. Nothing else: no sources, no TypeScript, no tsx. The Dockerfile runs this very script, and
# scripts/check-production.sh runs it in CI, so what the container holds is what CI starts.
#
#   bash scripts/pack-production.sh /opt/flywheel && node /opt/flywheel/apps/server/dist/main.js
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:?usage: scripts/pack-production.sh DEST}

for built in apps/server/dist/main.js apps/web/dist/index.html; do
  [ -f "$built" ] || { echo "pack-production: $built is missing; run npm run build first" >&2; exit 1; }
done

mkdir -p "$dest"
# npm ci needs every workspace's manifest (the lockfile names them all), not their sources.
for manifest in package.json package-lock.json .npmrc apps/*/package.json packages/*/package.json e2e/package.json; do
  [ -f "$manifest" ] || continue
  mkdir -p "$dest/$(dirname "$manifest")"
  cp "$manifest" "$dest/$manifest"
done
rm -rf "$dest/apps/server/dist" "$dest/apps/web/dist"
cp -R apps/server/dist "$dest/apps/server/dist"
cp -R apps/web/dist "$dest/apps/web/dist"
[ -f .env.example ] && cp .env.example "$dest/.env.example"
[ -f LICENSE ] && cp LICENSE "$dest/LICENSE"
(cd "$dest" && npm ci --omit=dev --no-audit --no-fund)
echo "pack-production: a production install is in $dest (start: node apps/server/dist/supervise.js)"
