ovb-profile 1
# example.profile with formats/profile.md's mem block for web and db
# profile CAPSULE RES; sigma RATE UNIT (rate); rho BURST UNIT (burst);
# tau PERIOD s; O TOLERANCE; U as in ovb-usage; curve SIGMA RHO
profile web cpu
sigma 0.95 cpu
rho 0.02 cpu-s
tau 1 s
O 0.01
interval 1 s
width 0.25 cpu
intervals 20
mean 0.3 cpu
pct 50 0.2 cpu
pct 99 0.95 cpu
bin 0 4
bin 1 8
bin 2 5
bin 4 3
curve 0.25 0.4
curve 0.5 0.15
curve 1 0
profile web net
sigma 4500000 B/s
rho 200000 B
tau 1 s
O 0.05
interval 1 s
width 1000000 B/s
intervals 20
mean 1250000 B/s
pct 95 4500000 B/s
bin 0 2
bin 1 10
bin 2 5
bin 5 3
curve 1000000 3000000
curve 2000000 1000000
curve 5000000 0
profile db cpu
sigma 1.3 cpu
rho 0.1 cpu-s
tau 0.1 s
O 0
interval 1 s
width 0.5 cpu
intervals 10
pct 100 1.3 cpu
bin 1 6
bin 2 3
bin 3 1
profile web mem
request 1610612736 B
limit 3704409293 B
O 0.5
interval 900 s
width 536870912 B
intervals 5
mean 1852204646.4 B
pct 50 1610612736 B
pct 100 3221225472 B
bin 2 1
bin 3 2
bin 4 1
bin 6 1
profile db mem
request 1610612736 B
limit 3704409293 B
O 0.5
interval 900 s
width 536870912 B
intervals 5
mean 1852204646.4 B
pct 50 1610612736 B
pct 100 3221225472 B
bin 2 1
bin 3 2
bin 4 1
bin 6 1
