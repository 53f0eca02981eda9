#!/usr/bin/env bash
# End-to-end tests drive Debian's Chromium (browser downloads cannot work here). Install it when missing.
set -euo pipefail
if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then exit 0; fi
echo "Chromium not found: installing Debian's chromium package (needs root)..."
if [ "$(id -u)" -ne 0 ]; then
  echo "Run as root, or install Chromium yourself: sudo apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-liberation >/dev/null
echo "Chromium installed: $(/usr/bin/chromium --version)"
