ovb-profile 1
# two capsules busy half of the time (0.9 cpu) and idle otherwise (0.1
# cpu): their 70th percentiles add up to 1.8 cpu, their sum exceeds 1 cpu
# only when both are busy, a quarter of the time
profile a cpu
sigma 0.9 cpu
rho 0 cpu-s
tau 1 s
O 0.3
interval 1 s
width 0.1 cpu
intervals 2
bin 1 1
bin 9 1
profile b cpu
sigma 0.9 cpu
rho 0 cpu-s
tau 1 s
O 0.3
interval 1 s
width 0.1 cpu
intervals 2
bin 1 1
bin 9 1
