package folder

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"ckptlab/internal/safefile"
	"ckptlab/results"
)

// MarkerFile is the marker of a set in its folder.
// It lists the files of the set, the hash of its resolved experiment and
// the version that wrote it.
const MarkerFile = ".ckptlab-set"

// markerMagic is the first line of a marker file, with its format version.
const markerMagic = "ckptlab set 1"

// maxMarker bounds what is read of a marker or of the head of an experiment.yaml.
// A set lists a few files.
const maxMarker = 64 << 10

// marker is the content of a set's marker file.
type marker struct {
	Tool  string
	Hash  string
	Files []string // in the order written
}

// writeTo writes m in the marker's format.
func (m marker) writeTo(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\ntool: %s\nhash: %s\n", markerMagic, m.Tool, m.Hash)
	for _, f := range m.Files {
		fmt.Fprintf(bw, "file: %s\n", f)
	}
	return bw.Flush()
}

// readMarker reads the marker of folder.
// ok is false when it has none that ckptlab could have written.
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
	f, _, err := safefile.Open(filepath.Join(folder, results.ExperimentFile))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(results.ExperimentHeader))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == results.ExperimentHeader
}

// allFiles is the canonical order of the files of a set of name.
// That is the order of results.FilesOf over every format, the time model's tables included.
func allFiles(name string) []string {
	return results.FilesOf(name, results.Formats(), true)
}
