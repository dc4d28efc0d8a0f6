package runner

import (
	"fmt"
	"strconv"
	"strings"
)

// engine is a batch engine that runs one process per array index and tells
// it its index, and perhaps the count, in environment variables.
type engine struct {
	name  string
	index string // the variable of the index
	count string // the variable of the count; "" when the engine gives none
	first string // the variable of the first index; "" when it is 0
	step  string // the variable of the step between indexes, if any
}

// engines are the engines --shard auto knows, in the order it looks for them.
var engines = []engine{
	{name: "Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX"},
	{name: "Slurm job array", index: "SLURM_ARRAY_TASK_ID", count: "SLURM_ARRAY_TASK_COUNT",
		first: "SLURM_ARRAY_TASK_MIN", step: "SLURM_ARRAY_TASK_STEP"},
	{name: "AWS Batch array job", index: "AWS_BATCH_JOB_ARRAY_INDEX", count: "AWS_BATCH_JOB_ARRAY_SIZE"},
	{name: "Cloud Run job", index: "CLOUD_RUN_TASK_INDEX", count: "CLOUD_RUN_TASK_COUNT"},
}

// envInt reads the integer in the environment variable name.
func envInt(getenv func(string) string, name string) (int, error) {
	v := getenv(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", name, v)
	}
	return n, nil
}

// ParseShard reads the value of --shard:
//
//   - "I/N": shard I of N, 1-based as in Playwright and Jest, 1 <= I <= N;
//   - "auto": I and N from the environment of the engine running the
//     process (Slurm, AWS Batch, Cloud Run);
//   - "auto/N": I from the environment, N given, for Kubernetes Indexed
//     Jobs, whose pods learn their index but not the count (N must equal
//     the Job's completions), and for an engine whose count variable is
//     unset. Where the count variable is set, N must agree with it.
//
// Engines number tasks from 0 (Slurm from SLURM_ARRAY_TASK_MIN, in steps of
// SLURM_ARRAY_TASK_STEP); shard I is task I-1. getenv is os.Getenv, or a
// map in tests. Errors name the value as --shard VALUE.
func ParseShard(value string, getenv func(string) string) (Shard, error) {
	spec, nText, hasN := strings.Cut(value, "/")
	n := 0
	if hasN {
		var err error
		if n, err = strconv.Atoi(nText); err != nil || n < 1 {
			return Shard{}, fmt.Errorf("--shard %s: %q is not a number of shards (want I/N with 1 <= I <= N, auto or auto/N)", value, nText)
		}
		if n > maxShards {
			return Shard{}, fmt.Errorf("--shard %s: %d shards are more than %d, the most a run is cut into (want N <= %d)",
				value, n, maxShards, maxShards)
		}
	}
	if spec != "auto" {
		i, err := strconv.Atoi(spec)
		if err != nil || !hasN {
			return Shard{}, fmt.Errorf("--shard %s: want I/N with 1 <= I <= N, auto or auto/N", value)
		}
		s := Shard{I: i, N: n}
		if !s.Valid() {
			return s, fmt.Errorf("--shard %s: shard %d of %d does not exist (want 1 <= I <= %d)", value, i, n, n)
		}
		return s, nil
	}
	return autoShard(value, n, getenv)
}

// autoShard finds the engine in the environment and reads its index and
// count; n, if not 0, is the count given on the command line.
func autoShard(value string, n int, getenv func(string) string) (Shard, error) {
	var found []engine
	for _, e := range engines {
		if getenv(e.index) != "" {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		var vars []string
		for _, e := range engines {
			vars = append(vars, e.index)
		}
		return Shard{}, fmt.Errorf("--shard %s: no batch engine found in the environment (none of %s is set); give --shard I/N",
			value, strings.Join(vars, ", "))
	case 1:
	default:
		return Shard{}, fmt.Errorf("--shard %s: both %s and %s are set, so the engine is ambiguous; give --shard I/N",
			value, found[0].index, found[1].index)
	}
	e := found[0]
	fail := func(format string, args ...any) (Shard, error) {
		return Shard{}, fmt.Errorf("--shard %s: %s: %s", value, e.name, fmt.Sprintf(format, args...))
	}
	index, err := envInt(getenv, e.index)
	if err != nil {
		return fail("%v", err)
	}
	first, step := 0, 1
	if e.first != "" {
		if first, err = envInt(getenv, e.first); err != nil {
			return fail("%v", err)
		}
	}
	if e.step != "" && getenv(e.step) != "" {
		if step, err = envInt(getenv, e.step); err != nil || step < 1 {
			return fail("%s=%q is not a step", e.step, getenv(e.step))
		}
	}
	if e.count != "" && getenv(e.count) != "" {
		count, err := envInt(getenv, e.count)
		if err != nil {
			return fail("%v", err)
		}
		if n != 0 && n != count {
			return fail("--shard auto/%d, but %s=%d", n, e.count, count)
		}
		n = count
	}
	if n == 0 {
		if e.count != "" {
			return fail("%s is not set; give the count of shards as --shard auto/N", e.count)
		}
		return fail("%s gives no count of shards; give it as --shard auto/N", e.index)
	}
	if (index-first)%step != 0 {
		return fail("%s=%d is not on the array's steps from %d by %d", e.index, index, first, step)
	}
	s := Shard{I: (index-first)/step + 1, N: n}
	if !s.Valid() {
		return fail("%s=%d makes shard %d of %d, which does not exist; the array's tasks are %s=%d..%d",
			e.index, index, s.I, n, e.index, first, first+step*(n-1))
	}
	return s, nil
}
