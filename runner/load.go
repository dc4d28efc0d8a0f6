package runner

import (
	"errors"
	"io/fs"
	"os"

	"gopkg.in/yaml.v3"
)

// Load reads the experiment file at path, applies the overrides, checks
// every value and returns the resolved experiment. Keys the file and the
// overrides leave out take the lesson's values (see Lesson).
//
// The error, when there is one, is an ErrorList holding every error of the
// file and of the overrides, sorted by position.
func Load(path string, o Overrides) (*Experiment, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, ErrorList{{File: path, Msg: "cannot read the file: " + err.Error()}}
	}
	return LoadBytes(path, data, o)
}

// LoadBytes is Load for the contents of a file already read; path names
// the file in the experiment and in errors.
func LoadBytes(path string, data []byte, o Overrides) (*Experiment, error) {
	l := newLoader(path)
	l.readFile(data)
	l.readEnv(o.Env)
	l.readSets(o.Sets)
	e := l.resolve()
	sortErrors(l.errs)
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	return e, nil
}

// LoadAll loads every file with the same overrides. It returns the
// experiments in the order of paths, or, when any file has an error, no
// experiment and an ErrorList of every error of every file, file by file.
// Two experiments of one name would write to the same folder; that is an
// error too.
func LoadAll(paths []string, o Overrides) ([]*Experiment, error) {
	var all ErrorList
	said := map[string]bool{} // override errors, which every file repeats
	names := map[string]string{}
	out := make([]*Experiment, 0, len(paths))
	for _, path := range paths {
		e, err := Load(path, o)
		var list ErrorList
		if errors.As(err, &list) {
			for _, x := range list {
				if x.File == OriginSet || x.File == OriginEnv {
					if said[x.Error()] {
						continue
					}
					said[x.Error()] = true
				}
				all = append(all, x)
			}
			continue
		}
		if first, ok := names[e.Name]; ok {
			all = append(all, &Error{File: path, Key: "name",
				Msg: e.Name + " is also the name of " + first + " (want one experiment per name, each writes OUT/<name>)"})
			continue
		}
		names[e.Name] = path
		out = append(out, e)
	}
	if len(all) > 0 {
		return nil, all
	}
	return out, nil
}

// readFile reads the file's layer: the top-level mapping, key by key.
func (l *loader) readFile(data []byte) {
	fp := place{File: l.path, Lines: true}
	root, errs := parseDocument(data, fp)
	l.errs = append(l.errs, errs...)
	l.root = root
	if len(errs) > 0 {
		l.noTop = true
	}
	if root == nil {
		return
	}
	l.errs = append(l.errs, checkNode(root, "", fp)...)
	if root.Kind != yaml.MappingNode {
		l.errs = append(l.errs, fp.errorAt(root, "",
			"the top level is %s, not a mapping (want key: value lines)", kindName(root)))
		l.noTop = true
		return
	}
	layer := map[string]any{}
	firsts := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		kp := place{File: l.path, Name: shown(k), Lines: true}
		errs := append(checkNode(k, "", fp), checkPlain(v, "", kp)...)
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
		layer[d.Name] = l.newSetting(d.Name, kp, v).ID
	}
	l.load(layer)
}
