#!/bin/bash
# Submit an experiment as a Slurm job array of N shards, then a merge job
# that starts only if every shard succeeded (afterok).
#
#   deploy/slurm/submit.sh 16 experiments/scale.yaml
set -euo pipefail
n=${1:?usage: submit.sh N FILE}
file=${2:?usage: submit.sh N FILE}
here=$(dirname "$0")
out=${OUT:-out}

shards=$(sbatch --parsable --array=0-$((n - 1)) "$here/shards.sbatch" "$file")
sbatch --dependency=afterok:"$shards" --job-name=ckptlab-merge \
	--output=ckptlab-merge-%j.log \
	--wrap="ckptlab merge -q -o '$out' --format csv,xlsx,md '$file'"
echo "shards: job $shards; the merge runs when all $n succeed"
