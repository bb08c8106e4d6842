#!/usr/bin/env bash
# flux-scale.sh: the sizes and job shapes of issue 32 through bench/flux-throughput.sh, one after
# the other, each with the limit (a scheduler that decides nothing), the limit as a scheduler (it
# still decides nothing, but holds to the instance's size and answers as a scheduler must; see
# flux-throughput.sh), flux-core's sched-simple and fluxdrm in the same instance, 3 runs with the
# order rotated. Not part of CI; 5 to 10 minutes on
# two cores (sched-simple alone takes up to a minute per run at 16,384 nodes). The mix shape on 64 nodes
# is left out: the limit, which overcommits, runs it twice as fast as any scheduler that must wait
# for 16 free nodes (bench/flux-throughput.sh -n 64 -c 4 -s mix runs it). Output: each configuration's lines as flux-throughput.sh prints them, under a
# "## SIZE SHAPE JOBS" heading, and the time taken at the end.
#
# usage: bench/flux-scale.sh [-r RUNS]          default 3 runs per configuration
# needs: what flux-throughput.sh needs (it says so when something is missing)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=3
while getopts "r:h" o; do
  case $o in
    r) runs=$OPTARG ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
#       nodes cores shape jobs
while read -r n c s j; do
  echo "## ${n}x${c} $s $j jobs"
  SCHEDS=${SCHEDS:-limit limit@scheduler sched-simple fluxdrm} "$here/bench/flux-throughput.sh" -n "$n" -c "$c" -s "$s" -j "$j" -r "$runs" 2>&1 |
    grep -v 'resource\.err'
done <<'CONFIGS'
64 4 core 1000
64 4 node 500
1024 32 core 1000
1024 32 mix 500
16384 64 core 200
CONFIGS
echo "# flux-scale: $(( $(date +%s) - start )) s"
