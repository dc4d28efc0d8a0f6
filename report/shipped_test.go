package report

import (
	"bytes"
	"context"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"ckptlab/internal/testkit"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// shippedResults evaluates every experiment of experiments/ as shipped.
func shippedResults(t *testing.T) []*result {
	t.Helper()
	paths, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no experiments found: %v", err)
	}
	var out []*result
	for _, path := range paths {
		e, err := experiment.Load(path, experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := evaluateRun(context.Background(), e, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// maxTableCells is the most cells a row of a Markdown table may have.
const maxTableCells = 8

// TestShippedMarkdownTablesFit checks that no Markdown table of a shipped
// experiment is wider than maxTableCells columns, and that a worker sweep
// shows its partitioned recovery as one table.
func TestShippedMarkdownTablesFit(t *testing.T) {
	for _, r := range shippedResults(t) {
		var buf bytes.Buffer
		if err := results.WriteMarkdown(&buf, r.set([]string{results.FormatMD})); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		for i, line := range strings.Split(md, "\n") {
			if !strings.HasPrefix(line, "|") {
				continue
			}
			cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
			if cells > maxTableCells {
				t.Errorf("%s.md:%d: a table row of %d cells, want at most %d: %.100s", r.Exp.Name, i+1, cells, maxTableCells, line)
				break
			}
		}
		if r.Exp.Name == "workers" {
			if n := strings.Count(md, "| partitioned by | workers | interval |"); n != 1 {
				t.Errorf("workers.md has %d partition tables, want one", n)
			}
		}
	}
}

// maxFirstLine is the most characters the headline's first line has: it
// is what a CI log or a notification shows of it.
const maxFirstLine = 120

// schedulePoints matches the points a line names a schedule by.
var schedulePoints = regexp.MustCompile(`after (\d{4}-\d{2}(?:, \d{4}-\d{2})*(?:,? … and \d{4}-\d{2}| and \d{4}-\d{2})?)`)

// TestShippedHeadlines reads every shipped experiment's headline as a
// newcomer would: a short first line, at most a dozen lines, a schedule's
// points named once in a line, worst-case totals (whole rows) without
// decimals, and sources alike named by what they are, not "more alike".
func TestShippedHeadlines(t *testing.T) {
	worst := regexp.MustCompile(`worst case least at [^(]*\(([^ ]+) rows\)`)
	for _, r := range shippedResults(t) {
		h := r.headline()
		if len(h) == 0 || len(h) > maxHeadline {
			t.Errorf("%s: a headline of %d lines", r.Exp.Name, len(h))
			continue
		}
		if n := utf8.RuneCountInString(h[0]); n > maxFirstLine {
			t.Errorf("%s: the first line has %d characters, want at most %d: %s", r.Exp.Name, n, maxFirstLine, h[0])
		}
		for _, line := range h {
			seen := map[string]bool{}
			for _, m := range schedulePoints.FindAllStringSubmatch(line, -1) {
				if seen[m[1]] {
					t.Errorf("%s: a line names the points %s twice: %s", r.Exp.Name, m[1], line)
				}
				seen[m[1]] = true
			}
			for _, m := range worst.FindAllStringSubmatch(line, -1) {
				if strings.Contains(m[1], ".") {
					t.Errorf("%s: a worst case of %s rows, want a whole number: %s", r.Exp.Name, m[1], line)
				}
			}
			if strings.Contains(line, "more alike") {
				t.Errorf("%s: %s", r.Exp.Name, line)
			}
		}
	}
}

// TestWorkerSweepPrintsOnePartitionTable prints workers.yaml's workbook
// through LibreOffice and checks its partition sheet: one table, its
// header on every printed page of it.
func TestWorkerSweepPrintsOnePartitionTable(t *testing.T) {
	t.Parallel()
	tools := testkit.RequireSlow(t, "soffice", "pdftotext")
	soffice, pdftotext := tools[0], tools[1]
	_, path := whatIfWorkbook(t, "workers.yaml")
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("partition")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	headers := 0
	for _, r := range rows {
		if len(r) > 0 && r[0] == "partitioned by" {
			headers++
		}
	}
	if headers != 1 {
		t.Errorf("the partition sheet has %d header rows, want one table", headers)
	}
	work := t.TempDir()
	profile := url.URL{Scheme: "file", Path: filepath.Join(work, "profile")}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, soffice, "-env:UserInstallation="+profile.String(),
		"--headless", "--norestore", "--convert-to", "pdf", "--outdir", work, path).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	text, err := exec.Command(pdftotext, "-layout", filepath.Join(work, "workers.pdf"), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	footer := regexp.MustCompile(`(?m)^\s*partition\s+page \d+ of \d+\s*$`)
	header := regexp.MustCompile(`(?m)^\s*partitioned by\s+workers\s+interval\s+whole job from scratch`)
	pages := 0
	for i, page := range strings.Split(string(text), "\f") {
		if !footer.MatchString(page) {
			continue
		}
		pages++
		if !header.MatchString(page) {
			t.Errorf("printed page %d, of the partition sheet, has no column header:\n%s", i+1, page)
		}
	}
	if pages == 0 || pages > 2 {
		t.Errorf("the partition sheet prints on %d pages, want 1 or 2 for 16 worker counts × 6 intervals", pages)
	}
}
