package folder

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"ckptlab/internal/atomicfs"
	"ckptlab/results"
	"ckptlab/results/workbook"
)

// compareFiles renders the set in the given formats and compares each file with
// the one of its name in folder.
// It writes nothing there: a workbook is rendered to a scratch folder
// outside, text files are compared as they are rendered.
// It returns a Difference per file that differs or is missing, in the order of Files.
// Check holds the folder's lock meanwhile and lists the files no set has.
func compareFiles(ctx context.Context, folder string, s results.Set, formats []string) ([]results.Difference, error) {
	files, err := setFiles(s, formats)
	if err != nil {
		return nil, err
	}
	var diffs []results.Difference
	for _, f := range files {
		path := filepath.Join(folder, f.name)
		var d *results.Difference
		var err error
		if strings.HasSuffix(f.name, ".xlsx") {
			d, err = checkBinary(ctx, path, f.render)
		} else {
			d, err = checkText(ctx, path, f.render)
		}
		if err != nil {
			return nil, fmt.Errorf("checking %s: %w", path, err)
		}
		if d != nil {
			d.File = path
			diffs = append(diffs, *d)
		}
	}
	return diffs, nil
}

// checkBinary renders a workbook to a temporary file outside the output
// folder and compares bytes; when they differ, it names the parts of the
// archive that do.
func checkBinary(ctx context.Context, path string, render func(context.Context, io.Writer, string) error) (*results.Difference, error) {
	got, _, d, err := openRegular(path)
	if got == nil {
		return d, err
	}
	defer got.Close()
	// The rendering and its scratch files go into a scratch folder of this
	// process, which the next check removes should this one be killed.
	atomicfs.RemoveStaleScratch(".ckptlab-xlsx-*") // left by checks before scratch folders
	scratch, release, err := atomicfs.MkdirScratch("ckptlab-check-*")
	if err != nil {
		return nil, err
	}
	defer release()
	want, err := os.Create(filepath.Join(scratch, "want"+filepath.Ext(path)))
	if err != nil {
		return nil, err
	}
	defer want.Close()
	bw := bufio.NewWriterSize(want, 1<<16)
	if err := render(ctx, bw, scratch); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if same, err := sameContent(want, got); err != nil || same {
		return nil, err
	}
	parts, err := workbook.Diff(want, got)
	if err != nil {
		return &results.Difference{Detail: err.Error()}, nil
	}
	if len(parts) == 0 {
		return &results.Difference{Detail: "every part is the same, but not the layout of the archive"}, nil
	}
	return &results.Difference{Parts: parts}, nil
}

// sameContent reports whether two files hold the same bytes, reading both
// from the start.
func sameContent(a, b *os.File) (bool, error) {
	ra := bufio.NewReaderSize(io.NewSectionReader(a, 0, 1<<62), 1<<16)
	rb := bufio.NewReaderSize(io.NewSectionReader(b, 0, 1<<62), 1<<16)
	bufA, bufB := make([]byte, 1<<15), make([]byte, 1<<15)
	for {
		na, errA := io.ReadFull(ra, bufA)
		nb, errB := io.ReadFull(rb, bufB)
		if !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false, nil
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		if errA != nil && !endA {
			return false, errA
		}
		if errB != nil && !endB {
			return false, errB
		}
		if endA || endB {
			return endA && endB, nil
		}
	}
}
