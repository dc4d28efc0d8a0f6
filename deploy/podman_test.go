//go:build linux

package deploy

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// podman runs podman with its own storage, configuration and state under a
// temporary folder.
// So nothing of the machine's containers is read or changed.
// It uses vfs storage and chroot isolation.
// They need no kernel overlay or namespaces, which a sandbox may lack.
// It uses runc, and the ulimits the sandbox allows.
// podman's defaults ask for more than the runtime can set.
//
// Configuration cannot move two paths podman and runc write.
// They are the build's blob cache (/var/lib/containers/cache) and runc's state (/run/runc).
// So each podman runs in a mount namespace of its own.
// There /var/lib and /run are empty folders of root.
type podman struct {
	root string
	env  []string
}

// newPodman writes the configuration of a podman confined to root.
func newPodman(t *testing.T, root string) *podman {
	t.Helper()
	p := &podman{root: root}
	// podman asks for nofile 1048576 and the runtime fails to set it
	// where the hard limit is lower; a sandbox may also refuse nproc
	// limits it would allow, so both are lowered to at most 1024, far
	// more than a ckptlab process uses.
	var limits []string
	for _, l := range []struct {
		name     string
		resource int
	}{{"nofile", unix.RLIMIT_NOFILE}, {"nproc", unix.RLIMIT_NPROC}} {
		var r unix.Rlimit
		if err := unix.Getrlimit(l.resource, &r); err != nil {
			t.Fatal(err)
		}
		n := min(r.Cur, 1024)
		limits = append(limits, fmt.Sprintf(`"%s=%d:%d"`, l.name, n, n))
	}
	files := map[string]string{
		"containers.conf": fmt.Sprintf(`[containers]
default_ulimits = [%s]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = %q
tmp_dir = %q
`, strings.Join(limits, ", "), filepath.Join(root, "events.log"), filepath.Join(root, "tmp")),
		"storage.conf": fmt.Sprintf("[storage]\ndriver = \"vfs\"\ngraphroot = %q\nrunroot = %q\n",
			filepath.Join(root, "storage"), filepath.Join(root, "run")),
		"registries.conf": "# none: every image is local\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"tmp", "var-lib", "run-fs"} {
		if err := os.Mkdir(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p.env = []string{
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"CONTAINERS_CONF=" + filepath.Join(root, "containers.conf"),
		"CONTAINERS_STORAGE_CONF=" + filepath.Join(root, "storage.conf"),
		"CONTAINERS_REGISTRIES_CONF=" + filepath.Join(root, "registries.conf"),
	}
	return p
}

// run runs podman with args and returns its stdout.
func (p *podman) run(t *testing.T, args ...string) string {
	t.Helper()
	out, err := p.try(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// try runs podman with args and returns its stdout.
// Its error holds podman's stderr.
func (p *podman) try(args ...string) (string, error) {
	const confined = `mount --bind "$1" /var/lib && mount --bind "$2" /run && shift 2 && exec podman "$@"`
	argv := []string{"--mount", "--propagation", "private", "sh", "-c", confined, "sh",
		filepath.Join(p.root, "var-lib"), filepath.Join(p.root, "run-fs"),
		"--root", filepath.Join(p.root, "storage"), "--runroot", filepath.Join(p.root, "run"),
		"--storage-driver", "vfs", "--tmpdir", filepath.Join(p.root, "tmp")}
	return tryRun(p.root, p.env, "unshare", append(argv, args...)...)
}

// TestContainerImage builds deploy/Dockerfile with podman.
// The image is tagged as the Kubernetes manifests name it.
// The test runs the manifests' own container commands in it, as the
// manifests' user, on one shared volume.
// First come the Indexed Job's completions, with JOB_COMPLETION_INDEX 0..N-1.
// As many run at once as its parallelism says.
// Then comes the merge Job.
// The merged tables must be byte for byte those of one unsharded run on the host.
func TestContainerImage(t *testing.T) {
	needEngine(t, "podman", "runc", "unshare", "sh")
	root := tempRoot(t, "ckptlab-podman-")
	p := newPodman(t, root)

	docs := decodeAll(t, filepath.Join("kubernetes", "shards.yaml"))
	shards := jobOf(t, docs[len(docs)-1])
	merge := jobOf(t, decodeAll(t, filepath.Join("kubernetes", "merge.yaml"))[0])

	// The build context deploy/Dockerfile expects: dist/ckptlab, built on
	// the host, and experiments/.
	context := filepath.Join(root, "context")
	dist := filepath.Join(context, "dist")
	experiments := filepath.Join(context, "experiments")
	for _, dir := range []string{dist, experiments} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ckptlab := buildCkptlab(t, dist)
	if err := os.CopyFS(experiments, os.DirFS(filepath.Join("..", "experiments"))); err != nil {
		t.Fatal(err)
	}
	dockerfile, err := filepath.Abs("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	p.run(t, "build", "--isolation", "chroot", "-f", dockerfile, "-t", shards.image, context)
	if user := strings.TrimSpace(p.run(t, "image", "inspect", "--format", "{{.Config.User}}", shards.image)); user != "65532:65532" {
		t.Errorf("the image runs as %q, want 65532:65532", user)
	}

	// The volume as Kubernetes gives it to a pod with fsGroup: owned by
	// that group, setgid, writable by it.
	uid := fmt.Sprint(at(shards.pod, "securityContext", "runAsUser"))
	gid, err := strconv.Atoi(fmt.Sprint(at(shards.pod, "securityContext", "fsGroup")))
	if err != nil {
		t.Fatalf("shards.yaml: fsGroup: %v", err)
	}
	volume := filepath.Join(root, "volume")
	if err := os.Mkdir(volume, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(volume, 0, gid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(volume, 0o775|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	// container runs one container of a Job with the pod's user, group and
	// volume, and the given environment.
	container := func(j job, env ...string) error {
		args := []string{"run", "--rm", "--pull=never", "--network=none",
			"--user=" + uid, "--group-add=" + strconv.Itoa(gid),
			"--volume=" + volume + ":" + fmt.Sprint(at(j.pod, "containers", 0, "volumeMounts", 0, "mountPath"))}
		for _, e := range env {
			args = append(args, "--env="+e)
		}
		_, err := p.try(append(append(args, j.image), j.args...)...)
		return err
	}

	n, _ := shards.spec["completions"].(int)
	parallelism, _ := shards.spec["parallelism"].(int)
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(1, parallelism))
	for i := range n {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			if err := container(shards, "JOB_COMPLETION_INDEX="+strconv.Itoa(i)); err != nil {
				t.Errorf("shard index %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if err := container(merge); err != nil {
		t.Fatalf("merge: %v", err)
	}

	// The unsharded run on the host, of the file the merge names and in
	// the formats it writes.
	file := merge.args[len(merge.args)-1]
	host := filepath.Join("..", "experiments", strings.TrimPrefix(file, "/experiments/"))
	ref := filepath.Join(root, "ref")
	run(t, "", nil, ckptlab, "run", "-q", "-o", ref, "--format", flagValue(merge.args, "--format"), host)
	name := strings.TrimSuffix(filepath.Base(file), ".yaml")
	sameTables(t, filepath.Join(ref, name), filepath.Join(volume, name))
	if got := filesIn(t, filepath.Join(volume, name, "shards")); len(got) != n {
		t.Errorf("the shards wrote %v, want %d shard files", got, n)
	}
}
