#!/bin/sh
# Reproduces every figure of bench/README.md. Run it
# from the repository root on an otherwise idle machine:
#
#	sh bench/run.sh
#
# It needs Go, python3, GNU time (/usr/bin/time) and hyperfine
# (apt-get install hyperfine). Scratch output goes to /tmp/ckptlab-bench.
set -eu
out=/tmp/ckptlab-bench
bin=$out/ckptlab
mkdir -p "$out"
go build -o "$bin" ./cmd/ckptlab

echo '== The floor: drawing the 10^6 x 120 records of the scale experiment, one core'
go test -run '^$' -bench 'FloorDraw' -benchtime 5x -cpu 1 ./model

echo '== Binning once and folding: the floor and Count on 10^8 names, one core; then 10^9 end to end'
go test -run '^$' -bench 'Fold' -benchtime 5x -cpu 1 ./model
/usr/bin/time -v "$bin" run -q --format csv -o "$out/n1e9" --set subscribers=1000000000 experiments/scale.yaml 2>&1 >/dev/null |
	grep -E 'User time|Elapsed|Maximum resident'

echo '== Counting, one core (BenchmarkScan, the per-record reference, takes minutes: run it alone)'
go test -run '^$' -bench '^BenchmarkCount$' -benchtime 5x -cpu 1 ./model

echo '== 1 % faults at 10^7 subscribers, one core: the floor, and counting with the faults redrawn per block and drawn once'
go test -run '^$' -bench 'FloorFaults/1e7|FloorArithmetic/1e7|CountFaults' -benchtime 2x -cpu 1 ./model

echo '== Merging the 4 and 100 shard files of scale.yaml, in process'
go test -run '^$' -bench 'MergeScale' -benchtime 5x ./runner

echo '== Where the time of scale.yaml and the worker sweep goes: counting, then each table as CSV'
go test -run '^$' -bench 'Evaluate' -benchtime 5x ./report

echo '== A run in process, every file synced and swapped in: scale.yaml as CSV, the worker sweep as CSV and XLSX'
go test -run '^$' -bench 'BenchmarkRun' -benchtime 10x ./report

echo '== Starting the program: the least any command costs'
hyperfine -N --warmup 3 --runs 30 "$bin version"

echo '== Writing grid.csv, one core; the workbook writer against the bare stream writer'
go test -run '^$' -bench 'WriteGridCSV' -count 5 -cpu 1 ./results
go test -run '^$' -bench 'XLSX' -benchtime 1x ./results

echo '== The scale experiment end to end, -j 1 and -j 2: time, peak memory, same bytes'
hyperfine --warmup 1 --runs 10 \
	"$bin run -q -j 1 --format csv -o $out/j1 experiments/scale.yaml" \
	"$bin run -q -j 2 --format csv -o $out/j2 experiments/scale.yaml"
for j in 1 2; do
	/usr/bin/time -v "$bin" run -q -j $j --format csv -o "$out/j$j" experiments/scale.yaml 2>&1 >/dev/null |
		grep -E 'Elapsed|Maximum resident'
done
(cd "$out" && sha256sum j1/scale/*.csv j2/scale/*.csv)

echo '== Memory does not grow with subscribers: the scale experiment with 10^7 and 10^8, and with faults'
for n in 10000000 100000000; do
	/usr/bin/time -v "$bin" run -q --format csv -o "$out/n$n" --set subscribers=$n experiments/scale.yaml 2>&1 >/dev/null |
		grep -E 'Elapsed|Maximum resident'
done
f10m="--set subscribers=10000000 --set missing=12000000 --set duplicates=12000000"
"$bin" plan --format csv $f10m experiments/scale.yaml | grep memory
/usr/bin/time -v "$bin" run -q --format csv -o "$out/f10m" $f10m experiments/scale.yaml 2>&1 >/dev/null |
	grep -E 'User time|Elapsed|Maximum resident'
f100m="--set subscribers=100000000 --set missing=120000000 --set duplicates=120000000"
"$bin" plan --format csv $f100m experiments/scale.yaml | grep memory
/usr/bin/time -v "$bin" run -q --format csv -o "$out/f100m" $f100m experiments/scale.yaml 2>&1 >/dev/null |
	grep -E 'User time|Elapsed|Maximum resident'

echo '== The worker sweep (bench/sweep.yaml), CSV and XLSX: time, peak memory, and what plan said'
"$bin" plan --format csv bench/sweep.yaml | grep memory
"$bin" plan --format xlsx bench/sweep.yaml | grep memory
hyperfine --warmup 1 --runs 5 \
	"$bin run -q --format csv -o $out/sweep bench/sweep.yaml" \
	"$bin run -q --format xlsx -o $out/sweep bench/sweep.yaml"
for f in csv xlsx; do
	/usr/bin/time -v "$bin" run -q --format $f -o "$out/sweep" bench/sweep.yaml 2>&1 >/dev/null |
		grep -E 'Elapsed|Maximum resident'
done

echo '== The lesson at 5,000 subscribers: its Python against ckptlab'
hyperfine --warmup 1 --runs 10 \
	'python3 bench/lesson.py 5000' \
	"$bin run -q --format csv -o $out/lesson5000 bench/lesson5000.yaml" \
	"$bin run -q --format xlsx -o $out/lesson5000 bench/lesson5000.yaml" \
	"$bin run -q --format csv,xlsx -o $out/lesson5000 bench/lesson5000.yaml"
