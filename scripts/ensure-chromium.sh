#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (needs root and apt).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "chromium is missing and cannot be installed here: browser tests will be skipped" >&2
  exit 0
fi
echo "Installing Debian's chromium for the browser tests..."
for attempt in 1 2 3; do
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; then exit 0; fi
  echo "apt-get failed (attempt $attempt), retrying in 10 s" >&2
  sleep 10
done
echo "could not install chromium" >&2
exit 1
