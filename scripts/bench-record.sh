# Sourced by the bench scripts (bench-core, bench-edge, bench-site), after
# they cd to the repository root: `bench_record NAME "$@"` runs the calling
# script again with its output shown and kept, and when that run succeeds
# writes it to docs/benchmarks.md as NAME's section, in place of the last
# one, under the date, the commit, the versions of Go, Node, Chromium and
# workerd, and the load average before and after. The commands are in the
# output (each script prints them). Only the latest run of each script is
# kept there; older figures are in git.
#
# SUBPLAY_BENCH_NO_RECORD=1 prints without writing docs/benchmarks.md.

bench_record() {
	local name=$1
	shift
	if [ -n "${SUBPLAY_BENCH_RECORDING:-}" ] || [ -n "${SUBPLAY_BENCH_NO_RECORD:-}" ]; then
		return 0
	fi
	local log load_before status
	log=$(mktemp)
	load_before=$(cut -d' ' -f1-3 /proc/loadavg)
	set +e
	SUBPLAY_BENCH_RECORDING=1 "$0" "$@" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
	set -e
	if [ "$status" = 0 ]; then
		bench_write "$name" "$log" "$load_before" "$*"
		echo "bench: recorded in docs/benchmarks.md" >&2
	fi
	rm -f "$log"
	exit "$status"
}

# bench_write NAME LOG LOAD_BEFORE ARGS: replaces NAME's section of
# docs/benchmarks.md (between its two marker comments) with LOG.
bench_write() {
	local name=$1 log=$2 load_before=$3 args=$4 doc=docs/benchmarks.md section
	section=$(mktemp)
	{
		echo "<!-- begin $name -->"
		echo "## scripts/$name${args:+ $args}"
		echo
		echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
		echo "- $(go version | cut -d' ' -f3-), Node $(node --version 2>/dev/null || echo absent), $(chromium --version 2>/dev/null || echo 'Chromium absent'), workerd $(wasm/worker/node_modules/.bin/workerd --version 2>/dev/null | cut -d' ' -f2 || echo absent)"
		echo "- $(nproc) CPUs; load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
		echo
		echo '```text'
		grep -v '^go: downloading ' "$log" || true
		echo '```'
		echo "<!-- end $name -->"
	} >"$section"
	if [ ! -f "$doc" ]; then
		{
			echo "# Benchmarks"
			echo
			echo "Written by the bench scripts (\`scripts/bench-core\`, \`scripts/bench-edge\`, \`scripts/bench-site\`):"
			echo "each section is the latest run of its script, with the machine it ran on. Earlier runs are"
			echo "in git. On a shared machine, read CPU time where a script prints it."
		} >"$doc"
	fi
	awk -v name="$name" -v file="$section" '
		$0 == "<!-- begin " name " -->" { skip = 1; while ((getline line < file) > 0) print line; done = 1; next }
		$0 == "<!-- end " name " -->" { skip = 0; next }
		!skip { print }
		END { if (!done) { print ""; while ((getline line < file) > 0) print line } }
	' "$doc" >"$doc.new"
	mv "$doc.new" "$doc"
	rm -f "$section"
}
