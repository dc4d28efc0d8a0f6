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
// waited on.
var Disk Files = diskFiles{}

type diskFiles struct{}

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
