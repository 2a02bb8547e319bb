# bench/nginx-site.sh: sourced by bench/nginx-busy.sh and
# bench/dropped-charges.sh.  nginx_site DIR PORT writes, in DIR, the site
# both record: a 2 KiB static page (www/index.html), nginx.conf (master + 2
# workers, sendfile, on 127.0.0.1:PORT, its pid, log and temporary files in
# DIR) and the temporary directories, readable by nginx's user.
nginx_site() {
	local dir=$1 port=$2 i
	mkdir -p "$dir/www" "$dir/tmp"
	for i in $(seq 1 40); do
		printf 'line %02d of the overbook nginx bench page......\n' "$i"
	done >"$dir/www/index.html"
	cat >"$dir/nginx.conf" <<CONF
user www-data;
worker_processes 2;
daemon off;
master_process on;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    sendfile on;
    keepalive_timeout 65;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    default_type text/html;
    server { listen 127.0.0.1:$port reuseport; root $dir/www; }
}
CONF
	chown -R www-data: "$dir/tmp" 2>/dev/null || true
	chmod -R a+rX "$dir"
}
