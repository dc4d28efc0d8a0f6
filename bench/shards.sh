#!/bin/sh
# Reproduces the shard figures of the README's "Scaling out" section: one
# run of an experiment against 1, 2 and 4 shard processes started at once
# on this machine (each on one core, -j 1, as if each were a machine of one
# core) and their merge; then the size of the shard files of 100 shards.
# Run from the repository root on an otherwise idle machine:
#
#	sh bench/shards.sh [FILE [--set key=value]...]   (default experiments/scale.yaml)
#
# Scratch output goes to /tmp/ckptlab-shards.
set -eu
file=${1:-experiments/scale.yaml}
[ $# -gt 0 ] && shift
name=$(basename "$file" .yaml)
out=/tmp/ckptlab-shards
bin=$out/ckptlab
rm -rf "$out"
mkdir -p "$out"
go build -o "$bin" ./cmd/ckptlab

now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{printf "%.2f", $2 - $1}'; }

# /usr/bin/time records each process's CPU time (user + system): on a
# shared machine the wall time of concurrent processes says little, while
# the CPU time of the busiest shard plus the merge's is about the wall time
# N idle one-core machines would take.
t0=$(now)
/usr/bin/time -f '%U %S' -o "$out/cpu.one" "$bin" run -q -j 1 --format csv -o "$out/one" "$file" "$@" >/dev/null
t1=$(now)
echo "one run, -j 1: wall $(secs "$t0" "$t1") s, cpu $(awk '{printf "%.2f", $1 + $2}' "$out/cpu.one") s"

for n in 1 2 4; do
	t0=$(now)
	i=1
	while [ "$i" -le "$n" ]; do
		/usr/bin/time -f '%U %S' -o "$out/cpu.n$n.$i" "$bin" run -q -j 1 -o "$out/n$n" --shard "$i/$n" "$file" "$@" >/dev/null &
		i=$((i + 1))
	done
	wait
	t1=$(now)
	/usr/bin/time -f '%U %S' -o "$out/cpu.m$n" "$bin" merge -q --format csv -o "$out/n$n" "$file" "$@" >/dev/null
	t2=$(now)
	busiest=$(cat "$out"/cpu.n$n.* | awk '{c = $1 + $2; if (c > m) m = c} END {printf "%.2f", m}')
	merge=$(awk '{printf "%.2f", $1 + $2}' "$out/cpu.m$n")
	for t in grid failures decisions breakeven; do
		cmp "$out/one/$name/$t.csv" "$out/n$n/$name/$t.csv"
	done
	echo "$n shards: wall $(secs "$t0" "$t2") s (shards $(secs "$t0" "$t1"), merge $(secs "$t1" "$t2"));" \
		"cpu of the busiest shard $busiest s + merge $merge s; tables identical"
done

i=1
while [ "$i" -le 100 ]; do
	"$bin" run -q -o "$out/n100" --shard "$i/100" "$file" "$@" >/dev/null
	i=$((i + 1))
done
echo "100 shards: $(du -cb "$out/n100/$name/shards/"* | tail -1 | cut -f1) bytes in all;" \
	"$(ls -l "$out/n100/$name/shards/" | awk 'NR > 1 {print $5}' | sort -n | sed -n '1p;$p' | paste -sd- -) bytes each"
/usr/bin/time -f 'merge of 100 shards: wall %e s, cpu %U + %S s, %M KiB peak' "$bin" merge -q --format csv -o "$out/n100" "$file" "$@" >/dev/null
