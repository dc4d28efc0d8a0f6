//go:build unix

package diff

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ckptlab/report"
)

// widen appends n metric columns to every row of a table of the folder,
// named by name(i), each holding value.
func widen(t *testing.T, dir, table string, n int, name func(i int) string, value string) {
	t.Helper()
	path := filepath.Join(dir, table+".csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var head, cells strings.Builder
	for i := range n {
		head.WriteString("," + name(i))
		cells.WriteString("," + value)
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		b.WriteString(line)
		if i == 0 {
			b.WriteString(head.String())
		} else {
			b.WriteString(cells.String())
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cpuTime is the user and system time the process has taken.
func cpuTime(t *testing.T) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestWideTables compares folders of 100,000 grid columns and 50,000
// decision columns, every one changed, within seconds of processor time:
// matching columns by name is linear, where it was quadratic (minutes).
func TestWideTables(t *testing.T) {
	if testing.Short() {
		t.Skip("a wide table takes a second")
	}
	const gridColumns, decisionColumns = 100_000, 50_000
	dirs := [2]string{csvFolder(t), csvFolder(t)}
	for i, dir := range dirs {
		v := strconv.Itoa(i + 1)
		widen(t, dir, gridTable, gridColumns, func(j int) string { return "m" + strconv.Itoa(j) }, v)
		widen(t, dir, decisionsTable, decisionColumns, func(j int) string {
			if j%2 == 0 {
				return "c" + strconv.Itoa(j) + "_interval"
			}
			return "c" + strconv.Itoa(j-1) + "_total"
		}, v)
	}
	start := cpuTime(t)
	old, err := FolderSide(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	new, err := FolderSide(dirs[1])
	if err != nil {
		t.Fatal(err)
	}
	e, err := Pair(old, new)
	if err != nil {
		t.Fatal(err)
	}
	took := cpuTime(t) - start
	if changed := len(e.Grid.Columns) - (len(report.GridColumns()) - len(gridKey)); changed != gridColumns || e.Grid.Columns[len(e.Grid.Columns)-1].Changed != 24 {
		t.Errorf("%d metric columns beyond the lesson's, the last changed at %d points; want %d, 24", changed, e.Grid.Columns[len(e.Grid.Columns)-1].Changed, gridColumns)
	}
	if want := 4 * decisionColumns / 2; len(e.Decisions.Changed) != want {
		t.Errorf("%d choices changed, want %d (a criterion per pair of columns, 4 decisions)", len(e.Decisions.Changed), want)
	}
	if took > 10*time.Second {
		t.Errorf("the comparison took %v of processor time, want well under 10 s", took)
	}
	t.Logf("%v of processor time", took)
}
