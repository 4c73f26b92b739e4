# shellcheck shell=bash
# Sourced by scripts/edge-serve, test-edge, load-edge, stress-edge and
# bench-edge: starts and stops the edge workers in workerd the way
# Cloudflare runs them, one workerd process per worker.
#
# A directory scripts/build-worker wrote holds workerd.capnp (the main
# worker, or the one all-in worker of SUBPLAY_WORKER_SPLIT=0) and, for the
# pair, workerd-extra.capnp (the extra worker). edge_start serves the extra
# worker in a workerd process of its own on its own loopback port, and the
# main worker in another, its binding EXTRA pointed at that port
# (--external-addr). Each process is the leader of its own process group
# (setsid), so edge_stop ends it and anything it started, and nothing else.
# Each config is served from its binary form (workerd.bin, workerd-extra.bin,
# workerd serve --binary) when build-worker wrote one at least as new as
# the text: workerd parsing the text holds several copies of the embedded
# modules (wasm/worker/binary-config.mjs says how much).
#
# If the extra worker's process ends, a supervisor starts it again, as
# Cloudflare starts a fresh isolate for the next request: meanwhile the
# main worker answers forwarded requests with its JSON 500 and serves the
# rest. Each restart is logged ("edge: ... restarting") and the extra
# process's pid is rewritten to $edge_extra_pidfile. While the file
# $edge_extra_hold exists (nothing creates it but a test that looks at the
# pair with the extra process gone), the supervisor waits before
# restarting. The main worker's
# process is not restarted: if it dies, the edge is down, and the scripts
# report it.
#
# Uses: $edge_dir (a temporary directory for logs and pid files), which
# the caller creates and removes.

edge_workerd=wasm/worker/node_modules/.bin/workerd

# edge_install installs wasm/worker's npm packages (workerd, wrangler, at the
# versions of its lock file) when they are missing or older than the lock
# file: scripts that build or serve the workers work on a fresh clone,
# before scripts/setup has run.
edge_install() {
	if [ ! -x "$edge_workerd" ] || [ wasm/worker/package-lock.json -nt wasm/worker/node_modules/.package-lock.json ]; then
		echo "npm ci in wasm/worker" >&2
		(cd wasm/worker && npm ci --no-audit --no-fund --loglevel=error)
	fi
}
# V8's flags for every workerd process served here, written into each
# config by scripts/build-worker (and into load-edge's JavaScript-only
# reference). A local-serving choice only: Cloudflare reads no workerd
# config and runs its own collector schedule with 128 MB per isolate.
# workerd ties every request's JavaScript objects to C++ ones, so they
# survive V8's young-generation collections and wait in the old generation,
# with the C++ memory they hold, until a full collection. With V8's
# defaults on this machine (24 GB) the first full collection comes only
# once the old generation passes about 33 MB, and the C++ memory of the
# requests in between stays in the process's allocator (tcmalloc) for good:
# about 140 MB for load-edge's JavaScript-only worker at 7,000 requests a
# second, which went from 52 MB to 270-300 MB. --initial-old-space-size=2
# starts the old generation's limit at 2 MB, and --optimize-for-size grows
# it in small steps, so full collections come every few megabytes (every
# 0.6 s under that load, 26-33 ms each, against every 1.4 s at 70-95 ms).
# Neither caps the heap (--max-old-space-size would, and V8 ends the
# process when a cap is passed). scripts/load-edge prints each process's
# peak memory, the figure these flags are chosen by.
edge_v8_flags='"--initial-old-space-size=2", "--optimize-for-size"'

# edge_compat_date prints the compatibility date of wasm/worker/wrangler.jsonc,
# which every local config uses too.
edge_compat_date() {
	sed -n 's/.*"compatibility_date": *"\([0-9-]*\)".*/\1/p' wasm/worker/wrangler.jsonc
}
# The external service the main worker's binding names (scripts/build-worker).
edge_extra_service=subplay-extra
# workerd compiles every module of its config before it listens: minutes
# for the extra worker's 42 MB module on a loaded machine.
edge_start_seconds=600

edge_pgids=()
edge_supervisors=()

# edge_free_port prints a free TCP port on 127.0.0.1.
edge_free_port() {
	node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}

# edge_config CAPNP: sets edge_config_args to the workerd serve arguments
# for the config CAPNP: its binary form if there is one no older than it.
edge_config() {
	local bin=${1%.capnp}.bin
	if [ -f "$bin" ] && [ ! "$1" -nt "$bin" ]; then
		edge_config_args=(--binary "$bin")
	else
		edge_config_args=("$1")
	fi
}

# edge_wait_up URL: waits until URL/healthz answers 200, or fails after
# $edge_start_seconds.
edge_wait_up() {
	local until=$((SECONDS + edge_start_seconds))
	while [ "$SECONDS" -lt "$until" ]; do
		if command -v curl >/dev/null; then
			curl -fsS -o /dev/null --max-time 10 "$1/healthz" 2>/dev/null && return 0
		else
			node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$1/healthz" && return 0
		fi
		sleep 0.2
	done
	echo "edge: $1 did not answer /healthz within $edge_start_seconds s" >&2
	return 1
}

# edge_start DIR NAME [MAIN_ADDR [EXTRA_ADDR]]: serves the workers in DIR
# (free loopback ports unless given) and waits until each answers. Sets
# edge_url (the main worker, where every request goes), edge_main_pid,
# edge_extra_url, edge_extra_pidfile and edge_extra_hold (empty for one
# all-in worker), and
# edge_logs (the log files, NAME.log and NAME-extra.log in $edge_dir).
# More workerd flags (e.g. --verbose) come from $edge_workerd_flags.
edge_start() {
	local dir=$1 name=$2 main_addr=${3:-} extra_addr=${4:-} external=()
	[ -n "$main_addr" ] || main_addr=127.0.0.1:$(edge_free_port)
	edge_extra_url= edge_extra_pidfile= edge_extra_hold=
	edge_logs=$edge_dir/$name.log
	if [ -f "$dir/workerd-extra.capnp" ]; then
		[ -n "$extra_addr" ] || extra_addr=127.0.0.1:$(edge_free_port)
		edge_extra_pidfile=$edge_dir/$name-extra.pid
		edge_extra_hold=$edge_dir/$name-extra.hold
		edge_extra_url=http://$extra_addr
		edge_logs="$edge_logs $edge_dir/$name-extra.log"
		edge_supervise "$dir/workerd-extra.capnp" "$extra_addr" "$edge_dir/$name-extra.log" "$edge_extra_pidfile" "$edge_extra_hold" &
		edge_supervisors+=($!)
		external=(--external-addr "$edge_extra_service=$extra_addr")
	fi
	edge_config "$dir/workerd.capnp"
	# shellcheck disable=SC2086 # the flags are words
	setsid "$edge_workerd" serve "${edge_config_args[@]}" --socket-addr "http=$main_addr" "${external[@]}" \
		${edge_workerd_flags:-} >"$edge_dir/$name.log" 2>&1 &
	edge_main_pid=$!
	edge_pgids+=("$edge_main_pid")
	edge_url=http://$main_addr
	# Both compile at once; the main worker first answers /healthz itself.
	edge_wait_up "$edge_url" || { tail -30 "$edge_dir/$name.log" >&2; return 1; }
	if [ -n "$edge_extra_url" ]; then
		edge_wait_up "$edge_extra_url" || { tail -30 "$edge_dir/$name-extra.log" >&2; return 1; }
	fi
}

# edge_end_group PGID: ends the process group PGID (a workerd and what it
# started): SIGTERM, and SIGKILL if it is still there 5 s later. workerd
# drains its open requests on SIGTERM, and one that never ends (a call
# held in a pause by a test that failed) kept the process alive, spinning,
# after its script had ended.
edge_end_group() {
	local i
	kill -TERM -- "-$1" 2>/dev/null || return 0
	for ((i = 0; i < 50; i++)); do
		kill -0 -- "-$1" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "edge: process group $1 still there 5 s after SIGTERM; killing it" >&2
	kill -KILL -- "-$1" 2>/dev/null || true
}

# edge_supervise CONFIG ADDR LOG PIDFILE HOLD: runs the extra worker's
# workerd and starts it again whenever it ends (in a subshell of its own).
edge_supervise() {
	local config=$1 addr=$2 log=$3 pidfile=$4 hold=$5 pid status restarts=0
	trap 'edge_end_group "$pid"; exit 0' TERM
	for (( ; ; )); do
		edge_config "$config"
		# shellcheck disable=SC2086
		setsid "$edge_workerd" serve "${edge_config_args[@]}" --socket-addr "http=$addr" ${edge_workerd_flags:-} >>"$log" 2>&1 &
		pid=$!
		echo "$pid" >"$pidfile"
		status=0
		wait "$pid" || status=$?
		restarts=$((restarts + 1))
		echo "edge: the extra worker's workerd process $pid ended (status $status); restarting it (restart $restarts)" | tee -a "$log" >&2
		while [ -e "$hold" ]; do sleep 0.2; done
		# Not at once: a config or start-up failure would loop hot.
		sleep 1
	done
}

# edge_stop ends every process edge_start started: the supervisors first
# (each ends its current extra process), then the main workers' process
# groups.
edge_stop() {
	local p
	for p in "${edge_supervisors[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
	for p in "${edge_supervisors[@]}"; do wait "$p" 2>/dev/null || true; done
	for p in "${edge_pgids[@]}"; do edge_end_group "$p"; done
	for p in "${edge_pgids[@]}"; do wait "$p" 2>/dev/null || true; done
	edge_supervisors=() edge_pgids=()
}

# edge_pids prints main=PID,extra=PID (or main=PID) for edgebench's -pid.
edge_pids() {
	local out="main=$edge_main_pid"
	[ -n "$edge_extra_pidfile" ] && out="$out,extra=$(cat "$edge_extra_pidfile")"
	echo "$out"
}
