ovb-profile 1
# profile CAPSULE RES; sigma RATE UNIT (rate); rho BURST UNIT (burst);
# tau PERIOD s; O TOLERANCE; U as in ovb-usage; curve SIGMA RHO
profile w cpu
sigma 1 cpu
rho 0.5 cpu-s
tau 1 s
O 0.25
interval 0.5 s
width 0.01 cpu
intervals 8
wait 70000000 30000000 2000000000 receipt
mean 0.5 cpu
pct 50 0 cpu
pct 90 2 cpu
pct 95 2 cpu
pct 99 2 cpu
pct 100 2 cpu
bin 0 5
bin 100 2
bin 200 1
curve 0.5 0.75
curve 2 0
profile d cpu
sigma 0 cpu
rho 0.19 cpu-s
tau 1 s
O 0.25
interval 0.5 s
width 0.01 cpu
intervals 8
wait 50000000 - 150000000 demand
mean 0.05 cpu
pct 50 0 cpu
pct 90 0.4 cpu
pct 95 0.4 cpu
pct 99 0.4 cpu
pct 100 0.4 cpu
bin 0 7
bin 40 1
