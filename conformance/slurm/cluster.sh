#!/usr/bin/env bash
# A single-node Slurm cluster on localhost, for testing gangsim's Slurm sweeps
# against a real Slurm (Debian's slurm-wlm and munge packages).
#
#   cluster.sh start DIR   start munged, slurmctld and slurmd with everything
#                          (configuration, key, state, spool, logs, PID files)
#                          under DIR, wait for the node to be idle, and print
#                          SLURM_CONF=DIR/slurm.conf for the client commands
#   cluster.sh stop DIR    cancel every job (waiting up to 30 s for squeue to
#                          empty), stop the three daemons by the PIDs in DIR,
#                          and kill what is left of the cluster's jobs: a
#                          slurmstepd ignores SIGTERM and outlives slurmd
#
# Run as root (slurmd launches the jobs). The ports are free ones picked at
# start, or SLURMCTLD_PORT and SLURMD_PORT, so two clusters can coexist.
#
# By hand:
#   conformance/slurm/cluster.sh start /tmp/slurm
#   export SLURM_CONF=/tmp/slurm/slurm.conf
#   sinfo; bin/replay sweep --slurm experiments/frachtenberg/fig-6.12.json
#   conformance/slurm/cluster.sh stop /tmp/slurm
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PATH=$PATH:/usr/sbin:/sbin

die() {
	echo "cluster.sh: $*" >&2
	exit 1
}

# free_port prints a TCP port on 127.0.0.1 that nothing listens on, from a
# range away from the usual services.
free_port() {
	local p tries=0
	while [ $tries -lt 200 ]; do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
		tries=$((tries + 1))
	done
	die "no free TCP port found"
}

# wait_for SECONDS WHAT COMMAND...: retries COMMAND every 0.2 s until it
# succeeds or SECONDS pass.
wait_for() {
	local limit=$(($1 * 5)) what=$2 i=0
	shift 2
	until "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -ge $limit ]; then
			return 1
		fi
		sleep 0.2
	done
}

show_logs() {
	local f
	for f in "$dir"/log/*.log; do
		[ -f "$f" ] || continue
		echo "--- $f (last lines)" >&2
		tail -n 20 "$f" >&2
	done
}

start() {
	for cmd in munged slurmctld slurmd sinfo; do
		command -v "$cmd" >/dev/null || die "$cmd not found: apt-get install slurm-wlm munge"
	done
	[ "$(id -u)" = 0 ] || die "must run as root (slurmd launches jobs as their users)"
	mkdir -p "$dir"/munge "$dir"/state "$dir"/spool "$dir"/log
	chmod 700 "$dir"/munge

	# A munge key of this cluster's own, so the host's /etc/munge is not
	# touched nor needed.
	if [ ! -f "$dir"/munge/munge.key ]; then
		if command -v mungekey >/dev/null; then
			mungekey --create --keyfile="$dir"/munge/munge.key
		else
			dd if=/dev/urandom of="$dir"/munge/munge.key bs=1024 count=1 2>/dev/null
		fi
		chmod 600 "$dir"/munge/munge.key
	fi
	munged --force --socket="$dir"/munge/munge.socket --key-file="$dir"/munge/munge.key \
		--pid-file="$dir"/munged.pid --log-file="$dir"/log/munged.log --seed-file="$dir"/munge/munged.seed
	wait_for 10 munged test -S "$dir"/munge/munge.socket || { show_logs; die "munged did not start"; }

	local node node_line
	node=$(hostname -s)
	# slurmd -C prints this machine's node line (CPUs, topology, memory) and
	# then an UpTime line.
	node_line=$(slurmd -C | head -n 1)
	case $node_line in
	NodeName=*) ;;
	*) die "slurmd -C printed no node line: $node_line" ;;
	esac
	sed -e "s|@DIR@|$dir|g" -e "s|@NODE@|$node|g" -e "s|@NODE_LINE@|$node_line|g" \
		-e "s|@CTLD_PORT@|${SLURMCTLD_PORT:-$(free_port)}|g" -e "s|@SLURMD_PORT@|${SLURMD_PORT:-$(free_port)}|g" \
		"$here"/slurm.conf >"$dir"/slurm.conf
	export SLURM_CONF="$dir"/slurm.conf

	# -c: a clean start, no state from an earlier cluster in this directory.
	slurmctld -c -f "$SLURM_CONF" || { show_logs; die "slurmctld did not start"; }
	wait_for 20 slurmctld scontrol ping || { show_logs; die "slurmctld does not answer"; }
	slurmd -f "$SLURM_CONF" -N "$node" || { show_logs; die "slurmd did not start"; }
	wait_for 30 slurmd node_idle "$node" || {
		sinfo -N -l >&2 || true
		show_logs
		die "node $node is not idle"
	}
	echo "SLURM_CONF=$SLURM_CONF"
}

node_idle() {
	[ "$(sinfo -h -n "$1" -o %T)" = idle ]
}

# stop_pid NAME: TERM the daemon whose PID is in DIR/NAME.pid, KILL it after
# 10 s, and remove the PID file.
stop_pid() {
	local f="$dir/$1.pid" pid i=0
	[ -f "$f" ] || return 0
	pid=$(cat "$f")
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null || true
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$f"
}

alive() {
	local f="$dir/$1.pid"
	[ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null
}

no_jobs() {
	[ -z "$(squeue --noheader --format=%A)" ]
}

# stepds prints the PIDs of the slurmstepd processes of this cluster: those
# whose environment (slurmd's, which start exported) names its slurm.conf.
stepds() {
	local p
	for p in $(pgrep -x slurmstepd || true); do
		if grep -qzxF "SLURM_CONF=$dir/slurm.conf" "/proc/$p/environ" 2>/dev/null; then
			echo "$p"
		fi
	done
}

# descendants PID...: the PIDs of the processes below the given ones.
descendants() {
	ps -e -o pid=,ppid= | awk -v roots="$*" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) want[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			do {
				added = 0
				for (p in parent) if (!(p in want) && (parent[p] in want)) { want[p] = 1; below[p] = 1; added = 1 }
			} while (added)
			for (p in below) print p
		}'
}

stop() {
	export SLURM_CONF="$dir"/slurm.conf
	# Jobs first, while slurmctld and slurmd can still end them: slurmd's
	# slurmstepd (which ignores SIGTERM) and a job's processes would
	# outlive the daemons.
	if alive slurmctld && [ -f "$SLURM_CONF" ]; then
		local jobs
		jobs=$(squeue --noheader --format=%A 2>/dev/null || true)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086 # one job ID a word
			scancel $jobs 2>/dev/null || true
			wait_for 30 jobs no_jobs || echo "cluster.sh: jobs still in squeue after 30 s: $(squeue --noheader --format=%A | tr '\n' ' ')" >&2
		fi
	fi
	stop_pid slurmd
	stop_pid slurmctld
	stop_pid munged
	# The last resort: what is left of the jobs, a slurmstepd and the
	# processes below it, given 5 s to end and then killed.
	local left i=0
	left=$(stepds)
	while [ -n "$left" ] && [ $i -lt 25 ]; do
		sleep 0.2
		i=$((i + 1))
		left=$(stepds)
	done
	if [ -n "$left" ]; then
		local all
		# shellcheck disable=SC2086
		all="$left $(descendants $left)"
		echo "cluster.sh: killing what is left of the jobs: $(echo $all)" >&2
		# shellcheck disable=SC2086
		kill -9 $all 2>/dev/null || true
	fi
}

[ $# -eq 2 ] || die "usage: cluster.sh start|stop DIR"
mkdir -p "$2"
dir=$(cd "$2" && pwd)
case $1 in
start) start ;;
stop) stop ;;
*) die "usage: cluster.sh start|stop DIR" ;;
esac
