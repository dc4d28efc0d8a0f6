// Package gitrev reads the tree of a git revision as an io/fs.FS, with the
// git command. Through it ckptlab diff reads an experiment file and its
// bases at a revision, as the loader reads them from the disk. It reads
// only the folders and files asked for. It runs one git cat-file --batch
// process per tree.
package gitrev

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxBlob is the most bytes of a blob a Tree keeps.
// A read of a longer blob gives these bytes, then an error.
// MaxTree is the most bytes of entries a folder may list.
const (
	MaxBlob = 16 << 20
	MaxTree = 64 << 20
)

// Tree is the tree of one revision of a repository.
// Its names are paths relative to the repository's root, with slashes.
// Close ends its git process.
type Tree struct {
	// Root is the repository's root folder on the disk.
	Root string
	// Rev is the revision as given; Commit the commit it names.
	Rev, Commit string

	mu      sync.Mutex
	folders map[string]map[string]entry // the folders listed so far, by name
	batch   *batch                      // started on the first read
}

type entry struct {
	object string // the object's id
	mode   fs.FileMode
}

// Open finds the repository that holds the folder dir and checks that rev
// names a commit in it. An unknown revision, or a folder outside any
// repository, is an error that says so.
func Open(dir, rev string) (*Tree, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\n\x00") {
		return nil, fmt.Errorf("%q is not a revision (want a branch, tag or commit, such as origin/main)", rev)
	}
	root, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("the current folder is in no git repository (want to run it inside a clone): %v", err)
	}
	t := &Tree{Root: strings.TrimSpace(string(root)), Rev: rev, folders: map[string]map[string]entry{}}
	commit, err := git(t.Root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%s is not a revision of the repository at %s (want a branch, tag or commit; in CI, fetch it first, such as git fetch origin main)", rev, t.Root)
	}
	t.Commit = strings.TrimSpace(string(commit))
	return t, nil
}

// Close ends the tree's git process, if it started one.
func (t *Tree) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.batch == nil {
		return nil
	}
	err := t.batch.close()
	t.batch = nil
	return err
}

// command returns git with args, to run in dir.
// It asks for no credentials and fetches no missing objects, whatever the
// repository's configuration says.
func command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1")
	return cmd
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) ([]byte, error) {
	cmd := command(dir, args...)
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
	t.mu.Lock()
	defer t.mu.Unlock()
	e, err := t.lookup(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	info := fileInfo{name: path.Base(name), mode: e.mode}
	if !e.mode.IsRegular() {
		return &file{info: info}, nil
	}
	data, size, err := t.object(e.object, "blob", MaxBlob)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	info.size = size
	f := &file{info: info, r: bytes.NewReader(data)}
	if size > int64(len(data)) {
		f.tail = fmt.Errorf("is %d bytes, more than the %d a blob is read for", size, MaxBlob)
	}
	return f, nil
}

// ReadDir lists the folder name of the tree, in lexical order.
func (t *Tree) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	list, err := t.folder(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	out := make([]fs.DirEntry, 0, len(list))
	for n, e := range list {
		out = append(out, fs.FileInfoToDirEntry(fileInfo{name: n, mode: e.mode}))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// lookup returns the entry of name, "." being the root folder.
func (t *Tree) lookup(name string) (entry, error) {
	if name == "." {
		return entry{mode: fs.ModeDir}, nil
	}
	list, err := t.folder(path.Dir(name))
	if err != nil {
		return entry{}, err
	}
	e, ok := list[path.Base(name)]
	if !ok {
		return entry{}, fs.ErrNotExist
	}
	return e, nil
}

// folder returns the entries of the folder name, read once.
func (t *Tree) folder(name string) (map[string]entry, error) {
	if list, ok := t.folders[name]; ok {
		return list, nil
	}
	object := t.Commit + "^{tree}"
	if name != "." {
		e, err := t.lookup(name)
		if err != nil {
			return nil, err
		}
		if !e.mode.IsDir() {
			return nil, fs.ErrNotExist // a path through a file
		}
		object = e.object
	}
	data, size, err := t.object(object, "tree", MaxTree)
	if err != nil {
		return nil, err
	}
	if size > int64(len(data)) {
		return nil, fmt.Errorf("lists more than %d bytes of entries", MaxTree)
	}
	list, err := parseTree(data, len(t.Commit)/2) // 20 bytes for SHA-1, 32 for SHA-256
	if err != nil {
		return nil, err
	}
	t.folders[name] = list
	return list, nil
}

// parseTree reads the entries of a tree object.
// Each is <mode> SP <name> NUL <object id of idLen raw bytes>.
// Submodules and the like are left out.
func parseTree(data []byte, idLen int) (map[string]entry, error) {
	list := map[string]entry{}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp {
			return nil, errors.New("a tree object git cannot have written")
		}
		mode, name := string(data[:sp]), string(data[sp+1:nul])
		data = data[nul+1:]
		if len(data) < idLen {
			return nil, errors.New("a tree object git cannot have written")
		}
		id := hex.EncodeToString(data[:idLen])
		data = data[idLen:]
		switch mode {
		case "40000":
			list[name] = entry{object: id, mode: fs.ModeDir}
		case "100644", "100755":
			list[name] = entry{object: id, mode: 0o644}
		case "120000":
			list[name] = entry{object: id, mode: fs.ModeSymlink} // a link is not followed: not a regular file
		}
	}
	return list, nil
}

// object reads an object of the given type through the batch process.
// It returns the object's first limit bytes and its size.
func (t *Tree) object(name, typ string, limit int64) ([]byte, int64, error) {
	if t.batch == nil {
		b, err := startBatch(t.Root)
		if err != nil {
			return nil, 0, err
		}
		t.batch = b
	}
	return t.batch.read(name, typ, limit)
}

// batch is a running git cat-file --batch.
type batch struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	broken error
	done   bool
}

func startBatch(dir string) (*batch, error) {
	b := &batch{cmd: command(dir, "cat-file", "--batch")}
	b.cmd.Stderr = &b.stderr
	in, err := b.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := b.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run git: %v", err)
	}
	b.in, b.out = in, bufio.NewReader(out)
	return b, nil
}

// read asks for one object.
// The answer is "<id> <type> <size>" LF <contents> LF, or "<name> missing" LF.
func (b *batch) read(name, typ string, limit int64) ([]byte, int64, error) {
	if b.broken != nil {
		return nil, 0, b.broken
	}
	if _, err := io.WriteString(b.in, name+"\n"); err != nil {
		return nil, 0, b.fail(err)
	}
	line, err := b.out.ReadString('\n')
	if err != nil {
		return nil, 0, b.fail(err)
	}
	f := strings.Fields(line)
	if len(f) == 2 && f[1] == "missing" {
		return nil, 0, fs.ErrNotExist
	}
	if len(f) != 3 {
		return nil, 0, b.fail(fmt.Errorf("git cat-file said %q", strings.TrimSpace(line)))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return nil, 0, b.fail(fmt.Errorf("git cat-file said %q", strings.TrimSpace(line)))
	}
	keep := min(size, limit)
	data := make([]byte, keep)
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, 0, b.fail(err)
	}
	if _, err := b.out.Discard(int(size - keep + 1)); err != nil { // the rest, and the LF
		return nil, 0, b.fail(err)
	}
	if f[1] != typ {
		return nil, 0, fmt.Errorf("is a %s, not a %s", f[1], typ)
	}
	return data, size, nil
}

// fail ends the process and marks it broken.
// Every later read gives the error, git's own message if it said one.
func (b *batch) fail(err error) error {
	b.close()
	if msg := strings.TrimSpace(b.stderr.String()); msg != "" {
		err = errors.New(msg)
	}
	b.broken = fmt.Errorf("git cat-file: %v", err)
	return b.broken
}

// close ends the process, once.
func (b *batch) close() error {
	if b.done {
		return nil
	}
	b.done = true
	b.in.Close()
	_, _ = io.Copy(io.Discard, b.out)
	return b.cmd.Wait()
}

// file is an open file of the tree.
type file struct {
	info fileInfo
	r    *bytes.Reader // nil for a folder or a link
	tail error         // the error after the bytes kept, for a long blob
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }
func (f *file) Read(p []byte) (int, error) {
	if f.r == nil {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: errors.New("is not a regular file")}
	}
	n, err := f.r.Read(p)
	if err == io.EOF && f.tail != nil {
		return n, f.tail
	}
	return n, err
}

type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return i.size }
func (i fileInfo) Mode() fs.FileMode  { return i.mode }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.mode.IsDir() }
func (i fileInfo) Sys() any           { return nil }
