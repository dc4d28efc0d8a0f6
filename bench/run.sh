#!/bin/sh
# Reproduces every figure of the Performance section of the README. Run it
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

echo '== The per-record work of a run (generation, stages, tally), one core'
go test -run '^$' -bench 'Scan' -benchtime 5x -cpu 1 ./model

echo '== The scale experiment in process: Evaluate, then both tables as CSV to io.Discard'
go test -run '^$' -bench 'Scale' -benchtime 5x ./runner

echo '== Writing grid.csv, one core'
go test -run '^$' -bench 'WriteGridCSV' -count 5 -cpu 1 ./results

echo '== The scale experiment end to end, -j 1 and -j 2: time, peak memory, same bytes'
hyperfine --warmup 1 --runs 10 \
	"$bin run -q -j 1 --format csv -o $out/j1 experiments/scale.yaml" \
	"$bin run -q -j 2 --format csv -o $out/j2 experiments/scale.yaml"
for j in 1 2; do
	/usr/bin/time -v "$bin" run -q -j $j --format csv -o "$out/j$j" experiments/scale.yaml 2>&1 >/dev/null |
		grep -E 'Elapsed|Maximum resident'
done
(cd "$out" && sha256sum j1/scale/*.csv j2/scale/*.csv)

echo '== Memory does not grow with subscribers: the scale experiment with ten million'
/usr/bin/time -v "$bin" run -q --format csv -o "$out/n10m" --set subscribers=10000000 experiments/scale.yaml 2>&1 >/dev/null |
	grep -E 'Elapsed|Maximum resident'

echo '== The lesson at 5,000 subscribers: its Python against ckptlab'
hyperfine --warmup 1 --runs 10 \
	'python3 bench/lesson.py 5000' \
	"$bin run -q --format csv -o $out/lesson5000 bench/lesson5000.yaml" \
	"$bin run -q --format xlsx -o $out/lesson5000 bench/lesson5000.yaml" \
	"$bin run -q --format csv,xlsx -o $out/lesson5000 bench/lesson5000.yaml"
