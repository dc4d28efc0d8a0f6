package folder_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/folder"
	"ckptlab/results"
)

// names returns the names in dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	slices.Sort(out)
	return out
}

// TestWriteSwapsTheWholeSet writes a set in every format, then in csv only:
// the folder holds the second set alone, its shards/ folder kept, and
// beside it only the lock file.
func TestWriteSwapsTheWholeSet(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		name := "exchange"
		if fallback {
			name = "rename aside"
		}
		t.Run(name, func(t *testing.T) {
			if fallback {
				defer folder.WithoutExchange()()
			}
			set := lessonSet(t)
			out := t.TempDir()
			setDir := filepath.Join(out, set.Name)
			if err := folder.Replace(context.Background(), out, set, []string{"csv", "xlsx", "md"}); err != nil {
				t.Fatal(err)
			}
			shard := filepath.Join(setDir, folder.ShardsDir, "1-of-2")
			os.MkdirAll(filepath.Dir(shard), 0o755)
			if err := os.WriteFile(shard, []byte("shard"), 0o644); err != nil {
				t.Fatal(err)
			}
			set.Config = append(set.Config, results.Setting{Key: "state_rows", Value: "[999]", Origin: "--set"})
			if err := folder.Replace(context.Background(), out, set, []string{"csv"}); err != nil {
				t.Fatal(err)
			}
			want := []string{folder.MarkerFile, "breakeven.csv", "decisions.csv", "experiment.yaml", "failures.csv", "grid.csv", "shards"}
			if got := names(t, setDir); !slices.Equal(got, want) {
				t.Errorf("the folder holds %v, want %v", got, want)
			}
			if got := names(t, out); !slices.Equal(got, []string{".lesson.lock", "lesson"}) {
				t.Errorf("the output folder holds %v, want the set's folder and its lock", got)
			}
			if data, _ := os.ReadFile(shard); string(data) != "shard" {
				t.Errorf("the shard holds %q after the swap", data)
			}
			yaml, _ := os.ReadFile(filepath.Join(setDir, "experiment.yaml"))
			if !strings.Contains(string(yaml), "state_rows: [999]  # --set\n") {
				t.Errorf("experiment.yaml does not say where state_rows came from:\n%s", yaml)
			}
		})
	}
}

// TestWriteCleansUpAKilledRun leaves what a killed run leaves, a staging
// folder holding a half-written set and the shards it took along, and
// checks that the next write removes it and moves the shards back.
func TestWriteCleansUpAKilledRun(t *testing.T) {
	set := lessonSet(t)
	out := t.TempDir()
	stale := filepath.Join(out, ".lesson.tmp-123")
	os.MkdirAll(filepath.Join(stale, folder.ShardsDir), 0o755)
	os.WriteFile(filepath.Join(stale, "grid.csv"), []byte("half a ro"), 0o644)
	os.WriteFile(filepath.Join(stale, folder.ShardsDir, "2-of-2"), []byte("shard"), 0o644)
	other := filepath.Join(out, ".lessons.tmp-1") // another name's: not this write's to remove
	os.MkdirAll(other, 0o755)

	if err := folder.Replace(context.Background(), out, set, []string{"csv"}); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, out), []string{".lesson.lock", ".lessons.tmp-1", "lesson"}; !slices.Equal(got, want) {
		t.Errorf("the output folder holds %v, want %v", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "lesson", folder.ShardsDir, "2-of-2")); string(data) != "shard" {
		t.Errorf("the shard the killed run held is %q, want it moved back", data)
	}
}

// lockedLesson writes the lesson's set as CSV into a new folder and takes
// the folder's lock, as a write in progress holds it.
func lockedLesson(t *testing.T) (set results.Set, out string, unlock func()) {
	t.Helper()
	set, out = lessonSet(t), t.TempDir()
	if err := folder.Replace(context.Background(), out, set, []string{"csv"}); err != nil {
		t.Fatal(err)
	}
	unlock, err := folder.Lock(context.Background(), out, set.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set, out, unlock
}

// TestWriteWaitsForTheLock holds the folder's lock: a write waits for it
// and gives up when its context is done, leaving the folder as it was.
func TestWriteWaitsForTheLock(t *testing.T) {
	set, out, unlock := lockedLesson(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() { done <- folder.Replace(ctx, out, set, []string{"md"}) }()
	stop := errors.New("stopped while waiting")
	cancel(stop)
	if err := <-done; !errors.Is(err, stop) {
		t.Errorf("a write waiting for the lock returned %v, want %v", err, stop)
	}
	if got, want := names(t, filepath.Join(out, set.Name)), []string{folder.MarkerFile, "breakeven.csv", "decisions.csv", "experiment.yaml", "failures.csv", "grid.csv"}; !slices.Equal(got, want) {
		t.Errorf("the folder holds %v, want the first set %v", got, want)
	}
	unlock()
	set.Config = append(set.Config, results.Setting{Key: "workers", Value: "[2]", Origin: "--set"}) // another experiment
	if err := folder.Replace(context.Background(), out, set, []string{"md"}); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, filepath.Join(out, set.Name)), []string{folder.MarkerFile, "experiment.yaml", "lesson.md"}; !slices.Equal(got, want) {
		t.Errorf("the folder holds %v, want %v", got, want)
	}
}

// TestWriteRefusesAnEmptyFolderName checks that "" is not taken as the
// current folder.
func TestWriteRefusesAnEmptyFolderName(t *testing.T) {
	err := folder.Replace(context.Background(), "", lessonSet(t), []string{"csv"})
	if err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("Write to \"\" = %v, want an error", err)
	}
}

// TestCheckWaitsForAWrite holds the folder's write lock: a check waits for
// it rather than read a folder being swapped, and gives up with its context.
func TestCheckWaitsForAWrite(t *testing.T) {
	set, out, unlock := lockedLesson(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := folder.Check(ctx, out, set, []string{"csv"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a check while a write holds the lock returned %v, want it to wait until cancelled", err)
	}
	unlock()
	if diffs, err := folder.Check(context.Background(), out, set, []string{"csv"}); err != nil || len(diffs) != 0 {
		t.Errorf("Check = %v, %v; want no difference", diffs, err)
	}
}

// TestReadDuringTheFirstWrite reads a folder that no write ever locked (it
// holds only shards/, as before the first run) while the first write swaps
// its set in: the reader has opened the folder to list it, and the write
// removes that folder (the old one, now beside) before the listing. The
// kernel's answer to listing a removed folder ("readdirent …: no such file
// or directory"), or a listing of the old folder, is an artefact of the
// race, not of the folder: the check before a run must neither fail nor
// refuse a folder it may replace, and --check's comparison (Check)
// must compare again under the lock the write made and find the set it
// wrote.
func TestReadDuringTheFirstWrite(t *testing.T) {
	for _, c := range []struct {
		reader string
		read   func(set results.Set, out string) error
	}{
		{"the check before a run", func(set results.Set, out string) error {
			return folder.CheckReplace(context.Background(), out, set.Name, nil)
		}},
		{"--check", func(set results.Set, out string) error {
			diffs, err := folder.Check(context.Background(), out, set, []string{"csv"})
			if err == nil && len(diffs) != 0 {
				err = fmt.Errorf("differences %v", diffs)
			}
			return err
		}},
	} {
		t.Run(c.reader, func(t *testing.T) {
			set, out := lessonSet(t), t.TempDir()
			setDir := filepath.Join(out, set.Name)
			if err := os.MkdirAll(filepath.Join(setDir, folder.ShardsDir), 0o755); err != nil {
				t.Fatal(err)
			}
			shard := filepath.Join(setDir, folder.ShardsDir, "1-of-1")
			if err := os.WriteFile(shard, []byte("a shard"), 0o644); err != nil {
				t.Fatal(err)
			}
			wrote := false
			defer folder.SetReadDir(func(path string) ([]os.DirEntry, error) {
				if wrote || path != setDir {
					return os.ReadDir(path)
				}
				wrote = true
				f, err := os.Open(path)
				if err != nil {
					return nil, err
				}
				defer f.Close()
				if err := folder.Replace(context.Background(), out, set, []string{"csv"}); err != nil {
					t.Errorf("the write during the read: %v", err)
				}
				return f.ReadDir(-1)
			})()
			err := c.read(set, out)
			if !wrote {
				t.Fatal("the reader listed no folder, so no write was interleaved with it")
			}
			if err != nil {
				t.Errorf("%s during the first write returned %v, want nil", c.reader, err)
			}
			if data, err := os.ReadFile(shard); err != nil || string(data) != "a shard" {
				t.Errorf("the shard holds %q, %v after the write", data, err)
			}
		})
	}
}
