#!/usr/bin/env bash
# jmh-interleaved.sh: the same JMH benchmarks from two checkouts, interleaved A B B A (then A B B A
# again for -r 2 ...), so that both builds see the same changes of load. For "before and after"
# comparisons of a redesign (issue 31). Not part of CI. Each checkout must have its jmh jars built
# (mvn -B -q -Pjmh -DskipTests package). Output: one line a benchmark run, then a table of the
# scores per benchmark and parameters, A's runs beside B's, with the load average before each run.
#
# usage: bench/jmh-interleaved.sh -a DIR_A -b DIR_B [-r ROUNDS] SPEC...
#   SPEC: JAR_A,JAR_B,ARGS   the jar of each checkout relative to it (a benchmark that moved
#         between modules has two), and the JMH arguments (benchmark regex and options, e.g.
#         "AllocBenchmark -f 1 -wi 3 -i 5 -w 2s -r 3s")
#   ROUNDS: how many A B B A rounds; default 1
# example:
#   bench/jmh-interleaved.sh -a ../before -b . \
#     "sched-simple/target/benchmarks.jar,sched-simple/target/benchmarks.jar,AllocBenchmark -f 1"
set -euo pipefail
a='' b='' rounds=1
while getopts "a:b:r:h" o; do
  case $o in
    a) a=$OPTARG ;;
    b) b=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) sed -n '2,16p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [[ -z $a || -z $b || $# -eq 0 ]]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
java=${JAVA:-java}

# run SIDE DIR JAR ARGS N: one JMH run, its CSV kept as $out/N.SIDE.csv
run() {
  local side=$1 dir=$2 jar=$3 args=$4 n=$5 load
  if [[ ! -f $dir/$jar ]]; then
    echo "jmh-interleaved: $dir/$jar: no such jar (build it with -Pjmh)" >&2
    exit 1
  fi
  load=$(cut -d' ' -f1 /proc/loadavg)
  echo "# $(date -u +%H:%M:%S) $side load $load: $jar $args" >&2
  # shellcheck disable=SC2086 # ARGS are JMH's words
  "$java" -jar "$dir/$jar" $args -rf csv -rff "$out/$n.$side.csv" > "$out/$n.$side.log" 2>&1 ||
    { tail -20 "$out/$n.$side.log" >&2; exit 1; }
  awk -v side="$side" -v load="$load" -F, 'NR > 1 {
      key = $1; for (i = 8; i <= NF; i++) key = key " " $i
      gsub(/"/, "", key); printf "%s\t%s\t%s\t%.4g %s\n", key, side, load, $5, $7
    }' "$out/$n.$side.csv" | tr -d '"' >> "$out/scores.tsv"
}

n=0
for spec in "$@"; do
  IFS=, read -r jar_a jar_b args <<<"$spec"
  for ((r = 0; r < rounds; r++)); do
    n=$((n + 1)); run A "$a" "$jar_a" "$args" "$n"
    n=$((n + 1)); run B "$b" "$jar_b" "$args" "$n"
    n=$((n + 1)); run B "$b" "$jar_b" "$args" "$n"
    n=$((n + 1)); run A "$a" "$jar_a" "$args" "$n"
  done
done

echo "| benchmark and parameters | A ($a) | B ($b) | load |"
echo "| --- | --- | --- | --- |"
awk -F'\t' '{
    k = $1; if (!(k in seen)) { seen[k] = 1; order[++m] = k }
    s[k, $2] = s[k, $2] (s[k, $2] == "" ? "" : ", ") $4
    l[k] = l[k] (l[k] == "" ? "" : " ") $3
  }
  END { for (i = 1; i <= m; i++) { k = order[i]; printf "| %s | %s | %s | %s |\n", k, s[k, "A"], s[k, "B"], l[k] } }' \
  "$out/scores.tsv"
