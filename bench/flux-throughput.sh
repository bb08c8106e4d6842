#!/usr/bin/env bash
# flux-throughput.sh: jobs per second through a whole flux-core instance with flux-core's own
# sched-simple, with `fluxdrm sched --flux-uri` and with a scheduler that decides nothing (the
# instance's limit, LimitScheduler in sched-simple's benchmarks), one after the other in the same
# instance, on the same fake R (issues 15 and 32). For each run and each scheduler:
#   flux queue stop; flux submit --cc=1-JOBS (test execution, no processes); t0; flux queue start;
#   flux queue drain; t1      -> throughput JOBS / (t1 - t0)
# and the scheduler's own CPU time over [t0, t1]: fluxdrm's process (utime+stime of its JVM), and
# sched-simple's (flux-core 0.88 runs its Python sched-simple as a child process of the broker,
# `flux-module-python-exec`); the broker's own CPU is printed too. The order rotates from run to run, so that none
# always meets the bigger KVS. One line per measurement, then the medians and the ratio.
#
# The order of the schedulers rotates from run to run. fluxdrm and the limit are started afresh
# for each phase (a scheduler restarted under load); fluxdrm's RSS at the end of its phase is printed.
#
# usage: bench/flux-throughput.sh [-n NODES] [-c CORES] [-j JOBS] [-r RUNS] [-d DURATION] [-s SHAPE]
#   defaults: 64 nodes x 4 cores, 2000 jobs, 3 runs, run_duration 0.01s, shape core
#   SHAPE: core (flux submit -n1), node (-N1 --exclusive), mix (1 to 16 nodes, exclusive, in turn)
# env: THREADS=1 also prints each broker thread's CPU per job (on stderr, "# NAME broker threads")
#      and each thread's of fluxdrm's and the limit's JVM, in ms per job from
#      /proc/PID/task/TID/schedstat ("# NAME jvm threads"; a thread that ends within the phase,
#      such as an idle C1 compiler thread, is missing there but counted in sched_cpu_ms_per_job);
#      FLUX_PREFIX (default /opt/flux, where ../shared/tools/build-flux-peer installs flux-core);
#      FLUXDRM_JAVA_OPTS (the launcher's JVM flags; see bin/fluxdrm)
# env: SCHEDS (default "limit sched-simple fluxdrm"), the schedulers to run; fluxdrm@DIR runs the
#      fluxdrm of another checkout DIR (built the same way), for interleaved before/after runs;
#      limit@scheduler runs the limit with --as-a-scheduler --capacity=NODES (what any scheduler
#      must do and nothing more: it grants no more than the instance has, in the order of the
#      allocs, each R with its start time, each answer with the annotation), and each scheduler's
#      fraction of it is printed too;
#      LIMIT_ARGS=--as-a-scheduler makes the limit write what every real answer carries (a start
#      time in each R, the resource_summary annotation), see LimitScheduler; LIMIT_ARGS=--capacity=NODES
#      makes it grant no more than NODES nodes of CORES cores hold, in the order of the allocs
#      (both may be given)
# needs: cli/target/fluxdrm.jar (mvn -B -q -pl cli -am package -DskipTests) and
#        sched-simple/target/benchmarks.jar (mvn -B -q -Pjmh -pl sched-simple -am package -DskipTests)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
nodes=64 cores=4 jobs=2000 runs=3 duration=0.01s shape=core
while getopts "n:c:j:r:d:s:h" o; do
  case $o in
    n) nodes=$OPTARG ;; c) cores=$OPTARG ;; j) jobs=$OPTARG ;; r) runs=$OPTARG ;;
    d) duration=$OPTARG ;; s) shape=$OPTARG ;;
    *) sed -n '2,36p' "$0" >&2; exit 2 ;;
  esac
done
case $shape in core|node|mix) ;; *) echo "flux-throughput: -s $shape (expected: core, node or mix)" >&2; exit 2 ;; esac
scheds=${SCHEDS:-limit sched-simple fluxdrm}
FLUX_PREFIX=${FLUX_PREFIX:-/opt/flux}
flux=$FLUX_PREFIX/bin/flux
[ -x "$flux" ] || { echo "flux-throughput: $flux missing (build it: ../shared/tools/build-flux-peer)" >&2; exit 1; }
[ -f "$here/cli/target/fluxdrm.jar" ] || { echo "flux-throughput: cli/target/fluxdrm.jar missing (mvn -B -q -pl cli -am package -DskipTests)" >&2; exit 1; }
case " $scheds " in *" limit"*)
  [ -f "$here/sched-simple/target/benchmarks.jar" ] || { echo "flux-throughput: sched-simple/target/benchmarks.jar missing (mvn -B -q -Pjmh -pl sched-simple -am package -DskipTests)" >&2; exit 1; } ;;
esac
export PATH="$FLUX_PREFIX/bin:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/flux-throughput.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "# flux-throughput: ${nodes}x${cores} cores, $jobs jobs of shape $shape, run_duration $duration, $runs runs, $(nproc) cpus, $(date -u +%FT%TZ)"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# the inner script runs as the initial program of one instance per run: ARGS = rotation of the order, ...
cat > "$work/inner.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
order=$1 nodes=$2 cores=$3 jobs=$4 duration=$5 here=$6 work=$7 shape=$8
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "$1"; }   # utime + stime of /proc/PID[/task/TID]/stat
bpid=$(flux getattr broker.pid)
flux module remove sched-simple
flux R encode -r 0-$((nodes - 1)) -c 0-$((cores - 1)) -H "fake[0-$((nodes - 1))]" > "$work/R.json"
flux resource reload -f "$work/R.json"
flux module reload resource monitor-force-up noverify
# the broker thread that reads and writes local-connector clients such as fluxdrm (a module of the
# broker; sched-simple, an exec'd module, talks to the broker over its own channel instead)
cltid=$(grep -lx 'connector-local' /proc/$bpid/task/*/comm | head -n1 | xargs dirname | xargs basename)
jthreads() {   # "COMM NANOSECONDS-ON-CPU" for every thread of process $1
  local t
  for t in /proc/$1/task/*; do
    printf '%s %s\n' "$(tr ' ' _ < "$t/comm")" "$(cut -d' ' -f1 "$t/schedstat")"
  done 2>/dev/null
}
threads() {   # "COMM TICKS" for every broker thread
  local t
  for t in /proc/$bpid/task/*; do
    printf '%s %s\n' "$(cat "$t/comm")" "$(ticks "$t/stat")"
  done
}
submit() {   # the jobs of the shape, the queue stopped
  local k each
  case $shape in
    core) flux submit --cc=1-"$jobs" --quiet -n1 --setattr=system.exec.test.run_duration="$duration" true ;;
    node) flux submit --cc=1-"$jobs" --quiet -N1 --exclusive --setattr=system.exec.test.run_duration="$duration" true ;;
    mix)
      each=$(( (jobs + 15) / 16 ))
      for k in $(seq 1 16); do
        [ "$k" -le "$nodes" ] || break
        flux submit --cc=1-"$each" --quiet -N"$k" --exclusive --setattr=system.exec.test.run_duration="$duration" true
      done ;;
  esac
}
measure() {   # measure NAME CPU-STAT-FILE
  local name=$1 stat=$2 b0 b1 s0 s1 c0 c1 t0 t1 l n rss
  # the previous phase's inactive jobs leave the job manager and the KVS's job directory first
  flux job purge --force --num-limit=0 >/dev/null 2>&1 || true
  flux queue stop --quiet 2>/dev/null || flux queue stop
  submit
  n=$(flux jobs -n -c $((jobs + 1000)) -f pending -o '{id}' | wc -l)   # -c: flux jobs lists 1,000 at most by default
  s0=$(ticks "$stat"); b0=$(ticks /proc/$bpid/stat); c0=$(ticks /proc/$bpid/task/$cltid/stat)
  threads > "$work/threads.0"; jthreads "$(basename "$(dirname "$stat")")" > "$work/jthreads.0"
  t0=$(date +%s.%N)
  flux queue start --quiet 2>/dev/null || flux queue start
  flux queue drain
  t1=$(date +%s.%N)
  s1=$(ticks "$stat"); b1=$(ticks /proc/$bpid/stat); c1=$(ticks /proc/$bpid/task/$cltid/stat)
  threads > "$work/threads.1"; jthreads "$(basename "$(dirname "$stat")")" > "$work/jthreads.1"
  l=$(cut -d' ' -f1 /proc/loadavg)
  rss=$(awk '/^VmRSS/ {print $2}' "$(dirname "$stat")/status")
  awk -v n="$name" -v j="$n" -v t0="$t0" -v t1="$t1" -v s="$((s1 - s0))" -v b="$((b1 - b0))" \
      -v c="$((c1 - c0))" -v hz="$hz" -v l="$l" -v rss="$rss" 'BEGIN {
    e = t1 - t0;
    printf "%s jobs=%d seconds=%.3f jobs_per_s=%.1f sched_cpu_ms_per_job=%.3f broker_cpu_ms_per_job=%.3f connector_local_ms_per_job=%.3f rss_mib=%.0f load1=%s\n",
      n, j, e, j / e, 1000 * s / hz / j, 1000 * b / hz / j, 1000 * c / hz / j, rss / 1024, l }'
  if [ "${THREADS:-0}" = 1 ]; then
    awk -v n="$name" -v j="$jobs" -v hz="$hz" 'NR == FNR { a[$1] += $2; next } { b[$1] += $2 }
      END { printf "# %s broker threads, CPU ms per job:", n;
            for (k in b) if (b[k] - a[k] > 0) printf " %s=%.3f", k, 1000 * (b[k] - a[k]) / hz / j;
            printf "\n" }' "$work/threads.0" "$work/threads.1" >&2
    [ "$name" = sched-simple ] ||
      awk -v n="$name" -v j="$n" 'NR == FNR { a[$1] += $2; next } { b[$1] += $2 }
        END { printf "# %s jvm threads, CPU ms per job:", n;
              for (k in b) if (b[k] - a[k] > 100000) printf " %s=%.3f", k, (b[k] - a[k]) / 1e6 / j;
              printf "\n" }' "$work/jthreads.0" "$work/jthreads.1" >&2
  fi
}
sched_simple() {
  flux module load sched-simple queue-depth=unlimited
  # flux-core 0.88 runs the Python sched-simple as a child process of the broker
  local pid
  pid=$(ps -eo pid=,ppid=,comm= | awk -v b="$bpid" '$2 == b && $3 == "sched-simple" {print $1}')
  [ -n "$pid" ] || { echo "flux-throughput: no sched-simple process under broker $bpid" >&2; exit 1; }
  measure sched-simple /proc/$pid/stat
  flux module remove sched-simple
}
fluxdrm() {   # fluxdrm [CHECKOUT NAME]: the scheduler of this checkout, or of another one
  local from=${1:-$here} name=${2:-fluxdrm}
  "$from/bin/fluxdrm" sched --flux-uri "$FLUX_URI" --queue-depth unlimited 2> "$work/fluxdrm.log" &
  local pid=$!
  until grep -q 'ready: attached' "$work/fluxdrm.log"; do
    kill -0 $pid 2>/dev/null || { cat "$work/fluxdrm.log" >&2; exit 1; }
    sleep 0.1
  done
  # the JVM is the launcher's exec'd process
  measure "$name" /proc/$pid/stat
  kill $pid; wait $pid 2>/dev/null || true
}
limit() {   # limit [NAME ARGS...]: the limit, or under NAME with more arguments
  local name=${1:-limit}
  [ $# -gt 0 ] && shift
  java ${FLUXDRM_JAVA_OPTS:-$(sed -n 's/^daemon_opts="\(.*\)"$/\1/p' "$here/bin/fluxdrm")} \
    -cp "$here/sched-simple/target/benchmarks.jar" io.fluxdrm.sched.bench.LimitScheduler \
    "$FLUX_URI" "$cores" ${LIMIT_ARGS:-} "$@" > "$work/limit.out" 2> "$work/limit.log" &
  local pid=$!
  until grep -qs '^ready' "$work/limit.out"; do
    kill -0 $pid 2>/dev/null || { cat "$work/limit.log" >&2; exit 1; }
    sleep 0.1
  done
  # the limit pays its JIT warm-up on jobs that are not timed (fluxdrm does on its rehearsal)
  flux submit --cc=1-500 --quiet -n1 --setattr=system.exec.test.run_duration="$duration" true
  flux queue drain
  measure "$name" /proc/$pid/stat
  kill $pid; wait $pid 2>/dev/null || true
}
# the order rotates: run 1 "limit sched-simple fluxdrm", run 2 "sched-simple fluxdrm limit", ...
set -- $SCHEDS
for i in $(seq 1 "$order"); do set -- "$@" "$1"; shift; done
for s in "$@"; do
  case $s in
    limit) limit ;; sched-simple) sched_simple ;; fluxdrm) fluxdrm ;;
    limit@scheduler) limit limit@scheduler --as-a-scheduler --capacity="$nodes" ;;
    fluxdrm@*) fluxdrm "${s#fluxdrm@}" "$s" ;;
  esac
done
INNER
chmod +x "$work/inner.sh"

for i in $(seq 1 "$runs"); do
  order=$((i - 1))
  SCHEDS="$scheds" THREADS=${THREADS:-0} "$flux" start --test-size=1 "$work/inner.sh" "$order" "$nodes" "$cores" "$jobs" "$duration" "$here" "$work" "$shape" |
    sed "s/^/run=$i /" | tee -a "$work/results"
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
  { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    n = $2; k = ++cnt[n]; rate[n, k] = v["jobs_per_s"]; cpu[n, k] = v["sched_cpu_ms_per_job"];
    run = substr($1, 5); byrun[n, run] = v["jobs_per_s"]; runs[run] = 1;
    bro[n, k] = v["broker_cpu_ms_per_job"] }
  function median(arr, name, m,   a, i, j, t) {
    for (i = 1; i <= m; i++) a[i] = arr[name, i];
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
  END {
    for (n in cnt) printf "median %s jobs_per_s=%.1f sched_cpu_ms_per_job=%.3f broker_cpu_ms_per_job=%.3f (%d runs)\n",
      n, median(rate, n, cnt[n]), median(cpu, n, cnt[n]), median(bro, n, cnt[n]), cnt[n];
    m = 0; for (r in runs) if ((("fluxdrm", r) in byrun) && (("sched-simple", r) in byrun)) rr["x", ++m] = byrun["fluxdrm", r] / byrun["sched-simple", r];
    if (m) printf "median of the per-run ratios fluxdrm/sched-simple = %.2f (%d runs)\n", median(rr, "x", m), m;
    if (cnt["fluxdrm"] && cnt["sched-simple"])
      printf "ratio fluxdrm/sched-simple (median jobs_per_s) = %.2f\n",
        median(rate, "fluxdrm", cnt["fluxdrm"]) / median(rate, "sched-simple", cnt["sched-simple"]);
    split("limit limit@scheduler", lims, " ");
    for (q = 1; q <= 2; q++) { L = lims[q]; if (!cnt[L]) continue;
      for (k in cnt) if (k !~ /^limit/) {
        m = 0; for (r in runs) if (((k, r) in byrun) && ((L, r) in byrun)) lr["x", ++m] = byrun[k, r] / byrun[L, r];
        if (m) printf "fraction of the %s %s/%s = %.2f (median of %d per-run ratios; ratio of medians %.2f)\n",
          (L == "limit" ? "limit" : "limit as a scheduler"), k, L, median(lr, "x", m), m,
          median(rate, k, cnt[k]) / median(rate, L, cnt[L]) } } }
' "$work/results"
