ovb-profile 1
# profile CAPSULE RES; sigma RATE UNIT (rate); rho BURST UNIT (burst);
# tau PERIOD s; O TOLERANCE; U as in ovb-usage; curve SIGMA RHO
# x and y: 0.25 cpu in 3 of 4 intervals, 0.75 cpu in 1.  Together on node a
# (1 cpu): Y is 0.5 (9/16), 1 (6/16) or 1.5 (1/16), so Pr(Y > 1) = 1/16.
profile x cpu
sigma 0.75 cpu
rho 0.05 cpu-s
tau 1 s
O 0.1
interval 1 s
width 0.25 cpu
intervals 4
mean 0.375 cpu
pct 50 0.25 cpu
pct 100 0.75 cpu
bin 1 3
bin 3 1
curve 0.375 0.2
curve 0.5 0.1
curve 0.75 0.05
curve 1 0
profile x net
sigma 500000 B/s
rho 10000 B
tau 1 s
O 0.1
interval 1 s
width 100000 B/s
intervals 2
pct 50 200000 B/s
pct 100 500000 B/s
bin 2 1
bin 5 1
profile y cpu
sigma 0.75 cpu
rho 0.05 cpu-s
tau 1 s
O 0.1
interval 1 s
width 0.25 cpu
intervals 4
pct 100 0.75 cpu
bin 1 3
bin 3 1
