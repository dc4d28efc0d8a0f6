package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxExtendsDepth is the longest chain of bases an experiment may have: a
// file, its base, that base's base, and so on, 16 beyond the file.
const maxExtendsDepth = 16

// maxChainFiles caps the files one experiment reads through extends,
// counting a base each time a chain reaches it: sixteen levels of bases
// that each extend two others would otherwise read 2^16 files.
const maxChainFiles = 256

// extendsKey is the key that names an experiment file's bases. It is read
// before the layers are merged and is no value of the resolved experiment.
const extendsKey = "extends"

// emptyFile refuses a file that sets no key: as a base it changes
// nothing, and as an experiment it has no name.
const emptyFile = "is empty: it sets no key (want key: value lines, and name: to run it as an experiment)"

// link is one file of a chain of bases: its path, and how the chain
// reached it.
type link struct {
	path  string
	via   string // "in FILE:L:C: extends; in ..." for a base, "" for the file itself
	depth int    // 0 for the file the command line names
}

// readFile reads the layer of one file and, before it, the layers of its
// bases, depth-first in the order extends lists them: koanf merges each
// layer over the ones before it, so the bases come first, then the file.
// The layer holds every key the file sets but extends, read as the file's
// own (its place names the file, so errors about its values point into
// it), and a base may not set name.
func (l *loader) readFile(at link, data []byte, stack []string) {
	if _, seen := l.order[at.path]; !seen {
		l.order[at.path] = len(l.order)
	}
	fp := place{File: at.path, Lines: true, Via: at.via}
	root, errs := parseDocument(data, fp)
	l.errs = append(l.errs, errs...)
	top := at.depth == 0
	if top {
		l.root = root
		if len(errs) > 0 {
			l.noTop = true
		}
	}
	if len(errs) == 0 && (root == nil || root.Kind == yaml.MappingNode && len(root.Content) == 0) {
		l.errs = append(l.errs, fp.errorAt(root, "", "%s", emptyFile))
		l.empty = l.empty || top
	}
	if top {
		l.bytes, l.values = len(data), valueMarksIn(data)
	}
	if root == nil {
		return
	}
	if !hasKnownKey(root) {
		// Its keys may be lines of any file (a link to /etc/shadow): none
		// is quoted.
		l.errs = append(l.errs, fp.errorAt(root.Content[0], "",
			"is not an experiment file: none of its keys is a key of one, so none of its lines is shown (want key: value lines such as name: lesson)"))
		if top {
			l.noTop = true
		}
		return
	}
	l.errs = append(l.errs, checkNode(root, "", fp)...)
	if root.Kind != yaml.MappingNode {
		l.errs = append(l.errs, fp.errorAt(root, "",
			"the top level is %s, not a mapping (want key: value lines)", kindName(root)))
		if top {
			l.noTop = true
		}
		return
	}
	layer := map[string]any{}
	firsts := map[string]*yaml.Node{}
	var extends *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		kp := place{File: at.path, Name: shown(k), Lines: true, Via: at.via}
		errs := append(checkNode(k, "", fp), checkPlain(v, "", kp)...)
		if len(errs) == 0 {
			if g := gluedError(v, kp); g != nil {
				errs = append(errs, g)
			}
		}
		l.errs = append(l.errs, errs...)
		if len(errs) > 0 {
			v = nil // never read a value that may hold an alias
		}
		if k.Kind == yaml.AliasNode || k.ShortTag() == "!!merge" {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			l.errs = append(l.errs, fp.errorAt(k, "", "%s is not a key (want a key name)", kindName(k)))
			continue
		}
		d := keyNamed(k.Value)
		if d == nil {
			l.errs = append(l.errs, fp.errorAt(k, shown(k), "unknown key (%s)", suggestKey(k.Value)))
			continue
		}
		if first := firsts[d.Name]; first != nil {
			l.errs = append(l.errs, fp.errorAt(k, d.Name, "duplicate key (want it once; first at line %d)", first.Line))
			continue
		}
		firsts[d.Name] = k
		switch {
		case d.Name == extendsKey:
			extends = v
		case d.Name == "name" && !top:
			l.errs = append(l.errs, fp.errorAt(k, d.Name,
				"a base may not set name: only the file given on the command line names an experiment, and two experiments would share a folder (want name in the files that extend it)"))
		default:
			layer[d.Name] = l.newSetting(d.Name, kp, v).ID
		}
	}
	if extends != nil {
		l.readBases(at, extends, append(stack, at.path))
	}
	l.layers = append(l.layers, layer)
	l.load(layer)
}

// hasKnownKey reports whether n, the top level of a file, is anything but
// a mapping whose keys are all plain words that no experiment file has.
func hasKnownKey(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return true
	}
	for i := 0; i < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" || keyNamed(k.Value) != nil {
			return true
		}
	}
	return false
}

// valueMarksIn counts the value marks of data (see maxValues).
func valueMarksIn(data []byte) int {
	n := 0
	for _, m := range []byte(valueMarks) {
		n += bytes.Count(data, []byte{m})
	}
	return n
}

// readBase reads the base at path, inside the root of the experiment
// unless the files allow any place.
func (l *loader) readBase(path string) ([]byte, error) {
	if d, ok := l.files.(diskFiles); ok && !d.anywhere {
		if l.baseRoot == "" {
			root, err := RootOf(l.path)
			if err != nil {
				return nil, err
			}
			l.baseRoot = root
		}
		real, err := inRoot(l.baseRoot, path)
		if err != nil {
			return nil, err
		}
		path = real
	}
	return l.files.ReadFile(path)
}

// readBases reads each base that the extends value n of the file at names,
// in order. stack holds the files of the chain so far, the file at
// included, to find cycles.
func (l *loader) readBases(at link, n *yaml.Node, stack []string) {
	p := place{File: at.path, Name: extendsKey, Lines: true, Via: at.via}
	var items []valueAt
	switch n.Kind {
	case yaml.ScalarNode:
		items = []valueAt{{n, ""}}
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			l.errs = append(l.errs, p.errorAt(n, "", "empty list (want a base's path, or a list of them)"))
		}
		for i, c := range n.Content {
			items = append(items, valueAt{c, "[" + strconv.Itoa(i) + "]"})
		}
	default:
		l.errs = append(l.errs, p.errorAt(n, "", "%s is not a path (want a base's path relative to this file, or a list of them)", kindName(n)))
		return
	}
	for _, it := range items {
		if it.Node.Kind != yaml.ScalarNode || it.Node.ShortTag() != "!!str" || it.Node.Value == "" {
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix,
				"%s is not a path (want a base's path relative to this file, such as base/stream.yaml)", describeNode(it.Node)))
			continue
		}
		path := filepath.Join(baseDir(at.path), filepath.FromSlash(it.Node.Value))
		e := p.errorAt(it.Node, it.Suffix, "")
		next := link{path: path, depth: at.depth + 1,
			via: fmt.Sprintf("in %s:%d:%d: %s", at.path, e.Line, e.Col, e.Key)}
		if at.via != "" {
			next.via += "; " + at.via
		}
		switch {
		case slices.Contains(stack, path):
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix,
				"%s is a cycle: it extends itself through %s (want a chain of bases that ends)", it.Node.Value, chainText(stack, path)))
			continue
		case next.depth > maxExtendsDepth:
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix,
				"%s would be base %d of a chain, deeper than %d (want a shorter chain of bases)", it.Node.Value, next.depth, maxExtendsDepth))
			continue
		case l.reads >= maxChainFiles:
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix,
				"%s would be file %d that this experiment's bases read, more than %d (want fewer bases)", it.Node.Value, l.reads+1, maxChainFiles))
			continue
		}
		l.reads++
		if layers, seen := l.bases[path]; seen {
			// Read once: its layers again, in the place of this extends.
			for _, layer := range layers {
				l.layers = append(l.layers, layer)
				l.load(layer)
			}
			continue
		}
		data, err := l.readBase(path)
		var out *outsideError
		switch {
		case errors.As(err, &out):
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix, "base %s %v", path, err))
			continue
		case err != nil:
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix, "%s (want the path of an experiment file, relative to %s)",
				unreadBase(path, err), displayDir(at.path)))
			continue
		}
		l.bytes += len(data)
		l.values += valueMarksIn(data)
		switch {
		case l.bytes > MaxFileBytes:
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix,
				"base %s takes this experiment and its bases past %d MiB, the most they may be together (want fewer or smaller bases)", path, MaxFileBytes>>20))
			continue
		case l.values > maxValues:
			l.errs = append(l.errs, p.errorAt(it.Node, it.Suffix,
				"base %s takes this experiment and its bases past %d value marks, the most they may have together (want fewer bases; give a long axis as a range)", path, maxValues))
			continue
		}
		start := len(l.layers)
		l.readFile(next, data, stack)
		if l.bases == nil {
			l.bases = map[string][]map[string]any{}
		}
		l.bases[path] = slices.Clone(l.layers[start:])
	}
}

// unreadBase says why the base at path could not be read.
func unreadBase(path string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "there is no file " + path
	case errors.Is(err, errOutsideRoot):
		return path + " " + err.Error()
	}
	// the error of checkRegular or of reading, which wants a file of its own
	msg, _, _ := strings.Cut(err.Error(), " (want")
	if strings.HasPrefix(msg, "cannot ") {
		return path + ": " + msg
	}
	return path + " " + msg
}

// baseDir is the folder the bases of the file at path are relative to.
func baseDir(path string) string {
	if path == stdinName {
		return "."
	}
	return filepath.Dir(path)
}

// displayDir names that folder in a message.
func displayDir(path string) string {
	if path == stdinName {
		return "the current folder"
	}
	return "the folder of " + path
}

// chainText writes the files of a cycle: a.yaml → b.yaml → a.yaml.
func chainText(stack []string, again string) string {
	i := slices.Index(stack, again)
	out := ""
	for _, s := range stack[i:] {
		out += s + " → "
	}
	return out + again
}

// describeNode names a value that is not a path, for a message.
func describeNode(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return shown(n)
	}
	return kindName(n)
}

// baseOrigin is the origin of a value that came from the base at path, as
// plan and experiment.yaml mark it: "from base/stream.yaml", relative to
// the folder of the file the command line names.
func (l *loader) baseOrigin(path string) string {
	rel, err := filepath.Rel(baseDir(l.path), path)
	if err != nil {
		rel = path
	}
	return "from " + filepath.ToSlash(rel)
}
