#!/bin/bash
# Submit an experiment as a Slurm job array of N shards, then a merge job
# that runs once every shard has succeeded, and is cancelled
# (--kill-on-invalid-dep) rather than left pending forever if one fails.
#
#   deploy/slurm/submit.sh 16 experiments/scale.yaml [--set k=v ...]
#
# Resume after a failed or cancelled task, or a failed merge, by running the
# same command again: a task whose shard file is complete exits at once, the
# others compute their shard, and a new merge job waits for them.
# TASKS=3,7 submits only those tasks (shards 4 and 8 of N) and the merge.
# Both jobs ask for the memory `ckptlab plan` bounds the run by.
set -euo pipefail
usage="usage: submit.sh N FILE [--set k=v ...]"
n=${1:?$usage}
file=${2:?$usage}
shift 2
here=$(dirname "$0")
out=${OUT:-out}
format=${FORMAT:-csv,xlsx,md}
export OUT=$out FORMAT=$format

mib=$(ckptlab plan -o "$out" --format "$format" "$@" "$file" | awk '$1 == "memory" { print $4 }')
if [[ ! $mib =~ ^[0-9]+$ ]]; then
	echo "submit.sh: ckptlab plan printed no memory figure for $file" >&2
	exit 1
fi
shards=$(sbatch --parsable --array="${TASKS:-0-$((n - 1))}" --mem="${mib}M" \
	"$here/shards.sbatch" "$n" "$file" "$@")
shards=${shards%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$shards" --kill-on-invalid-dep=yes \
	--mem="${mib}M" "$here/merge.sbatch" "$file" "$@")
merge=${merge%%;*}
echo "shards: job $shards; merge: job $merge, once every shard has succeeded"
