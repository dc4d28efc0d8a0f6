package diff

import (
	"context"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"ckptlab/folder"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

var (
	scaleOnce sync.Once
	scaleDirs [2]string
	scaleErr  error
)

// scaleFolders writes experiments/scale.yaml as CSV twice, the second
// with a tenth more state rows (so every metric that depends on them
// changes), into a folder that lives as long as the test binary.
func scaleFolders(b *testing.B) [2]string {
	scaleOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ckptlab-diff-bench")
		if err != nil {
			scaleErr = err
			return
		}
		for i, sets := range [][]string{nil, {"state_rows=1100000"}} {
			e, err := experiment.Load(filepath.Join("..", "experiments", "scale.yaml"), experiment.Overrides{Sets: sets})
			if err != nil {
				scaleErr = err
				return
			}
			res, err := runner.Evaluate(context.Background(), e, runner.Options{})
			if err != nil {
				scaleErr = err
				return
			}
			out := filepath.Join(dir, string(rune('a'+i)))
			set, err := report.Set(context.Background(), res, []string{results.FormatCSV})
			if err != nil {
				scaleErr = err
				return
			}
			if err := folder.Replace(context.Background(), out, set, []string{results.FormatCSV}); err != nil {
				scaleErr = err
				return
			}
			scaleDirs[i] = filepath.Join(out, e.Name)
		}
	})
	if scaleErr != nil {
		b.Fatal(scaleErr)
	}
	return scaleDirs
}

// BenchmarkReadScaleCSVs is the baseline: reading grid.csv, decisions.csv
// and breakeven.csv of both scale.yaml folders once with encoding/csv.
func BenchmarkReadScaleCSVs(b *testing.B) {
	dirs := scaleFolders(b)
	for b.Loop() {
		for _, dir := range dirs {
			for _, table := range []string{"grid", "decisions", "breakeven"} {
				f, err := os.Open(filepath.Join(dir, table+".csv"))
				if err != nil {
					b.Fatal(err)
				}
				r := csv.NewReader(f)
				r.ReuseRecord = true
				for {
					if _, err := r.Read(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
				}
				f.Close()
			}
		}
	}
}

// BenchmarkDiffScale compares the two folders: the cost of diff beyond
// starting the program. Its ratio to BenchmarkReadScaleCSVs is the figure
// the README gives (target: at most 2).
func BenchmarkDiffScale(b *testing.B) {
	dirs := scaleFolders(b)
	for b.Loop() {
		old, err := FolderSide(dirs[0])
		if err != nil {
			b.Fatal(err)
		}
		new, err := FolderSide(dirs[1])
		if err != nil {
			b.Fatal(err)
		}
		e, err := Pair(old, new)
		if err != nil {
			b.Fatal(err)
		}
		if e.Status != StatusChanged {
			b.Fatal("no change found")
		}
	}
}

// BenchmarkDiffScaleSame compares a folder with itself.
func BenchmarkDiffScaleSame(b *testing.B) {
	dirs := scaleFolders(b)
	for b.Loop() {
		old, _ := FolderSide(dirs[0])
		new, _ := FolderSide(dirs[0])
		if _, err := Pair(old, new); err != nil {
			b.Fatal(err)
		}
	}
}
