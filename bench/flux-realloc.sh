#!/usr/bin/env bash
# flux-realloc.sh: the RFC 51 grow round trip inside a real flux-core instance (issue 26). Four
# brokers on this host, `fluxdrm sched --flux-uri` as the scheduler, the realloc jobtap plugin
# loaded, one running job. A client (flux python, in the instance) times, for each of GROWS cycles,
# a one-node grow and then releases the node:
#   plugin: job-manager.realloc {spec_add}      -> plugin -> sched.realloc -> KVS R -> plugin ->
#           job manager's R, eventlog, answer   (then job-manager.realloc {spec_sub, R} and
#           job-manager.release {R})
#   direct: sched.realloc {spec_add}            -> the scheduler, the client playing the job manager
#           (then sched.realloc {spec_sub, R} and sched.free final:false), as before the plugin
# Each path alternates run by run; one line per run with p50/p99/mean of the grow round trip, in ms,
# and grants_per_s: grow grants per second over the run, each followed by its shrink and release.
#
# usage: bench/flux-realloc.sh [-g GROWS] [-r RUNS]      defaults: 200 grows, 3 runs
# env: FLUX_PREFIX (default /opt/flux); FLUXDRM_JAVA_OPTS (the launcher's JVM flags, bin/fluxdrm)
# needs: cli/target/fluxdrm.jar (mvn -B -q -pl cli -am package -DskipTests) and make, gcc
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
grows=200 runs=3
while getopts "g:r:h" o; do
  case $o in
    g) grows=$OPTARG ;; r) runs=$OPTARG ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
done
FLUX_PREFIX=${FLUX_PREFIX:-/opt/flux}
flux=$FLUX_PREFIX/bin/flux
[ -x "$flux" ] || { echo "flux-realloc: $flux missing (build it: ../shared/tools/build-flux-peer)" >&2; exit 1; }
[ -f "$here/cli/target/fluxdrm.jar" ] || { echo "flux-realloc: cli/target/fluxdrm.jar missing (mvn -B -q -pl cli -am package -DskipTests)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/flux-realloc.XXXXXX")
trap 'rm -rf "$work"' EXIT
make -s -C "$here/flux-plugin" FLUX_PREFIX="$FLUX_PREFIX" OUT="$work" >&2
export PATH="$FLUX_PREFIX/bin:$PATH"
echo "# flux-realloc: $grows grows per run, $runs runs per path, $(nproc) cpus, $(date -u +%FT%TZ)"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

cat > "$work/client.py" <<'PY'
import json, sys, time, flux
path, job, grows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
h = flux.Flux()
spec = {"version": 1, "resources": [{"type": "node", "count": 1, "with": [
    {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}],
    "tasks": [{"command": ["true"], "slot": "task", "count": {"per_slot": 1}}],
    "attributes": {"system": {"duration": 0}}}
# the job manager's protocol names the job "id"; RFC 51's sched.realloc names it "job_id"
topic, key = ("job-manager.realloc", "id") if path == "plugin" else ("sched.realloc", "job_id")
lat = []
start = time.perf_counter()
for i in range(grows):
    t0 = time.perf_counter()
    g = h.rpc(topic, {key: job, "spec_add": spec}).get()
    lat.append(time.perf_counter() - t0)
    if g["type"] != 0:
        sys.exit("grow %d: %s" % (i, json.dumps(g)))
    add = g["R_delta_add"]
    s = h.rpc(topic, {key: job, "spec_sub": spec, "R": add}).get()
    if s["type"] != 0:
        sys.exit("shrink %d: %s" % (i, json.dumps(s)))
    if path == "plugin":
        h.rpc("job-manager.release", {"id": job, "R": add, "final": False}).get()
    else:
        h.rpc("sched.free", {"id": job, "R": add, "final": False}, flags=flux.constants.FLUX_RPC_NORESPONSE)
total = time.perf_counter() - start
lat.sort()
ms = lambda q: 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]
# grants_per_s: grow grants per second, each followed by its shrink and release (one cycle)
print("%s grows=%d p50=%.2f p99=%.2f mean=%.2f ms grants_per_s=%.1f" % (
    path, grows, ms(0.50), ms(0.99), 1000 * sum(lat) / len(lat), grows / total))
PY

cat > "$work/inner.sh" <<'INNER'
#!/usr/bin/env bash
set -euo pipefail
here=$1 work=$2 grows=$3 runs=$4
flux module remove sched-simple
"$here/bin/fluxdrm" sched --flux-uri "$FLUX_URI" 2>"$work/sched.log" &
sched=$!
for _ in $(seq 600); do grep -q "ready: attached" "$work/sched.log" && break; sleep 0.1; done
grep -q "ready: attached" "$work/sched.log" || { cat "$work/sched.log" >&2; exit 1; }
flux jobtap load "$work/realloc.so"
id=$(flux submit -N1 -n1 sleep inf)
flux job wait-event -t 60 "$id" start >/dev/null
job=$(flux job id --to=dec "$id")
for r in $(seq "$runs"); do
  if [ $((r % 2)) -eq 1 ]; then order="plugin direct"; else order="direct plugin"; fi
  for p in $order; do
    echo "run $r $(flux python "$work/client.py" "$p" "$job" "$grows") load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
flux cancel "$id"
kill "$sched"; wait "$sched" || true
INNER
chmod +x "$work/inner.sh"
"$flux" start --test-size=4 "$work/inner.sh" "$here" "$work" "$grows" "$runs"
