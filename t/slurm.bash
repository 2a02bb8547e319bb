# t/slurm.bash: a private single-host Slurm for one test, loaded by the
# tests that run jobs through Slurm (`load slurm`).
#
# A private single-host Slurm for one test: munged with its own key and
# socket, slurmctld and slurmd with a slurm.conf of their own (random
# ports, state under a temporary directory); slurm_stop stops each by the
# PID it wrote.  Nothing of the machine's own Slurm or munge is used.
slurm_start() {
	SL=$(mktemp -d /tmp/ovb-slurm.XXXXXX)
	chmod 700 "$SL"
	mkdir "$SL/state" "$SL/spool"
	head -c 1024 /dev/urandom >"$SL/munge.key"
	chmod 600 "$SL/munge.key"
	munged --force --key-file="$SL/munge.key" --socket="$SL/munge.sock" \
		--pid-file="$SL/munged.pid" --log-file="$SL/munged.log" \
		--seed-file="$SL/munge.seed" ||
		fail "munged did not start: $(cat "$SL/munged.log" 2>/dev/null)"
	local h p
	h=$(hostname -s)
	p=$((20000 + RANDOM % 20000))
	cat >"$SL/slurm.conf" <<-EOF
	ClusterName=ovbtest
	SlurmctldHost=$h(127.0.0.1)
	SlurmUser=root
	SlurmdUser=root
	SlurmctldPort=$p
	SlurmdPort=$((p + 1))
	AuthType=auth/munge
	AuthInfo=socket=$SL/munge.sock
	CredType=cred/munge
	StateSaveLocation=$SL/state
	SlurmdSpoolDir=$SL/spool
	SlurmctldPidFile=$SL/slurmctld.pid
	SlurmdPidFile=$SL/slurmd.pid
	SlurmctldLogFile=$SL/slurmctld.log
	SlurmdLogFile=$SL/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	JobCompType=jobcomp/none
	MpiDefault=none
	ReturnToService=2
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	NodeName=$h NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
	PartitionName=ovb Nodes=$h Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
	EOF
	export SLURM_CONF=$SL/slurm.conf
	slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
	slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
	local k
	for k in $(seq 100); do
		[[ $(sinfo -h -o %T 2>/dev/null) == idle ]] && return 0
		sleep 0.2
	done
	fail "the private Slurm node did not come up: $(tail -3 "$SL/slurmctld.log" "$SL/slurmd.log")"
}

slurm_stop() {
	[[ -n ${SL:-} && -d $SL ]] || return 0
	local f pid
	for f in slurmd slurmctld munged; do
		[[ -s $SL/$f.pid ]] || continue
		pid=$(cat "$SL/$f.pid")
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
	done
	rm -rf "$SL"
}

# slurm_or_skip: skips the test, saying why, where a private Slurm cannot run
slurm_or_skip() {
	command -v srun >/dev/null && command -v sbatch >/dev/null &&
		command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
		command -v munged >/dev/null ||
		skip "Slurm is not installed (slurm-wlm, munge)"
	[[ $(id -u) == 0 ]] || skip "a private single-host Slurm needs root (slurmd runs tasks as their user)"
}
