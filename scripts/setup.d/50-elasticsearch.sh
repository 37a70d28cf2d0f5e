#!/usr/bin/env bash
# The Elasticsearch server the tests run against (scripts/es-node.sh install: fetched from Maven
# Central once, unpacked under .cache/elasticsearch/). The product does not need it, so a machine
# where it cannot be fetched still sets up; the tests then fail with the reason (scripts/test.mjs).
set -uo pipefail
cd "$(dirname "$0")/../.."
if home=$(bash scripts/es-node.sh install 2>&1); then
  echo "  elasticsearch: ${home##*/}"
else
  echo "  WARNING: the Elasticsearch node of the tests is not available: $home" >&2
fi
