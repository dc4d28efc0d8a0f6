package results

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// Set is everything a run writes for one experiment.
type Set struct {
	// Name names the output folder and the workbook; the loader has
	// checked that it cannot leave the output folder.
	Name     string
	Grid     Table
	Failures Table
	Views    []View
	// Config is the resolved configuration, key and value in YAML flow
	// syntax, in the order of the experiment-file schema.
	Config  [][2]string
	Version string
}

// Formats a run can write.
const (
	FormatCSV  = "csv"
	FormatXLSX = "xlsx"
	FormatMD   = "md"
)

// Files returns the names of the files a set written in the given formats
// consists of, in the order they are written.
func Files(name string, formats []string) []string {
	var out []string
	for _, f := range formats {
		switch f {
		case FormatCSV:
			out = append(out, "grid.csv", "failures.csv")
		case FormatXLSX:
			out = append(out, name+".xlsx")
		case FormatMD:
			out = append(out, name+".md")
		}
	}
	return out
}

// Write writes the set in the given formats into dir/<name>/, each file
// atomically.
func (s Set) Write(dir string, formats []string) error {
	folder := filepath.Join(dir, s.Name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return err
	}
	for _, f := range formats {
		var err error
		switch f {
		case FormatCSV:
			err = s.writeCSV(folder)
		default:
			err = fmt.Errorf("format %q is not supported", f)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s Set) writeCSV(folder string) error {
	for _, t := range []Table{s.Grid, s.Failures} {
		path := filepath.Join(folder, t.Name+".csv")
		if err := WriteFile(path, func(w *bufio.Writer) error { return WriteCSV(w, t) }); err != nil {
			return err
		}
	}
	return nil
}
