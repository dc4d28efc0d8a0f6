package folder

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/internal/safefile"
	"ckptlab/results"
)

// RefusedError is the error of a run that will not replace its output folder.
// It names the folder and says why.
// It is bad input, found before any work.
type RefusedError struct {
	Folder string // OUT/<name>
	Why    string // "holds notes.txt, which no ckptlab run wrote"
	Other  string // an -o that avoids the folder, or ""
}

func (e *RefusedError) Error() string {
	msg := fmt.Sprintf("%s %s; a run replaces the whole folder, so it leaves this one alone", e.Folder, e.Why)
	if e.Other != "" {
		msg += fmt.Sprintf(" (move it away, or write elsewhere with -o %s)", e.Other)
	}
	return msg
}

// CheckReplace reports, as a *RefusedError, why a run must not replace dir/<name>/.
// inputs are the run's experiment files, by path.
// A command calls it before its work; Lock checks again under the lock.
// It reads the folder under the shared lock, between two writes.
// It waits while a write holds the lock; ctx ends the wait.
func CheckReplace(ctx context.Context, dir, name string, inputs []string) error {
	if fi, err := os.Lstat(LockPath(dir, name)); err == nil && !fi.Mode().IsRegular() {
		return checkReplace(dir, name, inputs) // refuses the lock file, unopened
	}
	return readLocked(ctx, dir, name, func() error { return checkReplace(dir, name, inputs) })
}

// checkReplace is CheckReplace for a caller that holds the folder's lock.
// A folder may be replaced when it is absent or empty, holds only shards/,
// or holds a set of ckptlab's and nothing else.
// It is refused when it is a symbolic link or no folder, holds other files,
// or holds one of the inputs.
// The lock file beside it, dir/.<name>.lock, must be a regular file or absent.
func checkReplace(dir, name string, inputs []string) error {
	folder := filepath.Join(dir, name)
	refuse := func(format string, args ...any) error {
		return &RefusedError{Folder: folder, Why: fmt.Sprintf(format, args...), Other: otherOut(dir, name, inputs)}
	}
	if fi, err := os.Lstat(LockPath(dir, name)); err == nil && !fi.Mode().IsRegular() {
		return refuse("has beside it %s, a %s where ckptlab keeps the folder's lock file", LockPath(dir, name), safefile.Kind(fi.Mode()))
	}
	fi, err := os.Lstat(folder)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return refuse("is a symbolic link")
	case !fi.IsDir():
		return refuse("is a %s, not a folder of results", safefile.Kind(fi.Mode()))
	}
	if in := inputWithin(folder, inputs); in != "" {
		return refuse("holds %s, an input of this run", in)
	}
	foreign, err := foreignFiles(folder, name)
	if err != nil {
		return err
	}
	if len(foreign) > 0 {
		return refuse("holds %s, which no ckptlab run wrote", shownNames(foreign))
	}
	return nil
}

// foreignFiles returns the entries of folder that are not of the set it holds.
// shards/ and the marker are never foreign.
// Every other entry is when the folder holds no set that ckptlab wrote.
func foreignFiles(folder, name string) ([]string, error) {
	entries, err := listFolder(folder)
	if err != nil {
		return nil, err
	}
	var set []string
	if m, ok := readMarker(folder); ok {
		set = m.Files
	} else if hasExperimentHeader(folder) {
		set = allFiles(name)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		switch {
		case n == ShardsDir && e.IsDir(), n == MarkerFile:
		case slices.Contains(set, n) && e.Type().IsRegular():
		default:
			out = append(out, n)
		}
	}
	return out, nil
}

// listFolder is os.ReadDir; tests replace it to interleave a write with a read.
var listFolder = os.ReadDir

// inputWithin returns the first of inputs that lies within folder, by their real paths, or "".
// The folder's experiment.yaml is no such input.
// A run of it (results.RerunCommand) read it whole before it replaces the set, and writes it again.
// foreignFiles refuses it when no run wrote it.
func inputWithin(folder string, inputs []string) string {
	real, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return ""
	}
	real, _ = filepath.Abs(real)
	own := filepath.Join(real, results.ExperimentFile)
	for _, in := range inputs {
		p, err := filepath.EvalSymlinks(in)
		if err != nil {
			continue
		}
		p, _ = filepath.Abs(p)
		if p == own {
			continue
		}
		if rel, err := filepath.Rel(real, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return in
		}
	}
	return ""
}

// otherOut returns an -o under which the run's folder would be free, or "".
func otherOut(dir, name string, inputs []string) string {
	var candidates []string
	if filepath.Clean(dir) != "out" {
		candidates = append(candidates, "out")
	}
	for i := range 9 {
		c := filepath.Join(dir, "ckptlab-out")
		if i > 0 {
			c += fmt.Sprint(i + 1)
		}
		candidates = append(candidates, c)
	}
	for _, c := range candidates {
		if checkFree(c, name, inputs) {
			return c
		}
	}
	return ""
}

// checkFree reports whether a run may write dir/<name>/.
func checkFree(dir, name string, inputs []string) bool {
	folder := filepath.Join(dir, name)
	fi, err := os.Lstat(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil || !fi.IsDir() {
		return false
	}
	foreign, err := foreignFiles(folder, name)
	return err == nil && len(foreign) == 0 && inputWithin(folder, inputs) == ""
}

// shownNames writes names for a message: a few, then how many more.
func shownNames(names []string) string {
	const shown = 3
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}
