package runner

import (
	"strings"
	"testing"
)

// TestParseShard reads --shard values as typed and in each engine's
// environment.
func TestParseShard(t *testing.T) {
	tests := []struct {
		value string
		env   map[string]string
		want  Shard
		err   string // part of the error; "" for none
	}{
		{"1/1", nil, Shard{I: 1, N: 1}, ""},
		{"3/4", nil, Shard{I: 3, N: 4}, ""},
		{"5/4", nil, Shard{}, "shard 5 of 4 does not exist"},
		{"0/4", nil, Shard{}, "shard 0 of 4 does not exist"},
		{"-1/4", nil, Shard{}, "does not exist"},
		{"1/0", nil, Shard{}, "not a number of shards"},
		{"2", nil, Shard{}, "want I/N"},
		{"a/b", nil, Shard{}, "not a number of shards"},
		{"auto", nil, Shard{}, "no batch engine found"},
		{"auto/8", map[string]string{"JOB_COMPLETION_INDEX": "0"}, Shard{I: 1, N: 8}, ""},
		{"auto/8", map[string]string{"JOB_COMPLETION_INDEX": "7"}, Shard{I: 8, N: 8}, ""},
		{"auto/8", map[string]string{"JOB_COMPLETION_INDEX": "8"}, Shard{}, "shard 9 of 8, which does not exist"},
		{"auto", map[string]string{"JOB_COMPLETION_INDEX": "3"}, Shard{}, "gives no count of shards; give it as --shard auto/N"},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{I: 3, N: 4}, ""},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "4"}, Shard{I: 3, N: 4}, ""},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, Shard{}, "SLURM_ARRAY_TASK_MIN=\"\" is not an integer"},
		{"auto/5", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{}, "--shard auto/5, but SLURM_ARRAY_TASK_COUNT=4"},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{I: 4, N: 4}, ""},
		{"auto", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "2"}, Shard{I: 1, N: 2}, ""},
		{"auto", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "x", "AWS_BATCH_JOB_ARRAY_SIZE": "2"}, Shard{}, "AWS_BATCH_JOB_ARRAY_INDEX=\"x\" is not an integer"},
		{"auto", map[string]string{"CLOUD_RUN_TASK_INDEX": "9", "CLOUD_RUN_TASK_COUNT": "10"}, Shard{I: 10, N: 10}, ""},
		{"auto", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, Shard{}, "AWS_BATCH_JOB_ARRAY_SIZE is not set; give the count of shards as --shard auto/N"},
		{"auto/3", map[string]string{"AWS_BATCH_JOB_ARRAY_INDEX": "1"}, Shard{I: 2, N: 3}, ""},
		{"auto", map[string]string{"CLOUD_RUN_TASK_INDEX": "0", "JOB_COMPLETION_INDEX": "0"}, Shard{}, "the engine is ambiguous"},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.value, func(k string) string { return tt.env[k] })
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("--shard %s with %v: %v", tt.value, tt.env, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("--shard %s with %v: error %v, want one saying %q", tt.value, tt.env, err, tt.err)
		case tt.err == "" && got != tt.want:
			t.Errorf("--shard %s with %v = %v, want %v", tt.value, tt.env, got, tt.want)
		}
	}
}
