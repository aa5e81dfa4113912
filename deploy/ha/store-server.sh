# Sourced by start.sh and restart-server.sh: how the reference deployment starts Store server S (1 or 2).
# Needs: dir (the work directory), jar, java.
#
# The URL names every node; pgjdbc connects to the one that is primary now and checks again every second
# (hostRecheckSeconds) which one that is. The password is read from a file (passwordFile=), never given on the
# command line (it would show in ps). The drain (--drain-time, 5 s by default) outlasts HAProxy's decision (inter 1s fall 2), so a stop or a
# rolling restart costs no request.
store_url="jdbc:postgresql://127.0.0.1:5441,127.0.0.1:5442,127.0.0.1:5443/store?user=store&targetServerType=primary"
store_url="$store_url&hostRecheckSeconds=1&connectTimeout=2&poolSize=4&passwordFile=$dir/secrets/store-app.password"

# start_store_server S: starts it in the background, appending to store S's log; writes its PID file.
start_store_server() {
  local s=$1
  "$java" -Xmx256m -jar "$jar" serve --port "1830$s" \
    --management-port "1831$s" --storage "$store_url" >> "$dir/store$s.log" 2>&1 &
  echo $! > "$dir/store$s.pid"
}
