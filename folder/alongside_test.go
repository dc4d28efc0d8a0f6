package folder

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteStagedAlongside writes files at the same time and checks that
// each lands whole, and that a failure is reported for the file that
// failed, not for one it stopped.
func TestWriteStagedAlongside(t *testing.T) {
	boom := errors.New("boom")
	text := func(s string) func(context.Context, io.Writer, string) error {
		return func(_ context.Context, w io.Writer, _ string) error {
			_, err := io.WriteString(w, s)
			return err
		}
	}
	// waits renders nothing until ctx is done: only the failure of a file
	// beside it ends it.
	waits := func(ctx context.Context, _ io.Writer, _ string) error {
		<-ctx.Done()
		return ctx.Err()
	}
	fails := func(context.Context, io.Writer, string) error { return boom }
	tests := []struct {
		name     string
		files    []setFile
		wantFile string // the file named in the error, "" for none
	}{
		{"all written", []setFile{{name: "a", render: text("1")}, {name: "b", render: text("22")}, {name: "c", render: text("333")}}, ""},
		{"the failing one is named", []setFile{{name: "a", render: waits}, {name: "b", render: fails}}, "b"},
		{"the first failure in order", []setFile{{name: "a", render: fails}, {name: "b", render: fails}}, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stage := t.TempDir()
			f, err := writeStagedAlongside(context.Background(), stage, tt.files)
			if tt.wantFile == "" {
				if err != nil {
					t.Fatalf("error %v writing %s", err, f.name)
				}
				for i, sf := range tt.files {
					data, err := os.ReadFile(filepath.Join(stage, sf.name))
					if err != nil || len(data) != i+1 {
						t.Errorf("%s holds %q (%v), want %d bytes", sf.name, data, err, i+1)
					}
				}
				return
			}
			if !errors.Is(err, boom) || f.name != tt.wantFile {
				t.Errorf("writeStagedAlongside = %s, %v; want %s, %v", f.name, err, tt.wantFile, boom)
			}
		})
	}
}
