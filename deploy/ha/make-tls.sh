#!/usr/bin/env bash
# Makes the TLS files an inventory's "tls DIR" line names, for a team without a CA of its own: a private CA
# (DIR/ca.crt, DIR/ca.key: keep the key offline once done) and, per database or etcd host, DIR/NAME.crt and
# DIR/NAME.key, signed by it, naming the host's address and name (subjectAltName), for serverAuth and clientAuth
# (PostgreSQL, Patroni's REST API, etcd's clients and peers), valid 825 days. Existing files are kept.
#
# usage: deploy/ha/make-tls.sh INVENTORY DIR
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
inventory=$1; dir=$2
mkdir -p -m 700 "$dir"
if [ ! -s "$dir/ca.key" ]; then
  (umask 077; openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/CN=store-ha private CA" \
    -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null)
fi
sed 's/#.*//' "$inventory" | while read -r kind name address roles; do
  [ "$kind" = host ] || continue
  case " $roles " in *" postgres "*|*" etcd "*) ;; *) continue;; esac
  [ -s "$dir/$name.crt" ] && continue
  (umask 077; openssl req -newkey rsa:3072 -nodes -subj "/CN=$name" -keyout "$dir/$name.key" -out "$dir/$name.csr" 2>/dev/null)
  printf 'subjectAltName=IP:%s,DNS:%s\nextendedKeyUsage=serverAuth,clientAuth\n' "$address" "$name" > "$dir/$name.ext"
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 825 \
    -extfile "$dir/$name.ext" -out "$dir/$name.crt" 2>/dev/null
  rm -f "$dir/$name.csr" "$dir/$name.ext"
  echo "make-tls: $dir/$name.crt for $name ($address)"
done
