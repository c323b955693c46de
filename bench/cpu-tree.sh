#!/usr/bin/env bash
# Usage: bench/cpu-tree.sh <command...>
# Runs the command in a cpuacct cgroup of its own and prints, on stderr, the CPU seconds
# of its whole process tree (local stacks and CLI processes included, even those a test
# kills without reaping, which `time` misses), the wall seconds and the exit code.
# Needs root and a cgroup v1 cpuacct hierarchy at /sys/fs/cgroup/cpuacct.
set -u
ROOT_CG=/sys/fs/cgroup/cpuacct
if [ ! -w "$ROOT_CG" ]; then
  echo "bench/cpu-tree.sh: needs root and a writable cgroup v1 cpuacct hierarchy at $ROOT_CG" >&2
  exit 2
fi
CG="$ROOT_CG/cpu-tree-$$-$RANDOM"
mkdir -p "$CG"
echo $$ > "$CG/cgroup.procs"
start=$(date +%s.%N)
"$@"
rc=$?
sleep 1 # let killed children's last ticks land
usage=$(cat "$CG/cpuacct.usage")
end=$(date +%s.%N)
printf 'CPU-s %.1f  wall %.1f  rc %d\n' "$(echo "$usage/1000000000" | bc -l)" "$(echo "$end-$start" | bc)" "$rc" >&2
echo $$ > "$ROOT_CG/cgroup.procs"
rmdir "$CG" 2>/dev/null
exit $rc
