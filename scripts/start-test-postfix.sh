#!/usr/bin/env bash
# Starts this machine's Postfix as a receiving mail server for the verifier's real-server test
# (src/server/features/verification/postfix.test.ts) and prints VERIFY_POSTFIX=127.0.0.1:<port>.
# It rewrites /etc/postfix's main.cf and master.cf, so it is for throwaway machines (CI) only: it refuses
# unless TAMBARI_TEST_POSTFIX=1. The server answers for kilimo.test (mailboxes: ada; anything else is
# "User unknown") and catchall.test (accepts every address), relays nothing, and listens on loopback only,
# on a free port (never 25).
set -euo pipefail
[ "${TAMBARI_TEST_POSTFIX:-}" = 1 ] || { echo "set TAMBARI_TEST_POSTFIX=1 to let this script reconfigure Postfix" >&2; exit 2; }
command -v postfix >/dev/null || { echo "postfix is not installed" >&2; exit 1; }
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
postfix stop >/dev/null 2>&1 || true
postconf -e \
  "myhostname = mx.kilimo.test" \
  "mydestination = kilimo.test, catchall.test, localhost" \
  "inet_interfaces = loopback-only" \
  "inet_protocols = ipv4" \
  "mynetworks = 192.0.2.1/32" \
  "virtual_alias_maps = regexp:/etc/postfix/tambari-catchall" \
  "maillog_file = /var/log/postfix.log"
echo '/^.*@catchall\.test$/ root' > /etc/postfix/tambari-catchall
# Only our listener: no smtpd on port 25.
postconf -MX smtp/inet 2>/dev/null || true
sed -i '/^127\.0\.0\.1:[0-9]* *inet /d' /etc/postfix/master.cf
echo "127.0.0.1:${port} inet n - y - - smtpd" >> /etc/postfix/master.cf
id ada >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin ada
newaliases
postfix start >/dev/null 2>&1
for _ in $(seq 1 20); do
  (exec 3<>"/dev/tcp/127.0.0.1/${port}") 2>/dev/null && break
  sleep 0.5
done
echo "VERIFY_POSTFIX=127.0.0.1:${port}"
