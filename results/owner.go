package results

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/internal/atomicfs"
	"ckptlab/internal/safefile"
)

// A run replaces OUT/<name>/ whole, so it must know the folder is its to
// replace: absent, empty, or holding a set ckptlab wrote and nothing else.
// Every set carries a marker file, .ckptlab-set, that says which files are
// the set's and of which experiment and version they are; a set written
// before the marker existed is known by the first line of its
// experiment.yaml. A folder of anything else (a source folder, the user's
// notes, the experiment file of the run itself) is refused before any work.

// MarkerFile is the marker of a set in its folder: the files of the set,
// the hash of its resolved experiment and the version that wrote it.
const MarkerFile = ".ckptlab-set"

// markerMagic is the first line of a marker file, with its format version.
const markerMagic = "ckptlab set 1"

// ExperimentHeader starts every experiment.yaml ckptlab writes.
const ExperimentHeader = "# The resolved experiment of the run that wrote this folder"

// maxMarker bounds what is read of a marker or of the head of an
// experiment.yaml: a set lists a few files.
const maxMarker = 64 << 10

// marker is the content of a set's marker file.
type marker struct {
	Tool  string
	Hash  string
	Files []string // in the order written
}

// writeMarker writes m in the marker's format.
func (m marker) writeTo(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\ntool: %s\nhash: %s\n", markerMagic, m.Tool, m.Hash)
	for _, f := range m.Files {
		fmt.Fprintf(bw, "file: %s\n", f)
	}
	return bw.Flush()
}

// readMarker reads the marker of folder; ok is false when it has none that
// ckptlab could have written.
func readMarker(folder string) (m marker, ok bool) {
	data, err := safefile.ReadFile(filepath.Join(folder, MarkerFile), maxMarker)
	if err != nil {
		return marker{}, false
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 3 || lines[0] != markerMagic {
		return marker{}, false
	}
	tool, ok1 := strings.CutPrefix(lines[1], "tool: ")
	hash, ok2 := strings.CutPrefix(lines[2], "hash: ")
	if !ok1 || !ok2 {
		return marker{}, false
	}
	m = marker{Tool: tool, Hash: hash}
	for _, l := range lines[3:] {
		f, ok := strings.CutPrefix(l, "file: ")
		if !ok || f == "" || f != filepath.Base(f) || f == "." || f == ".." {
			return marker{}, false
		}
		m.Files = append(m.Files, f)
	}
	return m, true
}

// hasExperimentHeader reports whether folder holds an experiment.yaml that
// ckptlab wrote, by its first line.
func hasExperimentHeader(folder string) bool {
	f, _, err := safefile.Open(filepath.Join(folder, ExperimentFile))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(ExperimentHeader))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == ExperimentHeader
}

// RefusedError is the error of a run that will not replace its output
// folder: the folder and why. It is bad input, found before any work.
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

// CheckFolder is CheckReplace for a caller that does not hold the folder's
// lock, such as a command before its work: it reads the folder under the
// shared lock (atomicfs.ReadLocked), between two writes, never during a
// swap, also when the folder's first write begins while it reads. It waits
// while a write holds the lock; ctx ends the wait.
func CheckFolder(ctx context.Context, dir, name string, inputs []string) error {
	if fi, err := os.Lstat(atomicfs.LockPath(dir, name)); err == nil && !fi.Mode().IsRegular() {
		return CheckReplace(dir, name, inputs) // refuses the lock file, unopened
	}
	return atomicfs.ReadLocked(ctx, dir, name, func() error { return CheckReplace(dir, name, inputs) })
}

// CheckReplace reports, as a *RefusedError, why a run must not replace
// dir/<name>/: it is a symbolic link or no folder, it holds files that
// are no set's ckptlab wrote, or it holds one of the inputs of the run
// (the experiment files, given by path). A folder that is absent, empty,
// holds only shards/, or holds a set of ckptlab's and nothing else may be
// replaced: CheckReplace returns nil. The lock file beside it,
// dir/.<name>.lock, must be a regular file or absent. The caller holds the
// folder's lock (atomicfs.LockFolder), or calls CheckFolder instead.
func CheckReplace(dir, name string, inputs []string) error {
	folder := filepath.Join(dir, name)
	refuse := func(format string, args ...any) error {
		return &RefusedError{Folder: folder, Why: fmt.Sprintf(format, args...), Other: otherOut(dir, name, inputs)}
	}
	if fi, err := os.Lstat(atomicfs.LockPath(dir, name)); err == nil && !fi.Mode().IsRegular() {
		return refuse("has beside it %s, a %s where ckptlab keeps the folder's lock file", atomicfs.LockPath(dir, name), safefile.Kind(fi.Mode()))
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

// foreignFiles returns the entries of folder that are not of the set it
// holds, shards/ and the marker aside: every entry but those when the
// folder holds no set that ckptlab wrote.
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
		case n == atomicfs.ShardsDir && e.IsDir(), n == MarkerFile:
		case slices.Contains(set, n) && e.Type().IsRegular():
		default:
			out = append(out, n)
		}
	}
	return out, nil
}

// listFolder is os.ReadDir; tests replace it to interleave a write with
// a check.
var listFolder = os.ReadDir

// inputWithin returns the first of inputs that lies within folder, by
// their real paths, or "". The folder's experiment.yaml is no such input:
// a run of it (RerunCommand) read it whole before it replaces the set,
// and writes it again; foreignFiles refuses it when no run wrote it.
func inputWithin(folder string, inputs []string) string {
	real, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return ""
	}
	real, _ = filepath.Abs(real)
	own := filepath.Join(real, ExperimentFile)
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
