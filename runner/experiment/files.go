package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Files is where the loader reads experiment files and their bases: the
// disk (Disk), or a tree such as a git revision (FS). Paths are the paths
// a command line names: relative to the current folder, or absolute. The
// loader does not care where the bytes come from, so a file at a git
// revision is read with its bases at that same revision.
type Files interface {
	// ReadFile returns the contents of the regular file at path, or an
	// error that says why not, without the path (the caller names it).
	// It reads at most MaxFileBytes.
	ReadFile(path string) ([]byte, error)
	// ReadDir returns the names of the entries of the folder at path that
	// are regular files, in lexical order.
	ReadDir(path string) ([]string, error)
	// IsDir reports whether path is a folder.
	IsDir(path string) bool
}

// Disk is the file system of the machine, read within the limits Load
// documents: only regular files, at most MaxFileBytes, and a FIFO is never
// waited on. The bases of an experiment read from Disk lie inside its
// root (see RootOf), links resolved.
var Disk Files = diskFiles{}

// DiskAnywhere is Disk with bases read wherever they lie: what
// --allow-outside-root asks for.
var DiskAnywhere Files = diskFiles{anywhere: true}

type diskFiles struct{ anywhere bool }

// DiskFiles returns Disk, or DiskAnywhere when anywhere.
func DiskFiles(anywhere bool) Files {
	if anywhere {
		return DiskAnywhere
	}
	return Disk
}

// RootOf returns the folder that the bases of the experiment file at path
// must lie in: the root of the git repository holding the file (the
// nearest folder above it with a .git), or, outside any repository, the
// file's own folder. For standard input the current folder stands for the
// file's.
func RootOf(path string) (string, error) {
	dir := "."
	if path != stdinPath && path != stdinName {
		dir = filepath.Dir(path)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return dir, nil
		}
		d = up
	}
}

// outsideError is the error of a base outside the root of its experiment.
type outsideError struct {
	root string
	link bool // the path is inside, the file its links lead to is not
}

func (e *outsideError) Error() string {
	const where = "where the bases of this experiment lie: the root of its repository, or its folder outside one (want a base inside it, or --allow-outside-root to read it)"
	if e.link {
		return fmt.Sprintf("is a link to a file outside %s, %s", e.root, where)
	}
	return fmt.Sprintf("is outside %s, %s", e.root, where)
}

// inRoot returns the path of the file the base at path is, its links
// resolved, or an *outsideError when the path or that file lies outside
// root.
func inRoot(root, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if !within(root, abs) {
		return "", &outsideError{root: root}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return path, nil // missing: the read says so
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	if !within(realRoot, real) {
		return "", &outsideError{root: root, link: true}
	}
	return real, nil
}

// within reports whether path lies in the folder root, both absolute and
// clean.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func (diskFiles) ReadFile(path string) ([]byte, error) { return readInput(path) }

func (diskFiles) IsDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func (diskFiles) ReadDir(path string) ([]string, error) {
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the folder: %w", pathErr(err))
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0 {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// FS returns the Files of fsys, a tree that stands for the folder root of
// the disk: a path is made absolute, then relative to root, and that name
// (with slashes) is read from fsys. A path outside root is refused, as
// io/fs refuses names that climb out of a tree.
func FS(fsys fs.FS, root string) Files {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return treeFiles{fsys: fsys, root: root}
}

type treeFiles struct {
	fsys fs.FS
	root string
}

// errOutsideRoot is the error of FS for a path outside its root.
var errOutsideRoot = errors.New("is outside the repository's root (want a path inside it)")

// name maps a path of the command line to a name in the tree.
func (t treeFiles) name(path string) (string, error) {
	abs := path
	if !filepath.IsAbs(path) {
		// The current folder with its links resolved, as the root is: git
		// names the root so.
		cwd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		if r, err := filepath.EvalSymlinks(cwd); err == nil {
			cwd = r
		}
		abs = filepath.Join(cwd, path)
	}
	rel, err := filepath.Rel(t.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", errOutsideRoot
	}
	name := filepath.ToSlash(rel)
	if !fs.ValidPath(name) {
		return "", errOutsideRoot
	}
	return name, nil
}

func (t treeFiles) ReadFile(path string) ([]byte, error) {
	name, err := t.name(path)
	if err != nil {
		return nil, err
	}
	f, err := t.fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read the file: %w", pathErr(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read the file: %w", pathErr(err))
	}
	if err := checkRegular(fi); err != nil {
		return nil, err
	}
	return readLimited(f, "the file")
}

func (t treeFiles) IsDir(path string) bool {
	name, err := t.name(path)
	if err != nil {
		return false
	}
	fi, err := fs.Stat(t.fsys, name)
	return err == nil && fi.IsDir()
}

func (t treeFiles) ReadDir(path string) ([]string, error) {
	name, err := t.name(path)
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(t.fsys, name)
	if err != nil {
		return nil, fmt.Errorf("cannot read the folder: %w", pathErr(err))
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}
