#!/usr/bin/env bash
# A real Elasticsearch node on 127.0.0.1 for the tests, the evaluation and the benchmark: the server
# Elastic publishes on Maven Central for integration tests (few modules: no `english` analyzer, 405
# on `GET /`), pinned below. See ../shared/ENVIRONMENT.md.
#
#   scripts/es-node.sh install               fetch (Maven) and unpack under .cache/elasticsearch/
#   scripts/es-node.sh start DIR [PORT] [-E setting=value]...
#                                            a node whose config, data, logs and pid live in DIR, on
#                                            PORT (default: a free one); prints its URL on the last
#                                            line once the cluster answers. Single-node unless a
#                                            -E discovery.seed_hosts=... joins it to others.
#   scripts/es-node.sh stop DIR              stops that node by its pid and waits for it to exit
#
# Elasticsearch refuses to run as root: as root the node runs as the system user `esrun`, created
# when missing. QUIN_ES_HEAP sets the heap (default 512m); ES_JAVA_HOME a JDK (default: the first of
# /usr/lib/jvm with Java 21 or later, as Elasticsearch 9 needs).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VERSION=9.2.0
ARTIFACT=org.elasticsearch.distribution.integ-test-zip:elasticsearch:$VERSION:zip
REPO=${MAVEN_REPO:-$HOME/.m2/repository}
ZIP=$REPO/org/elasticsearch/distribution/integ-test-zip/elasticsearch/$VERSION/elasticsearch-$VERSION.zip
HOME_DIR=$ROOT/.cache/elasticsearch/elasticsearch-$VERSION
# Where the node's user reads the distribution when it cannot reach the checkout (a 0700 home).
SHARED_HOME=/var/tmp/quin-elasticsearch/elasticsearch-$VERSION
RUN_USER=esrun

die() { echo "es-node: $*" >&2; exit 1; }

java_home() {
  local j v
  for j in ${ES_JAVA_HOME:-} /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
    [ -x "$j/bin/java" ] || continue
    v=$("$j/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/{print $2}')
    [ "${v%%.*}" -ge 21 ] 2>/dev/null && { echo "$j"; return; }
  done
  die "no Java 21 or later (Elasticsearch $VERSION needs one): set ES_JAVA_HOME, or install a JDK under /usr/lib/jvm"
}

install() {
  [ -x "$HOME_DIR/bin/elasticsearch" ] && { echo "$HOME_DIR"; return; }
  command -v unzip >/dev/null || die "unzip is not installed (apt-get install unzip)"
  if [ ! -f "$ZIP" ]; then
    command -v mvn >/dev/null || die "Maven is not installed (apt-get install maven): it fetches $ARTIFACT"
    mvn -q dependency:get -Dmaven.repo.local="$REPO" -Dartifact="$ARTIFACT" -Dtransitive=false >&2 || die "could not fetch $ARTIFACT from Maven Central"
  fi
  # Unpacked beside its final place and moved in one step, so a concurrent start never sees half of it.
  local tmp
  mkdir -p "$ROOT/.cache"
  tmp=$(mktemp -d "$ROOT/.cache/elasticsearch.XXXXXX")
  unzip -q "$ZIP" -d "$tmp"
  mkdir -p "$(dirname "$HOME_DIR")"
  mv -T "$tmp/elasticsearch-$VERSION" "$HOME_DIR" 2>/dev/null || true
  rm -rf "$tmp"
  [ -x "$HOME_DIR/bin/elasticsearch" ] || die "unpacking $ZIP failed"
  echo "$HOME_DIR"
}

as_user() { if [ "$(id -u)" = "0" ]; then runuser -u "$RUN_USER" -- "$@"; else "$@"; fi; }

# The distribution as the node's user can read it: the checkout's copy, or a copy in /var/tmp.
readable_home() {
  as_user test -x "$HOME_DIR/bin/elasticsearch" 2>/dev/null && { echo "$HOME_DIR"; return; }
  if [ ! -x "$SHARED_HOME/bin/elasticsearch" ]; then
    mkdir -p "$(dirname "$SHARED_HOME")"
    cp -a "$HOME_DIR" "$SHARED_HOME.tmp.$$" && mv -T "$SHARED_HOME.tmp.$$" "$SHARED_HOME" 2>/dev/null || rm -rf "$SHARED_HOME.tmp.$$"
    chmod -R a+rX "$(dirname "$SHARED_HOME")"
  fi
  echo "$SHARED_HOME"
}

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# A node killed with SIGKILL stays a zombie until its parent reaps it (under a test runner that may be
# never): kill -0 still succeeds on one, so a zombie counts as dead.
running() { kill -0 "$1" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != "Z" ]; }
alive() { [ -f "$1/pid" ] && running "$(cat "$1/pid")"; }

# Waits until the cluster answers _cluster/health (GET / answers 405 on this distribution).
wait_health() {
  node -e '
    const [url, ms] = [process.argv[1], Number(process.argv[2])];
    const end = Date.now() + ms;
    (async () => {
      for (;;) {
        try {
          const r = await fetch(`${url}/_cluster/health?wait_for_status=yellow&timeout=5s`);
          if (r.ok) return;
        } catch {}
        if (Date.now() > end) process.exit(1);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();' "$1" "$2"
}

start() {
  local dir=${1:?usage: es-node.sh start DIR [PORT] [-E setting=value]...}
  shift
  local port=""
  if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then port=$1; shift; fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if alive "$dir"; then cat "$dir/url"; return; fi
  [ -n "$port" ] || port=$(free_port)
  local java es_home
  java=$(java_home)
  install >/dev/null
  if [ "$(id -u)" = "0" ] && ! id "$RUN_USER" >/dev/null 2>&1; then
    useradd -r -M -s /usr/sbin/nologin "$RUN_USER" || die "could not create the user $RUN_USER (Elasticsearch refuses to run as root)"
  fi
  es_home=$(readable_home)
  mkdir -p "$dir/data" "$dir/logs"
  [ -d "$dir/config" ] || cp -r "$es_home/config" "$dir/config"
  [ "$(id -u)" = "0" ] && chown -R "$RUN_USER" "$dir"
  as_user test -w "$dir/data" || die "$RUN_USER cannot write $dir (a folder above it is private): choose a DIR it can reach"
  local settings=(-E http.port="$port" -E network.host=127.0.0.1 -E path.data="$dir/data" -E path.logs="$dir/logs"
    -E xpack.security.enabled=false -E cluster.routing.allocation.disk.threshold_enabled=false)
  [[ " $* " == *discovery.seed_hosts=* ]] || settings+=(-E discovery.type=single-node)
  rm -f "$dir/pid"
  if ! as_user env ES_PATH_CONF="$dir/config" ES_JAVA_HOME="$java" ES_JAVA_OPTS="-Xms${QUIN_ES_HEAP:-512m} -Xmx${QUIN_ES_HEAP:-512m}" \
    "$es_home/bin/elasticsearch" "${settings[@]}" "$@" -d -p "$dir/pid" >"$dir/start.log" 2>&1; then
    tail -n 30 "$dir/start.log" >&2
    die "the node did not start (log: $dir/logs, $dir/start.log)"
  fi
  local url="http://127.0.0.1:$port"
  echo "$url" >"$dir/url"
  if ! wait_health "$url" "${QUIN_ES_WAIT_MS:-90000}"; then
    tail -n 30 "$dir"/logs/*.log >&2 2>/dev/null || true
    stop "$dir"
    die "the node at $url did not answer _cluster/health"
  fi
  echo "$url"
}

stop() {
  local dir=${1:?usage: es-node.sh stop DIR}
  [ -f "$dir/pid" ] || return 0
  local pid
  pid=$(cat "$dir/pid")
  if running "$pid"; then
    kill "$pid"
    for _ in $(seq 1 60); do running "$pid" || break; sleep 0.5; done
    running "$pid" && kill -9 "$pid"
  fi
  rm -f "$dir/pid"
}

case "${1:-}" in
  install) install ;;
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) die "usage: es-node.sh install | start DIR [PORT] [-E setting=value]... | stop DIR" ;;
esac
