// Package gitrev reads the tree of a git revision as an io/fs.FS, with the
// git command: ckptlab diff reads an experiment file and its bases at a
// revision through it, as the loader reads them from the disk.
package gitrev

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Tree is the tree of one revision of a repository. Its names are paths
// relative to the repository's root, with slashes.
type Tree struct {
	// Root is the repository's root folder on the disk.
	Root string
	// Rev is the revision as given; Commit the commit it names.
	Rev, Commit string
	entries     map[string]entry // every blob and folder of the tree
}

type entry struct {
	object string // the blob's id, "" for a folder
	size   int64
	mode   fs.FileMode
}

// Open finds the repository that holds the folder dir and lists the tree
// of rev in it. An unknown revision, or a folder outside any repository,
// is an error that says so.
func Open(dir, rev string) (*Tree, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q is not a revision (want a branch, tag or commit, such as origin/main)", rev)
	}
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("the current folder is in no git repository (want to run it inside a clone): %v", err)
	}
	t := &Tree{Root: strings.TrimSpace(string(root)), Rev: rev, entries: map[string]entry{".": {mode: fs.ModeDir}}}
	commit, err := git(t.Root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%s is not a revision of the repository at %s (want a branch, tag or commit; in CI, fetch it first, such as git fetch origin main)", rev, t.Root)
	}
	t.Commit = strings.TrimSpace(string(commit))
	list, err := git(t.Root, "ls-tree", "-r", "-z", "-l", "--full-tree", t.Commit)
	if err != nil {
		return nil, fmt.Errorf("cannot list %s: %v", rev, err)
	}
	for rec := range bytes.SplitSeq(list, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// <mode> SP <type> SP <object> SP+ <size> TAB <path>
		meta, name, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" {
			continue // submodules and the like: no experiment file
		}
		size, _ := strconv.ParseInt(f[3], 10, 64)
		mode := fs.FileMode(0o644)
		if f[0] == "120000" {
			mode = fs.ModeSymlink // a link is not followed: not a regular file
		}
		t.entries[name] = entry{object: f[2], size: size, mode: mode}
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if _, seen := t.entries[d]; seen {
				break
			}
			t.entries[d] = entry{mode: fs.ModeDir}
		}
	}
	return t, nil
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out, nil
}

// Open opens the file or folder name of the tree.
func (t *Tree) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	e, ok := t.entries[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	info := fileInfo{name: path.Base(name), e: e}
	if e.mode.IsDir() || !e.mode.IsRegular() {
		return &file{info: info}, nil
	}
	return &file{info: info, read: func() ([]byte, error) { return blob(t.Root, e.object, e.size) }}, nil
}

// blob reads the blob object of the repository at root, of the size the
// tree lists, and never more: a blob that gives more is an error.
func blob(root, object string, size int64) ([]byte, error) {
	cmd := exec.Command("git", "cat-file", "blob", object)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(out, size+1))
	if err == nil && int64(len(data)) > size {
		err = fmt.Errorf("blob %s gives more than the %d bytes its tree lists", object, size)
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, err
	}
	if err := cmd.Wait(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return data, nil
}

// ReadDir lists the folder name of the tree, in lexical order.
func (t *Tree) ReadDir(name string) ([]fs.DirEntry, error) {
	e, ok := t.entries[name]
	if !ok || !e.mode.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for n, e := range t.entries {
		if n != "." && path.Dir(n) == name {
			out = append(out, fs.FileInfoToDirEntry(fileInfo{name: path.Base(n), e: e}))
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// file is an open file of the tree; its contents are read from git on the
// first Read.
type file struct {
	info fileInfo
	read func() ([]byte, error)
	r    *bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }
func (f *file) Read(p []byte) (int, error) {
	if f.read == nil {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: errors.New("is a folder")}
	}
	if f.r == nil {
		data, err := f.read()
		if err != nil {
			return 0, err
		}
		f.r = bytes.NewReader(data)
	}
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, io.EOF
	}
	return n, err
}

type fileInfo struct {
	name string
	e    entry
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.e.size }
func (i fileInfo) Mode() fs.FileMode  { return i.e.mode }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.e.mode.IsDir() }
func (i fileInfo) Sys() any           { return nil }
