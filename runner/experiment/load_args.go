package experiment

import (
	"errors"
	"path/filepath"
	"strings"
)

// Bases says what LoadArgs does with a base, a file without name.
type Bases int

const (
	// RunBases is for the commands that run experiments (run, plan, merge,
	// diff): a base named on the command line is an error, "is a base: it
	// has no name"; a base in a folder is skipped.
	RunBases Bases = iota
	// CheckBases is for validate: a base is checked as any file is, name
	// aside.
	CheckBases
)

// Batch is what LoadArgs read.
type Batch struct {
	// Experiments are the experiments, in the order of the command line,
	// a folder's files in lexical order.
	Experiments []*Experiment
	// Bases are the paths of the bases among the files: checked under
	// CheckBases, skipped under RunBases (the command says so).
	Bases []string
}

// LoadArgs loads the files a command line names, each with the same
// overrides, reading them and their bases from files. A folder stands for
// every *.yaml and *.yml file directly in it, in lexical order. "-" reads
// standard input, once. When any file has an error, LoadArgs returns an
// ErrorList of every error of every file, file by file, and no
// experiment. Two experiments of one name would write to the same folder;
// that is an error too.
func LoadArgs(files Files, args []string, o Overrides, bases Bases) (Batch, error) {
	var batch Batch
	var all ErrorList
	said := map[string]bool{} // override errors, which every file repeats
	names := map[string]string{}
	stdin := 0
	var given []givenFile
	for _, arg := range args {
		paths, inFolder, err := expandArg(files, arg)
		if err != nil {
			all = append(all, err)
			continue
		}
		for _, path := range paths {
			if path == stdinPath {
				if stdin++; stdin > 1 {
					all = append(all, &Error{File: stdinName, Msg: "- is given twice (want standard input once)"})
					continue
				}
			}
			if first, twice := sameFile(&given, path); twice {
				msg := "given twice on the command line (want each file once)"
				if first != path {
					msg = "the file " + first + " is, given twice on the command line (want each file once)"
				}
				all = append(all, &Error{File: path, Msg: msg})
				continue
			}
			e, err := loadFrom(files, path, o)
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
			if e.Name == "" {
				if bases == RunBases && !inFolder {
					all = append(all, baseError(e.File)...)
				} else {
					batch.Bases = append(batch.Bases, e.File)
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
		if bases == RunBases && inFolder && len(all) == 0 && len(batch.Experiments) == 0 && len(paths) > 0 {
			all = append(all, &Error{File: arg, Msg: "holds only bases, files without name (want a folder with an experiment in it)"})
		}
	}
	if len(all) > 0 {
		return Batch{}, all
	}
	return batch, nil
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
