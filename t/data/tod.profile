ovb-profile 1
# profile CAPSULE RES; sigma RATE UNIT (rate); rho BURST UNIT (burst);
# tau PERIOD s; O TOLERANCE; U as in ovb-usage; curve SIGMA RHO
profile db cpu
sigma 2 cpu
rho 0 cpu-s
tau 300 s
O 0.1
interval 300 s
width 0.01 cpu
intervals 7
mean 1.1071428571428572 cpu
bin 25 1
bin 50 2
bin 100 1
bin 150 1
bin 200 2
windows 0 s 3
window weekday 0 24 0
window weekend 0 23 4
wbin weekend 0 25 1
wbin weekend 0 50 2
wbin weekend 0 100 1
wcurve weekend 0 0.5625 131.25
wcurve weekend 0 1 0
window weekend 23 24 3
wbin weekend 23 150 1
wbin weekend 23 200 2
wcurve weekend 23 1.8333333333333333 50
wcurve weekend 23 2 0
curve 1.1071428571428572 653.5714285714286
curve 1.75 75
curve 2 0
