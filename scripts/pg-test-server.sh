#!/usr/bin/env bash
# Starts Debian's PostgreSQL for the tests (when installed and not running) and makes sure a test
# role exists. Prints the admin URL the tests use to create their own databases.
set -euo pipefail
URL="postgres://quin_test:quin_test@127.0.0.1:5432/postgres"
command -v pg_lsclusters >/dev/null || { echo "postgresql is not installed" >&2; exit 3; }
ver=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1{print $1}')
[ -n "$ver" ] || { echo "no PostgreSQL cluster" >&2; exit 3; }
if ! pg_lsclusters -h | awk 'NR==1{print $4}' | grep -q online; then
  # pg_ctlcluster may print notices on stdout (systemd advice); stdout carries only the URL.
  if [ "$(id -u)" = "0" ]; then pg_ctlcluster "$ver" main start >&2; else sudo -n pg_ctlcluster "$ver" main start >&2; fi
fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 0.5; done
run_psql() { if [ "$(id -u)" = "0" ]; then su postgres -c "psql -qtAX -c \"$1\""; else sudo -n -u postgres psql -qtAX -c "$1"; fi; }
if [ "$(run_psql "SELECT 1 FROM pg_roles WHERE rolname='quin_test'")" != "1" ]; then
  run_psql "CREATE ROLE quin_test LOGIN CREATEDB PASSWORD 'quin_test'" >/dev/null
fi
echo "$URL"
