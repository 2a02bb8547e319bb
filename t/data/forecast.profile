ovb-profile 1
# forecast.usage with the curves of t/data/backtest-mem.series:
#   ovb-profile -q -O 0.5 -t 300 t/data/forecast.usage <(ovb-tbucket -q t/data/backtest-mem.series)
# profile CAPSULE RES; sigma RATE UNIT (rate); rho BURST UNIT (burst);
# tau PERIOD s; O TOLERANCE; U as in ovb-usage; curve SIGMA RHO
profile a cpu
sigma 2 cpu
rho 450.00000000000006 cpu-s
tau 300 s
O 0.5
interval 300 s
width 0.01 cpu
intervals 6144
forecast 88200
mean 1.9166666666666667 cpu
pct 50 2 cpu
pct 90 3 cpu
pct 95 3 cpu
pct 99 3 cpu
pct 100 3 cpu
bin 100 2048
bin 200 2048
bin 250 1024
bin 300 1024
curve 1.9166666666666667 500
curve 2.5 150
curve 3 0
profile b cpu
sigma 2 cpu
rho 0 cpu-s
tau 300 s
O 0.5
interval 300 s
width 0.01 cpu
intervals 5120
forecast 87900
mean 1.7 cpu
pct 50 2 cpu
pct 90 2 cpu
pct 95 2 cpu
pct 99 2 cpu
pct 100 2 cpu
bin 100 1024
bin 150 1024
bin 200 3072
curve 1.7 180
curve 2 0
profile c cpu
sigma 0.5 cpu
rho 0 cpu-s
tau 300 s
O 0.5
interval 300 s
width 0.01 cpu
intervals 4096
forecast 87600
mean 0.5 cpu
pct 50 0.5 cpu
pct 90 0.5 cpu
pct 95 0.5 cpu
pct 99 0.5 cpu
pct 100 0.5 cpu
bin 50 4096
curve 0.5 0
