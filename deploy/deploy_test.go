// Package deploy holds examples that run ckptlab's shards on batch engines.
// Its tests check that the examples parse and agree with themselves and with
// the command line.
// The engine tests run the Slurm recipe on a real cluster.
// They run the image under podman, as the Kubernetes manifests say.
// They run where those engines are installed, and always under CI.
package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"ckptlab/runner"
)

// decodeAll decodes every YAML document of a file into generic values.
func decodeAll(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []map[string]any
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		docs = append(docs, doc)
	}
}

// at walks a path of keys and list indexes through decoded YAML.
func at(v any, path ...any) any {
	for _, k := range path {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// job is what the tests read of a Kubernetes Job.
type job struct {
	name  string
	spec  map[string]any
	pod   any
	image string
	pull  string // imagePullPolicy
	args  []string
}

// jobOf checks that doc is a batch/v1 Job with one container and returns it.
func jobOf(t *testing.T, doc map[string]any) job {
	t.Helper()
	if doc["apiVersion"] != "batch/v1" || doc["kind"] != "Job" {
		t.Fatalf("%v %v, want a batch/v1 Job", doc["apiVersion"], doc["kind"])
	}
	j := job{name: fmt.Sprint(at(doc, "metadata", "name"))}
	j.spec, _ = doc["spec"].(map[string]any)
	j.pod = at(j.spec, "template", "spec")
	if at(j.pod, "restartPolicy") != "Never" {
		t.Errorf("job %s: restartPolicy %v, want Never", j.name, at(j.pod, "restartPolicy"))
	}
	if at(j.pod, "securityContext", "runAsNonRoot") != true {
		t.Errorf("job %s: pods may run as root", j.name)
	}
	containers, _ := at(j.pod, "containers").([]any)
	if len(containers) != 1 {
		t.Fatalf("job %s: %d containers, want 1", j.name, len(containers))
	}
	j.image = fmt.Sprint(at(containers[0], "image"))
	j.pull = fmt.Sprint(at(containers[0], "imagePullPolicy"))
	for _, a := range at(containers[0], "args").([]any) {
		j.args = append(j.args, fmt.Sprint(a))
	}
	return j
}

// flagValue returns the value after flag in args.
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// TestKubernetes checks the Indexed Job and its merge Job.
// N must be equal in completions and in --shard auto/N.
// Both Jobs use the same image, volume and output folder.
// The experiment file must be one that the image holds.
func TestKubernetes(t *testing.T) {
	docs := decodeAll(t, filepath.Join("kubernetes", "shards.yaml"))
	if len(docs) != 2 || docs[0]["kind"] != "PersistentVolumeClaim" {
		t.Fatalf("shards.yaml: want a PersistentVolumeClaim and a Job")
	}
	claim := at(docs[0], "metadata", "name")
	shards := jobOf(t, docs[1])
	merge := jobOf(t, decodeAll(t, filepath.Join("kubernetes", "merge.yaml"))[0])

	if shards.spec["completionMode"] != "Indexed" {
		t.Errorf("shards: completionMode %v, want Indexed", shards.spec["completionMode"])
	}
	n, _ := shards.spec["completions"].(int)
	if want := fmt.Sprintf("auto/%d", n); n < 1 || flagValue(shards.args, "--shard") != want {
		t.Errorf("shards: completions %v and args %v, want --shard %s", shards.spec["completions"], shards.args, want)
	}
	if shards.args[0] != "run" || merge.args[0] != "merge" {
		t.Errorf("commands %q and %q, want run and merge", shards.args[0], merge.args[0])
	}
	if shards.image != merge.image {
		t.Errorf("images %s and %s differ", shards.image, merge.image)
	}
	// A tag that names the version never moves: IfNotPresent pulls it once
	// per node, and every pod of the Job runs the same binary.
	if want := ":" + runner.Version; !strings.HasSuffix(shards.image, want) {
		t.Errorf("image %s: want the tag of ckptlab's version, %s", shards.image, want)
	}
	for _, j := range []job{shards, merge} {
		if j.pull != "IfNotPresent" {
			t.Errorf("job %s: imagePullPolicy %s, want IfNotPresent", j.name, j.pull)
		}
	}
	for _, j := range []job{shards, merge} {
		if got := at(j.pod, "volumes", 0, "persistentVolumeClaim", "claimName"); got != claim {
			t.Errorf("job %s: volume claim %v, want %v", j.name, got, claim)
		}
		out := flagValue(j.args, "-o")
		if at(j.pod, "containers", 0, "volumeMounts", 0, "mountPath") != out {
			t.Errorf("job %s: writes -o %s, which is not the mounted volume", j.name, out)
		}
	}
	if a, b := shards.args[len(shards.args)-1], merge.args[len(merge.args)-1]; a != b || !imageHolds(t, a) {
		t.Errorf("experiment files %s and %s: want one the image holds, the same in both", a, b)
	}
}

// imageHolds reports whether a path in the image is an experiment file that
// deploy/Dockerfile copies in.
func imageHolds(t *testing.T, path string) bool {
	docker, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	rel, ok := strings.CutPrefix(path, "/experiments/")
	if !ok || !strings.Contains(string(docker), "COPY experiments/ /experiments/") {
		return false
	}
	_, err = os.Stat(filepath.Join("..", "experiments", rel))
	return err == nil
}

// TestWorkflow checks the GitHub Actions example.
// The matrix lists shards 1..N.
// Each shard runs --shard I/N and uploads its own file.
// The merge job needs the shards and downloads every file into one folder.
func TestWorkflow(t *testing.T) {
	wf := decodeAll(t, filepath.Join("github", "shards.yml"))[0]
	shard, merge := at(wf, "jobs", "shard"), at(wf, "jobs", "merge")
	matrix, _ := at(shard, "strategy", "matrix", "shard").([]any)
	n := len(matrix)
	for i, v := range matrix {
		if v != i+1 {
			t.Errorf("matrix.shard[%d] = %v, want %d", i, v, i+1)
		}
	}
	var run, upload string
	for _, step := range at(shard, "steps").([]any) {
		if r, ok := at(step, "run").(string); ok && strings.Contains(r, "--shard") {
			run = r
		}
		if at(step, "uses") == "actions/upload-artifact@v4" {
			upload = fmt.Sprint(at(step, "with", "path"))
		}
	}
	want := "--shard ${{ matrix.shard }}/" + strconv.Itoa(n)
	if n == 0 || !strings.Contains(run, want) {
		t.Errorf("the shard step runs %q, want %q", run, want)
	}
	if want := "/shards/${{ matrix.shard }}-of-" + strconv.Itoa(n); !strings.HasSuffix(upload, want) {
		t.Errorf("the shard job uploads %q, want the file ending %q", upload, want)
	}
	if at(merge, "needs") != "shard" {
		t.Errorf("merge needs %v, want shard", at(merge, "needs"))
	}
	var download, merged string
	for _, step := range at(merge, "steps").([]any) {
		if at(step, "uses") == "actions/download-artifact@v4" {
			download = fmt.Sprint(at(step, "with", "path"))
		}
		if r, ok := at(step, "run").(string); ok && strings.Contains(r, "ckptlab merge") {
			merged = r
		}
	}
	if download == "" || download != strings.TrimSuffix(upload, "/${{ matrix.shard }}-of-"+strconv.Itoa(n)) {
		t.Errorf("the merge job downloads into %q, want the folder the shards uploaded from (%q)", download, upload)
	}
	if merged == "" {
		t.Error("the merge job runs no ckptlab merge")
	}

	// The workflow cannot run offline; each step that needs github.com
	// says so, the ones added later too.
	text, err := os.ReadFile(filepath.Join("github", "shards.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(text), "\n") {
		if strings.Contains(line, "- uses: ") && !strings.HasSuffix(line, "# github.com") {
			t.Errorf("shards.yml:%d: %s: the step does not say it needs github.com", i+1, strings.TrimSpace(line))
		}
	}
}

// TestSlurm checks the merge job of the Slurm recipe.
// It depends on the array with afterok.
// It is cancelled, not left pending, if a shard fails.
// It asks for the memory ckptlab plan says.
// slurm_engine_test.go runs them on a cluster.
func TestSlurm(t *testing.T) {
	submit, err := os.ReadFile(filepath.Join("slurm", "submit.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`sbatch --parsable --array="\$\{TASKS:-0-\$\(\(n - 1\)\)\}"`),
		regexp.MustCompile(`"\$here/shards\.sbatch" "\$n" "\$file" "\$@"`),
		regexp.MustCompile(`--dependency=afterok:"\$shards" --kill-on-invalid-dep=yes`),
		regexp.MustCompile(`ckptlab plan .*\$1 == "memory"`),
		regexp.MustCompile(`--mem="\$\{mib\}M" "\$here/merge\.sbatch"`),
	} {
		if !want.Match(submit) {
			t.Errorf("submit.sh does not match %s", want)
		}
	}
}

// TestSlurmTask runs shards.sbatch as Slurm runs a task, with a ckptlab that
// prints its arguments.
// Task T computes shard T+1 of the N given.
// It does so also when resubmitted alone.
// Then --array=2 sets MIN = 2 and COUNT = 1, which --shard auto would read as
// shard 1 of 1.
// A task beyond N is refused.
func TestSlurmTask(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run shards.sbatch with")
	}
	bin := t.TempDir()
	fake := "#!/bin/sh\necho \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ckptlab"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, tc := range []struct {
		task, min, count string
		want             string // the arguments, "" for a refusal
	}{
		{"0", "0", "4", "run -q -j 2 -o out --shard 1/4 scale.yaml --set seeds=7"},
		{"3", "0", "4", "run -q -j 2 -o out --shard 4/4 scale.yaml --set seeds=7"},
		{"2", "2", "1", "run -q -j 2 -o out --shard 3/4 scale.yaml --set seeds=7"},
		{"4", "4", "1", ""},
	} {
		cmd := exec.Command(bash, filepath.Join("slurm", "shards.sbatch"), "4", "scale.yaml", "--set", "seeds=7")
		cmd.Env = append(os.Environ(), path, "SLURM_CPUS_PER_TASK=2", "OUT=out",
			"SLURM_ARRAY_TASK_ID="+tc.task, "SLURM_ARRAY_TASK_MIN="+tc.min, "SLURM_ARRAY_TASK_COUNT="+tc.count)
		out, err := cmd.Output()
		switch got := strings.TrimSpace(string(out)); {
		case tc.want == "" && err == nil:
			t.Errorf("task %s of 4 ran %q, want a refusal", tc.task, got)
		case tc.want != "" && (err != nil || got != tc.want):
			t.Errorf("task %s (MIN %s, COUNT %s) ran %q (%v), want %q", tc.task, tc.min, tc.count, got, err, tc.want)
		}
	}
}

// TestDockerfile checks the images.
// deploy/Dockerfile is a scratch image of the binary built outside it.
// The binary is static and runs as uid 65532.
// Dockerfile.source builds the same image in a first stage.
// .dockerignore keeps .git and results out of the build context.
// podman_test.go builds deploy/Dockerfile and runs it.
func TestDockerfile(t *testing.T) {
	for _, tc := range []struct {
		file  string
		froms int
		want  []string
	}{
		{"Dockerfile", 1, []string{"\nFROM scratch\n", "CGO_ENABLED=0", "\nCOPY dist/ckptlab ", "\nUSER 65532:65532\n"}},
		{"Dockerfile.source", 2, []string{"CGO_ENABLED=0", "COPY --from=build", "\nUSER nonroot"}},
	} {
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if n := strings.Count(text, "\nFROM "); n != tc.froms {
			t.Errorf("%s: %d FROM lines, want %d", tc.file, n, tc.froms)
		}
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", tc.file, want)
			}
		}
	}
	ignore, err := os.ReadFile(filepath.Join("..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git", "out"} {
		if !slices.Contains(strings.Split(string(ignore), "\n"), want) {
			t.Errorf(".dockerignore does not leave out %s", want)
		}
	}
}
