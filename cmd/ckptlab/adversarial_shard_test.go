//go:build linux

package main

// The adversarial suite of forged shard files: a forger who read the
// format edits a shard, writes this experiment's hash in and recomputes
// the checksum. Each attack runs merge in a process of its own, under a
// timeout and, where prlimit is installed, a cap on its address space, and
// asserts its exit code, that its message names the file, and that a
// refused merge changed no byte of the output folder. Forgeries of single
// counts are attacked in runner (shard_forge_test.go).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// cappedMerge runs ckptlab in a process of its own, as bounded does.
// Where prlimit is installed, the process has a 2 GiB address space.
// It returns the exit code and stderr.
func cappedMerge(t *testing.T, env []string, args ...string) (code int, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := helper(t, args...)
	if prlimit, err := exec.LookPath("prlimit"); err == nil {
		cmd.Args = append([]string{prlimit, "--as=2147483648", "--", cmd.Path}, cmd.Args[1:]...)
		cmd.Path = prlimit
	}
	cmd.Env = append(cmd.Env, env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		<-done
		t.Fatalf("ckptlab %v hung; stderr: %s", args, errb.String())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, errb.String()
}

// reseal returns a shard file with edit applied to every byte before its
// checksum line. It adds a checksum that matches, as a forger writes it.
func reseal(data []byte, edit func(body []byte) []byte) []byte {
	body := edit(bytes.Clone(data[:bytes.LastIndex(data, []byte("sha256: "))]))
	return fmt.Appendf(body, "sha256: %x\n", sha256.Sum256(body))
}

var (
	hashLine = regexp.MustCompile(`(?m)^hash: [0-9a-f]{64}\n`)
	macLine  = regexp.MustCompile(`(?m)^hmac-sha256: [0-9a-f]{64}\n`)
)

// TestForgedShards attacks merge with forged shard files.
// The first is counted with missing: 21 where the experiment says 20, with
// the experiment's hash written in. Then its pieces, its ranges and its
// signature are edited. Every forgery is refused (exit 1) but under
// --verify none. That trusts the counts, as documented.
func TestForgedShards(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	root := t.TempDir()
	small := exp(t, root, "small.yaml", "forged", "subscribers: 3000\nmissing: 20\nduplicates: 5\n")   // a range per shard
	large := exp(t, root, "large.yaml", "forged", "subscribers: 120000\nmissing: 20\nduplicates: 5\n") // 32 ranges per shard
	key := []string{"CKPTLAB_SHARD_KEY=the key"}

	// shards makes the shards of file, signed with the key if signed.
	// It returns the output folder and shard 3 of 3 counted with missing: 21.
	// That shard is unsigned, since the forger has no key.
	shards := func(t *testing.T, file string, signed bool) (out string, forged []byte) {
		out = filepath.Join(t.TempDir(), "out")
		if signed {
			t.Setenv("CKPTLAB_SHARD_KEY", "the key")
		}
		for i := 1; i <= 3; i++ {
			if code, _, stderr := ckptlab("run", "-q", "-o", out, "--shard", fmt.Sprintf("%d/3", i), file); code != exitOK {
				t.Fatal(stderr)
			}
		}
		os.Unsetenv("CKPTLAB_SHARD_KEY")
		elsewhere := t.TempDir()
		if code, _, stderr := ckptlab("run", "-q", "-o", elsewhere, "--set", "missing=21", "--shard", "3/3", file); code != exitOK {
			t.Fatal(stderr)
		}
		forged, _ = os.ReadFile(filepath.Join(elsewhere, "forged", "shards", "3-of-3"))
		return out, forged
	}
	// withHash writes honest's hash line into forged.
	withHash := func(honest []byte) func([]byte) []byte {
		return func(b []byte) []byte { return hashLine.ReplaceAll(b, hashLine.Find(honest)) }
	}
	tests := []struct {
		name   string
		file   string
		signed bool     // shards made with the key
		env    []string // merge's
		args   []string // merge's, before the file
		forge  func(honest, forged []byte) []byte
		code   int
		want   string
	}{
		{"missing: 21, a range", small, false, nil, nil, func(honest, forged []byte) []byte {
			return reseal(forged, withHash(honest))
		}, exitFailed, "the tally of source 0, subscribers 2001 to 3000 (range 1 of 1), differs from a count of them"},
		{"missing: 21, 32 ranges, --verify all", large, false, nil, []string{"--verify", "all"}, func(honest, forged []byte) []byte {
			return reseal(forged, withHash(honest))
		}, exitFailed, "of 32), differs from a count of them"},
		{"missing: 21, --verify none", small, false, nil, []string{"--verify", "none"}, func(honest, forged []byte) []byte {
			return reseal(forged, withHash(honest))
		}, exitOK, ""},
		{"a piece claiming every subscriber", small, false, nil, nil, func(honest, forged []byte) []byte {
			return reseal(honest, func(b []byte) []byte {
				return bytes.Replace(b, []byte("piece: 0 2000 3000\n"), []byte("piece: 0 0 3000\n"), 1)
			})
		}, exitFailed, "its pieces are not those of shard 3 of 3"},
		{"a tally claiming another range", small, false, nil, nil, func(honest, forged []byte) []byte {
			return reseal(honest, func(b []byte) []byte {
				return bytes.Replace(b, []byte("tally: 0 2000 3000 "), []byte("tally: 0 0 1000 "), 1)
			})
		}, exitFailed, "tally 1 is of source 0, subscribers 1 to 1000, not of the range 1 of its pieces"},
		{"10^11 tallies announced", small, false, nil, nil, func(honest, forged []byte) []byte {
			return reseal(honest, func(b []byte) []byte {
				return bytes.Replace(b, []byte("tallies: 1\n"), []byte("tallies: 100000000000\n"), 1)
			})
		}, exitFailed, "want the field \"tally\""},
		{"key: missing: 21, the honest signature copied in", small, true, key, []string{"--verify", "none"}, func(honest, forged []byte) []byte {
			return reseal(forged, func(b []byte) []byte { return append(withHash(honest)(b), macLine.Find(honest)...) })
		}, exitFailed, "its signature is not one made with the key of CKPTLAB_SHARD_KEY"},
		{"key: missing: 21, unsigned", small, true, key, nil, func(honest, forged []byte) []byte {
			return reseal(forged, withHash(honest))
		}, exitFailed, "not signed, and CKPTLAB_SHARD_KEY is set"},
		{"key: the shard signed with another key", small, true, []string{"CKPTLAB_SHARD_KEY=another key"}, nil, func(honest, forged []byte) []byte {
			return honest
		}, exitFailed, "its signature is not one made with the key"},
		{"key: honest and signed", small, true, key, nil, func(honest, forged []byte) []byte {
			return honest
		}, exitOK, ""},
	}
	refs := map[string][]byte{} // grid.csv of one run, per file
	for _, file := range []string{small, large} {
		ref := t.TempDir()
		if code, _, stderr := ckptlab("run", "-q", "--format", "csv", "-o", ref, file); code != exitOK {
			t.Fatal(stderr)
		}
		refs[file], _ = os.ReadFile(filepath.Join(ref, "forged", "grid.csv"))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, forged := shards(t, tt.file, tt.signed)
			path := filepath.Join(out, "forged", "shards", "3-of-3")
			honest, _ := os.ReadFile(path)
			if err := os.WriteFile(path, tt.forge(honest, forged), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, out)
			code, stderr := cappedMerge(t, tt.env, append(append([]string{"merge", "-q", "--format", "csv", "-o", out}, tt.args...), tt.file)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) || (tt.code != exitOK && !strings.Contains(stderr, path+": ")) {
				t.Fatalf("merge: exit %d, stderr %q; want %d and %q naming %s", code, stderr, tt.code, tt.want, path)
			}
			if tt.code != exitOK {
				sameSnapshot(t, "a refused merge", before, snapshot(t, out))
				return
			}
			// A forgery let through writes wrong tables.
			// Honest shards are those of one run.
			grid, _ := os.ReadFile(filepath.Join(out, "forged", "grid.csv"))
			if honestShards := bytes.Equal(tt.forge(honest, forged), honest); bytes.Equal(grid, refs[tt.file]) != honestShards {
				t.Errorf("merged shards, honest %v: grid.csv equal to one run's %v, want %v", honestShards, !honestShards, honestShards)
			}
		})
	}
}
