set -u
cd /tmp/xsi
eval "$(cat ./env-4.0.sh)"
export SSL_CERT_DIR=./emptydir
for i in 1 2 3 4; do
  SSL_CERT_FILE=/dev/null ./perfrun-4.0 run -impl openssl-paths -param hit=0 -threads 1 -rounds 3 -plots none -q -o v4-$i.txt -exec-unit us -order-seed $i \
    -exec 'xsi=env SSL_CERT_FILE={corpus}/objects.pem ./xsi-4.0 -t {corpus} {threads}' \
    -exec 'xsisettime=env SSL_CERT_FILE={corpus}/objects.pem ./xsi-4.0-settime -t {corpus} {threads}' \
    -exec 'xsinocert=env SSL_CERT_FILE={corpus}/objects.pem ./xsi-4.0-nocert -t {corpus} {threads}' > v4-$i.table 2>&1
  echo "$i $?"
done
