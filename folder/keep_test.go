package folder_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"ckptlab/folder"
	"ckptlab/results"
)

// TestWriteAgainKeepsOtherFormats writes a set in one list of formats and
// then in another into the same folder: the second write is never refused,
// and the folder holds what it wrote and, of the same experiment, the
// first write's other files (README.md#the-output-folder), and only that
// when the experiment changed, each file it removed named.
func TestWriteAgainKeepsOtherFormats(t *testing.T) {
	csv := []string{"breakeven.csv", "decisions.csv", "failures.csv", "grid.csv"}
	with := func(names ...string) []string {
		out := append([]string{folder.MarkerFile, "experiment.yaml"}, names...)
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		name          string
		first, second []string
		changed       bool // the second write is of another experiment
		want, removed []string
	}{
		{"json twice", []string{"json"}, []string{"json"}, false, with("lesson.json"), nil},
		{"json then csv", []string{"json"}, []string{"csv"}, false, with(append([]string{"lesson.json"}, csv...)...), nil},
		{"csv then json", []string{"csv"}, []string{"json"}, false, with(append([]string{"lesson.json"}, csv...)...), nil},
		{"md and json then json", []string{"md", "json"}, []string{"json"}, false, with("lesson.json", "lesson.md"), nil},
		{"json then csv, changed", []string{"json"}, []string{"csv"}, true, with(csv...), []string{"lesson.json"}},
		{"csv then json, changed", []string{"csv"}, []string{"json"}, true, with("lesson.json"), csv},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := lessonSet(t)
			out := t.TempDir()
			setDir := filepath.Join(out, set.Name)
			if err := folder.Replace(context.Background(), out, set, c.first); err != nil {
				t.Fatal(err)
			}
			if err := folder.CheckReplace(context.Background(), out, set.Name, nil); err != nil {
				t.Fatalf("after %v: %v", c.first, err)
			}
			if c.changed {
				set.Config = append(set.Config, results.Setting{Key: "state_rows", Value: "[999]", Origin: "--set"})
			}
			var removed []string
			ctx := folder.OnRemoved(context.Background(), func(path string) { removed = append(removed, filepath.Base(path)) })
			if err := folder.Replace(ctx, out, set, c.second); err != nil {
				t.Fatalf("after %v, writing %v: %v", c.first, c.second, err)
			}
			if got := names(t, setDir); !slices.Equal(got, c.want) {
				t.Errorf("the folder holds %v, want %v", got, c.want)
			}
			slices.Sort(removed)
			if !slices.Equal(removed, c.removed) {
				t.Errorf("removed %v, want %v", removed, c.removed)
			}
			if err := folder.CheckReplace(context.Background(), out, set.Name, nil); err != nil {
				t.Errorf("the folder cannot be written a third time: %v", err)
			}
		})
	}
}
