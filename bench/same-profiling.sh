#!/bin/bash
# bench/same-profiling.sh BASEBIN NEWBIN [WORKDIR]: the profiling tools (and
# ovb-convolve, ovb-replay, ovb-import) of two builds on the shipped traces
# (t/fixtures), the t/data examples and their error cases: every command
# must give the same stdout, stderr and exit status.  Used for issue 10 (the
# refactoring must not change any output), e.g.
#   git worktree add /tmp/base 55c07cb && make -C /tmp/base
#   sh bench/same-profiling.sh /tmp/base/bin bin
# Exception: an empty input is now refused by the shared sniffer
# (ovb_read_input: "empty input: no magic record") where ovb-usage,
# ovb-tbucket and ovb-replay named the one format they expected; for those
# (run_msg) only stdout and the status must agree.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$1" && pwd) N=$(cd "$2" && pwd) D=$ROOT/t/data
W=${3:-$ROOT/build/same-profiling}
set -u
rm -rf "$W"
mkdir -p $W/in
if [ ! -s $W/in/redis.onoff ]; then
  for f in nginx postgres redis; do
    main=$(awk '$1 == "main_pid" { print $2 }' $ROOT/t/fixtures/$f.acct)
    gzip -dc $ROOT/t/fixtures/$f.perf.data.gz > $W/in/p.data; $B/ovb-onoff -c "$f=pid:$main" -o $W/in/$f.onoff $W/in/p.data; rm $W/in/p.data
  done
  $B/ovb-import --bitbrains $D/replay-bitbrains.csv -o $W/in/bb.series
  printf 'ovb-usage 1\n' > $W/in/bad
  : > $W/in/empty
fi
I=$W/in
ON="$I/nginx.onoff $I/postgres.onoff $I/redis.onoff"
n=0 bad=0
msg_only=0
run_msg() { msg_only=1; run "$@"; msg_only=0; }
run() {   # run NAME ARGS... (tool first)
  local name=$1; shift
  local tool=$1; shift
  (cd $W && $B/$tool "$@" >$W/b.out 2>$W/b.err; echo $? >$W/b.rc)
  (cd $W && $N/$tool "$@" >$W/n.out 2>$W/n.err; echo $? >$W/n.rc)
  n=$((n+1))
  if [ $msg_only = 1 ] && cmp -s $W/b.out $W/n.out && cmp -s $W/b.rc $W/n.rc; then
    echo "same  $name (rc $(cat $W/n.rc); message: $(cat $W/n.err))"
  elif cmp -s $W/b.out $W/n.out && cmp -s $W/b.err $W/n.err && cmp -s $W/b.rc $W/n.rc; then
    echo "same  $name (rc $(cat $W/n.rc), $(wc -c <$W/n.out) bytes)"
  else
    bad=$((bad+1)); echo "DIFF  $name"; diff $W/b.err $W/n.err | head -5; cmp $W/b.out $W/n.out; diff $W/b.rc $W/n.rc
  fi
}
run usage-fixtures ovb-usage -I 0.01 $ON
cp $W/n.out $I/fx.usage
run usage-fixtures-all ovb-usage -r all -p 97.5,99.9 $ON
run usage-fixtures-w ovb-usage -I 0.1 -r cpu,net-rx -w 0.05 -w net-rx=1000 -c nginx,redis $ON
run usage-example ovb-usage $D/example.onoff
run usage-example-all ovb-usage -r all -I 0.5 $D/example.onoff
run usage-series ovb-usage $D/example.series
run usage-series-I ovb-usage -I 600 -r all $D/example.series
run usage-series-badI ovb-usage -I 450 $D/example.series
run usage-replay-series ovb-usage -r all $D/replay-small.series $D/replay-small-guard.series
run usage-bb ovb-usage -r all -v $I/bb.series
run usage-bb-I ovb-usage -I 3600 $I/bb.series
run usage-mixed ovb-usage $D/example.onoff $I/bb.series
run usage-dup ovb-usage $D/example.onoff $D/example.onoff
run usage-cluster ovb-usage $D/example.cluster
run usage-missing ovb-usage /nonexistent
run usage-bad ovb-usage $I/bad
run_msg usage-empty ovb-usage $I/empty
run usage-nocap ovb-usage -c nosuch $D/example.onoff
run tbucket-fixtures ovb-tbucket $ON
cp $W/n.out $I/fx.curve
run tbucket-fixtures-all ovb-tbucket -r all -v $ON
run tbucket-example ovb-tbucket -r all $D/example.onoff
run tbucket-series ovb-tbucket -r all $D/example.series
run tbucket-replay-series ovb-tbucket -r cpu,net $D/replay-small.series
run tbucket-bb ovb-tbucket -r all -v $I/bb.series
run tbucket-mixed ovb-tbucket -c redis,web $I/redis.onoff $D/example.series
run tbucket-cluster ovb-tbucket $D/example.cluster
run_msg tbucket-empty ovb-tbucket $I/empty
run tbucket-bad ovb-tbucket $I/bad
run tbucket-badr ovb-tbucket -r cpu,,net $D/example.onoff
run tbucket-badr2 ovb-tbucket -r disk $D/example.onoff
run usage-badr ovb-usage -r ,cpu $D/example.onoff
run profile-fixtures ovb-profile -O 0.01 -t 1 $I/fx.usage $I/fx.curve
run profile-fixtures2 ovb-profile -O 0.05 -t 0.5 $I/fx.curve $I/fx.usage
run profile-example ovb-profile -O 0.01 -t 1 $D/example.usage $D/example.curve
run profile-cluster ovb-profile -O 0.01 -t 1 $D/example.cluster
run profile-dup ovb-profile -O 0.01 -t 1 $I/fx.usage $I/fx.usage $I/fx.curve
run profile-empty ovb-profile -O 0.01 -t 1 $I/empty
run convolve-fixtures ovb-convolve -r cpu -C 1 $I/fx.usage
run convolve-example ovb-convolve -r cpu -C 0.5 -C 1 $D/example.usage
run convolve-profile ovb-convolve -r cpu -C 0.5 -C 1 --dist $D/example.profile
run convolve-exact ovb-convolve -r cpu --exact -C 1 --dist $I/fx.usage
run convolve-cluster ovb-convolve -C 1 $D/example.cluster
run convolve-dup ovb-convolve -C 1 $D/example.usage $D/example.usage
run convolve-empty ovb-convolve -C 1 $I/empty
run replay-small ovb-replay $D/replay-small.plan $D/replay-small.cluster $D/replay-small.series
run replay-guard ovb-replay --guard $D/replay-small-guard.series $D/replay-small.plan $D/replay-small.cluster $D/replay-small.series
run replay-cluster ovb-replay $D/replay-small.cluster $D/replay-small.cluster $D/replay-small.series
run replay-badseries ovb-replay $D/replay-small.plan $D/replay-small.cluster $D/replay-small.plan
run_msg replay-empty ovb-replay $D/replay-small.plan $I/empty $D/replay-small.series
run replay-missing ovb-replay $D/replay-small.plan $D/replay-small.cluster /nonexistent
run import-bb ovb-import --bitbrains -r cpu,net $D/replay-bitbrains.csv
run import-bb2 ovb-import --bitbrains -r all $D/replay-bitbrains.csv
run import-badr ovb-import --bitbrains -r cpu, $D/replay-bitbrains.csv
echo "$n commands, $bad differ"
[ $bad = 0 ]
