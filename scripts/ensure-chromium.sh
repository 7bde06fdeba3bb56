#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (needs root and apt), with a
# Chinese font so the zh screenshots show characters rather than boxes, and PostgreSQL's client
# tools (pg_dump, pg_restore) for the backup tests on PostgreSQL. Outside CI a machine without
# root or apt skips the browser tests; under CI=true a missing chromium fails the run.
set -euo pipefail
packages=()
[ -x /usr/bin/chromium ] || packages+=(chromium)
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || packages+=(fonts-wqy-microhei)
command -v pg_restore >/dev/null || packages+=(postgresql-client)
if [ ${#packages[@]} = 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  if [ "${CI:-}" = true ] && [ ! -x /usr/bin/chromium ]; then
    echo "CI: chromium is missing and cannot be installed here (needs root and apt); the browser tests cannot run" >&2
    exit 1
  fi
  echo "missing ${packages[*]} and cannot install here: the browser tests will be skipped" >&2
  exit 0
fi
echo "Installing Debian's ${packages[*]} for the browser tests..."
for attempt in 1 2 3; do
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null; then exit 0; fi
  echo "apt-get failed (attempt $attempt), retrying in 10 s" >&2
  sleep 10
done
if [ -x /usr/bin/chromium ]; then echo "could not install the Chinese font; zh screenshots will show boxes" >&2; exit 0; fi
echo "could not install chromium" >&2
exit 1
