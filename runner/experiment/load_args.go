package experiment

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
)

// Bases says what LoadArgs does with a base, a file without name.
type Bases int

const (
	// RunBases is for the commands that run experiments (run, plan, merge,
	// diff): a base named on the command line is an error, "is a base: it
	// has no name"; a base in a folder that an experiment of the batch
	// extends is skipped.
	RunBases Bases = iota
	// CheckBases is for validate: a base named on the command line is
	// checked, key by key.
	CheckBases
)

// Batch is what LoadArgs read.
type Batch struct {
	// Experiments are the experiments, in the order of the command line,
	// a folder's files in lexical order.
	Experiments []*Experiment
	// Bases are the bases among the files: checked under CheckBases,
	// skipped under RunBases (the command says so).
	Bases []Base
}

// Base is a base among the files of a command line.
type Base struct {
	Path string
	// ExtendedBy lists the experiments of the batch that extend the base,
	// directly or through other bases, in the order of the batch.
	ExtendedBy []string
}

// argFile is one file of a command line, as the first pass of LoadArgs
// read it: an error found before loading it, or what loading it gave.
type argFile struct {
	path     string
	inFolder bool
	early    *Error // given twice, or - twice: not loaded
	e        *Experiment
	chain    chain
	err      error
}

// noNameHere is the error of a base in a folder that no experiment of the
// run extends: most likely an experiment whose name was forgotten, which
// a run would otherwise skip without a word.
const noNameHere = "has no name, and no experiment here extends it: add `name:` to run it"

// LoadArgs loads the files a command line names, each with the same
// overrides, reading them and their bases from files. A folder stands for
// every *.yaml and *.yml file directly in it, in lexical order. "-" reads
// standard input, once. When any file has an error, LoadArgs returns an
// ErrorList of every error of every file, file by file, and no
// experiment. Two experiments of one name would write to the same folder;
// that is an error too. A base in a folder must be extended by an
// experiment of the batch, and an empty file is an error.
func LoadArgs(files Files, args []string, o Overrides, bases Bases) (Batch, error) {
	var all ErrorList
	var got []argFile
	stdin := 0
	var given []givenFile
	for _, arg := range args {
		paths, inFolder, err := expandArg(files, arg)
		if err != nil {
			all = append(all, err)
			continue
		}
		for _, path := range paths {
			f := argFile{path: path, inFolder: inFolder}
			if path == stdinPath {
				if stdin++; stdin > 1 {
					f.early = &Error{File: stdinName, Msg: "- is given twice (want standard input once)"}
				}
			}
			if first, twice := sameFile(&given, path); twice && f.early == nil {
				msg := "given twice on the command line (want each file once)"
				if first != path {
					msg = "the file " + first + " is, given twice on the command line (want each file once)"
				}
				f.early = &Error{File: path, Msg: msg}
			}
			if f.early == nil {
				f.e, f.chain, f.err = loadFrom(files, path, o)
			}
			got = append(got, f)
		}
	}
	extendedBy, known := extenders(got)
	own := ownErrors(got)
	var batch Batch
	said := map[string]bool{} // override errors, which every file repeats
	names := map[string]string{}
	for _, f := range got {
		if f.early != nil {
			all = append(all, f.early)
			continue
		}
		file := f.path
		if file == stdinPath {
			file = stdinName
		}
		ext := extendedBy[pathKey(file)]
		if f.inFolder && f.chain.read && !f.chain.named && !f.chain.empty && len(ext) == 0 && known {
			all = append(all, &Error{File: file, Line: 1, Col: 1, Msg: noNameHere})
		}
		var list ErrorList
		if errors.As(f.err, &list) {
			for _, x := range list {
				if x.Via != "" && own[x.at()] {
					continue // said where the base stands, the same in every chain
				}
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
		e := f.e
		if e.Name == "" {
			switch {
			case bases == RunBases && !f.inFolder:
				all = append(all, baseError(e.File)...)
			case len(ext) > 0 || !f.inFolder:
				batch.Bases = append(batch.Bases, Base{Path: e.File, ExtendedBy: ext})
			}
			continue
		}
		if first, ok := names[e.Name]; ok {
			all = append(all, &Error{File: e.File, Key: "name",
				Msg: e.Name + " is also the name of " + first + " (want one experiment per name, each writes OUT/<name>)"})
			continue
		}
		names[e.Name] = e.File
		batch.Experiments = append(batch.Experiments, e)
	}
	if len(all) > 0 {
		return Batch{}, all
	}
	return batch, nil
}

// extenders returns, for each base the experiments of got read (by
// pathKey), the experiments that read it. known is false when a file's
// top level could not be read: it may extend any base.
func extenders(got []argFile) (by map[string][]string, known bool) {
	by = map[string][]string{}
	known = true
	for _, f := range got {
		if f.early != nil {
			continue
		}
		if !f.chain.read {
			known = false
		}
		if !f.chain.named {
			continue
		}
		file := f.path
		if file == stdinPath {
			file = stdinName
		}
		for _, b := range f.chain.bases {
			k := pathKey(b)
			if !slices.Contains(by[k], file) {
				by[k] = append(by[k], file)
			}
		}
	}
	return by, known
}

// ownErrors returns the errors of the files of got found where they
// stand, without a chain, by place and message.
func ownErrors(got []argFile) map[string]bool {
	own := map[string]bool{}
	for _, f := range got {
		var list ErrorList
		if errors.As(f.err, &list) {
			for _, x := range list {
				if x.Via == "" && x.Line > 0 {
					own[x.at()] = true
				}
			}
		}
	}
	return own
}

// pathKey names a file the same way whichever path names it: absolute and
// clean.
func pathKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// LoadAll loads the files a command line names for a command that runs
// them: LoadArgs from the disk, under RunBases.
func LoadAll(args []string, o Overrides) ([]*Experiment, error) {
	b, err := LoadArgs(Disk, args, o, RunBases)
	return b.Experiments, err
}

// IsExperimentFile reports whether a folder's file of this name is an
// experiment file: *.yaml or *.yml.
func IsExperimentFile(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// expandArg returns the files an argument names: itself, or for a folder
// its experiment files, and whether it was a folder.
func expandArg(files Files, arg string) ([]string, bool, *Error) {
	if arg == stdinPath || !files.IsDir(arg) {
		return []string{arg}, false, nil
	}
	names, err := files.ReadDir(arg)
	if err != nil {
		return nil, true, &Error{File: arg, Msg: err.Error()}
	}
	var paths []string
	for _, n := range names {
		if IsExperimentFile(n) {
			paths = append(paths, filepath.Join(arg, n))
		}
	}
	if len(paths) == 0 {
		return nil, true, &Error{File: arg, Msg: "is a folder without *.yaml or *.yml files (want a folder of experiment files, or a file)"}
	}
	return paths, true, nil
}
