#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium headless shell (browser downloads cannot work here): the browser built
# for headless runs, without the full browser's UI processes (about a fifth less CPU per test than /usr/bin/chromium
# on this suite). Install it when missing. CHROMIUM_PATH names another binary to use instead.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/lib/chromium/chromium-headless-shell ]; then exit 0; fi
echo "Chromium's headless shell not found: installing Debian's chromium-headless-shell package (needs root)..."
if [ "$(id -u)" -ne 0 ]; then
  echo "Run as root, or install it yourself: sudo apt-get install -y chromium-headless-shell fonts-liberation" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium-headless-shell fonts-liberation >/dev/null
echo "Chromium headless shell installed: $(/usr/lib/chromium/chromium-headless-shell --version)"
