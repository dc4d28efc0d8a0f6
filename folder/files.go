package folder

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"ckptlab/internal/atomicfs"
	"ckptlab/results"
	"ckptlab/results/workbook"
)

// writeFiles renders the set's files in the given formats into the folder stage.
// Each file is synced.
// The CSV tables and experiment.yaml are written at the same time.
// An error names the file by its path in final, the folder stage becomes.
func writeFiles(ctx context.Context, s results.Set, stage, final string, formats []string) error {
	files, err := setFiles(s, formats)
	if err != nil {
		return err
	}
	for i := 0; i < len(files); {
		j := i + 1
		for files[i].alongside && j < len(files) && files[j].alongside {
			j++
		}
		if f, err := writeStagedAlongside(ctx, stage, files[i:j]); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(final, f.name), err)
		}
		i = j
	}
	return nil
}

// writeStagedAlongside writes files of a set into the staging folder at
// the same time, one goroutine each, and returns the first of them, in the
// set's order, that failed, with its error. A failure stops the others.
func writeStagedAlongside(ctx context.Context, stage string, files []setFile) (setFile, error) {
	if len(files) == 1 {
		return files[0], writeStaged(ctx, stage, files[0])
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Go(func() {
			if errs[i] = writeStaged(ctx, stage, f); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	// A file stopped by another's failure reports the cancellation; name
	// the one that failed first on its own, in the set's order.
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return files[i], err
		}
	}
	for i, err := range errs {
		if err != nil {
			return files[i], err
		}
	}
	return setFile{}, nil
}

// writeStaged writes one file of a set into the staging folder and syncs
// it. The folder is removed as a whole on any error, the file with it.
func writeStaged(ctx context.Context, stage string, f setFile) error {
	file, err := os.OpenFile(filepath.Join(stage, f.name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer file.Close()
	bw := bufio.NewWriterSize(atomicfs.NewWriteback(file), 1<<16)
	if err := f.render(ctx, bw, stage); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := file.Sync(); err != nil {
		return err
	}
	return file.Close()
}

// setFile is one file of a set: its name in the set's folder and how to
// render it. render makes its scratch files, if any, in scratch ("" for the
// system's temporary folder).
type setFile struct {
	name   string
	render func(ctx context.Context, w io.Writer, scratch string) error
	// alongside marks a file that may be written at the same time as the
	// alongside files next to it: the CSV tables and experiment.yaml, which
	// read the evaluated result without changing it and hold nothing but a
	// buffer each. On two cores grid.csv and failures.csv then take the
	// time of the longer.
	alongside bool
}

// setFiles returns the files of the set in the given formats, in the order of
// results.Files.
func setFiles(s results.Set, formats []string) ([]setFile, error) {
	if err := results.CheckFormats(formats); err != nil {
		return nil, err
	}
	var out []setFile
	for _, f := range formats {
		switch f {
		case results.FormatCSV:
			tables := []results.Table{s.Grid, s.Failures}
			for _, t := range []results.Table{s.Decisions, s.Breakeven, s.Process, s.ProcessDecisions} {
				if t.Columns != nil { // a set made without decisions has none
					tables = append(tables, t)
				}
			}
			for _, t := range tables {
				out = append(out, setFile{name: t.Name + ".csv", alongside: true, render: func(ctx context.Context, w io.Writer, _ string) error {
					return results.WriteCSV(w, t.StopOn(ctx))
				}})
			}
		case results.FormatXLSX:
			out = append(out, setFile{name: s.Name + ".xlsx", render: func(ctx context.Context, w io.Writer, scratch string) error {
				return workbook.Write(ctx, w, s, scratch)
			}})
		case results.FormatMD:
			out = append(out, setFile{name: s.Name + ".md", render: func(ctx context.Context, w io.Writer, _ string) error {
				return results.WriteMarkdown(results.ContextWriter(ctx, w), s)
			}})
		case results.FormatJSON:
			out = append(out, setFile{name: s.Name + ".json", render: func(ctx context.Context, w io.Writer, _ string) error {
				return results.WriteJSONContext(ctx, w, s)
			}})
		}
	}
	if len(out) > 0 {
		out = append(out, setFile{name: results.ExperimentFile, alongside: true, render: func(_ context.Context, w io.Writer, _ string) error {
			return s.WriteExperiment(w)
		}})
	}
	return out, nil
}
