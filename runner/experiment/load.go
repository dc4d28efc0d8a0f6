package experiment

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"ckptlab/internal/safefile"
	"ckptlab/internal/words"
)

// MaxFileBytes is the largest experiment file Load reads, 4 MiB: a
// hand-written file is a few hundred bytes, and a long axis is a range, not
// a list. The limit keeps a wrong path (/dev/zero, a log file) from filling
// the memory.
const MaxFileBytes = 4 << 20

// stdinPath is the path that names standard input: Load("-") reads the
// experiment from stdinReader.
const stdinPath = "-"

// stdinName is the name errors give standard input, read for the path "-".
const stdinName = "<stdin>"

// stdinReader is what Load reads for stdinPath. Tests replace it.
var stdinReader io.Reader = os.Stdin

// Load reads the experiment file at path, applies the overrides, checks
// every value and returns the resolved experiment. Keys the file and the
// overrides leave out take the lesson's values (see Lesson). path "-" reads
// standard input. Only a regular file or standard input is read, and at
// most MaxFileBytes of it: a folder, a device or a FIFO is an error, found
// before it is opened, so a FIFO with no writer does not block.
//
// The error, when there is one, is an ErrorList holding every error of the
// file and of the overrides, sorted by position.
//
// A file without name is a base, which other files extend: Load refuses
// it (see LoadArgs, which checks bases). The bases a file extends are read
// from the disk.
func Load(path string, o Overrides) (*Experiment, error) {
	return LoadFrom(Disk, path, o)
}

// LoadFrom is Load for a file and bases read from files, such as a git
// revision (see FS).
func LoadFrom(files Files, path string, o Overrides) (*Experiment, error) {
	e, _, err := loadFrom(files, path, o)
	if err != nil {
		return nil, err
	}
	if e.Name == "" {
		return nil, baseError(e.File)
	}
	return e, nil
}

// chain is what loading a file found out about its bases, with or
// without errors.
type chain struct {
	read  bool     // the file's top level was read: bases lists every base
	named bool     // the file, or an override, sets name
	empty bool     // the file sets no key, an error of its own
	bases []string // the paths of the bases read through extends, in order
}

// loadFrom reads the file at path from files and loads it; a base loads
// as an experiment without a name.
func loadFrom(files Files, path string, o Overrides) (*Experiment, chain, error) {
	name := path
	var data []byte
	var err error
	if path == stdinPath {
		name = stdinName
		data, err = readLimited(stdinReader, "standard input")
	} else {
		data, err = files.ReadFile(path)
	}
	if err != nil {
		msg := err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg += setHint(path)
		}
		return nil, chain{}, ErrorList{{File: name, Msg: msg}}
	}
	return loadBytes(files, name, data, o)
}

// baseError refuses to run the base at path.
func baseError(path string) ErrorList {
	return ErrorList{{File: path, Line: 1, Col: 1,
		Msg: "is a base: it has no name (want a name: line in it to run it, or run a file that extends it)"}}
}

// identifier matches a word that could be meant as a key.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// setHint returns, for a missing file whose name reads as key=value with a
// key of the experiment file, a hint that an override is written
// --set key=value; "" for any other name.
func setHint(path string) string {
	key, _, ok := strings.Cut(path, "=")
	if !ok || strings.ContainsAny(key, `/\`) {
		return ""
	}
	if d := keyNamed(key); d != nil {
		return " (to override " + d.Name + ", write --set " + path + ")"
	}
	if near := nearest(key, keyNames()); near != nil {
		return " (to override a key, write --set key=value; did you mean " +
			words.Or(words.Format(near, func(k string) string { return "--set " + k + "=…" })) + "?)"
	}
	if identifier.MatchString(key) {
		return " (to override a key, write --set key=value)"
	}
	return ""
}

// readInput reads an experiment file, or standard input for "-", within
// the limits Load documents (see package safefile).
func readInput(path string) ([]byte, error) {
	if path == stdinPath {
		return readLimited(stdinReader, "standard input")
	}
	data, err := safefile.ReadLinked(path, safefile.Limits{Bytes: MaxFileBytes})
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &nr) && nr.Kind == "folder":
		return nil, errors.New("is a folder, not an experiment file (want a YAML file, or - to read one from standard input)")
	case errors.As(err, &nr):
		return nil, fmt.Errorf("is not a regular file but a %s (want a YAML file, or - to read one from standard input)", nr.Kind)
	case errors.As(err, &tl):
		return nil, tooLarge("the file")
	case err != nil:
		return nil, fmt.Errorf("cannot read the file: %w", pathErr(err))
	}
	return data, nil
}

// checkRegular refuses anything but a regular file of at most
// MaxFileBytes.
func checkRegular(fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return errors.New("is a folder, not an experiment file (want a YAML file, or - to read one from standard input)")
	case !fi.Mode().IsRegular():
		return fmt.Errorf("is not a regular file but a %s (want a YAML file, or - to read one from standard input)", safefile.Kind(fi.Mode()))
	case fi.Size() > MaxFileBytes:
		return tooLarge("the file")
	}
	return nil
}

// readLimited reads r whole, failing once it passes MaxFileBytes.
func readLimited(r io.Reader, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, pathErr(err))
	}
	if len(data) > MaxFileBytes {
		return nil, tooLarge(what)
	}
	return data, nil
}

func tooLarge(what string) error {
	return fmt.Errorf("%s is larger than %d MiB, the most an experiment file may be (want a file of key: value lines; write a long axis as a range {from: A, to: B, step: S})",
		what, MaxFileBytes>>20)
}

// pathErr strips the path and operation from an error of the os package:
// the error it goes into names the file already.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// LoadBytes is Load for the contents of a file already read; path names
// the file in the experiment and in errors.
// Its bases are read from the disk; a base is refused, as by Load.
func LoadBytes(path string, data []byte, o Overrides) (*Experiment, error) {
	e, _, err := loadBytes(Disk, path, data, o)
	if err != nil {
		return nil, err
	}
	if e.Name == "" {
		return nil, baseError(path)
	}
	return e, nil
}

// loadBytes layers the file's bases, the file and the overrides and
// resolves the experiment; a base resolves to one without a name.
func loadBytes(files Files, path string, data []byte, o Overrides) (*Experiment, chain, error) {
	l := newLoader(path)
	l.files = files
	l.readFile(link{path: path}, data, nil)
	l.readEnv(o.Env)
	l.readSets(o.Sets)
	e := l.resolve()
	c := chain{read: !l.noTop, named: l.named, empty: l.empty}
	for p, i := range l.order {
		if i > 0 {
			c.bases = append(c.bases, p)
		}
	}
	slices.SortFunc(c.bases, func(a, b string) int { return l.order[a] - l.order[b] })
	sortErrors(l.errs, l.order)
	if len(l.errs) > 0 {
		return nil, c, l.errs
	}
	return e, c, nil
}

// givenFile is a file of the command line: its path and, where it could
// be read, what the file system says of it.
type givenFile struct {
	path string
	fi   fs.FileInfo
}

// sameFile reports whether path names a file given before (the same path
// cleaned, or the same file by another path or link), and returns the path
// it was first given as; otherwise it records path.
func sameFile(given *[]givenFile, path string) (first string, twice bool) {
	if path == stdinPath {
		return "", false
	}
	fi, _ := os.Stat(path)
	for _, g := range *given {
		if filepath.Clean(g.path) == filepath.Clean(path) || fi != nil && g.fi != nil && os.SameFile(fi, g.fi) {
			return g.path, true
		}
	}
	*given = append(*given, givenFile{path, fi})
	return "", false
}
