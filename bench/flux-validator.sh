#!/usr/bin/env bash
# flux-validator.sh: `flux submit --cc=1-JOBS` throughput through job-ingest with flux-core's own
# validator (flux job-validator, Python) and with fluxdrm's (bin/flux-job-validator, which runs
# `fluxdrm jobspec validate --stream`), side by side (issue 15, scope 5). Each run starts a fresh
# instance per validator (with FLUX_EXEC_PATH_PREPEND=bin for fluxdrm's), stops the queue so that
# no job is scheduled, and times the submission of JOBS jobs; the first submission after start
# includes the validators' start-up (job-ingest starts its workers on demand), as a user sees it.
#
# usage: bench/flux-validator.sh [-j JOBS] [-r RUNS]      defaults: 2000 jobs, 3 runs
# env: FLUX_PREFIX (default /opt/flux); needs cli/target/fluxdrm.jar
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=2000 runs=3
while getopts "j:r:h" o; do
  case $o in j) jobs=$OPTARG ;; r) runs=$OPTARG ;; *) sed -n '2,11p' "$0" >&2; exit 2 ;; esac
done
FLUX_PREFIX=${FLUX_PREFIX:-/opt/flux}
flux=$FLUX_PREFIX/bin/flux
[ -x "$flux" ] || { echo "flux-validator: $flux missing (build it: ../shared/tools/build-flux-peer)" >&2; exit 1; }
[ -f "$here/cli/target/fluxdrm.jar" ] || { echo "flux-validator: cli/target/fluxdrm.jar missing (mvn -B -q -pl cli -am package -DskipTests)" >&2; exit 1; }
export PATH="$FLUX_PREFIX/bin:$PATH"
work=$(mktemp -d "${TMPDIR:-/tmp}/flux-validator.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat > "$work/inner.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
name=$1 jobs=$2
flux queue stop --quiet 2>/dev/null || flux queue stop
t0=$(date +%s.%N)
flux submit --cc=1-"$jobs" --quiet -n1 --setattr=system.exec.test.run_duration=0.01s true
t1=$(date +%s.%N)
l=$(cut -d' ' -f1 /proc/loadavg)
awk -v n="$name" -v j="$jobs" -v t0="$t0" -v t1="$t1" -v l="$l" \
  'BEGIN { e = t1 - t0; printf "%s jobs=%d seconds=%.3f jobs_per_s=%.1f load1=%s\n", n, j, e, j / e, l }'
flux cancel --all --quiet 2>/dev/null || true
INNER
chmod +x "$work/inner.sh"
echo "# flux-validator: $jobs jobs, $runs runs, $(nproc) cpus, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$runs"); do
  "$flux" start --test-size=1 "$work/inner.sh" flux-core "$jobs" | sed "s/^/run=$i /" | tee -a "$work/results"
  FLUX_EXEC_PATH_PREPEND="$here/bin" "$flux" start --test-size=1 "$work/inner.sh" fluxdrm "$jobs" |
    sed "s/^/run=$i /" | tee -a "$work/results"
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{ split($5, kv, "="); n = $2; r[n, ++c[n]] = kv[2] }
  function med(name, m,   a, i, j, t) {
    for (i = 1; i <= m; i++) a[i] = r[name, i];
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
  END { for (n in c) printf "median %s jobs_per_s=%.1f (%d runs)\n", n, med(n, c[n]), c[n];
        if (c["fluxdrm"] && c["flux-core"])
          printf "ratio fluxdrm/flux-core (median jobs_per_s) = %.2f\n", med("fluxdrm", c["fluxdrm"]) / med("flux-core", c["flux-core"]) }' "$work/results"
