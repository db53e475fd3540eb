#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback, for the backend suite and the two-instance
# test (contract §8). Debian's `postgresql` package is installed when missing.
#
#   scripts/postgres.sh start   start a fresh cluster on a free port; prints its URL
#   scripts/postgres.sh url     prints the URL of the running cluster
#   scripts/postgres.sh stop    stops it and deletes its files
#
# The cluster lives in a temporary folder; out/postgres/state says where. PostgreSQL
# refuses to run as root, so as root the server runs as the `postgres` system user.
set -euo pipefail
cd "$(dirname "$0")/.."

STATE_DIR=out/postgres
STATE="$STATE_DIR/state"
DATABASE=ambient
SUPERUSER=postgres

die() {
    echo "postgres.sh: $*" >&2
    exit 1
}

bindir() {
    # The newest installed server; Debian keeps each major version in its own folder.
    find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -n 1
}

install_if_missing() {
    [ -n "$(bindir)" ] && return 0
    [ "$(id -u)" -eq 0 ] || die "PostgreSQL is not installed; as root, run: apt-get install postgresql"
    command -v apt-get >/dev/null || die "PostgreSQL is not installed and there is no apt-get to install it."
    echo "postgres.sh: installing Debian's postgresql package ..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    [ -n "$(bindir)" ] || die "installing postgresql did not provide a server in /usr/lib/postgresql."
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

load_state() {
    [ -f "$STATE" ] || die "no cluster is running (scripts/postgres.sh start starts one)."
    # shellcheck source=/dev/null
    . "$STATE"
}

print_url() {
    echo "postgresql+psycopg://$SUPERUSER:$PASSWORD@127.0.0.1:$PORT/$DATABASE"
}

running() {
    [ -f "$STATE" ] || return 1
    load_state
    as_owner "$BIN/pg_ctl" -D "$CLUSTER/data" status >/dev/null 2>&1
}

start() {
    if running; then
        print_url
        return 0
    fi
    install_if_missing
    BIN="$(bindir)"
    CLUSTER="$(mktemp -d "${TMPDIR:-/tmp}/ambient-postgres.XXXXXX")"
    PASSWORD="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
    printf '%s\n' "$PASSWORD" >"$CLUSTER/password"
    chmod 700 "$CLUSTER"
    chmod 600 "$CLUSTER/password"
    [ "$(id -u)" -ne 0 ] || chown -R postgres: "$CLUSTER"
    as_owner "$BIN/initdb" -D "$CLUSTER/data" -U "$SUPERUSER" --pwfile="$CLUSTER/password" \
        --auth=scram-sha-256 -E UTF8 --no-locale --no-sync >"$CLUSTER/initdb.log" 2>&1 ||
        die "initdb failed: $(cat "$CLUSTER/initdb.log")"
    # A throwaway cluster: durability settings off, loopback only, socket in its own folder.
    local tries=0
    until PORT="$(free_port)" && as_owner "$BIN/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$CLUSTER -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        start >/dev/null; do
        tries=$((tries + 1))
        [ "$tries" -lt 3 ] || die "the server did not start: $(tail -n 5 "$CLUSTER/server.log")"
    done
    mkdir -p "$STATE_DIR"
    umask 077
    printf 'BIN=%q\nCLUSTER=%q\nPORT=%q\nPASSWORD=%q\n' "$BIN" "$CLUSTER" "$PORT" "$PASSWORD" >"$STATE"
    PGPASSWORD="$PASSWORD" as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$SUPERUSER" "$DATABASE" ||
        die "could not create the database $DATABASE."
    print_url
}

stop() {
    [ -f "$STATE" ] || return 0
    load_state
    as_owner "$BIN/pg_ctl" -D "$CLUSTER/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$CLUSTER" "$STATE"
}

case "${1:-}" in
start) start ;;
url)
    running || die "no cluster is running (scripts/postgres.sh start starts one)."
    print_url
    ;;
stop) stop ;;
*) die "usage: scripts/postgres.sh start|url|stop" ;;
esac
